"""The shape of one language's words that Assist listens for (``languages/<code>/words.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True, slots=True)
class Vocabulary:
    """The words of one language that the alarm parser and the yes/no reader recognise.

    Words are written in their natural spelling (accents, final sigma): they are folded
    when the tables of every language are merged.
    """

    # Alarms: number words (tens combine with units: "vingt et une", "forty five"), weekdays
    # (Monday is 0).
    number_units: Mapping[str, int]
    number_tens: Mapping[str, int]
    weekdays: Mapping[str, int]
    # Confirmations: one-word answers, answers of several words, and the phrases that begin
    # with a "no" word but mean yes, or are a hesitation.
    yes: frozenset[str]
    yes_phrases: tuple[str, ...]
    no: frozenset[str]
    no_phrases: tuple[str, ...]
    # Replays: words and phrases that tie a question or an answer to the moment ("heure",
    # "aujourd'hui", "météo", "allumée"): such an answer is never given again word for word.
    moment: tuple[str, ...]
    yes_despite_no: tuple[str, ...] = ()
    unsure_phrases: tuple[str, ...] = ()
    # Hesitations said before the answer ("euh, oui").
    fillers: frozenset[str] = frozenset()
    # While an alarm or reminder rings: what stops it ("arrête", "je suis réveillée") and what
    # asks for it again later ("encore dix minutes", "snooze"; a number said is the minutes).
    stop_phrases: tuple[str, ...] = ()
    snooze_phrases: tuple[str, ...] = ()
    # Which language a request is in: short words common in this language's requests and rare
    # in the others' ("le", "est", "quelle"; "the", "what", "is"). A word written the same in
    # two Assist languages ("on", "me") belongs to neither.
    function_words: frozenset[str] = frozenset()
    # Letters only this language is written in, among the Assist languages (a character class,
    # "[\u0370-\u03ff]" for Greek): a request that has one is in this language. Empty for a
    # language written in letters another Assist language shares.
    script: str = ""


def word_set(text: str) -> frozenset[str]:
    """The words of a text written one after another (a long list reads better that way)."""
    return frozenset(text.split())
