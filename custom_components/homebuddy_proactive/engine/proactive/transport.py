"""The WebSocket receive loop shared by both hosts (aiohttp, no Home Assistant).

Each host authenticates the upgrade and validates the query itself, then hands the prepared
socket here with a function that re-checks the token before every incoming message (in
memory, without waiting: a revoked or expired token closes the socket at its next message).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import Counter, deque
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Final

import orjson
from aiohttp import WSMessage, WSMsgType, hdrs, web

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
    """How many sockets a host accepts and how fast one socket may send (docs/standalone.md).

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
    """A WebSocket response configured for the transcript protocol.

    Without per-message compression (``permessage-deflate`` is declined at the upgrade, which
    RFC 7692 lets a server do): the protocol's frames are small JSON (an ack is about 130
    bytes), so deflating and inflating each one costs CPU on both ends and saves next to no
    bytes.
    """
    return web.WebSocketResponse(
        max_msg_size=SOCKET_MAX_MESSAGE_BYTES, heartbeat=HEARTBEAT_SECONDS, compress=False
    )


async def run_socket(
    ws: web.WebSocketResponse,
    engine: ProactiveEngine,
    client_id: str,
    session_id: str,
    authorize: Callable[[], bool],
    *,
    limits: SocketLimits = DEFAULT_SOCKET_LIMITS,
) -> None:
    """Serve one prepared socket until it closes; closes with 1008 when auth lapses.

    Frames beyond ``limits``' rate get a ``rate_limited`` error and are not processed; a
    socket that keeps sending too fast is closed with 1008.
    """
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

    def send(frame: dict[str, Any]) -> Coroutine[Any, Any, None]:
        # orjson's bytes go out as the text frame itself: no str round trip (one per final),
        # and aiohttp's own coroutine is the one awaited.
        return ws.send_frame(orjson.dumps(frame), WSMsgType.TEXT)

    connection = await engine.connect(client_id, session_id, send, close_socket=close_for_shutdown)
    try:
        await _FrameTurns(ws, connection, authorize, limits).run()
    finally:
        _stop_heartbeat(ws)
        await connection.close()
        if shutting_down:
            # Returning before the close handshake ends would drop the connection (1006).
            await shutdown_done.wait()


# How the gate answers a frame: handle it, refuse it for its rate, or close the socket (1008).
_ADMIT: Final = 0
_REFUSE: Final = 1
_CLOSE_ABUSE: Final = 2
_CLOSE_AUTH: Final = 3


class _FrameTurns:
    """A socket's frames, handled one after the other, in the order received, in its task.

    No task, timer or wait per frame: each frame is handled where it is read. A watchdog (one
    timer per socket, armed at most once per :data:`STALL_SECONDS` while frames are handled)
    sees a frame whose handling has taken that long (its database write waits on a frozen
    disk, say) and starts a rescue reader: while the frame stays stalled, pings are answered
    at once; the first other message is held for its turn after the stalled frame, so
    acknowledgements never change order.
    """

    def __init__(
        self,
        ws: web.WebSocketResponse,
        connection: Connection,
        authorize: Callable[[], bool],
        limits: SocketLimits,
    ) -> None:
        self._ws = ws
        self._connection = connection
        self._authorize = authorize
        self._limits = limits
        self._rate = FrameRate(limits)
        self._loop = asyncio.get_running_loop()
        # The frame being handled (a count, 0 while none is) and the loop time it started.
        self._frames = 0
        self._current = 0
        self._since = 0.0
        self._watchdog: asyncio.TimerHandle | None = None
        # While a frame is stalled: the task reading meanwhile, whether it waits in receive
        # (and may be cancelled there without losing a message) and the message it holds.
        self._rescue: asyncio.Task[None] | None = None
        self._rescue_receiving = False
        self._held: tuple[WSMessage, int | None] | None = None

    async def run(self) -> None:
        """Read and handle frames until the socket closes or must be closed."""
        ws = self._ws
        try:
            while (turn := await self._next()) is not None:
                message, verdict = turn
                if verdict == _ADMIT:
                    await self._handle(message)
                elif verdict == _REFUSE:
                    await self._refuse(message)
                else:
                    await ws.close(
                        code=CLOSE_POLICY_VIOLATION,
                        message=b"too many frames"
                        if verdict == _CLOSE_ABUSE
                        else b"token expired or revoked",
                    )
                    _stop_heartbeat(ws)
                    return
        finally:
            if self._watchdog is not None:
                self._watchdog.cancel()
                self._watchdog = None
            if self._rescue is not None:
                self._rescue.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await self._rescue
                self._rescue = None

    async def _next(self) -> tuple[WSMessage, int] | None:
        """The next text or binary frame and its gate's verdict; None once the socket ends."""
        ws = self._ws
        while True:
            if self._rescue is not None:
                await self._end_rescue()
            if self._held is not None:
                (message, verdict), self._held = self._held, None
            else:
                message, verdict = await ws.receive(), None
            kind = message.type
            if kind in (WSMsgType.TEXT, WSMsgType.BINARY):
                return message, self._gate(message) if verdict is None else verdict
            if kind == WSMsgType.ERROR:
                LOGGER.debug("Socket error: %s", type(ws.exception()).__name__)
                return None
            if kind in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return None

    async def _handle(self, message: WSMessage) -> None:
        """Handle one admitted frame, watched for a stall."""
        loop = self._loop
        self._frames += 1
        self._current = self._frames
        self._since = loop.time()
        if self._watchdog is None:
            self._watchdog = loop.call_at(self._since + STALL_SECONDS, self._watch)
        try:
            if message.type == WSMsgType.TEXT:
                await self._connection.handle_text(message.data)
            else:
                await self._connection.handle_binary()
        finally:
            self._current = 0

    def _gate(self, message: WSMessage) -> int:
        """Rate and token checks of one frame (the token re-checked before every message)."""
        if not self._rate.allow():
            return _CLOSE_ABUSE if self._rate.abusive else _REFUSE
        if not self._authorize():
            return _CLOSE_AUTH
        return _ADMIT

    async def _refuse(self, message: WSMessage) -> None:
        await self._connection.send(
            error_frame(
                ERROR_RATE_LIMITED,
                f"more than {self._limits.frames_per_second:g} frames per second: this frame "
                "was not processed; send it again shortly",
                event_id=_event_id(message.data) if message.type == WSMsgType.TEXT else None,
                retryable=True,
            )
        )

    def _watch(self) -> None:
        """The watchdog: a frame handled for :data:`STALL_SECONDS` starts the rescue reader."""
        self._watchdog = None
        if not self._current or self._rescue is not None:
            return  # no frame in hand: re-armed by the next one
        due = self._since + STALL_SECONDS
        if self._loop.time() < due:
            self._watchdog = self._loop.call_at(due, self._watch)
            return
        self._rescue = self._loop.create_task(self._read_while_stalled(self._current))

    async def _read_while_stalled(self, frame: int) -> None:
        """Answer pings while ``frame`` is stalled; hold the first other message."""
        ws = self._ws
        while self._current == frame:
            self._rescue_receiving = True
            try:
                message = await ws.receive()
            finally:
                self._rescue_receiving = False
            if message.type == WSMsgType.TEXT and _is_ping(message.data):
                verdict = self._gate(message)
                if verdict == _ADMIT:
                    await self._connection.handle_text(message.data)
                    continue
                self._held = (message, verdict)
                return
            self._held = (message, None)
            return

    async def _end_rescue(self) -> None:
        """Stop the rescue reader after a stalled frame; keep the message it holds."""
        rescue = self._rescue
        assert rescue is not None
        if not rescue.done() and self._rescue_receiving:
            rescue.cancel()  # waiting for a message: none is lost (it stays in aiohttp's queue)
        try:
            await rescue
        except asyncio.CancelledError:
            # The reader's own cancellation (above) ends here; the socket task's is passed on.
            task = asyncio.current_task()
            if not rescue.cancelled() or (task is not None and task.cancelling()):
                raise
        finally:
            self._rescue = None


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
