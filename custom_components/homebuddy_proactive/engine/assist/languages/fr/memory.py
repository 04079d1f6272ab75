"""Remember and recall said in French: "souviens-toi que …", "qu'est-ce que tu sais sur Claire ?".

Fragments of the patterns in ``memory_phrases.py``, written in natural spelling and matched
against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# Fillers an older person says before the request, as speech-to-text writes them; vocatives
# ("ma petite, retiens que …").
FILLERS: Final = (
    r"e+u+h+|h?e+u+|hum+|alors|bon|ben|bah|dis|dites|ecoute|ecoutez|tiens|ok|okay|et|aussi|"
    r"s'il\s+(?:te|vous)\s+plait|"
    r"ma\s+petite|mon\s+petit|ma\s+belle|ma\s+cherie|mon\s+cheri|mon\s+ami|ma\s+grande"
)
# "Tu peux …", said before the verb; "est-ce que" may come first, "bien" after.
SAVE_ASKING_LEAD: Final = r"est\s+ce\s+que\s+"
SAVE_ASKING: Final = (
    r"tu\s+peux|tu\s+pourrais|peux\s+tu|pourrais\s+tu|vous\s+pouvez|"
    r"pouvez\s+vous|pourriez\s+vous|vous\s+pourriez|tu\s+veux\s+bien|vous\s+voulez\s+bien|"
    r"veux\s+tu|voulez\s+vous|(?:je\s+(?:veux|voudrais)|j'aimerais)\s+que\s+(?:tu|vous)|"
    r"(?:il\s+)?(?:faut|faudrait)\s+que\s+(?:tu|vous)"
)
SAVE_ASKING_AFTER: Final = r"bien\s+"
SAVE_VERBS: Final = (
    r"souviens\s+toi|souvenez\s+vous|te\s+souvenir|vous\s+souvenir|te\s+souviennes|"
    r"vous\s+souveniez|vous\s+rappeliez|te\s+rappelles|notiez|"
    r"rappelle\s+toi|rappelez\s+vous|te\s+rappeler|retiens|retenez|retenir|retiennes|reteniez|"
    r"n'oublie\s+pas|n'oubliez\s+pas|oublie\s+pas|oubliez\s+pas|ne\s+pas\s+oublier|"
    r"notes?|notez|noter|prends\s+note|prenez\s+note|prendre\s+note|"
    r"gardez?\s+en\s+memoire|garder\s+en\s+memoire|enregistre|memorise|memoriser|saches"
)
SAVE_AFTER_VERB: Final = r"bien\s+|s'il\s+te\s+plait\s+"
SAVE_FOR_ME: Final = r"pour\s+moi\s+"
SAVE_THAT: Final = r"que\s+|qu'"

_SUBJECT: Final = r"(?:de\s+|d'|du\s+|des\s+)?\s*"
# Each alternative names its subject in a group of its own (named after the language).
RECALL: Final = (
    # "Qu'est-ce que tu sais sur Claire ?", "que sais-tu de mon fils", "ce que tu as retenu sur …"
    r"(?:qu'est\s*ce\s+que|que|qu'?)\s*(?:tu\s+sais|vous\s+savez|sais\s+tu|savez\s+vous|"
    r"tu\s+te\s+souviens|vous\s+vous\s+souvenez|tu\s+te\s+rappelles|tu\s+as\s+retenu|"
    r"vous\s+avez\s+retenu|tu\s+connais|tu\s+te\s+rappelles)\s+"
    r"(?:sur|a\s+propos|au\s+sujet|concernant|des\b|du\b|de\b|d')\s*"
    + _SUBJECT
    + r"(?P<fr>[^?!.;]+)"
    # "Est-ce que tu sais quelque chose sur Julien ?", "qu'est-ce que je t'ai dit sur …"
    r"|(?:tu\s+sais|vous\s+savez|sais\s+tu|savez\s+vous)\s+(?:quelque\s+chose|des\s+choses)\s+"
    r"(?:sur|a\s+propos\s+de|au\s+sujet\s+de|concernant)\s+" + _SUBJECT + r"(?P<fr6>[^?!.;]+)"
    r"|(?:qu'est\s*ce\s+que|que)\s+je\s+(?:t'ai|vous\s+ai)\s+(?:dit|raconte|appris)\s+"
    r"(?:sur|a\s+propos|au\s+sujet|concernant|des\b|du\b|de\b|d')\s*"
    + _SUBJECT
    + r"(?P<fr7>[^?!.;]+)"
    # "Tu te souviens de Paul ?", "tu te souviens quand on est allés à Nice ?"
    r"|(?:tu\s+te\s+souviens|vous\s+vous\s+souvenez|te\s+souviens\s+tu|vous\s+souvenez\s+vous|"
    r"tu\s+te\s+rappelles?|vous\s+vous\s+rappelez|te\s+rappelles\s+tu)\s+"
    r"(?:(?:des\b|du\b|de\b|d')\s*(?P<fr2>[^?!.;]+)"
    r"|(?:que|qu')\s*(?P<fr3>[^?!.;]+)"
    r"|(?P<fr4>(?:quand|comment|ou|pourquoi|la\s+fois|le\s+jour)\b[^?!.;]+))"
    # "Parle-moi de Claire"
    r"|\bparlez?\s+moi\s+(?:des\b|du\b|de\b|d')\s*(?P<fr5>[^?!.;]+)"
)
# Subjects that are no memory: "parle-moi de la météo" (articles, then words).
NOT_SUBJECT_ARTICLES: Final = r"le|la|l'|les|un|une"
NOT_SUBJECT: Final = (
    r"meteo|temps|actualites?|actus?|nouvelles|infos?|informations|journal|toi|vous|ta|ton|"
    r"tes|votre|vos|autre|quelque|n'importe|rien|ca|cela|histoire|blague|faire"
)
# "S'il te plaît" at the end of a subject.
PLEASE: Final = r"s'il\s+(?:te|vous)\s+plait"
# The speaker's own words for themselves as the reply says them back (it says "vous").
SAID_BACK: Final[Mapping[str, str]] = {
    "mon": "votre",
    "ma": "votre",
    "mes": "vos",
    "moi": "vous",
    "notre": "votre",
    "nos": "vos",
}
