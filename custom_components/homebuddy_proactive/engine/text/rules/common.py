"""Question rules several languages share: "… or not", "and you?", rhetorical and exclamative
forms, proverbs with a free relative ("who laughs last laughs best"), feasibility conditions
and requests with a first-person object.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from ..normalize import folded_words as _fw
from ..segment import _ends_with, _phrases, _starts
from .en import _EN_AUX_ALL

_OR_NOT: Final = _phrases(
    "or not", "ou pas", "ou non", "o no", "oder nicht", "o no", "ou não", "ή όχι", "η όχι"
)
_OR_NOT_BLOCKERS: Final = _fw("whether if que si ob se αν όπως")
_AND_YOU: Final = _phrases(
    "and you|and yourself|what about you|how about you|et toi|et vous|y tú|y usted|und du|"
    "und sie|und dir|e tu|e lei|e você|e voce|κι εσύ|και εσύ|κι εσείς|και εσείς"
)
_AND_YOU_LEADS: Final = _fw(
    "fine good well ok okay great alright bien gut bene bem καλά καλα tudo bom ça va bien"
)


def _generic_question(words: Sequence[str]) -> bool:
    """Language-independent spoken patterns: "… or not", "fine, and you"."""
    if _ends_with(words, _OR_NOT) and not (set(words) & _OR_NOT_BLOCKERS):
        return True
    if not words or words[-1] not in _AND_YOU.lasts:
        return False
    for phrase in _AND_YOU:
        if len(words) >= len(phrase) and tuple(words[-len(phrase) :]) == phrase:
            rest = words[: -len(phrase)]
            if not rest or rest[-1] in _AND_YOU_LEADS:
                return True
    return False


# Rhetorical "who knows" forms: a statement when alone or followed by a hedge ("who knows,
# maybe tomorrow"), a question when followed by what is asked ("who knows the way").
_RHETORICAL: Final = _phrases(
    "who knows|who cares|who the hell knows|qui sait|qui s'en soucie|on s'en fiche|"
    "quién sabe|quien sabe|a quién le importa|chi lo sa|chissà|chi se ne frega|quem sabe|"
    "wer weiß|was weiß ich|weiß der geier|ποιος ξέρει|ποιος νοιάζεται|πού να ξέρω|"
    "why not|pourquoi pas|por qué no|porque no|perché no|warum nicht|por que não|porque não|"
    "γιατί όχι"
)
_RHETORICAL_TAIL: Final = _fw(
    "maybe perhaps anyway anyways really probably honestly though lol tomorrow today later "
    "i you we they he she it peut-être demain aujourd'hui bref je tu on il elle nous vous "
    "quizás quizá tal talvez mañana hoy yo él ella forse domani oggi magari io lui lei "
    "vielleicht morgen heute ich du er sie wir talvez amanhã hoje eu ele ela você ίσως αύριο "
    "σήμερα"
)
# Evaluative nouns and adjectives: "what/how + one of these" exclaims ("qué suerte tuvimos",
# "quelle chance", "quanto sei bella") where "qué hora es" or "quanto sei alto" asks.
_EXCLAMATIVE: Final = _fw(
    "chance dommage surprise horreur joie plaisir honte bonheur galère merveille bêtise "
    "suerte calor frío pena lástima bonito bonita lindo linda rico rica guapo guapa bien mal "
    "asco miedo vergüenza alegría susto rollo pasada maravilla precioso preciosa "
    "tontería barbaridad buen buena buenos buenas gran mala malo "
    "bello bella belli belle bravo brava bravi carino carina gentile gentili fortuna peccato "
    "schifo vergogna sorpresa gioia figata meraviglia fortunato fortunata "
    "bom boa bonitos bonitas sorte medo vergonha alegria maravilha chato chata giro gira "
    "schön schöne schade toll super nett lieb"
)
# Free relatives in proverbs ("who laughs last laughs best", "chi dorme non piglia pesci"):
# the clause after the question word is followed by a second verb, which shows as a repeated
# word or as a negation that follows the first verb.
_PROVERB_WH: Final = _fw(
    "who what where when how qui quoi où quand comment quien quién que qué donde dónde "
    "cuando como wer was wo wann wie chi che dove quando come quem onde"
)
_PROVERB_WHO: Final = _fw("chi quem qui quien")
_PROVERB_NEGATIONS: Final = _fw("non não nao no ne n'")
_PROVERB_BREAKS: Final = _fw(
    "che que qu' se si e et y o ou di de a à per pour para por perché porque parce car "
    "quando cuando quand mais ma mas pero and or that if to"
)
_PROVERB_CLITICS: Final = _fw("se s' si ci mi ti me te m' t'")
_PROVERB_LIGHT_VERBS: Final = _fw(
    "vuole può deve ha hanno è sa fa va viene vuoi puoi quiere puede debe tiene tienen es "
    "está ha va sabe hace viene quer pode deve tem é está vai sabe faz vem veut peut doit a "
    "est va sait fait vient"
)
_PROVERB_ADVERBS: Final = _fw(
    "stasera ora ancora sempre prima dopo insieme bene male forse oggi domani adesso qui qua "
    "fuori dentro sopra sotto subito spesso presto tardi domenica hoje agora sempre cedo tarde "
    "fora ainda antes depois logo bem mal amanhã aqui ali primeiro hoy ahora siempre pronto "
    "fuera antes después luego bien mal mañana aquí allí nunca primero demain maintenant "
    "toujours encore bien mal ici souvent tard tôt ensemble aussi avant après dehors "
    "premier première ce"
)
_PROVERB_COORDINATORS: Final = _fw("and or but e et y und o ou ma mais mas pero oder aber")
_PROVERB_SKIP: Final = _fw(
    "the a an to of in on at for and or is are was were it you i we they he she do does did "
    "have has had can will would could should le la les l' un une de des du à et est en y "
    "el los las una con que por para es il lo gli i di da e che per o os as um uma do da em "
    "com der die das den dem ein eine und zu ist es ich du sie er wir that this these those "
    "my your me him her us them ce cette ça questo questa esto esta isso isto"
)


_ALWAYS_RHETORICAL: Final = _phrases(
    "who cares|who says|on s'en fiche|a quién le importa|chi se ne frega|ποιος νοιάζεται|"
    "who'd have thought|who would have thought|was soll's|was solls|"
    "wen interessiert's|quem me dera|quem dera"
)


# "quanto prima, meglio è", "quanto mais cedo melhor": a comparative correlative.
_CORRELATIVE_HEADS: Final = _fw("quanto quanta quanti quante cuanto cuanta cuantos cuantas")
_CORRELATIVE_DEGREE: Final = _fw("prima più meno mais menos antes más")
_CORRELATIVE_RESULT: Final = _fw("meglio peggio melhor pior mejor peor tanto tanta tanti")
# "onde quer que vás", "donde quiera que vayas", "comunque sia": concessive free relatives.
_CONCESSIVE: Final = frozenset({("quer", "que"), ("quiera", "que"), ("quieras", "que")})
# "que te vaya bien", "que aproveche", "que tengas suerte": wishes in the subjunctive.
_OPTATIVE_VERBS: Final = _fw(
    "vaya vayas vayan aproveche aprovechen mejores mejore diviertas divierta diviertan "
    "descanses descanse sea seas seja sejas corra aproveite aproveitem melhores "
    "tengas tenga tenhas tenha divirtas divirta"
)
_REPEAT_HEADS: Final = _PROVERB_WH | _fw("o lo ce ciò")


# "cuánto me alegro de verte", "cómo me gusta", "quanto mi fa piacere", "πόσο χαίρομαι":
# a degree word followed by a first-person verb of feeling exclaims.
_FEELING_HEADS: Final = _fw("cuanto cuánto como cómo quanto come πόσο πως πώς")
_FEELING_FIRST: Final = _fw("me mi μου με")
_FEELING_STEMS: Final = (
    "alegr",
    "gust",
    "encant",
    "fascin",
    "piac",
    "fa piac",
    "χαιρ",
    "αρεσ",
    "λειπ",
    "χαρηκ",
)
_FEELING_FIRST_PERSON: Final = ("χαιρομαι", "χαρηκα", "alegro", "adoro", "adoro")
_FEELING_FIRST_PERSON_TAIL: Final = frozenset((word,) for word in _FEELING_FIRST_PERSON)


def _feeling_exclamative(words: Sequence[str]) -> bool:
    """Return True for "how much + I + verb of feeling" exclamations."""
    if len(words) < 2 or words[0] not in _FEELING_HEADS:
        return False
    if words[1] in _FEELING_FIRST_PERSON:
        return True
    if words[1] not in _FEELING_FIRST:
        return False
    tail = " ".join(words[2:4])
    return tail.startswith(_FEELING_STEMS) or words[2:3] in _FEELING_FIRST_PERSON_TAIL


# "πόσο θα ήθελα να ήσουν εδώ", "quanto vorrei essere al mare", "wie gern wäre ich am Meer":
# a degree word followed by a first-person wish exclaims ("πόσο θα ήθελες" still asks).
_WISH_HEADS: Final = _fw("πόσο quanto cuánto wie")
_WISH_SKIP: Final = _fw("θα πολύ io yo gern gerne")
_WISH_VERBS: Final = _fw(
    "ήθελα θέλαμε vorrei vorremmo quisiera quisiéramos wäre wären hätte hätten würde"
)


def _wish_exclamative(words: Sequence[str]) -> bool:
    """Return True for "how much + I + would like" exclamations."""
    if len(words) < 3 or words[0] not in _WISH_HEADS:
        return False
    if words[0] == "wie" and words[1] not in _WISH_SKIP:
        return False  # "wie wäre es mit einem Kaffee" asks
    index = 1
    while index < min(len(words), 3) and words[index] in _WISH_SKIP:
        index += 1
    return index < len(words) and words[index] in _WISH_VERBS


# "sería posible si tuviéramos tiempo", "seria possível se …": a condition, not a request.
_POSSIBLE_WORDS: Final = _fw("posible possibile possível δυνατόν δυνατό")
_CONDITION_WORDS: Final = _fw("si se αν")


def _possible_if(words: Sequence[str], feasible: int) -> bool:
    """Return True when a feasibility phrase ending in "possible" is followed by "if"."""
    return (
        words[feasible - 1] in _POSSIBLE_WORDS
        and len(words) > feasible
        and words[feasible] in _CONDITION_WORDS
    )


@functools.lru_cache(maxsize=1024)
def _statement_form(words: tuple[str, ...], raw: tuple[str, ...]) -> bool:
    """Return True for rhetorical questions and proverbs that only look like questions.

    Cached: a clause is read by the rules of each of its candidate languages.
    """
    if _feeling_exclamative(words) or _wish_exclamative(words):
        return True
    if (
        len(words) > 2
        and words[0] in _CORRELATIVE_HEADS
        and words[1] in _CORRELATIVE_DEGREE
        and set(words[2:]) & _CORRELATIVE_RESULT
    ):
        return True
    if len(words) > 3 and words[0] in _PROVERB_WH and tuple(words[1:3]) in _CONCESSIVE:
        return True
    if words[0] == "que" and len(words) > 1:
        verb = words[2] if words[1] in _PROVERB_CLITICS and len(words) > 2 else words[1]
        if verb in _OPTATIVE_VERBS:
            return True
    if words[0] in _REPEAT_HEADS and any(
        words[index] == words[index - 1]
        and len(words[index]) > 3
        and words[index] not in _PROVERB_SKIP
        and words[index] not in _PROVERB_WH
        for index in range(2, len(words))
    ):
        return True  # "o que passou passou", "lo hecho hecho está"
    rhetorical = _starts(words, _RHETORICAL)
    if rhetorical and (len(words) == rhetorical or words[rhetorical] in _RHETORICAL_TAIL):
        return True
    if _starts(words, _ALWAYS_RHETORICAL) and words[2:3] != ("for",):
        return True
    if _two_verb_proverb(words, raw) or _verb_between_objects(words):
        return True
    if len(words) < 4 or words[0] not in _PROVERB_WH:
        return False
    for index in range(1, min(4, len(words) - 2)):
        word = words[index]
        if word in _PROVERB_SKIP or word in _PROVERB_WH or word in _EN_AUX_ALL:
            continue
        for later in range(index + 2, len(words)):
            before = words[later - 1]
            if words[later] == word and before not in _PROVERB_WH_COORDINATORS:
                return True
    if words[0] in _PROVERB_WHO:
        for index in range(2, len(words) - 1):
            if words[index] in _PROVERB_BREAKS:
                return False
            if words[index] in _PROVERB_NEGATIONS:
                return True
    return False


# Requests to the listener with a first-person object: "me prestas tu cargador", "mi presti
# il caricatore", "emprestas-me o carregador". Verbs of feeling ("me gustas", "mi manchi") and
# causatives with an infinitive ("me haces reír") state rather than ask.
_CLITIC_REQUEST_OBJECTS: Final = _fw("me mi nos ci")
_CLITIC_REQUEST_BLOCK: Final = (
    "gust",
    "encant",
    "alegr",
    "piac",
    "manc",
    "falt",
    "cae",
    "sembr",
    "parec",
)


def _clitic_request(words: Sequence[str]) -> bool:
    """Return True for "me/mi + second-person verb + object" and "verb-s-me + object"."""
    if len(words) < 3:
        return False
    first, verb = words[0], words[1]
    if "-" in first:
        verb, _, clitic = first.partition("-")
        if clitic not in {"me", "nos"} or not verb.endswith("s"):
            return False
        following = words[1]
    elif first in _CLITIC_REQUEST_OBJECTS:
        if not verb.endswith(("as", "es", "i")) or len(verb) < 4:
            return False
        following = words[2]
    else:
        return False
    if verb.startswith(_CLITIC_REQUEST_BLOCK) or verb.endswith("ei"):
        return False
    return not following.endswith(("ar", "er", "ir", "are", "ere", "ire"))


_PROVERB_ARTICLES: Final = _fw("le la les l' un une il lo gli i uno o os as um uma el los las")
_PROVERB_LINKS: Final = _PROVERB_BREAKS | _fw(
    "du des au aux avec sans sur dans chez con su tra fra del della dei al alla dal nel "
    "do da dos das ao no na em com sem del al sin en"
)


def _verb_between_objects(words: Sequence[str]) -> bool:
    """Return True for "who + verb + the X + verb + the Y" ("qui sème le vent récolte la tempête").

    A word between two article-led noun phrases that is neither a preposition, a conjunction
    nor a determiner is a second finite verb: the "who" clause is the subject of a proverb.
    """
    if len(words) < 6 or words[0] not in _PROVERB_WHO:
        return False
    start = 3 if words[2] in _PROVERB_LINKS else 2  # "chi va con lo zoppo impara …"
    if words[start] not in _PROVERB_ARTICLES or len(words) < start + 4:
        return False
    verb, after = words[start + 2], words[start + 3 : start + 5]
    if verb in _PROVERB_LINKS or verb in _PROVERB_ADVERBS or verb in _PROVERB_ARTICLES:
        return False
    if not (verb[-1:] in {"a", "e", "t", "d"} and len(verb) > 3):
        return False
    if after[0] in _PROVERB_ARTICLES:
        return True
    infinitive = ("are", "ere", "ire", "er", "ir", "re", "ar")
    return after[0] in {"a", "à", "di", "de"} and len(after) > 1 and after[1].endswith(infinitive)


# Adverbs that can stand between the two verbs of a proverb ("quem espera sempre alcança").
_PROVERB_FREQUENCY: Final = _fw("sempre siempre toujours always jamais nunca mai")


def _two_verb_proverb(words: Sequence[str], raw: Sequence[str]) -> bool:
    """Return True for "who + verb + verb" proverbs ("chi cerca trova", "qui dort dîne").

    A "who" question has one finite verb; a third word that is neither an adverb, an
    infinitive, a participle nor an accented noun ("café") is a second finite verb.
    """
    if len(words) > 3 and words[0] in _PROVERB_WHO:
        kept = [
            (w, r)
            for index, (w, r) in enumerate(zip(words, raw, strict=True))
            if w not in _PROVERB_CLITICS and not (index == 2 and w in _PROVERB_FREQUENCY)
        ]
        words, raw = [w for w, _ in kept], [r for _, r in kept]
    if len(words) != 3 or words[0] not in _PROVERB_WHO or words[1] in _PROVERB_LIGHT_VERBS:
        return False
    second = words[2]
    if second in _PROVERB_ADVERBS or len(second) < 4 or raw[2][-1:] in {"é", "è", "à", "á", "ì"}:
        return False
    if second.endswith(("are", "ere", "ire", "ar", "er", "ir", "re", "ato", "ito", "uto", "ado")):
        return False
    if second.endswith(("ido", "mente", "s", "o", "i")):
        return False
    return words[1][-1:] in {"a", "e", "t", "d"} and words[1] not in _PROVERB_ADVERBS


# Unions the rules above read, made once.
_PROVERB_WH_COORDINATORS: Final = _PROVERB_WH | _PROVERB_COORDINATORS
