"""Held-out phrasings of the Assist fast paths, as older people say them through speech-to-text.

Lowercase, accents dropped, no punctuation, fillers ("euh", "alors", "um"), numbers as words,
in French, English and Greek: alarms (set with times, days and labels, list, cancel), memory
save and recall, yes/no answers, feelings for the affective store and episode cues. Each corpus
also holds sentences that must NOT be taken for a command ("le réveil a sonné", "I set an alarm
yesterday", "tu te souviens quand on est allés à Nice ?" is a recall, not a save).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from custom_components.homebuddy_proactive.engine.alarms import (
    AlarmCommand,
    AlarmTime,
    alarm_label,
    parse_alarm_command,
    parse_alarm_time,
)
from custom_components.homebuddy_proactive.engine.assist import (
    confirmation_answer,
    detect_affect,
    match_memory_recall,
    match_memory_save,
)
from custom_components.homebuddy_proactive.engine.language import episode_cue

PARIS = ZoneInfo("Europe/Paris")


def T(hour: int, minute: int = 0, days: int | None = None, wd: int | None = None) -> AlarmTime:
    """A wall-clock time, with an optional day ("demain": 1) or weekday (Monday: 0)."""
    return AlarmTime(hour, minute, days=days, weekday=wd)


def D(minutes: int) -> AlarmTime:
    """A delay from now."""
    return AlarmTime(delay=timedelta(minutes=minutes))


def S(when: AlarmTime | None, label: str = "") -> AlarmCommand:
    """A "set" command."""
    return AlarmCommand("set", when, label=label)


# ---------------------------------------------------------------------------------------------
# Corpora
# ---------------------------------------------------------------------------------------------

SET_FR: list[tuple[str, AlarmCommand]] = [
    ("reveille moi a sept heures et demie", S(T(7, 30))),
    ("euh reveille moi demain a six heures moins le quart", S(T(5, 45, days=1))),
    ("reveille-moi à midi s'il te plaît", S(T(12, 0))),
    ("alors tu peux me reveiller a minuit", S(T(0, 0))),
    ("mets une alarme a 7 h 30", S(T(7, 30))),
    ("mets une alarme à 7h", S(T(7, 0))),
    ("programme un reveil pour 19h45", S(T(19, 45))),
    ("reveille moi a 7 heures du matin", S(T(7, 0))),
    ("mets moi un reveil a huit heures et quart", S(T(8, 15))),
    ("reveille moi dans 20 minutes", S(D(20))),
    ("reveille moi dans vingt minutes", S(D(20))),
    ("mets une alarme dans une demi heure", S(D(30))),
    ("reveille moi dans un quart d'heure", S(D(15))),
    ("mets un reveil dans une heure et demie", S(D(90))),
    ("reveille moi dans deux heures", S(D(120))),
    ("reveille moi demain matin a six heures", S(T(6, 0, days=1))),
    ("mets une alarme pour demain a 8h", S(T(8, 0, days=1))),
    ("reveille moi apres demain a neuf heures", S(T(9, 0, days=2))),
    ("mets une alarme lundi a 10h", S(T(10, 0, wd=0))),
    ("reveille moi vendredi a sept heures", S(T(7, 0, wd=4))),
    ("mets un reveil a quinze heures trente", S(T(15, 30))),
    ("mets une alarme a dix neuf heures", S(T(19, 0))),
    ("mets une alarme a vingt et une heures", S(T(21, 0))),
    ("reveille moi a sept heures vingt", S(T(7, 20))),
    ("reveille moi a six heures quarante cinq", S(T(6, 45))),
    ("reveille moi a huit heures moins dix", S(T(7, 50))),
    ("mets une alarme a 9 heures du soir", S(T(21, 0))),
    ("mets une alarme ce soir a 10 heures", S(T(22, 0))),
    ("mets une alarme a 3 heures de l'apres midi", S(T(15, 0))),
    ("mets une alarme a midi et demi", S(T(12, 30))),
    ("reveille moi a minuit et quart", S(T(0, 15))),
    ("mets une alarme a 7h pour prendre mes medicaments", S(T(7, 0), "prendre mes medicaments")),
    ("mets une alarme pour mes médicaments à 8 heures", S(T(8, 0), "mes médicaments")),
    (
        "réveille-moi à 9h pour le rendez-vous chez le médecin",
        S(T(9, 0), "le rendez-vous chez le médecin"),
    ),
    ("mets un réveil pour demain 8h pour le kiné", S(T(8, 0, days=1), "le kiné")),
    ("s'il te plait mets moi une alarme a sept heures", S(T(7, 0))),
    ("je voudrais une alarme a 6h30", S(T(6, 30))),
    ("je voudrais me reveiller a sept heures demain", S(T(7, 0, days=1))),
    ("une alarme pour 7 heures s'il vous plait", S(T(7, 0))),
    ("tu me reveilles a huit heures", S(T(8, 0))),
    ("mets une alarme", S(None)),
    ("reveillez moi a 7h15", S(T(7, 15))),
    ("pouvez vous me reveiller a six heures et demie", S(T(6, 30))),
    ("regle le reveil a 6h", S(T(6, 0))),
    ("ajoute une alarme a 14h", S(T(14, 0))),
    ("reveille moi vers sept heures", S(T(7, 0))),
    ("reveille moi a 0h30", S(T(0, 30))),
    ("reveille moi a sept", S(T(7, 0))),
]
SET_EN: list[tuple[str, AlarmCommand]] = [
    ("wake me up at seven thirty", S(T(7, 30))),
    ("set an alarm for 7 pm", S(T(19, 0))),
    ("set an alarm for 7pm", S(T(19, 0))),
    ("uh wake me up at half past six", S(T(6, 30))),
    ("set an alarm for quarter to eight", S(T(7, 45))),
    ("set an alarm for a quarter past seven", S(T(7, 15))),
    ("wake me up tomorrow at 6 am", S(T(6, 0, days=1))),
    ("set an alarm for noon", S(T(12, 0))),
    ("wake me at midnight", S(T(0, 0))),
    ("please set an alarm for 6:45", S(T(6, 45))),
    ("set an alarm in half an hour", S(D(30))),
    ("wake me up in twenty minutes", S(D(20))),
    ("set an alarm in an hour", S(D(60))),
    ("wake me in an hour and a half", S(D(90))),
    ("set an alarm in 2 hours", S(D(120))),
    ("can you wake me up at seven o'clock", S(T(7, 0))),
    ("set an alarm for seven in the morning", S(T(7, 0))),
    ("set an alarm for 8 in the evening", S(T(20, 0))),
    ("set an alarm for ten past seven", S(T(7, 10))),
    ("wake me up at twenty to eight", S(T(7, 40))),
    ("set an alarm for 19:30", S(T(19, 30))),
    ("set an alarm for monday at 9", S(T(9, 0, wd=0))),
    ("wake me up the day after tomorrow at eight", S(T(8, 0, days=2))),
    ("set an alarm for 3 pm to take my pills", S(T(15, 0), "take my pills")),
    ("wake me up at 7 to call my daughter", S(T(7, 0), "call my daughter")),
    ("set an alarm for my doctor's appointment at 10 am", S(T(10, 0), "my doctor's appointment")),
    ("could you set an alarm for six fifteen", S(T(6, 15))),
    ("i need to get up at 6 tomorrow", S(T(6, 0, days=1))),
    ("set an alarm", S(None)),
    ("set an alarm for tonight at 11", S(T(23, 0))),
    ("wake me at seven oh five", S(T(7, 5))),
    ("alarm for 6:30 tomorrow please", S(T(6, 30, days=1))),
]
SET_EL: list[tuple[str, AlarmCommand]] = [
    ("ξύπνα με στις επτά", S(T(7, 0))),
    ("ξυπνα με στις 7 και μιση", S(T(7, 30))),
    ("βάλε ξυπνητήρι για τις 6 και τέταρτο", S(T(6, 15))),
    ("βαλε ξυπνητηρι στις 8 παρα τεταρτο", S(T(7, 45))),
    ("ξύπνησέ με αύριο στις έξι", S(T(6, 0, days=1))),
    ("βάλε μου ένα ξυπνητήρι στις 9 το βράδυ", S(T(21, 0))),
    ("ξύπνα με σε δέκα λεπτά", S(D(10))),
    ("βάλε ξυπνητήρι σε μισή ώρα", S(D(30))),
    ("ξύπνα με σε μία ώρα", S(D(60))),
    ("θέλω να με ξυπνήσεις στις οχτώ το πρωί", S(T(8, 0))),
    ("ρύθμισε ξυπνητήρι για τις 6:30", S(T(6, 30))),
    ("ξύπνα με στις 7 και 20", S(T(7, 20))),
    ("ξυπνα με στις οκτω παρα δεκα", S(T(7, 50))),
    ("βάλε ξυπνητήρι στις 12 το μεσημέρι", S(T(12, 0))),
    ("βάλε ξυπνητήρι στις 2 το μεσημέρι", S(T(14, 0))),
    ("ξύπνα με μεθαύριο στις 7", S(T(7, 0, days=2))),
    ("βάλε ξυπνητήρι την Κυριακή στις 9", S(T(9, 0, wd=6))),
    ("ξυπνητήρι στις 7 για τα φάρμακα", S(T(7, 0), "τα φάρμακα")),
    ("ξύπνα με στις 19:45", S(T(19, 45))),
    ("θέλω να ξυπνήσω στις έξι και μισή", S(T(6, 30))),
]
LIST: list[str] = [
    "quelles sont mes alarmes",
    "euh quelles alarmes j'ai",
    "est ce que j'ai une alarme demain",
    "j'ai des reveils de prevus",
    "a quelle heure est mon reveil",
    "c'est a quelle heure mon alarme",
    "dis moi mes alarmes",
    "liste les alarmes",
    "montre moi mes reveils",
    "combien d'alarmes j'ai",
    "il y a des alarmes",
    "mon reveil sonne a quelle heure",
    "quels reveils sont programmes",
    "rappelle moi mes alarmes",
    "quand est mon prochain reveil",
    "est ce qu'il y a une alarme pour demain",
    "what alarms do i have",
    "list my alarms",
    "do i have any alarms",
    "what time is my alarm",
    "when is my alarm set for",
    "is my alarm set",
    "show me my alarms",
    "tell me my alarms",
    "how many alarms do i have",
    "which alarms are set",
    "are there any alarms",
    "did i set an alarm",
    "read me my alarms",
    "have i got an alarm tomorrow",
    "um what are my alarms",
    "ποια ξυπνητήρια έχω",
    "τι ξυπνητήρια έχω",
    "έχω ξυπνητήρι",
    "υπάρχει ξυπνητήρι για αύριο",
    "τι ώρα είναι το ξυπνητήρι μου",
    "πες μου τα ξυπνητήρια",
    "πόσα ξυπνητήρια έχω",
]
CANCEL: list[tuple[str, AlarmTime | None, bool]] = [
    ("annule l'alarme de 7 heures", T(7, 0), False),
    ("annule mon reveil", None, False),
    ("supprime l'alarme de sept heures et demie", T(7, 30), False),
    ("enleve le reveil de 7h30", T(7, 30), False),
    ("efface toutes les alarmes", None, True),
    ("euh desactive le reveil de six heures", T(6, 0), False),
    ("tu peux annuler l'alarme de demain", None, False),
    ("retire l'alarme de huit heures", T(8, 0), False),
    ("annulez toutes mes alarmes s'il vous plait", None, True),
    ("arrete le reveil", None, False),
    ("supprime tous les reveils", None, True),
    ("j'ai plus besoin du reveil de 7h", T(7, 0), False),
    ("annule l'alarme de midi", T(12, 0), False),
    ("coupe le reveil de six heures et quart", T(6, 15), False),
    ("annule le reveil de 19h45", T(19, 45), False),
    ("cancel my alarm", None, False),
    ("delete the alarm for 7", T(7, 0), False),
    ("remove my 6:30 alarm", T(6, 30), False),
    ("turn off my alarm", None, False),
    ("cancel all my alarms", None, True),
    ("get rid of the alarm", None, False),
    ("clear all alarms", None, True),
    ("disable the 7 am alarm", T(7, 0), False),
    ("cancel the alarm at half past seven", T(7, 30), False),
    ("delete all alarms please", None, True),
    ("stop the alarm", None, False),
    ("cancel the alarm for noon", T(12, 0), False),
    ("i don't need the alarm anymore", None, False),
    ("please cancel the seven o'clock alarm", T(7, 0), False),
    ("remove the alarm for quarter to eight", T(7, 45), False),
    ("ακύρωσε το ξυπνητήρι", None, False),
    ("σβήσε το ξυπνητήρι των 7", T(7, 0), False),
    ("διάγραψε όλα τα ξυπνητήρια", None, True),
    ("κλείσε το ξυπνητήρι", None, False),
    ("ακύρωσε το ξυπνητήρι στις 6 και μισή", T(6, 30), False),
]
NOT_ALARMS: list[str] = [
    "j'ai regle mon reveil hier",
    "le reveil a sonne",
    "le réveil n'a pas sonné ce matin",
    "my alarm didn't go off",
    "i set an alarm yesterday",
    "j'ai mis une alarme hier soir",
    "mon reveil est casse",
    "quelle heure est il",
    "il est sept heures",
    "je me reveille a sept heures",
    "ne me reveille pas avant 9 heures",
    "don't wake me up before nine",
    "désactive l'alarme de la maison",
    "turn off the house alarm",
    "ενεργοποίησε τον συναγερμό",
    "my alarm clock was broken",
    "je suis reveille depuis 6 heures",
    "what's the weather like at 7",
    "n'oublie pas de fermer la porte",
    "j'ai annule mon reveil",
    "i cancelled my alarm",
    "le reveil de 7h a sonne",
    "mets la tele",
    "μη με ξυπνήσεις νωρίς",
    "ξύπνησα στις 7",
    "the alarm rang at seven",
    "my alarm at 7 was loud",
    "je me suis reveille a 7h",
    "il faut que je mette du pain a 7h",
    "allume la lumiere a 7h",
]

TIMES: dict[str, AlarmTime | None] = {
    "7 h 30": AlarmTime(7, 30),
    "7h": AlarmTime(7, 0),
    "19h45": AlarmTime(19, 45),
    "à 7 heures du matin": AlarmTime(7, 0),
    "7 pm": AlarmTime(19, 0),
    "half past six": AlarmTime(6, 30),
    "quarter to eight": AlarmTime(7, 45),
    "στις επτά": AlarmTime(7, 0),
    "στις 7 και μισή": AlarmTime(7, 30),
    "sept heures et demie": AlarmTime(7, 30),
    "six heures moins le quart": AlarmTime(5, 45),
    "midi": AlarmTime(12, 0),
    "minuit": AlarmTime(0, 0),
    "à sept heures pile": AlarmTime(7, 0),
    "7 heures 05": AlarmTime(7, 5),
    "à 12h": AlarmTime(12, 0),
    "12 pm": AlarmTime(12, 0),
    "12 am": AlarmTime(0, 0),
    "à une heure": AlarmTime(1, 0),
    "à une heure du matin": AlarmTime(1, 0),
    "à une heure de l'après-midi": AlarmTime(13, 0),
    "à 1h du matin": AlarmTime(1, 0),
    "seven a.m.": AlarmTime(7, 0),
    "7 p.m.": AlarmTime(19, 0),
    "at 7:30 in the evening": AlarmTime(19, 30),
    "à 10 heures ce soir": AlarmTime(22, 0),
    "cette nuit à 3 heures": AlarmTime(3, 0),
    "at 11 at night": AlarmTime(23, 0),
    "στις 9 μ.μ.": AlarmTime(21, 0),
    "στις 7 π.μ.": AlarmTime(7, 0),
    "στις δέκα το βράδυ": AlarmTime(22, 0),
    "αύριο στις 7": AlarmTime(7, 0, days=1),
    "in 90 minutes": AlarmTime(delay=timedelta(minutes=90)),
    "dans 1h30": AlarmTime(delay=timedelta(minutes=90)),
    "in 1 hour and 30 minutes": AlarmTime(delay=timedelta(minutes=90)),
    "σε 2 ώρες": AlarmTime(delay=timedelta(hours=2)),
    "dans deux heures et quart": AlarmTime(delay=timedelta(minutes=135)),
    "midi moins le quart": AlarmTime(11, 45),
    "à treize heures": AlarmTime(13, 0),
    "à vingt-deux heures quinze": AlarmTime(22, 15),
    "à zéro heure": AlarmTime(0, 0),
    "six thirty am": AlarmTime(6, 30),
    "ten to seven": AlarmTime(6, 50),
    "five past eight": AlarmTime(8, 5),
    "twenty five past six": AlarmTime(6, 25),
    "huit heures moins vingt": AlarmTime(7, 40),
    "à 7 heures et quart du soir": AlarmTime(19, 15),
    "dimanche à midi": AlarmTime(12, 0, weekday=6),
    "tomorrow at noon": AlarmTime(12, 0, days=1),
    "demain à minuit": AlarmTime(0, 0, days=1),
    "7.30": AlarmTime(7, 30),
    "at 6 30": AlarmTime(6, 30),
    "à six heures trente": AlarmTime(6, 30),
    "jeudi prochain à 8h": AlarmTime(8, 0, weekday=3),
    "dans 3 jours à 7h": AlarmTime(7, 0, days=3),
    "le 3 mai à 7h": AlarmTime(7, 0),
    "demain": None,
    "à un moment": None,
    "pour une visite": None,
    "une alarme": None,
    "στις εφτά και τέταρτο": AlarmTime(7, 15),
    "στις δώδεκα και μισή": AlarmTime(12, 30),
    "στις 5 το απόγευμα": AlarmTime(17, 0),
    "σε ένα τέταρτο": AlarmTime(delay=timedelta(minutes=15)),
    "σε είκοσι λεπτά": AlarmTime(delay=timedelta(minutes=20)),
    "at 7 sharp": AlarmTime(7, 0),
    "7 o'clock": AlarmTime(7, 0),
    "at eleven thirty pm": AlarmTime(23, 30),
    "à 21h": AlarmTime(21, 0),
}

SAVE: list[tuple[str, str]] = [
    ("souviens toi que ma fille s'appelle claire", "ma fille s'appelle claire"),
    ("euh souviens-toi que le kine vient le mardi", "le kine vient le mardi"),
    ("rappelle toi que mon fils habite a lyon", "mon fils habite a lyon"),
    ("rappelle-toi que le médecin s'appelle Martin", "le médecin s'appelle Martin"),
    ("retiens que je prends mon cachet a midi", "je prends mon cachet a midi"),
    ("alors retiens bien que paul est allergique aux noix", "paul est allergique aux noix"),
    ("n'oublie pas que ma petite fille vient dimanche", "ma petite fille vient dimanche"),
    ("oublie pas que le facteur passe a dix heures", "le facteur passe a dix heures"),
    ("note que mon anniversaire est le 3 mai", "mon anniversaire est le 3 mai"),
    ("note bien que la voisine a mes cles", "la voisine a mes cles"),
    ("s'il te plait souviens toi que j'aime le the", "j'aime le the"),
    ("tu peux retenir que mon chat s'appelle minou", "mon chat s'appelle minou"),
    (
        "est ce que tu peux te souvenir que mon docteur s'appelle dupont",
        "mon docteur s'appelle dupont",
    ),
    ("je veux que tu retiennes que claire est infirmiere", "claire est infirmiere"),
    ("garde en memoire que ma soeur vit a nice", "ma soeur vit a nice"),
    ("prends note que le plombier vient jeudi", "le plombier vient jeudi"),
    ("remember that my son lives in lyon", "my son lives in lyon"),
    ("um remember that my daughter's name is claire", "my daughter's name is claire"),
    ("please remember that i take my pills at eight", "i take my pills at eight"),
    ("don't forget that my granddaughter visits on sunday", "my granddaughter visits on sunday"),
    ("keep in mind that i'm allergic to penicillin", "i'm allergic to penicillin"),
    ("can you remember that the doctor is called smith", "the doctor is called smith"),
    ("note that my neighbour has a spare key", "my neighbour has a spare key"),
    ("make a note that the plumber comes on tuesday", "the plumber comes on tuesday"),
    ("i want you to remember that my wife's name was mary", "my wife's name was mary"),
    ("θυμήσου ότι η κόρη μου λέγεται ελένη", "η κόρη μου λέγεται ελένη"),
    ("να θυμάσαι ότι ο γιος μου μένει στην αθήνα", "ο γιος μου μένει στην αθήνα"),
    ("μην ξεχάσεις ότι έχω γιατρό την τρίτη", "έχω γιατρό την τρίτη"),
    ("σημείωσε ότι ο γείτονας έχει τα κλειδιά", "ο γείτονας έχει τα κλειδιά"),
    ("θυμήσου πως μου αρέσει ο καφές", "μου αρέσει ο καφές"),
]
NOT_SAVE: list[tuple[str, str]] = [
    "tu te souviens quand on est alles a nice",
    "je me souviens que c'etait bien",
    "rappelle moi d'appeler claire",
    "remember",
    "i remember that day",
    "do you remember that i told you about claire",
    "tu te souviens que je t'ai parle de paul",
    "je ne me souviens pas",
    "n'oublie pas de fermer la porte",
    "remember to take my pills",
    "θυμάσαι ότι σου είπα για την ελένη",
    "note",
    "souviens toi",
    "j'ai oublie que c'etait aujourd'hui",
    "tu as retenu que claire vient",
    "did you note that",
]
RECALL: list[tuple[str, str]] = [
    ("qu'est-ce que tu sais sur claire", "claire"),
    ("que sais tu de mon fils", "mon fils"),
    ("euh qu'est ce que tu sais de paul", "paul"),
    ("tu te souviens de claire", "claire"),
    ("est ce que tu te souviens de mon docteur", "mon docteur"),
    ("tu te rappelles de paul", "paul"),
    ("parle moi de claire", "claire"),
    ("parle moi de ma fille", "ma fille"),
    ("que sais tu a propos de marie", "marie"),
    ("qu'est ce que tu sais au sujet de mon chat", "mon chat"),
    ("tu te souviens du docteur martin", "docteur martin"),
    ("tu te souviens quand on est alles a nice", "quand on est alles a nice"),
    ("dis moi ce que tu sais sur claire", "claire"),
    ("qu'est ce que tu as retenu sur paul", "paul"),
    ("what do you know about claire", "claire"),
    ("what do you remember about my son", "my son"),
    ("do you remember my doctor", "my doctor"),
    ("tell me about claire", "claire"),
    ("tell me what you know about my daughter", "my daughter"),
    ("what did i tell you about paul", "paul"),
    ("do you remember when we went to nice", "when we went to nice"),
    ("do you know anything about mary", "mary"),
    ("τι ξέρεις για την ελένη", "την ελένη"),
    ("τι θυμάσαι για τον γιο μου", "τον γιο μου"),
    ("θυμάσαι την ελένη", "την ελένη"),
    ("πες μου για την ελένη", "την ελένη"),
    ("θυμάσαι τι σου είπα για τον γιατρό", "τον γιατρό"),
]
NOT_RECALL: list[tuple[str, str]] = [
    "qu'est ce que tu fais",
    "what do you think",
    "parle moi de la meteo",
    "tell me about the weather",
    "parle moi des nouvelles",
    "tell me about yourself",
    "parle moi de toi",
    "tell me about the news",
    "parle moi d'autre chose",
    "πες μου για τον καιρό",
    "tell me a story",
    "que sais tu faire",
]
YES: list[str] = [
    "oui",
    "ouais",
    "d'accord",
    "vas y",
    "vas-y",
    "bien sûr",
    "bien sur",
    "euh oui",
    "oui oui",
    "ben oui",
    "oui s'il te plait",
    "mais oui",
    "ok vas y",
    "allez y",
    "oui vas y",
    "tout a fait",
    "absolument",
    "c'est ca",
    "fais le",
    "yes",
    "yeah",
    "sure",
    "go ahead",
    "yes please",
    "ok",
    "okay",
    "of course",
    "yep",
    "do it",
    "please do",
    "uh yes",
    "sure go ahead",
    "ναι",
    "εντάξει",
    "ναι παρακαλώ",
    "βεβαίως",
    "φυσικά",
    "ναι βέβαια",
    "σίγουρα",
    "εε ναι",
    "ναι ναι",
]
NO: list[str] = [
    "non",
    "non merci",
    "annule",
    "euh non",
    "ah non",
    "non non",
    "surtout pas",
    "pas maintenant",
    "laisse tomber",
    "non annule",
    "ben non",
    "no",
    "no thanks",
    "cancel",
    "nope",
    "not now",
    "never mind",
    "forget it",
    "don't",
    "uh no",
    "no don't",
    "όχι",
    "όχι ευχαριστώ",
    "άκυρο",
    "ακύρωσε",
    "μην το κάνεις",
    "όχι όχι",
    "άσ'το",
    "εε όχι",
    "άστο",
]
NEITHER: list[str] = [
    "allume plutot la cuisine",
    "",
    "oui mais alors il faudrait aussi penser a fermer la fenetre",
    "quelle heure est il",
    "what's the weather",
    "τι ώρα είναι",
    "je ne sais pas",
    "maybe",
]
AFFECT: list[tuple[str, str]] = [
    ("je me sens seul", "loneliness"),
    ("je me sens un peu seule", "loneliness"),
    ("euh je me sens bien seule ces temps ci", "loneliness"),
    ("je suis toute seule", "loneliness"),
    ("personne ne vient me voir", "loneliness"),
    ("j'ai mal au dos", "pain"),
    ("j'ai tres mal a la tete", "pain"),
    ("ma hanche me fait mal", "pain"),
    ("j'ai mal a ma jambe", "pain"),
    ("je suis triste", "sadness"),
    ("j'ai pas le moral", "sadness"),
    ("je n'ai pas le moral", "sadness"),
    ("je me sens triste", "sadness"),
    ("j'ai peur", "fear"),
    ("je suis inquiete", "fear"),
    ("je suis tombee", "fall"),
    ("je suis tombe par terre", "fall"),
    ("i feel lonely", "loneliness"),
    ("i'm feeling lonely", "loneliness"),
    ("i feel a bit lonely", "loneliness"),
    ("i feel so alone", "loneliness"),
    ("my back hurts", "pain"),
    ("i have a headache", "pain"),
    ("my back is killing me", "pain"),
    ("i feel sad", "sadness"),
    ("i'm feeling down", "sadness"),
    ("i'm scared", "fear"),
    ("i fell", "fall"),
    ("i had a fall", "fall"),
    ("νιώθω μόνος", "loneliness"),
    ("νιώθω μόνη", "loneliness"),
    ("νιώθω μοναξιά", "loneliness"),
    ("πονάει η πλάτη μου", "pain"),
    ("με πονάει το κεφάλι", "pain"),
    ("είμαι λυπημένη", "sadness"),
    ("φοβάμαι", "fear"),
    ("έπεσα", "fall"),
    ("στενοχωριέμαι", "sadness"),
]
NOT_AFFECT: list[tuple[str, str]] = [
    "je ne me sens pas seule",
    "j'ai mal compris",
    "pas mal",
    "j'ai pas mal de choses a faire",
    "i'm not lonely",
    "i'm not sad",
    "it doesn't hurt anymore",
    "ce n'est pas triste",
    "allume la lumiere",
    "je suis seule a savoir",
    "i'm not scared",
    "δεν φοβάμαι",
]
EPISODE_CUES: list[str] = [
    "new topic",
    "let's change the subject",
    "changeons de sujet",
    "parlons d'autre chose",
    "on change de sujet",
    "bon passons a autre chose",
    "let's talk about something else",
    "start over",
    "switch topic",
    "autre chose",
    "euh changeons de sujet",
    "je veux parler d'autre chose",
    "can we talk about something else",
    "αλλάζουμε θέμα",
    "ας αλλάξουμε θέμα",
    "ας μιλήσουμε για κάτι άλλο",
    "νέο θέμα",
    "αλλαγή θέματος",
    "on passe a autre chose",
    "changement de sujet",
    "nouveau sujet",
]
NOT_EPISODE_CUES: list[str] = [
    "j'ai change mes draps",
    "le sujet du jour",
    "that's another thing",
    "ce sujet m'interesse",
    "j'ai autre chose a faire",
]


# ---------------------------------------------------------------------------------------------
# Alarms
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), SET_FR + SET_EN + SET_EL)
def test_set_alarm(text: str, expected: AlarmCommand) -> None:
    """Set requests: hour, minute, day or delay, and what the alarm is for."""
    assert parse_alarm_command(text) == expected


def test_corpus_sizes() -> None:
    """The held-out corpus keeps its breadth per language."""
    assert (len(SET_FR), len(SET_EN), len(SET_EL)) >= (40, 25, 15)
    assert min(len(SET_FR), len(SET_EN), len(SET_EL)) >= 15
    assert len(LIST) >= 30 and len(CANCEL) >= 30


@pytest.mark.parametrize("text", LIST)
def test_list_alarms(text: str) -> None:
    """Asking which alarms are set."""
    assert parse_alarm_command(text) == AlarmCommand("list")


@pytest.mark.parametrize(("text", "when", "every"), CANCEL)
def test_cancel_alarm(text: str, when: AlarmTime | None, every: bool) -> None:
    """Cancelling one alarm (by its time when said) or all of them."""
    assert parse_alarm_command(text) == AlarmCommand("cancel", when, every)


@pytest.mark.parametrize("text", NOT_ALARMS)
def test_not_an_alarm_request(text: str) -> None:
    """Talking about an alarm, a past alarm, the house alarm or a time is no alarm command."""
    assert parse_alarm_command(text) is None


@pytest.mark.parametrize(("text", "expected"), list(TIMES.items()))
def test_times(text: str, expected: AlarmTime | None) -> None:
    """Times as words, digits, 12 h and 24 h clocks, fractions, periods, days and delays."""
    assert parse_alarm_time(text) == expected


@pytest.mark.parametrize(
    ("when", "now", "rings"),
    [
        (T(7, 0, days=1), datetime(2026, 3, 2, 6, 0), datetime(2026, 3, 3, 7, 0)),
        (T(7, 0, days=2), datetime(2026, 3, 2, 23, 0), datetime(2026, 3, 4, 7, 0)),
        (T(7, 0, wd=0), datetime(2026, 3, 2, 6, 0), datetime(2026, 3, 2, 7, 0)),  # a Monday
        (T(7, 0, wd=0), datetime(2026, 3, 2, 8, 0), datetime(2026, 3, 9, 7, 0)),
        (T(9, 30, wd=4), datetime(2026, 3, 2, 8, 0), datetime(2026, 3, 6, 9, 30)),
        (T(7, 0), datetime(2026, 3, 2, 6, 0), datetime(2026, 3, 2, 7, 0)),
    ],
)
def test_days_pin_the_ringing_day(when: AlarmTime, now: datetime, rings: datetime) -> None:
    """ "Demain à 7 h" said at 6:00 rings tomorrow, not in an hour; weekdays ring that day."""
    assert when.next_after(now.replace(tzinfo=PARIS)) == rings.replace(tzinfo=PARIS)


@pytest.mark.parametrize(
    ("text", "label"),
    [
        ("Alarm : 07:30 médicaments", ""),
        ("réveille-moi à 7 h pour aller chez le coiffeur s'il te plaît", "aller chez le coiffeur"),
        ("mets une alarme pour une visite à 15 h", "une visite"),
        ("set an alarm called doctor at 9", "doctor"),
        ("mets une alarme pour sept heures", ""),
        ("wake me up for breakfast at eight", "breakfast"),
    ],
)
def test_alarm_labels(text: str, label: str) -> None:
    """What an alarm is for ends where its time begins; a time is never a label."""
    assert alarm_label(text.removeprefix("Alarm : ")) == label


# ---------------------------------------------------------------------------------------------
# Memory, feelings, confirmations, episodes
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("text", "fact"), SAVE)
def test_memory_save(text: str, fact: str) -> None:
    """ "Souviens-toi que …", "remember that …", "θυμήσου ότι …" keep the fact as said."""
    assert match_memory_save(text) == fact
    assert parse_alarm_command(text) is None


@pytest.mark.parametrize("text", NOT_SAVE)
def test_not_a_memory_save(text: str) -> None:
    """Memories told, questions about memories and reminders are no save."""
    assert match_memory_save(text) is None


@pytest.mark.parametrize(("text", "subject"), RECALL)
def test_memory_recall(text: str, subject: str) -> None:
    """ "Qu'est-ce que tu sais sur Claire ?" and its kin give the subject."""
    assert match_memory_recall(text) == subject
    assert match_memory_save(text) is None
    assert parse_alarm_command(text) is None


@pytest.mark.parametrize("text", NOT_RECALL)
def test_not_a_memory_recall(text: str) -> None:
    """Weather, news and the assistant itself are not memories to recall."""
    assert match_memory_recall(text) is None


@pytest.mark.parametrize("text", YES)
def test_yes(text: str) -> None:
    """Yes, with fillers, in three languages."""
    assert confirmation_answer(text) is True


@pytest.mark.parametrize("text", NO)
def test_no(text: str) -> None:
    """No, with fillers, in three languages."""
    assert confirmation_answer(text) is False


@pytest.mark.parametrize("text", NEITHER)
def test_neither_yes_nor_no(text: str) -> None:
    """A new request is not an answer."""
    assert confirmation_answer(text) is None


@pytest.mark.parametrize(("text", "kind"), AFFECT)
def test_feelings(text: str, kind: str) -> None:
    """Loneliness, pain, sadness, fear and falls for the affective store."""
    signal = detect_affect(text, "fr")
    assert signal is not None
    assert signal.kind == kind


@pytest.mark.parametrize("text", NOT_AFFECT)
def test_not_feelings(text: str) -> None:
    """Negations and idioms are no signal."""
    assert detect_affect(text, "fr") is None


@pytest.mark.parametrize("text", EPISODE_CUES)
def test_episode_cues(text: str) -> None:
    """ "Changeons de sujet", "new topic", "αλλάζουμε θέμα" open a new episode."""
    assert episode_cue(text)


@pytest.mark.parametrize("text", NOT_EPISODE_CUES)
def test_not_episode_cues(text: str) -> None:
    """Words about subjects and changes are no cue."""
    assert not episode_cue(text)
