"""The shape of one language's phrasebook (``languages/<code>/phrases.py``)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class Phrasebook:
    """Everything Assist says in one language, and what its router prompt tells the model."""

    # Every spoken sentence of the deterministic handlers, by key ("alarm_set": "…{time}…").
    sentences: Mapping[str, str]
    # Verbs of the confirmation question, by (domain, turning on); domain "" is any other.
    action_verbs: Mapping[tuple[str, bool | None], str]
    # Home Assistant's weather conditions in words.
    conditions: Mapping[str, str]
    # The word joining the last two names of a list ("A, B et C").
    and_word: str
    # A wall-clock time the way a TTS engine reads it well.
    spoken_time: Callable[[int, int], str]
    # The router prompt: intro, language, now ({now}), memories, episode, devices.
    router_prompt: Mapping[str, str]
