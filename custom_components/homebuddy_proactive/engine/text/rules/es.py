"""Spanish rules: when a spoken Spanish clause asks a question, and which Spanish requests
are reminders or tasks.

The surface every language module shares: ``is_question(body)`` (a clause after its fillers
were stripped), ``FILLERS``, ``TAGS`` (tag questions such as "right?"), ``CAPTURE_RULES``.
"""

from __future__ import annotations

from typing import Final

from ..normalize import folded_words as _fw
from ..segment import _Body, _fillers, _phrases, _starts
from .base import KIND_REMINDER, KIND_TASK, _CaptureRule, _rule
from .common import _EXCLAMATIVE, _clitic_request, _possible_if
from .romance import _degree_exclamative, _how_exclamative, _main_clause_follows

_ES_FILLERS: Final = _fillers(
    "pues bueno entonces eh este oye oiga mira mire y pero vale bien venga ok okey hombre "
    "perdón perdona perdone disculpa disculpe hey so um uh uhm ehm"
)
_ES_WH_ACCENTED: Final = frozenset(
    {
        "qué",
        "quién",
        "quiénes",
        "dónde",
        "adónde",
        "cuándo",
        "cómo",
        "cuánto",
        "cuánta",
        "cuántos",
        "cuántas",
        "cuál",
        "cuáles",
    }
)
_ES_WH_PLAIN: Final = _fw("que quien quienes donde adonde cuando como cuanto cuanta cuantos cuál")
_ES_PLAIN_FOLLOW: Final = _fw(
    "es esta está estas estás estan están son puedo puedes se queda hora tal vas va "
    "vamos cuesta cuestan sale llega abre cierra empieza pasa haces hace quieres"
)
# After "quien"/"cuanto" written without accents: verbs that ask ("quien tiene las llaves",
# "cuantos somos") rather than open a proverb or a correlative ("cuanto antes mejor").
_ES_PLAIN_WHO_FOLLOW: Final = _fw(
    "tiene tienen viene vienen va van fue sabe quiere puede trae paga ganó hizo dijo llamó "
    "está están ha han"
)
_ES_PLAIN_COUNT_FOLLOW: Final = _fw(
    "somos sois son hay tienes tiene quedan queda faltan falta vale valen necesitas necesito "
    "llevas lleva"
)
_ES_PLAIN_COUNT_VERBS: Final = _fw("tienes tiene tienen son hay cuesta cuestan hace necesitas")
_ES_PREPOSITIONS: Final = _fw("a de en con por para desde hasta sobre")
_ES_VERBS: Final = _fw(
    "es son era fue está están estás hay hace haces hacemos hago pasa pasó quieres quiere "
    "tienes tiene opinas piensas crees dices dice dijo significa vas va vamos sabes sé "
    "puedo puedes puede podemos necesitas necesito te me se le les nos os lo la tal"
)
_ES_EXCLAMATIVE_TAIL: Final = _fw("tan más de que")
_ES_FEASIBLE: Final = _phrases(
    "crees que|piensas que|cree usted que|quisiera saber|me gustaría saber|quería saber|"
    "quería preguntarte|quería preguntarle|quería preguntaros|"
    "puedo|puedes|podemos|pueden|podría|podrías|podríamos|podrían|puede usted|"
    "podría usted|se puede|se podría|me puedes|me podrías|me podría|me puede|nos puedes|"
    "nos podrías|le importa|te importa|le importaría|te importaría|sería posible|"
    "es posible|quieres|queréis|sabes|sabe usted|sabéis|me dices|me dice|me ayudas|"
    "me ayuda|tienes idea|tiene idea|hay alguna|hay algún|me pregunto|has visto|"
    "habéis visto|te apetece|te parece|le parece|tienes|tenéis|tiene usted|me permite|"
    "me permites|me permiten|nos permite|nos permites|hay manera|hay forma|hay modo|"
    "hay alguna manera|hay alguna forma|nos podría|nos podrías|nos puede|nos puedes|"
    "nos podrían|nos pueden|me pueden|me podrían|está permitido|se permite"
)
_ES_FEASIBLE_BLOCK: Final = _fw(
    "ser que haber llover nada razón suerte mucho mucha muchos muchas todo toda"
)
_ES_TELL: Final = _phrases("dime", "dígame", "digame", "cuéntame")
_ES_TAGS: Final = frozenset({("verdad",), ("no",), ("cierto",)})


def is_question(body: _Body) -> bool:
    """Spanish spoken-question rules (accents distinguish "cuándo" from "cuando")."""
    words, raw = body.words, body.raw
    if not words:
        return False
    if raw[1:2] in (("preguntó",), ("preguntaba",), ("preguntaron",)):
        return False  # "me preguntó cuándo volvíamos" reports a question
    start = 0
    if len(raw) > 1 and words[0] in _ES_PREPOSITIONS and raw[1] in _ES_WH_ACCENTED:
        start = 1
    if raw[0] == "por" and len(raw) > 1 and raw[1] == "qué":
        return True
    if raw[:2] == ("por", "que") and len(raw) > 2 and not body.clause.accented:
        return True  # "por que no funciona" with the accent dropped ("porque" is one word)
    head = raw[start]
    rest = words[start + 1 :]
    if head in {"que", "qué", "quien", "quién"} and start == 0 and rest[:1] == ("dices",):
        return True
    if head in _ES_WH_ACCENTED:
        if head.startswith("cuánt") and _degree_exclamative(rest):
            return False
        if head == "cómo" and (rest[:1] == ("no",) or _how_exclamative(rest)):
            return False
        if head == "qué" and start == 0 and rest and rest[0] in _EXCLAMATIVE:
            return False  # "qué suerte tuvimos", "qué bonito es"
        if head == "qué" and start == 0 and rest and rest[0] not in _ES_VERBS:
            tail = rest[1:]
            if any(w in _ES_VERBS for w in tail):
                return True
            return len(tail) >= 2 and not set(tail) & _ES_EXCLAMATIVE_TAIL
        return True
    if words[start] in _ES_WH_PLAIN and not body.clause.accented and rest:
        follow = _ES_PLAIN_FOLLOW
        if words[start].startswith("quien"):
            follow = follow | _ES_PLAIN_WHO_FOLLOW
        elif words[start].startswith("cuant"):
            follow = follow | _ES_PLAIN_COUNT_FOLLOW
            if len(rest) > 1 and rest[1] in follow | _ES_PLAIN_COUNT_VERBS:
                return True  # "cuantos años tiene"
        return rest[0] in follow and not _main_clause_follows(rest[1:])
    if _clitic_request(words) and not body.answered:
        return True
    told = _starts(words, _ES_TELL)
    if told and len(raw) > told and (raw[told] in _ES_WH_ACCENTED or words[told] == "si"):
        return True
    feasible = _starts(words, _ES_FEASIBLE)
    if feasible and not body.answered:
        following = words[feasible : feasible + 1]
        if _possible_if(words, feasible):
            return False  # "sería posible si tuviéramos tiempo" states a condition
        return not following or following[0] not in _ES_FEASIBLE_BLOCK
    return False


CAPTURE_RULES: Final[tuple[_CaptureRule, ...]] = (
    _rule(
        KIND_REMINDER,
        r"(?:(?:puedes|podrías|puede|podría)\s+)?(?:recuérdame|recuerdame|recordarme|"
        r"recuérdeme|me\s+recuerdas(?!\s+al?\s)|me\s+recuerda(?!\s+al?\s))\s+"
        r"(?:que\s+|de\s+|a\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(KIND_REMINDER, r"no\s+me\s+dejes\s+olvidar\s+(?:que\s+|de\s+)?(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"(?:que\s+)?no\s+se\s+me\s+(?:olvide|pase|olvida)\s+(?:que\s+|de\s+)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:yo\s+)?no\s+(?:puedo|debo|podemos|debemos)\s+olvidar(?:me|nos)?\s+"
        r"(?:de\s+|que\s+)?(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"acuérdate\s+de\s+(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"no\s+(?:olvides|te\s+olvides\s+de|olvide|se\s+olvide\s+de)\s+(?:que\s+|de\s+)?"
        r"(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"tengo\s+que\s+acordarme\s+(?:de\s+|que\s+)(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"(?:pon|ponme|crea|créame|añade)\s+(?:un\s+)?recordatorio\s+(?:para\s+|de\s+|que\s+)?"
        r"(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:añade|agrega|pon|apunta|anota)\s+(?P<c>.+?)\s+(?:a|en)\s+(?:mi|la|nuestra)\s+"
        r"(?P<l>lista(?:\s+de(?:\s+la)?\s+\w+)?)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:yo\s+)?(?:tengo\s+que|debo|tenemos\s+que|debemos|hay\s+que)\s+(?P<c>.+)",
        task=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:yo\s+)?(?:necesito|necesitamos)\s+(?P<c>\w+(?:ar|er|ir)(?:me|te|se|lo|la)?\b.*)",
        task=True,
    ),
)

FILLERS: Final = _ES_FILLERS
TAGS: Final = _ES_TAGS
