"""Fixtures of the HA-free engine tests: a real SQLite file, a fake Ollama, an engine.

These tests run twice: in the full suite (Home Assistant installed) and by
``scripts/test-engine`` in a venv with only ``requirements/runtime.txt`` and
``requirements/engine-tests.txt``. There, importing ``custom_components.homebuddy_proactive.engine``
would run the integration's ``__init__`` (Home Assistant code), so ``tests/engine/__init__.py``,
which Python runs before this file, first registers ``custom_components.homebuddy_proactive`` as a
bare package over its folder whose ``__init__`` never runs; with Home Assistant installed it
changes nothing. Only pytest-socket's ``socket_enabled`` comes from a plugin (it is in both venvs).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from custom_components.homebuddy_proactive.engine.config import EngineConfig
from custom_components.homebuddy_proactive.engine.llm import OllamaModel
from custom_components.homebuddy_proactive.engine.proactive.connection import Connection
from custom_components.homebuddy_proactive.engine.proactive.engine import ProactiveEngine
from custom_components.homebuddy_proactive.engine.proactive.prompt import model_context_tokens
from custom_components.homebuddy_proactive.engine.storage import ProactiveStore
from tests.fake_ollama import FakeOllama


@pytest.fixture
async def fake_ollama(socket_enabled: None) -> AsyncIterator[FakeOllama]:
    """A fake Ollama on 127.0.0.1."""
    async with FakeOllama() as fake:
        yield fake


@dataclass
class Socket:
    """The frames a connection sent, as a glasses client would see them."""

    frames: list[dict[str, Any]] = field(default_factory=list)
    arrived: asyncio.Event = field(default_factory=asyncio.Event)
    connection: Connection | None = None

    async def send(self, frame: dict[str, Any]) -> None:
        """The connection's send function."""
        self.frames.append(frame)
        self.arrived.set()

    async def text(self, raw: str) -> None:
        """Deliver a raw frame to the connection."""
        assert self.connection is not None
        await self.connection.handle_text(raw)

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        """Frames of one type."""
        return [f for f in self.frames if f["type"] == kind]

    async def wait_for(
        self, predicate: Callable[[dict[str, Any]], bool], within: float = 5
    ) -> dict[str, Any]:
        """Wait until a frame matching ``predicate`` arrived."""
        async with asyncio.timeout(within):
            while True:
                for frame in self.frames:
                    if predicate(frame):
                        return frame
                self.arrived.clear()
                await self.arrived.wait()


@dataclass
class EngineHarness:
    """An engine over a real store and the fake Ollama."""

    engine: ProactiveEngine
    store: ProactiveStore
    model: OllamaModel
    sockets: list[Socket] = field(default_factory=list)

    async def connect(self, client_id: str = "c1", session_id: str = "s1") -> Socket:
        """Open a connection as a socket would."""
        socket = Socket()
        socket.connection = await self.engine.connect(client_id, session_id, socket.send)
        self.sockets.append(socket)
        return socket


@pytest.fixture
async def engine_factory(
    tmp_path: Path, fake_ollama: FakeOllama
) -> AsyncIterator[Callable[..., Any]]:
    """Build engines with tuning overrides; everything is closed after the test."""
    made: list[EngineHarness] = []

    async def _factory(**overrides: Any) -> EngineHarness:
        mode = overrides.pop("detector_mode", "conversate")
        config = EngineConfig(
            ollama_base_url=fake_ollama.url, ollama_model="llama3.2:3b", detector_mode=mode
        ).with_tuning(overrides)
        store = await ProactiveStore.open(tmp_path / f"engine{len(made)}.db")
        model = OllamaModel(
            fake_ollama.url,
            config.ollama_model,
            timeout=config.ollama_timeout_seconds,
            context_tokens=model_context_tokens(config),
            keep_alive=config.ollama_keep_alive,
        )
        harness = EngineHarness(ProactiveEngine(config, store, model), store, model)
        made.append(harness)
        return harness

    yield _factory
    for harness in made:
        await harness.engine.close()
        await harness.store.close()
        await harness.model.close()


async def insert_old_memory(
    store: ProactiveStore, *, client_id: str, kind: str, content: str, created_at: datetime
) -> int:
    """Insert a factual memory as a file before schema 8 could (no validity columns)."""
    cursor = await store.connection.execute(
        "INSERT INTO memories (client_id, kind, content, created_at) VALUES (?, ?, ?, ?)",
        (client_id, kind, content, created_at.isoformat()),
    )
    await store.connection.commit()
    assert cursor.lastrowid is not None
    return cursor.lastrowid
