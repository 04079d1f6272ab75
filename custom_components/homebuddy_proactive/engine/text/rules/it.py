"""Italian rules: when a spoken Italian clause asks a question, and which Italian requests
are reminders or tasks.

The surface every language module shares: ``is_question(body)`` (a clause after its fillers
were stripped), ``FILLERS``, ``TAGS`` (tag questions such as "right?"), ``CAPTURE_RULES``.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Final

from ..normalize import folded_words as _fw
from ..segment import _Body, _fillers, _phrases, _starts
from .base import KIND_REMINDER, KIND_TASK, _CaptureRule, _rule
from .common import _EXCLAMATIVE, _clitic_request, _possible_if
from .romance import (
    _HOW_MUCH,
    _ROMANCE_DETERMINERS,
    _WHENEVER_MODALS,
    _after_verb,
    _degree_exclamative,
    _how_exclamative,
    _main_clause_follows,
    _romance_when,
    _skip_topic,
    _verb_before_article,
)

_IT_FILLERS: Final = _fillers(
    "allora beh be' boh dunque quindi senti senta ecco e ma ok okay insomma cioè guarda "
    "scusa scusi ehm eh hey um uh uhm"
)
_IT_WH_ALWAYS: Final = _fw("chi cosa quanto quanta quanti quante quale quali qual qual' cos'")
_IT_WH_ANY: Final = _IT_WH_ALWAYS | _fw("che dove dov' quando come perché")
_IT_ARTICLES: Final = _fw("il lo la i gli le l' un una uno un'")
_IT_TOPICS: Final = _fw("adesso ora poi domani oggi stasera quindi invece tu voi lei e allora")
_IT_PREPOSITIONS: Final = _fw("a da di in con per su fino tra fra")
_IT_WHERE: Final = _fw("dove dov'")
_IT_WHEN: Final = _fw("quando quand'")
_IT_HOW: Final = _fw("come com'")
_IT_PRONOUNS: Final = _fw("io tu lui lei noi voi loro")
_IT_CLITICS: Final = _fw("mi ti ci vi si ne lo la li le gli")
_IT_MODALS: Final = _fw(
    "posso devo voglio possiamo dobbiamo vogliamo andiamo puoi devi vuoi può deve vuole "
    "potrei potremmo dovrei"
)
# Imperfects ("ero", "andavo", "diceva"), but not presents that end alike ("arriva", "leva").
_IT_IMPERFECT_RE: Final = re.compile(
    r"^(?!(?:\w*(?:riv|ttiv|ltiv|priv|scav|llev)(?:o|a|ano)|bevo|devo|lav[oa]|lavano|lev[oa]|"
    r"levano)$)(?:(?:ero|eri|era|eravamo|eravate|erano|avevo|avevi|aveva)$|"
    r"\w*(?:avo|evo|ivo|ava|eva|iva|avamo|evamo|ivamo|avano|evano|ivano)$)"
)
_IT_HOW_STATEMENT: Final = _fw(
    "se sai sapete sa sanno vuoi volete preferisci preferite sempre previsto d'accordo al "
    "solito promesso no prima già detto d'"
)
_IT_AUXILIARIES: Final = _fw("ho hai ha abbiamo avete hanno avevo avevi aveva avevamo avevano")
# Participles after "come ho/hai …" that make "as I said/planned" rather than "how did you".
_IT_REPORT_PARTICIPLES: Final = _fw(
    "detto promesso previsto spiegato scritto accennato anticipato visto sentito "
    "concordato deciso stabilito immaginato pensato letto"
)
# "dire"/"sapere" forms: "come dice il proverbio" reports, "come si dice …" asks.
_IT_SAY_RE: Final = re.compile(r"^(?:dic|dir|dis|dite|sap|sa$|sai$|sann)")
# First-person presents that look like imperfects ("arrivo", "scrivo", "devo").
_IT_V_PRESENT_RE: Final = re.compile(
    r"(?:rivo|vivo|^bevo|^devo|ricevo|^lavo|^levo|llevo|privo|ttivo|ltivo|scavo)$"
)
_IT_FIRST_IMPERFECT_RE: Final = re.compile(r"(?:^ero|vo|vamo|^eravamo)$")
_IT_FEASIBLE: Final = _phrases(
    "pensi che|credi che|vorrei sapere|mi piacerebbe sapere|volevo sapere|"
    "posso|puoi|può|possiamo|potrei|potresti|potremmo|potreste|potrebbe|mi puoi|"
    "mi potresti|mi può|mi potrebbe|ci puoi|ci potresti|mi sai|sai|sapete|sa|vuoi|volete|"
    "ti va|vi va|ti dispiace|le dispiace|si può|si potrebbe|è possibile|sarebbe possibile|"
    "hai visto|hai sentito|avete visto|hai tempo|hai idea|c'è modo|mi chiedo|mi domando|hai|"
    "chissà se|chissà come|chissà dove|chissà quando|chissà chi|chissà cosa|chissà perché|"
    "avete|le dispiacerebbe|ti dispiacerebbe|vi dispiacerebbe|c' è modo|c' è un modo|"
    "ce l' avete|ce l' hai|mi è permesso|ci è permesso|è permesso|è consentito|"
    "mi sarebbe possibile|ci sarebbe modo|c'è un modo|c' è la possibilità|c'è la possibilità"
)
_IT_FEASIBLE_BLOCK: Final = _fw("essere che piovere darsi ragione torto")
_IT_VERBS: Final = frozenset(
    {
        "è",
        "e'",
        "sono",
        "sei",
        "siamo",
        "siete",
        "fa",
        "fai",
        "fate",
        "facciamo",
        "ci",
        "si",
        "mi",
        "ti",
        "hai",
        "ha",
        "abbiamo",
        "avete",
        "hanno",
        "vuoi",
        "vuole",
        "dici",
        "dice",
        "pensi",
        "succede",
        "significa",
        "serve",
        "servono",
        "costa",
        "costano",
        "devo",
        "posso",
        "può",
        "puoi",
        "c'",
    }
)
_IT_TELL: Final = _phrases("dimmi", "mi dici", "mi dica", "mi sai dire", "sai che ore|sa che ore")
_IT_TAGS: Final = frozenset({("vero",), ("no",), ("giusto",)})


def is_question(body: _Body) -> bool:
    """Italian spoken-question rules."""
    words = body.words
    if not words:
        return False
    body = _skip_topic(body, _IT_TOPICS, _IT_WH_ANY - {"che"})
    words = body.words
    if len(words) > 1 and words[0] in _IT_PREPOSITIONS and words[1] in _IT_WH_ANY:
        words = words[1:]
        body = dataclasses.replace(body, words=words, raw=body.raw[1:], orig=body.orig[1:])
    first = words[0]
    rest = list(words[1:])
    if first == "che" and rest[:1] == ["cosa"]:
        return True
    if first in _IT_WH_ALWAYS:
        if first in _HOW_MUCH and _degree_exclamative(rest):
            return False  # "quanto sei bella", "quanta fortuna"
        return not (rest and _IT_IMPERFECT_RE.search(rest[0]))
    if first == "perche":
        if not rest:
            return True
        verb = rest[1] if rest[0] in _IT_PRONOUNS and len(rest) > 1 else rest[0]
        if rest[0] == "io" or verb in {"sono", "ho"}:
            return False
        return not (verb.endswith("o") and verb not in _IT_MODALS and rest[0] != "non")
    if first in _IT_WHERE:
        if rest and (_IT_IMPERFECT_RE.search(rest[0]) or rest[0] in {"io", "noi"}):
            return False
        if rest and rest[0] in _WHENEVER_MODALS and set(rest[1:]) <= _IT_PRONOUNS:
            return False  # "dove vuoi (tu)" = "wherever you like"
        return not _it_where_main_clause(rest)
    if first in _IT_WHEN:
        return _romance_when(rest, _IT_PRONOUNS, _IT_CLITICS, _IT_MODALS, _IT_IMPERFECT_RE)
    if first in _IT_HOW:
        if rest[:1] == ["mai"] or not rest:
            return True
        return _it_how_question(rest)
    if first == "che":
        if not rest or rest[0] in _IT_PRONOUNS or rest[0] in _EXCLAMATIVE:
            return False
        if rest[0] in _IT_WHAT_NOUNS:
            return True  # "a che ora comincia", "che giorno è oggi"
        if any(w in _IT_VERBS for w in body.raw[1:5]):
            return True
        return _verb_before_article(rest, _IT_ARTICLES)
    told = _starts(words, _IT_TELL)
    if told or (_clitic_request(words) and not body.answered):
        return True
    feasible = _starts(words, _IT_FEASIBLE)
    if feasible and not body.answered and not _possible_if(words, feasible):
        following = words[feasible : feasible + 1]
        return not following or following[0] not in _IT_FEASIBLE_BLOCK
    return False


_IT_WHAT_NOUNS: Final = _fw("ora ore giorno tempo tipo genere numero taglia")


def _it_where_main_clause(rest: Sequence[str]) -> bool:
    """Return True for "dove vai tu vado io": a main clause follows the "where" clause."""
    index = 0
    while index < len(rest) and (rest[index] in _IT_PRONOUNS or rest[index] in _IT_CLITICS):
        index += 1
    if index >= len(rest):
        return False
    after = _after_verb(rest, index)
    if len(after) > 1 and after[0] in _IT_PRONOUNS and after[1] in {"non", "c'", "ci", "si"}:
        return True  # "dove abito io non c'è la metro"
    return _main_clause_follows(after)


def _it_how_question(rest: Sequence[str]) -> bool:
    """Return True when "come" + verb asks ("come arrivo", "com'era il film") rather than
    compares ("come ti dicevo", "come previsto", "come diceva mia nonna", "come no")."""
    index = 1 if rest[0] in _IT_CLITICS - {"si"} and len(rest) > 1 else 0
    verb = rest[index]
    after = rest[index + 1 :]
    if verb in _IT_HOW_STATEMENT or _how_exclamative(rest):
        return False
    if verb in _IT_AUXILIARIES:
        return not (after and after[0] in _IT_REPORT_PARTICIPLES)
    if _IT_SAY_RE.search(verb):
        return rest[0] == "si" or (not after and not _IT_IMPERFECT_RE.search(verb))
    if not _IT_IMPERFECT_RE.search(verb) or _IT_V_PRESENT_RE.search(verb):
        return True
    if _IT_FIRST_IMPERFECT_RE.search(verb):
        return False
    if verb in {"era", "eri", "erano"}:
        return not after or after[0] in _ROMANCE_DETERMINERS
    return True


CAPTURE_RULES: Final[tuple[_CaptureRule, ...]] = (
    _rule(
        KIND_REMINDER,
        r"(?:(?:puoi|potresti)\s+)?(?:ricordami|ricordarmi|mi\s+ricordi|ricordatemi)\s+"
        r"(?:di\s+|che\s+|d'\s*)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        r"non\s+(?:farmi|lasciarmi)\s+dimenticare\s+(?:di\s+|che\s+|d'\s*)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"non\s+(?:ti\s+)?dimenticar(?:e|ti)\s+(?:di\s+|che\s+|d'\s*)(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:io\s+)?non\s+(?:devo|dobbiamo|posso|possiamo)\s+dimenticar(?:e|mi|ci)\s+"
        r"(?:di\s+|che\s+|d'\s*)(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"ricordati\s+(?:di\s+|che\s+|d'\s*)(?P<c>.+)"),
    _rule(KIND_REMINDER, r"devo\s+ricordarmi\s+(?:di\s+|che\s+|d'\s*)(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"(?:metti|imposta|crea|aggiungi)\s+(?:un\s+)?promemoria\s+(?:per\s+|di\s+|che\s+)?"
        r"(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:aggiungi|metti|segna)\s+(?P<c>.+?)\s+(?:alla|nella|sulla|in|a)\s+"
        r"(?:mia\s+|nostra\s+)?(?P<l>lista(?:\s+(?:della|delle|di)\s+\w+)?)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:io\s+)?(?:devo|dobbiamo)\s+(?:assolutamente\s+|ancora\s+|anche\s+)?(?P<c>.+)",
        task=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:io\s+)?(?:ho|abbiamo)\s+bisogno\s+di\s+(?P<c>\w+(?:are|ere|ire)\b.*)",
        task=True,
    ),
)

FILLERS: Final = _IT_FILLERS
TAGS: Final = _IT_TAGS
