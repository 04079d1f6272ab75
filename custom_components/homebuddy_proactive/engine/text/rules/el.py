"""Greek rules: when a spoken Greek clause asks a question, and which Greek requests
are reminders or tasks.

The surface every language module shares: ``is_question(body)`` (a clause after its fillers
were stripped), ``FILLERS``, ``TAGS`` (tag questions such as "right?"), ``CAPTURE_RULES``.
"""

from __future__ import annotations

import re
from typing import Final

from ..normalize import fold as _fold
from ..normalize import folded_words as _fw
from ..segment import _Body, _fillers, _phrases, _starts
from .base import KIND_REMINDER, KIND_TASK, _CaptureRule, _rule
from .common import _possible_if
from .romance import _skip_topic

_EL_TOPICS: Final = _fw(
    "εσύ εσείς εμείς τώρα μετά αύριο σήμερα απόψε και λοιπόν τελικά από για με μέχρι ως προς "
    "σε στο στη στην στον"
)


_EL_FILLERS: Final = _fillers(
    "λοιπόν ε εε εεε μμ α αχ και αλλά δηλαδή άκου άκουσε κοίτα βασικά ρε μωρέ οκ εντάξει "
    "συγγνώμη καλά ωραία ok okay hey so um uh uhm ehm"
)
_EL_WH_ALWAYS: Final = _fw(
    "ποιος ποια ποιο ποιοι ποιες ποιον ποιου ποιας ποιων ποιανού ποιανής μήπως άραγε "
    "ποιός ποιά ποιό"
)
_EL_WH_SCAN: Final = _fw("τι πόσο πόση πόσος πόσα πόσοι πόσες πόσους πόσων")
_EL_WH_NOTONOS: Final = _fw("που πως")
_EL_WH_OTHER: Final = _fw("πότε γιατί") | frozenset({"πού", "πώς"})
_EL_FIRST_PERSON_RE: Final = re.compile(r"(?:ω|ουμε|μαι|μαστε|ημουν|ημουνα)$")
_EL_VERB_RE: Final = re.compile(
    r"(?:ω|ει|εισ|ουμε|ουνε|ουν|ετε|ειτε|αι|ομαι|εσαι|εται|ονται|ηκε|ηκα|ηκεσ|ησε|ισε|ασε|"
    r"ευε|ανε|αμε|ατε|ησα|ισα|ασα)$"
)
_EL_VERB_WORDS: Final = _fw(
    "θα να δεν μην είναι ήταν έχει έχεις λες θες πας πάμε ξέρεις ξέρει γίνεται έγινε "
    "συμβαίνει κάνει κάνεις λέει είπες είπε έκανες έφυγε κάνουμε"
)
# "τι ώρα", "τι νέα": question phrases whose verb is often left out.
_EL_SCAN_ALWAYS: Final = _fw("ώρα νέα άλλο άλλα κάνεις λες γίνεται έγινε")
_EL_FEASIBLE: Final = _phrases(
    "λες να|νομίζεις ότι|νομίζεις πως|πιστεύεις ότι|πιστεύεις πως|θα ήθελα να μάθω|"
    "θέλω να μάθω|θα ήθελα να ξέρω|"
    "μπορώ|μπορείς|μπορείτε|μπορούμε|θα μπορούσα|θα μπορούσες|θα μπορούσε|θα μπορούσαμε|"
    "θα μπορούσατε|θα μπορούσαν|θα ήθελες|θα θέλατε|θα ήθελε|θα σε πείραζε|θα σας πείραζε|"
    "θα ήταν δυνατόν|θα ήταν εύκολο|ξέρεις|ξέρετε|ξέρει κανείς|ξέρει κανένας|θέλεις|"
    "θέλετε|θες|γίνεται να|υπάρχει κάποιο|υπάρχει κάποια|υπάρχει κάποιος|υπάρχει κανένα|"
    "υπάρχει καμία|υπάρχει κανένας|υπάρχει περίπτωση|υπάρχουν|έχεις ιδέα|έχετε ιδέα|"
    "έχεις χρόνο|έχετε χρόνο|σε πειράζει|σας πειράζει|μου λες|μου λέτε|μου δίνεις|"
    "μου δίνετε|μας λέτε|μας λες|με βοηθάς|με βοηθάτε|είναι δυνατόν|είναι εντάξει αν|"
    "αναρωτιέμαι|πες μου|πείτε μου|είδες|είδατε|άκουσες|έχεις|έχετε|θα γινόταν να|"
    "επιτρέπεται να|θα ήταν εντάξει αν|υπάρχει τρόπος"
)
_EL_FEASIBLE_BLOCK: Final = _fw("δίκιο λάθος")
_EL_TELL_FIRST: Final = _fw("πες πείτε")
_EL_TELL_FOLLOW: Final = _fw(
    "τι πού που πώς πως πότε ποτε γιατί αν ποιος ποια ποιο ποιοι ποιον πόσο πόσα πόσοι πόσες "
    "πόση ποιες ποιους"
)
_EL_THIRD_CAN: Final = _fw("μπορούσε")
_EL_EPISTEMIC: Final = _fw("είναι ήταν γίνει συμβεί πάει βρέξει")
_EL_TAGS: Final = frozenset(
    {
        ("έτσι",),
        ("σωστά",),
        ("έτσι", "δεν", "είναι"),
        ("δεν", "είναι"),
        ("εσύ",),
        ("εσείς",),
    }
)
_EL_TAGS_FOLDED: Final = frozenset(tuple(_fold(w) for w in tag) for tag in _EL_TAGS)


def is_question(body: _Body) -> bool:
    """Greek spoken-question rules (tonos distinguishes πού/πώς from που/πως)."""
    if not body.words:
        return False
    body = _skip_topic(body, _EL_TOPICS, _EL_WH_ANY)
    words, raw = body.words, body.raw
    first = words[0]
    rest = words[1:]
    if first in _EL_WH_ALWAYS:
        return True
    if raw[0] in {"πού", "πώς"}:
        return rest[:2] not in ((_fold("και"), _fold(raw[0])),)
    if first in _EL_WH_NOTONOS and not body.clause.accented and body.clause.index == 0:
        return True
    if first == _fold("πότε"):
        if raw[0] == "ποτέ":
            return False
        return not (raw[0] == "ποτε" and rest[:1] == (_fold("δεν"),))
    if first == _fold("γιατί"):
        if not rest:
            return True
        if rest[0] in {_fold("δεν"), _fold("να"), _fold("θα")}:
            return True
        return not (rest[0] == _fold("εγώ") or _EL_FIRST_PERSON_RE.search(rest[0]))
    if first in _EL_WH_SCAN:
        if rest and rest[0] in _EL_SCAN_ALWAYS:
            return True
        for index, word in enumerate(rest):
            if word == _fold("που"):
                return False
            if word in _EL_VERB_WORDS or (index > 0 and _EL_VERB_RE.search(word)):
                return True
            if index == 0 and _EL_VERB_RE.search(word):
                return True
        return False
    feasible = _starts(words, _EL_FEASIBLE)
    if not feasible or body.answered or _possible_if(words, feasible):
        return False
    after = words[feasible:]
    if words[0] in _EL_TELL_FIRST and after and after[0] not in _EL_TELL_FOLLOW:
        return False  # "πες μου όταν είσαι έτοιμος" is a request, "πες μου πού" asks
    if (
        words[feasible - 1] in _EL_THIRD_CAN
        and after[:1] == (_fold("να"),)
        and after[1:2]
        and after[1] in _EL_EPISTEMIC
    ):
        return False  # "θα μπορούσε να είναι χειρότερα": "it could be worse"
    return not (after and after[0] in _EL_FEASIBLE_BLOCK)


CAPTURE_RULES: Final[tuple[_CaptureRule, ...]] = (
    _rule(
        KIND_REMINDER,
        r"(?:(?:μπορείς|μπορείτε|θα\s+μπορούσες|θα\s+μπορούσατε)\s+να\s+(?:μου|μας)\s+"
        r"(?:το\s+)?(?:θυμίσεις|θυμίσετε)|(?:θύμισε|θύμησε|θυμίστε|θυμήστε)\s+(?:μου|μας)|"
        r"να\s+(?:μου|μας)\s+(?:το\s+)?(?:θυμίσεις|θυμίσετε))\s+"
        r"(?:ότι\s+|πως\s+|για\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_REMINDER,
        r"μη(?:ν)?\s+με\s+αφήσεις\s+να\s+ξεχάσω\s+(?:ότι\s+|πως\s+)?(?P<c>.+)",
    ),
    _rule(KIND_REMINDER, r"(?:θυμήσου|θυμηθείτε)\s+(?:να\s+|ότι\s+)(?P<c>.+)"),
    _rule(
        KIND_REMINDER,
        r"(?:να\s+)?μη(?:ν)?\s+ξεχάσω\s+(?:ότι\s+|πως\s+)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"μη(?:ν)?\s+ξεχάσεις\s+(?:να\s+μου\s+θυμίσεις\s+)?(?:ότι\s+|πως\s+)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:θα\s+)?(?:πρέπει|θέλω|χρειάζεται)\s+να\s+θυμηθώ\s+(?:ότι\s+|πως\s+)?(?P<c>.+)",
    ),
    _rule(
        KIND_REMINDER,
        r"(?:βάλε|κάνε|φτιάξε|πρόσθεσε|όρισε)\s+(?:μου\s+)?(?:μια\s+|μία\s+)?υπενθύμιση\s+"
        r"(?:για\s+|ότι\s+|πως\s+)?(?P<c>.+)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:πρόσθεσε|βάλε|γράψε)\s+(?P<c>.+?)\s+(?:στη|στην|στο|στις)\s+"
        r"(?P<l>λίστα(?:\s+(?:για|με|των|του|της|αγορών|ψωνιών)(?:\s+[\w]+){0,2})?)",
        question=True,
    ),
    _rule(
        KIND_TASK,
        r"(?:θα\s+)?(?:πρέπει|χρειάζεται)\s+(?:οπωσδήποτε\s+|επίσης\s+|ακόμα\s+|σίγουρα\s+)?"
        r"(?P<c>να\s+.+)",
        task=True,
    ),
)

FILLERS: Final = _EL_FILLERS
TAGS: Final = _EL_TAGS_FOLDED


# Unions the rules above read, made once.
_EL_WH_ANY: Final = _EL_WH_ALWAYS | _EL_WH_SCAN | _EL_WH_OTHER
