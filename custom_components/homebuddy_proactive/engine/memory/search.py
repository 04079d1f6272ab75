"""How a safe FTS5 query is built over the memory search index.

The index (``memory_search`` in ``storage/schema.sql``) holds text folded by :func:`search_text`
(``storage/search_index.py``, the engine's one fold), and query terms are folded the same way:
case-insensitive and without diacritics in every script, so "παπαδοπουλος" finds
"Παπαδόπουλος" and "Soren" finds "Søren".

A query is an OR of the utterance's longest content words (stopwords skipped), each a quoted
FTS5 string (never raw syntax) or'd with its 4- or 6-letter prefix, so "doctors" finds "doctor"
and "Παπαδόπουλο" finds "Παπαδόπουλος". BM25 costs about 2 µs per matching row, so words that
match too many rows are left out (they carry little information anyway) and the cost stays
bounded at any size of the store.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from ..storage.search_index import search_text
from ..text.normalize import fold
from ..text.similarity import content_words

__all__ = [
    "MATCH_BUDGET",
    "MatchPlan",
    "TermPattern",
    "document_count_sql",
    "name_terms",
    "phrase",
    "plan_match",
    "prefix_of",
    "query_terms",
    "quote",
    "search_text",
    "term_patterns",
]

MAX_QUERY_TERMS: Final = 8
# Matching rows BM25 may rank for one query; beyond it the commonest words are dropped.
MATCH_BUDGET: Final = 400
MAX_AND_TERMS: Final = 3
# Prefix lengths of the index (``prefix = '4 6'`` in schema.sql) and the shortest prefixed word.
PREFIX_LENGTHS: Final = (4, 6)
MIN_PREFIXED_LENGTH: Final = 5

_TOKEN_RE: Final = re.compile(r"[^\W_]+")


def query_terms(text: str, limit: int = MAX_QUERY_TERMS) -> list[str]:
    """The folded content words of an utterance, longest first, as index tokens."""
    terms: set[str] = set()
    for word in content_words(text):
        terms.update(token for token in _TOKEN_RE.findall(word) if len(token) > 1)
    return sorted(terms, key=lambda term: (-len(term), term))[:limit]


def name_terms(text: str) -> list[str]:
    """Folded tokens of the capitalised words after the first (names, in most languages)."""
    words = _TOKEN_RE.findall(text)
    names = {fold(word) for word in words[1:] if len(word) >= 3 and word[0].isupper()}
    return sorted(names)


def prefix_of(term: str) -> str | None:
    """The prefix a word is also searched by: its first 6 letters, or 4 for shorter words.

    A crude, language-neutral stem ("doctors" → "doctor*", "Παπαδόπουλο" → "παπαδο*"); the
    index keeps prefixes of exactly these lengths, so prefix queries stay cheap.
    """
    if term.isdigit() or len(term) < MIN_PREFIXED_LENGTH:
        return None
    return term[: PREFIX_LENGTHS[1] if len(term) > PREFIX_LENGTHS[1] else PREFIX_LENGTHS[0]]


def quote(term: str) -> str:
    """An FTS5 string literal (double quotes doubled), so no input is read as syntax."""
    return '"' + term.replace('"', '""') + '"'


@dataclass(frozen=True, kw_only=True)
class TermPattern:
    """One query word as searched: the whole token, or also its prefix."""

    term: str
    documents: int = 0

    @property
    def expression(self) -> str:
        """The FTS5 expression of this word."""
        prefix = prefix_of(self.term)
        if prefix is None:
            return quote(self.term)
        return f"({quote(self.term)} OR {quote(prefix)}*)"

    @property
    def matching(self) -> str:
        """An FTS5 expression matching the same rows as :attr:`expression`, cheaper to count:
        the prefix alone (a row with the word has a token starting with its prefix)."""
        prefix = prefix_of(self.term)
        return quote(self.term) if prefix is None else f"{quote(prefix)}*"


def term_patterns(terms: Iterable[str]) -> list[TermPattern]:
    """Patterns for the terms (document counts still unknown)."""
    return [TermPattern(term=term) for term in terms]


def document_count_sql(patterns: Sequence[TermPattern], cap: int) -> tuple[str, list[str | int]]:
    """One statement counting, per pattern, the indexed rows it matches, up to ``cap + 1``.

    Counting stops at the cap: a word that common is left out anyway, and an exact count
    would cost as much as the search it is meant to bound. Each pattern is counted by
    :attr:`TermPattern.matching` (one phrase instead of two: 40 % less time at 100,000 rows).
    """
    sql = " UNION ALL ".join(
        "SELECT (SELECT count(*) FROM (SELECT 1 FROM memory_search"
        " WHERE memory_search MATCH ? LIMIT ?))"
        for _ in patterns
    )
    args: list[str | int] = []
    for pattern in patterns:
        args += [pattern.matching, cap + 1]
    return sql, args


@dataclass(frozen=True, kw_only=True)
class MatchPlan:
    """The FTS5 expression to run, and whether BM25 may rank its matches."""

    expression: str
    ranked: bool
    fallback: str | None = None


def plan_match(patterns: Sequence[TermPattern], budget: int = MATCH_BUDGET) -> MatchPlan | None:
    """Choose the rarest terms whose matches fit the budget; None when nothing can match.

    When even the rarest word matches more rows than the budget, no word is informative: the
    words are then required together and the newest matches are taken unranked (the caller
    orders them by score); ``fallback`` is the rarest word alone, for when they never meet.
    """
    usable = sorted((p for p in patterns if p.documents > 0), key=lambda p: p.documents)
    if not usable:
        return None
    if usable[0].documents > budget:
        together = usable[:MAX_AND_TERMS]
        return MatchPlan(
            expression=" AND ".join(p.expression for p in together),
            ranked=False,
            fallback=usable[0].expression if len(together) > 1 else None,
        )
    chosen: list[TermPattern] = []
    total = 0
    for pattern in usable:
        if total + pattern.documents > budget:
            break
        chosen.append(pattern)
        total += pattern.documents
    return MatchPlan(expression=" OR ".join(p.expression for p in chosen), ranked=True)


def phrase(text: str) -> str | None:
    """An FTS5 phrase matching the folded tokens of ``text`` in order, or None."""
    tokens = _TOKEN_RE.findall(search_text(text))
    return quote(" ".join(tokens)) if tokens else None
