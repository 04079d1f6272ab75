"""Alarm requests said in Greek: "ξύπνα με στις 7", "ακύρωσε το ξυπνητήρι", "ποια ξυπνητήρια;".

Fragments of the patterns in ``alarms/commands.py``, written in natural spelling and matched
against folded text.
"""

from __future__ import annotations

from typing import Final

NOUN: Final = r"ξυπνητηρι\w*"
# "Ο συναγερμός": the alarm system, never the alarm clock.
SECURITY: Final = r"συναγερμ\w*"
# Before a verb, what makes the request a statement or about the past.
STATEMENT: Final = r"εχω|ειχα|εχεις"
STATEMENT_ADVERBS: Final = r"ηδη\s+"
NEGATED: Final = r"\bμη\s*ν?\s+(?:με\s+)?(?:ξυπν|βαλ|ακυρ|σβησ)\w*"
CANCEL_VERBS: Final = r"ακυρ\w*|σβησ\w*|σβηστ\w*|διαγραψ\w*|κλεισ\w*|βγαλ\w*|σταματ\w*"
NO_NEED: Final = r"δεν\s+(?:το\s+)?(?:χρειαζομαι|θελω)"
LIST: Final = (
    r"(?:ποια|τι|ποσα)\s+ξυπνητηρια|"
    r"εχω\s+(?:βαλει\s+)?(?:κανενα\s+|καποιο\s+|ενα\s+)?ξυπνητηρι(?!\s+(?:στις|για))|"
    r"υπαρχ\w+\s+(?:κανενα\s+|καποιο\s+)?ξυπνητηρι|"
    r"(?:τι\s+ωρα|ποτε)\s+(?:ειναι|χτυπαει|θα\s+χτυπησει)\s+το\s+ξυπνητηρι|"
    r"(?:πες|δειξε|διαβασε)\s+μου\s+(?:ολα\s+)?(?:τα\s+)?ξυπνητηρια"
)
SET_VERB: Final = (
    r"\bξυπν\w*\s+με\b|\bμε\s+ξυπν\w*|\b(?:θελω|θα\s+ηθελα)\s+να\s+ξυπνησω\b|"
    r"\b(?:βαλε|βαλτε|ρυθμισε|ρυθμιστε|φτιαξε|κανε|ορισε|προγραμματισε)\s+(?:μου\s+)?"
    r"(?:ενα\s+|το\s+)?(?:νεο\s+)?ξυπνητηρι"
)
# What may come before the noun of a request.
NOUN_LEAD: Final = r"λοιπον|ε+|σε\s+παρακαλω|παρακαλω|ενα|το|μου|νεο|θελω|θα\s+ηθελα"
# Words that say the alarm already rang or is broken.
RANG: Final = r"ηταν|χτυπ\w*|χθες|χτες|δουλευ\w*"
GET_UP_WANT: Final = r"θελω|θα\s+ηθελα|πρεπει|χρειαζεται"
GET_UP: Final = r"να\s+(?:σηκωθω|ξυπνησω)"
ALL: Final = r"ολα"
# Labels: "… για τα φάρμακα".
LABEL_MARK: Final = r"για\s+να|για"
LABEL_SKIP: Final = frozenset({"με", "μας", "ξυπνησεις", "ξυπνητηρι"})
LABEL_END: Final = r"σε\s+παρακαλω|παρακαλω|ευχαριστω"
