"""Reminder and task cards address the user; the stored memory keeps the user's words."""

from __future__ import annotations

import pytest

from custom_components.homebuddy_proactive.engine.memory.reminder_cards import memory_card
from custom_components.homebuddy_proactive.engine.text import capture_memory


@pytest.mark.parametrize(
    ("language", "said", "stored", "card"),
    [
        # English: the subject and auxiliary go, possessives and "I" become "you".
        ("en", "I need to call my mother", "call my mother", "Task added: call your mother."),
        (
            "en",
            "remind me to call the pharmacy tomorrow morning",
            "call the pharmacy tomorrow morning",
            "Reminder saved: call the pharmacy tomorrow morning.",
        ),
        (
            "en",
            "remind me after lunch to call the pharmacy",
            "call the pharmacy after lunch",
            "Reminder saved: call the pharmacy after lunch.",
        ),
        (
            "en",
            "remind me that I am at the dentist at five",
            "I am at the dentist at five",
            "Reminder saved: you are at the dentist at five.",
        ),
        # French (vous, as the Assist phrases): a first-person verb becomes its infinitive.
        (
            "fr",
            "il faut que j'appelle la pharmacie demain matin",
            "j'appelle la pharmacie demain matin",
            "Tâche ajoutée : appeler la pharmacie demain matin.",
        ),
        (
            "fr",
            "il faut que je téléphone à ma mère",
            "je téléphone à ma mère",
            "Tâche ajoutée : téléphoner à votre mère.",
        ),
        (
            "fr",
            "il faut que j'achète un cadeau pour marie",
            "j'achète un cadeau pour marie",
            "Tâche ajoutée : acheter un cadeau pour marie.",
        ),
        (
            "fr",
            "il faut que j'envoie le dossier à la banque",
            "j'envoie le dossier à la banque",
            "Tâche ajoutée : envoyer le dossier à la banque.",
        ),
        (
            "fr",
            "il faut que je prenne rendez-vous chez le dentiste",
            "je prenne rendez-vous chez le dentiste",
            "Tâche ajoutée : prendre rendez-vous chez le dentiste.",
        ),
        (
            "fr",
            "il faut que je répète mon discours",
            "je répète mon discours",
            "Tâche ajoutée : répéter votre discours.",
        ),
        (
            "fr",
            "il faut que je me fasse couper les cheveux",
            "je me fasse couper les cheveux",
            "Tâche ajoutée : vous faire couper les cheveux.",
        ),
        (
            "fr",
            "rappelle-moi demain matin de prendre mes médicaments",
            "prendre mes médicaments demain matin",
            "Rappel enregistré : prendre vos médicaments demain matin.",
        ),
        # Greek (polite plural, as the Assist phrases): «να» + first person → -ετε.
        (
            "el",
            "θύμισέ μου να αγοράσω ψωμί",
            "να αγοράσω ψωμί",
            "Υπενθύμιση αποθηκεύτηκε: να αγοράσετε ψωμί.",
        ),
        (
            "el",
            "θύμισέ μου αύριο το πρωί να πάρω τα χάπια μου",
            "αύριο το πρωί να πάρω τα χάπια μου",
            "Υπενθύμιση αποθηκεύτηκε: αύριο το πρωί να πάρετε τα χάπια σας.",
        ),
        (
            "el",
            "πρέπει να πάω το αυτοκίνητο για σέρβις",
            "να πάω το αυτοκίνητο για σέρβις",
            "Εργασία προστέθηκε: να πάτε το αυτοκίνητο για σέρβις.",
        ),
        (
            "el",
            "πρέπει να πάρουμε τα παιδιά στις τέσσερις",
            "να πάρουμε τα παιδιά στις τέσσερις",
            "Εργασία προστέθηκε: να πάρετε τα παιδιά στις τέσσερις.",
        ),
        # Spanish (tú).
        (
            "es",
            "tengo que llamar a mi madre mañana",
            "llamar a mi madre mañana",
            "Tarea añadida: llamar a tu madre mañana.",
        ),
        (
            "es",
            "tengo que cortarme el pelo",
            "cortarme el pelo",
            "Tarea añadida: cortarte el pelo.",
        ),
        # German (du).
        (
            "de",
            "ich muss meine Mutter anrufen",
            "meine Mutter anrufen",
            "Aufgabe hinzugefügt: deine Mutter anrufen.",
        ),
        # Italian (tu).
        (
            "it",
            "devo chiamare mia madre domani",
            "chiamare mia madre domani",
            "Attività aggiunta: chiamare tua madre domani.",
        ),
        # Portuguese (você, in Brazil and in Portugal alike).
        (
            "pt",
            "tenho que ligar para o meu pai",
            "ligar para o meu pai",
            "Tarefa adicionada: ligar para o seu pai.",
        ),
    ],
)
def test_card_addresses_the_user(language: str, said: str, stored: str, card: str) -> None:
    """The memory keeps what was said; the card says it to the user."""
    captured = capture_memory(said, language)
    assert captured is not None
    assert captured.content == stored
    assert memory_card(captured) == card


@pytest.mark.parametrize(
    ("language", "said", "card"),
    [
        # A French first person with no reliable infinitive stays as said.
        ("fr", "il faut que je finisse le rapport", "Tâche ajoutée : finir le rapport."),
        ("fr", "il faut que je bâtisse un mur", "Tâche ajoutée : je bâtisse un mur."),
        # "on" (we) is not changed.
        (
            "fr",
            "il faut qu'on réserve les billets de train",
            "Tâche ajoutée : on réserve les billets de train.",
        ),
        # Capitals are kept, the country "US" is not "you".
        ("en", "REMIND ME TO CALL MY MOTHER", "Reminder saved: CALL YOUR MOTHER."),
        ("en", "remind me to renew my US passport", "Reminder saved: renew your US passport."),
        ("el", "ΘΥΜΙΣΕ ΜΟΥ ΝΑ ΠΑΡΩ ΓΑΛΑ", "Υπενθύμιση αποθηκεύτηκε: ΝΑ ΠΑΡΕΤΕ ΓΑΛΑ."),
        # Already addressed to the user: nothing to change.
        ("el", "μην ξεχάσεις να πάρεις ψωμί", "Υπενθύμιση αποθηκεύτηκε: να πάρεις ψωμί."),
    ],
)
def test_card_changes_only_what_is_reliable(language: str, said: str, card: str) -> None:
    """No conversion is guessed: an unknown form stays the user's, capitals stay."""
    captured = capture_memory(said, language)
    assert captured is not None
    assert memory_card(captured) == card
