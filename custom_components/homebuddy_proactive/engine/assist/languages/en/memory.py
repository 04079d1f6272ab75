"""Remember and recall said in English: "remember that …", "what do you know about Claire?".

Fragments of the patterns in ``memory_phrases.py``, written in natural spelling and matched
against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# Fillers said before the request, as speech-to-text writes them; vocatives ("dear, …").
FILLERS: Final = (
    r"hey|um+|uh+|so|well|oh|ah|ok|okay|just|and|also|please|"
    r"(?:my\s+)?dear|darling|love|sweetheart"
)
# "Can you …", said before the verb; "please" may come after.
SAVE_ASKING_LEAD: Final = ""
SAVE_ASKING: Final = (
    r"can\s+you|could\s+you|would\s+you|will\s+you|i\s+want\s+you\s+to|"
    r"i'd\s+like\s+you\s+to|i\s+would\s+like\s+you\s+to"
)
SAVE_ASKING_AFTER: Final = r"please\s+"
SAVE_VERBS: Final = (
    r"remember|don't\s+forget|do\s+not\s+forget|never\s+forget|keep\s+in\s+mind|"
    r"bear\s+in\s+mind|note\s+down|make\s+a\s+note|take\s+(?:a\s+)?note|memori[sz]e"
)
SAVE_AFTER_VERB: Final = r"well\s+|please\s+"
SAVE_FOR_ME: Final = r"for\s+me\s+"
SAVE_THAT: Final = r"that\s+"

# Each alternative names its subject in a group of its own (named after the language).
RECALL: Final = (
    r"\bwhat\s+(?:do|did)\s+you\s+(?:know|remember|recall)\s+(?:about|of)\s+(?P<en>[^?!.;]+)"
    r"|\bwhat\s+(?:did|have)\s+i\s+(?:tell|told)\s+you\s+about\s+(?P<en2>[^?!.;]+)"
    r"|\bwhat\s+you\s+(?:know|remember)\s+about\s+(?P<en3>[^?!.;]+)"
    r"|\bdo\s+you\s+(?:know|remember)\s+anything\s+about\s+(?P<en4>[^?!.;]+)"
    r"|\b(?:do|can)\s+you\s+(?:remember|recall)\s+(?:that\s+)?(?P<en5>[^?!.;]+)"
    r"|\btell\s+me\s+about\s+(?P<en6>[^?!.;]+)"
)
# Subjects that are no memory: "tell me about the weather", "tell me about yourself".
NOT_SUBJECT_ARTICLES: Final = r"the|a|an"
NOT_SUBJECT: Final = r"weather|news|yourself|you|your|something|anything|it|that|this|joke|story"
PLEASE: Final = r"please"
# The speaker's own words for themselves as the reply says them back ("my sister" → "your
# sister"); only possessives and object pronouns ("the US", "the mine" stay).
SAID_BACK: Final[Mapping[str, str]] = {
    "my": "your",
    "me": "you",
    "myself": "yourself",
    "our": "your",
    "us": "you",
}
