"""How alike two utterances are: content words, similarity and "the same question again".

Used to keep a card from repeating, to recognise a re-asked question (in other words, or with
"did you say…" and "again" added) and to give memory search its terms. Text is compared in its
folded form (:func:`.normalize.fold`).
"""

from __future__ import annotations

import re
from typing import Final

from .normalize import fold

_WORD_RE: Final = re.compile(r"\w+", re.UNICODE)
# Function words ignored when comparing questions and cards (en, fr, el, es, de, it, pt),
# with each language's "did you say" and "again", which a re-asked question adds.
_STOPWORD_TEXT: Final = """
a an the is are was were be been do does did to of in on at for and or but it this that what
when where who whom whose which why how should would could can will shall may might must we
you i he she they me my your our us did say said again tell please there here le la les un
une des du de et ou est sont que qui quoi quand où comment pourquoi quel quelle est-ce ce
cette je tu il elle nous vous ils on à au aux en dans pour par avec sur ο η το οι τα του της
των τον την και να σε με για από τι ποιος πότε πού πώς γιατί είναι el los las una unos y o
es que qué cuándo dónde cómo por para con der die das ein eine und oder ist sind was wann wo
wie warum wer zu mit für von il lo gli uno che chi cosa quando dove come perché per con di
da o os as um uma e ou é quem onde como porque com
dijiste dijo dices dice decías dit dis disais encore sagtest sagten gesagt sagst sagt
nochmal nochmals detto dici dicevi hai ancora disse disseste dizes diz novamente είπες
είπε είπατε λες ξανά πάλι ότι
"""


_STOPWORDS: Final = frozenset(fold(word) for word in _STOPWORD_TEXT.split())


def content_words(text: str) -> set[str]:
    """Return the folded content words of a text (function words removed)."""
    return {w for w in _WORD_RE.findall(fold(text)) if w not in _STOPWORDS and len(w) > 1}


def similarity(a: str, b: str) -> float:
    """Jaccard similarity of two texts' content words (0..1)."""
    wa, wb = content_words(a), content_words(b)
    if not wa or not wb:
        return 1.0 if fold(a).strip() == fold(b).strip() else 0.0
    return len(wa & wb) / len(wa | wb)


def containment(newer: str, older: str) -> float:
    """Share of ``newer``'s content words that ``older`` already had (0..1)."""
    wn, wo = content_words(newer), content_words(older)
    if not wn:
        return 0.0
    return len(wn & wo) / len(wn)


# What a question asks for, from its question words (en, fr, el, es, de, it, pt). Question
# words are function words for the comparison above, so without this "When does the train
# leave?" would repeat "Where does the train leave?". Multi-word forms are matched first
# ("what time" asks for a time, "how much" for a quantity); words that are also common
# conjunctions without their accent ("ou", "como") are left out.
_QUESTION_KINDS: Final = (
    (
        "time",
        r"what\s+time|(?:à|a)\s+quelle\s+heure|a\s+qu[ée]\s+hora|um\s+wie\s*viel\s+uhr|"
        r"a\s+che\s+ora|a\s+que\s+horas|τι\s+[ώω]ρα|when|quand|cu[áa]ndo|wann|quando|π[όο]τε",
    ),
    (
        "quantity",
        r"how\s+(?:much|many|long|far|often|old)|combien|cu[áa]nt[oa]s?|wie\s*viele?|"
        r"wie\s+lange?|quant[oaie]|π[όο]σ[οηαες]\w*",
    ),
    ("place", r"where|où|d[óo]nde|adónde|wo|wohin|woher|dove|onde|aonde|π[οό]ύ"),
    ("person", r"who|whom|qui|qui[ée]n(?:es)?|wer|wen|wem|chi|quem|ποι[οα]ς?|ποιοι"),
    ("reason", r"why|pourquoi|por\s*qu[ée]|warum|wieso|weshalb|perch[ée]|porqu[êe]|γιατ[ίι]"),
)
_QUESTION_KIND_RES: Final = tuple(
    (kind, re.compile(rf"(?<!\w)(?:{pattern})(?!\w)")) for kind, pattern in _QUESTION_KINDS
)


def question_kinds(text: str) -> frozenset[str]:
    """What ``text`` asks for: time, quantity, place, person, reason (possibly none)."""
    rest = text.casefold()
    found: set[str] = set()
    for kind, pattern in _QUESTION_KIND_RES:
        if pattern.search(rest):
            found.add(kind)
            rest = pattern.sub(" ", rest)  # "how much" is no "how", "what time" no "what"
    return frozenset(found)


def same_question(newer: str, older: str) -> bool:
    """Whether ``newer`` asks again what ``older`` asked, in other words.

    Two questions about the same things that ask for different kinds of answer (when vs
    where) are different questions.
    """
    if not (containment(newer, older) >= 0.75 and containment(older, newer) >= 0.5):
        return False
    newer_kinds, older_kinds = question_kinds(newer), question_kinds(older)
    return not (newer_kinds and older_kinds and newer_kinds.isdisjoint(older_kinds))
