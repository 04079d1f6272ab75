"""How Assist compares what was said with its rules: folded text, hyphens read as spaces.

Rules are compiled with :func:`~..text.normalize.compile_folded`, so they are written in natural
spelling and matched against :func:`flatten` text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..text.normalize import fold


def flatten(text: str) -> str:
    """Fold ``text`` and turn hyphens into spaces ("réveille-moi" → "reveille moi")."""
    return fold(text).replace("-", " ")


def alternation(words: Iterable[str]) -> str:
    """A regular-expression alternation of ``words``, longest first."""
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))
