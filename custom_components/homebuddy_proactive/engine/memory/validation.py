"""What a memory request may hold: the errors it raises, the limits on its texts and lists,
and the fields a user may correct in each store (validated as for a new memory).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from ..const import MEMORY_KINDS
from ..storage.search_index import search_key
from .episodes import SUMMARY_USER, TONES
from .records import (
    JSON_LIST_COLUMNS,
    MEMORY_STORES,
    STORE_AFFECTIVE,
    STORE_EPISODIC,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
)

MAX_MEMORY_CHARACTERS: Final = 2000
MAX_NAME_CHARACTERS: Final = 200
MAX_ITEM_CHARACTERS: Final = 500
MAX_ITEMS: Final = 50
DIFFICULTIES: Final = ("easy", "medium", "hard")

# What a user may correct in each long-term store; short-term turns are only forgotten.
EDITABLE_FIELDS: Final[Mapping[str, tuple[str, ...]]] = {
    STORE_FACTUAL: ("content", "kind", "importance"),
    STORE_EPISODIC: ("summary", "topics", "emotional_tone", "importance"),
    STORE_PROCEDURAL: (
        "name",
        "steps",
        "prerequisites",
        "difficulty",
        "success_criteria",
        "importance",
    ),
    STORE_AFFECTIVE: ("context", "sentiment", "emotions", "triggers", "importance"),
}
# ``content`` in an edit names the text each store lists as its ``content``.
_CONTENT_FIELDS: Final[Mapping[str, str]] = {
    STORE_FACTUAL: "content",
    STORE_EPISODIC: "summary",
    STORE_PROCEDURAL: "name",
    STORE_AFFECTIVE: "context",
}
# A list field (declared ``strings`` in ``records.py``) is checked as a list of texts.
_LIST_FIELDS: Final = JSON_LIST_COLUMNS
EPISODE_TEXT_FIELDS: Final = frozenset({"summary", "topics", "emotional_tone"})


class MemoryError(ValueError):
    """A memory request is invalid."""


class MemoryNotFoundError(MemoryError):
    """No memory of that store has this id (or it is another client's)."""

    def __init__(self, store: str, memory_id: int) -> None:
        """Name the store and the id that were not found."""
        super().__init__(f"there is no {store} memory with id {memory_id}")
        self.store = store
        self.memory_id = memory_id


def edit_fields(store: str, changes: Mapping[str, Any]) -> dict[str, Any]:
    """The changes under the store's own field names (``content`` resolved); names checked."""
    if not isinstance(changes, Mapping):
        raise MemoryError("the changes must be an object of fields")
    fields = dict(changes)
    main = _CONTENT_FIELDS[store]
    if "content" in fields and main != "content":
        if main in fields:
            raise MemoryError(f"give content or {main}, not both")
        fields[main] = fields.pop("content")
    editable = EDITABLE_FIELDS[store]
    for name in fields:
        if name not in editable:
            raise MemoryError(
                f"{store} memories have no editable field {name!r}; editable: {', '.join(editable)}"
            )
    if not fields:
        raise MemoryError(f"nothing to change; editable: {', '.join(editable)}")
    return fields


def edited_columns(store: str, fields: Mapping[str, Any], now: datetime) -> dict[str, Any]:
    """Validate edited fields as :meth:`MemoryEngine.remember` and its kin do; return columns."""
    columns: dict[str, Any] = {}
    for name, value in fields.items():
        if name == "importance":
            check_importance(value)
            columns[name] = float(value)
        elif name == "kind":
            if value not in MEMORY_KINDS:
                raise MemoryError(f"kind must be one of {', '.join(MEMORY_KINDS)}")
            columns[name] = value
        elif name in ("content", "summary", "context"):
            columns[name] = clean_text(_string(value, name), name, MAX_MEMORY_CHARACTERS)
        elif name == "name":
            columns[name] = clean_text(_string(value, name), name, MAX_NAME_CHARACTERS)
            columns["name_key"] = procedure_key(columns[name])
        elif name in _LIST_FIELDS:
            if not isinstance(value, list | tuple):
                raise MemoryError(f"{name} must be a list of texts")
            columns[name] = clean_items(value, name)
            if name == "steps" and not columns[name]:
                raise MemoryError("steps must list at least one step")
        elif name == "difficulty":
            if value is not None and value not in DIFFICULTIES:
                raise MemoryError(f"difficulty must be one of {', '.join(DIFFICULTIES)}")
            columns[name] = value
        elif name == "success_criteria":
            columns[name] = (
                None
                if value is None
                else clean_text(_string(value, name), name, MAX_ITEM_CHARACTERS)
            )
        elif name == "sentiment":
            check_sentiment(value)
            columns[name] = float(value)
        elif name == "emotional_tone":
            if value not in TONES:
                raise MemoryError(f"emotional_tone must be one of {', '.join(TONES)}")
            columns[name] = value
    if store == STORE_PROCEDURAL:
        columns["updated_at"] = now.isoformat()
    if store == STORE_EPISODIC and EPISODE_TEXT_FIELDS & set(columns):
        # Marked as the user's, so a model summary still on its way does not replace it.
        columns["summary_source"] = SUMMARY_USER
    return columns


def procedure_key(name: str) -> str:
    """The key a procedure is found by: its name folded, spaces collapsed."""
    return search_key(name)


def check_client(client_id: str) -> None:
    if not client_id.strip():
        raise MemoryError("client_id is required")
    check_unicode(client_id, "client_id")


def check_unicode(value: str, name: str) -> str:
    """The text, or a :class:`MemoryError` when it cannot be stored (a lone surrogate)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise MemoryError(f"{name} must be valid Unicode text (no lone surrogates)") from None
    return value


def check_importance(importance: float) -> None:
    if not _is_number(importance) or not 0.0 <= importance <= 1.0:
        raise MemoryError("importance must be between 0 and 1")


def check_sentiment(sentiment: float) -> None:
    if not _is_number(sentiment) or not -1.0 <= sentiment <= 1.0:
        raise MemoryError("sentiment must be between -1 and 1")


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _string(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise MemoryError(f"{name} must be a text")
    return value


def check_store(store: str) -> str:
    if store not in MEMORY_STORES:
        raise MemoryError(f"store must be one of {', '.join(MEMORY_STORES)}")
    return store


def clean_text(value: str, name: str, limit: int) -> str:
    value = check_unicode(value, name).strip()
    if not value:
        raise MemoryError(f"{name} must not be empty")
    if len(value) > limit:
        raise MemoryError(f"{name} must be at most {limit} characters")
    return value


def clean_items(values: Sequence[str] | Mapping[str, Any], name: str) -> list[str]:
    if isinstance(values, str | Mapping):
        raise MemoryError(f"{name} must be a list of texts")
    items = [" ".join(str(value).split()) for value in values]
    items = [item for item in items if item]
    if len(items) > MAX_ITEMS:
        raise MemoryError(f"{name} must have at most {MAX_ITEMS} entries")
    if any(len(item) > MAX_ITEM_CHARACTERS for item in items):
        raise MemoryError(f"each of {name} must be at most {MAX_ITEM_CHARACTERS} characters")
    for item in items:
        check_unicode(item, name)
    return items
