"""The language-independent machinery every rule reads: sentences, clauses and tokens.

An utterance is split into sentences and clauses; each clause is tokenized three ways (folded,
accented lowercase, original) with French and Italian elisions split off, and its leading
fillers, vocatives and answer words are stripped into a :class:`_Body`. Phrase tables are word
tuples matched at the start or end of a clause.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final

from .normalize import _CHAR_TABLE
from .normalize import fold as _fold
from .normalize import fold_text as _fold_text
from .normalize import folded_words as _fw
from .normalize import unify_typography as _unify

_GREEK_RE: Final = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
_LETTER_RE: Final = re.compile(r"[^\W\d_]")
_WORD_RE: Final = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")


def _has_letters(text: str) -> bool:
    """Return True when ``text`` contains at least one letter."""
    return bool(_LETTER_RE.search(text))


def _find_words(text: str) -> list[str]:
    """Return ``_WORD_RE.findall(text)``, a few times quicker on speech.

    A word never spans white space (its characters are letters, digits, apostrophes and
    hyphens), so each space-separated chunk is read alone, and a chunk of letters and digits
    only (most of them) is one word as it is.
    """
    words: list[str] = []
    for chunk in text.split():
        if chunk.isalnum():  # the same test per character as the expression's [^\W_]
            words.append(chunk)
        else:
            words += _WORD_RE.findall(chunk)
    return words


def _words(text: str) -> list[str]:
    """Return the folded words of ``text``."""
    return _find_words(_fold(text))


_ELISION_HEADS: Final = frozenset(
    {
        "j",
        "c",
        "qu",
        "l",
        "d",
        "n",
        "s",
        "m",
        "t",
        "jusqu",
        "lorsqu",
        "puisqu",
        "quoiqu",
        "presqu",
        "dov",
        "com",
        "cos",
        "quand",
        "qual",
        "un",
        "all",
        "dell",
        "nell",
        "sull",
        "dall",
        "quell",
        "quest",
        "v",
        "μ",
        "σ",
        "τ",
    }
)
# Sentences end at a run of end marks followed by white space, a closing quote or bracket, or
# the end of the text; or at a run of breaks, whatever follows.
_SENTENCE_ENDS: Final = ".!?\u2026"
_SENTENCE_CLOSERS: Final = "\"'\u201d\u00bb)"
_SENTENCE_BREAKS: Final = ";\u037e\u0387\u00b7\u3002\uff01\uff1f\n\r\u00bf\u00a1\u203d\u061f"
_SENTENCE_RE: Final = re.compile(
    f"[{re.escape(_SENTENCE_ENDS)}]+(?=[\\s{re.escape(_SENTENCE_CLOSERS)}]|$)"
    f"|[{re.escape(_SENTENCE_BREAKS)}]+"
)
# Any character a separator of _SENTENCE_RE starts with (one class: quick to search).
_SENTENCE_MARK_RE: Final = re.compile(f"[{re.escape(_SENTENCE_ENDS + _SENTENCE_BREAKS)}]")
_CLAUSE_RE: Final = re.compile(r"[,:，、]+|\s[-–—]+\s|[–—]")
_GREEK_OTI_RE: Final = re.compile(r"\b([οΟόΌ]),\s?(τι|ΤΙ|Τι)\b")
_GREEK_O_RE: Final = re.compile("[οΟόΌ]")  # a text without one has no "ό,τι" to join


_ANSWER_WORDS: Final = _fw("yes yeah yep yup no nope nah oui ouais non nein ja jo sim não nao")
_ANSWER_RAW: Final = frozenset({"sí", "sì", "ναι", "όχι", "οχι"})


# _Clause and _Body are read-only by convention but not frozen: a frozen dataclass sets each
# field through object.__setattr__, which makes building one several times slower, and one
# of each is built per clause (and per language) of every final.
@dataclass(slots=True)
class _Clause:
    """One clause of an utterance: folded words, accented lowercase words, original words."""

    words: tuple[str, ...]
    raw: tuple[str, ...]
    orig: tuple[str, ...]
    index: int
    accented: bool
    previous: tuple[str, ...] = ()
    after_answer: bool = False
    following: tuple[str, ...] = ()  # original tokens of the next clause


def _split_elision(token: str) -> list[str]:
    """Split French/Italian elisions ("j'étais" → "j'", "étais"), keeping English contractions."""
    if "'" not in token:
        return [token]
    head, _, tail = token.partition("'")
    if tail and _fold(head) in _ELISION_HEADS:
        return [head + "'", *_split_elision(tail)]
    return [token]


@functools.lru_cache(maxsize=16384)
def _token(word: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Return the (folded, lowercase-accented, original) tokens of one word of a clause.

    Cached: speech repeats its words, and every clause of every utterance is tokenized.
    """
    orig = tuple(_split_elision(word))
    raw = tuple(t.lower() for t in orig)
    return tuple(_fold(t) for t in raw), raw, orig


# The characters unify_typography changes that are letters (the others end a word).
_ALNUM_TYPOGRAPHY_RE: Final = re.compile(
    "[" + re.escape("".join(chr(code) for code in _CHAR_TABLE if chr(code).isalnum())) + "]"
)


def _inner_hyphens(segment: str) -> bool:
    """Whether each hyphen of ``segment`` (its words letters, digits and hyphens) joins two
    letters or digits ("rendez-vous"): one word of the expression, as a word of letters is."""
    return not (
        "--" in segment
        or " -" in segment
        or "- " in segment
        or segment.startswith("-")
        or segment.endswith("-")
    )


def _tokenize(segment: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Return (folded, lowercase-accented, original) tokens of a clause."""
    compact = segment.replace(" ", "")
    if (
        compact.isalnum() or (compact.replace("-", "").isalnum() and _inner_hyphens(segment))
    ) and _ALNUM_TYPOGRAPHY_RE.search(segment) is None:
        # Words of letters and digits only (most clauses), perhaps joined by hyphens inside
        # them: each chunk is one word, with no elision to split and nothing to unify, and
        # lowercasing or folding the clause is doing so to each word (character by character;
        # a final sigma looks no further than the white space around its word).
        lowered = segment.lower()
        return tuple(_fold_text(lowered).split()), tuple(lowered.split()), tuple(segment.split())
    return _tokenize_words(segment)


def _tokenize_words(segment: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """:func:`_tokenize` word by word, for any clause."""
    words: list[str] = []
    raw: list[str] = []
    orig: list[str] = []
    for word in _find_words(_unify(segment)):
        folded, lowered, original = _token(word)
        words += folded
        raw += lowered
        orig += original
    return tuple(words), tuple(raw), tuple(orig)


@functools.lru_cache(maxsize=256)
def _sentences(text: str) -> tuple[str, ...]:
    """Split an utterance into sentences (cached: identification reads it once per language)."""
    if _GREEK_O_RE.search(text) is not None:
        text = _GREEK_OTI_RE.sub(r"\1τι", text)
    # One sentence, perhaps ended by marks (most utterances): found without splitting. Before
    # its closing white space and quotes, a run of end marks (a separator: what follows it is
    # the lookahead's, or nothing) or none; before that, no character a separator starts with.
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in _SENTENCE_CLOSERS):
        end -= 1
    start = end
    while start and text[start - 1] in _SENTENCE_ENDS:
        start -= 1
    body = text[:start] if start < end else text
    if _SENTENCE_MARK_RE.search(body) is None:
        # What follows the body holds no letter (no sentence), or it is the whole text.
        return (body.strip(),) if body and _has_letters(body) else ()
    return tuple(s.strip() for s in _SENTENCE_RE.split(text) if s and _has_letters(s))


# Every separator of _CLAUSE_RE other than a run of commas has one of these characters, or a
# white space before a hyphen (a hyphen inside a word, "rendez-vous", separates nothing).
_CLAUSE_MARKS_RE: Final = re.compile("[:，、–—]")
_SPACED_HYPHEN_RE: Final = re.compile(r"\s-")


def _clause_texts(sentence: str) -> list[str]:
    """The pieces of ``sentence`` between clause separators (empty ones may be among them)."""
    if _CLAUSE_MARKS_RE.search(sentence) is not None or (
        "-" in sentence and _SPACED_HYPHEN_RE.search(sentence) is not None
    ):
        return _CLAUSE_RE.split(sentence)
    # Only commas separate: splitting at each one differs only by the empty pieces between
    # two commas in a row, which hold no word.
    return sentence.split(",")


@functools.lru_cache(maxsize=256)
def _clauses(sentence: str, accented: bool) -> tuple[_Clause, ...]:
    """Split a sentence into clauses at commas, colons and dashes.

    Cached: identifying a language reads a sentence with one language's rules, its analysis
    then with all of its candidates'.
    """
    parts = [tokens for tokens in map(_tokenize, _clause_texts(sentence)) if tokens[0]]
    result: list[_Clause] = []
    for index, (words, raw, orig) in enumerate(parts):
        previous = result[-1] if result else None
        after_answer = previous is not None and all(
            w in _ANSWER_WORDS or r in _ANSWER_RAW
            for w, r in zip(previous.words, previous.raw, strict=True)
        )
        result.append(
            _Clause(
                words,
                raw,
                orig,
                index,
                accented,
                previous.words if previous else (),
                after_answer,
                parts[index + 1][2] if index + 1 < len(parts) else (),
            )
        )
    return tuple(result)


@dataclass(slots=True)
class _Body:
    """A clause after its leading fillers were removed."""

    words: tuple[str, ...]
    raw: tuple[str, ...]
    orig: tuple[str, ...]
    answered: bool  # a yes/no answer word was removed from its start
    clause: _Clause


_FILLER_SOURCES: list[str] = []


def _fillers(text: str) -> frozenset[str]:
    """Return the folded filler words of ``text`` and remember their accented spelling."""
    _FILLER_SOURCES.append(text.lower())
    return _fw(text)


def _is_filler(word: str, raw: str, fillers: frozenset[str]) -> bool:
    """Return True for a filler; an accented word only matches its accented filler spelling."""
    if word not in fillers:
        return False
    return raw == word or raw in _raw_fillers()


@functools.cache
def _raw_fillers() -> frozenset[str]:
    """Return every filler word in its accented, lowercase spelling."""
    return frozenset(w for source in _FILLER_SOURCES for w in source.split())


def _strip(clause: _Clause, fillers: frozenset[str]) -> _Body:
    """Remove leading fillers, vocatives and answer words from a clause."""
    start = 0
    answered = clause.after_answer
    words = clause.words
    while start < len(words):
        word = words[start]
        if word in _ANSWER_WORDS or clause.raw[start] in _ANSWER_RAW:
            answered = True
        elif not _is_filler(word, clause.raw[start], fillers):
            break
        start += 1
    return _Body(words[start:], clause.raw[start:], clause.orig[start:], answered, clause)


class _Phrases(tuple[tuple[str, ...], ...]):
    """Word-tuple phrases, longest first, with their first and last words for a quick test."""

    firsts: frozenset[str]
    lasts: frozenset[str]


def _starts(words: Sequence[str], phrases: Iterable[tuple[str, ...]]) -> int:
    """Return the length of the first phrase that ``words`` starts with, or 0."""
    if not words or (isinstance(phrases, _Phrases) and words[0] not in phrases.firsts):
        return 0
    for phrase in phrases:
        if tuple(words[: len(phrase)]) == phrase:
            return len(phrase)
    return 0


def _phrases(*items: str) -> _Phrases:
    """Return folded word tuples for "|"-separated phrases, longest first."""
    tuples = {tuple(_fold(p).split()) for item in items for p in item.split("|") if p.strip()}
    result = _Phrases(sorted(tuples, key=len, reverse=True))
    result.firsts = frozenset(p[0] for p in result)
    result.lasts = frozenset(p[-1] for p in result)
    return result


def _ends_with(words: Sequence[str], phrases: Iterable[tuple[str, ...]]) -> bool:
    """Return True when ``words`` ends with one of ``phrases``."""
    if not words or (isinstance(phrases, _Phrases) and words[-1] not in phrases.lasts):
        return False
    return any(len(words) >= len(p) and tuple(words[-len(p) :]) == p for p in phrases)
