"""One grouping key for a person's name, whatever its spelling, case, accents or title."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from .normalize import fold as _fold
from .normalize import folded_words as _fw
from .segment import _WORD_RE

_NAME_TITLES: Final = _fw(
    "mr mrs ms miss mister dr doctor prof professor sir madam madame m mme "
    "mlle monsieur mademoiselle maître pr herr frau fräulein sr sra srta señor señora "
    "señorita sig sigra signor signora signore signorina dott dottore dottoressa "
    "avv ing sra senhor senhora κ κος κα κυρ κύριος κυρία κύριε δρ"
)


def name_key(name: str) -> str:
    """Return a grouping key for a person's name across spelling, case, accents and titles."""
    text = unicodedata.normalize("NFC", name or "")
    text = re.sub(r"['’]s\b", "", text)
    words = [w.replace("'", "").replace("-", " ") for w in _WORD_RE.findall(_fold(text))]
    tokens = " ".join(words).split()
    while len(tokens) > 1 and tokens[0] in _NAME_TITLES:
        tokens = tokens[1:]
    return " ".join(tokens)
