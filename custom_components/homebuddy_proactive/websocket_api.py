"""Websocket API of the memories, for the UI: list, add, update, forget and export.

Registered once per Home Assistant instance from ``async_setup``. Each command runs the same
operation as the memory action of the same name (``services.py``) and answers its result.
Memories are personal data: every command needs an administrator. Errors: ``not_loaded`` when
the entry is not set up, ``not_found`` for an unknown memory, ``invalid_format`` for input the
schema or the memory engine refuses.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any, Final

import voluptuous as vol
from homeassistant.components.websocket_api import async_register_command
from homeassistant.components.websocket_api.connection import ActiveConnection
from homeassistant.components.websocket_api.const import ERR_INVALID_FORMAT, ERR_NOT_FOUND
from homeassistant.components.websocket_api.decorators import (
    async_response,
    require_admin,
    websocket_command,
)
from homeassistant.core import HomeAssistant, callback
from homeassistant.exceptions import ServiceValidationError

from .const import DOMAIN
from .services import (
    ADD_MEMORY_SCHEMA,
    ATTR_CLIENT_ID,
    EXPORT_MEMORIES_SCHEMA,
    FORGET_MEMORY_SCHEMA,
    LIST_MEMORIES_FILTERS,
    UPDATE_MEMORY_SCHEMA,
    async_add_memory,
    async_export_memories,
    async_forget_memory,
    async_list_memories,
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
) -> None:
    """Run a memory operation on the command's fields; send its result or its error."""
    data = {key: value for key, value in msg.items() if key not in ("id", "type")}
    try:
        result = await operation(hass, data)
    except ServiceValidationError as err:
        connection.send_error(
            msg["id"],
            ERROR_CODES.get(err.translation_key or "", ERR_INVALID_FORMAT),
            str(err),
            translation_key=err.translation_key,
            translation_domain=err.translation_domain,
            translation_placeholders=err.translation_placeholders,
        )
        return
    connection.send_result(msg["id"], result)


@require_admin
@websocket_command(
    {
        vol.Required("type"): f"{DOMAIN}/memories/list",
        vol.Optional(ATTR_CLIENT_ID): valid_client_id,
        **LIST_MEMORIES_FILTERS,
    }
)
@async_response
async def ws_list_memories(
    hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
) -> None:
    """Memories of one client (or of every client), newest first."""
    await _answer(hass, connection, msg, async_list_memories)


@require_admin
@websocket_command({vol.Required("type"): f"{DOMAIN}/memories/add", **ADD_MEMORY_SCHEMA.schema})
@async_response
async def ws_add_memory(
    hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
) -> None:
    """Remember a fact, a procedure or a feeling."""
    await _answer(hass, connection, msg, async_add_memory)


@require_admin
@websocket_command(
    {vol.Required("type"): f"{DOMAIN}/memories/update", **UPDATE_MEMORY_SCHEMA.schema}
)
@async_response
async def ws_update_memory(
    hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
) -> None:
    """Correct one memory."""
    await _answer(hass, connection, msg, async_update_memory)


@require_admin
@websocket_command(
    {vol.Required("type"): f"{DOMAIN}/memories/forget", **FORGET_MEMORY_SCHEMA.schema}
)
@async_response
async def ws_forget_memory(
    hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
) -> None:
    """Delete one memory."""
    await _answer(hass, connection, msg, async_forget_memory)


@require_admin
@websocket_command(
    {vol.Required("type"): f"{DOMAIN}/memories/export", **EXPORT_MEMORIES_SCHEMA.schema}
)
@async_response
async def ws_export_memories(
    hass: HomeAssistant, connection: ActiveConnection, msg: dict[str, Any]
) -> None:
    """Everything remembered about a client, store by store."""
    await _answer(hass, connection, msg, async_export_memories)


@callback
def async_setup_memory_websocket_api(hass: HomeAssistant) -> None:
    """Register the memory commands (once per Home Assistant instance)."""
    for command in (
        ws_list_memories,
        ws_add_memory,
        ws_update_memory,
        ws_forget_memory,
        ws_export_memories,
    ):
        async_register_command(hass, command)
