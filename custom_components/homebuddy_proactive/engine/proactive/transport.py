"""The WebSocket receive loop shared by both hosts (aiohttp, no Home Assistant).

Each host authenticates the upgrade and validates the query itself, then hands the prepared
socket here with a function that re-checks the token before every incoming message.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Final

from aiohttp import WSMsgType, hdrs, web

from ..const import CLOSE_GOING_AWAY, CLOSE_POLICY_VIOLATION
from .engine import ProactiveEngine

LOGGER = logging.getLogger(__name__)

# Frames up to this size reach the protocol layer (which answers oversize ones with an error
# frame and keeps the socket); only larger ones make aiohttp close the socket (1009).
SOCKET_MAX_MESSAGE_BYTES: Final = 1024 * 1024
HEARTBEAT_SECONDS: Final = 30.0
# Query keys that look like a credential: both hosts refuse such an upgrade, even next to a
# valid header, so a token never travels (and is never logged) as part of a URL.
_URL_CREDENTIAL_MARKERS: Final = ("token", "auth", "bearer", "password", "key")


def bearer_token(request: web.BaseRequest) -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    scheme, _, token = request.headers.get(hdrs.AUTHORIZATION, "").partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


def credential_in_url(request: web.BaseRequest) -> bool:
    """Whether the query string seems to carry a credential (never accepted)."""
    return any(marker in key.lower() for key in request.query for marker in _URL_CREDENTIAL_MARKERS)


def new_socket() -> web.WebSocketResponse:
    """A WebSocket response configured for the transcript protocol."""
    return web.WebSocketResponse(max_msg_size=SOCKET_MAX_MESSAGE_BYTES, heartbeat=HEARTBEAT_SECONDS)


async def run_socket(
    ws: web.WebSocketResponse,
    engine: ProactiveEngine,
    client_id: str,
    session_id: str,
    authorize: Callable[[], Awaitable[bool]],
) -> None:
    """Serve one prepared socket until it closes; closes with 1008 when auth lapses."""
    shutdown_done = asyncio.Event()
    shutting_down = False

    async def close_for_shutdown() -> None:
        nonlocal shutting_down
        shutting_down = True
        try:
            await ws.close(code=CLOSE_GOING_AWAY, message=b"server is shutting down")
        finally:
            _stop_heartbeat(ws)
            shutdown_done.set()

    connection = await engine.connect(
        client_id, session_id, ws.send_json, close_socket=close_for_shutdown
    )
    try:
        async for message in ws:
            if message.type in (WSMsgType.TEXT, WSMsgType.BINARY) and not await authorize():
                await ws.close(code=CLOSE_POLICY_VIOLATION, message=b"token expired or revoked")
                _stop_heartbeat(ws)
                break
            if message.type == WSMsgType.TEXT:
                await connection.handle_text(message.data)
            elif message.type == WSMsgType.BINARY:
                await connection.handle_binary()
            elif message.type == WSMsgType.ERROR:
                LOGGER.debug("Socket error: %s", type(ws.exception()).__name__)
                break
    finally:
        _stop_heartbeat(ws)
        await connection.close()
        if shutting_down:
            # Returning before the close handshake ends would drop the connection (1006).
            await shutdown_done.wait()


def _stop_heartbeat(ws: web.WebSocketResponse) -> None:
    """Stop aiohttp's heartbeat timer once the socket is closed.

    aiohttp 3.14 re-arms that timer when the peer's close reply arrives after a server-side
    close, leaving a timer behind the closed socket; cancelling it again is harmless.
    """
    cancel = getattr(ws, "_cancel_heartbeat", None)
    if ws.closed and callable(cancel):
        cancel()
