"""Language identification: script first, then py3langid restricted to the supported languages.

A text written mostly in a non-Latin script is named by its script (Greek is "el"). Latin text
is identified by py3langid's naive Bayes model over byte n-grams, restricted to the languages
of :mod:`.languages` with normalised probabilities. A few spoken words are too little for the
model (it is often confidently wrong on them), so the evidence is judged by the number of words,
not by the probability: every language within a margin per word of the best one is plausible.
This module only scores: :func:`identify` returns the plausible languages, most likely first,
and the evidence behind them. Choosing among several plausible languages by which one's rules
read the text is the analysis' work (:func:`.analysis.detect_language`), above both this module
and the rules. The model is loaded once, on the first identification (importing numpy and
reading the model costs a few hundred milliseconds, so nothing is loaded at import);
:func:`load_identifier` loads it ahead of time, e.g. from an executor at start-up.
"""

from __future__ import annotations

import functools
import re
import struct
import threading
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, NamedTuple

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
# Runs of a script's characters, and of letters: counted by their lengths (a few runs are
# quicker to find than each of their characters).
_SCRIPT_RES: Final = tuple((re.compile(p + "+"), code) for p, code in _SCRIPT_LANGUAGES)
_LETTERS_RE: Final = re.compile(r"[^\W\d_]+")
_NON_LATIN_RE: Final = re.compile(r"[^\u0000-\u036f]")
_SCRIPT_EVIDENCE: Final = 10.0
# Log-likelihood (nats) per word a language may trail the best one by and stay plausible:
# the model misreads a few spoken words by up to ~3 nats a word, while a wrong language
# trails by 4 or more.
_MARGIN_PER_WORD: Final = 3.5
_WORD_RE: Final = re.compile(r"[^\W\d_]+")

_load_lock = threading.Lock()
_model: _Model | None = None
# Pieces of text (a word and the state the automaton enters it in) whose walk is remembered,
# and the longest piece remembered (a longer one is rare and walked each time).
_PIECE_CACHE_SIZE: Final = 16384
_PIECE_CACHED_LENGTH: Final = 40
# The packed sums of :class:`_Model`: units of 2**-23, a 64-bit lane per language.
_UNITS: Final = float(2**23)
_FROM_UNITS: Final = -1.0 / _UNITS  # a lane's sum back to a log-likelihood (exact)
_LANE_BITS: Final = 64


class _Model:
    """py3langid's model, read with its work per n-gram done once.

    py3langid walks a byte automaton over `` {text} `` and sums, for each language, the
    log-probabilities of the n-grams every visited state completes. Here the sums of each state
    are added up once, at load, and the walk over each space-separated piece of text, from the
    state it is entered in, is remembered with its sums and its words: an utterance costs a
    look-up per piece. The sums are exact, so their order does not matter and they equal
    py3langid's: the model's log-probabilities are float32 of magnitude 1 or more (multiples of
    2**-23), and every float64 sum of them below 2**30 is exact (an 8,000-character utterance
    sums to a few million at most).

    Being exact, each state's sums are kept as integers (in units of 2**-23, negated), all the
    languages' in one Python integer, 64 bits each: adding two states' integers adds every
    language's sum at once (a sum stays below 2**53: no lane carries into the next).
    """

    def __init__(self, identifier: LanguageIdentifier) -> None:
        import numpy  # loaded with the model, not at import (see the module's docstring)

        self.identifier = identifier
        self.codes: tuple[str, ...] = tuple(str(code) for code in identifier.nb_classes)
        self.nextmove = identifier.tk_nextmove
        ptc = numpy.asarray(identifier.nb_ptc)
        if ptc.dtype != numpy.float32 or float(numpy.abs(ptc).min()) < 1.0:
            raise ValueError("py3langid's log-probabilities are not float32 of magnitude >= 1")
        if float(ptc.max()) >= 0.0:
            raise ValueError("py3langid's log-probabilities are not all negative")
        # Each state's packed sums (0: the state completes no n-gram).
        self.state_sums: list[int] = [0] * (len(self.nextmove) >> 8)
        for state, features in identifier.tk_output.items():
            if features:
                sums = ptc[list(features)].astype(numpy.float64).sum(axis=0)
                self.state_sums[state] = sum(
                    int(-value * _UNITS) << (_LANE_BITS * lane)
                    for lane, value in enumerate(sums.tolist())
                )
        self.lanes = struct.Struct(f"<{len(self.codes)}Q")  # the lanes of packed sums
        self.space_state = self.nextmove[32]  # the state the text's leading space enters
        self.walk = functools.lru_cache(maxsize=_PIECE_CACHE_SIZE)(self._walk)

    def _walk(self, state: int, piece: str) -> tuple[int, int, int]:
        """Read ``piece`` and the space after it from ``state``: the packed sums of the n-grams
        completed on the way (0 if none is), the state reached, the words read."""
        nextmove, state_sums = self.nextmove, self.state_sums
        total = 0
        for byte in piece.lower().encode("utf8", errors="surrogatepass"):
            state = nextmove[(state << 8) + byte]
            total += state_sums[state]
        state = nextmove[(state << 8) + 32]
        total += state_sums[state]
        return total, state, len(_WORD_RE.findall(piece))

    def read(self, text: str) -> tuple[tuple[float, ...] | None, int]:
        """Each language's log-likelihood of `` {text.lower()} `` (None when the model knows
        none of its n-grams) and the number of words of ``text``.

        The same log-likelihoods as py3langid's ``instance2fv(text) @ nb_ptc``, without the
        class prior: the model's prior follows its training corpus sizes, not who speaks.
        """
        state = self.space_state
        total = self.state_sums[state]
        words = 0
        walk, walk_long = self.walk, self._walk
        # A piece's lowercase is the lowercase text's piece: no character lowercases across
        # a space (a final sigma looks no further than one).
        for piece in text.split(" "):
            read = walk if len(piece) <= _PIECE_CACHED_LENGTH else walk_long
            sums, state, count = read(state, piece)
            total += sums
            words += count
        if not total:
            return None, words
        lanes = self.lanes.unpack(total.to_bytes(self.lanes.size, "little"))
        return tuple(map(_FROM_UNITS.__mul__, lanes)), words


@functools.lru_cache(maxsize=64)
def _base_code(code: str | None) -> str | None:
    """Return the base language code of a hint such as "fr-FR" or "EL", or None."""
    if not code:
        return None
    base = re.split(r"[-_\s.]", code.strip().lower(), maxsplit=1)[0]
    return base if base.isalpha() and 2 <= len(base) <= 3 else None


def load_model() -> _Model:
    """Return the model of the supported languages, loading it once."""
    global _model  # noqa: PLW0603 - the one model, loaded on first use
    with _load_lock:
        if _model is None:
            from py3langid.langid import MODEL_FILE, LanguageIdentifier

            identifier = LanguageIdentifier.from_pickled_model(MODEL_FILE, norm_probs=True)
            identifier.set_languages(list(SUPPORTED_LANGUAGES))
            _model = _Model(identifier)
        return _model


def load_identifier() -> LanguageIdentifier:
    """Return the py3langid identifier of the supported languages, loading it once."""
    return load_model().identifier


def _script_language(text: str) -> str | None:
    """Return the language implied by a non-Latin script covering most letters, if any."""
    if not _NON_LATIN_RE.search(text):
        return None
    letters = sum(map(len, _LETTERS_RE.findall(text)))
    if not letters:
        return None
    for regex, code in _SCRIPT_RES:
        count = sum(map(len, regex.findall(text)))
        if count and count * 2 >= letters:
            return code
    return None


def _model_scores(text: str) -> tuple[tuple[float, ...], tuple[str, ...]] | None:
    """Return py3langid's log-likelihood of each supported language and the plausible ones.

    The plausible languages (most likely first) are those whose log-likelihood is within
    ``_MARGIN_PER_WORD`` of the best one's for each word of the text: a few words can be
    confidently misread, so the margin grows with the text's length, not with a probability.
    None when the model knows none of the text's n-grams.
    """
    model = _model or load_model()
    values, words = model.read(text)
    if values is None:
        return None  # no n-gram of the model in the text: only its prior would decide
    codes = model.codes
    floor = max(values) - _MARGIN_PER_WORD * max(1, words)
    plausible = [i for i, value in enumerate(values) if value >= floor]  # often one
    if len(plausible) > 1:
        plausible.sort(key=lambda i: (-values[i], codes[i] != DEFAULT_LANGUAGE))
    return values, tuple(codes[i] for i in plausible)


@functools.lru_cache(maxsize=256)
def _probabilities(values: tuple[float, ...]) -> Mapping[str, float]:
    """py3langid's normalised probability of each supported language, from its likelihoods."""
    import numpy  # loaded with the model

    model = _model or load_model()
    probabilities = model.identifier.norm_probs(numpy.array(values)).tolist()
    return MappingProxyType(dict(zip(model.codes, probabilities, strict=True)))


class Identification(NamedTuple):
    """The languages a text may be in and the evidence behind them."""

    plausible: tuple[str, ...]  # most likely first; never empty
    # The model's log-likelihood of each supported language, or a number: :data:`_SCRIPT_EVIDENCE`
    # for a script, 0.0 when the model knows none of the text's n-grams (and then every
    # supported language is plausible, the default one first).
    evidence: tuple[float, ...] | float


@functools.lru_cache(maxsize=256)
def identify(text: str) -> Identification:
    """Return the plausible languages of ``text``, most likely first, and their evidence.

    Cached: one utterance is identified for several rules (question, capture, episode cue).
    """
    script = _script_language(text)
    if script is not None:
        return Identification((script,), _SCRIPT_EVIDENCE)
    model = _model_scores(text) if _LETTER_RE.search(text) else None
    if model is None:
        others = tuple(code for code in SUPPORTED_LANGUAGES if code != DEFAULT_LANGUAGE)
        return Identification((DEFAULT_LANGUAGE, *others), 0.0)
    values, plausible = model
    return Identification(plausible, values)


def confidence(text: str) -> float:
    """The evidence for the most likely language of ``text``: the model's probability of it,
    :data:`_SCRIPT_EVIDENCE` for a script, 0.0 when the model knows nothing of the text."""
    plausible, evidence = identify(text)
    if isinstance(evidence, float):
        return evidence
    return _probabilities(evidence)[plausible[0]]
