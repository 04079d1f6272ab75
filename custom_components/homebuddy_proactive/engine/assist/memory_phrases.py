"""Remember and recall said out loud: "souviens-toi que …", "what do you know about Claire?".

The deterministic fast paths before the router. Each language's phrasings are in
``languages/<code>/memory.py``; the patterns join them, written in natural spelling and compiled
against folded text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from ..text.normalize import compile_folded
from .languages import each, either
from .matching import flatten
from .router import MAX_FACT, MAX_NAME

# Fillers said before the request in any language, and the assistant's own name.
_FILLERS: Final = rf"(?:homebuddy|{either('memory', 'FILLERS')})"
_SAVE_RE: Final = compile_folded(
    rf"(?s)^\W*(?:{_FILLERS}\W+)*"
    rf"(?:(?:{either('memory', 'SAVE_ASKING_LEAD')})?(?:{either('memory', 'SAVE_ASKING')})\s+"
    rf"(?:{either('memory', 'SAVE_ASKING_AFTER')})?)?"
    rf"(?:{either('memory', 'SAVE_VERBS')})"
    rf"\s*(?:{either('memory', 'SAVE_AFTER_VERB')})?"
    rf"(?:{either('memory', 'SAVE_FOR_ME')})?"
    rf"(?:{either('memory', 'SAVE_THAT')}|:\s*)(?P<fact>\S.*)$",
)
# Every language's recall phrasings; each names its subject in a group of its own.
_RECALL_RE: Final = compile_folded(either("memory", "RECALL"))
# Subjects that are no memory: "parle-moi de la météo", "tell me about yourself".
_NOT_SUBJECT_RE: Final = compile_folded(
    rf"(?:(?:{either('memory', 'NOT_SUBJECT_ARTICLES')})\s*)?"
    rf"(?:{either('memory', 'NOT_SUBJECT')})\b"
)
_SUBJECT_TAIL_RE: Final = compile_folded(rf"\s*(?:{either('memory', 'PLEASE')})\s*$")


def _original_span(original: str, folded: str, start: int, end: int) -> str:
    """Return the original spelling of a span found in the folded text (same lengths)."""
    if len(original) == len(folded):
        return original[start:end]
    return folded[start:end]


def match_memory_save(text: str) -> str | None:
    """Return the fact of "souviens-toi que …" / "remember that …", or None."""
    folded = flatten(text)
    match = _SAVE_RE.match(folded)
    if not match:
        return None
    fact = _original_span(text, folded, match.start("fact"), match.end("fact")).strip()
    fact = fact.rstrip(" .!")
    return fact[:MAX_FACT] or None


def match_memory_recall(text: str) -> str | None:
    """Return the subject of "qu'est-ce que tu sais sur Claire ?", or None."""
    folded = flatten(text)
    match = _RECALL_RE.search(folded)
    if not match:
        return None
    group = next(name for name, said in match.groupdict().items() if said)
    start, end = match.start(group), match.end(group)
    if _NOT_SUBJECT_RE.match(folded, start):
        return None
    if tail := _SUBJECT_TAIL_RE.search(folded, start, end):
        end = tail.start()
    subject = _original_span(text, folded, start, end)
    subject = subject.strip().rstrip(" ?;!.,")
    return subject[:MAX_NAME] or None


# The speaker's own words for themselves, as the reply says them back ("my sister Lea" is
# answered about "your sister Lea"), lower-case or capitalised.
_SAID_BACK: Final[dict[str, Mapping[str, str]]] = each("memory", "SAID_BACK")
_SAID_BACK_RE: Final = {
    language: re.compile(
        r"\b(" + "|".join(w for word in words for w in (word, word.capitalize())) + r")\b"
    )
    for language, words in _SAID_BACK.items()
}


def said_back(subject: str, language: str) -> str:
    """``subject`` as the assistant says it back to the speaker ("my sister" → "your sister")."""
    base = language.split("-", maxsplit=1)[0].lower()
    pattern, words = _SAID_BACK_RE.get(base), _SAID_BACK.get(base)
    if pattern is None or words is None:
        return subject

    def swap(match: re.Match[str]) -> str:
        word = match.group(1)
        other = words[word.lower()]
        return other.capitalize() if word[0].isupper() else other

    return pattern.sub(swap, subject)
