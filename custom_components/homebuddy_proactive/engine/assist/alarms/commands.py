"""What an utterance asks of the alarms: set one (and what for), list them, or cancel some.

The seed's exact prefix ``"Alarm : "`` always means "set"; otherwise the French, English and
Greek phrasings an older person uses ("réveille-moi à 7 heures", "set an alarm for 7",
"annule l'alarme de 7 heures", "quelles alarmes ?").
"""

from __future__ import annotations

import re
from typing import Final

from ...text.normalize import compile_folded, fold, folded_set
from ..matching import flatten
from .model import MAX_LABEL_CHARACTERS, AlarmCommand
from .parse import parse_alarm_time, starts_with_time

SEED_PREFIX: Final = "Alarm : "
# The seed's prefix as people and speech-to-text engines type it: "Alarme :", "ALARM:7h".
_SEED_PREFIX_RE: Final = re.compile(r"\s*alarme?\s*:\s*", re.IGNORECASE)

_ALARM_NOUN: Final = (
    r"(?:alarmes?|reveils?|alarms?|alarm\s+clocks?|ξυπνητηρι\w*|"
    r"sonneries?(?!\s+(?:du|de\s+la|de\s+l')\s*(?:telephone|portable|porte|entree)))"
)
# "L'alarme de la maison", "the house alarm", "ο συναγερμός": the alarm system, a device the
# router and the service handler deal with (with a confirmation), never the alarm clock.
_SECURITY_RE: Final = compile_folded(
    r"\b(?:maison|securite|intrusion|antivol|anti\s+vol|cambriol\w*|sirene|house|home|"
    r"security|burglar|intruder|system|systeme|panel|centrale|garage|voiture|car|"
    r"συναγερμ\w*)\b"
)
# Before a verb: the request is a statement or a question about the past ("j'ai réglé mon
# réveil hier", "I set an alarm yesterday", "did you cancel my alarm?").
_STATEMENT_BEFORE_RE: Final = compile_folded(
    r"(?:\b(?:j'ai|j\s+ai|ai|as|avons|avez|ont|avais|avait|aviez|avaient|t'as|il\s+a|elle\s+a|"
    r"on\s+a|je\s+me\s+suis|(?<!can\s)(?<!could\s)(?<!should\s)(?<!may\s)(?<!shall\s)i|we|"
    r"he|she|they|i've|we've|i'd|i\s+have|i\s+had|had|has|already|deja|"
    r"did\s+you|have\s+you|you\s+have|you've|εχω|ειχα|εχεις|used\s+to|usually|"
    # Someone else did it: "my grandson set an alarm", "mon mari met le réveil".
    r"(?:mon|ma|son|sa|notre|leur|my|his|her|our|their)\s+(?:petite?\s+(?=\w))?"
    r"(?!(?:dear|darling|love|friend|honey|sweet\w*|lovely|belle|cheri\w*|chou|amie?|petite?|"
    r"grande?|puce|cocotte|mignonne|biche)\b)\w+|"
    # "My daughter wants me to set an alarm", "she asked me to …": reported, not asked.
    r"(?:wants|wanted|asked|told|said)\s+(?:me\s+|us\s+)?to)\s+"
    r"(?:deja\s+|already\s+|bien\s+|just\s+|ηδη\s+)?)$"
)
_NEGATED_RE: Final = compile_folded(
    r"\bne\s+(?:me\s+)?(?:reveill|annul|supprim|efface|enlev|mets|mettez|programm)\w*\s+"
    r"(?:\w+\s+){0,2}?(?:pas|plus|jamais)\b|"
    r"\b(?:don'?t|do\s+not|never|didn'?t|doesn'?t)\s+(?:\w+\s+)?(?:wake|set|cancel|delete|"
    r"remove|turn\s+off)\b|"
    r"\bμη\s*ν?\s+(?:με\s+)?(?:ξυπν|βαλ|ακυρ|σβησ)\w*"
)

_CANCEL_RE: Final = compile_folded(
    r"\b(?:annul\w*|supprim\w*|enlev\w*|efface\w*|arret\w*|desactiv\w*|retir\w*|coup\w*|"
    r"cancel\w*|delete|remove|clear|turn\s+off|switch\s+off|shut\s+off|disable|stop|unset|"
    r"get\s+rid\s+of|erase|scrap|vire\w*|ote\w*|ακυρ\w*|σβησ\w*|σβηστ\w*|διαγραψ\w*|κλεισ\w*|"
    r"βγαλ\w*|σταματ\w*)\b"
    rf"[^.?!;]{{0,40}}?\b{_ALARM_NOUN}"
    # "Turn the alarm off"
    rf"|\b(?:turn|switch|shut)\s+(?:\w+\s+){{0,3}}?{_ALARM_NOUN}\s+off\b"
)
# "Je n'ai plus besoin du réveil", "I don't need the alarm anymore": a cancel said as a fact.
_NO_NEED_RE: Final = compile_folded(
    r"\b(?:plus\s+besoin|pas\s+besoin|no\s+longer\s+(?:need|want)|don'?t\s+(?:need|want)|"
    r"do\s+not\s+(?:need|want)|won'?t\s+(?:need|want)|will\s+not\s+(?:need|want)|"
    r"ne\s+veux\s+(?:plus|pas)|veux\s+plus|δεν\s+(?:το\s+)?(?:χρειαζομαι|θελω))\s+"
    rf"(?:de\s+|d'|du\s+)?(?:\w+\s+){{0,2}}?{_ALARM_NOUN}"
)
_LIST_RE: Final = compile_folded(
    r"\b(?:quel(?:le)?s?\s+(?:sont\s+)?(?:les\s+|mes\s+)?(?:alarmes?|reveils?)|"
    r"(?:(?:me|m')\s*)?(?:liste\w*|lis|lisez|donne\w*|dis|dites|dire|montre\w*|rappelle\w*|"
    r"enumere\w*|lit|lire|redis|redites|redire|relis|relisez|relire)(?:\s*moi)?\s+"
    r"(?:toutes?\s+)?(?:les|mes)\s+(?:alarmes|reveils|sonneries)|"
    r"liste\s+des\s+(?:alarmes|reveils)|"
    r"(?:j'ai|j\s+ai|ai\s+je|y\s+a\s+t\s+il|il\s+y\s+a|y\s+a|est\s+ce\s+qu'il\s+y\s+a)\s+"
    r"(?:deja\s+|encore\s+|bien\s+)?(?:des|une|un|d'autres)\s+(?:alarmes?|reveils?)|"
    r"combien\s+(?:d'|de\s+)(?:alarmes|reveils)|"
    r"(?:a\s+quelle\s+heure|quand)\s+(?:est\s+|sonne\s+|sonnera\s+|va\s+sonner\s+)?"
    r"(?:mon|ma|l'|le|la)\s*(?:prochaine?\s+)?(?:alarme|reveil)|"
    r"(?:mon|l'|le|ma)\s*(?:alarme|reveil)\s+(?:est|sonne|sonnera|va\s+sonner)\s+"
    r"(?:\w+\s+)?a\s+quelle\s+heure|"
    # "C'est pour quelle heure mon réveil", "mon réveil de demain, il est à quelle heure"
    r"quelle\s+heure\s+(?:[\w']+\s+){0,4}?(?:mon|ma|mes|l'|le|la|les)\s*(?:prochaine?\s+)?"
    r"(?:alarmes?|reveils?)|"
    r"(?:mon|ma|l'|le|la)\s*(?:alarmes?|reveils?)\s+(?:\w+\s+){0,5}?a\s+quelle\s+heure|"
    # "Est-ce que mon réveil est (bien) mis ?"
    r"(?:mon|ma|l'|le|la)\s*(?:alarme|reveil)\s+(?:est|il\s+est|elle\s+est)\s+(?:bien\s+)?"
    r"(?:mise?|reglee?|programmee?|activee?)\s*(?:$|\?|pour|demain)|"
    r"(?:alarmes?|reveils?)\s+(?:de\s+|sont\s+|est\s+)?(?:prevue?s?|programmee?s?|reglee?s?|"
    r"en\s+cours|actives?)\s*(?:$|\?|pour|demain)|"
    r"(?:what|which)\s+(?:are\s+)?(?:my\s+|the\s+)?alarms?|"
    r"list\s+(?:my\s+|the\s+|all\s+)*alarms?|"
    r"(?:do\s+i\s+have|have\s+i\s+got|are\s+there|is\s+there|did\s+i\s+set|have\s+i\s+set)\s+"
    r"(?:any\s+|an\s+|a\s+|some\s+)?(?:other\s+)?alarms?|"
    r"(?:show|tell|read|give)\s+me\s+(?:all\s+)?(?:my\s+|the\s+)?alarms|"
    r"how\s+many\s+alarms|"
    r"(?:what\s+time|when)(?:'s|\s+is|\s+does|\s+will)\s+(?:my|the)\s+(?:next\s+)?alarm|"
    r"(?:what\s+time|when)\s+(?:my|the)\s+(?:next\s+)?alarm\s+(?:is|rings|goes\s+off|will)\b|"
    r"(?:what\s+time|when)\s+(?:did|have)\s+(?:you|i|we)\s+set\s+(?:my|the)\s+alarm|"
    r"is\s+(?:my|the|an)\s+alarm\s+(?:set|on)|check\s+(?:my|the)\s+alarms?|"
    r"(?:ποια|τι|ποσα)\s+ξυπνητηρια|"
    r"εχω\s+(?:βαλει\s+)?(?:κανενα\s+|καποιο\s+|ενα\s+)?ξυπνητηρι(?!\s+(?:στις|για))|"
    r"υπαρχ\w+\s+(?:κανενα\s+|καποιο\s+)?ξυπνητηρι|"
    r"(?:τι\s+ωρα|ποτε)\s+(?:ειναι|χτυπαει|θα\s+χτυπησει)\s+το\s+ξυπνητηρι|"
    r"(?:πες|δειξε|διαβασε)\s+μου\s+(?:ολα\s+)?(?:τα\s+)?ξυπνητηρια)"
)
_SET_VERB_RE: Final = compile_folded(
    r"^\s*alarme?\s*:|"
    r"\breveill?(?:e|ez|es)?\s+moi\b|\breveillez\s+nous\b|"
    r"\b(?:me|m')\s*reveiller\s+(?:a|vers|pour|demain|dans|apres|lundi|mardi|mercredi|jeudi|"
    r"vendredi|samedi|dimanche|\d)|"
    r"\btu\s+me\s+reveilles?\b|\bvous\s+me\s+reveillez\b|\b(?:etre|soit)\s+reveillee?s?\b|"
    r"\bsonnez?\s+moi\b|\b(?:me|m')\s*sonner\s+(?:a|vers|dans|demain|\d)|"
    r"\b(?:mets|mettez|mettre|met|programme\w*|regle\w*|cree\w*|ajoute\w*|fixe\w*|prevois|"
    r"prevoir|prevoyez|remets|remettez|remettre)(?:\s+moi|\s+nous)?\s+"
    r"(?:une\s+|un\s+|l'|le\s+|la\s+|mon\s+|ma\s+|ton\s+|ta\s+)?"
    r"(?:nouvelle\s+|nouveau\s+|petite?\s+|autre\s+)?(?:alarme|reveil|sonnerie)\b|"
    r"\bwake\s+(?:me|us)\b|\bget\s+me\s+up\b|\bbe\s+woken\b|"
    r"(?:(?<=\bneed\s)|(?<=\bhave\s)|(?<=\bwant\s)|(?<=\bgot\s))to\s+(?:wake|get)\s+up\s+"
    r"(?:at|by|around|tomorrow|in)\b|"
    r"\b(?:set|make|create|add|put|schedule|program|start)\s+(?:me\s+|up\s+)?"
    r"(?:an?\s+|my\s+|the\s+|one\s+|another\s+)?(?:new\s+)?alarm\b|"
    r"\bξυπν\w*\s+με\b|\bμε\s+ξυπν\w*|\b(?:θελω|θα\s+ηθελα)\s+να\s+ξυπνησω\b|"
    r"\b(?:βαλε|βαλτε|ρυθμισε|ρυθμιστε|φτιαξε|κανε|ορισε|προγραμματισε)\s+(?:μου\s+)?"
    r"(?:ενα\s+|το\s+)?(?:νεο\s+)?ξυπνητηρι"
)
# "Une alarme à 7 h", "alarm for 6:30 tomorrow", "ξυπνητήρι στις 7": the noun with a time,
# when nothing says the alarm already rang.
_SET_NOUN_RE: Final = compile_folded(rf"\b{_ALARM_NOUN}\b")
# What may come before the noun of such a request: "euh euh le réveil à 7 h", "je voudrais
# une alarme à 6 h 30", "please, alarm for 6:30" (not "j'ai entendu une alarme à 3 h").
_NOUN_LEAD_RE: Final = compile_folded(
    r"(?:(?:e+u+h+|h?e+u+|hum+|alors|bon|ben|bah|ok|okay|oh|ah|hey|um+|uh+|so|well|homebuddy|"
    r"λοιπον|ε+|s'il\s+(?:te|vous)\s+plait|please|stp|svp|σε\s+παρακαλω|παρακαλω|"
    r"ma\s+petite|mon\s+petit|ma\s+belle|ma\s+cherie|mon\s+cheri|ma\s+puce|dear|darling|"
    r"reveil|alarme|alarm|"
    r"une|un|le|la|mon|ma|an|a|the|my|one|ενα|το|μου|nouvelle|nouveau|autre|petite?|"
    r"new|another|νεο|et|and|aussi|also|juste|just|"
    r"je\s+(?:voudrais|veux|souhaite|souhaiterais)|j'aimerais|il\s+me\s+faut|"
    r"i\s+(?:want|need|would\s+like)|i'd\s+like|θελω|θα\s+ηθελα|"
    r"(?:donne|donnez)\s+moi|give\s+me|can\s+i\s+have|could\s+i\s+have)"
    r"(?:[\s,.!]+|$)|l')*"
)
_RANG_RE: Final = compile_folded(
    r"\b(?:sonn(?!erie)\w*|marche\w*|fonctionne\w*|hier|ce\s+matin|went|go(?:es)?\s+off|rang|ring\w*|"
    r"work\w*|broke\w*|was|were|etait|ete|ηταν|yesterday|last\s+night|χτυπ\w*|χθες|χτες|δουλευ\w*)\b"
)
# "Il faut que je sois debout à 6 h", "I need to be up by seven", "θέλω να σηκωθώ στις 7":
# a request only with a time ("je me lève toujours à 6 h" says a habit, not a request).
_GET_UP_RE: Final = compile_folded(
    r"\b(?:je\s+(?:voudrais|veux|dois|devrais|aimerais|souhaite\w*|vais\s+devoir)|"
    r"(?:il\s+)?(?:faut|faudrait)\s+que\s+je|j'ai\s+besoin\s+de|"
    r"i\s+(?:need|have|want|must|would\s+like|got)|i'd\s+like|i've\s+got|i\s+gotta|"
    r"θελω|θα\s+ηθελα|πρεπει|χρειαζεται)\s+"
    r"(?:(?:me|m')\s*lever|me\s+leve|(?:etre|sois)\s+(?:debout|levee?|reveillee?)|"
    r"(?:to\s+)?(?:be\s+up|get\s+up|be\s+awake|wake\s+up)|να\s+(?:σηκωθω|ξυπνησω))\b"
)
_ALL_RE: Final = compile_folded(r"\b(?:toutes|tous|all|every|ολα)\b")


def parse_alarm_command(text: str) -> AlarmCommand | None:
    """Return the alarm request in ``text`` (set, list or cancel), or None when there is none.

    The seed's exact prefix ``"Alarm : "`` always means "set"; a set request whose time cannot
    be read comes back with ``when=None`` so the caller can ask for the time.
    """
    if (prefix := _SEED_PREFIX_RE.match(text)) is not None:
        rest = text[prefix.end() :]
        return AlarmCommand("set", parse_alarm_time(rest), label=alarm_label(rest))
    flat = flatten(text)
    if _SECURITY_RE.search(flat) or _NEGATED_RE.search(flat):
        return None
    cancel = _CANCEL_RE.search(flat)
    if (cancel and not _statement(flat, cancel.start())) or _NO_NEED_RE.search(flat):
        every = bool(_ALL_RE.search(flat))
        return AlarmCommand("cancel", None if every else parse_alarm_time(text), every=every)
    if _LIST_RE.search(flat):
        return AlarmCommand("list")
    if _set_request(flat):
        return AlarmCommand("set", parse_alarm_time(text), label=alarm_label(text))
    return None


def _statement(flat: str, start: int) -> bool:
    return _STATEMENT_BEFORE_RE.search(flat[:start]) is not None


def _set_request(flat: str) -> bool:
    for match in _SET_VERB_RE.finditer(flat):
        if not _statement(flat, match.start()):
            return True
    if _RANG_RE.search(flat):
        return False
    for noun in _SET_NOUN_RE.finditer(flat):
        if not _NOUN_LEAD_RE.fullmatch(flat[: noun.start()].strip(" ,.!")):
            continue
        if starts_with_time(flat[noun.end() :].strip()):
            return len(flat.split()) <= 12
    return _GET_UP_RE.search(flat) is not None and parse_alarm_time(flat) is not None


# Labels: "… pour prendre mes médicaments", "… to take my pills", "… για τα φάρμακα".
_LABEL_MARK_RE: Final = compile_folded(
    r"(?<![\w'])(?:pour|afin\s+de|to|for|called|named|labell?ed|intitulee?|nommee?|"
    r"για\s+να|για)\s+"
)
_LABEL_SKIP: Final = folded_set(
    *{"me", "m'", "moi", "nous", "wake", "get", "set", "be", "make", "reveiller", "mettre"}
    | {"programmer", "με", "μας", "ξυπνησεις", "that", "que", "it", "ca", "alarm", "alarme"}
    | {"reveil", "ξυπνητηρι"}
)
_LABEL_END_RE: Final = compile_folded(
    r"\s*(?:s'il\s+(?:te|vous)\s+plait|please|merci|thanks|thank\s+you|σε\s+παρακαλω|"
    r"παρακαλω|ευχαριστω|stp|svp)\s*$"
)


def alarm_label(text: str) -> str:
    """Return what an alarm is for ("pour mes médicaments" → "mes médicaments"), or ""."""
    folded = fold(text)
    flat = folded.replace("-", " ")
    for mark in _LABEL_MARK_RE.finditer(flat):
        start = mark.end()
        rest = flat[start:]
        first = rest.split(maxsplit=1)[0] if rest.split() else ""
        if not first or first in _LABEL_SKIP or starts_with_time(rest):
            continue
        end = len(flat)
        for word in re.finditer(r"(?<!\S)\S", rest):
            if word.start() and starts_with_time(rest[word.start() :]):
                end = start + word.start()
                break
        label = flat[start:end]
        if filler := _LABEL_END_RE.search(label):
            label = label[: filler.start()]
        original = text[start : start + len(label)] if len(text) == len(folded) else label
        original = original.strip(" ,.!?;:")
        if original:
            return original[:MAX_LABEL_CHARACTERS]
    return ""
