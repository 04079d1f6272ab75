"""Remember and recall said out loud: "souviens-toi que …", "what do you know about Claire?".

The deterministic fast paths before the router, in French, English and Greek; patterns are
written in natural spelling and compiled against folded text.
"""

from __future__ import annotations

import re
from typing import Final

from ..text.normalize import compile_folded
from .matching import flatten
from .router import MAX_FACT, MAX_NAME

# Fillers an older person says before the request, as speech-to-text writes them.
_FILLERS: Final = (
    r"(?:e+u+h+|h?e+u+|hum+|alors|bon|ben|bah|dis|dites|ecoute|ecoutez|tiens|ok|okay|"
    r"hey|um+|uh+|so|well|oh|ah|homebuddy|λοιπον|ε+|ακου|just|and|also|et|aussi|"
    r"s'il\s+(?:te|vous)\s+plait|please|σε\s+παρακαλω|παρακαλω|"
    # Vocatives: "ma petite, retiens que …", "dear, remember that …"
    r"ma\s+petite|mon\s+petit|ma\s+belle|ma\s+cherie|mon\s+cheri|mon\s+ami|ma\s+grande|"
    r"(?:my\s+)?dear|darling|love|sweetheart|καλε\s+μου|καλη\s+μου)"
)
_SAVE_RE: Final = compile_folded(
    rf"(?s)^\W*(?:{_FILLERS}\W+)*"
    r"(?:(?:est\s+ce\s+que\s+)?(?:tu\s+peux|tu\s+pourrais|peux\s+tu|pourrais\s+tu|vous\s+pouvez|"
    r"pouvez\s+vous|pourriez\s+vous|vous\s+pourriez|tu\s+veux\s+bien|vous\s+voulez\s+bien|"
    r"veux\s+tu|voulez\s+vous|(?:je\s+(?:veux|voudrais)|j'aimerais)\s+que\s+(?:tu|vous)|"
    r"(?:il\s+)?(?:faut|faudrait)\s+que\s+(?:tu|vous)|"
    r"can\s+you|could\s+you|would\s+you|will\s+you|i\s+want\s+you\s+to|"
    r"i'd\s+like\s+you\s+to|i\s+would\s+like\s+you\s+to|μπορεις\s+να|μπορειτε\s+να|"
    r"θελω\s+να)\s+(?:please\s+|bien\s+)?)?"
    r"(?:souviens\s+toi|souvenez\s+vous|te\s+souvenir|vous\s+souvenir|te\s+souviennes|"
    r"vous\s+souveniez|vous\s+rappeliez|te\s+rappelles|notiez|"
    r"rappelle\s+toi|rappelez\s+vous|te\s+rappeler|retiens|retenez|retenir|retiennes|reteniez|"
    r"n'oublie\s+pas|n'oubliez\s+pas|oublie\s+pas|oubliez\s+pas|ne\s+pas\s+oublier|"
    r"notes?|notez|noter|prends\s+note|prenez\s+note|prendre\s+note|"
    r"gardez?\s+en\s+memoire|garder\s+en\s+memoire|enregistre|memorise|memoriser|saches|"
    r"remember|don't\s+forget|do\s+not\s+forget|never\s+forget|keep\s+in\s+mind|"
    r"bear\s+in\s+mind|note\s+down|make\s+a\s+note|take\s+(?:a\s+)?note|memori[sz]e|"
    r"θυμησου|να\s+θυμασαι|θυμηθεις|μην\s+ξεχασεις|μην\s+ξεχνας|σημειωσε|κρατα|κρατησε|"
    r"θελω\s+να\s+θυμασαι)"
    r"\s*(?:bien\s+|well\s+|please\s+|s'il\s+te\s+plait\s+|σε\s+παρακαλω\s+)?"
    r"(?:for\s+me\s+|pour\s+moi\s+|για\s+μενα\s+)?"
    r"(?:que\s+|qu'|that\s+|οτι\s+|πως\s+|:\s*)(?P<fact>\S.*)$",
)
_SUBJECT: Final = r"(?:de\s+|d'|du\s+|des\s+)?\s*"
_RECALL_RE: Final = compile_folded(
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
    # English
    r"|\bwhat\s+(?:do|did)\s+you\s+(?:know|remember|recall)\s+(?:about|of)\s+(?P<en>[^?!.;]+)"
    r"|\bwhat\s+(?:did|have)\s+i\s+(?:tell|told)\s+you\s+about\s+(?P<en2>[^?!.;]+)"
    r"|\bwhat\s+you\s+(?:know|remember)\s+about\s+(?P<en3>[^?!.;]+)"
    r"|\bdo\s+you\s+(?:know|remember)\s+anything\s+about\s+(?P<en4>[^?!.;]+)"
    r"|\b(?:do|can)\s+you\s+(?:remember|recall)\s+(?:that\s+)?(?P<en5>[^?!.;]+)"
    r"|\btell\s+me\s+about\s+(?P<en6>[^?!.;]+)"
    # Greek
    r"|τι\s+(?:ξερεις|θυμασαι|ξερετε|θυμαστε)\s+(?:για|σχετικα\s+με)\s+(?P<el>[^?!.;]+)"
    r"|(?:θυμασαι|θυμαστε)\s+τι\s+σου\s+(?:ειπα|εχω\s+πει)\s+(?:για|σχετικα\s+με)\s+"
    r"(?P<el2>[^?!.;]+)"
    r"|(?:θυμασαι|θυμαστε)\s+(?:οτι\s+|πως\s+)?(?!τι\b)(?P<el3>[^?!.;]+)"
    r"|(?:πες|πειτε|μιλησε|μιλη?στε)\s+μου\s+για\s+(?P<el4>[^?!.;]+)"
    r"|(?:ξερεις|ξερετε|θυμασαι|θυμαστε)\s+(?:τιποτα|κατι)\s+(?:για|σχετικα\s+με)\s+(?P<el5>[^?!.;]+)"
)
_RECALL_GROUPS: Final = (
    "fr",
    "fr2",
    "fr3",
    "fr4",
    "fr5",
    "fr6",
    "fr7",
    "en",
    "en2",
    "en3",
    "en4",
    "en5",
    "en6",
    "el",
    "el2",
    "el3",
    "el4",
    "el5",
)
# Subjects that are no memory: "parle-moi de la météo", "tell me about yourself".
_NOT_SUBJECT_RE: Final = compile_folded(
    r"(?:(?:le|la|l'|les|the|un|une|a|an|το|τον|την|τα|τους|ο|η|των|τις)\s*)?"
    r"(?:meteo|temps|actualites?|actus?|nouvelles|infos?|informations|journal|toi|vous|ta|ton|"
    r"tes|votre|vos|autre|quelque|n'importe|rien|ca|cela|histoire|blague|faire|"
    r"weather|news|yourself|you|your|something|anything|it|that|this|joke|story|"
    r"καιρο|καιρος|ειδησεις|εσενα|εαυτο|κατι|αυτο)\b"
)
_SUBJECT_TAIL_RE: Final = compile_folded(
    r"\s*(?:s'il\s+(?:te|vous)\s+plait|please|σε\s+παρακαλω|παρακαλω)\s*$"
)


def _original_span(original: str, folded: str, start: int, end: int) -> str:
    """Return the original spelling of a span found in the folded text (same lengths)."""
    if len(original) == len(folded):
        return original[start:end]
    return folded[start:end]


def match_memory_save(text: str) -> str | None:
    """Return the fact of "souviens-toi que …" / "remember that …", or None."""
    folded = flatten(text)
    match = _SAVE_RE.match(folded)
    if not match:
        return None
    fact = _original_span(text, folded, match.start("fact"), match.end("fact")).strip()
    fact = fact.rstrip(" .!")
    return fact[:MAX_FACT] or None


def match_memory_recall(text: str) -> str | None:
    """Return the subject of "qu'est-ce que tu sais sur Claire ?", or None."""
    folded = flatten(text)
    match = _RECALL_RE.search(folded)
    if not match:
        return None
    group = next(g for g in _RECALL_GROUPS if match.group(g))
    start, end = match.start(group), match.end(group)
    if _NOT_SUBJECT_RE.match(folded, start):
        return None
    if tail := _SUBJECT_TAIL_RE.search(folded, start, end):
        end = tail.start()
    subject = _original_span(text, folded, start, end)
    subject = subject.strip().rstrip(" ?;!.,")
    return subject[:MAX_NAME] or None


# The speaker's own words for themselves, as the reply says them back (the replies say "vous"
# in French and "σας" in Greek): "my sister Lea" is answered about "your sister Lea". Only
# possessives and object pronouns, lower-case or capitalised ("the US", "the mine" stay).
_SAID_BACK: Final[dict[str, dict[str, str]]] = {
    "en": {"my": "your", "me": "you", "myself": "yourself", "our": "your", "us": "you"},
    "fr": {
        "mon": "votre",
        "ma": "votre",
        "mes": "vos",
        "moi": "vous",
        "notre": "votre",
        "nos": "vos",
    },
    "el": {"μου": "σας", "μας": "σας", "εμένα": "εσάς", "εμάς": "εσάς"},
}
_SAID_BACK_RE: Final = {
    language: re.compile(
        r"\b(" + "|".join(w for word in words for w in (word, word.capitalize())) + r")\b"
    )
    for language, words in _SAID_BACK.items()
}


def said_back(subject: str, language: str) -> str:
    """``subject`` as the assistant says it back to the speaker ("my sister" → "your sister")."""
    base = language.split("-", maxsplit=1)[0].lower()
    pattern, words = _SAID_BACK_RE.get(base), _SAID_BACK.get(base)
    if pattern is None or words is None:
        return subject

    def swap(match: re.Match[str]) -> str:
        word = match.group(1)
        other = words[word.lower()]
        return other.capitalize() if word[0].isupper() else other

    return pattern.sub(swap, subject)
