"""German rules: when a spoken German clause asks a question, and which German requests
are reminders or tasks.

The surface every language module shares: ``is_question(body)`` (a clause after its fillers
were stripped), ``FILLERS``, ``TAGS`` (tag questions such as "right?"), ``CAPTURE_RULES``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from ..normalize import fold as _fold
from ..normalize import folded_words as _fw
from ..segment import _Body, _Clause, _fillers, _phrases, _starts
from .base import KIND_REMINDER, KIND_TASK, _CaptureRule, _rule

_DE_FILLERS: Final = _fillers(
    "also äh ähm hm hmm na naja und aber ok okay mal hör schau übrigens entschuldigung sorry "
    "moment hey uh uhm ehm"
)
_DE_WH: Final = _fw(
    "wer wen wem wessen was wo wann warum wieso weshalb weswegen wie welche welcher welches "
    "welchem welchen woher wohin womit wofür worüber wozu woran worauf wovon wodurch "
    "wieviel wieviele wievielte"
)
_DE_PRONOUNS: Final = _fw("ich du er sie es wir ihr man")
_DE_ARTICLES: Final = _fw(
    "der die das den dem des ein eine einen einem einer mein meine dein deine sein seine "
    "unser unsere euer eure ihre ihr"
)
_DE_SUBORDINATORS: Final = _fw(
    "wenn als weil dass daß ob obwohl während bevor nachdem damit falls sobald seit seitdem "
    "bis da sodass indem solange sofern"
)
_DE_ADVERBS: Final = _fw(
    "heute morgen gestern jetzt dann da hier dort so nun auch nicht doch noch schon immer "
    "nie oft bitte danke gut klar vielleicht eigentlich leider zuerst danach später gleich "
    "sofort bald deshalb deswegen trotzdem damals manchmal natürlich sicher wirklich echt "
    "ganz sehr mal halt eben genau ja nein stimmt richtig super toll schade"
)
_DE_VERBS: Final = _fw(
    "ist sind bist seid war waren warst wart hast hat habt haben hatte hattest hatten kann "
    "kannst können könnt könnte könntest könnten darf darfst dürfen dürfte dürftest soll "
    "sollst sollen sollte solltest sollten muss musst müssen müsste musste will willst "
    "wollen wollt wollte möchtest möchten möchte magst mögen würde würdest würden wird wirst "
    "werden werdet gibt gab geht gehst gehen kommst kommt kommen weißt wisst wissen kennst "
    "kennt kennen brauche brauchst braucht brauchen bekomme bekommt bekommen machst macht machen "
    "tust tut glaubst denkst "
    "meinst findest siehst hilfst hilft fährt fährst heißt regnet passt stimmt klappt läuft "
    "habe bin kostet kosten dauert fängt beginnt öffnet schließt fahren fährt gefällt "
    "gibt's gibts"
)
_DE_HOW_DEGREE: Final = _fw("viel viele lange alt spät oft weit groß teuer schnell hoch")
_DE_TOPIC_DROP_TAIL: Final = _fw(
    "nicht nichts schon auch gern gerne doch ja noch mal machen vergessen verstehen gemacht "
    "gesagt gesehen so"
)
_DE_DROP_EXTRA: Final = _fw("sein passieren klar egal drauf darauf an")
_DE_VERB_SUFFIX_RE: Final = re.compile(r"(?:st|t|en|e)$")
_DE_INDIRECT: Final = _phrases(
    "ich frage mich|ich frag mich|sag mir|sagen sie mir|ich möchte wissen|ich würde gern wissen|"
    "ich wüsste gern|ich würde gerne wissen"
)
_DE_TAGS: Final = frozenset(
    {("oder",), ("nicht", "wahr"), ("ne",), ("gell",), ("stimmt's",), ("oder", "nicht")}
)


# Modal particles that mark a verb-first clause as a statement or a concession.
_DE_PARTITIVE: Final = frozenset(
    (word,) for word in _fw("beiden zwei drei vier fünf vielen anderen")
)
_DE_STATEMENT_PARTICLES: Final = _fw("ja doch")
_DE_PRESENTING: Final = frozenset({("darf", "ich", "vorstellen"), ("darf", "ich", "bekannt")})


def is_question(body: _Body) -> bool:
    """German spoken-question rules (W-questions with verb second, verb-first questions)."""
    words = body.words
    if not words:
        return False
    indirect = _starts(words, _DE_INDIRECT)
    if indirect:
        # "sag mir, wo …", "ich frage mich ob …"; not "sag mir Bescheid".
        asked = [w for w in words[indirect:] if w not in _DE_ADVERBS]
        return not asked or asked[0] in _DE_WH or asked[0] == "ob"
    if words[:2] == ("sag", "mal") or words[:2] == ("sagen", "sie"):
        words = words[2:]
        if not words:
            return False
    if len(words) > 1 and words[0] in _DE_PREPOSITIONS and words[1] in _DE_WH:
        words = words[1:]  # "in welchem Stock", "um wie viel Uhr"
    first = words[0]
    rest = words[1:]
    if first in _DE_WH:
        if not rest:
            return True
        nxt = rest[0]
        if nxt in {"auch", "immer"}:
            return False
        if first == "was" and nxt == "fur":
            return any(w in _DE_VERBS for w in rest[1:])
        if first.startswith("welch") and nxt in _DE_D_PRONOUNS and rest[1:2] in _DE_PARTITIVE:
            return True  # "welcher der beiden Tarife ist günstiger"
        if nxt in _DE_PRONOUNS or nxt in _DE_ARTICLES or nxt in _DE_SUBORDINATORS:
            return False
        if _de_correlative(rest, body.orig[len(body.words) - len(rest) :], body.clause):
            return False  # "wer rastet, der rostet"
        if first == "wie" and nxt not in _DE_VERBS:
            if nxt in _DE_HOW_DEGREE:
                return len(rest) == 1 or rest[1] not in _DE_PRONOUNS_SUBORDINATORS
            if nxt in {"bitte", "denn", "so", "geht's", "gehts"}:
                return True
            if _de_inverted(rest, body.orig[len(body.words) - len(rest) :]):
                return True
            after = rest[1:2]
            if not after or after[0] in _DE_SUBORDINATORS:
                return False
            return after[0] in _DE_VERBS or _followed_by_pronoun(rest, 1)
        if first.startswith("welch") or first == "wessen":
            return True  # followed by its noun: "welcher Zug fährt"
        orig = body.orig[len(body.words) - len(rest) :]
        return nxt in _DE_VERBS or not _de_verb_final(rest, orig)
    previous = body.clause.previous
    if body.answered or (previous and previous[0] in _DE_SUBORDINATORS_WH):
        return False
    if set(rest[:3]) & _DE_STATEMENT_PARTICLES or tuple(words[:3]) in _DE_PRESENTING:
        return False  # "muss ja nicht sein", "soll er doch machen", "darf ich vorstellen"
    if first in _DE_VERBS and rest:
        if rest[0] == "ich" and set(rest[1:]) <= _DE_TOPIC_DROP_TAIL and len(rest) <= 3:
            return False
        if len(rest) <= 2 and set(rest) <= _DE_DROPPED:
            return False
        return not (len(rest) == 1 and rest[0].startswith("ge") and rest[0].endswith(("t", "en")))
    excluded = _DE_NOT_FIRST_VERB
    if (
        first not in excluded
        and _DE_VERB_SUFFIX_RE.search(first)
        and rest
        and rest[0] in {"du", "ihr", "sie", "er", "es", "wir", "man"}
    ):
        return len(rest) > 1 and not set(rest[1:]) <= _DE_TOPIC_DROP_TAIL
    return False


_DE_AGREEMENT: Final = {
    "ich": ("e",),
    "du": ("st",),
    "er": ("t",),
    "es": ("t",),
    "man": ("t",),
    "ihr": ("t",),
    "wir": ("en", "n"),
    "sie": ("t", "en", "n"),
}
_DE_NOT_VERB: Final = (
    _DE_ADVERBS
    | _DE_HOW_DEGREE
    | _fw(
        "nicht nichts zuletzt gern gerne überhaupt erst selbst zuerst meist fast sonst bereits "
        "jetzt gut echt recht weit leicht laut mit seit"
    )
)
_DE_D_PRONOUNS: Final = _fw("der die das dem den")
_DE_PREPOSITIONS: Final = _fw(
    "in an auf mit für von zu bei aus nach über um seit bis durch gegen ohne unter vor "
    "zwischen im am zum zur vom beim"
)


def _de_inverted(rest: Sequence[str], orig: Sequence[str]) -> bool:
    """Return True for "wie" + finite verb + agreeing subject pronoun ("wie komme ich").

    "wie nett er ist" has an adjective before the pronoun and its verb at the end: an
    exclamation, not a question.
    """
    if len(rest) < 2 or orig[0][:1].isupper() or rest[0] in _DE_NOT_VERB:
        return False
    if rest[1] in _DE_AGREEMENT:
        endings = _DE_AGREEMENT[rest[1]]
    elif rest[1] in _DE_ARTICLES or rest[1] in _DE_D_PRONOUNS:
        endings = ("t", "en", "n")  # "wie funktioniert das", "wie kommen die Kinder heim"
    else:
        return False
    if not rest[0].endswith(endings):
        return False
    return not (len(rest) > 2 and _de_verb_like(rest[-1], orig[-1]))


def _de_correlative(rest: Sequence[str], orig: Sequence[str], clause: _Clause) -> bool:
    """Return True for "W + verb" resumed by "der/das + verb" ("wer rastet, der rostet")."""
    if len(rest) >= 3:
        tail, tail_orig = rest[1:3], orig[1:3]
    elif len(rest) == 1 and len(clause.following) >= 2:
        tail, tail_orig = tuple(_fold(w) for w in clause.following[:2]), clause.following[:2]
    else:
        return False
    if tail[0] not in _DE_D_PRONOUNS or tail_orig[1][:1].isupper():
        return False
    if rest[0] in _DE_VERBS and tail[1] not in _DE_VERBS and tail[1] != "nicht":
        return False  # lowercase noun after a common verb: "was kostet das ticket"
    return tail[1] == "nicht" or _de_verb_like(tail[1], tail_orig[1])


def _de_verb_like(word: str, orig: str) -> bool:
    """Return True for a known finite verb or a lowercase word with a finite ending."""
    if word in _DE_VERBS:
        return True
    if orig[:1].isupper() or word in _DE_NOT_VERB or len(word) < 3:
        return False
    return word.endswith(("st", "t")) and not (word.startswith("ge") and len(word) > 5)


def _de_verb_final(rest: Sequence[str], orig: Sequence[str]) -> bool:
    """Return True when a W-word opens a verb-final clause ("wer nicht wagt, der …").

    A W-question has its verb second; when an adverb, a noun or a participle comes first and
    the first finite verb ends the clause or is followed by a second verb or a resumptive
    "der/das", the clause is a free relative ("wo gehobelt wird, fallen Späne").
    """
    first = rest[0]
    capitalised = orig[0][:1].isupper() and first not in {"sie", "ihnen"}
    participle = first.startswith("ge") and first.endswith("t") and len(first) > 5
    if not (
        first in _DE_NOT_VERB
        or first in _DE_PREPOSITIONS
        or capitalised
        or participle
        or len(first) == 1
    ):
        return False
    for index in range(1, len(rest)):
        if not _de_verb_like(rest[index], orig[index]):
            continue
        after = rest[index + 1 : index + 3]
        if not after:
            return True
        lower_after = not orig[index + 1][:1].isupper()
        if (
            after[0] in _DE_VERBS
            or _de_verb_like(after[0], orig[index + 1])
            or (lower_after and after[0].endswith("en"))
            or (
                after[0] in _DE_D_PRONOUNS
                and len(after) > 1
                and (after[1] in _DE_NOT_VERB or after[1] in _DE_VERBS)
            )
        ):
            return not orig[index + 1][:1].isupper()
        return False
    return False


def _followed_by_pronoun(words: Sequence[str], index: int) -> bool:
    """Return True when ``words[index + 1]`` is a subject pronoun."""
    return index + 1 < len(words) and words[index + 1] in _DE_PRONOUNS


CAPTURE_RULES: Final[tuple[_CaptureRule, ...]] = (
    _rule(
        KIND_REMINDER,
        r"(?:(?:kannst|könntest)\s+du\s+)?(?:erinnere|erinner)\s+mich\s+(?:bitte\s+)?"
        r"(?:daran\s*,?\s*)?(?:dass\s+|an\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        r"(?:kannst|könntest)\s+du\s+mich\s+(?:bitte\s+)?(?:\w+\s+)?(?:daran\s+|an\s+)?"
        r"erinnern\s*,?\s*(?:dass\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(KIND_REMINDER, r"vergiss\s+nicht\s*,?\s*(?:dass\s+)?(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"(?:denk|denke|denkt|denken\s+sie)\s+(?:bitte\s+)?(?:dran|daran)\s*,?\s*"
        r"(?:dass\s+)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"ich\s+(?:muss|darf)\s+(?:daran\s+denken|nicht\s+vergessen)\s*,?\s*(?:dass\s+)?"
        r"(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"lass\s+mich\s+nicht\s+vergessen\s*,?\s*(?:dass\s+)?(?P<c>.+)"),
    _rule(
        KIND_TASK,
        r"(?:setz|setze|schreib|schreibe|pack|packe)\s+(?P<c>.+?)\s+auf\s+"
        r"(?:meine|die|unsere)\s+(?P<l>\w*liste)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:füg|füge)\s+(?P<c>.+?)\s+(?:zu\s+)?(?:meiner|der|unserer|zur)\s+(?P<l>\w*liste)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:ich|wir)\s+(?:muss|müssen)\s+(?:unbedingt\s+|noch\s+|auch\s+)?(?P<c>.+)",
        task=True,
    ),
)

FILLERS: Final = _DE_FILLERS
TAGS: Final = _DE_TAGS


# Unions the rules above read, made once.
_DE_PRONOUNS_SUBORDINATORS: Final = _DE_PRONOUNS | _DE_SUBORDINATORS
_DE_SUBORDINATORS_WH: Final = _DE_SUBORDINATORS | _DE_WH
_DE_DROPPED: Final = _DE_TOPIC_DROP_TAIL | _DE_ADVERBS | _DE_DROP_EXTRA
_DE_NOT_FIRST_VERB: Final = _DE_WH | _DE_SUBORDINATORS | _DE_PRONOUNS | _DE_ARTICLES | _DE_ADVERBS
