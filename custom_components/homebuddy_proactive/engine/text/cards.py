"""Glasses-card shaping: clean model or rule output and fit it to the display limits.

A card aims for ``target`` characters but a complete answer may use up to ``maximum``. Longer
text is cut at a sentence boundary, else at a word boundary with an ellipsis, else (text without
spaces, such as Chinese or Japanese, or one very long token) at about ``maximum - 1`` characters
with an ellipsis. Abbreviations ("Dr.", "e.g.", "p. ex.", "π.χ.", "z. B."), initials and decimal
numbers do not end sentences; a cut inside brackets or quotes closes them again. Nothing is ever
removed because of its script: Greek, Japanese or Arabic text keeps its Latin acronyms and
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
# Abbreviations not in the lists are at most this long ("usw", "ecc", "κλπ", "resp").
_SHORT_WORD: Final = 4
_CLOSERS: Final = frozenset("\"'”’»)]}」』】〉》）")
_TRAILING_JUNK: Final = " \t,;:–—-/([{«“‘„‚¿¡「『【〈《（"

# Opening characters and the closing character that pairs with each of them.
_BRACKETS: Final = {
    "(": ")",
    "[": "]",
    "{": "}",
    "«": "»",
    "“": "”",
    "„": "“",
    '"': '"',
    "「": "」",
    "『": "』",
    "（": "）",
    "【": "】",
    "〈": "〉",
    "《": "》",
}
_BRACKET_CHAR_RE: Final = re.compile(
    "[" + re.escape("".join(sorted(set(_BRACKETS) | set(_BRACKETS.values())))) + "]"
)
_QUOTE_CHARS: Final = frozenset('"“”«»„「」『』')
_MIN_SENTENCE_SHARE: Final = 0.4
# Keep single no-break, narrow no-break, figure and thin spaces (French "12,50 €", "14 h 30").
_KEPT_SPACES: Final = frozenset("\u00a0\u202f\u2007\u2009")

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

# Abbreviations that are followed by a capitalised name and so never end a sentence.
_TITLES: Final = frozenset(
    {
        "dr", "dra", "drs", "mr", "mrs", "ms", "mme", "mmes", "mlle", "mlles", "mgr", "pr",
        "prof", "profa", "st", "ste", "sr", "sra", "srta", "sres", "ud", "uds", "sig", "sigg",
        "dott", "ing", "avv", "arch", "hr", "hrn", "fr", "gen", "col", "capt", "lt", "sgt",
        "rev", "jr", "mt", "ft", "no", "nr", "nos", "fig", "vol", "art", "avda",
        "δρ", "κ", "κα", "καθ", "αρ", "οδ", "λεωφ", "σελ", "κκ",
    }
)  # fmt: skip
# Abbreviations normally followed by lowercase text or a number; listed for capitalised cases.
_ABBREVIATIONS: Final = frozenset(
    {
        "vs", "cf", "vgl", "bzw", "ca", "approx", "aprox", "δηλ", "βλ", "ex", "ej", "ggf",
        "evtl", "inkl", "zzgl", "resp", "env", "tel", "τηλ", "pág", "pag", "núm", "nº", "ibid",
        "eg", "ie", "esp", "incl", "min", "max", "ref", "av", "apr",
    }
)  # fmt: skip
# Abbreviations followed by a number: "No. 5", "S. 12", "Art. 3", "τηλ. 210".
_NUMBER_ABBREVIATIONS: Final = frozenset(
    {
        "no", "nr", "nos", "núm", "num", "n", "nº", "p", "pp", "s", "pag", "pág", "art", "abs",
        "vol", "ch", "chap", "sec", "par", "cap", "fig", "tel", "τηλ", "αρ", "σελ", "κεφ", "ca",
        "approx", "aprox", "env", "kap", "tab", "op", "v", "ver", "vers",
    }
)  # fmt: skip
# Words after which a German ordinal ("am 3. Mai") is not a sentence end.
_ORDINAL_NOUNS: Final = frozenset(
    {
        "januar", "jänner", "februar", "märz", "april", "mai", "juni", "juli", "august",
        "september", "oktober", "november", "dezember", "jahrhundert", "jahrtausend", "stock",
        "klasse", "platz", "etage", "liga", "runde", "auflage", "quartal", "obergeschoss",
    }
)  # fmt: skip
_UNITS: Final = frozenset(
    {
        "km", "m", "cm", "mm", "µm", "kg", "g", "mg", "t", "l", "ml", "cl", "dl", "h", "min",
        "s", "ms", "w", "kw", "kwh", "mw", "v", "a", "ma", "mah", "hz", "khz", "mhz", "ghz",
        "kb", "mb", "gb", "tb", "mbit/s", "gbit/s", "°c", "°f", "°", "%", "‰", "€", "$", "£",
        "¥", "chf", "eur", "usd", "km/h", "m/s", "mph", "kcal", "cal", "bar", "psi", "db",
        "χλμ", "μ", "εκ", "λ", "ώρες", "λεπτά", "px", "pt", "x",
    }
)  # fmt: skip
_CURRENCY_SYMBOLS: Final = frozenset("€$£¥₹₽₺₩")

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
_UNDERSCORE_EMPHASIS_RE: Final = re.compile(r"(?<![\w_/])_(?=\S)([^_]+?)(?<=\S)_(?![\w_/])")
_CODE_RE: Final = re.compile(r"`+([^`]*)`+")
_HTML_TAG_RE: Final = re.compile(r"</?(?:b|i|u|em|strong|mark|small|span)\s*>", re.IGNORECASE)
_HTML_BREAK_RE: Final = re.compile(r"<br\s*/?>", re.IGNORECASE)
_STRAY_MARKERS_RE: Final = re.compile(r"\*\*+|(?<!\w)__+(?!\w)")
_SPACE_RE: Final = re.compile(r"\s+")
_NUMBER_RE: Final = re.compile(r"^[-+−±~≈]?[\d€$£¥]?[\d.,:'’]*\d$")
_SHORT_NUMBER_RE: Final = re.compile(r"^\d[\w.,]{0,3}[.,;:!?)]*$")


def shape_card(text: str, target: int = 150, maximum: int = 220) -> str:
    """Clean ``text`` into a single-line glasses card no longer than ``maximum`` characters."""
    if maximum <= 0:
        return ""
    plain = _collapse_spaces(unicodedata.normalize("NFC", text or ""))
    cleaned = _clean(text or "")
    if not cleaned and any(ch.isalnum() for ch in plain):
        cleaned = _inline_markdown(plain).strip() or plain
    if len(cleaned) <= maximum:
        return cleaned
    return _cut(cleaned, target, maximum)


def _collapse_spaces(text: str) -> str:
    """Collapse whitespace runs to one space, keeping a lone no-break or thin space."""
    return _SPACE_RE.sub(
        lambda match: match.group() if match.group() in _KEPT_SPACES else " ", text
    ).strip()


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
    result = _collapse_spaces(" ".join(pieces))
    for _ in range(3):
        before = result
        result = _LABEL_RE.sub("", result).strip()
        result = _unquote(result)
        if result == before:
            break
    return _drop_lone_quotes(result)


def _inline_markdown(line: str) -> str:
    """Remove inline markdown emphasis, links, code markers and simple HTML tags."""
    line = _IMAGE_RE.sub(r"\1", line)
    line = _LINK_RE.sub(r"\1", line)
    line = _CODE_RE.sub(r"\1", line)
    line = _HTML_BREAK_RE.sub(" ", _HTML_TAG_RE.sub("", line))
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


def _drop_lone_quotes(text: str) -> str:
    """Remove a quote opening the text, or closing it, that has no partner anywhere."""
    if len(text) < 2 or (text[0] not in _QUOTE_CHARS and text[-1] not in _QUOTE_CHARS):
        return text
    pairs = _pair_brackets(text)
    closed = set(pairs.values())
    if text[0] in _QUOTE_CHARS and 0 not in pairs and 0 not in closed:
        text = text[1:].lstrip()
        pairs = _pair_brackets(text)
        closed = set(pairs.values())
    last = len(text) - 1
    if (
        last > 0
        and text[last] in _QUOTE_CHARS
        and last not in closed
        and last not in pairs
        and not text[last - 1].isdigit()  # inches: 6.1"
    ):
        text = text[:last].rstrip()
    return text


def _pair_brackets(text: str) -> dict[int, int]:
    """Map the index of each opening bracket or quote to the index of its closing partner."""
    pairs: dict[int, int] = {}
    stack: list[tuple[int, str]] = []
    waiting: dict[str, int] = {}
    for found in _BRACKET_CHAR_RE.finditer(text):
        index, char = found.start(), found.group()
        if waiting.get(char):
            # Close the innermost opener waiting for this character; drop unclosed ones inside.
            while stack:
                start, closer = stack.pop()
                waiting[closer] -= 1
                if closer == char:
                    pairs[start] = index
                    break
        elif char in _BRACKETS:
            stack.append((index, _BRACKETS[char]))
            waiting[_BRACKETS[char]] = waiting.get(_BRACKETS[char], 0) + 1
    return pairs


def _open_closers(text: str, pairs: dict[int, int], end: int) -> str:
    """Return the closers of brackets opened before ``end`` and closed after it, innermost first."""
    return "".join(
        text[pairs[start]] for start in sorted(pairs, reverse=True) if start < end <= pairs[start]
    )


def _cut(text: str, target: int, maximum: int) -> str:
    """Cut ``text`` to at most ``maximum`` characters at the best boundary."""
    if maximum == 1:
        return ELLIPSIS
    minimum = max(1, int(target * _MIN_SENTENCE_SHARE))
    minimum = min(minimum, maximum)
    pairs = {start: end for start, end in _pair_brackets(text).items() if start < maximum}
    sentence = _sentence_cut(text, pairs, minimum, maximum)
    if sentence:
        return sentence
    closers = ""
    for _ in range(4):
        head = _word_or_char_cut(text, minimum, maximum - 1 - len(closers))
        needed = _open_closers(text, pairs, len(head)) if head else ""
        if len(head) + 1 + len(needed) <= maximum:
            return _with_ellipsis(head) + needed
        closers = needed
    return _with_ellipsis(_char_cut(text, maximum - 1, minimum))


def _word_or_char_cut(text: str, minimum: int, limit: int) -> str:
    """Return the head of a word cut, or of a character cut when no good space exists."""
    if limit <= 0:
        return ""
    space = _break_space(text, limit, minimum)
    if space >= minimum and not _has_wide_text(text[space:limit]):
        head = text[:space].rstrip(_TRAILING_JUNK)
        if len(head) >= minimum or not _has_wide_text(text[:limit]):
            return head or text[:limit]
    return _char_cut(text, limit, minimum)


def _break_space(text: str, limit: int, minimum: int) -> int:
    """Return the index of the last usable space at or before ``limit``, or -1."""
    first = text.rfind(" ", 0, limit + 1)
    space = first
    for _ in range(6):
        if space < minimum:
            break
        if not _glued(text, space):
            return space
        space = text.rfind(" ", 0, space)
    return first


def _glued(text: str, space: int) -> bool:
    """Return True when the words around ``space`` should stay on the same card."""
    before = text[:space].rsplit(" ", 1)[-1]
    after = text[space + 1 :].split(" ", 1)[0]
    if not before or not after:
        return False
    if before[-1] == "." and _is_abbreviation(text, space - 1):
        return True
    unit = after.rstrip(".,;:!?)»”\"'").lower()
    if _NUMBER_RE.match(before) and (unit in _UNITS or unit[:1] in _CURRENCY_SYMBOLS):
        return True
    if before in _CURRENCY_SYMBOLS and after[:1].isdigit():
        return True
    # Product or model names with a number: "iPhone 15", "Wi-Fi 6E", "OAuth 2.0".
    return any(ch.isupper() for ch in before) and bool(_SHORT_NUMBER_RE.match(after))


def _sentence_cut(text: str, pairs: dict[int, int], minimum: int, maximum: int) -> str:
    """Return the text up to the last sentence end that fits, or "" when none does.

    A sentence end outside brackets and quotes is preferred; one inside them is used only when
    there is no other, and the brackets are then closed again.
    """
    outside = 0
    inside = ""
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
        if char == "." and _continues(text, index, end):
            continue
        if char == "." and _is_abbreviation(text, index):
            continue
        if not minimum <= end <= maximum:
            continue
        closers = _open_closers(text, pairs, end)
        if not closers:
            outside = end
        elif end + len(closers) <= maximum:
            inside = text[:end].rstrip() + closers
    if outside:
        return text[:outside].rstrip()
    return inside


def _continues(text: str, index: int, end: int) -> bool:
    """Return True when a short word's "." at ``index`` is followed by a lowercase letter.

    This catches abbreviations missing from the lists ("usw. und", "ecc. e", "κλπ. και")
    without treating the end of an ordinary word as an abbreviation.
    """
    rest = text[end:].lstrip()
    if not rest or not rest[0].islower():
        return False
    token = text[text.rfind(" ", 0, index) + 1 : index]
    if "." in token and not token.endswith("."):
        return True
    return token.isalpha() and len(token) <= _SHORT_WORD


def _is_abbreviation(text: str, index: int) -> bool:
    """Return True when the dot at ``index`` ends an abbreviation, initial or ordinal date."""
    start = index
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    word = text[start:index]
    if not word:
        return _is_ordinal_date(text, index)
    token_start = text.rfind(" ", 0, index) + 1
    token = text[token_start:index].lstrip("([{«“\"'¿¡")
    if "." in token and len(token) <= 12:
        segments = re.split(r"[.\-]", token)
        if all(len(part) <= 3 and (not part or part.isalpha()) for part in segments):
            return True  # e.g., i.e., π.χ., z.B., c.-à-d., J.-C.
    if start != token_start + (len(text[token_start:index]) - len(token)):
        return False  # letters glued to digits or symbols: "10km.", "v2."
    if len(word) == 1 and (word.isupper() or word in {"κ", "p", "n"}):
        return True  # initials: "J. K. Rowling", "M. Dupont", "κ. Παπαδόπουλος", "z. B."
    lower = word.lower()
    if text[index + 1 :].lstrip()[:1].isdigit() and (
        lower in _NUMBER_ABBREVIATIONS or lower.endswith(("str", "straße"))
    ):
        return True  # "Nr. 5", "p. 12", "τηλ. 210", "Hauptstr. 12"
    if lower in _TITLES:
        return word[0].isupper() or lower in {"κ", "κα", "κκ"}
    return lower in _ABBREVIATIONS


def _is_ordinal_date(text: str, index: int) -> bool:
    """Return True for a German-style ordinal such as "am 3. Mai" or "im 19. Jahrhundert"."""
    start = index
    while start > 0 and text[start - 1].isdigit():
        start -= 1
    if not 1 <= index - start <= 2 or (start > 0 and not text[start - 1].isspace()):
        return False
    following = text[index + 1 :].lstrip().split(" ", 1)[0].rstrip(".,;:!?")
    return following.lower() in _ORDINAL_NOUNS


def _has_wide_text(text: str) -> bool:
    """Return True when the text contains scripts written without spaces (CJK, Thai)."""
    for char in text:
        if ord(char) < 0x0E00:
            continue
        name = unicodedata.name(char, "")
        if name.startswith(
            ("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI", "LAO", "KHMER", "MYANMAR")
        ):
            return True
    return False


def _char_cut(text: str, limit: int, minimum: int) -> str:
    """Cut at ``limit`` characters without splitting a Latin word or a character sequence."""
    cut = _cluster_start(text, limit)
    if 0 < cut < len(text) and _is_word_char(text[cut - 1]) and _is_word_char(text[cut]):
        start = cut
        while start > 0 and _is_word_char(text[start - 1]):
            start -= 1
        if start >= minimum:
            cut = start
    if 0 < cut < len(text) and not text[cut].isspace() and not text[cut - 1].isspace():
        # Inside one long token (a URL or a compound): prefer a break after "/", "-", "." …
        token_start = text.rfind(" ", 0, cut) + 1
        floor = max(token_start + 1, minimum, cut - 24)
        for index in range(cut - 1, floor - 1, -1):
            if text[index] in "/-_.?&=#,;:" and not _has_wide_text(text[index - 1 : cut]):
                cut = index + 1
                break
    head = text[:cut].rstrip(_TRAILING_JUNK)
    return head or text[: _cluster_start(text, limit)] or text[:limit]


def _cluster_start(text: str, cut: int) -> int:
    """Move ``cut`` back so it does not split a combining, emoji or flag sequence."""
    cut = min(cut, len(text))
    while 0 < cut < len(text) and (_extends(text[cut]) or text[cut - 1] == "\u200d"):
        cut -= 1
    if 0 < cut < len(text) and _is_regional(text[cut]):
        run = 0
        while cut - run > 0 and _is_regional(text[cut - run - 1]):
            run += 1
        if run % 2:
            cut -= 1
    return cut


def _extends(char: str) -> bool:
    """Return True for characters that attach to the previous one."""
    code = ord(char)
    return (
        unicodedata.category(char) in {"Mn", "Mc", "Me"}
        or code == 0x200D
        or 0xFE00 <= code <= 0xFE0F
        or 0x1F3FB <= code <= 0x1F3FF
        or 0xE0020 <= code <= 0xE007F
        or 0xE0100 <= code <= 0xE01EF
    )


def _is_regional(char: str) -> bool:
    """Return True for regional indicator symbols (the halves of flag emoji)."""
    return 0x1F1E6 <= ord(char) <= 0x1F1FF


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
