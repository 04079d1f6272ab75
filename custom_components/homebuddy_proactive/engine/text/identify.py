"""Language identification: script first, then py3langid restricted to the supported languages.

A text written mostly in a non-Latin script is named by its script (Greek is "el"). Latin text
is identified by py3langid's naive Bayes model over byte n-grams, restricted to the languages
of :mod:`.languages` with normalised probabilities. The model is loaded once, on the first
identification (importing numpy and reading the model costs a few hundred milliseconds, so
nothing is loaded at import); :func:`load_identifier` loads it ahead of time, e.g. from an
executor at start-up. A client's language hint always wins over identification.
"""

from __future__ import annotations

import functools
import re
import threading
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final

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
# Runners-up whose probability is at least this share of the best one's also get their rules
# applied: identification of a few spoken words is often a near tie between related languages.
_CLOSE_SHARE: Final = 0.01
_NO_EVIDENCE: Final = 0.5

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


def _model_scores(text: str) -> dict[str, float] | None:
    """Return py3langid's probability of each supported language, or None without evidence."""
    identifier = _identifier or load_identifier()
    features = identifier.instance2fv(f" {text.lower()} ")  # the edges are word boundaries
    if not features.any():
        return None  # no n-gram of the model in the text: only its prior would decide
    # No class prior: the model's prior follows its training corpus sizes, not who speaks.
    probabilities = identifier.norm_probs(features @ identifier.nb_ptc)
    return {
        code: float(probability)
        for code, probability in zip(identifier.nb_classes, probabilities, strict=True)
    }


@functools.lru_cache(maxsize=256)
def _detect_scores(text: str) -> tuple[str, float, Mapping[str, float] | None]:
    """Return the best language, its evidence and the Latin-script scores (None for scripts).

    The evidence is the best language's probability (0.0 when the model knows none of the
    text's n-grams). Cached: one utterance is looked at by several rules (question, capture,
    episode cue).
    """
    script = _script_language(text)
    if script is not None:
        return script, _SCRIPT_EVIDENCE, None
    scores = _model_scores(text) if _LETTER_RE.search(text) else None
    if scores is None:
        return DEFAULT_LANGUAGE, 0.0, MappingProxyType(dict.fromkeys(SUPPORTED_LANGUAGES, 0.0))
    best = max(scores, key=lambda code: (scores[code], code == DEFAULT_LANGUAGE))
    return best, scores[best], MappingProxyType(scores)


def _detect(text: str) -> tuple[str, float]:
    """Return the best language for ``text`` and the evidence behind it."""
    best, evidence, _scores = _detect_scores(text)
    return best, evidence


def detect_language(text: str, hint: str | None = None) -> str:
    """Return the base language code of ``text``; a given hint ("fr-FR", "EL") always wins."""
    base = _base_code(hint)
    if base is not None:
        return base
    return _detect(text or "")[0]


def _rule_languages(text: str, language: str | None) -> list[str]:
    """Return the languages whose rules should be applied to ``text``, most likely first.

    The hinted language, then the identified one, then close runners-up; every supported
    language when there is neither a hint nor evidence.
    """
    hinted = _base_code(language)
    detected, evidence, scores = _detect_scores(text)
    ordered: list[str] = []
    for code in (hinted, detected):
        if code is not None and code not in ordered:
            ordered.append(code)
    if scores is not None and evidence > 0.0:
        close = sorted(
            (code for code, score in scores.items() if score >= evidence * _CLOSE_SHARE),
            key=lambda code: -scores[code],
        )
        ordered.extend(code for code in close if code not in ordered)
    if hinted is None and evidence < _NO_EVIDENCE:
        ordered.extend(code for code in SUPPORTED_LANGUAGES if code not in ordered)
    return ordered
