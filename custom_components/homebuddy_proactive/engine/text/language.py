"""Which language an utterance is in, and which languages' rules should read it.

Non-Latin scripts decide at once; Latin-script text is scored by function words, accented
spellings, letters and suffixes. A hint from the client ("fr-FR") always wins.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

from .languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES
from .normalize import fold as _fold
from .normalize import folded_words as _fw
from .normalize import unify_typography as _unify
from .segment import _LETTER_RE, _WORD_RE

if TYPE_CHECKING:
    from .questions import is_question

__all__ = ["DEFAULT_LANGUAGE", "SUPPORTED_LANGUAGES", "detect_language", "is_question"]


def _base_code(code: str | None) -> str | None:
    """Return the base language code of a hint such as "fr-FR" or "EL", or None."""
    if not code:
        return None
    base = re.split(r"[-_\s.]", code.strip().lower(), maxsplit=1)[0]
    return base if base.isalpha() and 2 <= len(base) <= 3 else None


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


def __getattr__(name: str) -> object:
    """``is_question`` stays importable from here (the Home Assistant agent imports it so)."""
    if name == "is_question":
        from .questions import is_question

        return is_question
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
