"""The card confirming a captured reminder or task ("Reminder saved: call Anna.").

The card addresses the user: "I need to call my mother" is stored as said and shown as
"Task added: call your mother." (``card_person.address_user``).

It sits with the memory that stores the reminder; it is shaped with the glasses' card rules.
"""

from __future__ import annotations

from typing import Final

from ..text.capture import CapturedMemory
from ..text.cards import shape_card
from ..text.identify import _base_code
from ..text.languages import DEFAULT_LANGUAGE
from ..text.rules.base import KIND_TASK
from .card_person import address_user

_CARD_PREFIXES: Final[dict[str, tuple[str, str]]] = {
    "en": ("Reminder saved: ", "Task added: "),
    "fr": ("Rappel enregistré : ", "Tâche ajoutée : "),
    "el": ("Υπενθύμιση αποθηκεύτηκε: ", "Εργασία προστέθηκε: "),
    "es": ("Recordatorio guardado: ", "Tarea añadida: "),
    "de": ("Erinnerung gespeichert: ", "Aufgabe hinzugefügt: "),
    "it": ("Promemoria salvato: ", "Attività aggiunta: "),
    "pt": ("Lembrete salvo: ", "Tarefa adicionada: "),
}


def memory_card(captured: CapturedMemory) -> str:
    """Return the deterministic glasses card confirming a captured reminder or task."""
    base = _base_code(captured.language) or DEFAULT_LANGUAGE
    reminder, task = _CARD_PREFIXES.get(base, _CARD_PREFIXES[DEFAULT_LANGUAGE])
    prefix = task if captured.kind == KIND_TASK else reminder
    # The memory keeps the user's words; the card says them to the user ("your mother").
    content = address_user(" ".join(captured.content.split()).strip(), base)
    if content and content[-1] not in ".!?…;;":
        content += "."
    return shape_card(prefix + content)
