"""Each supported language's rules, one module per language, and the registry of them.

``rules/common.py`` and ``rules/romance.py`` hold the rules several languages share;
``rules/midsentence.py`` finds a question that starts inside a run-on sentence.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from . import de, el, en, es, fr, it, pt
from .base import LanguageRules

RULES: Final[Mapping[str, LanguageRules]] = MappingProxyType(
    {
        code: LanguageRules(
            code, module.is_question, module.FILLERS, module.TAGS, module.CAPTURE_RULES
        )
        for code, module in (
            ("en", en),
            ("fr", fr),
            ("el", el),
            ("es", es),
            ("de", de),
            ("it", it),
            ("pt", pt),
        )
    }
)
