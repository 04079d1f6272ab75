"""Alarm requests said in French: "réveille-moi à 7 heures", "annule l'alarme", "quelles alarmes ?".

Fragments of the patterns in ``alarms/commands.py``, written in natural spelling and matched
against folded text; ``<ALARM>`` stands for the alarm nouns of every language.
"""

from __future__ import annotations

from typing import Final

NOUN: Final = (
    r"alarmes?|reveils?|"
    r"sonneries?(?!\s+(?:du|de\s+la|de\s+l')\s*(?:telephone|portable|porte|entree))"
)
# "L'alarme de la maison": the alarm system, never the alarm clock.
SECURITY: Final = (
    r"maison|securite|intrusion|antivol|anti\s+vol|cambriol\w*|sirene|systeme|centrale|garage|"
    r"voiture"
)
# Before a verb, what makes the request a statement or about the past ("j'ai réglé mon réveil").
STATEMENT: Final = (
    r"j'ai|j\s+ai|ai|as|avons|avez|ont|avais|avait|aviez|avaient|t'as|il\s+a|elle\s+a|"
    r"on\s+a|je\s+me\s+suis|deja"
)
POSSESSIVES: Final = r"mon|ma|son|sa|notre|leur"
BEFORE_RELATIVE: Final = r"petite?\s+(?=\w)"
ENDEARMENTS: Final = r"belle|cheri\w*|chou|amie?|petite?|grande?|puce|cocotte|mignonne|biche"
STATEMENT_ADVERBS: Final = r"deja\s+|bien\s+"
NEGATED: Final = (
    r"\bne\s+(?:me\s+)?(?:reveill|annul|supprim|efface|enlev|mets|mettez|programm)\w*\s+"
    r"(?:\w+\s+){0,2}?(?:pas|plus|jamais)\b"
)
CANCEL_VERBS: Final = (
    r"annul\w*|supprim\w*|enlev\w*|efface\w*|arret\w*|desactiv\w*|retir\w*|coup\w*|vire\w*|ote\w*"
)
NO_NEED: Final = r"plus\s+besoin|pas\s+besoin|ne\s+veux\s+(?:plus|pas)|veux\s+plus"
NO_NEED_OF: Final = r"de\s+|d'|du\s+"
LIST: Final = (
    r"quel(?:le)?s?\s+(?:sont\s+)?(?:les\s+|mes\s+)?(?:alarmes?|reveils?)|"
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
    r"en\s+cours|actives?)\s*(?:$|\?|pour|demain)"
)
SET_VERB: Final = (
    r"\breveill?(?:e|ez|es)?\s+moi\b|\breveillez\s+nous\b|"
    r"\b(?:me|m')\s*reveiller\s+(?:a|vers|pour|demain|dans|apres|lundi|mardi|mercredi|jeudi|"
    r"vendredi|samedi|dimanche|\d)|"
    r"\btu\s+me\s+reveilles?\b|\bvous\s+me\s+reveillez\b|\b(?:etre|soit)\s+reveillee?s?\b|"
    r"\bsonnez?\s+moi\b|\b(?:me|m')\s*sonner\s+(?:a|vers|dans|demain|\d)|"
    r"\b(?:mets|mettez|mettre|met|programme\w*|regle\w*|cree\w*|ajoute\w*|fixe\w*|prevois|"
    r"prevoir|prevoyez|remets|remettez|remettre)(?:\s+moi|\s+nous)?\s+"
    r"(?:une\s+|un\s+|l'|le\s+|la\s+|mon\s+|ma\s+|ton\s+|ta\s+)?"
    r"(?:nouvelle\s+|nouveau\s+|petite?\s+|autre\s+)?(?:alarme|reveil|sonnerie)\b"
)
# What may come before the noun of a request ("euh euh le réveil à 7 h").
NOUN_LEAD: Final = (
    r"e+u+h+|h?e+u+|hum+|alors|bon|ben|bah|ok|okay|s'il\s+(?:te|vous)\s+plait|stp|svp|"
    r"ma\s+petite|mon\s+petit|ma\s+belle|ma\s+cherie|mon\s+cheri|ma\s+puce|reveil|alarme|"
    r"une|un|le|la|mon|ma|nouvelle|nouveau|autre|petite?|et|aussi|juste|"
    r"je\s+(?:voudrais|veux|souhaite|souhaiterais)|j'aimerais|il\s+me\s+faut|"
    r"(?:donne|donnez)\s+moi"
)
NOUN_LEAD_ELIDED: Final = r"l'"
# Words that say the alarm already rang or is broken.
RANG: Final = r"sonn(?!erie)\w*|marche\w*|fonctionne\w*|hier|ce\s+matin|etait|ete"
GET_UP_WANT: Final = (
    r"je\s+(?:voudrais|veux|dois|devrais|aimerais|souhaite\w*|vais\s+devoir)|"
    r"(?:il\s+)?(?:faut|faudrait)\s+que\s+je|j'ai\s+besoin\s+de"
)
GET_UP: Final = r"(?:me|m')\s*lever|me\s+leve|(?:etre|sois)\s+(?:debout|levee?|reveillee?)"
ALL: Final = r"toutes|tous"
# Labels: "… pour prendre mes médicaments".
LABEL_MARK: Final = r"pour|afin\s+de|intitulee?|nommee?"
LABEL_SKIP: Final = frozenset(
    {"me", "m'", "moi", "nous", "reveiller", "mettre", "programmer", "que", "ca", "alarme"}
    | {"reveil"}
)
LABEL_END: Final = r"s'il\s+(?:te|vous)\s+plait|merci|stp|svp"
