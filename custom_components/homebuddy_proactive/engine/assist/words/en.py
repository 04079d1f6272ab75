"""The English words Assist listens for: numbers, weekdays, yes and no."""

from __future__ import annotations

from typing import Final

from .vocabulary import Vocabulary

VOCABULARY: Final = Vocabulary(
    number_units={
        "one": 1,
        "two": 2,
        "three": 3,
        "four": 4,
        "five": 5,
        "six": 6,
        "seven": 7,
        "eight": 8,
        "nine": 9,
        "ten": 10,
        "eleven": 11,
        "twelve": 12,
        "thirteen": 13,
        "fourteen": 14,
        "fifteen": 15,
        "sixteen": 16,
        "seventeen": 17,
        "eighteen": 18,
        "nineteen": 19,
    },
    number_tens={"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50},
    weekdays={
        "monday": 0,
        "tuesday": 1,
        "wednesday": 2,
        "thursday": 3,
        "friday": 4,
        "saturday": 5,
        "sunday": 6,
    },
    yes=frozenset(
        {
            "yes",
            "yeah",
            "yep",
            "yup",
            "sure",
            "ok",
            "okay",
            "confirm",
            "definitely",
            "absolutely",
            "certainly",
            "right",
        }
    ),
    yes_phrases=(
        "that's right",
        "that's it",
        "all right",
        "alright",
        "do it",
        "go ahead",
        "go on",
        "of course",
        "please do",
    ),
    no=frozenset({"no", "nope", "nah", "not", "cancel", "stop", "don't", "dont", "never"}),
    no_phrases=(
        "forget it",
        "never mind",
        "nevermind",
        # A yes word, then the negation: "certainly not".
        "certainly not",
        "absolutely not",
        "definitely not",
        "of course not",
        "surely not",
        "better not",
        "rather not",
        "i'd rather not",
    ),
    yes_despite_no=("no problem", "why not"),
    unsure_phrases=(
        "not sure",
        "not certain",
        "don't know",
        "dont know",
        "i don't know",
    ),
    fillers=frozenset({"uh", "um", "umm", "well", "so", "ah", "oh", "hmm"}),
)
