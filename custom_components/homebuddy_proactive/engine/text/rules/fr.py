"""French rules: when a spoken French clause asks a question, and which French requests
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
from .common import _EXCLAMATIVE

_FR_FILLERS: Final = _fillers(
    "alors bon ben bah euh eh donc et mais enfin bref voilà tiens écoute écoutez "
    "bon ok okay hein attends attendez sinon pardon excuse-moi excusez-moi hum "
    "hey so um uh uhm ehm"  # English interjections in mixed-language speech
)
_FR_SUBJECTS: Final = _fw("je j' tu il elle on nous vous ils elles ce c' ça cela ceci")
_FR_VERBS: Final = _fw(
    "est sont était étaient va vont vas allez fait font fais faites faut peut peux peuvent "
    "pouvez pouvons doit dois devons devez a as ont avez avons part pars partent partez "
    "arrive arrivent commence commencent finit finissent ouvre ouvrent ferme ferment coûte "
    "coûtent vaut sais sait savez veut veux voulez vient viennent viens venez dit dis pense "
    "penses pensez crois croit croyez se s' passe reste restent sera seront serait aurait "
    "y faudrait prend prends prenez mange manges habite habites habitez s'appelle"
)
_FR_INVERSION_RE: Final = re.compile(
    r"^[a-z]+(?:-t)?-(?:je|tu|il|elle|on|ils|elles|ce|nous|vous)(?:-[a-z]+)?$"
)
_FR_NOUS_VOUS_VERBS: Final = _fw(
    "pouvez voulez avez êtes allez savez pourriez voudriez devez connaissez pensez croyez "
    "faites avons sommes pouvons devons allons pourrions voulons savons aimez préférez "
    "habitez comprenez parlez souhaitez désirez auriez seriez feriez iriez prenez venez "
    "partez trouvez voyez mangez"
)
_FR_NOT_INVERSION: Final = _fw("rendez-vous peut-être c'est-à-dire")
_FR_WH_ALWAYS: Final = _fw("pourquoi comment combien qui quoi lequel laquelle lesquels lesquelles")
_FR_QUEL: Final = _fw("quel quelle quels quelles")
_FR_REQUEST: Final = _phrases(
    "je voudrais savoir|j'aimerais savoir|je me demandais|on se demandait|"
    "tu pourrais|vous pourriez|tu saurais|vous sauriez|tu aurais|vous auriez|tu veux|"
    "vous voulez|tu voudrais|vous voudriez|ça te dit|ça vous dit|ça te dérange|"
    "ça vous dérange|ça vous ennuie|ça te va|ça vous va|je me demande|on se demande|"
    "y a-t-il|ça te dérangerait|ça vous dérangerait|ça te gênerait|ça vous gênerait|"
    "ça te dirait|ça vous dirait|ça te tente|ça vous tente|ça t'intéresse|"
    "ça vous intéresse"
)
_FR_INVERTIBLE: Final = _fw(
    "pourrais pourrait pourrions pourriez pourraient puis peux peut pouvons pouvez peuvent "
    "dois doit devons devez doivent devrais devrait devrions devriez veux veut voulons "
    "voulez voudrais voudrait voudriez sais sait savons savez as a avons avez ont es est "
    "sommes êtes sont vas va allons vont faut fais fait faisons faites viens vient venez "
    "connais connaissez crois croyez aurais aurait auriez serais serait seriez ferais ferait "
    "feriez prends prenez"
)
_FR_INVERTED_PRONOUNS: Final = _fw("je tu il elle on nous vous ils elles")
_FR_T_PRONOUNS: Final = frozenset({("il",), ("elle",), ("on",)})
_FR_OPINION: Final = _phrases(
    "tu crois|tu penses|vous croyez|vous pensez|tu trouves|vous trouvez|t'es sûr|tu es sûr|"
    "vous êtes sûr|tu es sûre|vous êtes sûre"
)
_FR_REQUEST_BLOCK: Final = _fw("dire")
_FR_CAN: Final = _phrases("tu peux", "vous pouvez", "tu pourrais", "vous pourriez")
# "ce serait possible de fermer la fenêtre" asks; "ce serait possible si …" states a condition.
_FR_POSSIBLE: Final = _phrases("ce serait possible|ça serait possible|ce serait faisable")
_FR_POSSIBLE_FOLLOW: Final = _fw("de d'")
_FR_CLITICS: Final = _fw("me m' nous lui leur le la l' les en y te t'")
_FR_KNOW: Final = _phrases("tu sais", "vous savez", "tu connais", "vous connaissez")
_FR_HAVE: Final = _phrases("tu as", "vous avez", "t'as", "t' as")
_FR_HAVE_FOLLOW: Final = _fw(
    "du de d' des un une l'heure vu entendu fini compris pensé reçu essayé mangé lu faim "
    "soif froid chaud sommeil peur besoin envie mal encore déjà"
)
_FR_TELL: Final = _phrases("dis-moi", "dites-moi", "dis moi", "dites moi", "explique-moi")
_FR_WH_FOLLOW: Final = _fw(
    "si s' où ou quand comment pourquoi qui quoi combien quel quelle quels quelles ce"
)
_FR_TAGS: Final = frozenset({("non",), ("hein",), ("pas", "vrai"), ("n'est-ce", "pas")})
_FR_PREPOSITIONS: Final = _fw("à de pour avec dans chez par depuis jusqu'à vers sur en")
_FR_IN_SITU_BLOCK: Final = _fw(
    "importe sais sait savoir demande demandé dire idée parlé parler discuté discuter"
)
# "qu'est-ce qu'il fait chaud", "qu'est-ce que c'est beau": an exclamation of degree.
_FR_DEGREE_ADJECTIVES: Final = _fw(
    "chaud froid beau belle beaux bon bonne joli jolie gentil gentille cher chère long "
    "longue lent lente dur difficile drôle triste lourd lourde grand grande petit petite "
    "mignon mignonne bien mal fatigant énervant"
)
_FR_DETERMINERS: Final = _fw("le la les l' un une des mon ma mes ton ta tes son sa ses ce cette")
_FR_IMPERFECT_RE: Final = re.compile(r"(?:ais|ait|aient|ions|iez)$")
_FR_PERSONAL: Final = _fw("je j' tu t' il elle on nous vous ils elles")
_FR_PRENOMINAL: Final = _fw(
    "beau belle bel beaux belles joli jolie jolis jolies sacré sacrée drôle"
)
_FR_CLAUSE_SUBJECTS: Final = _fw("je j' tu t' il elle on ils elles")
_FR_CLEFT_VERBS: Final = _fw("est était sera serait")
_FR_IN_SITU_RAW: Final = frozenset({"où", "quand", "comment", "combien", "quoi", "pourquoi", "qui"})
_FR_MID_RAW: Final = frozenset({"où", "quand", "comment"})
_FR_CLAUSE_START: Final = _FR_PERSONAL | _fw("que qu' si s' ce c' ça")
_FR_SUBORDINATORS: Final = _fw("que qu' si s' quand lorsque lorsqu' parce puisque comme")
_FR_KNOW_SOMEONE: Final = _fw("connais connaissez")
_FR_INDEFINITE: Final = _fw("un une des quelqu'un quelque")


def is_question(body: _Body) -> bool:
    """French spoken-question rules."""
    words = body.words
    if not words:
        return False
    start = len(body.clause.words) - len(words)
    if start and body.clause.words[start - 1] == "voila" and words[0] in _FR_WH_FOLLOW:
        return False  # "voilà pourquoi je suis parti"
    for index, word in enumerate(words):
        if "est-ce" in word:
            return not (
                (word == "qu'est-ce" or words[index - 1 : index] == ("qu'",))
                and any(w in _FR_DEGREE_ADJECTIVES for w in words[index + 2 : index + 5])
            )
        if (
            word == "est"
            and words[index + 1 : index + 2] == ("ce",)
            and (index == 0 or words[index - 1] != "c'")
            and words[index + 2 : index + 3] in (("que",), ("qu'",), ("qui",))
        ):
            return True
        if "-" in word and _fr_inversion(word):  # an inversion is hyphenated
            return True
    if (
        len(words) > 1
        and words[0] in _FR_INVERTIBLE
        and (
            words[1] in _FR_INVERTED_PRONOUNS or (words[1] == "t" and words[2:3] in _FR_T_PRONOUNS)
        )
        and not body.answered
    ):
        return True
    if words[0] in _FR_PHRASE_FIRSTS:
        phrased = _fr_phrase_question(words, body)
        if phrased is not None:
            return phrased
    if _fr_in_situ(body):
        return True
    if (
        len(words) > 1
        and words[0] in _FR_PREPOSITIONS
        and (words[1] in _FR_WH_QUEL or body.raw[1] == "où")
    ):
        words = words[1:]
        body = dataclasses.replace(body, words=words, raw=body.raw[1:], orig=body.orig[1:])
    first = words[0]
    rest = words[1:]
    if rest[:1] in (("que",), ("qu'",)) and first in {"quoi", "qui", "ou"}:
        return False
    if words[:2] == ("comment", "dire") or (
        words[:1] == ("comment",) and words[2:3] == ("dire",) and words[1] in _FR_CLITICS
    ):
        return False
    if first in _FR_WH_ALWAYS:
        if (
            first in {"comment", "pourquoi"}
            and rest[:1]
            and rest[0] in _FR_PERSONAL
            and (_fr_second_clause(rest) or _fr_subject_clause(rest))
        ):
            return False  # "comment il a fait, je ne sais pas", "… reste un mystère"
        if first == "combien" and rest[:1] and rest[0] in _FR_SUBJECTS:
            return _fr_how_much_price(rest)  # "combien ça coûte", not "combien je t'aime"
        return True
    if body.raw[0] == "ou" and body.clause.index == 0 and rest and rest[0] in _FR_WHERE_VERBS:
        # "ou est la gare": "où" with its accent dropped, followed by its verb ("ou bien",
        # "ou alors", "ou il est malade" keep "or").
        return not (len(rest) > 1 and rest[1] in _FR_PERSONAL and _fr_second_clause(rest))
    if body.raw[0] == "où":
        if rest and rest[0] in _FR_PERSONAL and _fr_second_clause(rest):
            return False
        return not rest or rest[0] not in {"que", "qu'"}
    if first == "quand":
        if not rest:
            return True
        if rest[0] in _FR_SUBJECTS or _FR_IMPERFECT_RE.search(rest[0]):
            return False
        return rest[0] in _FR_VERBS
    if first in {"que", "qu'"}:
        return bool(rest) and (rest[0].endswith(("er", "ir", "re")) and len(rest[0]) > 3)
    if first in _FR_QUEL:
        if rest and (rest[0] in _EXCLAMATIVE or rest[0] in _FR_PRENOMINAL):
            return False  # "quelle chance on a eu", "quelle belle journée"
        for word in rest[:4]:
            if word in {"que", "qu'"}:
                return False
            if word in _FR_VERBS or word in _FR_SUBJECTS:
                return True
        return False
    return False


def _fr_phrase_question(words: tuple[str, ...], body: _Body) -> bool | None:
    """The verdict of a French question phrase opening ``words`` ("tu peux …", "dis-moi …"),
    or None when none opens them or it decides nothing."""
    opinion = _starts(words, _FR_OPINION)
    if opinion and words[opinion : opinion + 1] in (("que",), ("qu'",)):
        return True
    requested = _starts(words, _FR_REQUEST)
    if requested and not body.answered:
        if (
            words[requested - 1].startswith("demand")
            and len(words) > requested
            and words[requested] not in _FR_WH_FOLLOW_PREPOSITIONS
            and words[requested] not in _FR_WH_ALWAYS
        ):
            return False  # "je me demandais justement la même chose"
        return not (len(words) > requested and words[requested] in _FR_REQUEST_BLOCK)
    possible = _starts(words, _FR_POSSIBLE)
    if possible and not body.answered and words[possible : possible + 1]:
        return words[possible] in _FR_POSSIBLE_FOLLOW
    can = _starts(words, _FR_CAN)
    if can and len(words) > can and not body.answered:
        follow = words[can]
        if words[can : can + 2] == ("compter", "sur"):
            return False  # "tu peux compter sur moi" reassures
        if follow in _FR_CLITICS or (
            follow.endswith(("er", "ir", "re", "oir")) and len(follow) > 3
        ):
            return True  # "tu peux me passer le sel", "tu peux fermer la fenêtre"
    knows = _starts(words, _FR_KNOW)
    if knows and len(words) > knows:
        follow = words[knows]
        if follow in _FR_WH_FOLLOW:
            return True
        if (
            follow in _FR_PREPOSITIONS
            and words[knows + 1 : knows + 2]
            and (words[knows + 1] in _FR_WH_FOLLOW)
        ):
            return True
        if words[knows - 1] in _FR_KNOW_SOMEONE and follow in _FR_INDEFINITE:
            return True
    has = _starts(words, _FR_HAVE)
    if has and len(words) > has and not body.answered:
        follow = words[has]
        if follow in _FR_HAVE_FOLLOW or (follow == "l'" and words[has + 1 : has + 2] == ("heure",)):
            return True
    told = _starts(words, _FR_TELL)
    if told and len(words) > told and words[told] in _FR_WH_FOLLOW:
        return True
    return None


def _fr_in_situ(body: _Body) -> bool:
    """Return True for a French question word left at the end ("on part quand", "c'est qui")."""
    words, raw = body.words, body.raw
    if len(words) < 2:
        return False
    last = raw[-1]
    before = words[-2]
    if before in _FR_IN_SITU_BLOCK or (len(words) > 2 and words[-3] in _FR_IN_SITU_BLOCK):
        return False
    if last in {"quoi", "combien", "où", "quand", "comment", "pourquoi"}:
        return True
    for index in range(1, len(words) - 1):
        if words[index] in {"quoi", "combien"} and _FR_IN_SITU_BLOCK.isdisjoint(
            words[max(0, index - 2) : index]
        ):
            return True
    if last == "qui" and before in {"est", "c'est", "avec", "pour", "à", "chez", "de"}:
        return True
    if _fr_cleft_question(words, raw) or _fr_verb_then_wh(words, raw):
        return True
    if "comment" in raw[1:-1] and any(
        raw[index] == "comment" and words[index + 1] == "pour" for index in range(1, len(words) - 1)
    ):
        return True  # "on fait comment pour y aller"
    return not _FR_QUEL.isdisjoint(words[1:-1]) and any(
        word in _FR_QUEL
        and words[index - 1] in _FR_PREPOSITIONS
        and not set(words[max(0, index - 4) : index]) & _FR_IN_SITU_BLOCK
        for index, word in enumerate(words[1:-1], start=1)
    )


_FR_WHERE_VERBS: Final = _fw(
    "est sont se va vont vas allez as avez habite habites habitez était sera mets met "
    "trouve trouves passe part pars partez"
)
_FR_PRICE_SUBJECTS: Final = _fw("ça ca cela")
_FR_RESULT_VERBS: Final = _fw("reste restera demeure est était sera m'échappe échappe")


def _fr_how_much_price(rest: Sequence[str]) -> bool:
    """Return True for "combien ça coûte"/"combien c'est" rather than "combien je t'aime"."""
    if rest[0] in _FR_PRICE_SUBJECTS:
        return True
    return rest[:2] == ("c'", "est") and (len(rest) == 2 or rest[2] in _FR_PRICE_FOLLOW)


_FR_PRICE_FOLLOW: Final = _fw(
    "le la les l' un une pour ce ces ton ta tes mon ma mes votre vos son sa ses"
)


def _fr_subject_clause(rest: Sequence[str]) -> bool:
    """Return True for "comment il a réussi reste un mystère": the clause is a subject.

    After the pronoun, its verb and what follows it, a second finite verb of being or
    remaining ("reste", "est") preceded by a content word shows a main clause.
    """
    for index in range(3, len(rest)):
        before = rest[index - 1]
        if (
            rest[index] in _FR_RESULT_VERBS
            and before not in _FR_SUBJECTS
            and before not in _FR_CLITICS
            and before not in _FR_SUBORDINATORS
            and before not in _FR_WH_FOLLOW
            and before not in {"ne", "n'", "pas", "qui"}
        ):
            return True
    return False


def _fr_second_clause(rest: Sequence[str]) -> bool:
    """Return True when a second subject starts a main clause ("où il y a X il n'y a pas Y")."""
    return any(
        rest[index] in _FR_CLAUSE_SUBJECTS and rest[index - 1] not in _FR_SUBORDINATORS
        for index in range(2, len(rest))
    )


def _fr_cleft_question(words: Sequence[str], raw: Sequence[str]) -> bool:
    """Return True for "c'est quand/où/qui/combien … X" ("c'est quand l'anniversaire de Léa").

    A subject pronoun after the question word makes a cleft or free relative instead ("c'est
    quand tu veux", "c'est pourquoi je suis venu"), and "c'est quand même" is an adverb.
    """
    for index in range(1, min(len(words) - 1, 6)):
        if words[index] not in _FR_CLEFT_VERBS or words[index - 1] not in {"c'", "ce"}:
            continue
        after = words[index + 2 :]
        if raw[index + 1] not in _FR_IN_SITU_RAW and words[index + 1] not in _FR_QUEL:
            return False
        if raw[index + 1] == "quand" and after[:1] == ("meme",):
            return False
        return not (after and after[0] in _FR_PERSONAL)
    return False


def _fr_verb_then_wh(words: Sequence[str], raw: Sequence[str]) -> bool:
    """Return True for "pronoun verb wh …" in situ ("tu prends quel train demain").

    The question word must not open a clause of its own: no subject, finite verb or "que"
    after it ("on se voit quand le film est fini", "je travaille où je veux").
    """
    if words[0] not in _FR_PERSONAL or words[0] in {"c'"}:
        return False
    for index in range(1, min(len(words) - 1, 6)):
        word = words[index]
        if (word in _FR_CLAUSE_START and index > 1) or word in _FR_IN_SITU_BLOCK:
            return False
        if raw[index] not in _FR_MID_RAW and word not in _FR_QUEL:
            continue
        if index == 1:
            return False
        after = words[index + 2 :] if word in _FR_QUEL else words[index + 1 :]
        if raw[index] == "quand" and words[index + 1 : index + 2] == ("meme",):
            return False
        if raw[index] == "quand" and len(after) > 2 and after[0] in _FR_DETERMINERS:
            return False  # "je t'appellerai quand le taxi arrivera"
        return not any(
            w in _FR_PERSONAL or w in _FR_VERBS or w in _FR_INVERTIBLE or w in {"que", "qu'"}
            for w in after
        )
    return False


def _fr_inversion(word: str) -> bool:
    """Return True for a French hyphenated subject inversion ("vient-il", "pourrais-je")."""
    if word in _FR_NOT_INVERSION or not _FR_INVERSION_RE.match(word):
        return False
    parts = word.split("-")
    pronoun = parts[-1] if parts[-1] not in {"en", "y", "le", "la", "les"} else parts[-2]
    if pronoun in {"nous", "vous"}:
        return parts[0] in _FR_NOUS_VOUS_VERBS
    return pronoun in {"je", "tu", "il", "elle", "on", "ils", "elles", "ce"}


_FR_CAN_YOU: Final = (
    r"(?:(?:tu\s+peux|peux[\s-]*tu|tu\s+pourrais|pourrais[\s-]*tu|vous\s+pouvez|"
    r"pouvez[\s-]*vous|vous\s+pourriez|pourriez[\s-]*vous)\s+)?"
)
_FR_THAT: Final = r"(?:de\s+|d'\s*|que\s+|qu'\s*)?"


CAPTURE_RULES: Final[tuple[_CaptureRule, ...]] = (
    _rule(
        KIND_REMINDER,
        _FR_CAN_YOU + r"(?:me\s+rappeler|rappelle[sz]?[\s-]*moi|rappelez[\s-]*moi)\s+"
        r"(?P<t>(?:demain|ce\s+soir|cet?\s+\w+|lundi|mardi|mercredi|jeudi|vendredi|samedi|"
        r"dimanche|à\s+\d+\s*h\s*\d*|dans\s+\w+\s+\w+)(?:\s+(?:matin|soir|midi))?)\s*,?\s+"
        r"(?:de\s+|d'\s*|que\s+|qu'\s*)(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        _FR_CAN_YOU + r"(?:me\s+rappeler|rappelle[sz]?[\s-]*moi|rappelez[\s-]*moi|"
        r"fais[\s-]*moi\s+penser|faites[\s-]*moi\s+penser|fais[\s-]*moi\s+souvenir)\s*"
        r"(?:de\s+|d'\s*|que\s+|qu'\s*|à\s+|au\s+|aux\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        r"(?:n'?\s*)?(?:oublie|oubliez)\s+pas\s+de\s+me\s+rappeler\s*" + _FR_THAT + r"(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:il\s+)?(?:ne\s+)?faut\s+(?:surtout\s+)?pas\s+que\s+j'?\s*oublie\s*"
        + _FR_THAT
        + r"(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"je\s+(?:ne\s+)?dois\s+(?:surtout\s+)?pas\s+oublier\s*" + _FR_THAT + r"(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:il\s+)?faut\s+que\s+je\s+pense\s+(?:à|au|aux)\s+(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"je\s+dois\s+penser\s+(?:à|au|aux)\s+(?P<c>.+)"),
    _rule(KIND_REMINDER, r"(?:pense|pensez)\s+(?:bien\s+)?à\s+(?P<c>\w+(?:er|ir|re)\b.+)"),
    _rule(
        KIND_REMINDER,
        r"(?:n'?\s*)?(?:oublie|oubliez)\s+pas\s+"
        r"(?P<c>(?:le|la|les|l'|ton|ta|tes|tes|votre|vos|mon|ma|mes)\s*\w.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:n'?\s*)?(?:oublie|oubliez)\s+pas\s*(?:de\s+|d'\s*|que\s+|qu'\s*)(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        _FR_CAN_YOU + r"(?:mets|mettez|mettre|ajoute|ajoutez|ajouter|crée|créez|créer|"
        r"programme|programmez)[\s-]*(?:moi\s+)?(?:un\s+)?rappel\s*"
        r"(?:pour\s+|de\s+|d'\s*|que\s+|qu'\s*)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        _FR_CAN_YOU + r"(?:ajoute|ajoutez|ajouter|rajoute|rajoutez|mets|mettez|mettre|note|"
        r"notez)\s+(?P<c>.+?)\s+(?:à|a|sur|dans)\s+(?:ma|la|notre|mes|les)\s+"
        r"(?P<l>liste(?:\s+(?:de|des|d'|à)\s*[\w'-]+(?:\s+[\w'-]+){0,2})?)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:il\s+)?(?:faut|faudra|faudrait)\s+(?:absolument\s+|vraiment\s+|surtout\s+|"
        r"aussi\s+)?(?:que|qu')\s*(?P<c>(?:je\s+|j'\s*|on\s+|nous\s+).+)",
        task=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:je|on|nous)\s+(?:dois|doit|devons|devrai|devra|devrons|vais\s+devoir|va\s+devoir|"
        r"allons\s+devoir)\s+(?:absolument\s+|vraiment\s+|encore\s+|aussi\s+|"
        r"d'abord\s+)?(?P<c>.+)",
        task=True,
    ),
    _rule(
        KIND_TASK,
        r"j'ai\s+besoin\s+(?:de\s+|d'\s*)(?P<c>\w+(?:er|ir|re)\b.*)",
        task=True,
    ),
)

FILLERS: Final = _FR_FILLERS
TAGS: Final = _FR_TAGS


# Unions the rules above read, made once.
_FR_WH_FOLLOW_PREPOSITIONS: Final = _FR_WH_FOLLOW | _FR_PREPOSITIONS
_FR_WH_QUEL: Final = _FR_WH_ALWAYS | _FR_QUEL
# The first words of every phrase _fr_phrase_question reads: any other opens none of them.
_FR_PHRASE_FIRSTS: Final = frozenset().union(
    *(
        phrases.firsts
        for phrases in (
            _FR_OPINION,
            _FR_REQUEST,
            _FR_POSSIBLE,
            _FR_CAN,
            _FR_KNOW,
            _FR_HAVE,
            _FR_TELL,
        )
    )
)
