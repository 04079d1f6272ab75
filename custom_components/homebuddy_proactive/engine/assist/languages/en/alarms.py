"""Alarm requests said in English: "set an alarm for 7", "cancel my alarm", "what alarms?".

Fragments of the patterns in ``alarms/commands.py``, written in natural spelling and matched
against folded text; ``<ALARM>`` stands for the alarm nouns of every language.
"""

from __future__ import annotations

from typing import Final

NOUN: Final = r"alarms?|alarm\s+clocks?"
# "The house alarm": the alarm system, never the alarm clock.
SECURITY: Final = r"house|home|security|burglar|intruder|system|panel|car"
# Before a verb, what makes the request a statement or about the past ("I set an alarm").
STATEMENT: Final = (
    r"(?<!can\s)(?<!could\s)(?<!should\s)(?<!may\s)(?<!shall\s)i|we|"
    r"he|she|they|i've|we've|i'd|i\s+have|i\s+had|had|has|already|"
    r"did\s+you|have\s+you|you\s+have|you've|used\s+to|usually|"
    # "My daughter wants me to set an alarm", "she asked me to …": reported, not asked.
    r"(?:wants|wanted|asked|told|said)\s+(?:me\s+|us\s+)?to"
)
POSSESSIVES: Final = r"my|his|her|our|their"
ENDEARMENTS: Final = r"dear|darling|love|friend|honey|sweet\w*|lovely"
STATEMENT_ADVERBS: Final = r"already\s+|just\s+"
NEGATED: Final = (
    r"\b(?:don'?t|do\s+not|never|didn'?t|doesn'?t)\s+(?:\w+\s+)?(?:wake|set|cancel|delete|"
    r"remove|turn\s+off)\b"
)
CANCEL_VERBS: Final = (
    r"cancel\w*|delete|remove|clear|turn\s+off|switch\s+off|shut\s+off|disable|stop|unset|"
    r"get\s+rid\s+of|erase|scrap"
)
# "Turn the alarm off".
CANCEL_AROUND: Final = r"\b(?:turn|switch|shut)\s+(?:\w+\s+){0,3}?<ALARM>\s+off\b"
NO_NEED: Final = (
    r"no\s+longer\s+(?:need|want)|don'?t\s+(?:need|want)|"
    r"do\s+not\s+(?:need|want)|won'?t\s+(?:need|want)|will\s+not\s+(?:need|want)"
)
LIST: Final = (
    r"(?:what|which)\s+(?:are\s+)?(?:my\s+|the\s+)?alarms?|"
    r"list\s+(?:my\s+|the\s+|all\s+)*alarms?|"
    r"(?:do\s+i\s+have|have\s+i\s+got|are\s+there|is\s+there|did\s+i\s+set|have\s+i\s+set)\s+"
    r"(?:any\s+|an\s+|a\s+|some\s+)?(?:other\s+)?alarms?|"
    r"(?:show|tell|read|give)\s+me\s+(?:all\s+)?(?:my\s+|the\s+)?alarms|"
    r"how\s+many\s+alarms|"
    r"(?:what\s+time|when)(?:'s|\s+is|\s+does|\s+will)\s+(?:my|the)\s+(?:next\s+)?alarm|"
    r"(?:what\s+time|when)\s+(?:my|the)\s+(?:next\s+)?alarm\s+(?:is|rings|goes\s+off|will)\b|"
    r"(?:what\s+time|when)\s+(?:did|have)\s+(?:you|i|we)\s+set\s+(?:my|the)\s+alarm|"
    r"is\s+(?:my|the|an)\s+alarm\s+(?:set|on)|check\s+(?:my|the)\s+alarms?"
)
SET_VERB: Final = (
    r"\bwake\s+(?:me|us)\b|\bget\s+me\s+up\b|\bbe\s+woken\b|"
    r"(?:(?<=\bneed\s)|(?<=\bhave\s)|(?<=\bwant\s)|(?<=\bgot\s))to\s+(?:wake|get)\s+up\s+"
    r"(?:at|by|around|tomorrow|in)\b|"
    r"\b(?:set|make|create|add|put|schedule|program|start)\s+(?:me\s+|up\s+)?"
    r"(?:an?\s+|my\s+|the\s+|one\s+|another\s+)?(?:new\s+)?alarm\b"
)
# What may come before the noun of a request ("please, alarm for 6:30").
NOUN_LEAD: Final = (
    r"ok|okay|oh|ah|hey|um+|uh+|so|well|please|dear|darling|alarm|an|a|the|my|one|new|"
    r"another|and|also|just|i\s+(?:want|need|would\s+like)|i'd\s+like|"
    r"give\s+me|can\s+i\s+have|could\s+i\s+have"
)
# Words that say the alarm already rang or is broken.
RANG: Final = r"went|go(?:es)?\s+off|rang|ring\w*|work\w*|broke\w*|was|were|yesterday|last\s+night"
GET_UP_WANT: Final = r"i\s+(?:need|have|want|must|would\s+like|got)|i'd\s+like|i've\s+got|i\s+gotta"
GET_UP: Final = r"(?:to\s+)?(?:be\s+up|get\s+up|be\s+awake|wake\s+up)"
ALL: Final = r"all|every"
# Labels: "… to take my pills".
LABEL_MARK: Final = r"to|for|called|named|labell?ed"
LABEL_SKIP: Final = frozenset({"wake", "get", "set", "be", "make", "that", "it", "alarm"})
LABEL_END: Final = r"please|thanks|thank\s+you"
