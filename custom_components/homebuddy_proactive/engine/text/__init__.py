"""The text room: pure, local rules over one utterance (language, question, reminder, hints).

No model call and no I/O; it imports only ``engine.const`` and itself. :func:`analyse` reads an
utterance once; ``rules/<code>.py`` holds each language's rules, ``segment.py`` the splitting,
``languages.py`` the registry, ``similarity.py`` utterance comparison, ``cards.py`` card shaping.
``identify.py`` scores the languages; ``questions.py`` and ``capture.py`` apply the rules of the
languages they are given; ``analysis.py``, above them, chooses the language (the rules break a
tie between plausible ones) and answers for the utterance.
"""

from .analysis import (
    UtteranceAnalysis,
    analyse,
    capture_memory,
    detect_language,
    is_question,
    warm_up,
)
from .capture import CapturedMemory
from .languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES
from .names import name_key
from .normalize import fold
from .rules.base import KIND_REMINDER, KIND_TASK
from .sensitive import mentions_sensitive_trait
from .signals import episode_cue, is_meaningful, local_signal

__all__ = [
    "DEFAULT_LANGUAGE",
    "KIND_REMINDER",
    "KIND_TASK",
    "SUPPORTED_LANGUAGES",
    "CapturedMemory",
    "UtteranceAnalysis",
    "analyse",
    "capture_memory",
    "detect_language",
    "episode_cue",
    "fold",
    "is_meaningful",
    "is_question",
    "local_signal",
    "mentions_sensitive_trait",
    "name_key",
    "warm_up",
]
