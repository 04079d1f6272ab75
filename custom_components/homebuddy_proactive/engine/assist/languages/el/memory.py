"""Remember and recall said in Greek: "θυμήσου ότι …", "τι ξέρεις για την Κλαίρη;".

Fragments of the patterns in ``memory_phrases.py``, written in natural spelling and matched
against folded text.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

# Fillers said before the request, as speech-to-text writes them; vocatives ("καλή μου, …").
FILLERS: Final = r"λοιπον|ε+|ακου|σε\s+παρακαλω|παρακαλω|καλε\s+μου|καλη\s+μου"
# "Μπορείς να …", said before the verb.
SAVE_ASKING_LEAD: Final = ""
SAVE_ASKING: Final = r"μπορεις\s+να|μπορειτε\s+να|θελω\s+να"
SAVE_ASKING_AFTER: Final = ""
SAVE_VERBS: Final = (
    r"θυμησου|να\s+θυμασαι|θυμηθεις|μην\s+ξεχασεις|μην\s+ξεχνας|σημειωσε|κρατα|κρατησε|"
    r"θελω\s+να\s+θυμασαι"
)
SAVE_AFTER_VERB: Final = r"σε\s+παρακαλω\s+"
SAVE_FOR_ME: Final = r"για\s+μενα\s+"
SAVE_THAT: Final = r"οτι\s+|πως\s+"

# Each alternative names its subject in a group of its own (named after the language).
RECALL: Final = (
    r"τι\s+(?:ξερεις|θυμασαι|ξερετε|θυμαστε)\s+(?:για|σχετικα\s+με)\s+(?P<el>[^?!.;]+)"
    r"|(?:θυμασαι|θυμαστε)\s+τι\s+σου\s+(?:ειπα|εχω\s+πει)\s+(?:για|σχετικα\s+με)\s+"
    r"(?P<el2>[^?!.;]+)"
    r"|(?:θυμασαι|θυμαστε)\s+(?:οτι\s+|πως\s+)?(?!τι\b)(?P<el3>[^?!.;]+)"
    r"|(?:πες|πειτε|μιλησε|μιλη?στε)\s+μου\s+για\s+(?P<el4>[^?!.;]+)"
    r"|(?:ξερεις|ξερετε|θυμασαι|θυμαστε)\s+(?:τιποτα|κατι)\s+(?:για|σχετικα\s+με)\s+(?P<el5>[^?!.;]+)"
)
# Subjects that are no memory: "πες μου για τον καιρό".
NOT_SUBJECT_ARTICLES: Final = r"το|τον|την|τα|τους|ο|η|των|τις"
NOT_SUBJECT: Final = r"καιρο|καιρος|ειδησεις|εσενα|εαυτο|κατι|αυτο"
PLEASE: Final = r"σε\s+παρακαλω|παρακαλω"
# The speaker's own words for themselves as the reply says them back (it says "σας").
SAID_BACK: Final[Mapping[str, str]] = {"μου": "σας", "μας": "σας", "εμένα": "εσάς", "εμάς": "εσάς"}
