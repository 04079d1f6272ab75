"""Whether a text mentions or infers a sensitive personal trait (health, religion, politics…).

Cards and stored notes never assert such traits about the people in a conversation.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from .normalize import compile_folded as _compile
from .normalize import fold as _fold
from .normalize import fold_aligned as _fold_aligned
from .normalize import folded_words as _fw
from .segment import _WORD_RE

_SENSITIVE_STEMS: Final = (
    # health and disability
    "sick illness disease diabet cancer tumou tumor depress anxiet adhd autis autistic "
    "bipolar schizo dementia alzheimer parkinson epilep disabilit disabled handicap "
    "medicat therap psychiatr chronic addict alcoholi overweight obes hiv "
    "malad maladie diabét dépress anxi santé médicament toxicoman "
    "αρρωστ ασθεν καρκιν διαβητ καταθλιψ αγχ αναπηρ ψυχικ ψυχιατρ θεραπε υγει "
    "enferm depresi ansiedad discapacid medicament "
    "krank krebs depression angststör behindert behinderung gesundheit therapie medikament "
    "sucht süchtig "
    "malatt tumore disabil salute doença doente saúde "
    # religion
    "religi christianity muslim islam jewish judais hindu buddhis atheis catholic protestant "
    "evangelical mormon chrétien musulman juif juive cathol athée "
    "θρησκ χριστιαν μουσουλμ εβραι καθολικ αθεος αθεΐ "
    "cristian musulm judío judía católic ateo atea "
    "christlich christen jüdisch katholisch evangelisch "
    "ebreo ebrea cattolic ateo "
    # politics
    "politic democrat republican liberal conservative leftist left-wing right-wing socialis "
    "communis fascis nazi marxis anarchis "
    "politique gauchiste droitiste "
    "πολιτικ κομμουνιστ σοσιαλιστ φασιστ ψηφοφ "
    "izquierdista derechista política "
    "politisch partei wähler "
    "politic comunist fascist "
    # sexual orientation and gender identity
    "gay lesbian homosexual bisexual transgender queer sexual orientation "
    "lesbienne homosexuel bisexuel transgenre "
    "ομοφυλ γκέι λεσβ αμφιφυλ τρανς σεξουαλ "
    "lesbiana homosexual "
    "schwul lesbisch homosexuell bisexuell "
    "omosessual lesbica "
    # ethnicity and race
    "racial ethnic ethnicity immigrant refugee "
    "ethni racia immigré réfugié "
    "φυλή φυλετικ εθνοτ μεταναστ πρόσφυγ "
    "raza étnic inmigrant refugiad "
    "rasse ethnisch migrant einwanderer flüchtling "
    "razza etnia etnic immigrat "
    "raça étnic imigrant "
    # family status and pregnancy
    "pregnan married divorc widow "
    "enceinte grossesse divorc veuf veuve célibataire "
    "έγκυ εγκυμοσ παντρεμέν διαζευγ χωρισμέν χήρ ανύπαντρ "
    "embaraz casad divorci viud solter "
    "schwanger verheiratet geschieden verwitwet "
    "incinta sposat divorziat vedov nubile celibe "
    "grávida gravida casad divorciad viúv "
    # personality and motives
    "personality introvert extrovert narcissi arrogant lazy selfish manipulat insecure "
    "motive ulterior hidden agenda secretly intention "
    "personnalit introverti extraverti narciss paresseu égoïste arrière-pensée "
    "secrètement "
    "προσωπικότητ εσωστρεφ εξωστρεφ ναρκισσ αλαζον τεμπέλ εγωιστ κίνητρ κρυφ πρόθεσ "
    "personalidad introvertid extrovertid narcis perezos egoísta intención "
    "persönlichkeit introvertiert extrovertiert narziss faul egoist absicht heimlich "
    "personalità pigr egoista intenzion "
    "personalidade preguiços intenção"
)
_SENSITIVE_WORDS: Final = _fw(
    "ill gay trans lgbt lgbtq jew jews asian arab latino salud ledig ledige sick"
)
_SENSITIVE_RE: Final = re.compile(
    r"(?<!\w)(?:"
    + "|".join(sorted({re.escape(_fold(s)) for s in _SENSITIVE_STEMS.split()}, key=len)[::-1])
    + r")"
)
_SENSITIVE_PHRASES_RE: Final = _compile(
    r"\b(?:sexual\s+orientation|single\s+(?:mother|mom|father|dad|parent)|mental\s+health|"
    r"hidden\s+agenda|real\s+reason|skin\s+colou?r|de\s+gauche|de\s+droite|"
    r"(?:est|sont|être|suis|es|pas)\s+mariée?s?|"
    r"a\s+des\s+enfants|has\s+(?:kids|children)|έχει\s+παιδιά|tiene\s+hijos|hat\s+kinder)\b"
)


def mentions_sensitive_trait(text: str) -> bool:
    """Return True when the text infers or mentions a sensitive personal trait."""
    if not text:
        return False
    folded = _fold(unicodedata.normalize("NFC", text))
    if _SENSITIVE_RE.search(folded) or _SENSITIVE_PHRASES_RE.search(_fold_aligned(text)):
        return True
    return bool(set(_WORD_RE.findall(folded)) & _SENSITIVE_WORDS)
