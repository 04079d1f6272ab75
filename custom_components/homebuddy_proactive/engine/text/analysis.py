"""One reading of an utterance: its language, then what every local rule decides about it.

The engine's final lane (and the partial lane, for the speech so far) reads an utterance
through :func:`analyse` and never runs a rule on the same text twice: the language and its
candidates are computed once, and each rule runs at most once, when its answer is first read
(a final captured as a reminder never needs the intent hint, a heuristic engine never reads it).
"""

from __future__ import annotations

import functools
import unicodedata
from dataclasses import dataclass, field

from .capture import CapturedMemory, _capture
from .identify import _evidence, _rule_languages, detect_language
from .normalize import fold_aligned as _fold_aligned
from .questions import _asks, is_question
from .segment import _has_letters
from .signals import _announces, _intent_hint, episode_cue, is_meaningful


@dataclass(frozen=True)
class UtteranceAnalysis:
    """What the local rules read in one utterance (see :func:`analyse`)."""

    text: str
    language: str  # base code; the client's hint, when it gave one, wins
    candidates: tuple[str, ...]  # languages whose rules read the text, most likely first
    _nfc: str = field(repr=False)
    _letters: bool = field(repr=False)

    @functools.cached_property
    def confidence(self) -> float:
        """The detector's evidence for its best guess (0 when nothing matched)."""
        return _evidence(self._nfc) if self._letters else 0.0

    @functools.cached_property
    def is_question(self) -> bool:
        """The utterance asks a question, with or without punctuation."""
        return self._letters and _asks(self._nfc, self.language, self.candidates)

    @functools.cached_property
    def captured(self) -> CapturedMemory | None:
        """A reminder or task request, cleaned, or None."""
        if not self._letters:
            return None

        def asks(sentence: str, code: str) -> bool:
            # A reminder is a request, not a question: one sentence is the utterance itself.
            if sentence == self._nfc and code == self.language:
                return self.is_question
            return is_question(sentence, code)

        return _capture(self._nfc, self.language, self.candidates, asks)

    @functools.cached_property
    def meaningful(self) -> bool:
        """Not a filler, backchannel, tiny fragment or pure punctuation."""
        return is_meaningful(self.text)

    @functools.cached_property
    def local_signal(self) -> str | None:
        """A weak intent hint (warning, correction, decision, …) of meaningful speech."""
        return _intent_hint(self._nfc, self._folded) if self.meaningful else None

    @functools.cached_property
    def episode_cue(self) -> bool:
        """The utterance announces a new topic or a fresh start (read on the stripped turn)."""
        stripped = self.text.strip()
        if stripped == self.text and self.text:
            return _announces(self._folded)
        return episode_cue(stripped)

    @functools.cached_property
    def _folded(self) -> str:
        return _fold_aligned(self._nfc)


def analyse(text: str, hint: str | None = None) -> UtteranceAnalysis:
    """Read ``text``: its language (``hint`` wins) and, on demand, each local rule's answer."""
    language = detect_language(text, hint)
    nfc = unicodedata.normalize("NFC", text)
    if not text or not _has_letters(text):
        return UtteranceAnalysis(text, language, (language,), nfc, False)
    rule_languages = _rule_languages(nfc, hint)
    candidates = (language, *(code for code in rule_languages if code != language))
    return UtteranceAnalysis(text, language, candidates, nfc, True)
