"""Reminders and tasks spoken to the assistant ("remind me to call Anna", "add milk to the list").

Each language's patterns live in ``rules/<code>.py`` (``CAPTURE_RULES``); this module splits an
utterance into sentences, applies them, rejects questions and figures of speech ("I have to
say…"), and cleans the captured content. Which languages' rules to apply, and how to tell a
question, are the caller's to say: :func:`.analysis.capture_memory` reads an utterance in its
identified language and the other plausible ones.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from .normalize import compile_folded as _compile
from .normalize import fold as _fold
from .normalize import fold_aligned as _fold_aligned
from .normalize import folded_set as _fs
from .normalize import folded_words as _fw
from .rules import RULES
from .rules.base import _CaptureRule
from .segment import _has_letters, _phrases, _starts, _words


@dataclass(frozen=True, slots=True)
class CapturedMemory:
    """A reminder or task captured from an utterance, ready to be stored and shown."""

    kind: str  # "reminder" | "task"
    content: str
    language: str


_CAPTURE_FILLERS_RE: Final = _compile(
    r"(?:(?:ok(?:ay)?|so|and|um+|uh+|hey|oh|well|also|alright|right|please|alors|bon|ben|euh|"
    r"et|donc|ah|λοιπόν|ε+|και|εντάξει|pues|bueno|y|oye|mira|vale|und|na|naja|ach|ja(?=\s*,)|"
    r"allora|e|beh|senti|então|bom|olha|homebuddy|assistant)\b[\s,]*)+"
)

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
_CAPTURE_SENTENCE_RE: Final = re.compile(r"(?<=[.!?;;。！？])\s+|\n+")
_CAPTURE_BREAK_RE: Final = re.compile(r"[.!?;;。！？]\s|\n")  # where one of them splits
_ABBREVIATION_DOT_RE: Final = re.compile(
    r"\b(?:Dr|Mr|Mrs|Ms|St|Mme|Mlle|Pr|Prof|Sr|Sra|Hr|Fr|Dott|κ|Κ|vs|etc)\.\s",
)


@functools.lru_cache(maxsize=256)
def _capture_sentences(text: str) -> tuple[str, ...]:
    """Split text into sentences for capture, keeping abbreviations such as "Dr." intact.

    Cached: choosing the language reads an utterance with each plausible language's rules,
    its analysis then with its candidates'.
    """
    if _CAPTURE_BREAK_RE.search(text) is None:
        # No sentence break and no abbreviation (its dot is followed by white space).
        return (text.replace("\x00", ".").strip(),) if _has_letters(text) else ()
    protected = _ABBREVIATION_DOT_RE.sub(lambda m: m.group().replace(". ", "\x00 "), text)
    parts = _CAPTURE_SENTENCE_RE.split(protected)
    return tuple(p.replace("\x00", ".").strip() for p in parts if p and _has_letters(p))


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


# Whether a sentence asks a question, in a given language: reminders are requests, not questions.
_Asks = Callable[[str, str], bool]


def _any_rule(rules: Sequence[_CaptureRule]) -> re.Pattern[str]:
    """One pattern matching where any of ``rules`` matches (their groups made anonymous)."""
    return re.compile(
        "|".join(f"(?:{_NAMED_GROUP_RE.sub('(?:', rule.pattern.pattern)})" for rule in rules)
    )


_NAMED_GROUP_RE: Final = re.compile(r"\(\?P<\w+>")
# Per language, whether any of its capture rules matches: most sentences match none, and one
# alternation tried in C is several times quicker than each rule in turn.
_ANY_RULE: Final = {code: _any_rule(rules.capture) for code, rules in RULES.items()}


def _capture_sentence(
    sentence: str, folded: str, language: str, asks: _Asks
) -> CapturedMemory | None:
    """Try the capture rules of ``language`` on one sentence (``folded``: its aligned fold)."""
    lead = _CAPTURE_FILLERS_RE.match(folded)
    offset = lead.end() if lead else 0
    if _ANY_RULE[language].match(folded, offset) is None:
        return None
    question: bool | None = None
    for rule in RULES[language].capture:
        match = rule.pattern.match(folded, offset)
        if match is None:
            continue
        content = _clean_content(sentence[match.start("c") : match.end("c")])
        if not _has_letters(content) or _fold(content) in _EMPTY_CONTENT:
            continue
        if not rule.allow_question:
            if question is None:
                question = asks(sentence, language)
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


def _capture(
    text: str, detected: str, candidates: Sequence[str], asks: _Asks
) -> CapturedMemory | None:
    """Apply the capture rules of ``detected``, then of the other ``candidates``, to NFC text."""
    codes = [detected] + [c for c in candidates if c != detected]
    for sentence in _capture_sentences(text):
        folded = _fold_aligned(sentence)
        for code in codes:
            if code not in RULES:
                continue
            captured = _capture_sentence(sentence, folded, code, asks)
            if captured is not None:
                return CapturedMemory(captured.kind, captured.content, detected)
    return None
