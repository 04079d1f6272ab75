"""Questions that start inside a run-on sentence ("…the store do you need anything").

Speech often runs a statement into a question without a pause; these rules look for an inverted
auxiliary, a question word with a modal, or a coordinator followed by a question in the last
clause, and then apply the language's own question rule to what follows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from ..normalize import fold as _fold
from ..normalize import folded_words as _fw
from ..segment import _Clause, _strip
from . import RULES
from .common import _statement_form
from .de import _DE_WH
from .en import _EN_AUX_ALL, _EN_NOMINATIVE, _EN_PERSONAL

_MID_EN_AUX: Final = _fw(
    "do does did can could would will are were have has should shall may don't doesn't "
    "didn't can't couldn't wouldn't won't aren't weren't haven't hasn't shouldn't dont cant"
)
_MID_EN_SUBJECTS: Final = _fw("you we i they he she u ya")
_MID_EN_BLOCK: Final = _fw(
    "so neither nor as than only never rarely seldom hardly little not i you we they he she "
    "it to i'll you'll we'll they'll i'd you'd we'd they'd will can could would should must "
    "gonna wanna gotta please that who"
)
_MID_ACCENTED_WH: Final = frozenset(
    {
        "dónde",
        "cuándo",
        "cómo",
        "qué",
        "quién",
        "cuánto",
        "cuánta",
        "cuántos",
        "cuántas",
        "cuál",
        "πού",
        "πώς",
        "πότε",
        "ποιος",
        "ποια",
        "ποιο",
        "πόσο",
        "πόσα",
    }
)
_MID_INDIRECT: Final = _fw(
    "sé sabe sabes sabemos saben saber pregunto pregunta preguntó preguntar dime idea "
    "importa depende ver decir explicar entiendo olvidé recuerdo mira lo "
    "ξέρω ξέρει ξέρουμε ξέρουν ρωτάω ρώτησε ρωτήσω θυμάμαι καταλαβαίνω εξαρτάται δες "
    "σημασία ξέρεις"
)


# Verbs of saying, knowing and asking in any person or tense ("te diré quién eres").
_MID_INDIRECT_STEMS: Final = tuple(
    sorted(
        _fw(
            "dir dig dec dij sab sup pregunt expli ense averigu entend recuerd olvid imagin "
            "habl acuerd cont "
            "ξερ ρωτ θυμ εξηγ καταλαβ"
        )
    )
)


# "…and is there a driver", "…check are we presenting": a copula inverted with its subject.
_MID_EN_COPULA: Final = _fw("is are were am")
_MID_EN_COPULA_SUBJECTS: Final = {
    "is": _fw("he she"),
    "are": _fw("we you they"),
    "were": _fw("we you they"),
    "am": _fw("i"),
}
_MID_EN_EXISTENTIAL: Final = _fw("a an any some anything anyone anybody something somebody")
_MID_EN_QUANTITY: Final = frozenset({("lot",), ("bit",), ("little",), ("while",), ("few",)})
_MID_EN_WH: Final = _fw("what which how where when why whereabouts")
_MID_EN_WH_AUX: Final = _fw(
    "do does did is are was were can could should would will has have am shall"
)
_MID_EN_WH_SUBJECTS: Final = _EN_NOMINATIVE | _fw(
    "it the a an my your our his her their this that these those there"
)
# Verbs and words that make a following question word indirect ("she asked me where …").
_MID_EN_INDIRECT: Final = _fw(
    "know knew known ask asked asking asks wonder wondered tell told sure idea explain "
    "explained remember forget forgot see saw check show showed understand decide decided "
    "guess about matter care mind say said find wondering learn"
)
# Coordinators in their accented spelling ("é" is a verb, "e" a coordinator), per language.
_MID_COORDINATORS: Final[dict[str, frozenset[str]]] = {
    "en": frozenset({"and", "but", "so", "then"}),
    "es": frozenset({"y", "pero", "entonces"}),
    "fr": frozenset({"et", "mais", "donc", "alors"}),
    "it": frozenset({"e", "ma", "quindi", "allora"}),
    "pt": frozenset({"e", "mas", "então", "entao"}),
    "de": frozenset({"und", "aber"}),
    "el": frozenset({"και", "αλλά", "αλλα", "λοιπόν", "λοιπον"}),
}
_MID_TAIL_WORDS: Final = 30
_MID_EN_ELLIPSIS: Final = _fw("so neither nor as than too")  # "… and so do you"
_MID_ALL_COORDINATORS: Final = frozenset().union(*_MID_COORDINATORS.values())
# German drops the subject after "und" ("… und sind dann heimgefahren"): only a subject
# pronoun after the verb shows a question (also after a mid-sentence "was soll …").
_MID_DE_TAIL_SUBJECTS: Final = _fw("ich du wir ihr man")
# German: a question word, a modal and its subject in the middle of a run-on ("… was soll
# ich machen"); embedded questions put the verb last ("was ich machen soll").
_MID_DE_WH: Final = _fw("was wo wann wie warum wieso weshalb wohin woher welche welcher welches")
_MID_DE_MODALS: Final = _fw(
    "soll sollen sollte sollten kann können könnte könnten muss müssen darf dürfen will "
    "wollen würde würden"
)
_MID_IT_MODALS: Final = _fw(
    "devo dobbiamo dovrei dovremmo posso possiamo potrei potremmo faccio facciamo devi puoi"
)
_MID_IT_KNOW: Final = _fw("so sa sai sapete sanno")  # "non so cosa devo fare"
_MID_IT_ARTICLES: Final = _fw("una la questa quella ogni qualche altra un'")
_MID_PT_MODALS: Final = _fw("devo devemos posso podemos tenho temos faço fazemos")
_MID_PT_BLOCK: Final = _fw("é foi era isso tudo sei sabe ver entendo disse perguntou")
_MID_PT_WH: Final = _fw("que onde quando como quem quanto qual porque")
_MID_EL_MODALS: Final = _fw("πρέπει θα να μπορώ μπορούμε κάνω κάνουμε")
_MID_OTHER_INDIRECT_STEMS: Final = (
    "weiß",
    "weiss",
    "wiss",
    "frag",
    "sag",
    "erklär",
    "erklar",
    "sai",
    "sap",
    "chie",
    "dett",
    "dic",
    "dir",
    "spieg",
    "sei",
    "sab",
    "pergunt",
    "diss",
    "diz",
    "explic",
    "lemb",
    "ειπ",
    "λε",
)


_MID_ALL_INDIRECT_STEMS: Final = _MID_INDIRECT_STEMS + _MID_OTHER_INDIRECT_STEMS


def _mid_indirect(words: Sequence[str], index: int) -> bool:
    """Return True when a verb of knowing, saying or asking precedes ``index`` closely."""
    context = words[max(0, index - 3) : index]
    return bool(set(context) & _MID_EN_INDIRECT) or any(
        word.startswith(_MID_ALL_INDIRECT_STEMS) for word in context
    )


def _mid_en_wh(words: Sequence[str], index: int) -> bool:
    """Return True for "…wh [noun] aux subject" ("…forty minutes now how long does it need")."""
    if words[index] not in _MID_EN_WH or _mid_indirect(words, index):
        return False
    for offset in range(1, 4):
        position = index + offset
        if position + 1 >= len(words):
            return False
        word = words[position]
        if word in _MID_EN_WH_AUX:
            return words[position + 1] in _MID_EN_WH_SUBJECTS
        if word in _EN_PERSONAL or word in _EN_AUX_ALL or word in _MID_EN_WH:
            return False
    return False


def _mid_en_copula(words: Sequence[str], index: int) -> bool:
    """Return True for "…is there a …", "…are we …" inside a run-on."""
    word, following = words[index], words[index + 1]
    if word not in _MID_EN_COPULA or words[index - 1] in _MID_EN_BLOCK:
        return False
    if words[index - 1] in _MID_EN_WH or _mid_indirect(words, index):
        return False
    if word in {"is", "are"} and following == "there":
        return (
            words[index + 2 : index + 3] != ()
            and words[index + 2] in _MID_EN_EXISTENTIAL
            and words[index + 3 : index + 4] not in _MID_EN_QUANTITY
        )  # "is there a driver", not "he is there a lot"
    return following in _MID_EN_COPULA_SUBJECTS[word] and index + 2 < len(words)


_MID_MODAL_LANGUAGES: Final = frozenset({"de", "it", "pt", "el"})


def _mid_modal_wh(words: Sequence[str], raw: Sequence[str], index: int, language: str) -> bool:
    """Return True for a question word and a modal inside a run-on ("… cosa devo fare")."""
    if language not in _MID_MODAL_LANGUAGES:
        return False  # checked first: the indirect-verb test below is the costly part
    word = words[index]
    following = words[index + 1 : index + 3]
    if len(following) < 1 or _mid_indirect(words, index):
        return False
    if language == "de":
        return (
            word in _MID_DE_WH
            and len(following) == 2
            and following[0] in _MID_DE_MODALS
            and following[1] in _MID_DE_TAIL_SUBJECTS
            and not (word == "was" and words[index - 1] in {"so", "etwas"})
        )
    if language == "it":
        return (
            word in {"cosa", "cos'"}
            and following[0] in _MID_IT_MODALS
            and words[index - 1] not in _MID_IT_ARTICLES
            and not set(words[max(0, index - 3) : index]) & _MID_IT_KNOW
        )
    if language == "pt":
        if word == "e" and raw[index] == "é" and following[:1] == ("que",):
            return words[index - 1] in _MID_PT_WH
        return (
            word == "que"
            and words[index - 1] == "o"
            and following[0] in _MID_PT_MODALS
            and (index < 2 or words[index - 2] not in _MID_PT_BLOCK)
        )
    if language == "el":
        return raw[index] == "τι" and following[0] in _MID_EL_MODALS
    return False


def _mid_coordinated(clause: _Clause, languages: Sequence[str]) -> bool:
    """Apply the question rules after a coordinator ("… y sabes si el museo abre")."""
    words = clause.words
    first = max(1, len(words) - _MID_TAIL_WORDS)
    if _MID_ALL_COORDINATORS.isdisjoint(clause.raw[first - 1 : len(words) - 3]):
        return False  # no coordinator for a question to follow
    # Two-word tails are elliptic ("… so do you"); a question starts near the end.
    for index in range(first, len(words) - 2):
        coordinator = clause.raw[index - 1]
        if coordinator not in _MID_ALL_COORDINATORS or words[index] in _MID_EN_ELLIPSIS:
            continue
        if index > 1 and clause.raw[index - 2] == clause.raw[index]:
            continue  # "πού και πού": "now and then"
        tail = dataclasses.replace(
            clause,
            words=words[index:],
            raw=clause.raw[index:],
            orig=clause.orig[index:],
            index=clause.index + 1,
            previous=words[:index],
            after_answer=False,
        )
        for code in languages:
            if coordinator not in _MID_COORDINATORS.get(code, frozenset()):
                continue
            rules = RULES[code]
            body = _strip(tail, rules.fillers)
            if len(body.words) < 2:
                continue
            if (
                code == "de"
                and body.words[1] not in _MID_DE_TAIL_SUBJECTS_WH
                and body.words[0] not in _DE_WH
            ):
                continue
            # Both are pure: the rule first, the (costlier) form only of a question it finds.
            if rules.is_question(body) and not _statement_form(body.words, body.raw):
                return True
    return False


def _mid_question(clause: _Clause, languages: Sequence[str], *, any_language: bool = True) -> bool:
    """Find a question that starts inside the last clause ("…the store do you need anything").

    The rules of ``languages``, then (unless ``any_language`` is False) the accented question
    words any language's transcript shows.
    """
    words, raw = clause.words, clause.raw
    if languages and _mid_in_languages(clause, languages):
        return True
    if not any_language or _MID_ACCENTED_WH.isdisjoint(raw[2:]):
        return False
    for index in range(2, len(words)):
        if raw[index - 2] == raw[index] and words[index - 1] == _MID_EL_AND:
            continue
        context = words[max(0, index - 3) : index]
        if (
            raw[index] in _MID_ACCENTED_WH
            and not set(context) & _MID_INDIRECT
            and not any(word.startswith(_MID_INDIRECT_STEMS) for word in context)
        ):
            if raw[index] in {"πότε", "πόσο", "πόσα"} or raw[index - 1] in {"por", "a", "de"}:
                return True
            if index + 1 < len(words):
                return True
    return False


# The words (folded) each language's mid-sentence rules start from, at ``index`` below: a
# clause with none of them in its middle holds no such question (coordinators aside).
_MID_STARTS: Final[dict[str, frozenset[str]]] = {
    "en": _MID_EN_AUX | _MID_EN_COPULA | _MID_EN_WH,
    "de": _MID_DE_WH,
    "it": frozenset({"cosa", "cos'"}),
    "pt": frozenset({"e", "que"}),
    "el": frozenset({_fold("τι")}),
}


def _mid_in_languages(clause: _Clause, languages: Sequence[str]) -> bool:
    """The mid-sentence question rules of ``languages`` (see :func:`_mid_question`)."""
    words, raw = clause.words, clause.raw
    middle = words[2 : len(words) - 1]
    for code in languages:
        starts = _MID_STARTS.get(code)
        if starts is not None and not starts.isdisjoint(middle):
            break
    else:
        return _mid_coordinated(clause, languages)
    for index in range(2, len(words) - 1):
        if (
            "en" in languages
            and words[index] in _MID_EN_AUX
            and words[index + 1] in _MID_EN_SUBJECTS
            and (
                words[index - 1] not in _MID_EN_BLOCK
                or (words[index - 1] == "so" and len(words) > index + 3)
            )
            and not words[index - 1].endswith(("'ll", "'d"))
            and not (words[index] in _MID_EN_DO_HAVE and words[index - 1] in _MID_EN_TO_CAN)
        ):
            return True
        if "en" in languages and (_mid_en_copula(words, index) or _mid_en_wh(words, index)):
            return True
        if any(_mid_modal_wh(words, raw, index, code) for code in languages):
            return True
    return _mid_coordinated(clause, languages)


# Unions the rules above read, made once.
_MID_DE_TAIL_SUBJECTS_WH: Final = _MID_DE_TAIL_SUBJECTS | _DE_WH

_MID_EN_DO_HAVE: Final = _fw("do have")
_MID_EN_TO_CAN: Final = _fw("to can will")
_MID_EL_AND: Final = _fold("και")
