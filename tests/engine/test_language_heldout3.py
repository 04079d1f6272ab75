"""Third held-out corpus for the local language rules (red team, round 3).

Round 3 follows what the specification names explicitly: feasibility, permission and
possibility forms ("could I…", "θα μπορούσα…", "pourrais-je…", "podría…", "könnte ich…") in
every person and tense, Greek question particles without ';' ("μήπως", "άραγε", "τι λες"),
with and without tonos, and the matching statements. Everything is lowercase speech-to-text
without punctuation. Word order decides where the language marks it (English, French and German
inversion: "could I go" asks, "I could go" tells); where it doesn't (Greek, Spanish, Italian,
Portuguese), a modal opening the utterance asks, as in the earlier corpora, and a stated subject
or a lead-in ("I think…") makes a statement. Statements that merely open with a question word
("when I was young…") and exclamations ("what a day", "who knows") never trigger.
"""

from __future__ import annotations

import time

from custom_components.homebuddy_proactive.engine.text import is_question
from tests.engine import corpus
from tests.engine.corpus import corpus_test, language_table

# ---------------------------------------------------------------------------------------------
# Feasibility, permission and possibility questions
# ---------------------------------------------------------------------------------------------

QUESTIONS: dict[str, list[str]] = {
    "en": [
        "could i borrow your charger for a minute",
        "could we leave a bit earlier on friday",
        "could you turn the heating down a little",
        "can i bring my dog to the clinic",
        "can we reschedule the call to next week",
        "may i sit next to the window",
        "might i ask where you bought that lamp",
        "would it be possible to get a refund on this",
        "is it possible to upgrade the ticket at the gate",
        "is there any way to recover the deleted photos",
        "am i able to pay the bill in two parts",
        "are we allowed to swim in the lake",
        "would we be able to check in before noon",
        "could they deliver the sofa on saturday instead",
        "can she stay with us over the weekend",
        "will i be able to drive after the operation",
        "was it possible to fix the washing machine",
        "could i possibly have a glass of water",
        "is it ok to take these with coffee",
        "would i be allowed to bring a friend",
    ],
    "fr": [
        "pourrais-je réserver une table pour quatre",
        "pourrait-on décaler le rendez-vous à jeudi",
        "pourriez-vous répéter plus lentement",
        "puis-je laisser mon manteau ici",
        "peut-on payer en trois fois",
        "est-il possible de changer la date du vol",
        "serait-il possible de parler au directeur",
        "est-ce que je pourrais emprunter ta voiture samedi",
        "est-ce qu'on pourrait manger plus tôt ce soir",
        "ce serait possible de fermer la fenêtre",
        "pourrions-nous avoir une chambre plus calme",
        "pourrais je goûter le fromage",
        "peut on entrer avec une poussette",
        "est-ce possible de venir avec mon chien",
        "y a-t-il moyen de récupérer mes photos",
        "aurais-je le droit de garer ici",
        "est-ce que vous pourriez me rappeler demain matin",
        "ai-je le droit de fumer sur le balcon",
    ],
    "el": [
        "θα μπορούσα να δανειστώ το ποδήλατό σου",
        "θα μπορούσαμε να φύγουμε λίγο νωρίτερα",
        "θα μπορούσατε να μιλάτε λίγο πιο αργά",
        "μπορώ να φέρω και τον σκύλο",
        "μπορείτε να μου κλείσετε ραντεβού για την τρίτη",
        "γίνεται να πληρώσω αύριο",
        "είναι δυνατόν να αλλάξω τη θέση μου",
        "θα ήταν δυνατόν να έρθει ο τεχνικός το πρωί",
        "μήπως μπορείτε να με βοηθήσετε με τις βαλίτσες",
        "θα γινόταν να μείνουμε μια νύχτα ακόμα",
        "επιτρέπεται να καπνίσω στο μπαλκόνι",
        "θα μπορουσαμε να παμε σινεμα αποψε",
        "μπορω να ανοιξω το παραθυρο",
        "γινεται να αλλαξουμε τραπεζι",
        "μπορούμε να καθίσουμε εδώ",
        "θα μπορούσες να μου στείλεις τη συνταγή",
        "πόσο θα ήθελες να πληρώσεις για το σπίτι",
    ],
    "es": [
        "podría cambiar la reserva para el sábado",
        "podríamos sentarnos cerca de la ventana",
        "podrías bajar un poco la música",
        "puedo dejar la maleta en recepción",
        "se puede entrar con el perro",
        "sería posible adelantar la cita",
        "es posible pagar con el móvil",
        "me permite pasar un momento",
        "puedo probarme estos zapatos",
        "podrían traernos más pan",
        "hay manera de recuperar la contraseña",
        "nos podría traer otra botella de agua",
    ],
    "de": [
        "könnte ich das fenster aufmachen",
        "könnten wir morgen früher anfangen",
        "könnten sie das bitte wiederholen",
        "kann ich mit dem hund reinkommen",
        "darf ich mich hier hinsetzen",
        "dürfte ich kurz ihr telefon benutzen",
        "wäre es möglich den termin zu verschieben",
        "ist es möglich mit karte zu bezahlen",
        "geht es dass wir später kommen",
        "können wir den tisch am fenster haben",
        "dürfen wir hier parken",
        "kannst du mir das salz geben",
        "wäre es okay wenn ich das fenster öffne",
        "gibt es eine möglichkeit das zu ändern",
    ],
    "it": [
        "potrei lasciare la giacca qui",
        "potremmo cenare un po' prima stasera",
        "potrebbe ripetere più lentamente",
        "posso portare anche il cane",
        "si può pagare con il telefono",
        "sarebbe possibile anticipare l'appuntamento",
        "è possibile cambiare la data del volo",
        "mi è permesso fare una foto",
        "potresti abbassare la musica",
        "possiamo sederci vicino alla finestra",
        "c'è modo di recuperare le foto",
    ],
    "pt": [
        "poderia trocar a reserva para sábado",
        "poderíamos jantar um pouco mais cedo",
        "posso deixar a mala na receção",
        "pode-se entrar com o cão",
        "dá para pagar com o telemóvel",
        "seria possível antecipar a consulta",
        "é possível mudar a data do voo",
        "será que posso levar o meu filho",
        "daria para fechar a janela",
        "podemos sentar perto da janela",
        "você poderia repetir mais devagar",
        "será que dá para chegar antes das oito",
    ],
}

# ---------------------------------------------------------------------------------------------
# Greek question particles and forms without ';'
# ---------------------------------------------------------------------------------------------

GREEK_PARTICLES: dict[str, list[str]] = {
    "el": [
        "μήπως έχεις δει τα κλειδιά μου",
        "μηπως ξερεις τι ωρα κλεινει το φαρμακειο",
        "μήπως να πάρουμε ταξί",
        "άραγε θα βρέξει αύριο",
        "αραγε ηρθε ο ταχυδρομος",
        "τι λες να φάμε απόψε",
        "τι λες για μια βόλτα στην παραλία",
        "τι λες πάμε για καφέ",
        "ξέρεις αν είναι ανοιχτή η τράπεζα",
        "ξερεις αν τηλεφωνησε η μαμα",
        "έχεις ιδέα πού είναι το τηλεκοντρόλ",
        "εχεις ιδεα ποσο κοστιζει",
        "πόσο κάνει το κιλό οι ντομάτες",
        "ποσο κανει το εισιτηριο",
        "πόσο κάνει ένας καφές εδώ",
        "μήπως ξέρετε πού είναι η στάση",
        "τι ώρα φεύγει το λεωφορείο",
        "ποιος έφερε τα λουλούδια",
    ],
}

# ---------------------------------------------------------------------------------------------
# The matching statements
# ---------------------------------------------------------------------------------------------

STATEMENTS: dict[str, list[str]] = {
    "en": [
        "i could go tomorrow after work",
        "we could take the train instead",
        "you could try turning it off and on again",
        "i can pick up the kids at five",
        "we may be a little late tonight",
        "i might stop by the bakery on the way",
        "it would be possible to finish by friday",
        "it is possible that the shop is closed",
        "there is no way to fix it now",
        "i am able to walk without the cane now",
        "we are allowed to park in front of the house",
        "when i was young we spent every summer at the lake",
        "when we lived in boston it snowed all the time",
        "how i wish we had more time together",
        "what a day it has been",
        "what a lovely surprise",
        "where there's a will there's a way",
        "i could have sworn i locked the door",
        "she can swim better than me",
    ],
    "fr": [
        "je pourrais venir demain après le travail",
        "on pourrait aller au cinéma ce soir",
        "je peux passer prendre les enfants",
        "il est possible que le magasin soit fermé",
        "ce serait possible si on partait plus tôt",
        "quand j'étais jeune j'allais à la pêche avec mon grand-père",
        "lorsque j'étais petit on habitait à la campagne",
        "quand on vivait à lyon il pleuvait tout le temps",
        "comme je voudrais que tu sois là",
        "quelle journée aujourd'hui",
        "nous pourrions partir plus tôt",
        "tu peux compter sur moi",
        "je pourrais manger un éléphant",
        "où que tu ailles je te suivrai",
    ],
    "el": [
        "εγώ θα μπορούσα να έρθω αύριο",
        "νομίζω ότι θα μπορούσαμε να φύγουμε νωρίτερα",
        "όταν ήμουν μικρός πηγαίναμε κάθε καλοκαίρι στο χωριό",
        "οταν ημουν μικρη εμενα στη θεσσαλονικη",
        "όταν ζούσαμε στην αθήνα είχε πολλή κίνηση",
        "τι ωραία μέρα σήμερα",
        "τι μέρα κι αυτή",
        "εγώ μπορώ να περάσω να πάρω τα παιδιά",
        "μπορεί να αργήσω λίγο απόψε",
        "θα ήταν ωραίο να πάμε διακοπές",
        "δεν μπορώ να έρθω αύριο",
        "ξέρω ότι έχεις δίκιο",
        "πόσο θα ήθελα να είσαι εδώ",
    ],
    "es": [
        "yo podría ir mañana después del trabajo",
        "creo que podríamos salir antes",
        "cuando era joven pasaba los veranos en el pueblo",
        "cuando vivíamos en sevilla hacía mucho calor",
        "qué día más largo",
        "ojalá pudiera quedarme más tiempo",
        "yo puedo recoger a los niños",
        "no puedo ir mañana",
        "es posible que llueva esta tarde",
        "sería posible si tuviéramos más tiempo",
        "mi hermana podría venir el lunes",
    ],
    "de": [
        "ich könnte morgen nach der arbeit vorbeikommen",
        "wir könnten auch den zug nehmen",
        "ich kann die kinder um fünf abholen",
        "als ich jung war haben wir am see gewohnt",
        "als wir in hamburg lebten hat es ständig geregnet",
        "was für ein tag",
        "es ist möglich dass der laden zu hat",
        "es wäre möglich den termin zu verschieben",
        "ich darf wieder auto fahren",
        "wir dürfen hier parken",
        "morgen könnte ich vielleicht vorbeikommen",
        "wie gern wäre ich jetzt am meer",
    ],
    "it": [
        "io potrei venire domani dopo il lavoro",
        "penso che potremmo partire prima",
        "quando ero giovane andavo a pescare con mio nonno",
        "quando abitavamo a torino nevicava sempre",
        "che giornata oggi",
        "io posso prendere i bambini alle cinque",
        "non posso venire domani",
        "è possibile che piova stasera",
        "magari potessi restare di più",
        "mia sorella potrebbe venire lunedì",
        "quanto vorrei essere al mare",
    ],
    "pt": [
        "eu poderia ir amanhã depois do trabalho",
        "acho que poderíamos sair mais cedo",
        "quando eu era jovem passava os verões na aldeia",
        "quando morávamos no porto chovia muito",
        "que dia mais comprido",
        "eu posso buscar as crianças às cinco",
        "não posso ir amanhã",
        "é possível que chova à tarde",
        "quem me dera poder ficar mais tempo",
        "a minha irmã poderia vir na segunda",
        "seria possível se tivéssemos mais tempo",
    ],
}


test_question = corpus_test(corpus.check_question, language_table(QUESTIONS))
test_greek_particle = corpus_test(corpus.check_question, language_table(GREEK_PARTICLES))
test_statement = corpus_test(corpus.check_statement, language_table(STATEMENTS))


def test_speed() -> None:
    """Every utterance of the corpus is classified in well under a millisecond on average."""
    tables = (QUESTIONS, GREEK_PARTICLES, STATEMENTS)
    texts = [t for table in tables for texts in table.values() for t in texts]
    is_question(texts[0], None)
    start = time.perf_counter()
    for text in texts:
        is_question(text, None)
    elapsed = (time.perf_counter() - start) / len(texts)
    assert elapsed < 0.002
