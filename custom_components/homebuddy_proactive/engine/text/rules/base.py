"""What a language's rules look like: its capture rules (reminders, tasks) and its surface.

Every ``rules/<code>.py`` module fills one :class:`LanguageRules`; the registry in
``rules/__init__.py`` maps a language code to it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from ...const import INTENT_REMINDER, INTENT_TASK
from ..normalize import compile_folded as _compile
from ..segment import _Body

KIND_REMINDER: Final = INTENT_REMINDER
KIND_TASK: Final = INTENT_TASK


@dataclass(frozen=True, slots=True)
class _CaptureRule:
    """A reminder/task pattern: its kind, whether a question may match, and its regex."""

    kind: str
    pattern: re.Pattern[str]
    allow_question: bool = False
    check_task: bool = False


def _rule(kind: str, pattern: str, *, question: bool = False, task: bool = False) -> _CaptureRule:
    """Build a capture rule from a pattern written in natural spelling."""
    return _CaptureRule(kind, _compile(pattern), question, task)


@dataclass(frozen=True, slots=True)
class LanguageRules:
    """One language's rules, as the question and capture passes read them."""

    code: str
    is_question: Callable[[_Body], bool]  # a clause, after its fillers were stripped
    fillers: frozenset[str]  # words stripped from the start of a clause
    tags: frozenset[tuple[str, ...]]  # tag questions ending an utterance ("…, right")
    capture: tuple[_CaptureRule, ...]  # reminder and task patterns, first match wins
