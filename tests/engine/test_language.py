"""Tests of the engine's local language rules (no Home Assistant needed)."""

from __future__ import annotations

import dataclasses

import pytest

from custom_components.homebuddy_proactive.engine.const import INTENTS
from custom_components.homebuddy_proactive.engine.language import (
    CapturedMemory,
    capture_memory,
    detect_language,
    episode_cue,
    is_meaningful,
    is_question,
    local_signal,
    memory_card,
    mentions_sensitive_trait,
    name_key,
)

# ---------------------------------------------------------------------------------------------
# Spoken questions without punctuation, and statements that must not trigger
# ---------------------------------------------------------------------------------------------

QUESTIONS: dict[str, list[str]] = {
    "en": [
        "what time does the pharmacy close",
        "where did you park the car",
        "could I pay by card",
        "is it going to rain tomorrow",
        "do you know where my keys are",
        "can we leave at seven",
        "would it be possible to move the meeting to friday",
        "whats the capital of australia",
        "so um how long does it take to get there",
        "how much is a ticket to rome",
        "who's coming to dinner tonight",
        "why is the train late again",
        "which bus goes to the airport",
        "are there any direct flights to tokyo",
        "should I bring an umbrella",
        "I wonder if the museum is open on mondays",
        "we should leave soon. is the taxi here yet",
        "wheres the nearest atm",
        "Could you tell me the way to the station",
        "sorry, can you repeat that",
        "what kind of wine goes with fish",
        "to whom should I send the invoice",
        "might it be better to wait",
    ],
    "fr": [
        "est-ce que la pharmacie est ouverte",
        "pourrais-je avoir l'addition",
        "vient-il avec nous ce soir",
        "où est la gare la plus proche",
        "quand part le prochain train",
        "comment on fait pour aller au musée",
        "combien coûte un billet",
        "qu'est-ce que tu en penses",
        "alors tu pourrais m'aider demain",
        "est-ce que je peux payer par carte",
        "quelle heure est-il",
        "pourquoi le magasin est fermé",
        "tu sais si le musée est ouvert",
        "y a-t-il un bus pour l'aéroport",
        "bon on part à quelle heure",
        "Puis-je vous poser une question",
        "c'est combien le billet",
        "vous avez l'heure",
    ],
    "es": [
        "cuándo sale el próximo tren",
        "dónde está la farmacia",
        "podría ayudarme con las maletas",
        "puedo pagar con tarjeta",
        "qué hora es",
        "cómo se llega al museo",
        "cuánto cuesta la entrada",
        "por qué está cerrado el banco",
        "sabes si hay un cajero cerca",
        "quién viene a cenar esta noche",
        "se puede fumar aquí",
        "me puedes pasar la sal",
        "bueno y a qué hora empieza la película",
        "podríamos cambiar la reunión al lunes",
        "a qué hora cierra el museo",
    ],
    "de": [
        "Könnte ich morgen vorbeikommen",
        "Kann ich hier mit Karte zahlen",
        "Wo ist der nächste Bahnhof",
        "Wann fährt der letzte Bus",
        "Wie viel kostet das Ticket",
        "Hast du meine Schlüssel gesehen",
        "Gibt es hier in der Nähe eine Apotheke",
        "Weißt du, wann das Museum öffnet",
        "Was machst du heute Abend",
        "Warum ist der Laden geschlossen",
        "Kommst du mit ins Kino",
        "also wie lange dauert die Fahrt",
        "Sprechen Sie Englisch",
        "Welcher Zug fährt nach Berlin",
        "Bist du sicher",
    ],
    "it": [
        "potrei pagare con la carta",
        "posso sedermi qui",
        "dove si trova la stazione",
        "quando parte il prossimo treno",
        "come si arriva al museo",
        "quanto costa un biglietto",
        "che ore sono",
        "perché il negozio è chiuso",
        "mi puoi aiutare con le valigie",
        "chi viene a cena stasera",
        "sai se la farmacia è aperta",
        "allora cosa facciamo stasera",
        "dov'è il bagno",
        "si può pagare con il bancomat",
        "a che ora chiude il museo",
        "è possibile prenotare un tavolo",
        "quando ci vediamo",
    ],
    "pt": [
        "poderia me ajudar com as malas",
        "posso pagar com cartão",
        "onde fica a farmácia",
        "quando chega o próximo ônibus",
        "como faço para chegar ao museu",
        "quanto custa o bilhete",
        "que horas são",
        "por que a loja está fechada",
        "você sabe se o banco está aberto",
        "quem vem jantar hoje",
        "será que vai chover amanhã",
        "o que você acha disso",
        "dá para pagar com cartão",
        "a que horas fecha o museu",
        "por que você não vem",
        "é possível reservar uma mesa",
    ],
    "el": [
        "Θα μπορούσα να πληρώσω με κάρτα",
        "Πού είναι ο σταθμός",
        "Πότε φεύγει το επόμενο τρένο",
        "Τι ώρα κλείνει το φαρμακείο",
        "Πόσο κοστίζει το εισιτήριο",
        "Ποιος έρχεται απόψε",
        "Γιατί είναι κλειστό το μαγαζί",
        "Μήπως ξέρεις πού είναι τα κλειδιά",
        "Ξέρεις αν είναι ανοιχτό το μουσείο",
        "Πώς πάμε στο μουσείο",
        "λοιπόν μπορείς να με βοηθήσεις",
        "Θέλεις να πάμε σινεμά",
        "τι θα φάμε απόψε",
        "Έχετε ελεύθερο δωμάτιο",
    ],
}

STATEMENTS: dict[str, list[str]] = {
    "en": [
        "When I was young we lived in Paris",
        "What I mean is that we need more time",
        "How nice of you to come",
        "Where we live it rains a lot",
        "I think the meeting went well",
        "Can't wait to see you",
        "Don't worry about it",
        "What a beautiful day",
        "Who I am doesn't matter",
        "Could be worse",
        "Have a nice day",
        "Why I love this city is hard to explain",
        "When you get home call me",
        "What happened yesterday was terrible",
        "I went home; then I slept",
        "Which is why I left early",
    ],
    "fr": [
        "Quand j'étais jeune on habitait à Lyon",
        "Comme je disais tout à l'heure",
        "Je pense que c'est une bonne idée",
        "Quand tu arrives appelle-moi",
        "Quelle belle journée",
        "Où que tu ailles je te suivrai",
        "Ce que je veux dire c'est que",
        "On se retrouve au rendez-vous demain",
        "Peut-être qu'il viendra demain",
        "C'est ce que je pensais",
        "Je ne sais pas, n'importe quoi",
        "Quoi qu'il arrive je serai là",
        "Comment dire, c'est compliqué",
        "Combien je t'aime",
    ],
    "es": [
        "Cuando era niño vivía en Madrid",
        "Como te dije ayer no puedo ir",
        "Qué bonito día",
        "Donde vivimos llueve mucho",
        "Creo que el tren llega a las ocho",
        "Podría ser peor",
        "Lo que quiero decir es que no hay tiempo",
        "No puedo ir mañana",
        "Como quieras",
        "Tienes razón",
    ],
    "de": [
        "Wenn ich Zeit habe komme ich vorbei",
        "Wie ich schon sagte, das ist zu teuer",
        "Was ich meine ist dass wir mehr Zeit brauchen",
        "Wie schön",
        "Heute gehen wir ins Kino",
        "Ich glaube der Zug kommt um acht",
        "Kann sein",
        "Das weiß ich nicht",
        "Wenn du Zeit hast, kommst du vorbei",
        "Was auch immer passiert",
    ],
    "it": [
        "Quando ero giovane vivevo a Roma",
        "Come ti ho detto non posso venire",
        "Che bella giornata",
        "Penso che il treno arrivi alle otto",
        "Dove abitavo c'era un parco",
        "Perché sono stanco",
        "Quando arrivo a casa mi riposo",
        "Come sai domani è festa",
        "Quando piove resto a casa",
        "Può darsi che piova",
        "Hai ragione",
    ],
    "pt": [
        "Quando eu era jovem morava em Lisboa",
        "Como eu disse ontem não posso ir",
        "Que bom",
        "Onde eu moro chove muito",
        "Acho que o trem chega às oito",
        "O que eu quero dizer é que não temos tempo",
        "Porque estou cansado",
        "Quando chove fico em casa",
        "Você tem razão",
        "Como quiser",
    ],
    "el": [
        "Όταν ήμουν μικρός ζούσαμε στην Αθήνα",
        "Τι ωραία μέρα",
        "Νομίζω ότι το τρένο φτάνει στις οκτώ",
        "Εκεί που μένουμε βρέχει πολύ",
        "Ποτέ δεν πήγα στην Κρήτη",
        "Όπως σου είπα δεν μπορώ να έρθω",
        "Γιατί είμαι κουρασμένος",
        "Ό,τι πεις εσύ",
        "Έχεις δίκιο",
        "Πού και πού πάμε για καφέ",
    ],
}


def _table(data: dict[str, list[str]]) -> list[pytest.param]:  # type: ignore[valid-type]
    return [
        pytest.param(language, text, id=f"{language}-{index:02d}")
        for language, texts in data.items()
        for index, text in enumerate(texts)
    ]


@pytest.mark.parametrize(("language", "text"), _table(QUESTIONS))
def test_spoken_question_with_language(language: str, text: str) -> None:
    """Spoken questions without punctuation are recognised with the transcript language."""
    assert is_question(text, language)


@pytest.mark.parametrize(("language", "text"), _table(QUESTIONS))
def test_spoken_question_with_region_hint(language: str, text: str) -> None:
    """Region-qualified hints behave like base codes."""
    assert is_question(text, f"{language.upper()}-XX")


@pytest.mark.parametrize(("language", "text"), _table(STATEMENTS))
def test_statement_is_not_question(language: str, text: str) -> None:
    """Statements, including those starting with a question word, do not trigger."""
    assert not is_question(text, language)
    assert not is_question(text)


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("Where is the station", id="en"),
        pytest.param("où est la gare", id="fr"),
        pytest.param("Πού είναι ο σταθμός", id="el"),
        pytest.param("Kann ich hier parken", id="de"),
        pytest.param("dónde está el baño", id="es"),
        pytest.param("Potrei pagare con la carta", id="it"),
        pytest.param("Poderia me ajudar", id="pt"),
    ],
)
def test_spoken_question_without_language(text: str) -> None:
    """The language is detected when the transcript carries none."""
    assert is_question(text)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        pytest.param("Is it open?", None, id="question-mark"),
        pytest.param("It's open?", "en", id="declarative-with-mark"),
        pytest.param("今日は何曜日ですか？", None, id="fullwidth"),
        pytest.param("¿Vienes?", None, id="spanish-inverted"),
        pytest.param("Τι ώρα είναι;", None, id="greek-semicolon"),
        pytest.param("Είναι ανοιχτό\u037e", None, id="greek-question-mark"),
        pytest.param("είναι εδώ;", "el", id="greek-semicolon-hint"),
        pytest.param("Is it raining? I think so.", None, id="mark-inside"),
        pytest.param("OK. We are late. Can you call a taxi", "en", id="last-sentence"),
        pytest.param("I was at the store, could you pick me up", "en", id="last-clause"),
        pytest.param("I'm fine, and you", "en", id="and-you"),
        pytest.param("Ça va bien, et toi", "fr", id="et-toi"),
        pytest.param("You're coming tomorrow, right", "en", id="tag-right"),
        pytest.param("C'est loin, n'est-ce pas", "fr", id="tag-nest-ce-pas"),
        pytest.param("Das ist teuer, oder", "de", id="tag-oder"),
        pytest.param("Are you coming or not", "en", id="or-not"),
        pytest.param("ALORS, EST-CE QU'IL VIENT", "fr", id="upper-case"),
        pytest.param("  um  so   whats the plan  ", "en", id="fillers-spaces"),
        pytest.param("I was wondering whether we could meet", "en", id="wondering"),
        pytest.param("I'm going to the store do you need anything", "en", id="en-run-on"),
        pytest.param("I'm at the station where are you", "en", id="en-run-on-wh"),
        pytest.param("estoy en la estación dónde estás", "es", id="es-run-on"),
        pytest.param("είμαι στο σταθμό πού είσαι", "el", id="el-run-on"),
    ],
)
def test_question_forms(text: str, language: str | None) -> None:
    """Explicit marks, multi-sentence utterances, tags and indirect questions."""
    assert is_question(text, language)


@pytest.mark.parametrize(
    ("text", "language"),
    [
        pytest.param("", None, id="empty"),
        pytest.param("???", None, id="punctuation-only"),
        pytest.param("I went home; then I slept.", "en", id="ascii-semicolon"),
        pytest.param("Is it raining. No. It is sunny. We went out.", "en", id="old-sentence"),
        pytest.param("I was wondering.", "en", id="wondering-alone"),
        pytest.param("Yes I can do that", "en", id="answer"),
        pytest.param("Ja, kann ich machen", "de", id="de-answer"),
        pytest.param("Sì, posso venire", "it", id="it-answer"),
        pytest.param("Mach ich", "de", id="de-topic-drop"),
        pytest.param("I'll do you a favour", "en", id="en-do-you-favour"),
        pytest.param("I like it and so do you", "en", id="en-so-do-you"),
        pytest.param("not only did he come he also stayed", "en", id="en-negative-inversion"),
        pytest.param("no sé dónde está", "es", id="es-indirect"),
        pytest.param("δεν ξέρω πού είναι", "el", id="el-indirect"),
    ],
)
def test_non_question_forms(text: str, language: str | None) -> None:
    """Empty text, non-Greek semicolons, old sentences and answers do not trigger."""
    assert not is_question(text, language)


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        pytest.param("pourrais je avoir un verre d eau", "fr", True, id="fr-no-hyphen"),
        pytest.param("peut on payer en liquide", "fr", True, id="fr-no-hyphen-on"),
        pytest.param("a t il fini", "fr", True, id="fr-t-il"),
        pytest.param("Tu crois qu'il va pleuvoir", "fr", True, id="fr-opinion"),
        pytest.param("Bonjour, je voudrais savoir si c'est ouvert", "fr", True, id="fr-savoir"),
        pytest.param("Demain je pars", "fr", False, id="fr-adverb-pronoun"),
        pytest.param("Il est possible de venir", "fr", False, id="fr-statement"),
        pytest.param("Vous avez raison", "fr", False, id="fr-raison"),
        pytest.param("Peut être demain", "fr", False, id="fr-peut-etre"),
        pytest.param("the meeting is at three. i think. or was it four", "en", True, id="en-or"),
        pytest.param("dont you think its too late", "en", True, id="en-no-apostrophe"),
        pytest.param("WHERE IS THE NEAREST HOSPITAL", "en", True, id="en-caps"),
        pytest.param("ΠΟΥ ΕΙΝΑΙ Ο ΣΤΑΘΜΟΣ", "el", True, id="el-caps"),
        pytest.param("που ειναι ο σταθμος", "el", True, id="el-no-tonos"),
        pytest.param("εκει που μενουμε βρεχει πολυ", "el", False, id="el-no-tonos-relative"),
        pytest.param("Αυτό που εννοώ είναι ότι", "el", False, id="el-relative"),
        pytest.param("Εσύ τι λες", "el", True, id="el-topic"),
        pytest.param("Και τώρα τι κάνουμε", "el", True, id="el-topic-2"),
        pytest.param("Νομίζεις ότι θα βρέξει", "el", True, id="el-opinion"),
        pytest.param("Νομίζω ότι θα βρέξει", "el", False, id="el-own-opinion"),
        pytest.param("E adesso cosa facciamo", "it", True, id="it-topic"),
        pytest.param("Ora che ci penso hai ragione", "it", False, id="it-now-that"),
        pytest.param("Pensi che pioverà", "it", True, id="it-opinion"),
        pytest.param("E agora o que fazemos", "pt", True, id="pt-topic"),
        pytest.param("Agora que você chegou podemos ir", "pt", False, id="pt-now-that"),
        pytest.param("Acha que vai chover", "pt", True, id="pt-opinion"),
        pytest.param("Y ahora qué hacemos", "es", True, id="es-topic"),
        pytest.param("Ich möchte wissen, wann der Zug kommt", "de", True, id="de-wissen"),
    ],
)
def test_stt_quirks(text: str, language: str, expected: bool) -> None:
    """Missing hyphens, apostrophes, accents or capitals and fronted topics are handled."""
    assert is_question(text, language) is expected


# ---------------------------------------------------------------------------------------------
# Language detection
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "hint", "expected"),
    [
        pytest.param("anything", "fr-FR", "fr", id="hint-region"),
        pytest.param("anything", "EL", "el", id="hint-upper"),
        pytest.param("anything", "pt_BR", "pt", id="hint-underscore"),
        pytest.param("Καλημέρα, τι κάνεις σήμερα", None, "el", id="greek"),
        pytest.param("Je ne sais pas si elle vient avec nous", None, "fr", id="french"),
        pytest.param("No sé si ella viene con nosotros", None, "es", id="spanish"),
        pytest.param("Ich weiß nicht, ob sie mit uns kommt", None, "de", id="german"),
        pytest.param("Non so se lei viene con noi stasera", None, "it", id="italian"),
        pytest.param("Não sei se ela vem com a gente", None, "pt", id="portuguese"),
        pytest.param("I don't know if she is coming with us", None, "en", id="english"),
        pytest.param("12345", None, "en", id="default"),
        pytest.param("Hola", "", "es", id="empty-hint-ignored"),
    ],
)
def test_detect_language(text: str, hint: str | None, expected: str) -> None:
    """Hints win; otherwise script, then function words decide."""
    assert detect_language(text, hint) == expected


# ---------------------------------------------------------------------------------------------
# Reminder and task capture
# ---------------------------------------------------------------------------------------------

CAPTURES: list[tuple[str, str | None, str, str]] = [
    ("remind me to call the doctor at 5", "en", "reminder", "call the doctor at 5"),
    ("Please remind me to take my pills tonight.", "en", "reminder", "take my pills tonight"),
    ("can you remind me to water the plants tomorrow?", "en", "reminder", "water the plants"),
    ("don't let me forget to pick up the kids", "en", "reminder", "pick up the kids"),
    ("I need to remember to renew my passport", "en", "reminder", "renew my passport"),
    ("remember to lock the back door", "en", "reminder", "lock the back door"),
    ("ok so remind me that the plumber comes on Tuesday", "en", "reminder", "the plumber comes"),
    ("set a reminder to call Anna at noon", "en", "reminder", "call Anna at noon"),
    ("Great. Remind me to call Dr. Smith at 5.", "en", "reminder", "call Dr. Smith at 5"),
    ("add milk to my shopping list", "en", "task", "milk"),
    ("put eggs and bread on the grocery list", "en", "task", "eggs and bread"),
    ("I have to buy milk on the way home", "en", "task", "buy milk on the way home"),
    ("I need to send the report by Friday", "en", "task", "send the report by Friday"),
    ("I must renew the car insurance", "en", "task", "renew the car insurance"),
    ("we need to book the hotel for March", "en", "task", "book the hotel for March"),
    ("rappelle-moi d'appeler le médecin à 17 h", "fr", "reminder", "appeler le médecin à 17 h"),
    ("rappelle moi de sortir les poubelles ce soir", "fr", "reminder", "sortir les poubelles"),
    ("n'oublie pas de me rappeler de payer le loyer", "fr", "reminder", "payer le loyer"),
    ("tu peux me rappeler d'arroser les plantes ?", "fr", "reminder", "arroser les plantes"),
    ("il ne faut pas que j'oublie d'acheter du pain", "fr", "reminder", "acheter du pain"),
    ("fais-moi penser à appeler ma sœur", "fr", "reminder", "appeler ma sœur"),
    ("il faut que j'appelle le plombier", "fr", "task", "appelle le plombier"),
    ("je dois acheter du pain", "fr", "task", "acheter du pain"),
    ("ajoute du lait à ma liste de courses", "fr", "task", "du lait"),
    ("alors je dois envoyer le rapport avant vendredi", "fr", "task", "envoyer le rapport"),
    ("θύμισέ μου να πάρω τηλέφωνο τον γιατρό στις 5", "el", "reminder", "τηλέφωνο τον γιατρό"),
    ("να μου θυμίσεις να πάρω τα φάρμακα", "el", "reminder", "πάρω τα φάρμακα"),
    ("μην ξεχάσω να κλείσω το φούρνο", "el", "reminder", "κλείσω το φούρνο"),
    ("μπορείς να μου θυμίσεις να πληρώσω το ρεύμα;", "el", "reminder", "πληρώσω το ρεύμα"),
    ("πρέπει να αγοράσω γάλα", "el", "task", "αγοράσω γάλα"),
    ("λοιπόν πρέπει να στείλω την αναφορά μέχρι την Παρασκευή", "el", "task", "στείλω"),
    ("πρόσθεσε γάλα στη λίστα με τα ψώνια", "el", "task", "γάλα"),
    ("recuérdame llamar al médico a las cinco", "es", "reminder", "llamar al médico"),
    ("tengo que comprar leche", "es", "task", "comprar leche"),
    ("erinnere mich daran, Milch zu kaufen", "de", "reminder", "Milch zu kaufen"),
    ("ich muss noch Milch kaufen", "de", "task", "Milch kaufen"),
    ("ricordami di chiamare il medico", "it", "reminder", "chiamare il medico"),
    ("devo comprare il latte", "it", "task", "comprare il latte"),
    ("me lembra de ligar para o médico", "pt", "reminder", "ligar para o médico"),
    ("tenho que comprar leite", "pt", "task", "comprar leite"),
    ("remind me to call the doctor at 5", None, "reminder", "call the doctor at 5"),
    ("rappelle-moi d'appeler Vincent", None, "reminder", "appeler Vincent"),
    ("remind me at six to call my sister", "en", "reminder", "call my sister at six"),
    ("rappelle-moi demain d'appeler le médecin", "fr", "reminder", "appeler le médecin demain"),
    ("Note to self: call the bank about the card", "en", "reminder", "call the bank"),
    ("Okay. I need to email Sarah the contract. Thanks.", "en", "task", "email Sarah the contract"),
    ("Faut que j'appelle la banque demain", "fr", "task", "appelle la banque demain"),
    ("Mets des œufs sur la liste de courses", "fr", "task", "des œufs"),
    ("Να μην ξεχάσω να πληρώσω το νοίκι", "el", "reminder", "πληρώσω το νοίκι"),
    ("Πρέπει να τηλεφωνήσουμε στον υδραυλικό", "el", "task", "τηλεφωνήσουμε"),
]


@pytest.mark.parametrize(
    ("text", "language", "kind", "content"),
    [pytest.param(*row, id=f"{row[1] or 'auto'}-{i:02d}") for i, row in enumerate(CAPTURES)],
)
def test_capture_memory(text: str, language: str | None, kind: str, content: str) -> None:
    """Reminder and task utterances are captured with their cleaned content."""
    captured = capture_memory(text, language)
    assert captured is not None
    assert captured.kind == kind
    assert content in captured.content
    assert captured.content == captured.content.strip()
    assert not captured.content.endswith((".", "?", "!"))


@pytest.mark.parametrize(
    ("text", "language"),
    [
        pytest.param("do I need to buy milk?", "en", id="en-question"),
        pytest.param("Do I have to buy milk", "en", id="en-spoken-question"),
        pytest.param("I had to buy milk yesterday", "en", id="en-past"),
        pytest.param("I needed to call him", "en", id="en-past-2"),
        pytest.param("I have to say, this is delicious", "en", id="en-discourse"),
        pytest.param("I have to go", "en", id="en-leaving"),
        pytest.param("He reminded me to call the doctor", "en", id="en-narrative"),
        pytest.param("What time is it", "en", id="en-unrelated"),
        pytest.param("remind me what the wifi password is", "en", id="en-remind-question"),
        pytest.param("I must have left my keys at home", "en", id="en-epistemic"),
        pytest.param("remind me to", "en", id="en-incomplete"),
        pytest.param("je devais acheter du pain", "fr", id="fr-past"),
        pytest.param("est-ce que je dois acheter du pain ?", "fr", id="fr-question"),
        pytest.param("il fallait que je parte tôt", "fr", id="fr-past-2"),
        pytest.param("je dois dire que c'est délicieux", "fr", id="fr-discourse"),
        pytest.param("il m'a rappelé hier", "fr", id="fr-narrative"),
        pytest.param("je dois y aller", "fr", id="fr-leaving"),
        pytest.param("έπρεπε να αγοράσω γάλα", "el", id="el-past"),
        pytest.param("πρέπει να αγοράσω γάλα;", "el", id="el-question"),
        pytest.param("πρέπει να είναι κλειστό", "el", id="el-epistemic"),
        pytest.param("πρέπει να φύγω", "el", id="el-leaving"),
        pytest.param("μου θύμισε να πάρω τηλέφωνο", "el", id="el-narrative"),
        pytest.param("tenía que comprar leche", "es", id="es-past"),
        pytest.param("I need to sit down", "en", id="en-immediate-need"),
        pytest.param("You have to see this movie", "en", id="en-second-person"),
        pytest.param("I need to know what time it is", "en", id="en-knowledge-question"),
        pytest.param("Tu dois voir ce film", "fr", id="fr-second-person"),
        pytest.param("Πρέπει να δεις αυτή την ταινία", "el", id="el-second-person"),
        pytest.param("", None, id="empty"),
    ],
)
def test_capture_memory_negatives(text: str, language: str | None) -> None:
    """Questions, past narratives and figures of speech are not captured."""
    assert capture_memory(text, language) is None


def test_captured_memory_is_frozen() -> None:
    """The captured memory is an immutable value."""
    captured = CapturedMemory("reminder", "call mum", "en")
    with pytest.raises(dataclasses.FrozenInstanceError):
        captured.content = "x"  # type: ignore[misc]


def test_captured_language_follows_hint_and_text() -> None:
    """The captured language is the transcript's base language."""
    captured = capture_memory("rappelle-moi d'appeler le médecin", "fr-FR")
    assert captured is not None
    assert captured.language == "fr"
    greek = capture_memory("θύμισέ μου να πάρω γάλα")
    assert greek is not None
    assert greek.language == "el"


@pytest.mark.parametrize(
    ("captured", "expected"),
    [
        pytest.param(
            CapturedMemory("reminder", "call the doctor at 5", "en"),
            "Reminder saved: call the doctor at 5.",
            id="en-reminder",
        ),
        pytest.param(
            CapturedMemory("task", "buy milk", "en"), "Task added: buy milk.", id="en-task"
        ),
        pytest.param(
            CapturedMemory("reminder", "appeler le médecin à 17 h", "fr"),
            "Rappel enregistré : appeler le médecin à 17 h.",
            id="fr-reminder",
        ),
        pytest.param(
            CapturedMemory("task", "acheter du pain", "fr-CA"),
            "Tâche ajoutée : acheter du pain.",
            id="fr-task",
        ),
        pytest.param(
            CapturedMemory("reminder", "να πάρω γάλα", "el"),
            "Υπενθύμιση αποθηκεύτηκε: να πάρω γάλα.",
            id="el-reminder",
        ),
        pytest.param(
            CapturedMemory("task", "να αγοράσω γάλα", "el"),
            "Εργασία προστέθηκε: να αγοράσω γάλα.",
            id="el-task",
        ),
        pytest.param(
            CapturedMemory("task", "comprar leche", "es"),
            "Tarea añadida: comprar leche.",
            id="es-task",
        ),
        pytest.param(
            CapturedMemory("reminder", "Milch kaufen", "de"),
            "Erinnerung gespeichert: Milch kaufen.",
            id="de-reminder",
        ),
        pytest.param(
            CapturedMemory("task", "comprare il latte", "it"),
            "Attività aggiunta: comprare il latte.",
            id="it-task",
        ),
        pytest.param(
            CapturedMemory("reminder", "ligar para o médico", "pt"),
            "Lembrete salvo: ligar para o médico.",
            id="pt-reminder",
        ),
        pytest.param(
            CapturedMemory("reminder", "電話する", "ja"),
            "Reminder saved: 電話する.",
            id="fallback-english",
        ),
        pytest.param(
            CapturedMemory("reminder", "call mum!", "en"),
            "Reminder saved: call mum!",
            id="keeps-final-punctuation",
        ),
    ],
)
def test_memory_card(captured: CapturedMemory, expected: str) -> None:
    """Cards are deterministic and in the captured language, with an English fallback."""
    assert memory_card(captured) == expected


def test_memory_card_respects_the_hard_limit() -> None:
    """A very long reminder still fits the glasses."""
    card = memory_card(CapturedMemory("reminder", "call " + "the doctor " * 40, "en"))
    assert len(card) <= 220
    assert card.startswith("Reminder saved: call the doctor")


# ---------------------------------------------------------------------------------------------
# Episode cues, names, meaningful speech, sensitive traits
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text",
    [
        "New topic: the budget",
        "OK let's change the subject",
        "can we start over",
        "let's switch topics",
        "Changeons de sujet",
        "Bon, parlons d'autre chose",
        "Autre chose : le voyage",
        "NOUVEAU SUJET",
        "on change de sujet",
        "Ας αλλάξουμε θέμα",
        "ας αλλαξουμε θεμα",
        "Νέο θέμα",
        "Cambiemos de tema",
        "Anderes Thema bitte",
        "Lass uns das Thema wechseln",
        "Cambiamo argomento",
        "Vamos mudar de assunto",
    ],
)
def test_episode_cue(text: str) -> None:
    """Explicit topic-change cues are recognised, accent- and case-insensitively."""
    assert episode_cue(text)


@pytest.mark.parametrize(
    "text",
    [
        "The subject of the meeting is the budget",
        "J'ai autre chose à faire",
        "Le sujet est important",
        "Το θέμα είναι σοβαρό",
        "",
    ],
)
def test_not_episode_cue(text: str) -> None:
    """Ordinary mentions of topics are not cues."""
    assert not episode_cue(text)


@pytest.mark.parametrize(
    ("names", "expected"),
    [
        pytest.param(["Vincent", "vincent", "VINCENT", "Vinçent", " Vincent "], "vincent", id="l"),
        pytest.param(["Βίνσεντ", "ΒΙΝΣΕΝΤ", "Βινσεντ", "βίνσεντ"], "βινσεντ", id="greek"),
        pytest.param(["Mr. Smith", "Dr Smith", "smith", "Mr Smith"], "smith", id="titles"),
        pytest.param(["M. Dupont", "Mme Dupont", "Monsieur Dupont"], "dupont", id="fr-titles"),
        pytest.param(["Jean-Luc", "jean luc", "Jean Luc"], "jean luc", id="hyphen"),
        pytest.param(["Zoë", "Zoe", "ZOE"], "zoe", id="diaeresis"),
        pytest.param(["Søren", "Soren"], "soren", id="stroke"),
        pytest.param(["Vincent's", "Vincent’s"], "vincent", id="possessive"),
        pytest.param(["Κος Παπαδόπουλος", "Παπαδοπουλος"], "παπαδοπουλοσ", id="greek-title"),
    ],
)
def test_name_key(names: list[str], expected: str) -> None:
    """Spellings, capitalisation, accents and titles of one name share one key."""
    assert {name_key(name) for name in names} == {expected}


def test_name_key_keeps_distinct_names_apart() -> None:
    """Different people keep different keys; a lone title is kept."""
    assert name_key("Vincent") != name_key("Vince")
    assert name_key("Dr") == "dr"
    assert name_key("") == ""


@pytest.mark.parametrize(
    "text",
    [
        "uh",
        "ok",
        "OK!",
        "yeah",
        "mm-hmm",
        "uh-huh",
        "d'accord",
        "oui",
        "ναι",
        "εντάξει",
        "vale",
        "ja",
        "sì",
        "sim",
        "...",
        "?!",
        "",
        "   ",
        "a",
        "hmmmm",
        "ok ok yeah",
        "thank you",
        "I see",
        "bien sûr",
        "Ναι ναι",
    ],
)
def test_not_meaningful(text: str) -> None:
    """Fillers, backchannels, punctuation and tiny fragments are not meaningful."""
    assert not is_meaningful(text)


@pytest.mark.parametrize(
    "text",
    [
        "Paris",
        "RAG",
        "call the doctor",
        "ok so what time is it",
        "Θα έρθω αύριο",
        "d'accord, on part à huit heures",
        "東京に行きます",
    ],
)
def test_meaningful(text: str) -> None:
    """Content is meaningful, even when it starts with a filler."""
    assert is_meaningful(text)


@pytest.mark.parametrize(
    "text",
    [
        "Vincent appears to be depressed",
        "She is probably pregnant",
        "He seems to be gay",
        "He is a devout Muslim",
        "She votes for the conservative party",
        "He is an introvert",
        "His real reason is money",
        "Il est malade depuis des semaines",
        "Elle est enceinte",
        "Il est musulman",
        "Φαίνεται ότι έχει κατάθλιψη",
        "Είναι έγκυος",
        "Está embarazada",
        "Er ist schwanger",
        "Sie ist krank",
        "He is divorced",
    ],
)
def test_sensitive_traits(text: str) -> None:
    """Health, religion, politics, orientation, family status and personality are sensitive."""
    assert mentions_sensitive_trait(text)


@pytest.mark.parametrize(
    "text",
    [
        "From this conversation, Vincent appears to be the hiring manager",
        "Vincent conducted the technical interview",
        "Anna leads the design team",
        "D'après la conversation, Marie semble être la responsable du projet",
        "Ο Γιώργος φαίνεται να είναι ο υπεύθυνος πωλήσεων",
        "",
    ],
)
def test_not_sensitive(text: str) -> None:
    """Roles and relationships at work are not sensitive traits."""
    assert not mentions_sensitive_trait(text)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param("We should use RAG for this", "definition", id="acronym"),
        pytest.param("The login uses OAuth", "definition", id="mixed-case"),
        pytest.param("Is it HIPAA compliant", "definition", id="hipaa"),
        pytest.param("Πρέπει να πάω στον ΕΦΚΑ", "definition", id="greek-acronym"),
        pytest.param("It follows ISO 27001", "definition", id="standard"),
        pytest.param("the algorithm uses backpropagation", "definition", id="jargon"),
        pytest.param("Careful, the floor is wet", "warning", id="warning"),
        pytest.param("Attention, le sol est glissant", "warning", id="attention"),
        pytest.param("Προσοχή στο σκαλί", "warning", id="prosochi"),
        pytest.param("Actually, it's on Tuesday", "correction", id="actually"),
        pytest.param("No, it's the other one", "correction", id="no-its"),
        pytest.param("En fait, c'est mardi", "correction", id="en-fait"),
        pytest.param("Non, c'est le 12", "correction", id="non-cest"),
        pytest.param("Στην πραγματικότητα είναι Τρίτη", "correction", id="greek-correction"),
        pytest.param("OK let's go with the blue one", "decision", id="lets-go-with"),
        pytest.param("We decided to hire her", "decision", id="decided"),
        pytest.param("On part sur la version deux", "decision", id="on-part-sur"),
        pytest.param("Αποφασίσαμε να πάμε Κρήτη", "decision", id="greek-decision"),
        pytest.param("Mount Everest is the tallest mountain", "fact_check", id="superlative"),
        pytest.param("Sydney is the capital of Australia", "fact_check", id="capital"),
        pytest.param("The tower was built in 1889", "fact_check", id="year"),
        pytest.param("Wait, actually it was Monday", "correction", id="filler-actually"),
        pytest.param("I actually like it", None, id="actually-inside"),
        pytest.param("I had a nice lunch", None, id="none"),
        pytest.param("ok", None, id="filler"),
        pytest.param("I NEED TO GO HOME NOW", None, id="shouting"),
    ],
)
def test_local_signal(text: str, expected: str | None) -> None:
    """Weak local hints name one of the engine's intents."""
    result = local_signal(text)
    assert result == expected
    assert result is None or result in INTENTS
