"""Second held-out corpus for the local language rules (red team, round 2).

Written in a deliberately different style from ``test_language_heldout.py``: realistic dialogue
from meetings, doctor visits, shopping, travel, family calls, tech support and cooking; long
run-on speech-to-text utterances where the question comes after a lead-in (without a comma) or
in the middle; indirect questions ("I wonder if…", which the engine treats as questions), polite
requests that are questions, Greek with ';' and U+037E, French inversions with "-t-", Spanish
with an opening "¿" only, and hard negatives: reported speech, titles, relative clauses,
exclamations and conditional statements. Reminders and tasks come with habitual negatives
("I have to say…").
"""

from __future__ import annotations

import time

import pytest

from custom_components.homebuddy_proactive.engine.language import (
    KIND_REMINDER,
    KIND_TASK,
    capture_memory,
    detect_language,
    is_question,
    memory_card,
)

# ---------------------------------------------------------------------------------------------
# Questions (no punctuation unless the language's own marks are part of the test)
# ---------------------------------------------------------------------------------------------

QUESTIONS: dict[str, list[str]] = {
    "en": [
        # run-on with the question at the end
        "so i was thinking about the trip and um do you know if the museum is open on mondays",
        "we finished the slides for the quarterly review last night and i just wanted to check "
        "are we presenting before or after lunch",
        "the doctor said the results came back normal but she wants another scan so should i "
        "book that now or wait until next month",
        "i put the chicken in at six and it's been about forty minutes now how long does it "
        "still need",
        "my laptop keeps restarting every time i plug in the second monitor is there a driver "
        "i need to update",
        "mom called earlier and she sounded tired did she say anything about the hospital",
        "okay the printer is connected to the wifi but nothing comes out what am i doing wrong",
        "we landed an hour late and missed the connection which gate does the next flight to "
        "rome leave from",
        # questions after a lead-in without a comma
        "sorry to bother you but where can i find the gluten free pasta",
        "just out of curiosity how much did the new roof cost",
        "one more thing what time does the pharmacy close",
        # polite requests and feasibility
        "would you mind holding the door for a second",
        "could i get the dressing on the side",
        "would it be possible to move my appointment to thursday",
        "do you happen to know the wifi password",
        "might i suggest we take a short break",
        "is it okay if i park in the visitor spot",
        "mind if i open the window",
        # indirect / embedded (treated as questions, as in the first held-out corpus)
        "i was wondering whether you had time to look at my draft",
        "i'm not sure if the kids have eaten already do you know",
        # auxiliaries and modals
        "shall we split the bill",
        "has the plumber confirmed for tomorrow",
        "were there any side effects with the old medication",
        "did you remember to bring the insurance card",
        "have they fixed the elevator yet",
        "isn't the meeting supposed to start at ten",
        "doesn't the recipe call for two eggs",
        "can't we just restart the router",
        "would tuesday work for everyone",
        "how often should i take these pills",
        "what should i bring to the potluck",
        "which of these cables goes into the tv",
        "whereabouts is the lost and found",
        "what's the difference between the two plans",
        "how do i reset my password",
        "who's picking up grandma from the station",
        "so what did the mechanic say about the brakes",
        "right so how many people are coming on saturday",
    ],
    "fr": [
        "alors j'ai regardé les horaires et euh est-ce que le train de huit heures part du "
        "quai trois",
        "bon on a fini la réunion plus tôt que prévu est-ce qu'on peut déjeuner ensemble",
        "l'ordinateur ne démarre plus depuis la mise à jour qu'est-ce que je dois faire",
        "ta sœur a appelé ce matin elle voulait savoir quand est-ce que tu rentres",
        "excusez-moi où sont les toilettes",
        "dites-moi à quelle heure passe le prochain bus",
        "a-t-il pris ses médicaments ce matin",
        "va-t-on vraiment partir sous la pluie",
        "y aura-t-il du monde au marché samedi",
        "pourquoi n'a-t-elle pas répondu à mon message",
        "que pensez-vous de cette proposition",
        "où est-ce qu'on range les assiettes",
        "est-ce qu'il y a un parking près de l'hôpital",
        "est ce que vous acceptez les chèques",
        "ça vous dérangerait de baisser un peu la musique",
        "ça te dérange si j'ouvre la fenêtre",
        "auriez-vous la gentillesse de m'aider",
        "voulez-vous que je vous appelle un taxi",
        "je me demande s'il faut réserver à l'avance",
        "je voudrais savoir si le magasin livre à domicile",
        "on fait comment pour aller à la gare",
        "c'est combien le kilo de tomates",
        "combien de fois par jour je dois prendre ce sirop",
        "lequel des deux forfaits est le moins cher",
        "qu'est-ce qu'on mange ce soir",
        "peut-on payer en plusieurs fois",
        "dois-je apporter quelque chose",
        "faut-il un visa pour aller au canada",
        "il faut combien de temps pour cuire les pâtes",
    ],
    "es": [
        "¿dónde está el baño",
        "¿me podría traer la cuenta por favor",
        "oye estaba pensando en el viaje y sabes si el museo abre los lunes",
        "ya terminamos la reunión y quería preguntarte si podemos comer juntos",
        "puse el pollo en el horno hace media hora cuánto le falta",
        "el ordenador se reinicia cada vez que conecto el monitor qué tengo que hacer",
        "perdone dónde están los probadores",
        "disculpa a qué hora pasa el próximo autobús",
        "le importaría bajar un poco la música",
        "te importa si abro la ventana",
        "sería posible cambiar la cita al jueves",
        "podría decirme cómo llegar a la estación",
        "me pregunto si habrá que reservar con antelación",
        "quisiera saber si hacen envíos a domicilio",
        "cuántas veces al día tengo que tomar el jarabe",
        "cuál de los dos planes sale más barato",
        "qué vamos a cenar esta noche",
        "se puede pagar a plazos",
        "cómo hago para restablecer la contraseña",
        "quién va a recoger a la abuela en la estación",
        "a ti qué te parece la propuesta",
        "y eso cuánto cuesta",
        "entonces qué dijo el mecánico de los frenos",
        "dónde dejaste las llaves del coche",
    ],
    "de": [
        "ich habe mir gerade die fahrpläne angeschaut und weißt du ob der zug um acht fährt",
        "der rechner startet seit dem update nicht mehr was soll ich machen",
        "entschuldigung wo sind hier die toiletten",
        "müssen wir morgen früher los",
        "darf ich kurz ihr telefon benutzen",
        "soll ich dich vom bahnhof abholen",
        "würden sie mir bitte die tür aufhalten",
        "würde es ihnen etwas ausmachen die musik leiser zu machen",
        "wäre es möglich den termin auf donnerstag zu verschieben",
        "ich frage mich ob wir vorher reservieren müssen",
        "ich wüsste gern ob sie auch nach hause liefern",
        "hast du schon den klempner angerufen",
        "braucht ihr hilfe mit den taschen",
        "kommst du zur hochzeit von meiner cousine",
        "wie oft am tag soll ich den sirup nehmen",
        "welcher der beiden tarife ist günstiger",
        "was essen wir heute abend",
        "kann man hier in raten zahlen",
        "wie setze ich mein passwort zurück",
        "wer holt oma vom bahnhof ab",
        "und was hat der mechaniker zu den bremsen gesagt",
        "wo hast du die autoschlüssel hingelegt",
        "gibt's hier irgendwo einen geldautomaten",
        "haben sie das auch eine nummer kleiner",
        "sind die kinder schon im bett",
        "wieso ist die heizung schon wieder kalt",
        "weshalb wurde die sitzung abgesagt",
    ],
    "it": [
        "stavo pensando al viaggio e sai se il museo è aperto il lunedì",
        "il computer si riavvia ogni volta che collego lo schermo cosa devo fare",
        "scusi dove sono i camerini",
        "senta a che ora passa il prossimo autobus",
        "le dispiacerebbe abbassare un po' la musica",
        "ti dispiace se apro la finestra",
        "sarebbe possibile spostare l'appuntamento a giovedì",
        "mi chiedo se bisogna prenotare in anticipo",
        "vorrei sapere se fate consegne a domicilio",
        "hai già chiamato l'idraulico",
        "c'è modo di pagare a rate",
        "si può entrare con il cane",
        "quante volte al giorno devo prendere lo sciroppo",
        "quale dei due piani costa meno",
        "cosa mangiamo stasera",
        "come faccio a reimpostare la password",
        "chi va a prendere la nonna alla stazione",
        "allora cosa ha detto il meccanico dei freni",
        "dove hai messo le chiavi della macchina",
        "ce l'avete una taglia più piccola",
        "avete bisogno di una mano con le borse",
        "mi potrebbe portare il conto per favore",
    ],
    "pt": [
        "estava a pensar na viagem e sabes se o museu abre à segunda",
        "o computador reinicia sempre que ligo o monitor o que é que eu tenho de fazer",
        "desculpe onde ficam os provadores",
        "com licença a que horas passa o próximo ônibus",
        "você se importaria de abaixar um pouco a música",
        "importas-te que eu abra a janela",
        "seria possível mudar a consulta para quinta",
        "pergunto-me se é preciso reservar com antecedência",
        "gostaria de saber se vocês fazem entregas",
        "dá para pagar em prestações",
        "quantas vezes por dia eu tomo o xarope",
        "qual dos dois planos sai mais barato",
        "o que vamos jantar hoje",
        "como é que eu faço para redefinir a senha",
        "quem vai buscar a avó à estação",
        "então o que disse o mecânico sobre os travões",
        "onde é que deixaste as chaves do carro",
        "poderia me trazer a conta por favor",
    ],
    "el": [
        "σκεφτόμουν το ταξίδι και ξέρεις αν το μουσείο είναι ανοιχτό τη δευτέρα",
        "έβαλα το κοτόπουλο στο φούρνο πριν μισή ώρα πόσο ακόμα θέλει",
        "ο υπολογιστής κάνει επανεκκίνηση κάθε φορά που συνδέω την οθόνη τι πρέπει να κάνω",
        "συγγνώμη πού είναι τα δοκιμαστήρια",
        "θα σας πείραζε να χαμηλώσετε λίγο τη μουσική",
        "σε πειράζει αν ανοίξω το παράθυρο",
        "θα ήταν δυνατόν να μεταφέρουμε το ραντεβού την πέμπτη",
        "αναρωτιέμαι αν πρέπει να κλείσουμε από πριν",
        "θα ήθελα να μάθω αν κάνετε παράδοση στο σπίτι",
        "πόσες φορές την ημέρα πρέπει να παίρνω το σιρόπι",
        "ποιο από τα δύο πακέτα είναι φθηνότερο",
        "τι θα φάμε απόψε",
        "πώς κάνω επαναφορά του κωδικού",
        "ποιος θα πάρει τη γιαγιά από το σταθμό",
        "λοιπόν τι είπε ο μηχανικός για τα φρένα",
        "πού άφησες τα κλειδιά του αυτοκινήτου",
        "έχετε αυτό σε μικρότερο νούμερο",
        "θα μπορούσατε να μου φέρετε το λογαριασμό",
        "μπορώ να πληρώσω με δόσεις",
        "τι λες για την πρόταση",
        "που ειναι η τουαλετα",
        "ποσο κανει το κιλο οι ντοματες",
        "ΤΙ ΩΡΑ ΑΝΟΙΓΕΙ Η ΤΡΑΠΕΖΑ",
        # the Greek question mark, both the Latin ';' and U+037E, with final sigma
        "Πού πας;",
        "Πού πας\u037e",
        "Τι ώρα τελειώνεις σήμερα;",
        "ΠΟΙΟΣ ΕΡΧΕΤΑΙ;",
        "τον είδες τον Νίκο;",
        "πόσες μέρες θα μείνεις στην Αθήνα",
        "ΠΟΣΕΣ ΜΕΡΕΣ ΘΑ ΜΕΙΝΕΙΣ",
        "πωσ πασ στη δουλεια",
    ],
}

# ---------------------------------------------------------------------------------------------
# Hard negatives: reported speech, titles, relative clauses, exclamations, conditionals
# ---------------------------------------------------------------------------------------------

STATEMENTS: dict[str, list[str]] = {
    "en": [
        "she asked me where the station was",
        "he wanted to know why we left so early",
        "the nurse asked whether i had eaten anything this morning",
        "what we do in the shadows is a good show",
        "how i met your mother was on tv last night",
        "the place where we met is closed now",
        "that's the restaurant where we had our anniversary dinner",
        "the reason why i called is the insurance form",
        "how beautiful the sunset is tonight",
        "what a mess the kitchen is",
        "if you can come great if not no worries",
        "if it rains we'll eat inside",
        "whoever took my charger please bring it back",
        "i know where the keys are",
        "i asked the mechanic what was wrong with the brakes",
        "i'll tell you when the taxi arrives",
        "we talked about how much the trip would cost",
        "let me check which gate it is",
        "i have no idea who sent that email",
        "i don't know what time it starts but i'll find out",
        "i was wondering about that too",
        "the doctor explained how the treatment works",
        "my sister asked if she could borrow the car",
        "the question is whether we can afford it",
        "so we went to the market and bought some fish and then drove home",
        "the printer is working again after i restarted it",
        "can of tomatoes and a bag of rice",
        "will and kate are coming to dinner",
        "may is the best month for the garden",
        "it depends on whether the train is on time",
        "that's why i called",
        "what goes around comes around",
        "how about that",
        "my brother is there a lot these days",
        "we went home and how nice it was",
        "i told him how much does it cost and he laughed",
        "it was late so we took a taxi and went home",
    ],
    "fr": [
        "il m'a demandé pourquoi j'étais en retard",
        "elle voulait savoir où on allait dîner",
        "le médecin m'a demandé si je dormais bien",
        "la ville où j'habite est très calme",
        "le jour où on s'est rencontrés il pleuvait",
        "que c'est beau ce coucher de soleil",
        "qu'est-ce qu'il fait chaud aujourd'hui",
        "comme c'est gentil de ta part",
        "si tu peux venir tant mieux sinon tant pis",
        "s'il pleut on mangera à l'intérieur",
        "je sais où sont les clés",
        "je ne sais pas à quelle heure ça commence",
        "je t'appellerai quand le taxi arrivera",
        "on a parlé de combien coûterait le voyage",
        "je me demandais justement la même chose",
        "le médecin m'a expliqué comment marche le traitement",
        "c'est pour ça que j'ai appelé",
        "la question c'est de savoir si on peut se le permettre",
        "ça dépend si le train est à l'heure",
        "qui ne tente rien n'a rien",
        "voilà pourquoi je suis parti",
        "il se demande s'il a bien fait",
        "l'imprimante marche de nouveau depuis que je l'ai redémarrée",
        "on est allés au marché puis on est rentrés",
        "quel bonheur de vous revoir",
    ],
    "es": [
        "me preguntó cuándo volvíamos",
        "el médico me preguntó si dormía bien",
        "la ciudad donde vivo es muy tranquila",
        "el día que nos conocimos llovía",
        "¡qué bonito!",
        "qué bonito es este atardecer",
        "cuánto me alegro de verte",
        "si puedes venir genial si no pues nada",
        "si llueve comemos dentro",
        "ya sé dónde están las llaves",
        "no sé a qué hora empieza",
        "te llamo cuando llegue el taxi",
        "hablamos de cuánto costaría el viaje",
        "el médico me explicó cómo funciona el tratamiento",
        "por eso te llamé",
        "depende de si el tren llega a tiempo",
        "la impresora ya funciona desde que la reinicié",
        "fuimos al mercado y luego volvimos a casa",
        "no me acuerdo de quién lo dijo",
        "qué rico está el gazpacho",
        "cómo me gusta este sitio",
    ],
    "de": [
        "sie hat mich gefragt wo der bahnhof ist",
        "er wollte wissen warum wir so früh gegangen sind",
        "der arzt hat gefragt ob ich gut schlafe",
        "das haus wo ich wohne ist sehr ruhig",
        "die stadt in der ich wohne ist klein",
        "wie schön",
        "wie schön dass du da bist",
        "was für ein chaos in der küche",
        "wenn du kommen kannst super wenn nicht auch gut",
        "wenn es regnet essen wir drinnen",
        "ich weiß wo die schlüssel sind",
        "ich weiß nicht wann es anfängt",
        "ich rufe dich an wenn das taxi da ist",
        "wir haben darüber geredet wie viel die reise kostet",
        "der arzt hat mir erklärt wie die behandlung funktioniert",
        "deshalb habe ich angerufen",
        "es kommt darauf an ob der zug pünktlich ist",
        "der drucker geht wieder seit ich ihn neu gestartet habe",
        "wir waren auf dem markt und sind dann nach hause gefahren",
        "ich kann mich nicht erinnern wer das gesagt hat",
        "soll er doch machen was er will",
        "muss ja nicht sein",
        "darf ich vorstellen das ist mein bruder",
        "er kam nach hause und hat sie sofort angerufen",
        "ich weiß nicht was soll ich machen",
        "so was kann man nicht machen",
    ],
    "it": [
        "mi ha chiesto perché ero in ritardo",
        "voleva sapere dove andavamo a cena",
        "il medico mi ha chiesto se dormo bene",
        "la città dove abito è molto tranquilla",
        "il giorno in cui ci siamo conosciuti pioveva",
        "che bello",
        "che bello questo tramonto",
        "quanto mi fa piacere vederti",
        "se puoi venire bene se no pazienza",
        "se piove mangiamo dentro",
        "so dove sono le chiavi",
        "non so a che ora comincia",
        "ti chiamo quando arriva il taxi",
        "abbiamo parlato di quanto costerebbe il viaggio",
        "il medico mi ha spiegato come funziona la cura",
        "per questo ti ho chiamato",
        "dipende se il treno è in orario",
        "la stampante funziona di nuovo da quando l'ho riavviata",
        "siamo andati al mercato e poi siamo tornati a casa",
        "non mi ricordo chi l'ha detto",
        "come sei gentile",
        "non so cosa devo fare",
        "e poi siamo andati a casa e dove abitiamo fa freddo",
    ],
    "pt": [
        "ela me perguntou onde ficava a estação",
        "ele queria saber porque saímos tão cedo",
        "o médico perguntou se eu durmo bem",
        "a cidade onde eu moro é muito calma",
        "o dia em que nos conhecemos chovia",
        "que lindo",
        "que lindo este pôr do sol",
        "como estou contente de te ver",
        "se puderes vir ótimo se não paciência",
        "se chover comemos lá dentro",
        "eu sei onde estão as chaves",
        "não sei a que horas começa",
        "eu te ligo quando o táxi chegar",
        "falamos de quanto custaria a viagem",
        "o médico explicou como funciona o tratamento",
        "por isso é que te liguei",
        "depende se o comboio chega a horas",
        "a impressora voltou a funcionar desde que a reiniciei",
        "fomos ao mercado e depois voltámos para casa",
        "não me lembro de quem disse isso",
    ],
    "el": [
        "με ρώτησε πού είναι ο σταθμός",
        "ήθελε να μάθει γιατί φύγαμε νωρίς",
        "ο γιατρός με ρώτησε αν κοιμάμαι καλά",
        "η πόλη όπου μένω είναι πολύ ήσυχη",
        "το σπίτι που μένω είναι μικρό",
        "τι ωραία",
        "τι ωραίο ηλιοβασίλεμα",
        "πόσο χαίρομαι που σε βλέπω",
        "αν μπορείς να έρθεις τέλεια αν όχι δεν πειράζει",
        "αν βρέξει θα φάμε μέσα",
        "ξέρω πού είναι τα κλειδιά",
        "δεν ξέρω τι ώρα αρχίζει",
        "θα σε πάρω όταν έρθει το ταξί",
        "ο γιατρός μου εξήγησε πώς λειτουργεί η θεραπεία",
        "γι αυτό σε πήρα",
        "εξαρτάται αν το τρένο έρθει στην ώρα του",
        "πήγαμε στη λαϊκή και μετά γυρίσαμε σπίτι",
        "δεν θυμάμαι ποιος το είπε",
        "τι καλά που ήρθες",
        "ξέρω τι πρέπει να κάνω",
        "πού και πού πάμε για καφέ και τα λέμε",
        "πρέπει να πω ότι ήταν πολύ ωραία",
    ],
}

# ---------------------------------------------------------------------------------------------
# Reminders and tasks
# ---------------------------------------------------------------------------------------------

R, T = KIND_REMINDER, KIND_TASK

CAPTURES: dict[str, list[tuple[str, str, str]]] = {
    "en": [
        ("I have to pick up the kids at four", T, "pick up the kids"),
        ("need to book the car service", T, "book the car service"),
        ("so i gotta renew the parking permit this week", T, "renew the parking permit"),
        ("we must send the invoice to the client by friday", T, "send the invoice"),
        ("remind me after lunch to call the pharmacy", R, "call the pharmacy"),
        ("make sure i remember to defrost the fish", R, "defrost the fish"),
        ("put batteries on the shopping list", T, "batteries"),
    ],
    "fr": [
        ("on doit rendre les livres à la bibliothèque", T, "rendre les livres"),
        ("faut que je pense à arroser les plantes", R, "arroser les plantes"),
        ("il faut que je prenne rendez-vous chez le dentiste", T, "prenne rendez-vous"),
        ("je dois absolument appeler l'assurance demain", T, "appeler l'assurance"),
        ("rappelle-moi ce soir de sortir les poubelles", R, "sortir les poubelles"),
        ("n'oublie pas de racheter du café", R, "racheter du café"),
        ("mets du beurre sur la liste des courses", T, "du beurre"),
        ("nous devons renvoyer le colis avant lundi", T, "renvoyer le colis"),
    ],
    "el": [
        ("πρέπει να κλείσω ραντεβού στον γιατρό", T, "κλείσω ραντεβού"),
        ("πρέπει να πάρουμε τα παιδιά στις τέσσερις", T, "πάρουμε τα παιδιά"),
        ("θύμισέ μου το απόγευμα να πάρω το φαρμακείο", R, "πάρω το φαρμακείο"),
        ("μη με αφήσεις να ξεχάσω να πληρώσω το ρεύμα", R, "πληρώσω το ρεύμα"),
        ("πρεπει να στειλω το τιμολογιο μεχρι την παρασκευη", T, "στειλω το τιμολογιο"),
        ("μην ξεχάσεις να πάρεις ψωμί", R, "πάρεις ψωμί"),
    ],
    "es": [
        ("tengo que llamar al fontanero", T, "llamar al fontanero"),
        ("tenemos que devolver los libros a la biblioteca", T, "devolver los libros"),
        ("recuérdame esta tarde sacar la basura", R, "sacar la basura"),
        ("no te olvides de comprar café", R, "comprar café"),
        ("debo renovar el pasaporte este mes", T, "renovar el pasaporte"),
    ],
    "de": [
        ("ich muss noch die Miete überweisen", T, "Miete überweisen"),
        ("wir müssen die bücher in die bibliothek zurückbringen", T, "bücher"),
        ("erinnere mich heute abend daran den müll rauszustellen", R, "müll rauszustellen"),
        ("vergiss nicht kaffee zu kaufen", R, "kaffee zu kaufen"),
    ],
    "it": [
        ("devo ricordarmi di pagare la bolletta", R, "pagare la bolletta"),
        ("dobbiamo riportare i libri in biblioteca", T, "riportare i libri"),
        ("ricordami stasera di portare fuori la spazzatura", R, "portare fuori la spazzatura"),
        ("devo chiamare l'idraulico", T, "chiamare l'idraulico"),
    ],
    "pt": [
        ("tenho de marcar o dentista", T, "marcar o dentista"),
        ("tenho que buscar as crianças às quatro", T, "buscar as crianças"),
        ("temos de devolver os livros à biblioteca", T, "devolver os livros"),
        ("lembra-me logo à noite de pôr o lixo lá fora", R, "pôr o lixo"),
        ("não te esqueças de comprar café", R, "comprar café"),
    ],
}

NOT_CAPTURED: dict[str, list[str]] = {
    "en": [
        "I have to say it was great",
        "you have to admit the view was stunning",
        "i must say the soup was delicious",
        "we had to cancel the trip last year",
        "you need to relax a bit more",
        "that reminds me we saw that movie together",
        "i forgot to tell you about the party",
        "do we have to bring a present",
    ],
    "fr": [
        "il faut dire que le repas était excellent",
        "je dois dire que je suis surpris",
        "il faut avouer que c'était drôle",
        "on a dû annuler le voyage",
        "tu devrais te reposer un peu",
        "j'ai oublié de te parler de la fête",
        "faut-il apporter un cadeau",
    ],
    "el": [
        "πρέπει να πω ότι ήταν πολύ ωραία",
        "πρέπει να παραδεχτώ ότι είχες δίκιο",
        "έπρεπε να ακυρώσουμε το ταξίδι",
        "ξέχασα να σου πω για το πάρτι",
        "πρέπει να φέρουμε δώρο;",
    ],
    "es": [
        "tengo que admitir que tenías razón",
        "hay que reconocer que estuvo bien",
        "tuvimos que cancelar el viaje",
        "se me olvidó contarte lo de la fiesta",
    ],
    "de": [
        "ich muss zugeben du hattest recht",
        "wir mussten die reise absagen",
        "ich habe vergessen dir von der party zu erzählen",
    ],
    "it": [
        "devo ammettere che avevi ragione",
        "abbiamo dovuto annullare il viaggio",
        "mi sono dimenticato di dirti della festa",
    ],
    "pt": [
        "tenho de admitir que tinhas razão",
        "tivemos de cancelar a viagem",
        "esqueci-me de te falar da festa",
    ],
}


def _table(table: dict[str, list[str]]) -> list[object]:
    return [
        pytest.param(language, text, id=f"{language}-{index:02d}")
        for language, texts in table.items()
        for index, text in enumerate(texts)
    ]


@pytest.mark.parametrize(("language", "text"), _table(QUESTIONS))
def test_question(language: str, text: str) -> None:
    """Questions trigger with the transcript's language and with a detected language."""
    assert is_question(text, language)
    assert is_question(text, detect_language(text, None))


@pytest.mark.parametrize(("language", "text"), _table(STATEMENTS))
def test_statement(language: str, text: str) -> None:
    """Reported speech, titles, relatives, exclamations and conditionals do not trigger."""
    assert not is_question(text, language)
    assert not is_question(text, None)


def _captures() -> list[object]:
    return [
        pytest.param(language, *row, id=f"{language}-{index:02d}")
        for language, rows in CAPTURES.items()
        for index, row in enumerate(rows)
    ]


@pytest.mark.parametrize(("language", "text", "kind", "content"), _captures())
def test_capture(language: str, text: str, kind: str, content: str) -> None:
    """Reminder and task utterances are captured with their kind, content and a card."""
    captured = capture_memory(text, language)
    assert captured is not None
    assert captured.kind == kind
    assert content in captured.content
    assert captured.language == language
    assert content.split(maxsplit=1)[0] in memory_card(captured)


@pytest.mark.parametrize(("language", "text"), _table(NOT_CAPTURED))
def test_not_captured(language: str, text: str) -> None:
    """Figures of speech, past obligations, advice and questions are not captured."""
    assert capture_memory(text, language) is None


def test_speed() -> None:
    """Rules stay fast on long run-on utterances: well under a millisecond each on average."""
    texts = [t for table in (QUESTIONS, STATEMENTS) for texts in table.values() for t in texts]
    is_question(texts[0], None)
    start = time.perf_counter()
    for text in texts:
        is_question(text, None)
    elapsed = (time.perf_counter() - start) / len(texts)
    assert elapsed < 0.002
