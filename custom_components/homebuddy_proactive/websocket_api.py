"""Websocket API of the memories, for the UI: list, add, update, forget, export and history; and
``homebuddy_proactive/session_summary`` (a session's summary, moments and missed cards).

Registered once per Home Assistant instance from ``async_setup``. Each command runs the same
operation as the memory action of the same name (``services.py``) and answers its result.
Memories are personal data: every command needs an administrator. Errors: ``not_loaded`` when
the entry is not set up, ``not_found`` for an unknown memory, ``invalid_format`` for input the
schema or the memory engine refuses.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

from homeassistant.components.websocket_api import async_register_command
from homeassistant.components.websocket_api.connection import ActiveConnection
from homeassistant.components.websocket_api.const import (
    ERR_INVALID_FORMAT,
    ERR_NOT_FOUND,
    WebSocketCommandHandler,
)
from homeassistant.components.websocket_api.decorators import (
    async_response,
    require_admin,
    websocket_command,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError
from homeassistant.helpers import config_validation as cv

from .const import DOMAIN
from .engine.proactive.protocol import validate_identifier
from .schema_library import vol
from .services import (
    ADD_MEMORY_SCHEMA,
    ATTR_CLIENT_ID,
    EXPORT_MEMORIES_SCHEMA,
    FORGET_MEMORY_SCHEMA,
    LIST_MEMORIES_FILTERS,
    MEMORY_HISTORY_SCHEMA,
    UPDATE_MEMORY_SCHEMA,
    async_add_memory,
    async_export_memories,
    async_forget_memory,
    async_list_memories,
    async_memory_history,
    async_update_memory,
    valid_client_id,
)

ERR_NOT_LOADED: Final = "not_loaded"
# The websocket error code of each translated error of the memory operations.
ERROR_CODES: Final = {
    "memories_unavailable": ERR_NOT_LOADED,
    "memory_not_found": ERR_NOT_FOUND,
}

type MemoryOperation = Callable[[HomeAssistant, Mapping[str, Any]], Awaitable[Any]]


async def _answer(
    hass: HomeAssistant,
    connection: ActiveConnection,
    msg: dict[str, Any],
    operation: MemoryOperation,
    fits: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> None:
    """Run a memory operation on the command's fields; send its result or its error."""
    data = {key: value for key, value in msg.items() if key not in ("id", "type")}
    try:
        if fits is not None:
            data = fits(data)
        result = await operation(hass, data)
    except (ServiceValidationError, vol.Invalid) as err:
        # A field's refusal comes wrapped by the schema library: the translated one inside.
        refused = (
            err if isinstance(err, ServiceValidationError) else getattr(err, "errors", [err])[0]
        )
        if not isinstance(refused, ServiceValidationError):
            connection.send_error(msg["id"], ERR_INVALID_FORMAT, str(err))
            return
        connection.send_error(
            msg["id"],
            ERROR_CODES.get(refused.translation_key or "", ERR_INVALID_FORMAT),
            str(refused),
            translation_key=refused.translation_key,
            translation_domain=refused.translation_domain,
            translation_placeholders=refused.translation_placeholders,
        )
        return
    connection.send_result(msg["id"], result)


def _command(
    name: str,
    schema: Mapping[Any, Any],
    operation: MemoryOperation,
    fits: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
) -> WebSocketCommandHandler:
    """The admin-only command ``homebuddy_proactive/memories/<name>`` running ``operation``;
    ``fits`` (the action's schema) checks the fields in the handler, where a refusal keeps
    its translation."""

    @require_admin
    @websocket_command({vol.Required("type"): f"{DOMAIN}/memories/{name}", **schema})
    @async_response
    async def handle(
        hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
    ) -> None:
        await _answer(hass, connection, msg, operation, fits)

    return handle


COMMANDS: Final = (
    # client_id is optional here: without it, every client's memories (the UI's overview).
    _command(
        "list",
        {vol.Optional(ATTR_CLIENT_ID): valid_client_id, **LIST_MEMORIES_FILTERS},
        async_list_memories,
    ),
    # The action's whole schema checks these in _answer, so a refusal keeps its translation.
    _command("add", {vol.Extra: object}, async_add_memory, ADD_MEMORY_SCHEMA),
    _command("update", {vol.Extra: object}, async_update_memory, UPDATE_MEMORY_SCHEMA),
    _command("forget", FORGET_MEMORY_SCHEMA.schema, async_forget_memory),
    _command("export", EXPORT_MEMORIES_SCHEMA.schema, async_export_memories),
    _command("history", MEMORY_HISTORY_SCHEMA.schema, async_memory_history),
)


def _session_id(value: Any) -> str:
    """A session id as the WebSocket accepts it."""
    try:
        return validate_identifier("session_id", cv.string(value))
    except ValueError as err:
        raise vol.Invalid(str(err)) from err


@require_admin
@websocket_command(
    {vol.Required("type"): f"{DOMAIN}/session_summary", vol.Required("session_id"): _session_id}
)
@async_response
async def handle_session_summary(
    hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
) -> None:
    """A session's summary, significant moments and missed cards; ``not_found`` when none."""
    entries = hass.config_entries.async_loaded_entries(DOMAIN)
    if not entries:
        connection.send_error(msg["id"], ERR_NOT_LOADED, "HomeBuddy Proactive is not loaded")
        return
    summary = await entries[0].runtime_data.engine.session_summary(msg["session_id"])
    if summary is None:
        connection.send_error(msg["id"], ERR_NOT_FOUND, "no summary for this session yet")
        return
    connection.send_result(msg["id"], summary)


@callback
def async_setup_memory_websocket_api(hass: HomeAssistant) -> None:
    """Register the memory commands and the session summary (once per Home Assistant)."""
    for command in (*COMMANDS, handle_session_summary):
        async_register_command(hass, command)
