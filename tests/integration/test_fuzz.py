"""Poison frames and upgrade requests against the Home Assistant view (hypothesis-drawn).

The same strategies as the standalone host's fuzz test: never a closed socket, never a 5xx,
never a traceback in the log.
"""

from __future__ import annotations

import logging

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.homebuddy_proactive.const import DOMAIN, WS_VIEW_URL
from tests import fuzz

from .test_websocket import Connect, connect  # noqa: F401 - the fixture

FRAME_EXAMPLES = 60
QUERY_EXAMPLES = 20
ACTION_EXAMPLES = 80


async def test_fuzzed_frames_never_close_the_view_socket(
    connect: Connect,  # noqa: F811 - the fixture imported above
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Hypothesis-drawn frames on the HA view: answered, socket open, no traceback."""
    caplog.set_level(logging.INFO)
    ws = await connect(client_id="fuzz", session_id="fuzz-1")
    for raw in fuzz.examples(fuzz.RAW_FRAMES, FRAME_EXAMPLES):
        for frame in await fuzz.exchange(ws, raw):
            assert frame["type"] != "error" or frame["code"] in (
                "invalid_message",
                "unsupported_type",
            ), (raw[:200], frame)
    assert not ws.closed
    assert fuzz.tracebacks(caplog.records) == []


async def test_fuzzed_upgrade_queries_never_answer_5xx(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client_no_auth,
    hass_access_token: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Drawn client and session ids (surrogate escapes, empty, long): 4xx at worst."""
    client = await hass_client_no_auth()
    headers = {"Authorization": f"Bearer {hass_access_token}"}
    for value in fuzz.examples(fuzz.QUERY_VALUES, QUERY_EXAMPLES):
        response = await client.get(
            f"{WS_VIEW_URL}?client_id={value}&session_id={value}", headers=headers
        )
        assert response.status < 500, (value, response.status)
        response.release()
    assert fuzz.tracebacks(caplog.records) == []


async def test_fuzzed_actions_over_rest_never_answer_5xx(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    hass_client,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Drawn calls of our actions over HA's REST API: 200 or 400, never a 5xx, and nothing
    reaches the log as an ERROR or a traceback."""
    assert await async_setup_component(hass, "api", {})
    client = await hass_client()
    for action, data in fuzz.examples(fuzz.ACTION_CALLS, ACTION_EXAMPLES):
        response = await client.post(f"/api/services/{DOMAIN}/{action}", json=data)
        assert response.status in (200, 400), (action, data, response.status)
        response.release()
    assert fuzz.tracebacks(caplog.records) == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
