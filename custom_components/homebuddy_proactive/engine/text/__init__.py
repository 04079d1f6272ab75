"""The text room: pure, local rules over one utterance (language, question, reminder, hints).

No model call and no I/O; it imports only ``engine.const`` and itself. :func:`analyse` reads an
utterance once; ``rules/<code>.py`` holds each language's rules, ``segment.py`` the splitting,
``languages.py`` the registry, ``similarity.py`` utterance comparison, ``cards.py`` card shaping.
"""

from .analysis import UtteranceAnalysis, analyse
from .capture import CapturedMemory, capture_memory
from .identify import detect_language, warm_up
from .languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES
from .names import name_key
from .normalize import fold
from .questions import is_question
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
