"""What an utterance asks of the alarms: set one (and what for), list them, or cancel some.

The exact prefix ``"Alarm : "`` always means "set"; otherwise the phrasings an older
person uses in each language (``languages/<code>/alarms.py``: "réveille-moi à 7 heures", "set
an alarm for 7", "annule l'alarme de 7 heures", "quelles alarmes ?").
"""

from __future__ import annotations

import re
from typing import Final

from ...text.normalize import compile_folded, fold, folded_set
from ..languages import each, either
from ..matching import flatten
from .model import MAX_LABEL_CHARACTERS, AlarmCommand
from .parse import parse_alarm_time, starts_with_time

SEED_PREFIX: Final = "Alarm : "
# That prefix as people and speech-to-text engines type it: "Alarme :", "ALARM:7h".
_PREFIX_RE: Final = re.compile(r"\s*alarme?\s*:\s*", re.IGNORECASE)


def _said(attribute: str) -> str:
    """Every language's fragment ``attribute`` of ``languages/<code>/alarms.py``, joined."""
    return either("alarms", attribute)


_ALARM_NOUN: Final = f"(?:{_said('NOUN')})"
# "L'alarme de la maison", "the house alarm", "ο συναγερμός": the alarm system, a device the
# router and the service handler deal with (with a confirmation), never the alarm clock.
_SECURITY_RE: Final = compile_folded(rf"\b(?:{_said('SECURITY')})\b")
# Before a verb: the request is a statement or a question about the past ("j'ai réglé mon
# réveil hier", "I set an alarm yesterday", "did you cancel my alarm?"), or someone else did
# it ("my grandson set an alarm", "mon mari met le réveil"; not "ma chérie").
_STATEMENT_BEFORE_RE: Final = compile_folded(
    rf"(?:\b(?:{_said('STATEMENT')}|"
    rf"(?:{_said('POSSESSIVES')})\s+(?:{_said('BEFORE_RELATIVE')})?"
    rf"(?!(?:{_said('ENDEARMENTS')})\b)\w+)\s+"
    rf"(?:{_said('STATEMENT_ADVERBS')})?)$"
)
_NEGATED_RE: Final = compile_folded(_said("NEGATED"))

_CANCEL_RE: Final = compile_folded(
    rf"\b(?:{_said('CANCEL_VERBS')})\b"
    rf"[^.?!;]{{0,40}}?\b{_ALARM_NOUN}"
    # "Turn the alarm off"
    + "".join(
        f"|{around}" for around in each("alarms", "CANCEL_AROUND").values() if around
    ).replace("<ALARM>", _ALARM_NOUN)
)
# "Je n'ai plus besoin du réveil", "I don't need the alarm anymore": a cancel said as a fact.
_NO_NEED_RE: Final = compile_folded(
    rf"\b(?:{_said('NO_NEED')})\s+"
    rf"(?:{_said('NO_NEED_OF')})?(?:\w+\s+){{0,2}}?{_ALARM_NOUN}"
)
_LIST_RE: Final = compile_folded(rf"\b(?:{_said('LIST')})")
_SET_VERB_RE: Final = compile_folded(r"^\s*alarme?\s*:|" + _said("SET_VERB"))
# "Une alarme à 7 h", "alarm for 6:30 tomorrow", "ξυπνητήρι στις 7": the noun with a time,
# when nothing says the alarm already rang.
_SET_NOUN_RE: Final = compile_folded(rf"\b{_ALARM_NOUN}\b")
# What may come before the noun of such a request: "euh euh le réveil à 7 h", "je voudrais
# une alarme à 6 h 30", "please, alarm for 6:30" (not "j'ai entendu une alarme à 3 h").
_NOUN_LEAD_RE: Final = compile_folded(
    rf"(?:(?:homebuddy|{_said('NOUN_LEAD')})(?:[\s,.!]+|$)"
    + "".join(f"|{elided}" for elided in each("alarms", "NOUN_LEAD_ELIDED").values() if elided)
    + ")*"
)
_RANG_RE: Final = compile_folded(rf"\b(?:{_said('RANG')})\b")
# "Il faut que je sois debout à 6 h", "I need to be up by seven", "θέλω να σηκωθώ στις 7":
# a request only with a time ("je me lève toujours à 6 h" says a habit, not a request).
_GET_UP_RE: Final = compile_folded(rf"\b(?:{_said('GET_UP_WANT')})\s+(?:{_said('GET_UP')})\b")
_ALL_RE: Final = compile_folded(rf"\b(?:{_said('ALL')})\b")


def parse_alarm_command(text: str) -> AlarmCommand | None:
    """Return the alarm request in ``text`` (set, list or cancel), or None when there is none.

    The exact prefix ``"Alarm : "`` always means "set"; a set request whose time cannot
    be read comes back with ``when=None`` so the caller can ask for the time.
    """
    if (prefix := _PREFIX_RE.match(text)) is not None:
        rest = text[prefix.end() :]
        return AlarmCommand("set", parse_alarm_time(rest), label=alarm_label(rest))
    flat = flatten(text)
    if _SECURITY_RE.search(flat) or _NEGATED_RE.search(flat):
        return None
    cancel = _CANCEL_RE.search(flat)
    if (cancel and not _statement(flat, cancel.start())) or _NO_NEED_RE.search(flat):
        every = bool(_ALL_RE.search(flat))
        return AlarmCommand("cancel", None if every else parse_alarm_time(text), every=every)
    if _LIST_RE.search(flat):
        return AlarmCommand("list")
    if _set_request(flat):
        return AlarmCommand("set", parse_alarm_time(text), label=alarm_label(text))
    return None


def _statement(flat: str, start: int) -> bool:
    return _STATEMENT_BEFORE_RE.search(flat[:start]) is not None


def _set_request(flat: str) -> bool:
    for match in _SET_VERB_RE.finditer(flat):
        if not _statement(flat, match.start()):
            return True
    if _RANG_RE.search(flat):
        return False
    for noun in _SET_NOUN_RE.finditer(flat):
        if not _NOUN_LEAD_RE.fullmatch(flat[: noun.start()].strip(" ,.!")):
            continue
        if starts_with_time(flat[noun.end() :].strip()):
            return len(flat.split()) <= 12
    return _GET_UP_RE.search(flat) is not None and parse_alarm_time(flat) is not None


# Labels: "… pour prendre mes médicaments", "… to take my pills", "… για τα φάρμακα".
_LABEL_MARK_RE: Final = compile_folded(rf"(?<![\w'])(?:{_said('LABEL_MARK')})\s+")
_LABEL_SKIP: Final = folded_set(
    *(w for skip in each("alarms", "LABEL_SKIP").values() for w in skip)
)
_LABEL_END_RE: Final = compile_folded(rf"\s*(?:{_said('LABEL_END')})\s*$")


def alarm_label(text: str) -> str:
    """Return what an alarm is for ("pour mes médicaments" → "mes médicaments"), or ""."""
    folded = fold(text)
    flat = folded.replace("-", " ")
    for mark in _LABEL_MARK_RE.finditer(flat):
        start = mark.end()
        rest = flat[start:]
        first = rest.split(maxsplit=1)[0] if rest.split() else ""
        if not first or first in _LABEL_SKIP or starts_with_time(rest):
            continue
        end = len(flat)
        for word in re.finditer(r"(?<!\S)\S", rest):
            if word.start() and starts_with_time(rest[word.start() :]):
                end = start + word.start()
                break
        label = flat[start:end]
        if filler := _LABEL_END_RE.search(label):
            label = label[: filler.start()]
        original = text[start : start + len(label)] if len(text) == len(folded) else label
        original = original.strip(" ,.!?;:")
        if original:
            return original[:MAX_LABEL_CHARACTERS]
    return ""
