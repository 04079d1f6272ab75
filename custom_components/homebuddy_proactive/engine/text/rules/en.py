"""English rules: when a spoken English clause asks a question, and which English requests
are reminders or tasks.

The surface every language module shares: ``is_question(body)`` (a clause after its fillers
were stripped), ``FILLERS``, ``TAGS`` (tag questions such as "right?"), ``CAPTURE_RULES``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from ..normalize import folded_words as _fw
from ..segment import _Body, _fillers, _phrases, _starts
from .base import KIND_REMINDER, KIND_TASK, _CaptureRule, _rule

_EN_FILLERS: Final = _fillers(
    "so um umm uh uhh er erm well okay ok hey oh ah and but alright right like look listen "
    "hmm hm mm anyway anyways also please sorry excuse wait actually then or now"
)
_EN_PRONOUNS: Final = _fw(
    "i you we they he she it u ya y'all yall everyone everybody anyone anybody someone "
    "somebody nobody one people there"
)
_EN_DETERMINERS: Final = _fw(
    "this that these those the a an my your our his her their its any some all both each "
    "either neither mom mum dad mommy daddy grandma grandpa mother father"
)
_EN_SUBJECTS: Final = _EN_PRONOUNS | _EN_DETERMINERS
_EN_PERSONAL: Final = _fw("i you we they he she it there u ya y'all yall")
_EN_NOMINATIVE: Final = _fw("i you we they he she u ya y'all yall")
_EN_AUX_ANY: Final = _fw("is are isn't isnt aren't arent")
_EN_AUX_ANY_BLOCK: Final = _fw("what fine ok okay good true cool great nice done over not")
_EN_AUX_SUBJ: Final = _fw(
    "was were wasn't wasnt weren't werent can could would should will does did doesn't "
    "doesnt didn't didnt can't cant couldn't couldnt wouldn't wouldnt shouldn't shouldnt "
    "won't has hasn't hasnt haven't havent am ain't"
)
_EN_AUX_PRON: Final = _fw("may might must shall mustn't")
_EN_AUX_DO: Final = _fw("do don't dont have")
_EN_AUX_ALL: Final = (
    _EN_AUX_ANY | _EN_AUX_SUBJ | _EN_AUX_PRON | _EN_AUX_DO | _fw("had need 's 're 'd 'll 've 'm")
)
_EN_WH: Final = _fw("what where when who whom whose why how which")
_EN_WH_CONTRACTIONS: Final = _fw(
    "what's whats where's wheres when's whens who's whos how's hows why's whys what're "
    "whatre where're how're who're what'd where'd how'd who'd why'd what'll who'll where'll "
    "how'll what've who've whatcha wassup whaddya"
)
_EN_WH_OPENERS: Final = _fw("not else exactly about if now then come for to ever")
_EN_HOW_DEGREE: Final = _fw("much many long far often old soon")
_EN_TAGS: Final = frozenset({("right",), ("correct",), ("isn't", "it"), ("or", "what")})
_EN_INDIRECT: Final = _phrases(
    "any idea|any ideas|anyone know|anybody know|anyone knows|anybody knows|mind if|wanna|"
    "got a minute|got any|care to|want to|want some|want me to|any chance"
)
_EN_WONDER: Final = _phrases(
    "i wonder|i was wondering|i'm wondering|im wondering|i am wondering|wondering|"
    "i'd like to know|id like to know|i would like to know|i want to know|i'd love to know|"
    "i need to know|i'm curious|im curious|i am curious"
)
_EN_ABOUT_THAT: Final = frozenset({("that",), ("it",), ("this",)})
# "would tuesday work", "would tomorrow suit you": a day or time as the subject.
_EN_TIME_SUBJECTS: Final = _fw(
    "monday tuesday wednesday thursday friday saturday sunday tomorrow today tonight noon "
    "midday midnight"
)
_EN_TIME_SUBJECT: Final = frozenset((word,) for word in _EN_TIME_SUBJECTS)
_EN_TELL_ME: Final = _phrases("tell me", "remind me", "show me", "explain")
_EN_TELL_FOLLOW: Final = _EN_WH | _fw("if whether about")
_EN_YOU_KNOW: Final = _phrases("you know", "ya know", "y'know", "do you know", "know")
_EN_YOU_KNOW_FOLLOW: Final = _fw("if whether where when how who why which")
_EN_PREPOSITIONS: Final = _fw("to for from in on at with by of about into")
_EN_PAST_COPULA: Final = _fw("is was are were")
_EN_IRREGULAR_PAST: Final = _fw("went came made said got took gave did happened")


def _en_subject_ok(body: _Body, position: int, allowed: frozenset[str]) -> bool:
    """Return True when the token at ``position`` can be the subject of an inverted question."""
    if position >= len(body.words):
        return False
    word = body.words[position]
    if word in allowed:
        return True
    original = body.orig[position]
    return original[:1].isupper() and not original.isupper() and word not in _EN_AUX_ALL


def is_question(body: _Body) -> bool:
    """English spoken-question rules."""
    words = body.words
    if not words:
        return False
    if _starts(words, _EN_INDIRECT) and not body.answered:
        return True
    wonder = _starts(words, _EN_WONDER)
    if wonder and len(words) > wonder and words[wonder] in _EN_TELL_FOLLOW:
        # "i was wondering about that too" agrees; "… about the trip" asks.
        return not (words[wonder] == "about" and words[wonder + 1 : wonder + 2] in _EN_ABOUT_THAT)
    if words == ("how", "about", "that"):
        return False  # an exclamation; "how about pizza" suggests
    told = _starts(words, _EN_TELL_ME)
    if told and len(words) > told and words[told] in _EN_TELL_FOLLOW:
        return True
    known = _starts(words, _EN_YOU_KNOW)
    if known and len(words) > known and words[known] in _EN_YOU_KNOW_FOLLOW:
        return True
    if len(words) > 1 and words[0] in _EN_PREPOSITIONS and words[1] in _EN_WH:
        words = words[1:]
        body = dataclasses.replace(body, words=words, raw=body.raw[1:], orig=body.orig[1:])
    first = words[0]
    if first in _EN_WH_CONTRACTIONS:
        later = words[1:]
        return not (set(later) & _EN_PAST_COPULA) and (not later or later[0] != "more")
    if first in _EN_WH:
        return _en_wh(body)
    if first == "whereabouts":
        return len(words) > 1 and words[1] in _EN_AUX_ALL
    if first in {"would", "could", "will", "does", "did"} and words[1:2] in _EN_TIME_SUBJECT:
        return True
    if body.clause.index > 0 and first in _EN_AUX_ALL:
        return _en_subject_ok(body, 1, _EN_PERSONAL)
    if first in _EN_AUX_ANY:
        return len(words) > 1 and words[1] not in _EN_AUX_ANY_BLOCK
    if first in _EN_AUX_SUBJ:
        return _en_subject_ok(body, 1, _EN_SUBJECTS)
    if first in _EN_AUX_PRON:
        return _en_subject_ok(body, 1, _EN_PERSONAL)
    if first in _EN_AUX_DO:
        return _en_subject_ok(body, 1, _EN_DO_SUBJECTS)
    return False


_EN_HOW_SUBJECT: Final = _fw(
    "the this that these those my your our his her their i you we they he she it"
)
_EN_WHICH_COPULA: Final = _fw("is was")
_EN_WHICH_FOLLOW: Final = _EN_WH | _fw(
    "exactly precisely just also probably actually partly really basically kind sort fine "
    "great good nice true funny weird strange odd interesting crazy amazing sad annoying "
    "perfect too"
)
_EN_WHICH_VERBS: Final = _fw("means meant reminds explains proves suggests brings leaves")


def _en_which_relative(rest: Sequence[str]) -> bool:
    """Return True for a sentence-relative "which" ("which is exactly what I said")."""
    if rest[0] in _EN_WHICH_VERBS:
        return True
    return rest[0] in _EN_WHICH_COPULA and len(rest) > 1 and rest[1] in _EN_WHICH_FOLLOW


def _en_wh(body: _Body) -> bool:
    """English wh-question structure after a question word."""
    words = body.words
    wh = words[0]
    rest = list(words[1:])
    if rest[:2] in (["the", "hell"], ["the", "heck"], ["on", "earth"], ["the", "fuck"]):
        rest = rest[2:]
    if not rest:
        return True
    nxt = rest[0]
    if wh == "which" and _en_which_relative(rest):
        return False
    if wh == "how" and nxt not in _EN_AUX_OPENERS and rest[1:2] and rest[1] in _EN_HOW_SUBJECT:
        return False  # "how beautiful the sunset is": no inversion, an exclamation
    if nxt in _EN_AUX_ALL:
        return not (wh == "which" and rest[1:2] and rest[1] in _EN_WH)
    if nxt in _EN_WH_OPENERS or (wh == "how" and nxt == "so"):
        return True
    if nxt in _EN_PERSONAL:
        return False
    if wh in {"where", "when", "why"}:
        return False
    if wh in {"who", "whom"}:
        return True
    if nxt in {"a", "an"}:
        return False
    if wh == "which" and rest[1:2] and rest[1] in _EN_WH_MEANS:
        return False
    if rest[1:2] == ["of"] and nxt in {"kind", "sort", "type", "part"}:
        rest = [nxt, *rest[2:]]
    if wh == "what" and (nxt.endswith("ed") or nxt in _EN_IRREGULAR_PAST or nxt.endswith("s")):
        return not set(rest[1:]) & _EN_PAST_COPULA
    for word in rest[1:4]:
        if word in _EN_AUX_ALL:
            return True
        if word in _EN_NOMINATIVE or word == "of":
            return False
    if wh == "how":
        return nxt in _EN_HOW_DEGREE
    return True


_EN_CAN_YOU: Final = r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
_LIST_WORDS_EN: Final = r"(?P<l>(?:[\w'-]+\s+){0,2}list)\b"


CAPTURE_RULES: Final[tuple[_CaptureRule, ...]] = (
    _rule(
        KIND_REMINDER,
        _EN_CAN_YOU
        + r"remind\s+me\s+(?P<t>(?:at|on|in|by|after|before|tomorrow|tonight|this|next|later)\b"
        r"[^,.]{0,30}?)\s+(?:to|that|about)\s+(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        _EN_CAN_YOU + r"remind\s+me\s+(?!(?:what|where|when|who|why|how|which|if|whether)\b)"
        r"(?:(?:to|that|about|of)\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        r"(?:please\s+)?(?:don'?t|do\s+not)\s+let\s+me\s+forget\s+"
        r"(?:(?:to|that|about)\s+)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:(?:i|we)\s+(?:really\s+)?(?:need|have|must|should|want|gotta|got)\s+(?:to\s+)?|"
        r"(?:i'?ve|we'?ve)\s+got\s+to\s+|help\s+me\s+)remember\s+(?:to|that)\s+(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"(?:please\s+)?remember\s+to\s+(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"make\s+sure\s+(?:i|we)\s+(?:remember\s+to|don'?t\s+forget\s+(?:to\s+)?)\s*(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:please\s+)?(?:don'?t|do\s+not)\s+forget\s+(?:to|that|about)\s+(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        _EN_CAN_YOU + r"(?:set|make|create|add|put)\s+(?:me\s+)?(?:a\s+|an\s+)?reminder\s+"
        r"(?:(?:to|for|that|about)\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(KIND_REMINDER, r"(?:make\s+a\s+note\s+(?:to|that)|note\s+to\s+self)[\s:,]+(?P<c>.+)"),
    _rule(
        KIND_TASK,
        _EN_CAN_YOU + r"(?:add|put)\s+(?P<c>.+?)\s+(?:to|on|onto|in|into)\s+"
        r"(?:my|the|our)\s+" + _LIST_WORDS_EN,
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:(?:i|we)(?:'ll|\s+will|'m\s+going\s+to|\s+am\s+going\s+to|'re\s+going\s+to|"
        r"\s+are\s+going\s+to)?\s+)?(?:really\s+|still\s+|also\s+|definitely\s+|absolutely\s+|"
        r"just\s+)?(?:have\s+to|need\s+to|must|gotta|got\s+to|have\s+got\s+to)\s+(?P<c>.+)",
        task=True,
    ),
    _rule(KIND_TASK, r"(?:i'?ve|we'?ve)\s+got\s+to\s+(?P<c>.+)", task=True),
    _rule(KIND_TASK, r"(?:i'?d|we'?d|i\s+had|we\s+had)\s+better\s+(?P<c>.+)", task=True),
)

FILLERS: Final = _EN_FILLERS
TAGS: Final = _EN_TAGS


# Unions the rules above read, made once.
_EN_DO_SUBJECTS: Final = _EN_NOMINATIVE | _fw("anyone anybody people everyone")
_EN_AUX_OPENERS: Final = _EN_AUX_ALL | _EN_WH_OPENERS
_EN_WH_MEANS: Final = _EN_WH | {"means", "meant"}
