"""Spoken times said in Greek: "στις επτά και μισή", "μεσάνυχτα", "σε 20 λεπτά", "αύριο".

Read by ``alarms/parse.py``. Regular-expression fragments are written in natural spelling and
matched against folded text in which number words are already digits ("επτά" → "7").
Tables map each fragment to its value.
"""

from __future__ import annotations

from typing import Final

# Before a clock time: "στις 7", "για τις 7".
PREPOSITIONS: Final = r"στις|για\s+τις|τις"
# Times said as a word, with their hour.
SPECIAL_TIMES: Final = {r"μεσημέρι": 12, r"μεσάνυχτα": 0}
# After the hour, minutes past it (or before it, negative): "επτά παρά τέταρτο".
FRACTIONS: Final = {r"και\s+μισή": 30, r"και\s+τέταρτο": 15, r"παρά\s+τέταρτο": -15}
# "Οκτώ παρά δέκα", "επτά και δέκα".
MINUS: Final = r"παρά"
PLUS: Final = r"και"
AM: Final = r"π\.?\s?μ\b\.?"
PM: Final = r"μ\.?\s?μ\b\.?"
# Part of the day said with the time ("στις 7 το βράδυ") or in the request.
PERIODS: Final = (
    r"αύριο\s+(?:το\s+πρωί|το\s+απόγευμα|το\s+βράδυ)|"
    r"το\s+πρωί|το\s+μεσημέρι|το\s+απόγευμα|το\s+βράδυ|τη\s+νύχτα|απόψε"
)
MORNING: Final = r"πρωί"
EVENING: Final = r"απόγευμα|βράδυ|μεσημέρι|μ\.?\s?μ"
NIGHT: Final = r"νύχτα|απόψε"
# After "στις επτά", the words that leave it an hour ("στις επτά αύριο").
AFTER_BARE_HOUR: Final = frozenset(
    {"αύριο", "σε", "παρακαλώ", "το", "την", "και", "για", "ακριβώς", "μου"}
)
# Delays: "σε 20 λεπτά", "σε μιάμιση ώρα", "σε τρία τέταρτα".
IN: Final = r"σε"
ONE: Final = r"μια|ένα"
AND: Final = r"και"
HALF: Final = r"μισή"
QUARTER: Final = r"τέταρτο"
MINUTES: Final = r"λεπτά|λεπτό"
HOURS: Final = r"η\s+ώρα|ώρες|ώρα"
HALF_HOUR: Final = r"μισή\s+ώρα|μισάωρο"
QUARTER_HOUR: Final = r"τέταρτο"
QUARTERS_OF_HOUR: Final = r"τέταρτα(?:\s+της\s+ώρας)?"
HOUR_AND_HALF: Final = r"μιάμιση\s+ώρα"
ONE_HOUR: Final = r"ώρα"
# Days: "σε 3 μέρες", "αύριο", "μεθαύριο".
DAYS: Final = r"μέρες|ημέρες"
TOMORROW: Final = r"αύριο"
DAY_AFTER_TOMORROW: Final = r"μεθαύριο"
TODAY: Final = r"σήμερα"
# A correction said on the way: "στις επτά, όχι, στις οκτώ".
CORRECTIONS: Final = r"(?:όχι\s+)+|συγγνώμη|εννοώ|δηλαδή"
# Words that may come before a time, a delay or a day where a label ends.
BEFORE_TIME: Final = r"για|το|την|τη|κάθε"
# "Ακόμα 5 λεπτά".
MORE: Final = r"ακόμα|ακόμη"
