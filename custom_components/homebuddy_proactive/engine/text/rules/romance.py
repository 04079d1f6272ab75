"""Question rules shared by Italian, Spanish, Portuguese (and Greek topics): exclamations of
degree, a topic before the question word, and "when" clauses that open a main clause.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from typing import Final

from ..normalize import folded_words as _fw
from ..segment import _Body
from .common import _EXCLAMATIVE, _PROVERB_ADVERBS, _PROVERB_ARTICLES

_ROMANCE_VERB_RE: Final = re.compile(r"(?:iamo|amos|emos|imos|ete|ate|ite|ono|ão)$")
_ROMANCE_DETERMINERS: Final = _fw(
    "il lo la i gli le l' un una uno un' del della dello dei degli delle al allo alla ai "
    "agli alle dal dalla dai nel nella nei sul sulla mio mia tuo tua suo sua nostro nostra "
    "questo questa quel quella di a da in con per su tra fra "
    "o a os as um uma do da dos das ao aos no na nos nas pelo pela meu minha teu tua seu "
    "sua nosso nossa este esta esse essa aquele aquela de em com por para "
    "el los las del al unos unas mis tus sus nuestro nuestra ese aquel"
)
_ROMANCE_NOT_VERBS: Final = _fw(
    "presto molto troppo poco subito tanto pronto dentro dopo ancora mario cedo logo muito "
    "pouco tudo todo depois centro prossimo próximo"
)
_IT_FIRST_PERSON_RE: Final = re.compile(r"(?<!iam)o$")


_HOW_COPULA: Final = _fw(
    "sono sei è siamo siete estou estás está estamos estoy soy eres es somos me mi te ti"
)
_HOW_FEELING: Final = _fw("alegro alegra contento contenta contente felice feliz")


def _how_exclamative(rest: Sequence[str]) -> bool:
    """Return True for "how + (copula) + evaluative word" ("come sono contento")."""
    index = 1 if rest[:1] and rest[0] in _HOW_COPULA else 0
    if len(rest) <= index:
        return False
    word = rest[index]
    return word in _EXCLAMATIVE or word in _HOW_FEELING


_HOW_MUCH: Final = _fw("quanto quanta quanti quante cuánto cuánta cuántos cuántas")
_DEGREE_COPULA: Final = _fw("sei è e' siete sono era eri és são es eres está estás")


def _degree_exclamative(rest: Sequence[str]) -> bool:
    """Return True for "quanto (sei/è) + evaluative word" ("quanto sei bella", "quanta sorte")."""
    index = 1 if rest[:1] and rest[0] in _DEGREE_COPULA else 0
    return len(rest) > index and rest[index] in _EXCLAMATIVE


def _verb_before_article(rest: Sequence[str], articles: frozenset[str]) -> bool:
    """Return True for "noun verb article …" after "che"/"que" ("che ora chiude il museo")."""
    if len(rest) >= 3 and rest[2] in articles:
        return True
    return any(_ROMANCE_VERB_RE.search(word) for word in rest[1:3])


def _skip_topic(body: _Body, topics: frozenset[str], targets: frozenset[str]) -> _Body:
    """Skip up to three fronted topic words before a question word ("εσύ τι λες")."""
    skip = 0
    while skip < min(3, len(body.words) - 1) and body.words[skip] in topics:
        skip += 1
    if skip and (body.words[skip] in targets or body.raw[skip] in targets):
        return dataclasses.replace(
            body, words=body.words[skip:], raw=body.raw[skip:], orig=body.orig[skip:]
        )
    return body


_ROMANCE_AUXILIARIES: Final = _fw(
    "ho hai ha abbiamo avete hanno sono sei è siamo siete e' tenho tens tem temos têm é foi "
    "fui estou está estás estão"
)


_PT_IRREGULAR_FUTURE_SUBJ: Final = _fw(
    "quiser quiseres quisermos quiserem puder puderes pudermos puderem tiver tiveres "
    "tivermos tiverem estiver estiveres fizer fizeres souber souberes vier vieres"
)


def _pt_future_subj(verb: str) -> bool:
    """Return True for a Portuguese future subjunctive ("chegares", "fores", "preferires")."""
    if verb in {"for", "fores", "formos", "forem"} or verb in _PT_IRREGULAR_FUTURE_SUBJ:
        return True
    return verb.endswith(("ares", "eres", "ires", "armos", "ermos", "irmos")) and len(verb) > 5


def _after_verb(rest: Sequence[str], index: int) -> Sequence[str]:
    """Return the words after the verb at ``index``, past a participle after an auxiliary."""
    participle = rest[index + 1 : index + 2]
    if (
        rest[index] in _ROMANCE_AUXILIARIES
        and participle
        and participle[0] not in _ROMANCE_DETERMINERS
    ):
        return rest[index + 2 :]
    return rest[index + 1 :]


_WHENEVER_MODALS: Final = _fw("vuoi volete puoi potete preferisci quer queres pode podes")


def _romance_when(
    rest: Sequence[str],
    pronouns: frozenset[str],
    clitics: frozenset[str],
    modals: frozenset[str],
    imperfect: re.Pattern[str],
) -> bool:
    """Question reading of Italian/Portuguese "quando" (also "when"-subordinator)."""
    if len(rest) > 2 and rest[0] in _PROVERB_ARTICLES and rest[1] not in _PROVERB_ARTICLES:
        # Subject first ("quando o filme acabar vamos jantar"): a question only as "when + the
        # bus + arrives (+ adverbs)", the Brazilian word order.
        verb, tail = rest[2], rest[3:]
        if _pt_future_subj(verb) or verb.endswith(("ar", "er", "ir")):
            return False
        return all(word in _PROVERB_ADVERBS for word in tail)
    index = 0
    while index < len(rest) and (rest[index] in pronouns or rest[index] in clitics):
        index += 1
    if index >= len(rest):
        return not rest
    verb = rest[index]
    if verb in modals or verb in _WHENEVER_MODALS:  # a sister language's "whenever you like"
        # "quando vuoi (tu)" = "whenever you like"; "quando vuoi partire" asks.
        after = [word for word in rest[index + 1 :] if word not in clitics]
        if verb not in _WHENEVER_MODALS:
            # "quando posso venire" asks; "quando posso ti chiamo" = "when I can, I call".
            infinitive = bool(after) and after[0].endswith(("are", "ere", "ire", "ar", "er", "ir"))
            return infinitive or not _main_clause_follows(after)
        return bool(after) and after[0].endswith(("are", "ere", "ire", "ar", "er", "ir", "or"))
    if imperfect.search(verb):
        return False
    if _IT_FIRST_PERSON_RE.search(verb) and len(verb) > 2:
        return False
    if verb.endswith(("ar", "er", "ir")) and len(verb) > 3:
        return False
    if _pt_future_subj(verb):
        return False  # "quando chegares"
    return not _main_clause_follows(_after_verb(rest, index))


_MAIN_VERB_RE: Final = re.compile(r"(?:iamo|amos|emos|imos)$|[aei](?:mi|ci)$|-(?:me|nos|lhe|te)$")
_MAIN_VERB_SHORT_RE: Final = re.compile(r"(?:amos|emos|imos)$")


def _main_clause_follows(words: Sequence[str]) -> bool:
    """Return True when a main-clause verb follows a "when" clause ("quando piove resto…").

    First-person verbs ("resto", "restiamo", "ficamos") and imperatives with a clitic
    ("chiamami", "liga-me") cannot continue a "when" question.
    """
    for position, word in enumerate(words):
        main_verb = _MAIN_VERB_SHORT_RE.search(word) or (
            len(word) >= 6 and _MAIN_VERB_RE.search(word)
        )
        if main_verb and (not position or words[position - 1] not in _ROMANCE_DETERMINERS):
            return True
        if (
            len(word) < 3
            or not _IT_FIRST_PERSON_RE.search(word)
            or word in _ROMANCE_NOT_VERBS
            or word in _ROMANCE_DETERMINERS
        ):
            continue
        context = set(words[max(0, position - 2) : position])
        if not context & _ROMANCE_DETERMINERS:
            return True
    return False
