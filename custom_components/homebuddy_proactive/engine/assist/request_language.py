"""Which Assist language a request was spoken in: the answer follows the person, not the pipeline.

A French pipeline can hear "what alarms do I have?"; the answer is in English. The words decide:
letters only one Assist language is written in name it (:attr:`Vocabulary.script`: Greek);
otherwise the short words each language's requests are made of
(:attr:`Vocabulary.function_words`: "le", "est", "quelle" against "the", "what", "is") are
counted, and a clear majority wins. When they do not tell ("oui", "stop", "Léa"), the language
identifier decides if it is sure and the request has a few words; else the pipeline's language
(the hint) is kept, and English when the hint is a language Assist does not speak.
"""

from __future__ import annotations

import re
from typing import Final

from ..text import detect_language
from ..text.languages import ASSIST_LANGUAGES
from ..text.normalize import fold
from .phrases import spoken_language
from .words import VOCABULARY_BY_LANGUAGE

# Each language written in letters of its own, with those letters.
_SCRIPTS: Final = {
    code: re.compile(vocabulary.script)
    for code, vocabulary in VOCABULARY_BY_LANGUAGE.items()
    if vocabulary.script
}
_TOKEN_RE: Final = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
_PART_RE: Final = re.compile(r"['’-]")
_FUNCTION_WORDS: Final = {
    code: frozenset(fold(word) for word in vocabulary.function_words)
    for code, vocabulary in VOCABULARY_BY_LANGUAGE.items()
}
# The identifier alone decides only for a request of at least this many words.
MIN_IDENTIFIED_WORDS: Final = 3


def function_word_votes(text: str) -> dict[str, int]:
    """How many of the request's words (and of their parts: "qu'est-ce") are each Assist
    language's function words."""
    votes = dict.fromkeys(ASSIST_LANGUAGES, 0)
    for token in _TOKEN_RE.findall(fold(text.replace("’", "'"))):
        pieces = {token, *_PART_RE.split(token)}
        for code, words in _FUNCTION_WORDS.items():
            votes[code] += sum(1 for piece in pieces if piece in words)
    return votes


def request_language(text: str, hint: str | None = None) -> str:
    """The Assist language (a base code) ``text`` was said in; ``hint`` breaks ties."""
    hinted = spoken_language(hint)
    for code, script in _SCRIPTS.items():
        if script.search(text):
            return code
    votes = function_word_votes(text)
    ranked = sorted(votes.items(), key=lambda item: -item[1])
    (best, most), (_, second) = ranked[0], ranked[1]
    if most > second:
        return best
    if len(_TOKEN_RE.findall(text)) >= MIN_IDENTIFIED_WORDS:
        identified = detect_language(text)
        if identified in ASSIST_LANGUAGES and (most == 0 or votes[identified] == most):
            return identified
    return hinted
