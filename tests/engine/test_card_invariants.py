"""Invariant-based tests of glasses-card shaping across languages and scripts.

Every text below is fed to ``shape_card`` with one or more (target, maximum) pairs and the
result is checked against general invariants rather than exact strings:

* it never exceeds the maximum and is never empty when the input has letters or digits;
* text that fits is returned unchanged (after whitespace normalisation);
* a cut result is a prefix of the normalised input (nothing of any script removed), plus an
  ellipsis and the closers of brackets or quotes left open by a word cut;
* a cut without an ellipsis ends at a real sentence end (never after "Dr.", "e.g.", "π.χ.",
  "z. B.", an initial or inside a decimal number);
* a cut with an ellipsis ends at a word boundary (or, for text without spaces, at a character
  boundary that does not split a Latin word, an emoji sequence or a combining mark);
* when an obvious sentence end lies between half the target and the maximum, the cut uses it.
"""

from __future__ import annotations

import re
import unicodedata

import pytest

from custom_components.homebuddy_proactive.engine.text.cards import ELLIPSIS, shape_card

# --------------------------------------------------------------------------------------------
# Corpus: sentences per language, with the traps the shaping must survive.
# --------------------------------------------------------------------------------------------

EN = [
    "The nearest pharmacy is on Baker Street, about 3.5 km from here.",
    "Dr. Patel said the test results, e.g. the blood count, will arrive on Monday.",
    "Use a USB-C cable rated for 100 W; the old Micro-USB one charges too slowly.",
    "The iPhone 15 supports Wi-Fi 6E and costs about $799 in the U.S. store.",
    "Pi is roughly 3.14159, and the meeting starts at 14:30 in room 2.B.",
    "Mr. and Mrs. Smith arrive at 6 p.m. with their kids.",
    "No direct flight exists; take the train to Lyon and change there.",
    "Your reminder is saved: call the plumber tomorrow at 9:00.",
    "Check https://www.example.com/help/faq?id=42 for the full answer.",
    "The meeting was moved (see J. K. Rowling's note) to Friday.",
]

FR = [
    "La pharmacie la plus proche est à 3,5 km, rue de la Paix.",
    "M. Dupont arrive à 14 h 30 avec Mme Martin et le Dr Bernard.",
    "Apportez vos papiers, p. ex. la carte d'identité et un justificatif.",
    "Le billet coûte 12,50 € et le train part à 14:30 de la gare de Lyon.",
    "Il a dit « c'est parfait » puis il est parti sans attendre.",
    "Le mot grec « φιλοσοφία » signifie l'amour de la sagesse.",
    "Le câble USB-C du nouvel iPhone 15 charge plus vite que l'ancien.",
    "C'est-à-dire qu'il faut réserver avant vendredi midi !",
    "Rappel enregistré : appeler le médecin demain matin.",
    "Vous pouvez aussi consulter le site, c.-à-d. la page d'aide en ligne.",
]

EL = [
    "Το φαρμακείο είναι στην οδό Ερμού, περίπου 3,5 km από εδώ.",
    "Ο κ. Παπαδόπουλος θα έρθει στις 14:30 με την κα Γεωργίου.",
    "Χρειάζεστε ένα καλώδιο USB-C, π.χ. αυτό που έχει το iPhone 15.",
    "Το Wi-Fi του ξενοδοχείου λέγεται HotelGuest και ο κωδικός είναι στη ρεσεψιόν.",
    "Η επιστολή προσφοράς (offer letter) περιγράφει τον μισθό και τις παροχές.",
    "Πού είναι ο σταθμός του μετρό;",
    "Το εισιτήριο κοστίζει €12,50 και ισχύει για 90 λεπτά.",
    "Το όνομα Quercus robur είναι η λατινική ονομασία της βελανιδιάς.",
    "Ο Δρ. Νικολάου είπε ότι τα αποτελέσματα θα βγουν τη Δευτέρα.",
    "Δηλ. πρέπει να κλείσετε ραντεβού μέσω του Google Calendar.",
]

ES = [
    "¿Dónde está la farmacia más cercana? Está a 3,5 km, en la calle Mayor.",
    "El Sr. García y la Sra. López llegan a las 14:30 al aeropuerto.",
    "Lleve sus documentos, p. ej. el pasaporte y la tarjeta sanitaria.",
    "¡Qué buena idea! El billete cuesta 12,50 € y vale para todo el día.",
    "La Dra. Ruiz recomienda descansar y beber mucha agua.",
    "El nuevo iPhone 15 usa un cable USB-C en lugar de Lightning.",
    "No hay vuelo directo; tome el tren hasta Madrid y cambie allí.",
    "Puede consultar aprox. 20 páginas de ayuda en la web oficial.",
]

DE = [
    "Die nächste Apotheke ist ca. 3,5 km entfernt, in der Hauptstr. 12.",
    "Bringen Sie Unterlagen mit, z. B. den Ausweis und die Versichertenkarte.",
    "Das Treffen ist am 3. Mai um 14:30 Uhr im Raum 2.",
    "Dr. Müller sagt, d. h. laut Befund, alles sei in Ordnung.",
    "Das Ticket kostet 12,50 € und gilt bzw. reicht für den ganzen Tag.",
    "Das neue iPhone 15 lädt über USB-C statt über Lightning.",
    "Er sagte „das passt schon“ und ging dann nach Hause.",
    "Könnte ich morgen früh um 8 Uhr einen Termin bekommen?",
]

IT = [
    "La farmacia più vicina è a 3,5 km, in via Roma.",
    "Il Sig. Rossi e la Dott.ssa Bianchi arrivano alle 14:30.",
    "Portate i documenti, ad es. la carta d'identità e la tessera sanitaria.",
    "Il biglietto costa 12,50 € ed è valido per 90 minuti.",
    "Il nuovo iPhone 15 si ricarica con un cavo USB-C.",
    "Non c'è un volo diretto; prendete il treno fino a Milano.",
    "Frutta, verdura, pane ecc. sono in offerta questa settimana.",
]

PT = [
    "A farmácia mais próxima fica a 3,5 km, na Av. da Liberdade.",
    "O Sr. Silva e a Dra. Costa chegam às 14:30 ao aeroporto.",
    "Leve os documentos, p. ex. o cartão de cidadão e o comprovativo.",
    "O bilhete custa 12,50 € e é válido durante 90 minutos.",
    "O novo iPhone 15 carrega com um cabo USB-C.",
    "Não há voo direto; apanhe o comboio até ao Porto.",
    "Você pode usar o Wi-Fi gratuito no café da estação.",
]

LANGUAGES = {"en": EN, "fr": FR, "el": EL, "es": ES, "de": DE, "it": IT, "pt": PT}

MIXED_SHORT = [
    "Η επιστολή προσφοράς (offer letter) είναι έτοιμη.",
    "RAGは検索拡張生成の略です。",
    "يستخدم التطبيق OAuth 2.0 لتسجيل الدخول.",
    "Привет, это GitHub Actions.",
    "Το API του Home Assistant δέχεται JSON μέσω HTTPS.",
    "Le mot « λόγος » vient du grec ancien.",
    "Το Spotify Premium κοστίζει 10,99 € τον μήνα.",
    "Der Begriff „Ελλάδα“ ist griechisch für Griechenland.",
    "東京駅から新宿駅まではJR中央線で約15分です。",
    "Το σύνθημα ήταν «Carpe diem» σε όλο το συνέδριο.",
    "🎉 Done! The package arrives tomorrow 📦.",
    "Θερμοκρασία 22 °C, υγρασία 45 % — ιδανικές συνθήκες.",
    "שלום, זה מבחן של Home Assistant.",
    "Η ταχύτητα είναι 3.14 m/s, δηλ. περίπου 11 km/h.",
    "Κλείσε ραντεβού στο https://example.gr/booking πριν τις 18:00.",
    "Ο κωδικός είναι AB-12_x9 και λήγει σε 5'.",
    "👨‍👩‍👧 Η οικογένεια ταξιδεύει στην Κρήτη 🇬🇷 αύριο.",
]

# Whitespace-only normalisation cases: (input, expected).
NORMALISED = [
    ("  Bring   your ID\n and the form. ", "Bring your ID and the form."),
    ("Φέρτε\tτην ταυτότητα\n\nκαι το έντυπο.", "Φέρτε την ταυτότητα και το έντυπο."),
    ("Le train part à 14:30.\n", "Le train part à 14:30."),
    ("\n\n  ¿Dónde está la estación?  ", "¿Dónde está la estación?"),
]

# Markdown, labels and wrapping quotes: (input, expected cleaned text).
CLEANED = [
    ("**Card:** Bring your ID.", "Bring your ID."),
    ("Κάρτα: Φέρτε την **ταυτότητα** σας.", "Φέρτε την ταυτότητα σας."),
    ("Carte : Apportez votre *carte Vitale*.", "Apportez votre carte Vitale."),
    ("Respuesta: Lleve el **pasaporte**.", "Lleve el pasaporte."),
    ("Antwort: Nehmen Sie den __Ausweis__ mit.", "Nehmen Sie den Ausweis mit."),
    ("Risposta: Portate la `tessera`.", "Portate la tessera."),
    ("Resposta: Leve o **cartão**.", "Leve o cartão."),
    ("“Το iPhone 15 έχει USB-C.”", "Το iPhone 15 έχει USB-C."),
    ("«Le Wi-Fi est gratuit.»", "Le Wi-Fi est gratuit."),
    ("„Das Wi-Fi ist kostenlos.“", "Das Wi-Fi ist kostenlos."),
    ('"Bring the USB-C cable."', "Bring the USB-C cable."),
    ("- γάλα\n- ψωμί\n- αυγά", "γάλα; ψωμί; αυγά"),
    ("* lait\n* pain\n* œufs", "lait; pain; œufs"),
    ("## Απάντηση\nΤο τρένο φεύγει στις 14:30.", "Απάντηση Το τρένο φεύγει στις 14:30."),
    ("Δες [τον οδηγό](https://example.gr/x) για το Wi-Fi.", "Δες τον οδηγό για το Wi-Fi."),
    ("> Le musée ferme à 18 h.", "Le musée ferme à 18 h."),
    ("```\nΤο iPhone 15 έχει USB-C.\n```", "Το iPhone 15 έχει USB-C."),
    ("The **Wi-Fi** password is *HotelGuest*.", "The Wi-Fi password is HotelGuest."),
]

LONG = {
    "en-long": (
        "Canberra is the capital of Australia, not Sydney. It was chosen in 1908 as a "
        "compromise between Sydney and Melbourne, e.g. to avoid favouring either city. "
        "Dr. Walter Burley Griffin designed it with Marion Mahony Griffin after a contest. "
        "Parliament moved there in 1927, and the population is now about 460,000."
    ),
    "fr-long": (
        "La tour Eiffel mesure environ 330 m depuis l'ajout d'antennes. Elle a été construite "
        "pour l'Exposition universelle de 1889, p. ex. comme vitrine de l'ingénierie. M. Eiffel "
        "en a dirigé la construction, avec Maurice Koechlin et Émile Nouguier. Le billet coûte "
        "environ 29,40 € pour le sommet."
    ),
    "el-long": (
        "Η Ακρόπολη είναι ανοιχτή από τις 8:00 έως τις 20:00 το καλοκαίρι. Το εισιτήριο "
        "κοστίζει €20, π.χ. για ενήλικες, ενώ οι φοιτητές της ΕΕ μπαίνουν δωρεάν. Ο κ. "
        "Παπαδόπουλος προτείνει να κλείσετε online μέσω του hhticket.gr. Υπάρχει και "
        "ασανσέρ για άτομα με κινητικά προβλήματα."
    ),
    "el-english-terms": (
        "Για το νέο σας iPhone 15 χρειάζεστε φορτιστή USB-C Power Delivery τουλάχιστον 20 W. "
        "Το Wi-Fi 6E λειτουργεί μόνο με συμβατό router, π.χ. το ASUS RT-AXE7800. Αν "
        "χρησιμοποιείτε MagSafe, η φόρτιση φτάνει τα 15 W. Το Lightning δεν υποστηρίζεται πια."
    ),
    "el-latin-names": (
        "Η βελανιδιά (Quercus robur) και η ελιά (Olea europaea) είναι από τα πιο γνωστά "
        "δέντρα της Ελλάδας. Ο Λινναίος (Carl Linnaeus) καθιέρωσε τη διωνυμική ονοματολογία "
        "το 1753. Σήμερα τα ονόματα γράφονται πάντα με λατινικούς χαρακτήρες και πλάγια "
        "γράμματα."
    ),
    "es-long": (
        "¿Cuál es la capital de Australia? Es Canberra, no Sídney. Se eligió en 1908 como "
        "compromiso entre Sídney y Melbourne, p. ej. para no favorecer a ninguna. El Sr. "
        "Griffin la diseñó junto con su esposa tras un concurso internacional. El Parlamento "
        "se trasladó allí en 1927."
    ),
    "de-long": (
        "Die Hauptstadt Australiens ist Canberra, nicht Sydney. Sie wurde 1908 als Kompromiss "
        "zwischen Sydney und Melbourne gewählt, z. B. um keine der beiden zu bevorzugen. Dr. "
        "Griffin entwarf sie mit seiner Frau nach einem Wettbewerb. Das Parlament zog am 9. Mai "
        "1927 dorthin um."
    ),
    "it-long": (
        "La capitale dell'Australia è Canberra, non Sydney. Fu scelta nel 1908 come "
        "compromesso tra Sydney e Melbourne, ad es. per non favorire nessuna delle due. Il "
        "Sig. Griffin la progettò con la moglie dopo un concorso internazionale. Il "
        "Parlamento vi si trasferì nel 1927."
    ),
    "pt-long": (
        "A capital da Austrália é Camberra, não Sydney. Foi escolhida em 1908 como "
        "compromisso entre Sydney e Melbourne, p. ex. para não favorecer nenhuma. O Sr. "
        "Griffin projetou-a com a esposa depois de um concurso internacional. O Parlamento "
        "mudou-se para lá em 1927."
    ),
    "fr-greek-word": (
        "Le mot « δημοκρατία » vient du grec ancien et signifie le pouvoir du peuple. Il "
        "apparaît à Athènes au Ve siècle av. J.-C. avec les réformes de Clisthène. Le terme "
        "s'est ensuite répandu dans toutes les langues européennes, p. ex. en latin."
    ),
    "no-sentence-end": (
        "the next bus leaves from the main square every ten minutes and the tram leaves from "
        "the station every fifteen minutes while the ferry to the island runs every hour "
        "during the summer season and every two hours in winter"
    ),
    "el-no-sentence-end": (
        "το επόμενο λεωφορείο φεύγει από την κεντρική πλατεία κάθε δέκα λεπτά και το τραμ "
        "φεύγει από τον σταθμό κάθε δεκαπέντε λεπτά ενώ το πλοίο για το νησί εκτελεί "
        "δρομολόγια κάθε ώρα το καλοκαίρι και κάθε δύο ώρες τον χειμώνα"
    ),
    "cjk-long": "これは検索拡張生成（RAG）という技術の説明です。" * 12,
    "cjk-no-marks": "検索拡張生成という技術の説明" * 30,
    "zh-long": "北京是中华人民共和国的首都，也是全国的政治和文化中心。" * 10,
    "ellipsis-input": "Well… the answer depends on the route… " * 10,
    "three-dots": "Let me think... the train is faster... " * 10,
    "emoji-long": "🎉 Great news! " + "The package 📦 arrives tomorrow between 9 and 12 🚚 " * 6,
    "parenthetical": (
        "The offer letter describes the salary and benefits in detail, including the bonus "
        "scheme (which is paid quarterly, subject to performance reviews, team targets, and "
        "the approval of the regional director and the finance committee) and the pension."
    ),
    "guillemets-long": (
        "Il a répondu « je ne sais pas encore si le train de 14 h 30 partira à l'heure, "
        "parce que la grève annoncée par les syndicats pourrait perturber le trafic sur "
        "toute la ligne jusqu'à Marseille et au-delà » avant de raccrocher."
    ),
    "greek-question-marks": (
        "Πού είναι ο σταθμός; Είναι δίπλα στην πλατεία Συντάγματος, περίπου 300 m από εδώ. "
        "Θέλετε να κλείσω ταξί μέσω του Uber ή του FREENOW; Το κόστος είναι περίπου €8."
    )
    * 2,
    "url-in-middle": (
        "The full documentation for this integration is available at "
        "https://www.home-assistant.io/integrations/homebuddy_proactive/configuration/advanced "
        "and it explains every option including the card length limits and the detector modes."
    ),
    "numbers-units": (
        "Η διαδρομή είναι 3,5 km και διαρκεί 14 λεπτά με ταχύτητα 15 km/h. Το κόστος είναι "
        "€12,50 ανά άτομο, δηλ. €25 για δύο. Η αναχώρηση είναι στις 14:30 ακριβώς από την "
        "πλατεία, κοντά στο café Central."
    ),
    "initials": (
        "The book was written by J. R. R. Tolkien, who taught at Oxford for many years and "
        "published The Hobbit in 1937. C. S. Lewis was his close friend and a member of the "
        "Inklings, an informal literary group that met in a pub called The Eagle and Child."
    ),
}

LONG_WORD = "Donaudampfschifffahrtsgesellschaftskapitän" * 8
LONG_URL = "https://example.com/" + "very-long-path-segment/" * 15 + "index.html"
EXTRA = {
    "long-word": LONG_WORD,
    "long-url": LONG_URL,
    "prefix-long-url": "Δες εδώ: " + LONG_URL,
    "greek-long-word": "Καλημέρα" * 40,
}

SIZES = [(150, 220), (100, 150), (60, 90)]


# --------------------------------------------------------------------------------------------
# Reference helpers (independent of the implementation).
# --------------------------------------------------------------------------------------------

_KEPT = {"\u00a0", "\u202f", "\u2007", "\u2009"}
_SENTENCE_MARKS = ".!?;;·。！？…"
_NO_SPACE_MARKS = "。！？"
_CLOSERS = "\"'”’»)]}」』】〉》"
_OPEN_CLOSE = {"(": ")", "[": "]", "«": "»", "「": "」", "（": "）"}
_ABBREVIATIONS = [
    "Dr.",
    "Mr.",
    "Mrs.",
    "e.g.",
    "i.e.",
    "p. ex.",
    "p. ej.",
    "π.χ.",
    "κ.",
    "Δρ.",
    "Δηλ.",
    "δηλ.",
    "z. B.",
    "d. h.",
    "M.",
    "Sr.",
    "Sra.",
    "Dra.",
    "Sig.",
    "ad es.",
    "c.-à-d.",
    "av.",
    "ca.",
    "aprox.",
    "Av.",
    "J.",
    "K.",
    "R.",
    "C.",
    "S.",
    "am 9.",
    "am 3.",
    "U.S.",
    "p.",
]


def _normalise(text: str) -> str:
    """Reference whitespace normalisation: runs become one space, a lone no-break space stays."""
    text = unicodedata.normalize("NFC", text)
    return re.sub(r"\s+", lambda m: m.group() if m.group() in _KEPT else " ", text).strip()


def _is_wide(char: str) -> bool:
    name = unicodedata.name(char, "")
    return name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL", "THAI", "FULLWIDTH"))


def _strip_tail(result: str) -> tuple[str, bool, str]:
    """Split a cut result into (head, has_ellipsis, appended closers)."""
    closers = ""
    while result and result[-1] in ')]»”“"」）' and ELLIPSIS in result[-4:]:
        closers = result[-1] + closers
        result = result[:-1]
    if result.endswith(ELLIPSIS):
        return result[: -len(ELLIPSIS)], True, closers
    return result + closers, False, ""


def _balanced(text: str) -> bool:
    stack: list[str] = []
    for char in text:
        if char in _OPEN_CLOSE:
            stack.append(_OPEN_CLOSE[char])
        elif char in _OPEN_CLOSE.values():
            if not stack or stack[-1] != char:
                return False
            stack.pop()
    return not stack


def _obvious_sentence_ends(text: str) -> list[int]:
    """End offsets of unmistakable sentence ends: a long lowercase word, a mark, a capital."""
    ends = []
    for match in re.finditer(r"(?<![\w.])[^\W\d_]{4,}([.!?])\s+(?=[A-ZΑ-ΩÀ-Ý¿¡])", text):
        word = match.group(0)
        if any(ch.isupper() for ch in word[1:]):
            continue
        prefix = text[: match.end(1)]
        if not _balanced(re.sub(r"[^()\[\]«»“”]", "", prefix)):
            continue
        ends.append(match.end(1))
    return ends


def _check(text: str, target: int, maximum: int) -> str:
    """Shape ``text`` and assert the general invariants; return the result."""
    result = shape_card(text, target, maximum)
    normal = _normalise(text)
    assert len(result) <= maximum, result
    if any(ch.isalnum() for ch in normal):
        assert result, text
    if len(normal) <= maximum:
        return result
    head, ellipsis, closers = _strip_tail(result)
    # Nothing is removed: the head is a prefix of the normalised input.
    assert normal.startswith(head), (head, normal)
    assert head.strip() == head
    if not ellipsis:
        # A sentence cut ends at a real sentence end, not an abbreviation or a decimal.
        last = head.rstrip(_CLOSERS)[-1]
        assert last in _SENTENCE_MARKS, head
        following = normal[len(head) : len(head) + 1]
        assert following in {"", " "} or last in _NO_SPACE_MARKS, (head, following)
        for abbreviation in _ABBREVIATIONS:
            assert not head.endswith(" " + abbreviation), head
            assert head != abbreviation
        assert _balanced(re.sub(r"[^()\[\]«»“”]", "", head)), head
        return result
    # Word or character cut.
    following = normal[len(head) : len(head) + 1]
    tail_char = head[-1:] if head else ""
    space_cut = following == " " or normal[len(head) :].startswith(tuple(", ;:"))
    if " " in normal[: maximum - 1] and not any(_is_wide(ch) for ch in normal[:maximum]):
        first_space = normal.index(" ")
        if first_space < maximum - 1 and len(head) >= first_space:
            assert space_cut or not tail_char.isalnum() or not following.isalnum(), (
                head,
                following,
            )
    if tail_char and following:
        # Never split a combining sequence or an emoji ZWJ sequence.
        assert not unicodedata.combining(following)
        assert following not in "\u200d\ufe0f" and tail_char != "\u200d"
        # A Latin or Greek word inside wide text is not split.
        if not any(_is_wide(ch) for ch in normal[:maximum]) or (
            tail_char.isascii() and tail_char.isalnum()
        ):
            word_char = tail_char.isalnum() and not _is_wide(tail_char)
            if word_char and following.isalnum() and not _is_wide(following):
                # Only allowed for a single token longer than the maximum.
                token_start = max(head.rfind(" "), head.rfind("\u3002")) + 1
                token = re.match(r"\S+", normal[token_start:])
                assert token is not None
                assert len(token.group(0)) > maximum - 1 - token_start or token_start == 0, head
    # Brackets opened in the head and closed in the input are closed again.
    assert _balanced(re.sub(r"[^()\[\]«»“”]", "", head + closers)) or not _balanced(
        re.sub(r"[^()\[\]«»“”]", "", normal)
    ), result
    # A cut at words is only used when no obvious sentence end fits in [target / 2, maximum].
    obvious = [end for end in _obvious_sentence_ends(normal) if target // 2 <= end <= maximum]
    assert not obvious, (result, obvious)
    return result


# --------------------------------------------------------------------------------------------
# Parametrised cases.
# --------------------------------------------------------------------------------------------

_SHORT_CASES = [
    pytest.param(sentence, id=f"{lang}-{index}")
    for lang, sentences in LANGUAGES.items()
    for index, sentence in enumerate(sentences)
] + [pytest.param(text, id=f"mixed-{index}") for index, text in enumerate(MIXED_SHORT)]


@pytest.mark.parametrize("text", _SHORT_CASES)
def test_short_text_is_unchanged(text: str) -> None:
    """Texts under the maximum come back exactly as given (after NFC)."""
    assert shape_card(text) == unicodedata.normalize("NFC", text)


@pytest.mark.parametrize(("raw", "expected"), NORMALISED)
def test_whitespace_is_normalised(raw: str, expected: str) -> None:
    """Runs of whitespace collapse to one space; ends are trimmed."""
    assert shape_card(raw) == expected


@pytest.mark.parametrize(("raw", "expected"), CLEANED)
def test_markdown_labels_and_quotes_are_cleaned(raw: str, expected: str) -> None:
    """Markdown, labels and wrapping quotes go; every word of every script stays."""
    assert shape_card(raw) == expected


_PARAGRAPHS = [
    pytest.param(" ".join(sentences), id=f"{lang}-paragraph")
    for lang, sentences in LANGUAGES.items()
] + [pytest.param(text, id=key) for key, text in {**LONG, **EXTRA}.items()]


@pytest.mark.parametrize(("target", "maximum"), SIZES)
@pytest.mark.parametrize("text", _PARAGRAPHS)
def test_long_text_invariants(text: str, target: int, maximum: int) -> None:
    """Long texts are cut according to the invariants for several display sizes."""
    _check(text, target, maximum)


@pytest.mark.parametrize("text", _SHORT_CASES)
@pytest.mark.parametrize("maximum", [24, 40])
def test_short_sentences_under_tiny_maximum(text: str, maximum: int) -> None:
    """Even tiny limits keep the invariants."""
    _check(text, maximum, maximum)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(LONG["en-long"], "e.g. to avoid", id="en-eg"),
        pytest.param(LONG["fr-long"], "p. ex. comme", id="fr-pex"),
        pytest.param(LONG["el-long"], "π.χ. για", id="el-pchi"),
        pytest.param(LONG["es-long"], "p. ej. para", id="es-pej"),
        pytest.param(LONG["de-long"], "z. B. um", id="de-zb"),
        pytest.param(LONG["it-long"], "ad es. per", id="it-ades"),
        pytest.param(LONG["pt-long"], "p. ex. para", id="pt-pex"),
    ],
)
def test_abbreviation_is_not_a_sentence_end(text: str, expected: str) -> None:
    """The sentence containing an abbreviation is kept whole."""
    result = _check(text, 150, 220)
    assert expected in result


@pytest.mark.parametrize(
    ("text", "keep"),
    [
        pytest.param(LONG["el-english-terms"], ["iPhone 15", "USB-C", "Power Delivery"], id="el"),
        pytest.param(LONG["el-latin-names"], ["Quercus robur", "Olea europaea"], id="latin"),
        pytest.param(LONG["fr-greek-word"], ["« δημοκρατία »"], id="fr-greek"),
        pytest.param(LONG["cjk-long"], ["RAG"], id="cjk-rag"),
        pytest.param(LONG["numbers-units"], ["3,5 km", "15 km/h", "€12,50"], id="units"),
    ],
)
def test_other_script_terms_survive_a_cut(text: str, keep: list[str]) -> None:
    """Words of another script inside the kept part are never dropped."""
    result = _check(text, 150, 220)
    for term in keep:
        assert term in result


def test_title_and_initial_are_not_sentence_ends() -> None:
    """ "M. Dupont", "κ. Παπαδόπουλος" and "J. R. R. Tolkien" keep their names."""
    text = "Le rendez-vous avec M. Dupont est confirmé pour demain. " * 6
    assert _check(text, 150, 220).count("M. Dupont") >= 3
    text = "Ο κ. Παπαδόπουλος θα σας περιμένει στην είσοδο του κτιρίου. " * 6
    assert _check(text, 150, 220).count("κ. Παπαδόπουλος") >= 3
    result = _check(LONG["initials"], 60, 90)
    assert "J. R. R. Tolkien" in result or result.endswith(ELLIPSIS)


def test_german_ordinal_date_is_not_a_sentence_end() -> None:
    """ "am 3. Mai" is a date, not the end of a sentence."""
    text = "Das Treffen findet am 3. Mai im großen Saal statt, bitte pünktlich sein. " + (
        "Danach gibt es Kaffee und Kuchen für alle Teilnehmer im Foyer. " * 4
    )
    result = _check(text, 40, 60)
    assert not result.endswith("am 3.")


def test_decimal_is_not_a_sentence_end() -> None:
    """ "3.14" and "2.0" never end a sentence."""
    text = "Pi is roughly 3.14 and the API version is 2.0 for all clients " * 6
    result = _check(text, 150, 220)
    assert result.endswith(ELLIPSIS)


@pytest.mark.parametrize("length", [149, 150, 151, 219, 220])
def test_exact_lengths_are_kept(length: int) -> None:
    """Text at or just around the target, and up to the maximum, is unchanged."""
    base = "Η επιστολή προσφοράς (offer letter) περιγράφει τον μισθό και τις παροχές. " * 4
    text = base[: length - 1].rstrip() + "."
    text += "x" * (length - len(text))
    assert len(text) == length
    assert shape_card(text) == text


def test_one_over_maximum_in_greek() -> None:
    """221 characters of Greek words are cut at a word boundary."""
    words = "καλημέρα " * 30
    text = words[:220].rstrip() + "ς" * (221 - len(words[:220].rstrip()))
    assert len(text) == 221
    result = _check(text, 150, 220)
    assert result.endswith(ELLIPSIS)


def test_emoji_sequences_are_not_split() -> None:
    """A character cut never separates a ZWJ or flag sequence."""
    text = "家族👨‍👩‍👧旅行🇬🇷" * 40
    result = shape_card(text)
    assert len(result) <= 220
    head = result.removesuffix(ELLIPSIS)
    assert text.startswith(head)
    assert not head.endswith("\u200d")
    assert head[-1:] not in {"\U0001f1ec"} or head.endswith("\U0001f1ec\U0001f1f7")


def test_combining_marks_are_not_split() -> None:
    """Decomposed accents that NFC cannot compose stay attached to their letter."""
    text = "q\u0301" * 300
    result = shape_card(text)
    assert len(result) <= 220
    head = result.removesuffix(ELLIPSIS)
    assert not unicodedata.combining(text[len(head)])


def test_lone_wrapping_quote_is_removed() -> None:
    """A model output that opens a quote it never closes loses that quote."""
    assert shape_card('"Bring the USB-C cable.') == "Bring the USB-C cable."
    assert shape_card("«Le Wi-Fi est gratuit.") == "Le Wi-Fi est gratuit."


def test_non_breaking_spaces_are_kept() -> None:
    """French narrow no-break spaces survive a short text and are not cut points."""
    text = "Le billet coûte 12,50\u00a0€ et part à 14\u202fh\u202f30\u202f!"
    assert shape_card(text) == text
    long = "Il faut compter 3,5\u00a0km à pied jusqu'à la gare de Lyon " * 8
    result = _check(long, 150, 220)
    assert not result.endswith("3,5" + ELLIPSIS)


def test_parenthesis_closed_after_word_cut() -> None:
    """A word cut inside parentheses closes them after the ellipsis."""
    result = _check(LONG["parenthetical"], 150, 220)
    assert result.endswith(ELLIPSIS + ")")


def test_guillemets_closed_after_word_cut() -> None:
    """A word cut inside « » closes the quotation."""
    result = _check(LONG["guillemets-long"], 100, 150)
    assert result.endswith(ELLIPSIS + "»")


def test_cjk_with_space_early_is_cut_by_characters() -> None:
    """One early space in Japanese text does not force a short word cut."""
    text = "RAG とは" + "検索拡張生成という技術の説明" * 30
    result = shape_card(text)
    assert len(result) >= 200


def test_spanish_inverted_mark_not_left_dangling() -> None:
    """A word cut never leaves an opening ¿ or ¡ at the end."""
    text = ("vale la pena reservar con antelación porque hay mucha gente ¿verdad? " * 5).strip()
    result = shape_card(text.replace("?", ""), 150, 220)
    assert not result.removesuffix(ELLIPSIS).endswith(("¿", "¡", " "))


@pytest.mark.parametrize(("target", "maximum"), [(150, 220), (100, 150), (60, 90), (20, 30)])
def test_invariants_hold_on_corpus_soup(target: int, maximum: int) -> None:
    """Every paragraph of every language, joined, keeps the invariants."""
    for sentences in LANGUAGES.values():
        for start in range(len(sentences)):
            _check(" ".join(sentences[start:]), target, maximum)


@pytest.mark.parametrize("mark", [".", "…", "...", "!", "?", ";"])
def test_synthetic_sentence_end_followed_by_lowercase(mark: str) -> None:
    """A long word then a mark is a sentence end even when lowercase text follows."""
    first = "x" * 80 + mark
    result = shape_card(first + " " + "y " * 100)
    assert result == first


@pytest.mark.parametrize(
    ("text", "end"),
    [
        pytest.param(
            "Bring apples, pears, plums, cherries, grapes, lemons, oranges, figs, etc. "
            + "Then wash everything carefully before you put it in the fridge overnight. " * 3,
            "etc.",
            id="en-etc-end",
        ),
        pytest.param(
            "La tour Eiffel mesure aujourd'hui, avec ses antennes, environ 330 m. "
            + "Elle a été construite pour l'Exposition universelle de Paris en 1889. " * 3,
            "330 m.",
            id="fr-unit-end",
        ),
        pytest.param(
            "Il concerto di stasera al teatro comunale è confermato, ecco com'è. "
            + "Porta il biglietto stampato e un documento d'identità valido. " * 3,
            "com'è.",
            id="it-single-letter-end",
        ),
        pytest.param(
            "Το τρένο για τη Θεσσαλονίκη φεύγει από τον σταθμό Λαρίσης στις 14:30. "
            + "Τα εισιτήρια αγοράζονται online ή στα εκδοτήρια του σταθμού. " * 3,
            "14:30.",
            id="el-time-end",
        ),
    ],
)
def test_real_sentence_ends_that_look_like_abbreviations(text: str, end: str) -> None:
    """Units, times, "etc." before a capital and one-letter words can end a sentence."""
    result = _check(text, 100, 150)
    assert end in result
    assert not result.endswith(ELLIPSIS)


@pytest.mark.parametrize(
    ("text", "keep"),
    [
        pytest.param(
            "Wir brauchen Mehl, Zucker, Eier usw. und fahren danach zum Markt am Hafen. " * 4,
            "usw. und fahren",
            id="de-usw",
        ),
        pytest.param(
            "Πάρε ψωμί, γάλα, τυρί κλπ. και πέρασε από το φαρμακείο της γειτονιάς. " * 4,
            "κλπ. και πέρασε",
            id="el-klp",
        ),
        pytest.param(
            "Serve farina, zucchero, uova ecc. e poi passiamo dal mercato del porto. " * 4,
            "ecc. e poi",
            id="it-ecc",
        ),
        pytest.param(
            "Die Praxis ist in der Bahnhofstr. 12 im zweiten Stock, gleich neben der Bank. " * 4,
            "Bahnhofstr. 12",
            id="de-street",
        ),
    ],
)
def test_unlisted_abbreviations_before_lowercase(text: str, keep: str) -> None:
    """Short abbreviations followed by lowercase or a number continue the sentence."""
    result = _check(text, 60, 90)
    assert keep in result


def test_html_tags_are_removed() -> None:
    """Simple inline HTML from a model is dropped, the words stay."""
    assert shape_card("Το <b>iPhone 15</b> έχει<br>USB-C.") == "Το iPhone 15 έχει USB-C."


def test_lone_trailing_quote_is_removed() -> None:
    """A closing quote with no opening partner at the end goes."""
    assert shape_card("Bring the USB-C cable.”") == "Bring the USB-C cable."
    assert shape_card('Il a dit "oui".') == 'Il a dit "oui".'


def test_sentence_inside_quotes_is_closed() -> None:
    """When every sentence end is inside a quotation, the quotation is closed after it."""
    text = (
        "He said: “The train to Lyon leaves at 14:30 from platform 4. "
        "The next one is at 16:00. Tickets are sold at the machines. "
        "Bring your ID and your booking code because there are checks on every train.”"
    )
    result = shape_card(text, 100, 150)
    assert len(result) <= 150
    assert result.endswith(".”")
    assert text.startswith(result[:-1])


@pytest.mark.parametrize(("target", "maximum"), [(300, 220), (10, 220), (150, 3)])
def test_odd_target_and_maximum(target: int, maximum: int) -> None:
    """A target above the maximum, or a tiny one, still respects the maximum."""
    for text in (LONG["el-long"], LONG["cjk-long"], LONG_URL):
        result = shape_card(text, target, maximum)
        assert 0 < len(result) <= maximum


def test_huge_input_is_fast() -> None:
    """A very long model output is shaped quickly (CPU time: other work on the machine is
    not this function's)."""
    import time

    text = " ".join(EN + FR + EL + ES + DE + IT + PT) * 200
    start = time.process_time()
    result = shape_card(text)
    assert time.process_time() - start < 1.0
    assert len(result) <= 220


def test_inch_mark_is_kept() -> None:
    """A straight double quote used as an inch mark at the end is not a stray quote."""
    assert shape_card('Η οθόνη του iPhone 15 είναι 6.1"') == 'Η οθόνη του iPhone 15 είναι 6.1"'


def test_unknown_angle_brackets_are_kept() -> None:
    """Only formatting HTML tags go; other angle-bracket text stays."""
    assert shape_card("Use the <video> element for the clip.") == (
        "Use the <video> element for the clip."
    )


def test_sentence_starting_with_a_number() -> None:
    """A sentence may start with a number after a short word: "Take the bus. 15 minutes…"."""
    text = "Take the number 7 bus. 15 minutes later you reach the old harbour and the museum. " * 4
    result = _check(text, 20, 40)
    assert result == "Take the number 7 bus."
    text = "Ο αριθμός είναι στη σελ. 12 του οδηγού, δίπλα στο κεφάλαιο για το Wi-Fi. " * 4
    assert "σελ. 12" in _check(text, 20, 40)
