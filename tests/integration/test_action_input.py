"""Our actions under hostile input, over Home Assistant's REST API and websocket API.

What a schema can judge (empty or over-long content, a field the store does not have, a
number out of range) is refused by the action's schema; what only the database can judge (an
id that does not exist) is refused by the action. Either way HA answers 400 over REST and an
error over the websocket, and nothing reaches the log as an ERROR or a traceback.
"""

from __future__ import annotations

import logging
from http import HTTPStatus
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import (
    ClientSessionGenerator,
    WebSocketGenerator,
)

from custom_components.homebuddy_proactive.const import DOMAIN

REFUSED: list[tuple[str, dict[str, Any]]] = [
    ("add_memory", {"client_id": "x", "content": ""}),
    ("add_memory", {"client_id": "x", "content": "   "}),
    ("add_memory", {"client_id": "x", "content": "a" * 2001}),
    ("add_memory", {"client_id": "x"}),
    ("add_memory", {"client_id": "x", "store": "procedural", "steps": ["a"]}),
    ("add_memory", {"client_id": "x", "store": "affective", "content": "triste"}),
    ("add_memory", {"client_id": "a\u0085b", "content": "c"}),
    ("update_memory", {"memory_id": "{id}", "name": "n"}),
    ("update_memory", {"memory_id": "{id}", "content": ""}),
    ("update_memory", {"memory_id": "{id}"}),
    ("forget_memory", {"memory_id": 999999999}),
    ("memory_history", {"memory_id": 999999999}),
    ("update_memory", {"memory_id": 999999999, "content": "x"}),
    ("cancel_alarm", {"alarm_id": 999}),
    ("cancel_reminder", {"reminder_id": 999}),
    ("list_memories", {"client_id": "x\u2028y"}),
    ("export_memories", {"client_id": "x\u200by"}),
]


@pytest.fixture
async def memory_id(hass: HomeAssistant, init_integration: MockConfigEntry) -> int:
    """One factual memory to correct."""
    assert await async_setup_component(hass, "api", {})
    response = await hass.services.async_call(
        DOMAIN,
        "add_memory",
        {"client_id": "x", "content": "Ma fille s'appelle Claire"},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    return int(response["memory"]["id"])  # type: ignore[index,call-overload]


def _data(data: dict[str, Any], memory_id: int) -> dict[str, Any]:
    return {k: memory_id if v == "{id}" else v for k, v in data.items()}


def _errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.levelno >= logging.ERROR or r.exc_info is not None
    ]


@pytest.mark.parametrize(
    ("action", "data"), REFUSED, ids=[f"{a}-{i}" for i, (a, _) in enumerate(REFUSED)]
)
async def test_refused_over_rest_with_400_and_no_traceback(
    hass: HomeAssistant,
    hass_client: ClientSessionGenerator,
    caplog: pytest.LogCaptureFixture,
    memory_id: int,
    *,
    action: str,
    data: dict[str, Any],
) -> None:
    """An automation with a typo gets 400, and the log stays clean."""
    client = await hass_client()
    response = await client.post(f"/api/services/{DOMAIN}/{action}", json=_data(data, memory_id))
    assert response.status == HTTPStatus.BAD_REQUEST, await response.text()
    assert _errors(caplog) == []


@pytest.mark.parametrize(
    ("action", "data"), REFUSED, ids=[f"{a}-{i}" for i, (a, _) in enumerate(REFUSED)]
)
async def test_refused_over_the_websocket_with_a_message(
    hass: HomeAssistant,
    hass_ws_client: WebSocketGenerator,
    caplog: pytest.LogCaptureFixture,
    memory_id: int,
    *,
    action: str,
    data: dict[str, Any],
) -> None:
    """The UI's call gets an error it can show, with a message, and the log stays clean."""
    ws = await hass_ws_client(hass)
    await ws.send_json_auto_id(
        {
            "type": "call_service",
            "domain": DOMAIN,
            "service": action,
            "service_data": _data(data, memory_id),
            "return_response": action in ("memory_history", "export_memories", "list_memories"),
        }
    )
    answer = await ws.receive_json()
    assert answer["success"] is False
    assert answer["error"]["message"]
    assert answer["error"]["code"] != "unknown_error"
    assert _errors(caplog) == []
