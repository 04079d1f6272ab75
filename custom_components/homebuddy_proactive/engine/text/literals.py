"""The words a regular expression cannot match without, read from the expression itself.

Most rules search an utterance with one large alternation, each branch starting at a word
boundary, which Python's regular expressions try at every position of the text. Every branch
of such a rule needs some literal text ("topic", "sujet", "θέμα"): :func:`required_literals`
reads, from the parsed expression, a set of strings one of which every match contains, and
:class:`Search` first looks for those (one alternation of plain strings shaped as a trie, a
few times quicker to scan for) and runs the rule only on a text that has one. Derived from the rule
itself, the test cannot drift from it: a rule that gains a branch without literal text simply
loses its quick test.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable
from typing import Any, Final

# The parser of the ``re`` module (private, stable since Python 3.11; typeshed has no stubs).
_PARSER: Final[Any] = importlib.import_module("re._parser")
_OPS: Final[Any] = importlib.import_module("re._constants")
_REPEATS: Final = frozenset({_OPS.MAX_REPEAT, _OPS.MIN_REPEAT, _OPS.POSSESSIVE_REPEAT})

# A requirement: one of these strings occurs in every text the expression matches.
type _Requirement = frozenset[str]


def _best(candidates: Iterable[_Requirement]) -> _Requirement | None:
    """The most telling requirement: its shortest string the longest, then the fewest."""
    best: _Requirement | None = None
    best_score = (0, 0)
    for candidate in candidates:
        score = (min(map(len, candidate)), -len(candidate))
        if score > best_score:
            best, best_score = candidate, score
    return best


def _requirement(items: Iterable[tuple[Any, Any]]) -> _Requirement | None:
    """The requirement of a parsed sequence, or None when it needs no literal text."""
    candidates: list[_Requirement] = []
    run: list[str] = []
    for op, argument in items:
        if op is _OPS.LITERAL:
            run.append(chr(argument))
            continue
        if op is _OPS.AT:
            continue  # zero-width (a boundary, an anchor): the literals around it are adjacent
        if run:
            candidates.append(frozenset({"".join(run)}))
            run = []
        found = _item_requirement(op, argument)
        if found is not None:
            candidates.append(found)
    if run:
        candidates.append(frozenset({"".join(run)}))
    return _best(candidates)


def _item_requirement(op: Any, argument: Any) -> _Requirement | None:
    """The requirement of one parsed item that is not a literal character."""
    if op is _OPS.SUBPATTERN:
        _group, add_flags, _del_flags, pattern = argument
        if add_flags & re.IGNORECASE:
            return None
        return _requirement(pattern.data)
    if op is _OPS.ATOMIC_GROUP:
        return _requirement(argument.data)
    if op is _OPS.BRANCH:
        union: set[str] = set()
        for branch in argument[1]:
            found = _requirement(branch.data)
            if found is None:
                return None  # a branch without literal text: the alternation needs none
            union |= found
        return frozenset(union)
    if op in _REPEATS:
        minimum, _maximum, pattern = argument
        return _requirement(pattern.data) if minimum >= 1 else None
    return None  # a class, any character, a lookaround, a back reference: no literal text


def required_literals(pattern: re.Pattern[str]) -> frozenset[str] | None:
    """A set of strings one of which every match of ``pattern`` contains, or None."""
    if pattern.flags & re.IGNORECASE:
        return None
    return _requirement(_PARSER.parse(pattern.pattern, pattern.flags).data)


def _trie_pattern(literals: Iterable[str]) -> str:
    """An alternation matching where one of ``literals`` starts, shaped as a trie."""
    trie: dict[str, Any] = {}
    for literal in sorted(literals):
        node = trie
        for char in literal:
            if node.get("") is True:
                break  # a shorter literal already ends here: it suffices
            node = node.setdefault(char, {})
        else:
            node.clear()
            node[""] = True

    def build(node: dict[str, Any]) -> str:
        if node.get("") is True:
            return ""
        branches = [re.escape(char) + build(child) for char, child in sorted(node.items())]
        return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"

    return build(trie)


class Search:
    """Whether ``pattern`` occurs in a text, skipping texts that lack its required literals.

    ``parts``, when given, are the alternatives ``pattern`` is the alternation of: a text
    that has a required literal is searched only with the parts whose own literals it has
    (one large alternation is tried branch by branch at every position; a part that cannot
    match is not tried at all).
    """

    __slots__ = ("gate", "literals", "parts", "pattern")

    def __init__(self, pattern: re.Pattern[str], parts: Iterable[re.Pattern[str]] = ()) -> None:
        self.pattern = pattern
        literals = required_literals(pattern)
        self.gate = re.compile(_trie_pattern(literals)) if literals else None
        self.parts = tuple((required_literals(part), part) for part in parts)
        self.literals = tuple(frozenset().union(*(needed or () for needed, _ in self.parts)))

    def __call__(self, text: str) -> bool:
        """True when the pattern occurs in ``text``."""
        gate = self.gate
        if gate is not None and gate.search(text) is None:
            return False
        if self.parts:
            present = {literal for literal in self.literals if literal in text}
            return any(
                (needed is None or not present.isdisjoint(needed)) and part.search(text)
                for needed, part in self.parts
            )
        return self.pattern.search(text) is not None
