"""Feelings said in Greek that a caregiver may want to know about, by kind (see ``affect.py``).

Each fragment is an alternation written in natural spelling and matched against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

FEELINGS: Final[Mapping[str, str]] = {
    "fall": r"(?<!δεν )επεσα|δεν μπορω να σηκωθω",
    "pain": (
        r"(?<!δεν )\bποναω\b|(?<!δεν )(?<!δεν με )\b(?:με )?πονα(?:ει|νε)\b|"
        r"\bεχω (?:πονο|πονους|πονοκεφαλο)\b"
    ),
    "loneliness": (
        r"(?<!δεν )νιωθω (?:πολυ |τοσο )?(?:μοναξια|μονος|μονη|μοναχος|μοναχη)|"
        r"(?<!δεν )ειμαι (?:πολυ |τοσο )?(?:μονος|μονη|ολομοναχος|ολομοναχη)|"
        r"κανεις δεν (?:ερχεται|με παιρνει)"
    ),
    "fear": r"(?<!δεν )φοβαμαι|(?<!δεν )ανησυχω",
    "sadness": (
        r"(?<!δεν )ειμαι (?:πολυ )?(?:λυπημενος|λυπημενη|στενοχωρημενος|στενοχωρημενη)|"
        r"νιωθω (?:λυπη|θλιψη)|(?<!δεν )στενοχωριεμαι"
    ),
}
