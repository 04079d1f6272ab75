"""Whether an utterance asks a question, with or without punctuation.

Explicit marks ("?", "¿", the Greek ";") decide at once; otherwise the last two sentences are
split into clauses and each likely language's rules (``rules/``) are applied to every clause,
after its fillers were stripped, and to a question that starts inside a run-on sentence.
Which languages are likely is the caller's to say: :func:`.analysis.is_question` reads an
utterance in its identified language and the other plausible ones.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Sequence
from typing import Final

from .identify import _base_code
from .rules import RULES
from .rules.common import _generic_question, _statement_form
from .rules.midsentence import _mid_question
from .segment import _GREEK_RE, _clauses, _sentences, _strip

_EXPLICIT_MARKS: Final = frozenset("?\uff1f\u00bf\u203d\u2e2e\u061f\u037e")
# The most words a tag question of any language has ("…, n'est-ce pas").
_LONGEST_TAG: Final = max(len(tag) for rules in RULES.values() for tag in rules.tags)
_EXPLICIT_RE: Final = re.compile("[" + re.escape("".join(sorted(_EXPLICIT_MARKS))) + "]")
_GREEK_SEMICOLON_RE: Final = re.compile(r";(?=[\s\"'”»)]*(?:$|\s))")


def _explicit_question(text: str, language: str | None) -> bool:
    """Return True for explicit question punctuation ("?", "？", "¿", Greek ";")."""
    if _EXPLICIT_RE.search(text) is not None:
        return True
    if ";" not in text:
        return False
    for match in _GREEK_SEMICOLON_RE.finditer(text):
        before = re.split(r"[.!?·;\n]", text[: match.start()])[-1]
        if language == "el" or _GREEK_RE.search(before):
            return True
    return False


# Acute, grave and circumflex accents and the Greek tonos: a transcript that carries them
# writes "dónde"/"πού" for questions ("ñ" or "ü" alone say nothing about that).
_TONE_MARKS_RE: Final = re.compile("[\u0300-\u0302]")


@functools.lru_cache(maxsize=256)
def _accented(text: str) -> bool:
    """Whether ``text`` carries tone marks (cached: choosing among plausible languages asks
    once per language)."""
    if text.isascii():
        return False  # its decomposition is itself
    return _TONE_MARKS_RE.search(unicodedata.normalize("NFD", text)) is not None


def _asks(text: str, language: str | None, candidates: Sequence[str]) -> bool:
    """Apply the question rules of ``candidates`` (most likely first) to NFC ``text``.

    A question is found by a rule of no language in particular or by one language's rules:
    each part is decided once per utterance (choosing the language asks each plausible
    language alone, the analysis then its candidates together).
    """
    if _explicit_question(text, _base_code(language)):
        return True
    if _asks_in(text, None):
        return True
    return any(_asks_in(text, code) for code in candidates if code in RULES)


@functools.lru_cache(maxsize=256)
def _asks_in(text: str, code: str | None) -> bool:
    """Whether the rules of language ``code`` (None: the rules of no language) read NFC
    ``text`` as a question, in its last two sentences (explicit marks aside)."""
    sentences = _sentences(text)
    if not sentences:
        return False
    accented = _accented(text)
    languages = [] if code is None else [code]
    rules = None if code is None else RULES[code]
    for sentence in sentences[-2:]:
        clauses = _clauses(sentence, accented)
        if (
            sentence is sentences[-1]
            and clauses
            and _mid_question(clauses[-1], languages, any_language=code is None)
        ):
            return True
        for clause in clauses:
            if rules is None:
                if _generic_question(clause.words):
                    return True
                continue
            if (
                clause.index > 0
                and len(clause.words) <= _LONGEST_TAG
                and clause.words in rules.tags
            ):
                return True
            body = _strip(clause, rules.fillers)
            # Both are pure: the rarely true rule first, the form only of what it finds.
            if body.words and rules.is_question(body) and not _statement_form(body.words, body.raw):
                return True
    return False
