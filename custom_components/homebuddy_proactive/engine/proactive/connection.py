"""One socket's view of the engine: its frames in, its frames out, and its two lanes.

A text frame enters :meth:`Connection.handle_text` and is parsed (``protocol``; see
docs/protocol.md, *Frames*). A ``ping`` is answered here, ``feedback`` is stored through the
host, a final ``transcript`` goes to the final lane (``final_lane``) and a partial one to the
partial lane (``partial_lane``). Every outcome is a frame, never an exception. Cards leave
through the socket's card outlet (``cards``).

The connection reads the engine only through :class:`~.host.ConnectionHost` and tells it that
the socket closed through the ``on_closed`` callback it was built with.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

from ..config import EngineConfig
from ..const import ERROR_INVALID_MESSAGE, ERROR_STORAGE_UNAVAILABLE
from .cards import CardOutlet, Send
from .final_lane import FinalLane
from .host import ConnectionHost
from .lane_context import LaneContext
from .partial_lane import PartialLane
from .protocol import FeedbackEvent, PingEvent, ProtocolError, error_frame, parse_frame
from .session import SessionState

LOGGER = logging.getLogger(__name__)

CloseSocket = Callable[[], Awaitable[Any]]


class Connection:
    """One socket's view of the engine: protocol handling and the two single-flight lanes."""

    def __init__(
        self,
        host: ConnectionHost,
        session: SessionState,
        client_id: str,
        send: Send,
        *,
        on_closed: Callable[[Connection], None],
        close_socket: CloseSocket | None = None,
    ) -> None:
        """Bind the socket's send function; lanes start in :meth:`start`.

        ``on_closed`` is called once the lanes stopped (:meth:`close`); ``close_socket`` ends
        the socket itself when the host unloads.
        """
        self.host = host
        self.session = session
        self.client_id = client_id
        self.close_socket = close_socket
        self._send = send
        self._on_closed = on_closed
        self._send_lock = asyncio.Lock()
        self._closed = False
        self.cards: CardOutlet = host.cards.outlet(session, client_id, self.send)
        lane = LaneContext(host, session, client_id, self.send, self.cards)
        self._partial = PartialLane(lane)
        self._final = FinalLane(lane, on_final=self._partial.final_arrived)

    @property
    def config(self) -> EngineConfig:
        """The engine's configuration."""
        return self.host.config

    async def start(self) -> None:
        """Send ``ready`` and start the lanes."""
        config = self.config
        await self.send(
            {
                "type": "ready",
                "client_id": self.client_id,
                "session_id": self.session.session_id,
                "model": config.ollama_model,
                "detector_mode": config.detector_mode,
                "partial_insights": config.partial_insights,
                "partial_insight_debounce_ms": config.partial_insight_debounce_ms,
                "partial_insight_interval_ms": config.partial_insight_interval_ms,
            }
        )
        self._final.start()
        if config.partial_insights:
            self._partial.start()

    async def close(self) -> None:
        """Cancel the lanes and wait for them, then tell the host; idempotent."""
        if self._closed:
            return
        self._closed = True
        tasks = [*self._partial.tasks(), *self._final.tasks()]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._on_closed(self)

    async def send(self, frame: dict[str, Any]) -> None:
        """Send one frame; a socket that went away is not an error of the engine."""
        if self._closed:
            return
        lock = self._send_lock
        await lock.acquire()  # (no context manager: two coroutines fewer per frame)
        try:
            await self._send(frame)
        except (ConnectionError, RuntimeError) as err:
            LOGGER.debug("Frame not sent, socket gone: %s", type(err).__name__)
        finally:
            lock.release()

    async def handle_binary(self) -> None:
        """Binary frames are not part of the protocol."""
        self.host.stats.protocol_errors += 1
        await self.send(
            error_frame(ERROR_INVALID_MESSAGE, "binary frames are not supported; send JSON text")
        )

    async def handle_text(self, raw: str) -> None:
        """Handle one text frame; every outcome is a frame, never an exception."""
        now = self.host.clock()  # the frame's arrival, read once for all it needs
        try:
            event = parse_frame(raw, now)
        except ProtocolError as err:
            self.host.stats.protocol_errors += 1
            await self.send(error_frame(err.code, err.message, event_id=err.event_id))
            return
        if isinstance(event, PingEvent):
            await self.send({"type": "pong"})
            return
        try:
            if isinstance(event, FeedbackEvent):
                await self._feedback(event)
            elif event.is_final:
                await self._final.received(event, now)
            else:
                await self._partial.received(event)
        except sqlite3.Error as err:
            # A full disk or a broken file must not take the socket down: say so, retryable.
            LOGGER.error("Database write failed: %s", type(err).__name__)
            await self.send(
                error_frame(
                    ERROR_STORAGE_UNAVAILABLE,
                    "the message could not be stored; send it again",
                    event_id=getattr(event, "event_id", None),
                    retryable=True,
                )
            )

    async def _feedback(self, event: FeedbackEvent) -> None:
        saved = await self.host.save_feedback(self.client_id, event.insight_id, event.useful)
        if saved:
            await self.send({"type": "feedback_saved", "insight_id": event.insight_id})
        else:
            await self.send(
                error_frame(ERROR_INVALID_MESSAGE, f"unknown insight_id {event.insight_id[:64]!r}")
            )
