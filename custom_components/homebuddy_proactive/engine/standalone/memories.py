"""The memory routes: add, list, correct and forget what the assistant remembers of a client,
and a fact's history.

Each handler runs after the server has checked the bearer token and works on the running
engine's :class:`MemoryEngine`; a bad request is a 400, an unknown memory a 404.
"""

from __future__ import annotations

from http import HTTPStatus
from typing import Final

from aiohttp import web

from ..memory import STORE_FACTUAL, MemoryEngine, MemoryNotFoundError, memory_dict
from ..memory import MemoryError as MemoryRequestError
from .errors import RequestError, identifier, json_object

MAX_MEMORY_ID: Final = 2**63 - 1  # SQLite's largest integer


async def add_memory(request: web.Request, memory: MemoryEngine) -> web.Response:
    """``POST /v1/memories``: remember something for a client (or ``global``)."""
    data = await json_object(request)
    client_id = identifier("client_id", data.get("client_id"))
    kind, content = data.get("kind"), data.get("content")
    if not isinstance(kind, str) or not isinstance(content, str):
        raise RequestError(HTTPStatus.BAD_REQUEST, "kind and content are required strings")
    importance = data.get("importance", 0.5)
    if (
        isinstance(importance, bool)
        or not isinstance(importance, int | float)
        or not 0 <= importance <= 1  # compared before float(): a huge int does not overflow
    ):
        raise RequestError(HTTPStatus.BAD_REQUEST, "importance must be a number from 0 to 1")
    try:
        remembered = await memory.remember(
            client_id, kind, content, importance=float(importance), source="api"
        )
    except MemoryRequestError as err:
        raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
    return web.json_response(remembered.as_dict(), status=HTTPStatus.CREATED)


async def list_memories(request: web.Request, memory: MemoryEngine) -> web.Response:
    """``GET /v1/memories?client_id=…[&store=…&include_superseded=true]``: a client's memories
    of every store (facts a newer one superseded only with ``include_superseded``)."""
    client_id = identifier("client_id", request.query.get("client_id"))
    superseded = request.query.get("include_superseded", "false")
    if superseded not in ("true", "false"):
        raise RequestError(HTTPStatus.BAD_REQUEST, "include_superseded must be true or false")
    try:
        memories = await memory.overview(
            client_id, request.query.get("store"), include_superseded=superseded == "true"
        )
    except MemoryRequestError as err:
        raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
    return web.json_response({"client_id": client_id, "memories": memories})


async def update_memory(request: web.Request, memory: MemoryEngine) -> web.Response:
    """``PATCH /v1/memories/{memory_id}[?store=…&client_id=…]``: correct a memory.

    The body holds the fields to change (those of the store's ``EDITABLE_FIELDS``).
    """
    memory_id, client_id = memory_target(request)
    changes = await json_object(request)
    store = request.query.get("store", STORE_FACTUAL)
    try:
        revised = await memory.revise(memory_id, changes, client_id, store=store)
    except MemoryNotFoundError as err:
        raise RequestError(HTTPStatus.NOT_FOUND, f"memory {memory_id} does not exist") from err
    except MemoryRequestError as err:
        raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
    return web.json_response(memory_dict(revised))


async def delete_memory(request: web.Request, memory: MemoryEngine) -> web.Response:
    """``DELETE /v1/memories/{memory_id}[?store=…]`` (optionally only a given client's)."""
    memory_id, client_id = memory_target(request)
    try:
        store = request.query.get("store", STORE_FACTUAL)
        found = await memory.forget(memory_id, client_id, store=store)
    except MemoryRequestError as err:
        raise RequestError(HTTPStatus.BAD_REQUEST, str(err)) from err
    if not found:
        raise RequestError(HTTPStatus.NOT_FOUND, f"memory {memory_id} does not exist")
    return web.json_response({"deleted": True, "id": memory_id})


async def memory_history(request: web.Request, memory: MemoryEngine) -> web.Response:
    """``GET /v1/memories/{memory_id}/history[?client_id=…]``: a fact now and what changed it."""
    memory_id, client_id = memory_target(request)
    try:
        history = await memory.history(memory_id, client_id)
    except MemoryNotFoundError as err:
        raise RequestError(HTTPStatus.NOT_FOUND, f"memory {memory_id} does not exist") from err
    return web.json_response(history)


def memory_target(request: web.Request) -> tuple[int, str | None]:
    """The memory id of the path and the optional ``client_id`` query parameter."""
    raw = request.match_info["memory_id"]
    if (
        not raw.isascii()
        or not raw.isdigit()
        or len(raw) > len(str(MAX_MEMORY_ID))  # before int(): thousands of digits
        or not 1 <= int(raw) <= MAX_MEMORY_ID
    ):
        raise RequestError(
            HTTPStatus.BAD_REQUEST, f"memory id must be an integer from 1 to {MAX_MEMORY_ID}"
        )
    client_id: str | None = None
    if "client_id" in request.query:
        client_id = identifier("client_id", request.query["client_id"])
    return int(raw), client_id
