"""Second held-out corpus of the Assist fast paths: older people's speech through STT.

A different style from ``test_assist_heldout.py``: hesitations and repetitions ("euh euh"),
politeness ("est-ce que vous pourriez", "ma petite", "s'il vous plaît", "je vous prie"),
vouvoiement and tutoiement, "mon réveil" / "l'alarme" / "la sonnerie", "il faut que je sois
debout à", "à six heures tapantes", "vers les 7h"; English ("get me up at", "I need to be up
by", "alarm at 6 sharp"); Greek ("ξύπνησέ με", "θέλω να σηκωθώ στις"); the seed's ``Alarm : …``
prefix as people and STT engines actually type it ("Alarme :", "ALARM:7h"). Memories are about
what matters at that age (medication, grandchildren's birthdays, doctors, where the keys are).
Hard negatives talk ABOUT alarms, memories and times without asking for anything.
"""

from __future__ import annotations

from custom_components.homebuddy_proactive.engine.assist import (
    AlarmCommand,
    AlarmTime,
)
from tests.engine import corpus
from tests.engine.corpus import C, D, S, T, corpus_test

# ---------------------------------------------------------------------------------------------
# Setting alarms
# ---------------------------------------------------------------------------------------------

SEED_PREFIX: list[tuple[str, AlarmCommand]] = [
    ("Alarm : 7h", S(T(7, 0))),
    ("Alarm : demain 7h30", S(T(7, 30, days=1))),
    ("Alarm :7h30", S(T(7, 30))),
    ("Alarm: 6h45", S(T(6, 45))),
    ("Alarm:6h45", S(T(6, 45))),
    ("alarm : 8h", S(T(8, 0))),
    ("Alarme : 7 heures", S(T(7, 0))),
    ("ALARM:7h", S(T(7, 0))),
    ("ALARME : 6H30", S(T(6, 30))),
    ("Alarm  :  9h", S(T(9, 0))),
    ("Alarm : 07:30", S(T(7, 30))),
    ("Alarm : lundi 9h", S(T(9, 0, wd=0))),
    ("Alarm : 21h30 médicaments", S(T(21, 30))),
    ("Alarm : 6:00 AM", S(T(6, 0))),
    ("Alarm : 7 pm", S(T(19, 0))),
    ("Alarm : dans 20 minutes", S(D(20))),
    ("Alarm : ", S(None)),
    ("Alarm : 7h pour les gouttes", S(T(7, 0), "les gouttes")),
    ("Alarm : après-demain 8h", S(T(8, 0, days=2))),
    ("Alarm : 7h30 demain", S(T(7, 30, days=1))),
]

SET_FR: list[tuple[str, AlarmCommand]] = [
    (
        "euh euh est-ce que vous pourriez me réveiller à sept heures s'il vous plaît",
        S(T(7, 0)),
    ),
    ("ma petite tu me réveilles demain à six heures et demie", S(T(6, 30, days=1))),
    ("je voudrais me lever à 7h demain", S(T(7, 0, days=1))),
    ("il faut que je sois debout à six heures", S(T(6, 0))),
    ("réveil à 6h pile", S(T(6, 0))),
    ("réveille-moi à six heures tapantes", S(T(6, 0))),
    ("réveille-moi vers les 7h", S(T(7, 0))),
    ("mettez-moi un réveil à huit heures", S(T(8, 0))),
    ("programme un réveil à 7h15", S(T(7, 15))),
    ("sonne-moi à 9 heures", S(T(9, 0))),
    ("mets-moi la sonnerie à 6h45", S(T(6, 45))),
    ("est-ce que tu peux mettre mon réveil à 6 heures", S(T(6, 0))),
    ("pourriez-vous programmer l'alarme pour 7 heures et quart", S(T(7, 15))),
    ("alors euh alors réveillez-moi à huit heures moins le quart", S(T(7, 45))),
    ("je voudrais me réveiller demain matin à 7 heures", S(T(7, 0, days=1))),
    ("j'aimerais que tu me réveilles à six heures", S(T(6, 0))),
    ("faut que je me lève à cinq heures et demie demain", S(T(5, 30, days=1))),
    ("réveille-moi à 7h pour mes gouttes", S(T(7, 0), "mes gouttes")),
    ("mets une alarme à 15h pour appeler ma fille", S(T(15, 0), "appeler ma fille")),
    ("mettez une alarme dans trois quarts d'heure", S(D(45))),
    ("sonne-moi dans cinq minutes", S(D(5))),
    ("mets un réveil pour samedi à huit heures", S(T(8, 0, wd=5))),
    ("réveille-moi mercredi prochain à 7 heures", S(T(7, 0, wd=2))),
    ("euh euh le réveil à sept heures trente s'il vous plaît", S(T(7, 30))),
    ("réveil demain 6h", S(T(6, 0, days=1))),
    ("tu pourrais me réveiller à midi moins dix", S(T(11, 50))),
    ("remets-moi un réveil à 7h", S(T(7, 0))),
    (
        "mets-moi un réveil pour aller à la messe dimanche à 9h",
        S(T(9, 0, wd=6), "aller à la messe"),
    ),
    ("il faudrait me réveiller à 8h", S(T(8, 0))),
    ("réveillez-moi à 7 heures je vous prie", S(T(7, 0))),
    ("programmez-moi une alarme à dix-sept heures", S(T(17, 0))),
    ("ajoute un réveil à 6 heures 10", S(T(6, 10))),
    ("mets l'alarme à sept heures pour demain", S(T(7, 0, days=1))),
    ("je dois me lever à 6h", S(T(6, 0))),
    ("je veux être réveillée à sept heures", S(T(7, 0))),
    ("réveille moi à 7h s'il te plaît ma petite", S(T(7, 0))),
    ("euh mets-moi l'alarme vers huit heures et demie", S(T(8, 30))),
    ("réveillez-moi à six heures du matin s'il vous plaît", S(T(6, 0))),
    ("tu peux me sonner à sept heures", S(T(7, 0))),
    ("il faut que je me lève tôt demain à 5h", S(T(5, 0, days=1))),
    ("mets une sonnerie à 14 heures pour la sieste", S(T(14, 0), "la sieste")),
    ("pouvez-vous me mettre une alarme à 10h pour le kiné", S(T(10, 0), "le kiné")),
    ("réveillez-moi dans une heure et quart", S(D(75))),
    ("réveille-moi à dix heures du soir", S(T(22, 0))),
    ("euh tu me mets un réveil euh à sept heures", S(T(7, 0))),
    ("ma puce mets-moi un réveil à 7h", S(T(7, 0))),
    ("réveil réveil à 7 heures", S(T(7, 0))),
    ("je voudrais une sonnerie à huit heures", S(T(8, 0))),
    # Corrections said on the way: the last time wins, the day said before still counts.
    ("réveille-moi à sept heures euh non à sept heures et demie", S(T(7, 30))),
    ("réveille-moi demain à 7h non pardon à 8h", S(T(8, 0, days=1))),
]

SET_EN: list[tuple[str, AlarmCommand]] = [
    ("get me up at 6", S(T(6, 0))),
    ("i need to be up by seven", S(T(7, 0))),
    ("alarm at 6 sharp", S(T(6, 0))),
    ("wake me in 45 minutes", S(D(45))),
    ("would you be so kind as to set an alarm for eight", S(T(8, 0))),
    ("set my alarm for 6:15 tomorrow morning", S(T(6, 15, days=1))),
    ("i'd like to get up at seven tomorrow", S(T(7, 0, days=1))),
    ("i want to be woken at 7", S(T(7, 0))),
    ("put an alarm on for nine thirty", S(T(9, 30))),
    ("set the alarm clock for 5 am", S(T(5, 0))),
    ("wake me up around 8 please dear", S(T(8, 0))),
    (
        "set an alarm for 4 in the afternoon to take my tablets",
        S(T(16, 0), "take my tablets"),
    ),
    ("wake me up on saturday at 8", S(T(8, 0, wd=5))),
    ("wake me at 7 on thursday", S(T(7, 0, wd=3))),
    ("alarm for quarter past six", S(T(6, 15))),
    ("wake me at five to seven", S(T(6, 55))),
    ("i have to be up at six thirty", S(T(6, 30))),
    ("can you get me up tomorrow at half past seven", S(T(7, 30, days=1))),
    ("new alarm for 10 pm", S(T(22, 0))),
    ("uh uh could you please wake me at seven", S(T(7, 0))),
    ("wake me in forty five minutes", S(D(45))),
    ("i need to get up at half past five on monday", S(T(5, 30, wd=0))),
    ("set an alarm for 8 o'clock to ring my grandson", S(T(8, 0), "ring my grandson")),
    ("get me up at 7 sharp tomorrow", S(T(7, 0, days=1))),
    ("please set me an alarm for 9 in the morning", S(T(9, 0))),
    ("wake me up at 6 dear", S(T(6, 0))),
    ("i need to be up at 7 for the hospital", S(T(7, 0), "the hospital")),
    ("wake me in an hour and a quarter", S(D(75))),
    ("wake me at 7 no wait at 8", S(T(8, 0))),
    ("set an alarm for 7 sorry 7:30", S(T(7, 30))),
]

SET_EL: list[tuple[str, AlarmCommand]] = [
    ("ξύπνησέ με στις 7", S(T(7, 0))),
    ("βάλε ξυπνητήρι στις έξι το πρωί", S(T(6, 0))),
    ("θέλω να σηκωθώ στις επτά", S(T(7, 0))),
    ("θέλω να σηκωθώ αύριο στις 6 και μισή", S(T(6, 30, days=1))),
    ("ξύπνησέ με σε 45 λεπτά", S(D(45))),
    ("σε παρακαλώ ξύπνησέ με στις οχτώ", S(T(8, 0))),
    ("μπορείς να με ξυπνήσεις στις εφτά και τέταρτο", S(T(7, 15))),
    ("βάλε μου ξυπνητήρι για αύριο στις 7", S(T(7, 0, days=1))),
    ("ξύπνησέ με το Σάββατο στις 9", S(T(9, 0, wd=5))),
    ("πρέπει να σηκωθώ στις πέντε", S(T(5, 0))),
    ("βάλε ξυπνητήρι στις 8 για το γιατρό", S(T(8, 0), "το γιατρό")),
    ("ξύπνησέ με στις 6 ακριβώς", S(T(6, 0))),
    ("βάλε ένα ξυπνητήρι στις δέκα το βράδυ", S(T(22, 0))),
    ("ξύπνησέ με κατά τις 7", S(T(7, 0))),
    ("εε ξύπνησέ με αύριο το πρωί στις επτά", S(T(7, 0, days=1))),
    ("θα ήθελα να ξυπνήσω στις έξι", S(T(6, 0))),
    ("βάλτε μου ξυπνητήρι στις 7 και 20 παρακαλώ", S(T(7, 20))),
    ("ξύπνα με στις 7 όχι στις 8", S(T(8, 0))),
]

# ---------------------------------------------------------------------------------------------
# Listing and cancelling
# ---------------------------------------------------------------------------------------------

LIST: list[str] = [
    "j'ai combien d'alarmes",
    "c'est pour quelle heure mon réveil",
    "euh mon réveil il est réglé à quelle heure",
    "est-ce que vous pourriez me dire à quelle heure sonne mon réveil",
    "est-ce que mon réveil est mis",
    "est-ce que le réveil est bien mis pour demain",
    "quelles alarmes sont mises",
    "redites-moi mes réveils s'il vous plaît",
    "il est à quelle heure mon réveil",
    "mon réveil de demain il est à quelle heure",
    "est-ce qu'il y a un réveil de mis",
    "tu peux me dire mes alarmes",
    "j'ai des alarmes pour demain",
    "euh euh c'est à quelle heure l'alarme",
    "à quelle heure tu m'as mis le réveil",
    "what time did you set my alarm for",
    "when's my alarm",
    "what alarms have i got",
    "have i got any alarms set",
    "what time's my alarm set for",
    "is there an alarm for tomorrow morning",
    "can you tell me what alarms i have",
    "remind me what time my alarm is",
    "what are my alarms for tomorrow",
    "how many alarms have i got",
    "ποια ξυπνητήρια έχω βάλει",
    "έχω βάλει ξυπνητήρι",
    "τι ώρα χτυπάει το ξυπνητήρι",
    "πόσα ξυπνητήρια υπάρχουν",
    "πες μου τι ξυπνητήρια έχω",
    "εε τι ξυπνητήρια έχω για αύριο",
]

CANCEL: list[tuple[str, AlarmCommand]] = [
    ("enlève le réveil", C()),
    ("supprime toutes les alarmes", C(every=True)),
    ("euh euh pourriez-vous enlever mon réveil de demain", C()),
    ("annule le réveil de sept heures", C(T(7, 0))),
    ("retirez-moi l'alarme de 6h30 s'il vous plaît", C(T(6, 30))),
    ("arrête la sonnerie", C()),
    ("efface le réveil de demain matin", C()),
    ("enlevez tous les réveils", C(every=True)),
    ("désactive mon réveil de 6 heures", C(T(6, 0))),
    ("tu peux supprimer le réveil de huit heures et demie", C(T(8, 30))),
    ("pas besoin de réveil demain", C()),
    ("je ne veux plus de réveil à 7 heures", C(T(7, 0))),
    ("ma petite annule-moi l'alarme s'il te plaît", C()),
    ("clear all my alarms", C(every=True)),
    ("delete the 7 o'clock alarm", C(T(7, 0))),
    ("cancel tomorrow's alarm", C()),
    ("get rid of all the alarms", C(every=True)),
    ("switch off my alarm for 6", C(T(6, 0))),
    ("turn the alarm off", C()),
    ("please remove the alarm at a quarter to seven", C(T(6, 45))),
    ("erase all alarms", C(every=True)),
    ("i won't need my alarm tomorrow", C()),
    ("ακύρωσε όλα τα ξυπνητήρια", C(every=True)),
    ("σβήσε όλα τα ξυπνητήρια μου", C(every=True)),
    ("βγάλε το ξυπνητήρι των 8", C(T(8, 0))),
    ("ακύρωσε το ξυπνητήρι για αύριο", C()),
    ("κλείσε το ξυπνητήρι των επτά και μισή", C(T(7, 30))),
    ("δεν χρειάζομαι το ξυπνητήρι", C()),
]

NOT_ALARMS: list[str] = [
    "euh mon réveil est cassé depuis mardi",
    "the alarm clock my son gave me",
    "le docteur vient à 10h",
    "ma fille m'a offert un réveil",
    "le réveil de ma voisine sonne tous les matins à 6h",
    "mon petit-fils a mis une alarme sur son téléphone",
    "j'ai entendu une alarme à 3h du matin",
    "je me lève toujours à six heures",
    "i get up at 7 every day",
    "my husband used to wake me up at six",
    "quand j'étais jeune je me levais à cinq heures",
    "le kiné passe à 14h30",
    "ma petite-fille arrive à 16 heures",
    "i have my doctor's appointment at 10",
    "my grandson set an alarm on my phone",
    "mon fils m'a réveillé à sept heures",
    "le réveil sonne trop fort",
    "le bruit du réveil me fait peur",
    "ξύπνησα στις έξι σήμερα",
    "το ξυπνητήρι μου χάλασε",
    "ο γιατρός έρχεται στις 10",
    "πάντα σηκώνομαι στις εφτά",
    "je n'ai pas entendu le réveil ce matin",
    "did the alarm ring",
    "the nurse comes at 9 tomorrow",
    "l'infirmière passe demain à 8 heures",
    "mon mari mettait toujours le réveil à six heures",
    "ah les alarmes de voiture ça me rend folle",
    "the alarm clock woke me up at five",
    "ma montre sonne à midi",
    "I remember when my alarm clock was a wind-up one",
    "je me souviens de mon enfance",
    "je ne me lève plus avant 9 heures",
    "my daughter wants me to set an alarm",
    "mon petit-fils met un réveil à 7h",
    "il faut que je me lève pour ouvrir au facteur",
    "θέλω να σηκωθώ νωρίς",
    "arrête la sonnerie du téléphone",
]

TIMES: dict[str, AlarmTime | None] = {
    "à six heures tapantes": T(6, 0),
    "6h pile": T(6, 0),
    "vers les 7h": T(7, 0),
    "à sept heures moins cinq": T(6, 55),
    "dans trois quarts d'heure": D(45),
    "in 45 minutes": D(45),
    "σε 45 λεπτά": D(45),
    "in forty five minutes": D(45),
    "στις έξι ακριβώς": T(6, 0),
    "κατά τις 7": T(7, 0),
    "à 18 heures 30": T(18, 30),
    "vers 8 heures et demie": T(8, 30),
    "à dix heures du soir": T(22, 0),
    "at a quarter past 10 at night": T(22, 15),
    "on friday at 6 pm": T(18, 0, wd=4),
    "samedi matin à 8 heures": T(8, 0, wd=5),
    "ce soir à neuf heures": T(21, 0),
    "σε μιάμιση ώρα": D(90),
    "dans une heure et quart": D(75),
    "in an hour and a quarter": D(75),
    "in two and a half hours": D(150),
    "dans deux heures et demie": D(150),
    "at 7 on the dot": T(7, 0),
    "à 7 heures pile demain": T(7, 0, days=1),
    "vers les huit heures": T(8, 0),
    "at five to seven": T(6, 55),
    "le docteur": None,
    "demain matin": None,
}

# ---------------------------------------------------------------------------------------------
# Memory
# ---------------------------------------------------------------------------------------------

SAVE: list[tuple[str, str]] = [
    (
        "euh souviens-toi que mes clés sont dans le tiroir de la cuisine",
        "mes clés sont dans le tiroir de la cuisine",
    ),
    (
        "est-ce que vous pourriez retenir que mon cardiologue c'est le docteur Lefèvre",
        "mon cardiologue c'est le docteur Lefèvre",
    ),
    (
        "ma petite retiens que l'anniversaire de Léa c'est le 12 juin",
        "l'anniversaire de Léa c'est le 12 juin",
    ),
    ("n'oubliez pas que je prends le Kardégic le matin", "je prends le Kardégic le matin"),
    (
        "il faut que tu te souviennes que ma petite-fille Emma a ses 10 ans en mars",
        "ma petite-fille Emma a ses 10 ans en mars",
    ),
    ("note que les lunettes sont sur la commode", "les lunettes sont sur la commode"),
    (
        "je voudrais que vous reteniez que mon fils appelle le dimanche",
        "mon fils appelle le dimanche",
    ),
    (
        "souvenez-vous que le médecin traitant c'est le docteur Benali",
        "le médecin traitant c'est le docteur Benali",
    ),
    ("mémorise que mon infirmière passe à 8h", "mon infirmière passe à 8h"),
    (
        "s'il vous plaît souvenez-vous que je suis allergique à l'aspirine",
        "je suis allergique à l'aspirine",
    ),
    ("rappelle-toi bien que Julien est né le 4 avril", "Julien est né le 4 avril"),
    (
        "euh euh n'oublie pas que j'ai rendez-vous chez le dentiste jeudi",
        "j'ai rendez-vous chez le dentiste jeudi",
    ),
    (
        "ma belle note bien que le double des clés est chez Odette",
        "le double des clés est chez Odette",
    ),
    (
        "remember that my keys are in the blue bowl by the door",
        "my keys are in the blue bowl by the door",
    ),
    (
        "please make a note that my grandson tom's birthday is on the 5th of july",
        "my grandson tom's birthday is on the 5th of july",
    ),
    (
        "could you remember for me that dr patel is my heart doctor",
        "dr patel is my heart doctor",
    ),
    (
        "don't forget that i take my blood pressure pills with breakfast",
        "i take my blood pressure pills with breakfast",
    ),
    (
        "i'd like you to remember that my eye drops go in at night",
        "my eye drops go in at night",
    ),
    (
        "keep in mind that my daughter visits every tuesday",
        "my daughter visits every tuesday",
    ),
    ("just remember that the spare key is under the mat", "the spare key is under the mat"),
    ("θυμήσου ότι τα κλειδιά είναι στο συρτάρι", "τα κλειδιά είναι στο συρτάρι"),
    (
        "να θυμάσαι πως ο γιατρός μου είναι ο κύριος Παπαδόπουλος",
        "ο γιατρός μου είναι ο κύριος Παπαδόπουλος",
    ),
    (
        "μην ξεχάσεις ότι τα γενέθλια της εγγονής μου είναι στις 3 Μαΐου",
        "τα γενέθλια της εγγονής μου είναι στις 3 Μαΐου",
    ),
    (
        "σε παρακαλώ θυμήσου ότι παίρνω τα χάπια μου το πρωί",
        "παίρνω τα χάπια μου το πρωί",
    ),
    ("θέλω να θυμάσαι ότι ο εγγονός μου λέγεται Νίκος", "ο εγγονός μου λέγεται Νίκος"),
]

NOT_SAVE: list[str] = [
    "je me souviens de mon enfance",
    "I remember when we lived in Brighton",
    "θυμάμαι τον πατέρα μου",
    "je me rappelle que mon père faisait du pain",
    "j'oublie tout en ce moment",
    "I always forget where I put my keys",
    "tu te rappelles que je t'ai dit pour le docteur",
    "n'oublie pas de me rappeler mes médicaments",
    "I can't remember that name",
    "ma mémoire n'est plus ce qu'elle était",
    "δεν θυμάμαι πού έβαλα τα κλειδιά",
    "I remember that my mother made bread every sunday",
    "je me souviens que mon mari chantait",
    "θυμάμαι ότι ο πατέρας μου ήταν ψαράς",
]

RECALL: list[tuple[str, str]] = [
    ("qu'est-ce que vous savez sur mon petit-fils", "mon petit-fils"),
    ("euh tu te souviens du nom de mon médecin", "nom de mon médecin"),
    ("tu te rappelles de l'anniversaire de Léa", "l'anniversaire de Léa"),
    ("vous vous souvenez de ma fille Sophie", "ma fille Sophie"),
    ("est-ce que tu sais quelque chose sur Julien", "Julien"),
    ("qu'est-ce que je t'ai dit sur mes médicaments", "mes médicaments"),
    ("rappelle-moi ce que tu sais sur le docteur Benali", "le docteur Benali"),
    ("what do you remember about my granddaughter's birthday", "my granddaughter's birthday"),
    ("do you remember where i put my keys", "where i put my keys"),
    ("what did i tell you about my medication", "my medication"),
    ("what do you know about dr patel", "dr patel"),
    ("can you remind me what you know about tom", "tom"),
    ("τι θυμάσαι για τα γενέθλια του εγγονού μου", "τα γενέθλια του εγγονού μου"),
    ("τι ξέρεις για τον γιατρό μου", "τον γιατρό μου"),
    ("θυμάσαι πού έβαλα τα κλειδιά", "πού έβαλα τα κλειδιά"),
    ("ξέρεις τίποτα για τη Μαρία", "τη Μαρία"),
]

NOT_RECALL: list[str] = [
    "je me souviens de mon enfance",
    "parle-moi du temps qu'il fera demain",
    "θυμάμαι τον πατέρα μου",
    "I remember when we lived in Brighton",
    "je me rappelle de la guerre",
]

# ---------------------------------------------------------------------------------------------
# Feelings and confirmations
# ---------------------------------------------------------------------------------------------

AFFECT: list[tuple[str, str]] = [
    ("je me sens très seule depuis que mon mari est parti", "loneliness"),
    ("euh j'ai mal aux genoux aujourd'hui", "pain"),
    ("j'ai mal partout ma petite", "pain"),
    ("j'ai un peu le cafard", "sadness"),
    ("personne ne m'appelle jamais", "loneliness"),
    ("je suis tombée dans la salle de bain", "fall"),
    ("j'ai peur la nuit", "fear"),
    ("j'ai le moral dans les chaussettes", "sadness"),
    ("je suis angoissée", "fear"),
    ("i've been feeling very lonely lately", "loneliness"),
    ("my knees are killing me", "pain"),
    ("my hip hurts", "pain"),
    ("i'm a bit frightened tonight", "fear"),
    ("i feel so low today", "sadness"),
    ("i slipped and fell in the kitchen", "fall"),
    ("nobody ever calls me", "loneliness"),
    ("νιώθω πολύ μόνη μου", "loneliness"),
    ("πονάνε τα πόδια μου", "pain"),
    ("φοβάμαι να μείνω μόνη", "fear"),
    ("είμαι πολύ στενοχωρημένη", "sadness"),
    ("έπεσα στο μπάνιο", "fall"),
    ("έχω πόνο στη μέση", "pain"),
]

NOT_AFFECT: list[str] = [
    "j'ai mal dormi",
    "je ne suis pas triste",
    "the film was sad",
    "i'm not in pain anymore",
    "ça ne me fait plus mal",
    "je n'ai pas peur",
    "I'm afraid I don't know",
    "I fell asleep in my chair",
    "je suis tombée sur une belle émission",
    "δεν νιώθω μόνη",
]

YES: list[str] = [
    "oui oui d'accord",
    "oui ma petite",
    "ben oui bien sûr",
    "c'est bon",
    "oui c'est ça",
    "volontiers",
    "oui s'il vous plaît",
    "bien entendu",
    "oui je confirme",
    "yes do it",
    "yeah go on",
    "that's right",
    "yes dear",
    "alright",
    "all right",
    "ναι ναι προχώρα",
    "ναι σε παρακαλώ",
    "εντάξει προχώρα",
]

NO: list[str] = [
    "non merci ma petite",
    "non non non",
    "ah non pas ça",
    "non ne fais rien",
    "no no no",
    "no thank you",
    "better not",
    "non c'est pas la peine",
    "c'est pas la peine",
    "pas la peine",
    "certainly not",
    "absolument pas",
    "of course not",
    "pas du tout",
    "όχι ακόμα",
    "όχι όχι άσ'το",
]

NEITHER: list[str] = [
    "je sais pas",
    "peut-être",
    "pas sûr",
    "not sure",
    "hmm let me think",
    "δεν ξέρω",
]


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------

test_set_alarm = corpus_test(corpus.check_alarm_command, SEED_PREFIX + SET_FR + SET_EN + SET_EL)
test_list_alarms = corpus_test(corpus.check_list_alarms, LIST)
test_cancel_alarm = corpus_test(corpus.check_alarm_command, CANCEL)
test_not_an_alarm_request = corpus_test(corpus.check_not_an_alarm, NOT_ALARMS)
test_times = corpus_test(corpus.check_time, TIMES.items())
test_memory_save = corpus_test(corpus.check_memory_save, SAVE)
test_not_a_memory_save = corpus_test(corpus.check_not_a_memory_save, NOT_SAVE)
test_memory_recall = corpus_test(corpus.check_memory_recall, RECALL)
test_not_a_memory_recall = corpus_test(corpus.check_not_a_memory_recall, NOT_RECALL)
test_feelings = corpus_test(corpus.check_feeling, AFFECT)
test_not_feelings = corpus_test(corpus.check_not_a_feeling, NOT_AFFECT)
test_yes = corpus_test(corpus.check_yes, YES)
test_no = corpus_test(corpus.check_no, NO)
test_neither_yes_nor_no = corpus_test(corpus.check_neither_yes_nor_no, NEITHER)


def test_corpus_sizes() -> None:
    """The corpus keeps its breadth per language."""
    assert len(SEED_PREFIX) >= 15
    assert (len(SET_FR), len(SET_EN), len(SET_EL)) >= (40, 25, 15)
    assert len(LIST) >= 25 and len(CANCEL) >= 25 and len(NOT_ALARMS) >= 30
