"""Glasses-card shaping: clean model or rule output and fit it to the display limits.

A card aims for ``target`` characters but a complete answer may use up to ``maximum``. Longer
text is cut at a sentence boundary, else at a word boundary with an ellipsis, else (text without
spaces, such as Chinese or Japanese) at ``maximum - 1`` characters with an ellipsis. Nothing is
ever removed because of its script: Greek, Japanese or Arabic text keeps its Latin acronyms and
product names, and the other way round.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

ELLIPSIS: Final = "…"

# Characters that end a sentence. ";" is Greek's question mark, "·" its semicolon (ano teleia).
_SENTENCE_END: Final = frozenset(
    ".!?;\u037e\u0387\u00b7\u3002\uff01\uff1f\u2026\u203c\u2047\u2048\u2049\u061f"
)
# Characters that end a sentence without needing a following space (CJK full-width marks).
_SENTENCE_END_NO_SPACE: Final = frozenset("\u3002\uff01\uff1f")
_CLOSERS: Final = frozenset("\"'”’»)]}」』】〉》")
_TRAILING_JUNK: Final = " \t,;:–—-/([{«“‘"
_MIN_SENTENCE_SHARE: Final = 0.4

_QUOTE_PAIRS: Final = (
    ('"', '"'),
    ("'", "'"),
    ("“", "”"),
    ("„", "“"),
    ("‘", "’"),
    ("«", "»"),
    ("「", "」"),
    ("『", "』"),
    ("`", "`"),
)

_LABEL_RE: Final = re.compile(
    r"^(?:card|answer|insight|response|reply|output|result|text|final answer|"
    r"carte|réponse|reponse|κάρτα|απάντηση|tarjeta|respuesta|karte|antwort|"
    r"scheda|risposta|cartão|cartao|resposta)\s*[:：]\s*",
    re.IGNORECASE,
)
_HEADER_RE: Final = re.compile(r"^\s{0,3}#{1,6}\s+")
_BULLET_RE: Final = re.compile(r"^\s*(?:[-*+•‣▪●◦]|\d{1,2}[.)])\s+")
_QUOTE_LINE_RE: Final = re.compile(r"^\s*>+\s?")
_RULE_LINE_RE: Final = re.compile(r"^\s*(?:[-*_=]\s*){3,}$")
_CODE_FENCE_RE: Final = re.compile(r"^\s*(?:```|~~~)\w*\s*$")
_IMAGE_RE: Final = re.compile(r"!\[([^\]]*)\]\([^)]*\)")
_LINK_RE: Final = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_BOLD_RE: Final = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1")
_STRIKE_RE: Final = re.compile(r"~~(?=\S)(.+?)(?<=\S)~~")
_STAR_EMPHASIS_RE: Final = re.compile(r"(?<![\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?![\w*])")
_UNDERSCORE_EMPHASIS_RE: Final = re.compile(r"(?<![\w_])_(?=\S)([^_]+?)(?<=\S)_(?![\w_])")
_CODE_RE: Final = re.compile(r"`+([^`]*)`+")
_STRAY_MARKERS_RE: Final = re.compile(r"\*\*+|(?<!\w)__+(?!\w)")
_SPACE_RE: Final = re.compile(r"\s+")


def shape_card(text: str, target: int = 150, maximum: int = 220) -> str:
    """Clean ``text`` into a single-line glasses card no longer than ``maximum`` characters."""
    if maximum <= 0:
        return ""
    plain = _SPACE_RE.sub(" ", unicodedata.normalize("NFC", text or "")).strip()
    cleaned = _clean(text or "")
    if not cleaned and any(ch.isalnum() for ch in plain):
        cleaned = _inline_markdown(plain).strip() or plain
    if len(cleaned) <= maximum:
        return cleaned
    return _cut(cleaned, target, maximum)


def _clean(text: str) -> str:
    """Strip markdown, labels and wrapping quotes, and collapse whitespace."""
    text = unicodedata.normalize("NFC", text).replace("\r\n", "\n").replace("\r", "\n")
    pieces: list[str] = []
    for raw_line in text.split("\n"):
        if _CODE_FENCE_RE.match(raw_line) or _RULE_LINE_RE.match(raw_line):
            continue
        is_item = bool(_BULLET_RE.match(raw_line))
        line = _QUOTE_LINE_RE.sub("", raw_line)
        line = _HEADER_RE.sub("", line)
        line = _BULLET_RE.sub("", line)
        line = _inline_markdown(line).strip()
        if not line:
            continue
        if is_item and pieces and pieces[-1][-1] not in _SENTENCE_END | frozenset(",:"):
            pieces[-1] += ";"
        pieces.append(line)
    result = _SPACE_RE.sub(" ", " ".join(pieces)).strip()
    for _ in range(3):
        before = result
        result = _LABEL_RE.sub("", result).strip()
        result = _unquote(result)
        if result == before:
            break
    return result


def _inline_markdown(line: str) -> str:
    """Remove inline markdown emphasis, links and code markers, keeping their text."""
    line = _IMAGE_RE.sub(r"\1", line)
    line = _LINK_RE.sub(r"\1", line)
    line = _CODE_RE.sub(r"\1", line)
    for _ in range(2):
        line = _BOLD_RE.sub(r"\2", line)
    line = _STRIKE_RE.sub(r"\1", line)
    line = _STAR_EMPHASIS_RE.sub(r"\1", line)
    line = _UNDERSCORE_EMPHASIS_RE.sub(r"\1", line)
    return _STRAY_MARKERS_RE.sub("", line)


def _unquote(text: str) -> str:
    """Remove one pair of quotes wrapping the whole text, when they are balanced."""
    for opening, closing in _QUOTE_PAIRS:
        if len(text) >= 2 and text.startswith(opening) and text.endswith(closing):
            inner = text[len(opening) : -len(closing)]
            if opening == closing and opening in inner:
                continue
            if opening != closing and (opening in inner or closing in inner):
                continue
            return inner.strip()
    return text


def _cut(text: str, target: int, maximum: int) -> str:
    """Cut ``text`` to at most ``maximum`` characters at the best boundary."""
    if maximum == 1:
        return ELLIPSIS
    minimum = max(1, int(target * _MIN_SENTENCE_SHARE))
    minimum = min(minimum, maximum)
    sentence_end = _last_sentence_end(text, minimum, maximum)
    if sentence_end:
        return text[:sentence_end].rstrip()
    limit = maximum - 1
    space = text.rfind(" ", 0, limit + 1)
    if space >= minimum:
        head = text[:space].rstrip(_TRAILING_JUNK)
        if len(head) >= minimum or not _has_wide_text(text[:limit]):
            return _with_ellipsis(head or text[:limit])
    return _with_ellipsis(_char_cut(text, limit, minimum))


def _last_sentence_end(text: str, minimum: int, maximum: int) -> int:
    """Return the end index of the last sentence that fits, or 0 when none does."""
    best = 0
    upper = min(len(text), maximum)
    for index in range(upper):
        char = text[index]
        if char not in _SENTENCE_END:
            continue
        end = index + 1
        while end < len(text) and end < maximum and text[end] in _CLOSERS:
            end += 1
        following = text[end] if end < len(text) else " "
        if char not in _SENTENCE_END_NO_SPACE and not following.isspace():
            continue
        if char == "." and _is_abbreviation_or_number(text, index):
            continue
        if minimum <= end <= maximum:
            best = end
    return best


def _is_abbreviation_or_number(text: str, index: int) -> bool:
    """Return True when the dot at ``index`` likely ends an abbreviation such as "Dr."."""
    start = index
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    word = text[start:index]
    return word.lower() in {"dr", "mr", "mrs", "ms", "st", "vs", "etc", "e.g", "i.e", "mme", "m"}


def _has_wide_text(text: str) -> bool:
    """Return True when the text contains scripts written without spaces (CJK, Thai)."""
    for char in text:
        name = unicodedata.name(char, "")
        if name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI")):
            return True
    return False


def _char_cut(text: str, limit: int, minimum: int) -> str:
    """Cut at ``limit`` characters without splitting a Latin word or a combining sequence."""
    cut = limit
    while 0 < cut < len(text) and unicodedata.combining(text[cut]):
        cut -= 1
    if 0 < cut < len(text) and _is_word_char(text[cut - 1]) and _is_word_char(text[cut]):
        start = cut
        while start > 0 and _is_word_char(text[start - 1]):
            start -= 1
        if start >= minimum:
            cut = start
    head = text[:cut].rstrip(_TRAILING_JUNK)
    return head or text[:limit]


def _is_word_char(char: str) -> bool:
    """Return True for characters of space-separated words (Latin, Greek, Cyrillic, digits)."""
    if not char.isalnum():
        return False
    return not _has_wide_text(char)


def _with_ellipsis(head: str) -> str:
    """Append an ellipsis, avoiding a doubled one."""
    head = head.rstrip()
    if head.endswith((ELLIPSIS, "...")):
        return head.rstrip(".…").rstrip() + ELLIPSIS
    return head + ELLIPSIS
