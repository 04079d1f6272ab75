"""Timed reminders on the standalone server: said to the glasses in French, they come back to
them at their time in the home's time zone (``TZ``), or once, late, to the next socket.

The application runs in process with a wall clock the test moves; the reminder clock is asked
to check what is due at the moved time, as its own timer would.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from custom_components.homebuddy_proactive.engine.standalone.server import API_KEY, create_app
from custom_components.homebuddy_proactive.engine.standalone.settings import ServerSettings

from .conftest import MODEL, PASSWORD, USERNAME, bearer

type Client = TestClient[web.Request, web.Application]
MEDICINE = "rappelle-moi de prendre mes médicaments à 20 heures"


@dataclass
class FakeClock:
    """A wall clock the test moves by hand."""

    now: datetime

    def __call__(self) -> datetime:
        """The current fake time."""
        return self.now


@pytest.fixture
def clock() -> FakeClock:
    """11:00 in Paris on 31 August 2026."""
    return FakeClock(datetime(2026, 8, 31, 9, 0, tzinfo=UTC))


@pytest.fixture
async def client(socket_enabled: None, tmp_path: Path, clock: FakeClock) -> AsyncIterator[Client]:
    """The standalone app in process, in Paris, with the fake clock; Ollama is down."""
    settings = ServerSettings.from_env(
        {
            "OLLAMA_BASE_URL": "http://127.0.0.1:9",
            "OLLAMA_MODEL": MODEL,
            "DETECTOR_MODE": "heuristic",
            "AUTH_PASSWORD": PASSWORD,
            "AUTH_TOKEN_TTL_SECONDS": str(365 * 86400),
            "TZ": "Europe/Paris",
        }
    )
    app = create_app(replace(settings, database_path=tmp_path / "homebuddy.db"), clock=clock)
    async with TestClient(TestServer(app, host="127.0.0.1")) as test_client:
        yield test_client


async def open_glasses(client: Client, token: str, session: str) -> aiohttp.ClientWebSocketResponse:
    ws = await client.ws_connect(
        f"/v1/ws?client_id=glasses-marie&session_id={session}", headers=bearer(token)
    )
    assert (await ws.receive_json(timeout=5))["type"] == "ready"
    return ws


async def next_insight(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    while True:
        frame = await ws.receive_json(timeout=5)
        if frame["type"] == "insight":
            return dict(frame)


async def test_a_reminder_said_to_the_glasses_comes_back_at_its_time(
    client: Client, clock: FakeClock
) -> None:
    """The card says when; at 20:00 Paris time (18:00 UTC) the glasses show it, as a
    scheduled reminder; nothing came before."""
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    token = (await response.json())["access_token"]
    ws = await open_glasses(client, token, "day-1")
    await ws.send_json({"type": "transcript", "event_id": "e1", "text": MEDICINE, "language": "fr"})
    card = await next_insight(ws)
    assert card["text"] == "Je vous le rappellerai ce soir à 20 heures : prendre vos médicaments."
    reminders = client.app[API_KEY].runtime.reminders

    clock.now = datetime(2026, 8, 31, 17, 59, tzinfo=UTC)
    await reminders.check()
    await ws.send_json({"type": "ping"})
    assert (await ws.receive_json(timeout=5))["type"] == "pong"  # nothing before its time
    clock.now = datetime(2026, 8, 31, 18, 0, 1, tzinfo=UTC)
    await reminders.check()
    card = await next_insight(ws)
    assert (card["text"], card["intent"], card["source"]) == (
        "Rappel : prendre vos médicaments.",
        "reminder",
        "scheduled",
    )
    await ws.close()


async def test_glasses_that_open_later_get_it_once_and_late(
    client: Client, clock: FakeClock
) -> None:
    """No socket open at 20:00: the next one of that client gets it, saying it is late; the
    one after does not get it again."""
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    token = (await response.json())["access_token"]
    ws = await open_glasses(client, token, "day-1")
    await ws.send_json({"type": "transcript", "event_id": "e1", "text": MEDICINE, "language": "fr"})
    await next_insight(ws)
    await ws.close()
    clock.now = datetime(2026, 8, 31, 18, 0, 1, tzinfo=UTC)
    await client.app[API_KEY].runtime.reminders.check()
    clock.now += timedelta(minutes=40)

    later = await open_glasses(client, token, "evening")
    card = await next_insight(later)
    assert card["text"] == "Rappel en retard, prévu à 20 heures : prendre vos médicaments."
    await later.close()
    again = await open_glasses(client, token, "night")
    await again.send_json({"type": "ping"})
    assert (await again.receive_json(timeout=5))["type"] == "pong"
    await again.close()


def test_tz_must_name_a_time_zone() -> None:
    """A wrong TZ stops the server at start with a line that names it."""
    with pytest.raises(Exception, match="TZ must be a time zone name"):
        ServerSettings.from_env({"TZ": "Mars/Olympus"})


async def test_a_spanish_reminder_is_confirmed_and_shown_in_spanish(
    client: Client, clock: FakeClock
) -> None:
    """Said in Spanish: the card says when in Spanish; at 20:00 Paris time it comes back."""
    response = await client.post(
        "/v1/auth/signin", json={"username": USERNAME, "password": PASSWORD}
    )
    token = (await response.json())["access_token"]
    ws = await open_glasses(client, token, "dia-1")
    await ws.send_json(
        {
            "type": "transcript",
            "event_id": "e1",
            "text": "recuérdame tomar las pastillas a las 8 de la tarde",
            "language": "es",
        }
    )
    card = await next_insight(ws)
    assert card["text"] == "Se lo recordaré hoy a las 20:00: tomar las pastillas."
    clock.now = datetime(2026, 8, 31, 18, 0, 1, tzinfo=UTC)
    await client.app[API_KEY].runtime.reminders.check()
    card = await next_insight(ws)
    assert (card["text"], card["source"]) == ("Recordatorio: tomar las pastillas.", "scheduled")
    await ws.close()
