"""Local, deterministic language rules: language, questions, reminders, cues and hints.

Everything here is a pure function over text, with no model call and no I/O. The rules are
general grammar rules (question words followed by question structure, auxiliary inversion,
verb-first questions, feasibility forms, request verbs) for English, Greek, French, Spanish,
German, Italian and Portuguese rather than lists of example sentences. Text is compared in a
"folded" form (case-folded, diacritics removed, typographic apostrophes unified), except where
an accent carries grammar (French "où"/"ou", Spanish "cuándo"/"cuando", Greek "πού"/"που").
"""

from __future__ import annotations

import dataclasses
import functools
import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Final

from ..const import (
    INTENT_CORRECTION,
    INTENT_DECISION,
    INTENT_DEFINITION,
    INTENT_FACT_CHECK,
    INTENT_REMINDER,
    INTENT_TASK,
    INTENT_WARNING,
)
from ..proactive.cards import shape_card
from .languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES
from .normalize import compile_folded as _compile
from .normalize import fold as _fold
from .normalize import fold_aligned as _fold_aligned
from .normalize import folded_set as _fs
from .normalize import folded_words as _fw
from .normalize import unify_typography as _unify

KIND_REMINDER: Final = INTENT_REMINDER
KIND_TASK: Final = INTENT_TASK


@dataclass(frozen=True, slots=True)
class CapturedMemory:
    """A reminder or task captured from an utterance, ready to be stored and shown."""

    kind: str  # "reminder" | "task"
    content: str
    language: str


def _base_code(code: str | None) -> str | None:
    """Return the base language code of a hint such as "fr-FR" or "EL", or None."""
    if not code:
        return None
    base = re.split(r"[-_\s.]", code.strip().lower(), maxsplit=1)[0]
    return base if base.isalpha() and 2 <= len(base) <= 3 else None


_GREEK_RE: Final = re.compile(r"[\u0370-\u03ff\u1f00-\u1fff]")
_LETTER_RE: Final = re.compile(r"[^\W\d_]")
_WORD_RE: Final = re.compile(r"[^\W_]+(?:['\-][^\W_]+)*")


def _has_letters(text: str) -> bool:
    """Return True when ``text`` contains at least one letter."""
    return bool(_LETTER_RE.search(text))


def _words(text: str) -> list[str]:
    """Return the folded words of ``text``."""
    return _WORD_RE.findall(_fold(text))


# ---------------------------------------------------------------------------------------------
# Language detection
# ---------------------------------------------------------------------------------------------

_LEXICON: Final[dict[str, frozenset[str]]] = {
    "en": _fw(
        "the and is are was were you i to of it that this with have has for not be we they "
        "my your can do does did what where when why who how would could should will there "
        "here about just me an at if so but or don't dont it's im i'm what's whats want need "
        "please thanks yes yeah okay know think going remind he she his her them our"
    ),
    "fr": _fw(
        "le la les des du de un une est et je tu il elle nous vous ils elles pas ne que qui "
        "ce c'est avec pour dans sur mais où au aux très moi toi on ça quoi comment pourquoi "
        "quand oui non merci bonjour j'ai suis es sont faut peux veux combien quel quelle me te se "
        "est-ce qu'est-ce alors bon euh voilà d'accord rappelle-moi aussi être avoir mon ton "
        "ses mes tes leur votre notre vu as ai avez fait été déjà ici chez je ne n'est "
        "qu'il qu'on j'étais peut vais vas va fais font faire dire rien tout tous toujours "
        "encore beaucoup trop peu maintenant demain hier aujourd'hui soir matin puis-je "
        "pouvez savez voulez êtes sommes"
    ),
    "es": _fw(
        "el la los las un una es y que de en no por para con está estoy yo tú usted muy "
        "pero qué cómo dónde cuándo porque hay del al lo se mi sí gracias hola puedo puedes "
        "podría quiero tengo necesito cuánto cuál quién pues bueno vale también ahora esto me te "
        "era estaba hasta donde cuando como ayer mañana hoy has ha he hemos han visto mis tus "
        "sus tienes tiene quieres quiere puede más soy eres estás están estamos hace hacer voy vas "
        "vamos siempre nunca nada todo algo aquí allí después luego verdad sigue llueve tiempo "
        "suerte pena bonito bonita nos les ese esa eso"
    ),
    "de": _fw(
        "der die das und ist ich du nicht ein eine mit auf für zu den dem es sie wir ihr "
        "wie was wo wann warum kann können könnte bitte danke ja nein auch noch aber oder "
        "sehr haben habe bin sind gibt weißt muss mich mir dir wer welche also heute wenn "
        "kommt gehen schon mal doch bist hast hat kannst willst möchtest kommst fährt morgen "
        "hier dieses diese dieser bedeutet magst regnet gibt's gibts"
    ),
    "it": _fw(
        "il lo la gli le un una è e di che non per con sono sei io tu lui lei noi voi ma "
        "molto come dove quando perché cosa chi grazie ciao questo quello anche della del "
        "nel alla posso potrei puoi vorrei devo ho hai quanto quale sì allora ricordami me te si "
        "mi ti ci ero era sempre oggi domani ieri vuoi cosa ne pensi possiamo c'è dove ha "
        "visto più già così però può qui qua sta stai fa fai vai va tutto tutti niente nulla "
        "ancora adesso stasera poi prego scusa fatto stato andato sia gli dei degli delle "
        "nella sulla dalla questa quella potresti sai da quanti quante anni tuo tuoi nostro "
        "avete dispiace dispiacerebbe"
    ),
    "pt": _fw(
        "o a os as um uma é e de do da dos das que não para com em no na eu você ele ela "
        "nós muito como onde quando porque obrigado obrigada isso esse essa está estou são "
        "tem mas posso poderia pode preciso tenho quanto qual quem sim então também lembra me te "
        "se eu era tinha você vocês hoje amanhã ontem vai fica visto tens queres quer vou "
        "vamos estás és sou isto aqui agora já ainda depois tudo nada bom boa dia noite "
        "sempre podes fazer lá só até às ao aos pelo pela num numa meu minha teu tua por "
        "melhor pior"
    ),
}
_WORD_WEIGHT: Final[dict[str, dict[str, float]]] = {}
for _lang, _vocabulary in _LEXICON.items():
    for _word in _vocabulary:
        _owners = [code for code, vocab in _LEXICON.items() if _word in vocab]
        _WORD_WEIGHT.setdefault(_word, {})[_lang] = 1.0 / len(_owners)

# Accented spellings that identify a language where the folded word is shared ("qué").
_RAW_WORD_HINTS: Final[dict[str, dict[str, float]]] = {
    "qué": {"es": 1.0},
    "é": {"pt": 1.5},
    "è": {"it": 1.5},
    "à": {"fr": 0.7, "pt": 0.3},
    "às": {"pt": 1.0},
    "más": {"es": 1.0},
    "sí": {"es": 0.7},
    "sì": {"it": 1.0},
    "té": {"es": 0.5},
    "chá": {"pt": 1.0},
    "há": {"pt": 1.5},
}
_CHAR_HINTS: Final[dict[str, dict[str, float]]] = {
    "ñ": {"es": 3.0},
    "¿": {"es": 3.0},
    "¡": {"es": 3.0},
    "ß": {"de": 3.0},
    "ä": {"de": 1.5},
    "ö": {"de": 1.5},
    "ü": {"de": 1.0},
    "ã": {"pt": 3.0},
    "õ": {"pt": 3.0},
    "ç": {"fr": 1.0, "pt": 1.0},
    "œ": {"fr": 3.0},
    "è": {"fr": 0.7, "it": 0.7},
    "ù": {"fr": 1.0, "it": 0.5},
    "ì": {"it": 2.0},
    "ò": {"it": 2.0},
    "ê": {"fr": 1.0, "pt": 0.8},
    "â": {"fr": 1.0, "pt": 0.8},
    "ô": {"fr": 1.0, "pt": 0.8},
    "î": {"fr": 1.5},
    "û": {"fr": 1.5},
    "ë": {"fr": 1.0},
    "ï": {"fr": 1.0},
    "á": {"es": 0.7, "pt": 0.7},
    "í": {"es": 0.7, "pt": 0.5},
    "ó": {"es": 0.7, "pt": 0.5},
    "ú": {"es": 0.7, "pt": 0.5},
    "é": {"fr": 0.4, "es": 0.2, "pt": 0.2},
}
_SUFFIX_HINTS: Final[tuple[tuple[str, str, float], ...]] = (
    ("ción", "es", 1.5),
    ("ção", "pt", 2.0),
    ("ções", "pt", 2.0),
    ("zione", "it", 1.5),
    ("zioni", "it", 1.5),
    ("ung", "de", 1.0),
    ("lich", "de", 1.0),
    ("eux", "fr", 1.0),
    ("eau", "fr", 1.0),
    ("mente", "es", 0.3),
    ("ing", "en", 0.5),
    ("evo", "it", 1.0),
    ("avo", "it", 0.7),
    ("ava", "pt", 0.4),
    ("ndo", "es", 0.2),
    ("ão", "pt", 2.0),
    ("ões", "pt", 2.0),
    ("tion", "en", 0.3),
    ("iamo", "it", 1.5),
    ("uto", "it", 1.0),
    ("amos", "es", 0.3),
    ("amos", "pt", 0.3),
)
_SCRIPT_LANGUAGES: Final[tuple[tuple[str, str], ...]] = (
    (r"[\u0370-\u03ff\u1f00-\u1fff]", "el"),
    (r"[\u3040-\u30ff]", "ja"),
    (r"[\uac00-\ud7af\u1100-\u11ff]", "ko"),
    (r"[\u4e00-\u9fff]", "zh"),
    (r"[\u0400-\u04ff]", "ru"),
    (r"[\u0600-\u06ff]", "ar"),
    (r"[\u0590-\u05ff]", "he"),
    (r"[\u0900-\u097f]", "hi"),
    (r"[\u0e00-\u0e7f]", "th"),
)
_SCRIPT_RES: Final = tuple((re.compile(p), code) for p, code in _SCRIPT_LANGUAGES)
_NON_LATIN_RE: Final = re.compile(r"[^\u0000-\u036f]")
_SUFFIX_TABLE: Final[dict[str, tuple[tuple[str, float], ...]]] = {
    suffix: tuple((code, weight) for s, code, weight in _SUFFIX_HINTS if s == suffix)
    for suffix, _code, _weight in _SUFFIX_HINTS
}
_SUFFIX_LENGTHS: Final = tuple(sorted({len(suffix) for suffix in _SUFFIX_TABLE}))
_FR_ELISION_HEADS: Final = frozenset({"j", "c", "qu", "l", "d", "n", "s", "m", "t"})
_IT_ELISION_HEADS: Final = frozenset(
    {"com", "dov", "cos", "dell", "all", "nell", "sull", "dall", "quest", "quell", "un"}
)


def _script_language(text: str) -> str | None:
    """Return the language implied by a non-Latin script covering most letters, if any."""
    if not _NON_LATIN_RE.search(text):
        return None
    letters = _LETTER_RE.findall(text)
    if not letters:
        return None
    for regex, code in _SCRIPT_RES:
        count = len(regex.findall(text))
        if count and count * 2 >= len(letters):
            return code
    return None


_FR_INVERSION_TAILS: Final = frozenset({"je", "tu", "on", "il", "elle", "ils", "elles"})


def _language_scores(text: str) -> dict[str, float]:
    """Score each Latin-script language by its function words, letters and suffixes."""
    scores = dict.fromkeys(_LEXICON, 0.0)
    lowered = text.lower()
    for token in _WORD_RE.findall(_unify(lowered)):
        folded = _fold(token)
        for code, weight in _WORD_WEIGHT.get(folded, {}).items():
            scores[code] += weight
        for code, weight in _RAW_WORD_HINTS.get(token, {}).items():
            scores[code] += weight
        if "-" in folded and folded.rpartition("-")[2] in _FR_INVERSION_TAILS:
            scores["fr"] += 1.5  # "peut-on", "dois-je", "va-t-il"
        if "'" in folded:
            head, _, tail = folded.partition("'")
            if head in _FR_ELISION_HEADS:
                scores["fr"] += 0.5
            elif head in _IT_ELISION_HEADS:
                scores["it"] += 0.5
            for code, weight in _WORD_WEIGHT.get(tail, {}).items():
                scores[code] += weight
        for length in _SUFFIX_LENGTHS:
            if len(token) <= length + 2:
                break
            for code, weight in _SUFFIX_TABLE.get(token[-length:], ()):
                scores[code] += weight
    capitals = sum(1 for word in text.split()[1:] if len(word) > 3 and word[0].isupper())
    scores["de"] += 0.3 * capitals  # German capitalises its nouns
    present = set(lowered)
    for char, hints in _CHAR_HINTS.items():
        if char in present:
            count = lowered.count(char)
            for code, weight in hints.items():
                scores[code] += weight * count
    return scores


def _detect(text: str) -> tuple[str, float]:
    """Return the best language for ``text`` and the evidence behind it."""
    best, evidence, _scores = _detect_scores(text)
    return best, evidence


@functools.lru_cache(maxsize=256)
def _detect_scores(text: str) -> tuple[str, float, Mapping[str, float] | None]:
    """Return the best language, its evidence and the Latin-script scores (None for scripts).

    Cached: one utterance is looked at by several rules (question, capture, episode cue).
    """
    script = _script_language(text)
    if script is not None:
        return script, 10.0, None
    scores = _language_scores(text)
    best = max(scores, key=lambda code: (scores[code], code == DEFAULT_LANGUAGE))
    frozen = MappingProxyType(scores)
    if scores[best] <= 0.0:
        return DEFAULT_LANGUAGE, 0.0, frozen
    return best, scores[best], frozen


def detect_language(text: str, hint: str | None = None) -> str:
    """Return the base language code of ``text``; a given hint ("fr-FR", "EL") always wins."""
    base = _base_code(hint)
    if base is not None:
        return base
    return _detect(text or "")[0]


def _rule_languages(text: str, language: str | None) -> list[str]:
    """Return the languages whose rules should be applied to ``text``, most likely first."""
    hinted = _base_code(language)
    detected, evidence, scores = _detect_scores(text)
    ordered: list[str] = []
    for code in (hinted, detected):
        if code is not None and code not in ordered:
            ordered.append(code)
    if scores is not None:
        close = sorted(
            (code for code, score in scores.items() if score >= max(0.5, evidence * 0.6)),
            key=lambda code: -scores[code],
        )
        ordered.extend(code for code in close if code not in ordered)
    if hinted is None and evidence < 0.5:
        ordered.extend(code for code in SUPPORTED_LANGUAGES if code not in ordered)
    return ordered


# ---------------------------------------------------------------------------------------------
# Segmentation
# ---------------------------------------------------------------------------------------------

_ELISION_HEADS: Final = frozenset(
    {
        "j",
        "c",
        "qu",
        "l",
        "d",
        "n",
        "s",
        "m",
        "t",
        "jusqu",
        "lorsqu",
        "puisqu",
        "quoiqu",
        "presqu",
        "dov",
        "com",
        "cos",
        "quand",
        "qual",
        "un",
        "all",
        "dell",
        "nell",
        "sull",
        "dall",
        "quell",
        "quest",
        "v",
        "μ",
        "σ",
        "τ",
    }
)
_SENTENCE_RE: Final = re.compile(
    r"[.!?\u2026]+(?=[\s\"'\u201d\u00bb)]|$)|[;\u037e\u0387\u00b7\u3002\uff01\uff1f\n\r\u00bf\u00a1\u203d\u061f]+"
)
_CLAUSE_RE: Final = re.compile(r"[,:，、]+|\s[-–—]+\s|[–—]")
_GREEK_OTI_RE: Final = re.compile(r"\b([οΟόΌ]),\s?(τι|ΤΙ|Τι)\b")


_ANSWER_WORDS: Final = _fw("yes yeah yep yup no nope nah oui ouais non nein ja jo sim não nao")
_ANSWER_RAW: Final = frozenset({"sí", "sì", "ναι", "όχι", "οχι"})


@dataclass(frozen=True, slots=True)
class _Clause:
    """One clause of an utterance: folded words, accented lowercase words, original words."""

    words: tuple[str, ...]
    raw: tuple[str, ...]
    orig: tuple[str, ...]
    index: int
    accented: bool
    previous: tuple[str, ...] = ()
    after_answer: bool = False
    following: tuple[str, ...] = ()  # original tokens of the next clause


def _split_elision(token: str) -> list[str]:
    """Split French/Italian elisions ("j'étais" → "j'", "étais"), keeping English contractions."""
    if "'" not in token:
        return [token]
    head, _, tail = token.partition("'")
    if tail and _fold(head) in _ELISION_HEADS:
        return [head + "'", *_split_elision(tail)]
    return [token]


def _tokenize(segment: str) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """Return (folded, lowercase-accented, original) tokens of a clause."""
    orig: list[str] = []
    for match in _WORD_RE.finditer(_unify(segment)):
        orig.extend(_split_elision(match.group()))
    raw = tuple(t.lower() for t in orig)
    return tuple(_fold(t) for t in raw), raw, tuple(orig)


def _sentences(text: str) -> list[str]:
    """Split an utterance into sentences."""
    text = _GREEK_OTI_RE.sub(r"\1τι", text)
    return [s.strip() for s in _SENTENCE_RE.split(text) if s and _has_letters(s)]


def _clauses(sentence: str, accented: bool) -> list[_Clause]:
    """Split a sentence into clauses at commas, colons and dashes."""
    result: list[_Clause] = []
    for part in _CLAUSE_RE.split(sentence):
        words, raw, orig = _tokenize(part)
        if words:
            previous = result[-1] if result else None
            after_answer = previous is not None and all(
                w in _ANSWER_WORDS or r in _ANSWER_RAW
                for w, r in zip(previous.words, previous.raw, strict=True)
            )
            result.append(
                _Clause(
                    words,
                    raw,
                    orig,
                    len(result),
                    accented,
                    previous.words if previous else (),
                    after_answer,
                )
            )
    return [
        dataclasses.replace(clause, following=result[index + 1].orig)
        if index + 1 < len(result)
        else clause
        for index, clause in enumerate(result)
    ]


@dataclass(frozen=True, slots=True)
class _Body:
    """A clause after its leading fillers were removed."""

    words: tuple[str, ...]
    raw: tuple[str, ...]
    orig: tuple[str, ...]
    answered: bool  # a yes/no answer word was removed from its start
    clause: _Clause


_FILLER_SOURCES: list[str] = []


def _fillers(text: str) -> frozenset[str]:
    """Return the folded filler words of ``text`` and remember their accented spelling."""
    _FILLER_SOURCES.append(text.lower())
    return _fw(text)


def _is_filler(word: str, raw: str, fillers: frozenset[str]) -> bool:
    """Return True for a filler; an accented word only matches its accented filler spelling."""
    if word not in fillers:
        return False
    return raw == word or raw in _raw_fillers()


@functools.cache
def _raw_fillers() -> frozenset[str]:
    """Return every filler word in its accented, lowercase spelling."""
    return frozenset(w for source in _FILLER_SOURCES for w in source.split())


def _strip(clause: _Clause, fillers: frozenset[str]) -> _Body:
    """Remove leading fillers, vocatives and answer words from a clause."""
    start = 0
    answered = clause.after_answer
    words = clause.words
    while start < len(words):
        word = words[start]
        if word in _ANSWER_WORDS or clause.raw[start] in _ANSWER_RAW:
            answered = True
        elif not _is_filler(word, clause.raw[start], fillers):
            break
        start += 1
    return _Body(words[start:], clause.raw[start:], clause.orig[start:], answered, clause)


class _Phrases(tuple[tuple[str, ...], ...]):
    """Word-tuple phrases, longest first, with their first and last words for a quick test."""

    firsts: frozenset[str]
    lasts: frozenset[str]


def _starts(words: Sequence[str], phrases: Iterable[tuple[str, ...]]) -> int:
    """Return the length of the first phrase that ``words`` starts with, or 0."""
    if not words or (isinstance(phrases, _Phrases) and words[0] not in phrases.firsts):
        return 0
    for phrase in phrases:
        if tuple(words[: len(phrase)]) == phrase:
            return len(phrase)
    return 0


def _phrases(*items: str) -> _Phrases:
    """Return folded word tuples for "|"-separated phrases, longest first."""
    tuples = {tuple(_fold(p).split()) for item in items for p in item.split("|") if p.strip()}
    result = _Phrases(sorted(tuples, key=len, reverse=True))
    result.firsts = frozenset(p[0] for p in result)
    result.lasts = frozenset(p[-1] for p in result)
    return result


def _ends_with(words: Sequence[str], phrases: Iterable[tuple[str, ...]]) -> bool:
    """Return True when ``words`` ends with one of ``phrases``."""
    if not words or (isinstance(phrases, _Phrases) and words[-1] not in phrases.lasts):
        return False
    return any(len(words) >= len(p) and tuple(words[-len(p) :]) == p for p in phrases)


# ---------------------------------------------------------------------------------------------
# Question rules shared by several languages
# ---------------------------------------------------------------------------------------------

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


def _feeling_exclamative(words: Sequence[str]) -> bool:
    """Return True for "how much + I + verb of feeling" exclamations."""
    if len(words) < 2 or words[0] not in _FEELING_HEADS:
        return False
    if words[1] in _FEELING_FIRST_PERSON:
        return True
    if words[1] not in _FEELING_FIRST:
        return False
    tail = " ".join(words[2:4])
    return tail.startswith(_FEELING_STEMS) or words[2] in _FEELING_FIRST_PERSON


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


def _statement_form(words: Sequence[str], raw: Sequence[str]) -> bool:
    """Return True for rhetorical questions and proverbs that only look like questions."""
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
            if words[later] == word and before not in _PROVERB_WH | _PROVERB_COORDINATORS:
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


# ---------------------------------------------------------------------------------------------
# English
# ---------------------------------------------------------------------------------------------

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


def _q_en(body: _Body) -> bool:
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
        return _en_subject_ok(body, 1, _EN_NOMINATIVE | _fw("anyone anybody people everyone"))
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
    if (
        wh == "how"
        and nxt not in _EN_AUX_ALL | _EN_WH_OPENERS
        and rest[1:2]
        and rest[1] in _EN_HOW_SUBJECT
    ):
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
    if wh == "which" and rest[1:2] and rest[1] in _EN_WH | {"means", "meant"}:
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


# ---------------------------------------------------------------------------------------------
# French
# ---------------------------------------------------------------------------------------------

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


def _q_fr(body: _Body) -> bool:
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
        if _fr_inversion(word):
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
    opinion = _starts(words, _FR_OPINION)
    if opinion and words[opinion : opinion + 1] in (("que",), ("qu'",)):
        return True
    requested = _starts(words, _FR_REQUEST)
    if requested and not body.answered:
        if (
            words[requested - 1].startswith("demand")
            and len(words) > requested
            and words[requested] not in _FR_WH_FOLLOW | _FR_PREPOSITIONS
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
    if _fr_in_situ(body):
        return True
    if (
        len(words) > 1
        and words[0] in _FR_PREPOSITIONS
        and (words[1] in _FR_WH_ALWAYS | _FR_QUEL or body.raw[1] == "où")
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
        blocked = set(words[max(0, index - 2) : index]) & _FR_IN_SITU_BLOCK
        if words[index] in {"quoi", "combien"} and not blocked:
            return True
    if last == "qui" and before in {"est", "c'est", "avec", "pour", "à", "chez", "de"}:
        return True
    if _fr_cleft_question(words, raw) or _fr_verb_then_wh(words, raw):
        return True
    if any(
        raw[index] == "comment" and words[index + 1] == "pour" for index in range(1, len(words) - 1)
    ):
        return True  # "on fait comment pour y aller"
    return any(
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


# ---------------------------------------------------------------------------------------------
# Spanish
# ---------------------------------------------------------------------------------------------

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


def _q_es(body: _Body) -> bool:
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


# ---------------------------------------------------------------------------------------------
# Italian
# ---------------------------------------------------------------------------------------------

_IT_FILLERS: Final = _fillers(
    "allora beh be' boh dunque quindi senti senta ecco e ma ok okay insomma cioè guarda "
    "scusa scusi ehm eh hey um uh uhm"
)
_IT_WH_ALWAYS: Final = _fw("chi cosa quanto quanta quanti quante quale quali qual qual' cos'")
_IT_WH_ANY: Final = _IT_WH_ALWAYS | _fw("che dove dov' quando come perché")
_IT_ARTICLES: Final = _fw("il lo la i gli le l' un una uno un'")
_PT_ARTICLES: Final = _fw("o a os as um uma uns umas")
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
_IT_TOPICS: Final = _fw("adesso ora poi domani oggi stasera quindi invece tu voi lei e allora")
_PT_TOPICS: Final = _fw("agora depois hoje amanhã então você vocês tu e")
_EL_TOPICS: Final = _fw(
    "εσύ εσείς εμείς τώρα μετά αύριο σήμερα απόψε και λοιπόν τελικά από για με μέχρι ως προς "
    "σε στο στη στην στον"
)
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
_IT_FIRST_PERSON_RE: Final = re.compile(r"(?<!iam)o$")


def _q_it(body: _Body) -> bool:
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


_IT_WHAT_NOUNS: Final = _fw("ora ore giorno tempo tipo genere numero taglia")
_HOW_MUCH: Final = _fw("quanto quanta quanti quante cuánto cuánta cuántos cuántas")
_DEGREE_COPULA: Final = _fw("sei è e' siete sono era eri és são es eres está estás")


def _degree_exclamative(rest: Sequence[str]) -> bool:
    """Return True for "quanto (sei/è) + evaluative word" ("quanto sei bella", "quanta sorte")."""
    index = 1 if rest[:1] and rest[0] in _DEGREE_COPULA else 0
    return len(rest) > index and rest[index] in _EXCLAMATIVE


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
    if verb in modals:
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


# ---------------------------------------------------------------------------------------------
# Portuguese
# ---------------------------------------------------------------------------------------------

_PT_FILLERS: Final = _fillers(
    "então entao bom bem olha olhe e mas ok okay tipo pois né enfim ah desculpa desculpe ei oi "
    "hey uh uhm ehm eh"
)
_PT_PRONOUNS: Final = _fw("eu tu você voce ele ela nós nos vocês voces eles elas")
_PT_CLITICS: Final = _fw("me te se nos lhe o a")
_PT_MODALS: Final = _fw(
    "posso devo tenho vou podemos devemos temos vamos pode deve tem vai preciso precisa "
    "consigo conseguimos quer querem"
)
_PT_IMPERFECT_RE: Final = re.compile(
    r"^(?:era|eras|éramos|eramos|eram|tinha|tinhamos)$|"
    r"(?:ava|avas|ávamos|avamos|avam|ia|ias|íamos|iamos|iam)$"
)
_PT_COPULA_RAW: Final = frozenset({"é", "foi", "era"})
_PT_VERBS_RAW: Final = frozenset(
    {
        "é",
        "são",
        "foi",
        "tem",
        "têm",
        "há",
        "faz",
        "fazes",
        "está",
        "estás",
        "estão",
        "quer",
        "queres",
        "acha",
        "achas",
        "aconteceu",
        "houve",
        "significa",
        "custa",
        "custam",
        "vai",
        "vais",
        "vamos",
        "pode",
        "posso",
        "devo",
        "fica",
        "ficam",
        "se",
        "me",
        "te",
    }
)
_PT_HOW_STATEMENT: Final = _fw(
    "disse dizia falei falava sabe sabes sabem sempre combinado quiser queira quiserem "
    "siempre dije dijiste dijo "
    "quieras quiera quieran digas diga digan prefieras prefiera "
    "previsto de costume"
)
_PT_WH_ALWAYS: Final = _fw("quem qual quais quanto quanta quantos quantas porquê")
_PT_FEASIBLE: Final = _phrases(
    "você acha que|voce acha que|acha que|tu achas que|achas que|gostaria de saber|"
    "queria saber|vocês sabem|vocês podem|vocês acham que|"
    "posso|pode|podes|podemos|poderia|poderias|poderíamos|você pode|voce pode|"
    "você poderia|voce poderia|tu podes|tu poderias|será que|sera que|dá para|da para|"
    "dá pra|da pra|tem como|sabe|sabes|você sabe|voce sabe|queres|você quer|voce quer|"
    "você tem|voce tem|tens|me pode|pode me|me ajuda|me diz|me diga|me fala|me pergunto|"
    "pergunto-me|eu me pergunto|é possível|seria possível|há algum|tem algum|existe algum|"
    "você viu|viste|se importa|você se importa|quer|vocês querem|podia|podias|podíamos|"
    "me podia|me podias|você podia|tu podias|podes me|me podes|tem alguma|tem alguém|"
    "há alguma|há alguém|existe alguma|tens algum|tens alguma|tem ideia|tens ideia|"
    "você tem ideia|daria para|daria pra|dava para|dava pra|seria possível|tem problema se|"
    "pergunto me|se importaria|você se importaria|voce se importaria|importas te|importa se|"
    "te importas|se importava|você se importava|importava se|importavas te"
)
_PT_FEASIBLE_BLOCK: Final = _fw("ser que chover razão")
_PT_ENCLITICS: Final = _fw("me te se nos vos lhe lhes o a os as lo la los las")
_PT_SET_PHRASES: Final = _phrases("pode deixar|pode crer|podes crer|podes deixar|pode ser")
_PT_SET_PHRASE_TAIL: Final = _fw("que comigo isso amigo tranquilo")
_PT_SAY: Final = _fw("diz dizem dizes diziam falou falam dizia dice dicen decía")
_PT_PREPOSITIONS: Final = _fw("a de em com para por até desde")
_PT_WH_ANY: Final = _fw("que quem onde quando como quanto quanta quantos quantas qual quais")
_PT_TAGS: Final = frozenset(
    {("né",), ("não",), ("certo",), ("não", "é"), ("nao",), ("ne",), ("verdade",)}
)


def _q_pt(body: _Body) -> bool:
    """Portuguese spoken-question rules."""
    words, raw = body.words, body.raw
    if not words:
        return False
    if body.words[:2] == ("com", "licenca") and len(body.words) > 2:
        body = dataclasses.replace(body, words=body.words[2:], raw=body.raw[2:], orig=body.orig[2:])
    body = _skip_topic(body, _PT_TOPICS, (_PT_WH_ANY | _fw("o por")) - {"que"})
    words, raw = body.words, body.raw
    if raw[0] == "porque" and words[1:3] == ("e", "que"):
        return True  # "porque é que não vieste"
    if raw[0] == "por" and words[1:2] == ("que",):
        return True
    if (
        len(words) > 1
        and (words[0] in _PT_PREPOSITIONS or raw[0] == "há")
        and (words[1] in _PT_WH_ANY and (raw[0] != "há" or words[1].startswith("quant")))
    ):
        words = words[1:]
        body = dataclasses.replace(body, words=words, raw=body.raw[1:], orig=body.orig[1:])
        raw = body.raw
    first = words[0]
    rest = list(words[1:])
    if first == "o" and rest[:1] == ["que"]:
        return not any(w in _PT_COPULA_RAW for w in raw[3:])
    if raw[0] == "por" and rest[:1] == ["que"]:
        return True
    if raw[0] == "porquê" or (first in _PT_WH_ALWAYS and raw[0] != "porque"):
        return not (first in _HOW_MUCH and _degree_exclamative(rest))
    if first == "que":
        if not rest or rest[0] in _PT_PRONOUNS:
            return False
        if rest[0] in _EXCLAMATIVE or (
            rest[-1] in _EXCLAMATIVE and not any(w in _PT_VERBS_RAW for w in raw[1:])
        ):
            return False  # "que dia lindo"
        if (
            rest[1:2]
            and rest[1] in {"mais", "mas", "tao", "tan"}
            and not any(w in _PT_VERBS_RAW for w in raw[1:])
        ):
            return False  # "que dia mais longo", "qué día más largo"
        if rest[0] in {"tal", "horas", "hora", "dia"} or any(w in _PT_VERBS_RAW for w in raw[1:5]):
            return True
        return _verb_before_article(rest, _PT_ARTICLES)
    if first in {"onde", "aonde"}:
        if rest and _PT_IMPERFECT_RE.search(rest[0]):
            return False
        if rest[:1] == ["eu"] and len(rest) > 1:
            return rest[1] in _PT_MODALS
        index = 1 if rest[:1] and rest[0] in _PT_PRONOUNS else 0
        return not (len(rest) > index and _pt_future_subj(rest[index]))  # "onde você for"
    if first == "quando":
        return _romance_when(rest, _PT_PRONOUNS, _PT_CLITICS, _PT_MODALS, _PT_IMPERFECT_RE)
    if first == "como":
        if not rest:
            return True
        if rest[0] == "se" and len(rest) > 1 and not rest[1].endswith(("sse", "ssem")):
            return True  # "como se diz", "como se chama"
        index = 0
        while index < len(rest) - 1 and (rest[index] in _PT_PRONOUNS or rest[index] in _PT_CLITICS):
            index += 1
        verb = rest[index]
        if verb in _PT_HOW_STATEMENT or _PT_IMPERFECT_RE.search(verb) or _pt_future_subj(verb):
            return False
        if _how_exclamative(rest):
            return False
        if verb in _PT_SAY and len(rest) > index + 1:
            return False  # "como diz o meu pai"
        return not (rest[0] == "se" and len(rest) > 1 and rest[1].endswith(("sse", "ssem")))
    if _clitic_request(words) and not body.answered:
        return True
    return _pt_feasible(words, body.answered)


_PT_MIND: Final = _fw("importas importaria importava importavas")


def _pt_feasible(words: Sequence[str], answered: bool) -> bool:
    """Portuguese feasibility and request forms, with enclitics split ("pode-me dizer")."""
    if answered:
        return False
    if any("-" in word for word in words):
        split: list[str] = []
        for word in words:
            head, _, tail = word.partition("-")
            split.extend((head, tail) if head and tail in _PT_ENCLITICS else (word,))
        words = split
    fixed = _starts(words, _PT_SET_PHRASES)
    if fixed and (len(words) == fixed or words[fixed] in _PT_SET_PHRASE_TAIL):
        return False
    feasible = _starts(words, _PT_FEASIBLE)
    if not feasible or _possible_if(words, feasible):
        return False
    following = words[feasible : feasible + 1]
    if set(words[:feasible]) & _PT_MIND:
        return True  # "importas-te que eu abra a janela"
    if following and following[0] == "dizer" and words[feasible - 1].startswith("quer"):
        return False  # "quer dizer" = "that is"
    return not following or following[0] not in _PT_FEASIBLE_BLOCK


# ---------------------------------------------------------------------------------------------
# German
# ---------------------------------------------------------------------------------------------

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


def _q_de(body: _Body) -> bool:
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
                return len(rest) == 1 or rest[1] not in _DE_PRONOUNS | _DE_SUBORDINATORS
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
    if body.answered or (previous and previous[0] in _DE_SUBORDINATORS | _DE_WH):
        return False
    if set(rest[:3]) & _DE_STATEMENT_PARTICLES or tuple(words[:3]) in _DE_PRESENTING:
        return False  # "muss ja nicht sein", "soll er doch machen", "darf ich vorstellen"
    if first in _DE_VERBS and rest:
        if rest[0] == "ich" and set(rest[1:]) <= _DE_TOPIC_DROP_TAIL and len(rest) <= 3:
            return False
        if len(rest) <= 2 and set(rest) <= _DE_TOPIC_DROP_TAIL | _DE_ADVERBS | _DE_DROP_EXTRA:
            return False
        return not (len(rest) == 1 and rest[0].startswith("ge") and rest[0].endswith(("t", "en")))
    excluded = _DE_WH | _DE_SUBORDINATORS | _DE_PRONOUNS | _DE_ARTICLES | _DE_ADVERBS
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


# ---------------------------------------------------------------------------------------------
# Greek
# ---------------------------------------------------------------------------------------------

_EL_FILLERS: Final = _fillers(
    "λοιπόν ε εε εεε μμ α αχ και αλλά δηλαδή άκου άκουσε κοίτα βασικά ρε μωρέ οκ εντάξει "
    "συγγνώμη καλά ωραία ok okay hey so um uh uhm ehm"
)
_EL_WH_ALWAYS: Final = _fw(
    "ποιος ποια ποιο ποιοι ποιες ποιον ποιου ποιας ποιων ποιανού ποιανής μήπως άραγε "
    "ποιός ποιά ποιό"
)
_EL_WH_SCAN: Final = _fw("τι πόσο πόση πόσος πόσα πόσοι πόσες πόσους πόσων")
_EL_WH_NOTONOS: Final = _fw("που πως")
_EL_WH_OTHER: Final = _fw("πότε γιατί") | frozenset({"πού", "πώς"})
_EL_FIRST_PERSON_RE: Final = re.compile(r"(?:ω|ουμε|μαι|μαστε|ημουν|ημουνα)$")
_EL_VERB_RE: Final = re.compile(
    r"(?:ω|ει|εισ|ουμε|ουνε|ουν|ετε|ειτε|αι|ομαι|εσαι|εται|ονται|ηκε|ηκα|ηκεσ|ησε|ισε|ασε|"
    r"ευε|ανε|αμε|ατε|ησα|ισα|ασα)$"
)
_EL_VERB_WORDS: Final = _fw(
    "θα να δεν μην είναι ήταν έχει έχεις λες θες πας πάμε ξέρεις ξέρει γίνεται έγινε "
    "συμβαίνει κάνει κάνεις λέει είπες είπε έκανες έφυγε κάνουμε"
)
# "τι ώρα", "τι νέα": question phrases whose verb is often left out.
_EL_SCAN_ALWAYS: Final = _fw("ώρα νέα άλλο άλλα κάνεις λες γίνεται έγινε")
_EL_FEASIBLE: Final = _phrases(
    "λες να|νομίζεις ότι|νομίζεις πως|πιστεύεις ότι|πιστεύεις πως|θα ήθελα να μάθω|"
    "θέλω να μάθω|θα ήθελα να ξέρω|"
    "μπορώ|μπορείς|μπορείτε|μπορούμε|θα μπορούσα|θα μπορούσες|θα μπορούσε|θα μπορούσαμε|"
    "θα μπορούσατε|θα μπορούσαν|θα ήθελες|θα θέλατε|θα ήθελε|θα σε πείραζε|θα σας πείραζε|"
    "θα ήταν δυνατόν|θα ήταν εύκολο|ξέρεις|ξέρετε|ξέρει κανείς|ξέρει κανένας|θέλεις|"
    "θέλετε|θες|γίνεται να|υπάρχει κάποιο|υπάρχει κάποια|υπάρχει κάποιος|υπάρχει κανένα|"
    "υπάρχει καμία|υπάρχει κανένας|υπάρχει περίπτωση|υπάρχουν|έχεις ιδέα|έχετε ιδέα|"
    "έχεις χρόνο|έχετε χρόνο|σε πειράζει|σας πειράζει|μου λες|μου λέτε|μου δίνεις|"
    "μου δίνετε|μας λέτε|μας λες|με βοηθάς|με βοηθάτε|είναι δυνατόν|είναι εντάξει αν|"
    "αναρωτιέμαι|πες μου|πείτε μου|είδες|είδατε|άκουσες|έχεις|έχετε|θα γινόταν να|"
    "επιτρέπεται να|θα ήταν εντάξει αν|υπάρχει τρόπος"
)
_EL_FEASIBLE_BLOCK: Final = _fw("δίκιο λάθος")
_EL_TELL_FIRST: Final = _fw("πες πείτε")
_EL_TELL_FOLLOW: Final = _fw(
    "τι πού που πώς πως πότε ποτε γιατί αν ποιος ποια ποιο ποιοι ποιον πόσο πόσα πόσοι πόσες "
    "πόση ποιες ποιους"
)
_EL_THIRD_CAN: Final = _fw("μπορούσε")
_EL_EPISTEMIC: Final = _fw("είναι ήταν γίνει συμβεί πάει βρέξει")
_EL_TAGS: Final = frozenset(
    {
        ("έτσι",),
        ("σωστά",),
        ("έτσι", "δεν", "είναι"),
        ("δεν", "είναι"),
        ("εσύ",),
        ("εσείς",),
    }
)
_EL_TAGS_FOLDED: Final = frozenset(tuple(_fold(w) for w in tag) for tag in _EL_TAGS)


def _q_el(body: _Body) -> bool:
    """Greek spoken-question rules (tonos distinguishes πού/πώς from που/πως)."""
    if not body.words:
        return False
    body = _skip_topic(body, _EL_TOPICS, _EL_WH_ALWAYS | _EL_WH_SCAN | _EL_WH_OTHER)
    words, raw = body.words, body.raw
    first = words[0]
    rest = words[1:]
    if first in _EL_WH_ALWAYS:
        return True
    if raw[0] in {"πού", "πώς"}:
        return rest[:2] not in ((_fold("και"), _fold(raw[0])),)
    if first in _EL_WH_NOTONOS and not body.clause.accented and body.clause.index == 0:
        return True
    if first == _fold("πότε"):
        if raw[0] == "ποτέ":
            return False
        return not (raw[0] == "ποτε" and rest[:1] == (_fold("δεν"),))
    if first == _fold("γιατί"):
        if not rest:
            return True
        if rest[0] in {_fold("δεν"), _fold("να"), _fold("θα")}:
            return True
        return not (rest[0] == _fold("εγώ") or _EL_FIRST_PERSON_RE.search(rest[0]))
    if first in _EL_WH_SCAN:
        if rest and rest[0] in _EL_SCAN_ALWAYS:
            return True
        for index, word in enumerate(rest):
            if word == _fold("που"):
                return False
            if word in _EL_VERB_WORDS or (index > 0 and _EL_VERB_RE.search(word)):
                return True
            if index == 0 and _EL_VERB_RE.search(word):
                return True
        return False
    feasible = _starts(words, _EL_FEASIBLE)
    if not feasible or body.answered or _possible_if(words, feasible):
        return False
    after = words[feasible:]
    if words[0] in _EL_TELL_FIRST and after and after[0] not in _EL_TELL_FOLLOW:
        return False  # "πες μου όταν είσαι έτοιμος" is a request, "πες μου πού" asks
    if (
        words[feasible - 1] in _EL_THIRD_CAN
        and after[:1] == (_fold("να"),)
        and after[1:2]
        and after[1] in _EL_EPISTEMIC
    ):
        return False  # "θα μπορούσε να είναι χειρότερα": "it could be worse"
    return not (after and after[0] in _EL_FEASIBLE_BLOCK)


# ---------------------------------------------------------------------------------------------
# Questions
# ---------------------------------------------------------------------------------------------

_Tags = frozenset[tuple[str, ...]]
_RULES: Final[dict[str, tuple[Callable[[_Body], bool], frozenset[str], _Tags]]] = {
    "en": (_q_en, _EN_FILLERS, _EN_TAGS),
    "fr": (_q_fr, _FR_FILLERS, _FR_TAGS),
    "es": (_q_es, _ES_FILLERS, _ES_TAGS),
    "de": (_q_de, _DE_FILLERS, _DE_TAGS),
    "it": (_q_it, _IT_FILLERS, _IT_TAGS),
    "pt": (_q_pt, _PT_FILLERS, _PT_TAGS),
    "el": (_q_el, _EL_FILLERS, _EL_TAGS_FOLDED),
}
_EXPLICIT_MARKS: Final = frozenset("?\uff1f\u00bf\u203d\u2e2e\u061f\u037e")
_GREEK_SEMICOLON_RE: Final = re.compile(r";(?=[\s\"'”»)]*(?:$|\s))")


def _explicit_question(text: str, language: str | None) -> bool:
    """Return True for explicit question punctuation ("?", "？", "¿", Greek ";")."""
    if any(mark in text for mark in _EXPLICIT_MARKS):
        return True
    for match in _GREEK_SEMICOLON_RE.finditer(text):
        before = re.split(r"[.!?·;\n]", text[: match.start()])[-1]
        if language == "el" or _GREEK_RE.search(before):
            return True
    return False


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


def _mid_indirect(words: Sequence[str], index: int) -> bool:
    """Return True when a verb of knowing, saying or asking precedes ``index`` closely."""
    context = words[max(0, index - 3) : index]
    return bool(set(context) & _MID_EN_INDIRECT) or any(
        word.startswith(_MID_INDIRECT_STEMS + _MID_OTHER_INDIRECT_STEMS) for word in context
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


def _mid_modal_wh(words: Sequence[str], raw: Sequence[str], index: int, language: str) -> bool:
    """Return True for a question word and a modal inside a run-on ("… cosa devo fare")."""
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
    # Two-word tails are elliptic ("… so do you"); a question starts near the end.
    for index in range(max(1, len(words) - _MID_TAIL_WORDS), len(words) - 2):
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
            rule, fillers, _tags = _RULES[code]
            body = _strip(tail, fillers)
            if len(body.words) < 2 or _statement_form(body.words, body.raw):
                continue
            if (
                code == "de"
                and body.words[1] not in _MID_DE_TAIL_SUBJECTS | _DE_WH
                and body.words[0] not in _DE_WH
            ):
                continue
            if rule(body):
                return True
    return False


def _mid_question(clause: _Clause, languages: Sequence[str]) -> bool:
    """Find a question that starts inside the last clause ("…the store do you need anything")."""
    words, raw = clause.words, clause.raw
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
            and not (words[index] in _fw("do have") and words[index - 1] in _fw("to can will"))
        ):
            return True
        if "en" in languages and (_mid_en_copula(words, index) or _mid_en_wh(words, index)):
            return True
        if any(_mid_modal_wh(words, raw, index, code) for code in languages):
            return True
    if _mid_coordinated(clause, languages):
        return True
    for index in range(2, len(words)):
        if raw[index - 2] == raw[index] and words[index - 1] == _fold("και"):
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


# Acute, grave and circumflex accents and the Greek tonos: a transcript that carries them
# writes "dónde"/"πού" for questions ("ñ" or "ü" alone say nothing about that).
_TONE_MARKS_RE: Final = re.compile("[\u0300-\u0302]")


def is_question(text: str, language: str | None = None) -> bool:
    """Return True when the newest utterance asks a question, with or without punctuation."""
    if not text or not _has_letters(text):
        return False
    text = unicodedata.normalize("NFC", text)
    if _explicit_question(text, _base_code(language)):
        return True
    sentences = _sentences(text)
    if not sentences:
        return False
    accented = bool(_TONE_MARKS_RE.search(unicodedata.normalize("NFD", text)))
    languages = [code for code in _rule_languages(text, language) if code in _RULES]
    for sentence in sentences[-2:]:
        clauses = _clauses(sentence, accented)
        if sentence is sentences[-1] and clauses and _mid_question(clauses[-1], languages):
            return True
        for clause in clauses:
            if _generic_question(clause.words):
                return True
            for code in languages:
                rule, fillers, tags = _RULES[code]
                if clause.index > 0 and clause.words in tags:
                    return True
                body = _strip(clause, fillers)
                if body.words and not _statement_form(body.words, body.raw) and rule(body):
                    return True
    return False


# ---------------------------------------------------------------------------------------------
# Reminders and tasks
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _CaptureRule:
    """A reminder/task pattern: its kind, whether a question may match, and its regex."""

    kind: str
    pattern: re.Pattern[str]
    allow_question: bool = False
    check_task: bool = False


def _rule(kind: str, pattern: str, *, question: bool = False, task: bool = False) -> _CaptureRule:
    """Build a capture rule from a pattern written in natural spelling."""
    return _CaptureRule(kind, _compile(pattern), question, task)


_CAPTURE_FILLERS_RE: Final = _compile(
    r"(?:(?:ok(?:ay)?|so|and|um+|uh+|hey|oh|well|also|alright|right|please|alors|bon|ben|euh|"
    r"et|donc|ah|λοιπόν|ε+|και|εντάξει|pues|bueno|y|oye|mira|vale|und|na|naja|ach|ja(?=\s*,)|"
    r"allora|e|beh|senti|então|bom|olha|homebuddy|assistant)\b[\s,]*)+"
)
_EN_CAN_YOU: Final = r"(?:(?:can|could|would|will)\s+you\s+)?(?:please\s+)?"
_FR_CAN_YOU: Final = (
    r"(?:(?:tu\s+peux|peux[\s-]*tu|tu\s+pourrais|pourrais[\s-]*tu|vous\s+pouvez|"
    r"pouvez[\s-]*vous|vous\s+pourriez|pourriez[\s-]*vous)\s+)?"
)
_FR_THAT: Final = r"(?:de\s+|d'\s*|que\s+|qu'\s*)?"
_LIST_WORDS_EN: Final = r"(?P<l>(?:[\w'-]+\s+){0,2}list)\b"

_CAPTURE_RULES: Final[dict[str, tuple[_CaptureRule, ...]]] = {
    "en": (
        _rule(
            KIND_REMINDER,
            _EN_CAN_YOU + r"remind\s+me\s+(?P<t>(?:at|on|in|by|tomorrow|tonight|this|next|later)\b"
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
    ),
    "fr": (
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
            r"(?:n'?\s*)?(?:oublie|oubliez)\s+pas\s+de\s+me\s+rappeler\s*"
            + _FR_THAT
            + r"(?P<c>.+)",
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
    ),
    "el": (
        _rule(
            KIND_REMINDER,
            r"(?:(?:μπορείς|μπορείτε|θα\s+μπορούσες|θα\s+μπορούσατε)\s+να\s+(?:μου|μας)\s+"
            r"(?:το\s+)?(?:θυμίσεις|θυμίσετε)|(?:θύμισε|θύμησε|θυμίστε|θυμήστε)\s+(?:μου|μας)|"
            r"να\s+(?:μου|μας)\s+(?:το\s+)?(?:θυμίσεις|θυμίσετε))\s+"
            r"(?:ότι\s+|πως\s+|για\s+)?(?P<c>.+)",
            question=True,
        ),
        _rule(
            KIND_REMINDER,
            r"μη(?:ν)?\s+με\s+αφήσεις\s+να\s+ξεχάσω\s+(?:ότι\s+|πως\s+)?(?P<c>.+)",
        ),
        _rule(KIND_REMINDER, r"(?:θυμήσου|θυμηθείτε)\s+(?:να\s+|ότι\s+)(?P<c>.+)"),
        _rule(
            KIND_REMINDER,
            r"(?:να\s+)?μη(?:ν)?\s+ξεχάσω\s+(?:ότι\s+|πως\s+)?(?P<c>.+)",
        ),
        _rule(
            KIND_REMINDER,
            r"μη(?:ν)?\s+ξεχάσεις\s+(?:να\s+μου\s+θυμίσεις\s+)?(?:ότι\s+|πως\s+)?(?P<c>.+)",
        ),
        _rule(
            KIND_REMINDER,
            r"(?:θα\s+)?(?:πρέπει|θέλω|χρειάζεται)\s+να\s+θυμηθώ\s+(?:ότι\s+|πως\s+)?(?P<c>.+)",
        ),
        _rule(
            KIND_REMINDER,
            r"(?:βάλε|κάνε|φτιάξε|πρόσθεσε|όρισε)\s+(?:μου\s+)?(?:μια\s+|μία\s+)?υπενθύμιση\s+"
            r"(?:για\s+|ότι\s+|πως\s+)?(?P<c>.+)",
            question=True,
        ),
        _rule(
            KIND_TASK,
            r"(?:πρόσθεσε|βάλε|γράψε)\s+(?P<c>.+?)\s+(?:στη|στην|στο|στις)\s+"
            r"(?P<l>λίστα(?:\s+(?:για|με|των|του|της|αγορών|ψωνιών)(?:\s+[\w]+){0,2})?)",
            question=True,
        ),
        _rule(
            KIND_TASK,
            r"(?:θα\s+)?(?:πρέπει|χρειάζεται)\s+(?:οπωσδήποτε\s+|επίσης\s+|ακόμα\s+|σίγουρα\s+)?"
            r"(?P<c>να\s+.+)",
            task=True,
        ),
    ),
    "es": (
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
    ),
    "de": (
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
    ),
    "it": (
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
    ),
    "pt": (
        _rule(
            KIND_REMINDER,
            r"(?:(?:pode|podes|poderia|você\s+pode)\s+)?(?:me\s+lembr(?:a|e|ar)|lembra[\s-]*me|"
            r"lembre[\s-]*me|me\s+recorda)\s+(?:de\s+|que\s+|da\s+|do\s+)?(?P<c>.+)",
            question=True,
        ),
        _rule(
            KIND_REMINDER,
            r"não\s+(?:me\s+)?deix(?:e|a)\s+(?:eu\s+)?esquecer\s+(?:de\s+|que\s+)?(?P<c>.+)",
        ),
        _rule(
            KIND_REMINDER,
            r"não\s+(?:(?:se|te)\s+)?esque(?:ça|ças|çam|ce|cer)\s+(?:de\s+|que\s+)(?P<c>.+)",
        ),
        _rule(
            KIND_REMINDER,
            r"(?:eu\s+)?não\s+(?:posso|podemos|devo|devemos)\s+(?:me\s+)?esquecer(?:-me)?\s+"
            r"(?:de\s+|que\s+)(?P<c>.+)",
        ),
        _rule(KIND_REMINDER, r"(?:lembra-te|lembre-se)\s+(?:de\s+|que\s+)(?P<c>.+)"),
        _rule(
            KIND_REMINDER,
            r"(?:tenho|preciso)\s+(?:que\s+|de\s+)?(?:me\s+)?lembrar\s+(?:de\s+|que\s+)(?P<c>.+)",
        ),
        _rule(
            KIND_REMINDER,
            r"(?:cria|crie|coloca|coloque|põe|ponha|adiciona|adicione)\s+(?:um\s+)?lembrete\s+"
            r"(?:para\s+|de\s+|que\s+)?(?P<c>.+)",
            question=True,
        ),
        _rule(
            KIND_TASK,
            r"(?:adiciona|adicione|coloca|coloque|põe|ponha|bota|acrescenta|acrescente)\s+"
            r"(?P<c>.+?)\s+(?:na|à|a|em)\s+(?:minha\s+|nossa\s+)?(?P<l>lista(?:\s+de\s+\w+)?)",
            question=True,
        ),
        _rule(
            KIND_TASK,
            r"(?:eu\s+)?(?:tenho\s+que|tenho\s+de|devo|temos\s+que|temos\s+de|devemos)\s+"
            r"(?P<c>.+)",
            task=True,
        ),
        _rule(
            KIND_TASK,
            r"(?:eu\s+)?(?:preciso|precisamos)(?:\s+de)?\s+(?P<c>\w+(?:ar|er|ir)\b.*)",
            task=True,
        ),
    ),
}

_TASK_DISCOURSE: Final = _fw(
    "say admit agree disagree confess laugh wonder thank apologize apologise mention "
    "interrupt dire avouer admettre reconnaître filer πω ομολογήσω παραδεχτώ "
    "decir admitir confesar reconocer irme sagen zugeben gestehen los dire ammettere confessare "
    "dizer admitir confessar be have"
)
_TASK_DISCOURSE_PHRASES: Final = _phrases(
    "tell you|ask you|warn you|be honest|be careful|be kidding|go now|leave now|go home|"
    "y aller|te dire|vous dire|être honnête|να πω|να φύγω|να σου πω|να σας πω|"
    "να είμαι ειλικρινής|decirte|ser honesto|dir sagen|ehrlich sein|dirti|essere onesto|"
    "te dizer|ser honesto"
)
_EMPTY_CONTENT: Final = _fw(
    "to that about of for me it this de d' que qu' à a pour να ότι πως για que de a di che "
    "daran dass an zu it later please"
)
_TASK_LEAVE: Final = _fw(
    "go leave run partir aller y φύγω πάω φεύγω ir irme andare andarmene gehen los weg sair "
    "sit sleep rest think breathe relax calm pee lie"
)
_EL_CLITICS: Final = _fw("το τα τον την τη του της τους τις μου σου μας σας δεν μην θα")
_TRAILING_POLITE_RE: Final = _compile(
    r"(?:[\s,]+(?:please|thanks|thank\s+you|s'il\s+te\s+plaît|s'il\s+vous\s+plaît|stp|svp|"
    r"merci|σε\s+παρακαλώ|παρακαλώ|ευχαριστώ|por\s+favor|gracias|bitte|danke|per\s+favore|"
    r"grazie|obrigad[oa]))+[\s.!?…,;]*$"
)
_STRIP_CHARS: Final = " \t\"'“”«»‘’.,;:!?¿¡…-–—"
_ABBREVIATION_DOT_RE: Final = re.compile(
    r"\b(?:Dr|Mr|Mrs|Ms|St|Mme|Mlle|Pr|Prof|Sr|Sra|Hr|Fr|Dott|κ|Κ|vs|etc)\.\s",
)


def _capture_sentences(text: str) -> list[str]:
    """Split text into sentences for capture, keeping abbreviations such as "Dr." intact."""
    protected = _ABBREVIATION_DOT_RE.sub(lambda m: m.group().replace(". ", "\x00 "), text)
    parts = re.split(r"(?<=[.!?;;。！？])\s+|\n+", protected)
    return [p.replace("\x00", ".").strip() for p in parts if p and _has_letters(p)]


def _task_ok(content: str, language: str) -> bool:
    """Return True when task content reads like a to-do rather than a figure of speech."""
    words = _words(content)
    if words and words[0] in {_fold("να"), "to"}:
        words = words[1:]
    if len(words) <= 2 and words and words[0] in _TASK_LEAVE:
        return False
    if len(words) < 2 and language != "de":
        return False
    if not words or words[0] in _TASK_DISCOURSE:
        return False
    if _starts(words, _TASK_DISCOURSE_PHRASES) or _starts(_words(content), _TASK_DISCOURSE_PHRASES):
        return False
    if language == "el":
        for word in words:
            if word in _EL_CLITICS:
                continue
            return bool(re.search(r"(?:ω|με)$", word))
        return False
    return True


def _clean_content(original: str) -> str:
    """Remove trailing politeness and punctuation from captured content."""
    folded = _fold_aligned(original)
    match = _TRAILING_POLITE_RE.search(folded)
    if match:
        original = original[: match.start()]
    return original.strip(_STRIP_CHARS)


def _capture_sentence(sentence: str, language: str) -> CapturedMemory | None:
    """Try the capture rules of ``language`` on one sentence."""
    folded = _fold_aligned(sentence)
    lead = _CAPTURE_FILLERS_RE.match(folded)
    offset = lead.end() if lead else 0
    question: bool | None = None
    for rule in _CAPTURE_RULES.get(language, ()):
        match = rule.pattern.match(folded, offset)
        if match is None:
            continue
        content = _clean_content(sentence[match.start("c") : match.end("c")])
        if not _has_letters(content) or _fold(content) in _EMPTY_CONTENT:
            continue
        if not rule.allow_question:
            if question is None:
                question = is_question(sentence, language)
            if question:
                return None
        if rule.check_task and not _task_ok(content, language):
            return None
        if "t" in rule.pattern.groupindex and match.group("t"):
            when = sentence[match.start("t") : match.end("t")].strip(_STRIP_CHARS)
            content = f"{content} {when}"
        if "l" in rule.pattern.groupindex and match.group("l"):
            list_name = sentence[match.start("l") : match.end("l")].strip()
            if _fold(list_name) not in _fs("list", "liste", "λίστα", "lista", "liste"):
                content = f"{content} ({list_name})"
        return CapturedMemory(rule.kind, content, language)
    return None


def capture_memory(text: str, language: str | None = None) -> CapturedMemory | None:
    """Detect a reminder or task request and return its cleaned content, or None."""
    if not text or not _has_letters(text):
        return None
    text = unicodedata.normalize("NFC", text)
    detected = detect_language(text, language)
    codes = [detected] + [c for c in _rule_languages(text, language) if c != detected]
    for sentence in _capture_sentences(text):
        for code in codes:
            if code not in _CAPTURE_RULES:
                continue
            captured = _capture_sentence(sentence, code)
            if captured is not None:
                return CapturedMemory(captured.kind, captured.content, detected)
    return None


_CARD_PREFIXES: Final[dict[str, tuple[str, str]]] = {
    "en": ("Reminder saved: ", "Task added: "),
    "fr": ("Rappel enregistré : ", "Tâche ajoutée : "),
    "el": ("Υπενθύμιση αποθηκεύτηκε: ", "Εργασία προστέθηκε: "),
    "es": ("Recordatorio guardado: ", "Tarea añadida: "),
    "de": ("Erinnerung gespeichert: ", "Aufgabe hinzugefügt: "),
    "it": ("Promemoria salvato: ", "Attività aggiunta: "),
    "pt": ("Lembrete salvo: ", "Tarefa adicionada: "),
}


def memory_card(captured: CapturedMemory) -> str:
    """Return the deterministic glasses card confirming a captured reminder or task."""
    base = _base_code(captured.language) or DEFAULT_LANGUAGE
    reminder, task = _CARD_PREFIXES.get(base, _CARD_PREFIXES[DEFAULT_LANGUAGE])
    prefix = task if captured.kind == KIND_TASK else reminder
    content = " ".join(captured.content.split()).strip()
    if content and content[-1] not in ".!?…;;":
        content += "."
    return shape_card(prefix + content)


# ---------------------------------------------------------------------------------------------
# Episode cues
# ---------------------------------------------------------------------------------------------

# One alternation, searched once per utterance (every final is checked for a cue).
_EPISODE_RE: Final = _compile(
    "|".join(
        f"(?:{p})"
        for p in (
            r"\bnew\s+(?:topic|subject|conversation)\b",
            r"\bchang(?:e|ing)\s+(?:of\s+|the\s+)?(?:subject|topic)s?\b",
            r"\bswitch(?:ing)?\s+(?:the\s+)?(?:topic|subject|gears)s?\b",
            r"\bstart\s+(?:over|again|afresh|fresh|from\s+scratch)\b",
            r"\b(?:different|another|next|other)\s+(?:topic|subject)\b",
            r"\b(?:talk|speak)\s+about\s+something\s+else\b",
            r"\blet'?s\s+move\s+on\b|^\W*moving\s+on\b|\bmoving\s+on\s+to\b",
            r"\bon\s+(?:a\s+different|another)\s+note\b",
            r"\bchang\w*\s+de\s+sujet\b",
            r"\bchangement\s+de\s+sujet\b",
            # "d'autre", and as transcription loses the apostrophe: "d autre", "dautre".
            r"\b(?:parl|pass)\w*\s+(?:à\s+|d['’]?\s*)autre\s+chose\b",
            r"\b(?:nouveau|autre)\s+sujet\b",
            r"\bsujet\s+suivant\b",
            r"\b(?:recommençons|on\s+recommence|reprenons\s+à\s+zéro)\b",
            r"^(?:\W*(?:alors|bon|euh|et|sinon|bref)\W+)*autre\s+chose\b",
            r"\bαλλ[αά]\w*\s+θ[εέ]μα\b",
            r"\bαλλαγ\w*\s+θ[εέ]ματ\w*",
            r"\b(?:νέο|καινούργιο|καινούριο|άλλο|διαφορετικό)\s+θέμα\b",
            r"\bμιλ\w+\s+για\s+κάτι\s+άλλο\b",
            r"\b(?:πάμε|ξεκινάμε|ξεκινήσουμε|ξαναρχίζουμε)\s+από\s+την\s+αρχή\b",
            r"\bcambi\w*\s+de\s+tema\b",
            r"\b(?:otro|nuevo)\s+tema\b",
            r"\bhabl\w+\s+de\s+otra\s+cosa\b",
            r"\b(?:empe[cz]\w*\s+de\s+nuevo|volvamos\s+a\s+empezar)\b",
            r"\b(?:ander\w*|neu\w*)\s+thema\b",
            r"\bthem(?:a|en)wechsel\b",
            r"\b(?:thema\s+wechseln|wechseln\s+wir\s+das\s+thema)\b",
            r"\b(?:reden|sprechen)\s+wir\s+über\s+etwas\s+anderes\b",
            r"\büber\s+etwas\s+anderes\s+(?:reden|sprechen)\b",
            r"\b(?:fangen\s+wir\s+(?:neu|von\s+vorne)\s+an|von\s+vorne)\b",
            r"\bcambi\w*\s+(?:argomento|discorso)\b",
            r"\b(?:nuovo|altro)\s+argomento\b",
            r"\bparliamo\s+(?:d'\s*altro|di\s+altro|di\s+qualcos'\s*altro)\b",
            r"\bricominciamo\b",
            r"\bmud\w*\s+de\s+assunto\b",
            r"\b(?:outro|novo)\s+assunto\b",
            r"\bfal\w+\s+de\s+outra\s+coisa\b",
            r"\b(?:recomeç\w+|começ\w+\s+de\s+novo)\b",
        )
    )
)


def episode_cue(text: str) -> bool:
    """Return True when the utterance explicitly announces a topic change or a fresh start."""
    if not text:
        return False
    folded = _fold_aligned(unicodedata.normalize("NFC", text))
    return _EPISODE_RE.search(folded) is not None


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------

_NAME_TITLES: Final = _fw(
    "mr mrs ms miss mister dr doctor prof professor sir madam madame m mme "
    "mlle monsieur mademoiselle maître pr herr frau fräulein sr sra srta señor señora "
    "señorita sig sigra signor signora signore signorina dott dottore dottoressa "
    "avv ing sra senhor senhora κ κος κα κυρ κύριος κυρία κύριε δρ"
)


def name_key(name: str) -> str:
    """Return a grouping key for a person's name across spelling, case, accents and titles."""
    text = unicodedata.normalize("NFC", name or "")
    text = re.sub(r"['’]s\b", "", text)
    words = [w.replace("'", "").replace("-", " ") for w in _WORD_RE.findall(_fold(text))]
    tokens = " ".join(words).split()
    while len(tokens) > 1 and tokens[0] in _NAME_TITLES:
        tokens = tokens[1:]
    return " ".join(tokens)


# ---------------------------------------------------------------------------------------------
# Meaningful speech
# ---------------------------------------------------------------------------------------------

_BACKCHANNEL_WORDS: Final = _fw(
    "uh um umm uhm hmm hm mm mmm mhm ah aha oh eh er erm huh ok okay k kk yeah yes yep yup "
    "ya yah no nope nah sure right alright cool fine great nice good wow thanks thank cheers "
    "bye hi hello hey indeed exactly totally absolutely true gotcha lol haha ha hehe "
    "oui ouais non bon ben bah euh hein voilà merci super génial parfait bien très "
    "d'accord accord ah bon salut bonjour coucou "
    "ναι όχι εντάξει οκ καλά μάλιστα ακριβώς σωστά ωραία ευχαριστώ α ε εε μμ αχ γεια "
    "vale sí si claro bueno gracias hola perfecto vale genial "
    "ja nein genau gut okay danke klar stimmt naja na hallo tschüss prima "
    "sì certo esatto grazie ciao va bene perfetto "
    "sim não claro obrigado obrigada beleza tá isso olá tchau"
)
_BACKCHANNEL_PHRASES: Final = _phrases(
    "i see|got it|of course|thank you|very good|no problem|sounds good|makes sense|"
    "fair enough|i know|me too|je vois|bien sûr|c'est ça|tout à fait|ah bon|pas de souci|"
    "pas de problème|je sais|moi aussi|va bene|de acuerdo|por supuesto|ya veo|está bien|"
    "muy bien|ach so|alles klar|tudo bem|tá bom|ta bom|com certeza|κατάλαβα|το ξέρω|"
    "φυσικά|και βέβαια"
)
_HESITATION_RE: Final = re.compile(
    r"^(?:u+h+|u+m+|h+m+|m+h?m+|a+h+|o+h+|e+h+|e+r+m*|e+|a+|ε+|α+|μ+|χμ+|ω+χ|α+χ|ha(?:ha)+|"
    r"he(?:he)+|ja+|ne+|si+|o+k+)$"
)


def is_meaningful(text: str) -> bool:
    """Return False for fillers, backchannels, tiny fragments and pure punctuation."""
    if not text or not _has_letters(text):
        return False
    words = [w for w in _words(unicodedata.normalize("NFC", text)) if _has_letters(w)]
    if not words:
        return False
    split: list[str] = []
    for word in words:
        split.extend(p for p in word.split("-") if p)
    if sum(len(w) for w in split) < 3:
        return False
    if all(w in _BACKCHANNEL_WORDS or _HESITATION_RE.match(w) for w in split):
        return False
    return tuple(words) not in set(_BACKCHANNEL_PHRASES)


# ---------------------------------------------------------------------------------------------
# Sensitive traits
# ---------------------------------------------------------------------------------------------

_SENSITIVE_STEMS: Final = (
    # health and disability
    "sick illness disease diabet cancer tumou tumor depress anxiet adhd autis autistic "
    "bipolar schizo dementia alzheimer parkinson epilep disabilit disabled handicap "
    "medicat therap psychiatr chronic addict alcoholi overweight obes hiv "
    "malad maladie diabét dépress anxi santé médicament toxicoman "
    "αρρωστ ασθεν καρκιν διαβητ καταθλιψ αγχ αναπηρ ψυχικ ψυχιατρ θεραπε υγει "
    "enferm depresi ansiedad discapacid medicament "
    "krank krebs depression angststör behindert behinderung gesundheit therapie medikament "
    "sucht süchtig "
    "malatt tumore disabil salute doença doente saúde "
    # religion
    "religi christianity muslim islam jewish judais hindu buddhis atheis catholic protestant "
    "evangelical mormon chrétien musulman juif juive cathol athée "
    "θρησκ χριστιαν μουσουλμ εβραι καθολικ αθεος αθεΐ "
    "cristian musulm judío judía católic ateo atea "
    "christlich christen jüdisch katholisch evangelisch "
    "ebreo ebrea cattolic ateo "
    # politics
    "politic democrat republican liberal conservative leftist left-wing right-wing socialis "
    "communis fascis nazi marxis anarchis "
    "politique gauchiste droitiste "
    "πολιτικ κομμουνιστ σοσιαλιστ φασιστ ψηφοφ "
    "izquierdista derechista política "
    "politisch partei wähler "
    "politic comunist fascist "
    # sexual orientation and gender identity
    "gay lesbian homosexual bisexual transgender queer sexual orientation "
    "lesbienne homosexuel bisexuel transgenre "
    "ομοφυλ γκέι λεσβ αμφιφυλ τρανς σεξουαλ "
    "lesbiana homosexual "
    "schwul lesbisch homosexuell bisexuell "
    "omosessual lesbica "
    # ethnicity and race
    "racial ethnic ethnicity immigrant refugee "
    "ethni racia immigré réfugié "
    "φυλή φυλετικ εθνοτ μεταναστ πρόσφυγ "
    "raza étnic inmigrant refugiad "
    "rasse ethnisch migrant einwanderer flüchtling "
    "razza etnia etnic immigrat "
    "raça étnic imigrant "
    # family status and pregnancy
    "pregnan married divorc widow "
    "enceinte grossesse divorc veuf veuve célibataire "
    "έγκυ εγκυμοσ παντρεμέν διαζευγ χωρισμέν χήρ ανύπαντρ "
    "embaraz casad divorci viud solter "
    "schwanger verheiratet geschieden verwitwet "
    "incinta sposat divorziat vedov nubile celibe "
    "grávida gravida casad divorciad viúv "
    # personality and motives
    "personality introvert extrovert narcissi arrogant lazy selfish manipulat insecure "
    "motive ulterior hidden agenda secretly intention "
    "personnalit introverti extraverti narciss paresseu égoïste arrière-pensée "
    "secrètement "
    "προσωπικότητ εσωστρεφ εξωστρεφ ναρκισσ αλαζον τεμπέλ εγωιστ κίνητρ κρυφ πρόθεσ "
    "personalidad introvertid extrovertid narcis perezos egoísta intención "
    "persönlichkeit introvertiert extrovertiert narziss faul egoist absicht heimlich "
    "personalità pigr egoista intenzion "
    "personalidade preguiços intenção"
)
_SENSITIVE_WORDS: Final = _fw(
    "ill gay trans lgbt lgbtq jew jews asian arab latino salud ledig ledige sick"
)
_SENSITIVE_RE: Final = re.compile(
    r"(?<!\w)(?:"
    + "|".join(sorted({re.escape(_fold(s)) for s in _SENSITIVE_STEMS.split()}, key=len)[::-1])
    + r")"
)
_SENSITIVE_PHRASES_RE: Final = _compile(
    r"\b(?:sexual\s+orientation|single\s+(?:mother|mom|father|dad|parent)|mental\s+health|"
    r"hidden\s+agenda|real\s+reason|skin\s+colou?r|de\s+gauche|de\s+droite|"
    r"(?:est|sont|être|suis|es|pas)\s+mariée?s?|"
    r"a\s+des\s+enfants|has\s+(?:kids|children)|έχει\s+παιδιά|tiene\s+hijos|hat\s+kinder)\b"
)


def mentions_sensitive_trait(text: str) -> bool:
    """Return True when the text infers or mentions a sensitive personal trait."""
    if not text:
        return False
    folded = _fold(unicodedata.normalize("NFC", text))
    if _SENSITIVE_RE.search(folded) or _SENSITIVE_PHRASES_RE.search(_fold_aligned(text)):
        return True
    return bool(set(_WORD_RE.findall(folded)) & _SENSITIVE_WORDS)


# ---------------------------------------------------------------------------------------------
# Local intent hints
# ---------------------------------------------------------------------------------------------

_WARNING_RE: Final = _compile(
    r"\b(?:danger\w*|careful|watch\s+out|look\s+out|caution|beware|warning|hazard\w*|"
    r"unsafe|toxic|poison\w*|emergency|don'?t\s+touch|attention|prudence|prudent\w*|"
    r"méfie[sz]?|gare\s+à|toxique|urgence|fais\s+gaffe|προσοχή|κίνδυν\w*|πρόσεχε|προσέξτε|"
    r"επικίνδυν\w*|τοξικ\w*|cuidado|peligro\w*|atención|precaución|ojo\s+con|vorsicht|achtung|"
    r"gefahr|gefährlich\w*|pass\s+auf|warnung|attenzione|pericol\w*|attento|attenta|"
    r"perigo\w*|atenção|cautela)\b"
)
_CORRECTION_RE: Final = _compile(
    r"(?:^\W*(?:(?:wait|well|oh|um+|uh+|so|hmm+|sorry|ok|okay|alors|euh|bon|ah|oh|ε+|"
    r"λοιπόν|pues|bueno|mira|also|na|allora|beh|então|bom|olha)\W+)*(?:actually|correction|no\s*,?\s+(?:it'?s|it\s+is|that'?s|that\s+was|it\s+was|"
    r"they\s+are|he\s+is|she\s+is)|en\s+fait|non\s*,?\s+(?:c'est|ce\s+n'est|il\s+est|elle\s+est)|"
    r"en\s+réalité|στην\s+πραγματικότητα|όχι\s*,?\s+(?:είναι|ήταν)|για\s+την\s+ακρίβεια|"
    r"en\s+realidad|de\s+hecho|no\s*,?\s+(?:es|era|son)\b|eigentlich|tatsächlich|"
    r"nein\s*,?\s+(?:es|das)\s+(?:ist|war)|in\s+realtà|veramente|no\s*,?\s+(?:è|era)\b|"
    r"na\s+verdade|não\s*,?\s+(?:é|era)\b))|"
    r"\b(?:that'?s\s+(?:not\s+(?:right|true|correct)|wrong|incorrect)|not\s+true|"
    r"i\s+meant|c'est\s+faux|ce\s+n'est\s+pas\s+(?:vrai|ça)|je\s+voulais\s+dire|"
    r"δεν\s+είναι\s+(?:σωστό|αλήθεια|έτσι)|λάθος|εννοούσα|eso\s+no\s+es\s+(?:cierto|verdad)|"
    r"quise\s+decir|das\s+stimmt\s+nicht|ich\s+meinte|non\s+è\s+vero|intendevo|"
    r"isso\s+não\s+é\s+verdade|quis\s+dizer)\b"
)
_DECISION_RE: Final = _compile(
    r"\b(?:let'?s\s+go\s+with|we(?:'ve|\s+have)?\s+decided|we'?ll\s+go\s+with|"
    r"we'?re\s+going\s+with|it'?s\s+decided|we\s+agreed|final\s+decision|decision\s+is|"
    r"on\s+part\s+sur|on\s+va\s+partir\s+sur|on\s+a\s+décidé|nous\s+avons\s+décidé|"
    r"c'est\s+décidé|on\s+choisit|va\s+pour|αποφασίσαμε|αποφασίστηκε|συμφωνήσαμε|"
    r"πάμε\s+με|κλείσαμε|decidimos|hemos\s+decidido|vamos\s+con|está\s+decidido|"
    r"quedamos\s+en|wir\s+haben\s+(?:uns\s+)?(?:entschieden|beschlossen)|"
    r"machen\s+wir\s+so|abbiamo\s+deciso|andiamo\s+con|è\s+deciso|optiamo\s+per|"
    r"vamos\s+com|está\s+decidido|ficou\s+decidido)\b"
)
_FACT_RE: Final = _compile(
    r"\b(?:the\s+(?:(?!(?:rest|test|guest|west|nest|request|forest|interest|contest|protest|"
    r"harvest|honest|modest|quest|chest|pest|vest|digest|manifest|arrest|suggest|invest)\b)"
    r"\w{2,}est|most|least|first|only)\b|"
    r"(?:is|was)\s+the\s+capital\s+of|capitale\s+d[eu']|πρωτεύουσα|capital\s+d[eoa]|"
    r"hauptstadt|capitale\s+di|invented\s+by|was\s+invented|founded\s+in|discovered\s+in|"
    r"born\s+in\s+\d|population|(?:le|la|les)\s+plus\s+\w+|(?:le|la)\s+premi(?:er|ère)|"
    r"(?:ο|η|το|οι)\s+πιο\s+\w+|(?:el|la|los|las)\s+más\s+\w+|(?:il|la)\s+più\s+\w+|"
    r"(?:o|a)\s+mais\s+\w+|(?:der|die|das)\s+\w+(?:ste|sten)\b|am\s+\w+sten\b|"
    r"\d+(?:[.,]\d+)?\s*(?:%|percent|per\s+cent|pour\s+cent|por\s+ciento|prozent|"
    r"per\s+cento|por\s+cento|τοις\s+εκατό|million|billion|millions|milliards?|"
    r"millones|millionen|milioni|milhões|εκατομμύρια|km|kilomet\w*|meters|mètres|"
    r"metros|meter|metri|miles)|\b(?:1[0-9]{3}|20[0-9]{2})\b)"
)
_JARGON_RE: Final = _compile(
    r"\b(?:protocol\w*|protokoll\w*|protocole\w*|πρωτόκολλ\w*|algorithm\w*|algorithme\w*|"
    r"algoritm\w*|αλγόριθμ\w*|encrypt\w*|chiffrement|κρυπτογράφ\w*|blockchain|kubernetes|"
    r"quantum|quantique|κβαντικ\w*|cuántic\w*|quanten\w*|quantistic\w*|quântic\w*|"
    r"machine\s+learning|deep\s+learning|neural\s+network|réseau\s+de\s+neurones|"
    r"νευρωνικ\w*|regression|régression|latency|latence|latenz|bandwidth|microservice\w*|"
    r"middleware|hashing|backpropagation|embedding\w*|vector\s+database|"
    r"transformer\s+model|oauth|jwt)\b"
)
_STANDARD_RE: Final = re.compile(r"\b(?:ISO|RFC|IEEE|EN|IEC|DIN|ANSI)\s?\d{2,6}")
_ACRONYM_RE: Final = re.compile(r"\b[^\W\d_]*[A-ZΑ-Ω]{2,}[^\W_]*\b")
_COMMON_ACRONYMS: Final = frozenset(
    {"OK", "TV", "USA", "US", "UK", "EU", "UN", "PM", "AM", "CEO", "PC", "ID", "OKAY", "DJ"}
)


def _has_acronym(text: str) -> bool:
    """Return True for an uppercase acronym or mixed-case technical token (RAG, OAuth, ΕΦΚΑ)."""
    tokens = _WORD_RE.findall(text)
    letters = [t for t in tokens if _has_letters(t)]
    if not letters:
        return False
    upper = [t for t in letters if t.isupper() and len(t) > 1]
    if len(upper) * 2 > len(letters) and len(letters) > 2:
        return False
    for token in letters:
        if token in _COMMON_ACRONYMS or len(token) > 12:
            continue
        if _ACRONYM_RE.fullmatch(token) and re.search(r"[A-ZΑ-Ω]{2,}", _strip_tonos(token)):
            return True
    return False


def _strip_tonos(text: str) -> str:
    """Remove diacritics keeping case (ΕΦΚΆ → ΕΦΚΑ)."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def local_signal(text: str, language: str | None = None) -> str | None:
    """Return a weak local intent hint (warning, correction, decision, definition, fact_check)."""
    del language  # the patterns cover every supported language at once
    if not text or not is_meaningful(text):
        return None
    text = unicodedata.normalize("NFC", text)
    folded = _fold_aligned(text)
    if _WARNING_RE.search(folded):
        return INTENT_WARNING
    if _CORRECTION_RE.search(folded):
        return INTENT_CORRECTION
    if _DECISION_RE.search(folded):
        return INTENT_DECISION
    if _has_acronym(text) or _STANDARD_RE.search(text) or _JARGON_RE.search(folded):
        return INTENT_DEFINITION
    if _FACT_RE.search(folded):
        return INTENT_FACT_CHECK
    return None
