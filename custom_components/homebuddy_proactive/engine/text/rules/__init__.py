"""Each supported language's rules, one module per language, and the registry of them.

``rules/common.py`` and ``rules/romance.py`` hold the rules several languages share;
``rules/midsentence.py`` finds a question that starts inside a run-on sentence.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from ..languages import LANGUAGES
from .base import LanguageRules


def _load(code: str, module_name: str) -> LanguageRules:
    """The rules of one registered language, from its module ``rules/<module_name>.py``."""
    module = importlib.import_module(f"{__name__}.{module_name}")
    return LanguageRules(
        code, module.is_question, module.FILLERS, module.TAGS, module.CAPTURE_RULES
    )


# One entry per language of the registry (``text/languages.py``), in the registry's order.
RULES: Final[Mapping[str, LanguageRules]] = MappingProxyType(
    {language.code: _load(language.code, language.rules_module) for language in LANGUAGES}
)
