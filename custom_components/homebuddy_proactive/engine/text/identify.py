"""Language identification: script first, then py3langid restricted to the supported languages.

A text written mostly in a non-Latin script is named by its script (Greek is "el"). Latin text
is identified by py3langid's naive Bayes model over byte n-grams, restricted to the languages
of :mod:`.languages` with normalised probabilities. A few spoken words are too little for the
model (it is often confidently wrong on them), so the evidence is judged by the number of words,
not by the probability: every language within a margin per word of the best one is plausible,
its rules read the text, and the first plausible language whose question rule recognises the
text names it. The model is loaded once, on the first
identification (importing numpy and reading the model costs a few hundred milliseconds, so
nothing is loaded at import); :func:`load_identifier` loads it ahead of time, e.g. from an
executor at start-up. A client's language hint always wins over identification.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
import unicodedata
from collections import Counter
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Final

from .languages import DEFAULT_LANGUAGE, SUPPORTED_LANGUAGES

if TYPE_CHECKING:
    from py3langid.langid import LanguageIdentifier

_LETTER_RE: Final = re.compile(r"[^\W\d_]")
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
_SCRIPT_EVIDENCE: Final = 10.0
# Log-likelihood (nats) per word a language may trail the best one by and stay plausible:
# the model misreads a few spoken words by up to ~3 nats a word, while a wrong language
# trails by 4 or more.
_MARGIN_PER_WORD: Final = 3.5
_WORD_RE: Final = re.compile(r"[^\W\d_]+")

_load_lock = threading.Lock()
_identifier: LanguageIdentifier | None = None


def _base_code(code: str | None) -> str | None:
    """Return the base language code of a hint such as "fr-FR" or "EL", or None."""
    if not code:
        return None
    base = re.split(r"[-_\s.]", code.strip().lower(), maxsplit=1)[0]
    return base if base.isalpha() and 2 <= len(base) <= 3 else None


def load_identifier() -> LanguageIdentifier:
    """Return the py3langid identifier of the supported languages, loading it once."""
    global _identifier  # noqa: PLW0603 - the one model, loaded on first use
    with _load_lock:
        if _identifier is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            identifier = LanguageIdentifier.from_pickled_model(MODEL_FILE, norm_probs=True)
            identifier.set_languages(list(SUPPORTED_LANGUAGES))
            _identifier = identifier
        return _identifier


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


def _likelihoods(identifier: LanguageIdentifier, text: str) -> Any:
    """Each language's log-likelihood of ``text`` under the model, without the class prior.

    The same value as py3langid's ``instance2fv(text) @ nb_ptc``, computed over the few
    n-grams the text has rather than a dense vector of every feature of the model. No class
    prior: the model's prior follows its training corpus sizes, not who speaks.
    """
    import numpy  # loaded with the model, not at import (see the module's docstring)

    nextmove, output = identifier.tk_nextmove, identifier.tk_output
    # The automaton's walk, then the n-grams of every visited state counted in C: the same
    # counts, in the same order (of first appearance), as counting them at each step.
    visited: list[int] = []
    visit = visited.append
    state = 0
    for byte in text.encode("utf8", errors="surrogatepass"):
        state = nextmove[(state << 8) + byte]
        visit(state)
    counts = Counter(itertools.chain.from_iterable(filter(None, map(output.get, visited))))
    if not counts:
        return None
    rows = numpy.fromiter(counts.keys(), dtype=numpy.intp, count=len(counts))
    weights = numpy.fromiter(counts.values(), dtype=numpy.float64, count=len(counts))
    return weights @ identifier.nb_ptc[rows]


def _model_scores(text: str) -> tuple[dict[str, float], tuple[str, ...]] | None:
    """Return py3langid's probability of each supported language and the plausible ones.

    The plausible languages (most likely first) are those whose log-likelihood is within
    ``_MARGIN_PER_WORD`` of the best one's for each word of the text: a few words can be
    confidently misread, so the margin grows with the text's length, not with a probability.
    None when the model knows none of the text's n-grams.
    """
    identifier = _identifier or load_identifier()
    likelihoods = _likelihoods(identifier, f" {text.lower()} ")  # edges are word boundaries
    if likelihoods is None:
        return None  # no n-gram of the model in the text: only its prior would decide
    probabilities = identifier.norm_probs(likelihoods)
    codes = [str(code) for code in identifier.nb_classes]
    floor = float(likelihoods.max()) - _MARGIN_PER_WORD * max(1, len(_WORD_RE.findall(text)))
    order = sorted(range(len(codes)), key=lambda i: (-likelihoods[i], codes[i] != DEFAULT_LANGUAGE))
    plausible = tuple(codes[i] for i in order if likelihoods[i] >= floor)
    return dict(zip(codes, map(float, probabilities), strict=True)), plausible


@functools.lru_cache(maxsize=256)
def _detect_scores(
    text: str,
) -> tuple[str, float, Mapping[str, float] | None, tuple[str, ...]]:
    """Return the best language, its evidence, the Latin-script scores and the plausible ones.

    The evidence is the best language's probability (0.0 when the model knows none of the
    text's n-grams, and then every supported language is plausible); scripts have no scores.
    Among several plausible languages the first (most likely first) whose question or reminder
    rules recognise the text is the best. Cached: one utterance is looked at by several rules
    (question, capture, episode cue).
    """
    script = _script_language(text)
    if script is not None:
        return script, _SCRIPT_EVIDENCE, None, (script,)
    model = _model_scores(text) if _LETTER_RE.search(text) else None
    if model is None:
        zeros = MappingProxyType(dict.fromkeys(SUPPORTED_LANGUAGES, 0.0))
        return DEFAULT_LANGUAGE, 0.0, zeros, SUPPORTED_LANGUAGES
    scores, plausible = model
    best = plausible[0]
    if len(plausible) > 1:
        best = next((code for code in plausible if _recognised(text, code)), best)
    return best, scores[plausible[0]], MappingProxyType(scores), plausible


def _recognised(text: str, code: str) -> bool:
    """Whether the question or the reminder rules of language ``code`` alone read ``text``."""
    from .capture import _capture
    from .questions import _asks

    nfc = unicodedata.normalize("NFC", text)

    def asks(sentence: str, language: str) -> bool:
        return _asks(sentence, language, (language,))

    return asks(nfc, code) or _capture(nfc, code, (code,), asks) is not None


def _detect(text: str) -> tuple[str, float]:
    """Return the best language for ``text`` and the evidence behind it."""
    best, evidence, _scores, _plausible = _detect_scores(text)
    return best, evidence


def detect_language(text: str, hint: str | None = None) -> str:
    """Return the base language code of ``text``; a given hint ("fr-FR", "EL") always wins."""
    base = _base_code(hint)
    if base is not None:
        return base
    return _detect(text or "")[0]


def warm_up() -> None:
    """Load the model and identify once, so the first utterance is not slow (run off-loop)."""
    load_identifier()
    detect_language("is everything ready")


def _rule_languages(text: str, language: str | None) -> list[str]:
    """Return the languages whose rules should be applied to ``text``, most likely first.

    The hinted language and the identified one; without a hint, then the other plausible ones.
    """
    hinted = _base_code(language)
    detected, _evidence, _scores, plausible = _detect_scores(text)
    ordered: list[str] = []
    for code in (hinted, detected, *(plausible if hinted is None else ())):
        if code is not None and code not in ordered:
            ordered.append(code)
    return ordered
