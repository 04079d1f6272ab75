"""The WebSocket receive loop shared by both hosts (aiohttp, no Home Assistant).

Each host authenticates the upgrade and validates the query itself, then hands the prepared
socket here with a function that re-checks the token before every incoming message.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import orjson
from aiohttp import WSMsgType, hdrs, web

from ..const import CLOSE_GOING_AWAY, CLOSE_POLICY_VIOLATION
from .connection import Connection
from .engine import ProactiveEngine
from .protocol import error_frame

LOGGER = logging.getLogger(__name__)

# Frames up to this size reach the protocol layer (which answers oversize ones with an error
# frame and keeps the socket); only larger ones make aiohttp close the socket (1009).
SOCKET_MAX_MESSAGE_BYTES: Final = 1024 * 1024
HEARTBEAT_SECONDS: Final = 30.0
# Query keys that look like a credential: both hosts refuse such an upgrade, even next to a
# valid header, so a token never travels (and is never logged) as part of a URL.
_URL_CREDENTIAL_MARKERS: Final = ("token", "auth", "bearer", "password", "key")
# The error code of a frame refused for exceeding the socket's frame rate (retryable).
ERROR_RATE_LIMITED: Final = "rate_limited"
# A frame whose handling takes longer than this (a write waiting on a stalled disk) no longer
# holds up the socket's pings: they are answered while it waits. Below it, frames and pongs
# keep their order (a pong follows the acks of the frames sent before the ping).
STALL_SECONDS: Final = 1.0
_PING_MAX_BYTES: Final = 512


@dataclass(frozen=True, kw_only=True)
class SocketLimits:
    """How many sockets a host accepts and how fast one socket may send (README "Limits").

    A socket may send ``frames_per_second`` frames on average, in bursts of ``burst``; each
    frame beyond that is answered with a retryable ``rate_limited`` error and not processed.
    More than ``abuse_frames`` refused frames within ``abuse_window_seconds`` close the socket
    with 1008. ``total`` None leaves the total to the host (Home Assistant's own HTTP server).
    """

    per_address: int = 32
    total: int | None = 256
    frames_per_second: float = 50.0
    burst: int = 200
    abuse_frames: int = 250
    abuse_window_seconds: float = 10.0

    @classmethod
    def for_rate(
        cls, frames_per_second: float, *, per_address: int, total: int | None
    ) -> SocketLimits:
        """Limits whose burst (4 s) and abuse threshold (5 s of excess) follow the rate."""
        return cls(
            per_address=per_address,
            total=total,
            frames_per_second=frames_per_second,
            burst=max(1, round(4 * frames_per_second)),
            abuse_frames=max(10, round(5 * frames_per_second)),
        )


DEFAULT_SOCKET_LIMITS: Final = SocketLimits()


class SocketGate:
    """Counts a host's open sockets, per client address and in total."""

    def __init__(self, limits: SocketLimits) -> None:
        """Start with no socket open."""
        self.limits = limits
        self._by_address: Counter[str] = Counter()
        self.total = 0

    def admit(self, address: str | None) -> str | None:
        """Count one more socket and return None, or return why it is refused (not counted)."""
        key = address or "unknown"
        if self._by_address[key] >= self.limits.per_address:
            return f"at most {self.limits.per_address} sockets per client address"
        if self.limits.total is not None and self.total >= self.limits.total:
            return f"at most {self.limits.total} sockets in total"
        self._by_address[key] += 1
        self.total += 1
        return None

    def release(self, address: str | None) -> None:
        """Forget one socket admitted for ``address``."""
        key = address or "unknown"
        self._by_address[key] -= 1
        if self._by_address[key] <= 0:
            del self._by_address[key]
        self.total -= 1

    def open_for(self, address: str | None) -> int:
        """How many sockets ``address`` has open."""
        return self._by_address.get(address or "unknown", 0)


class FrameRate:
    """A token bucket over one socket's incoming frames, plus the refusals that mean abuse."""

    def __init__(self, limits: SocketLimits, clock: Callable[[], float] = time.monotonic) -> None:
        """A full bucket."""
        self.limits = limits
        self._clock = clock
        self._tokens = float(limits.burst)
        self._at = clock()
        self._refused: deque[float] = deque()

    def allow(self) -> bool:
        """Whether the next frame may be processed (a refusal is remembered)."""
        now = self._clock()
        self._tokens = min(
            float(self.limits.burst),
            self._tokens + (now - self._at) * self.limits.frames_per_second,
        )
        self._at = now
        if self._tokens >= 1:
            self._tokens -= 1
            return True
        self._refused.append(now)
        while self._refused and self._refused[0] < now - self.limits.abuse_window_seconds:
            self._refused.popleft()
        return False

    @property
    def abusive(self) -> bool:
        """Whether too many frames were refused lately (the socket is to be closed)."""
        return len(self._refused) > self.limits.abuse_frames


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
    *,
    limits: SocketLimits = DEFAULT_SOCKET_LIMITS,
) -> None:
    """Serve one prepared socket until it closes; closes with 1008 when auth lapses.

    Frames beyond ``limits``' rate get a ``rate_limited`` error and are not processed; a
    socket that keeps sending too fast is closed with 1008.
    """
    rate = FrameRate(limits)
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

    async def send(frame: dict[str, Any]) -> None:
        # orjson: an ack is encoded in a fraction of json.dumps's time (one per final).
        await ws.send_str(orjson.dumps(frame).decode())

    connection = await engine.connect(client_id, session_id, send, close_socket=close_for_shutdown)
    turns = _FrameTurns(connection)
    try:
        async for message in ws:
            if message.type in (WSMsgType.TEXT, WSMsgType.BINARY) and not rate.allow():
                if rate.abusive:
                    await ws.close(code=CLOSE_POLICY_VIOLATION, message=b"too many frames")
                    _stop_heartbeat(ws)
                    break
                await connection.send(
                    error_frame(
                        ERROR_RATE_LIMITED,
                        f"more than {limits.frames_per_second:g} frames per second: this frame "
                        "was not processed; send it again shortly",
                        event_id=_event_id(message.data)
                        if message.type == WSMsgType.TEXT
                        else None,
                        retryable=True,
                    )
                )
                continue
            if message.type in (WSMsgType.TEXT, WSMsgType.BINARY) and not await authorize():
                await ws.close(code=CLOSE_POLICY_VIOLATION, message=b"token expired or revoked")
                _stop_heartbeat(ws)
                break
            if message.type == WSMsgType.TEXT:
                await turns.handle(message.data)
            elif message.type == WSMsgType.BINARY:
                await turns.settle()
                await connection.handle_binary()
            elif message.type == WSMsgType.ERROR:
                LOGGER.debug("Socket error: %s", type(ws.exception()).__name__)
                break
    finally:
        await turns.settle()
        _stop_heartbeat(ws)
        await connection.close()
        if shutting_down:
            # Returning before the close handshake ends would drop the connection (1006).
            await shutdown_done.wait()


class _FrameTurns:
    """A socket's frames, handled one after the other, in the order received.

    While one frame's handling is stalled for :data:`STALL_SECONDS` (its database write waits
    on a frozen disk, say), the socket keeps reading: pings are answered at once, and the next
    other frame waits for the stalled one, so acknowledgements never change order.
    """

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._stalled: asyncio.Task[None] | None = None

    async def handle(self, raw: str) -> None:
        """Handle one text frame in its turn."""
        if self._stalled is not None:
            if not self._stalled.done() and _is_ping(raw):
                await self._connection.handle_text(raw)
                return
            await self.settle()
        # Started at once, in this turn of the loop: a frame handled without waiting (a ping, a
        # refused frame) needs no timer, and a final reaches its database write sooner.
        task = asyncio.Task(
            self._connection.handle_text(raw), loop=asyncio.get_running_loop(), eager_start=True
        )
        if task.done():
            task.result()
            return
        try:
            done, _pending = await asyncio.wait({task}, timeout=STALL_SECONDS)
        except asyncio.CancelledError:
            task.cancel()
            raise
        if done:
            task.result()  # an error in the frame's handling ends the socket, as before
        else:
            self._stalled = task

    async def settle(self) -> None:
        """Wait for a stalled frame to be handled."""
        stalled, self._stalled = self._stalled, None
        if stalled is not None:
            await stalled


def _is_ping(raw: str) -> bool:
    """Whether a text frame is a small ``ping``."""
    if len(raw) > _PING_MAX_BYTES or '"ping"' not in raw:
        return False
    try:
        data = json.loads(raw)
    except ValueError:
        return False
    return isinstance(data, dict) and data.get("type") == "ping"


def _event_id(raw: str) -> str | None:
    """The ``event_id`` of a small refused frame, so the client knows what to resend."""
    if len(raw) > 4096:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    event_id = data.get("event_id") if isinstance(data, dict) else None
    if isinstance(event_id, str) and len(event_id) <= 128 and event_id.isprintable():
        return event_id
    return None


def _stop_heartbeat(ws: web.WebSocketResponse) -> None:
    """Stop aiohttp's heartbeat timer once the socket is closed.

    aiohttp 3.14 re-arms that timer when the peer's close reply arrives after a server-side
    close, leaving a timer behind the closed socket; cancelling it again is harmless.
    """
    cancel = getattr(ws, "_cancel_heartbeat", None)
    if ws.closed and callable(cancel):
        cancel()
