"""The one text normalisation every rule, index and matcher compares with: ``fold``.

Folded text is case-folded, without diacritics (Greek tonos included), with typographic
apostrophes, dashes and no-break spaces unified. Rules written in natural spelling are compiled
against folded text with :func:`compile_folded`.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Callable
from typing import Final

_CHAR_TABLE: Final = str.maketrans(
    {
        "\u2019": "'",
        "\u2018": "'",
        "\u02bc": "'",
        "\u00b4": "'",
        "\u2032": "'",
        "`": "'",
        "\u2010": "-",
        "\u2011": "-",
        "\u00a0": " ",
        "\u202f": " ",
    }
)
# The characters _CHAR_TABLE unifies: a text without one is already unified.
_TYPOGRAPHY_RE: Final = re.compile("[" + "".join(chr(code) for code in _CHAR_TABLE) + "]")
_SPECIAL_FOLD: Final = {"ø": "o", "đ": "d", "ł": "l", "ı": "i", "ŀ": "l", "ħ": "h"}


@functools.lru_cache(maxsize=4096)
def _fold_char(char: str) -> str:
    """Fold one character: remove diacritics and case-fold (may return several characters)."""
    decomposed = unicodedata.normalize("NFD", char)
    base = "".join(c for c in decomposed if not unicodedata.combining(c)) or char
    folded = base.casefold()
    return _SPECIAL_FOLD.get(folded, folded)


def _aligned_char(char: str) -> str:
    """Fold one (unified) character to exactly one character."""
    folded = _fold_char(char)
    if len(folded) != 1:
        lower = char.lower()
        folded = lower if len(lower) == 1 else char
    return folded


class _FoldTable(dict[int, str]):
    """A ``str.translate`` table filled on first sight of each character.

    Translating with it is the same as unifying the typography and folding each character in
    a Python loop, at the speed of ``str.translate``. Bounded: past :data:`_TABLE_SIZE`
    characters, a new one is folded without being kept.
    """

    def __init__(self, fold_one: Callable[[str], str]) -> None:
        super().__init__()
        self._fold_one = fold_one

    def __missing__(self, code: int) -> str:
        folded = "".join(self._fold_one(c) for c in chr(code).translate(_CHAR_TABLE))
        if len(self) < _TABLE_SIZE:
            self[code] = folded
        return folded


_TABLE_SIZE: Final = 8192
_FOLD_TABLE: Final = _FoldTable(_fold_char)
_ALIGNED_TABLE: Final = _FoldTable(_aligned_char)


def _latin1_table(table: _FoldTable) -> tuple[bytes, re.Pattern[str]]:
    """``table`` for Latin-1 text as a ``bytes.translate`` table (each byte a character), and
    the Latin-1 characters it cannot hold (they fold to several characters, or beyond)."""
    folded = [table[code] for code in range(256)]
    unfit = [code for code, out in enumerate(folded) if len(out) != 1 or ord(out) > 0xFF]
    image = bytes(code if code in unfit else ord(out) for code, out in enumerate(folded))
    return image, re.compile(
        "[" + "".join(re.escape(chr(code)) for code in unfit) + "\u0100-\U0010ffff]"
    )


def _translate(text: str, table: _FoldTable, latin1: tuple[bytes, re.Pattern[str]]) -> str:
    """``text.translate(table)``: for Latin-1 text (French, German, Spanish…: every character
    below U+0100, each folding to one of them) through bytes, several times quicker."""
    image, unfit = latin1
    if unfit.search(text) is None:
        return text.encode("latin-1").translate(image).decode("latin-1")
    return text.translate(table)


_FOLD_LATIN1: Final = _latin1_table(_FOLD_TABLE)
_ALIGNED_LATIN1: Final = _latin1_table(_ALIGNED_TABLE)


def _fold_ascii(text: str) -> str:
    """Fold ASCII ``text``: its characters have no diacritics and fold to their lowercase."""
    return text.lower().replace("`", "'")


def fold_text(text: str) -> str:
    """:func:`fold`, not remembered: for a text read once (a clause, an utterance).

    Folding is character by character, and white space folds to itself and nothing else to
    white space, so folding a text and splitting it at white space gives the folded words.
    """
    if text.isascii():
        return _fold_ascii(text)  # the same as the table, a few times quicker
    return _translate(text, _FOLD_TABLE, _FOLD_LATIN1)


@functools.lru_cache(maxsize=16384)
def fold(text: str) -> str:
    """Return ``text`` case-folded, without diacritics and with unified apostrophes."""
    return fold_text(text)


@functools.lru_cache(maxsize=1024)
def fold_aligned(text: str) -> str:
    """Fold ``text`` keeping exactly one output character per input character.

    Cached: the rules of one utterance fold the same sentence several times.
    """
    if text.isascii():
        return _fold_ascii(text)  # one character each already
    return _translate(text, _ALIGNED_TABLE, _ALIGNED_LATIN1)


def fold_pattern(pattern: str) -> str:
    """Fold the literal characters of a regular expression, leaving escapes and groups intact."""
    out: list[str] = []
    for piece in re.split(r"(\(\?P<\w+>)", pattern):
        if piece.startswith("(?P<"):
            out.append(piece)
            continue
        out.append(_fold_regex_piece(piece))
    return "".join(out)


def _fold_regex_piece(pattern: str) -> str:
    """Fold the literal characters of a fragment of a regular expression."""
    out: list[str] = []
    escaped = False
    for char in pattern:
        if escaped:
            out.append(char)
            escaped = False
        elif char == "\\":
            out.append(char)
            escaped = True
        else:
            folded = fold_aligned(char)
            out.append(folded)
    return "".join(out)


def compile_folded(pattern: str) -> re.Pattern[str]:
    """Compile a pattern written in natural spelling against folded text."""
    return re.compile(fold_pattern(pattern))


def folded_set(*words: str) -> frozenset[str]:
    """Return the folded forms of ``words``."""
    return frozenset(fold(w) for w in words)


def folded_words(text: str) -> frozenset[str]:
    """Return the folded forms of the whitespace-separated words of ``text``."""
    return folded_set(*text.split())


def unify_typography(text: str) -> str:
    """Unify apostrophes, dashes and no-break spaces, keeping case and accents."""
    if _TYPOGRAPHY_RE.search(text) is None:
        return text  # most text has none: no translation needed
    return text.translate(_CHAR_TABLE)


def strip_accents(text: str) -> str:
    """Remove diacritics but keep case (ΕΦΚΆ → ΕΦΚΑ), for rules where capitals matter."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))
