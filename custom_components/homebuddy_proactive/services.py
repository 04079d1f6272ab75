"""Memory actions: add, list, correct, forget and export what HomeBuddy remembers about a client.

Registered once per Home Assistant instance from ``async_setup``; they act on the loaded entry
(the integration allows a single one). The websocket API (``websocket_api.py``) runs the same
operations for the UI. Every store is reachable, so nothing is remembered that
the user cannot see, correct and delete: factual, procedural and affective memories can be
added; episodes and short-term turns come from conversations and are listed, exported and
forgotten; every long-term memory can be corrected.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, Final

from homeassistant.core import (
    HomeAssistant,
    ServiceCall,
    ServiceResponse,
    SupportsResponse,
    callback,
)
from homeassistant.helpers import config_validation as cv
from homeassistant.helpers.typing import VolDictType

from .const import DOMAIN
from .engine.const import MEMORY_KINDS
from .engine.memory import (
    DIFFICULTIES,
    EDITABLE_FIELDS,
    MAX_ITEM_CHARACTERS,
    MAX_ITEMS,
    MAX_MEMORY_CHARACTERS,
    MAX_NAME_CHARACTERS,
    MEMORY_STORES,
    STORE_AFFECTIVE,
    STORE_FACTUAL,
    STORE_PROCEDURAL,
    TONES,
    MemoryEngine,
    MemoryError,
    MemoryNotFoundError,
    memory_dict,
)
from .engine.proactive.protocol import validate_identifier
from .models import HomeBuddyRuntimeData
from .schema_library import ActionInputError, vol

SERVICE_ADD_MEMORY: Final = "add_memory"
SERVICE_LIST_MEMORIES: Final = "list_memories"
SERVICE_UPDATE_MEMORY: Final = "update_memory"
SERVICE_FORGET_MEMORY: Final = "forget_memory"
SERVICE_EXPORT_MEMORIES: Final = "export_memories"
SERVICE_MEMORY_HISTORY: Final = "memory_history"

ATTR_CLIENT_ID: Final = "client_id"
ATTR_STORE: Final = "store"
ATTR_KIND: Final = "kind"
ATTR_CONTENT: Final = "content"
ATTR_IMPORTANCE: Final = "importance"
ATTR_NAME: Final = "name"
ATTR_STEPS: Final = "steps"
ATTR_PREREQUISITES: Final = "prerequisites"
ATTR_DIFFICULTY: Final = "difficulty"
ATTR_SUCCESS_CRITERIA: Final = "success_criteria"
ATTR_SENTIMENT: Final = "sentiment"
ATTR_EMOTIONS: Final = "emotions"
ATTR_TRIGGERS: Final = "triggers"
ATTR_TOPICS: Final = "topics"
ATTR_EMOTIONAL_TONE: Final = "emotional_tone"
ATTR_MEMORY_ID: Final = "memory_id"
ATTR_LIMIT: Final = "limit"
ATTR_INCLUDE_SUPERSEDED: Final = "include_superseded"

ADDABLE_STORES: Final = (STORE_FACTUAL, STORE_PROCEDURAL, STORE_AFFECTIVE)
SOURCE: Final = "home_assistant"


def valid_client_id(value: Any) -> str:
    """A client id as the WebSocket accepts it (or ``global``)."""
    try:
        return validate_identifier(ATTR_CLIENT_ID, cv.string(value))
    except ValueError as err:
        raise vol.Invalid(str(err)) from err


MAX_MEMORY_ID: Final = 2**63 - 1  # SQLite's largest integer


def _not_huge(value: Any) -> Any:
    """Refuse integers float() or SQLite cannot take (e.g. 10**400) before coercing."""
    if isinstance(value, int) and not -MAX_MEMORY_ID <= value <= MAX_MEMORY_ID:
        raise vol.Invalid("number out of range")
    return value


_IMPORTANCE = vol.All(_not_huge, vol.Coerce(float), vol.Range(min=0, max=1))
_SENTIMENT = vol.All(_not_huge, vol.Coerce(float), vol.Range(min=-1, max=1))
_MEMORY_ID = vol.All(_not_huge, vol.Coerce(int), vol.Range(min=1, max=MAX_MEMORY_ID))


def _refused(reason: str, key: str = "invalid_memory") -> ActionInputError:
    """A value a schema refuses, translated with its reason."""
    return ActionInputError(
        translation_domain=DOMAIN, translation_key=key, translation_placeholders={"error": reason}
    )


def _text(name: str, limit: int) -> Callable[[Any], str]:
    """A text that is not blank and at most ``limit`` characters long, stripped."""

    def check(value: Any) -> str:
        text = cv.string(value).strip()
        if not text:
            raise _refused(f"{name} must not be empty")
        if len(text) > limit:
            raise _refused(f"{name} must be at most {limit} characters")
        return text

    return check


def _texts(name: str) -> Callable[[Any], list[str]]:
    """A list of at most ``MAX_ITEMS`` texts of at most ``MAX_ITEM_CHARACTERS`` each."""
    item = _text(f"each of {name}", MAX_ITEM_CHARACTERS)

    def check(value: Any) -> list[str]:
        items = [item(one) for one in cv.ensure_list(value)]
        if len(items) > MAX_ITEMS:
            raise _refused(f"{name} must have at most {MAX_ITEMS} entries")
        return items

    return check


_CONTENT = _text(ATTR_CONTENT, MAX_MEMORY_CHARACTERS)
_NAME = _text(ATTR_NAME, MAX_NAME_CHARACTERS)
_CRITERIA = _text(ATTR_SUCCESS_CRITERIA, MAX_ITEM_CHARACTERS)

# What each store a memory can be added to takes, and needs.
_ADD_FIELDS: Final[Mapping[str, frozenset[str]]] = {
    STORE_FACTUAL: frozenset({ATTR_CONTENT, ATTR_KIND}),
    STORE_PROCEDURAL: frozenset(
        {ATTR_NAME, ATTR_STEPS, ATTR_PREREQUISITES, ATTR_DIFFICULTY, ATTR_SUCCESS_CRITERIA}
    ),
    STORE_AFFECTIVE: frozenset({ATTR_CONTENT, ATTR_SENTIMENT, ATTR_EMOTIONS, ATTR_TRIGGERS}),
}
_ADD_NEEDS: Final[Mapping[str, tuple[str, ...]]] = {
    STORE_FACTUAL: (ATTR_CONTENT,),
    STORE_PROCEDURAL: (ATTR_NAME, ATTR_STEPS),
    STORE_AFFECTIVE: (ATTR_CONTENT, ATTR_SENTIMENT),
}
# Which memory and whose: never a field of the memory itself.
_IDENTITY: Final = frozenset({ATTR_CLIENT_ID, ATTR_STORE, ATTR_MEMORY_ID})


def _fits_the_store(
    fields: Mapping[str, frozenset[str]], needs: Mapping[str, tuple[str, ...]], key: str
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Refuse fields the memory's store does not have, and require the ones it needs."""

    def check(data: dict[str, Any]) -> dict[str, Any]:
        store = data[ATTR_STORE]
        if extra := sorted(set(data) - _IDENTITY - {ATTR_IMPORTANCE} - fields[store]):
            raise _refused(f"{store} memories have no {', '.join(extra)}", key)
        if missing := [field for field in needs.get(store, ()) if field not in data]:
            raise _refused(f"{store} memories need {', '.join(missing)}", key)
        return data

    return check


# Each field of a memory an action may give, with its check; a store takes some of them.
_MEMORY_FIELDS: Final[Mapping[str, Callable[[Any], Any]]] = {
    ATTR_CONTENT: _CONTENT,
    ATTR_KIND: vol.In(MEMORY_KINDS),
    ATTR_NAME: _NAME,
    ATTR_STEPS: _texts(ATTR_STEPS),
    ATTR_PREREQUISITES: _texts(ATTR_PREREQUISITES),
    ATTR_DIFFICULTY: vol.In(DIFFICULTIES),
    ATTR_SUCCESS_CRITERIA: _CRITERIA,
    ATTR_SENTIMENT: _SENTIMENT,
    ATTR_EMOTIONS: _texts(ATTR_EMOTIONS),
    ATTR_TRIGGERS: _texts(ATTR_TRIGGERS),
    ATTR_TOPICS: _texts(ATTR_TOPICS),
    ATTR_EMOTIONAL_TONE: vol.In(TONES),
}
_ADDABLE: Final = frozenset().union(*_ADD_FIELDS.values())
ADD_MEMORY_FIELDS: Final[VolDictType] = {
    vol.Required(ATTR_CLIENT_ID): valid_client_id,
    vol.Optional(ATTR_STORE, default=STORE_FACTUAL): vol.In(ADDABLE_STORES),
    vol.Optional(ATTR_IMPORTANCE, default=0.5): _IMPORTANCE,
    **{vol.Optional(name): check for name, check in _MEMORY_FIELDS.items() if name in _ADDABLE},
}
ADD_MEMORY_FITS: Final = _fits_the_store(_ADD_FIELDS, _ADD_NEEDS, "invalid_memory")
ADD_MEMORY_SCHEMA: Final = vol.All(vol.Schema(ADD_MEMORY_FIELDS), ADD_MEMORY_FITS)
# The filters of a listing; the action needs a client id, the websocket API lists every
# client's memories without one.
LIST_MEMORIES_FILTERS: Final[VolDictType] = {
    vol.Optional(ATTR_STORE): vol.In(MEMORY_STORES),
    vol.Optional(ATTR_KIND): vol.In(MEMORY_KINDS),
    vol.Optional(ATTR_LIMIT, default=100): vol.All(vol.Coerce(int), vol.Range(min=1, max=1000)),
    vol.Optional(ATTR_INCLUDE_SUPERSEDED, default=False): cv.boolean,
}
LIST_MEMORIES_SCHEMA: Final = vol.Schema(
    {vol.Required(ATTR_CLIENT_ID): valid_client_id, **LIST_MEMORIES_FILTERS}
)
# Every field but the id, the store and the client is a change: one the memory's store has
# (``content`` names the text each store lists as its content), at least one.
_EDITABLE: Final[Mapping[str, frozenset[str]]] = {
    store: frozenset({*fields, ATTR_CONTENT}) for store, fields in EDITABLE_FIELDS.items()
}


def _changes_something(data: dict[str, Any]) -> dict[str, Any]:
    if not set(data) - _IDENTITY:
        raise _refused(
            "nothing to change: give at least one field of the memory", "invalid_memory_update"
        )
    return data


UPDATE_MEMORY_FIELDS: Final[VolDictType] = {
    vol.Required(ATTR_MEMORY_ID): _MEMORY_ID,
    vol.Optional(ATTR_STORE, default=STORE_FACTUAL): vol.In(tuple(EDITABLE_FIELDS)),
    vol.Optional(ATTR_CLIENT_ID): valid_client_id,
    vol.Optional(ATTR_IMPORTANCE): _IMPORTANCE,
    **{vol.Optional(name): check for name, check in _MEMORY_FIELDS.items()},
}


def _update_fits(data: dict[str, Any]) -> dict[str, Any]:
    """The fields of an update are its store's, and there is at least one."""
    return _changes_something(_fits_the_store(_EDITABLE, {}, "invalid_memory_update")(data))


UPDATE_MEMORY_FITS: Final = _update_fits
UPDATE_MEMORY_SCHEMA: Final = vol.All(vol.Schema(UPDATE_MEMORY_FIELDS), UPDATE_MEMORY_FITS)
FORGET_MEMORY_SCHEMA: Final = vol.Schema(
    {
        vol.Required(ATTR_MEMORY_ID): _MEMORY_ID,
        vol.Optional(ATTR_STORE, default=STORE_FACTUAL): vol.In(MEMORY_STORES),
        vol.Optional(ATTR_CLIENT_ID): valid_client_id,
    }
)
EXPORT_MEMORIES_SCHEMA: Final = vol.Schema({vol.Required(ATTR_CLIENT_ID): valid_client_id})
MEMORY_HISTORY_SCHEMA: Final = vol.Schema(
    {
        vol.Required(ATTR_MEMORY_ID): _MEMORY_ID,
        vol.Optional(ATTR_CLIENT_ID): valid_client_id,
    }
)


def _memory(hass: HomeAssistant) -> MemoryEngine:
    """The memory engine of the loaded entry, or a translated error."""
    for entry in hass.config_entries.async_loaded_entries(DOMAIN):
        runtime: HomeBuddyRuntimeData = entry.runtime_data
        return runtime.engine.memory
    raise ActionInputError(translation_domain=DOMAIN, translation_key="memories_unavailable")


def _invalid(error: str) -> ActionInputError:
    return ActionInputError(
        translation_domain=DOMAIN,
        translation_key="invalid_memory",
        translation_placeholders={"error": error},
    )


async def async_add_memory(hass: HomeAssistant, data: Mapping[str, Any]) -> dict[str, Any]:
    """Remember a fact, a procedure or a feeling; return what was stored."""
    memory = _memory(hass)
    client_id, store = data[ATTR_CLIENT_ID], data[ATTR_STORE]
    importance = data[ATTR_IMPORTANCE]
    stored: dict[str, Any]
    try:
        if store == STORE_PROCEDURAL:
            procedure = await memory.remember_procedure(
                client_id,
                data.get(ATTR_NAME, ""),
                data.get(ATTR_STEPS, []),
                prerequisites=data.get(ATTR_PREREQUISITES, []),
                difficulty=data.get(ATTR_DIFFICULTY),
                success_criteria=data.get(ATTR_SUCCESS_CRITERIA),
                importance=importance,
                source=SOURCE,
            )
            stored = procedure.as_dict()
        elif store == STORE_AFFECTIVE:
            feeling = await memory.remember_feeling(
                client_id,
                data[ATTR_SENTIMENT],
                data.get(ATTR_CONTENT, ""),
                emotions=data.get(ATTR_EMOTIONS, []),
                triggers=data.get(ATTR_TRIGGERS, []),
                importance=importance,
                source=SOURCE,
            )
            stored = feeling.as_dict()
        else:
            fact = await memory.remember(
                client_id,
                data.get(ATTR_KIND, "fact"),
                data.get(ATTR_CONTENT, ""),
                importance=importance,
                source=SOURCE,
            )
            stored = {"store": STORE_FACTUAL, **fact.as_dict()}
    except MemoryError as err:
        raise _invalid(str(err)) from err
    return {"memory": stored}


async def async_list_memories(hass: HomeAssistant, data: Mapping[str, Any]) -> dict[str, Any]:
    """A client's (or every client's) memories of every store (or one), newest first."""
    client_id = data.get(ATTR_CLIENT_ID)
    try:
        memories = await _memory(hass).overview(
            client_id,
            data.get(ATTR_STORE),
            data[ATTR_LIMIT],
            kind=data.get(ATTR_KIND),
            include_superseded=data.get(ATTR_INCLUDE_SUPERSEDED, False),
        )
    except MemoryError as err:
        raise ActionInputError(
            translation_domain=DOMAIN,
            translation_key="invalid_memory_filter",
            translation_placeholders={"error": str(err)},
        ) from err
    return {"client_id": client_id, "memories": memories}


async def async_update_memory(hass: HomeAssistant, data: Mapping[str, Any]) -> dict[str, Any]:
    """Correct one long-term memory; return it as it is now stored."""
    memory = _memory(hass)
    store, memory_id = data[ATTR_STORE], data[ATTR_MEMORY_ID]
    changes = {
        field: value
        for field, value in data.items()
        if field not in (ATTR_MEMORY_ID, ATTR_STORE, ATTR_CLIENT_ID)
    }
    try:
        revised = await memory.revise(memory_id, changes, data.get(ATTR_CLIENT_ID), store=store)
    except MemoryNotFoundError as err:
        raise _not_found(store, memory_id) from err
    except MemoryError as err:
        raise ActionInputError(
            translation_domain=DOMAIN,
            translation_key="invalid_memory_update",
            translation_placeholders={"error": str(err)},
        ) from err
    return {"memory": memory_dict(revised)}


def _not_found(store: str, memory_id: int) -> ActionInputError:
    return ActionInputError(
        translation_domain=DOMAIN,
        translation_key="memory_not_found",
        translation_placeholders={"store": store, "memory_id": str(memory_id)},
    )


async def async_forget_memory(hass: HomeAssistant, data: Mapping[str, Any]) -> None:
    """Delete one memory of any store."""
    store, memory_id = data[ATTR_STORE], data[ATTR_MEMORY_ID]
    if not await _memory(hass).forget(memory_id, data.get(ATTR_CLIENT_ID), store=store):
        raise _not_found(store, memory_id)


async def async_memory_history(hass: HomeAssistant, data: Mapping[str, Any]) -> dict[str, Any]:
    """A factual memory as it is now and what changed it: learned, updated, superseded,
    edited, forgotten."""
    memory_id = data[ATTR_MEMORY_ID]
    try:
        return await _memory(hass).history(memory_id, data.get(ATTR_CLIENT_ID))
    except MemoryNotFoundError as err:
        raise _not_found(STORE_FACTUAL, memory_id) from err


async def async_export_memories(hass: HomeAssistant, data: Mapping[str, Any]) -> dict[str, Any]:
    """Everything remembered about a client, store by store."""
    return await _memory(hass).export(data[ATTR_CLIENT_ID])


def _action(
    operation: Callable[[HomeAssistant, Mapping[str, Any]], Awaitable[dict[str, Any] | None]],
) -> Callable[[ServiceCall], Coroutine[Any, Any, ServiceResponse]]:
    """The action handler of a memory operation (the websocket API calls the same ones)."""

    async def handle(call: ServiceCall) -> ServiceResponse:
        return await operation(call.hass, call.data)

    return handle


@callback
def async_setup_memory_services(hass: HomeAssistant) -> None:
    """Register the memory actions (once per Home Assistant instance)."""
    for name, schema, operation, response in (
        (SERVICE_ADD_MEMORY, ADD_MEMORY_SCHEMA, async_add_memory, SupportsResponse.OPTIONAL),
        (SERVICE_LIST_MEMORIES, LIST_MEMORIES_SCHEMA, async_list_memories, SupportsResponse.ONLY),
        (
            SERVICE_UPDATE_MEMORY,
            UPDATE_MEMORY_SCHEMA,
            async_update_memory,
            SupportsResponse.OPTIONAL,
        ),
        (SERVICE_FORGET_MEMORY, FORGET_MEMORY_SCHEMA, async_forget_memory, SupportsResponse.NONE),
        (
            SERVICE_EXPORT_MEMORIES,
            EXPORT_MEMORIES_SCHEMA,
            async_export_memories,
            SupportsResponse.ONLY,
        ),
        (
            SERVICE_MEMORY_HISTORY,
            MEMORY_HISTORY_SCHEMA,
            async_memory_history,
            SupportsResponse.ONLY,
        ),
    ):
        hass.services.async_register(
            DOMAIN, name, _action(operation), schema=schema, supports_response=response
        )
