"""Everything but model answers works while Ollama is down, and resumes when it comes back.

Ollama is a real fake server on 127.0.0.1, stopped before the setup and started again later on
the same port; nothing is reloaded in between.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta

import aiohttp
import pytest
from homeassistant.components import conversation
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import STATE_OFF, STATE_ON
from homeassistant.core import Context, HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers import issue_registry as ir
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import (
    MockConfigEntry,
    async_capture_events,
    async_fire_time_changed,
)
from pytest_homeassistant_custom_component.typing import ClientSessionGenerator

from custom_components.homebuddy_proactive.const import (
    CONF_DETECTOR_MODE,
    CONF_MODEL,
    CONF_URL,
    DOMAIN,
    EVENT_ALARM,
    ISSUE_NO_MODEL,
    ISSUE_OLLAMA_UNREACHABLE,
    WS_VIEW_URL,
)
from custom_components.homebuddy_proactive.engine.const import DETECTOR_HEURISTIC
from tests.fake_ollama import FakeOllama, answer_questions
from tests.integration.test_conversation import NOWHERE_FR

from .conftest import config_entry, set_up_entry

OLLAMA = "binary_sensor.homebuddy_proactive_ollama"


@pytest.fixture
async def ollama_down(fake_ollama: FakeOllama) -> AsyncIterator[FakeOllama]:
    """The fake Ollama, stopped: its URL is known, nothing listens there until it starts."""
    fake_ollama.handler = answer_questions
    await fake_ollama.stop()
    yield fake_ollama


@pytest.fixture
async def entry_without_ollama(hass: HomeAssistant, ollama_down: FakeOllama) -> MockConfigEntry:
    """An entry set up while Ollama is down."""
    entry = config_entry(ollama_down.url)
    await set_up_entry(hass, entry)
    return entry


async def _connect(
    hass_client_no_auth: ClientSessionGenerator, token: str
) -> aiohttp.ClientWebSocketResponse:
    client = await hass_client_no_auth()
    ws = await client.ws_connect(
        f"{WS_VIEW_URL}?client_id=glasses-01&session_id=first-day",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert (await ws.receive_json(timeout=5))["type"] == "ready"
    return ws


async def _say(ws: aiohttp.ClientWebSocketResponse, text: str, event_id: str) -> dict:
    """Send a final transcript; return the message after its ack (a card or an error)."""
    await ws.send_json({"type": "transcript", "event_id": event_id, "text": text})
    ack = await ws.receive_json(timeout=5)
    assert ack["type"] == "ack", ack
    message: dict = await ws.receive_json(timeout=10)
    return message


async def _ask(hass: HomeAssistant, entry: MockConfigEntry, text: str) -> str:
    agent = er.async_get(hass).async_get_entity_id(
        "conversation", DOMAIN, f"{entry.entry_id}_assistant"
    )
    result = await conversation.async_converse(
        hass, text, None, Context(), language="fr", agent_id=agent
    )
    await hass.async_block_till_done()
    speech: str = result.response.speech["plain"]["speech"]
    return speech


async def test_a_first_day_without_ollama_then_with_it(
    hass: HomeAssistant,
    entry_without_ollama: MockConfigEntry,
    ollama_down: FakeOllama,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
) -> None:
    """Down at start: loaded, a repair names the URL, cards, alarms and memories work.

    Then Ollama comes up: the minute check removes the repair and questions are answered,
    without a reload.
    """
    entry = entry_without_ollama
    assert entry.state is ConfigEntryState.LOADED
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE)
    assert issue is not None
    assert issue.translation_key == ISSUE_OLLAMA_UNREACHABLE
    assert issue.translation_placeholders == {"url": ollama_down.url}
    assert issue.severity is ir.IssueSeverity.ERROR
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_NO_MODEL) is None
    assert hass.states.get(OLLAMA).state == STATE_OFF

    ws = await _connect(hass_client_no_auth, hass_access_token)
    card = await _say(ws, "Remind me to call the pharmacy at five.", "r1")
    assert card["type"] == "insight"
    assert card["intent"] == "reminder"
    assert "pharmacy" in card["text"]
    error = await _say(ws, "Is the pharmacy open on Sunday?", "q1")
    assert error["type"] == "error"
    assert error["code"] == "llm_unavailable"
    assert error["retryable"] is True

    # Assist's fast paths: an alarm is armed and rings; a memory is kept and recalled.
    rings = async_capture_events(hass, EVENT_ALARM)
    assert await _ask(hass, entry, "Alarm : 07:30") == NOWHERE_FR.format(time="7 heures 30")
    response = await hass.services.async_call(
        DOMAIN, "list_alarms", {}, blocking=True, return_response=True
    )
    assert response is not None
    (alarm,) = response["alarms"]  # type: ignore[misc]
    assert await _ask(hass, entry, "Souviens-toi que ma fille s'appelle Claire.") == (
        "C'est noté, je m'en souviendrai."
    )
    assert await _ask(hass, entry, "Qu'est-ce que tu sais sur Claire ?") == (
        "Voici ce que je sais sur Claire : Votre fille s'appelle Claire."
    )
    fire_at = dt_util.parse_datetime(alarm["fire_at"])  # type: ignore[index]
    assert fire_at is not None

    await ollama_down.start()  # the same port
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=61))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE) is None
    assert hass.states.get(OLLAMA).state == STATE_ON
    answer = await _say(ws, "What time does the bakery open?", "q2")
    assert answer["type"] == "insight", answer
    assert answer["intent"] == "question"
    assert "bakery" in answer["text"]
    assert entry.state is ConfigEntryState.LOADED

    async_fire_time_changed(hass, fire_at + timedelta(seconds=1))
    await hass.async_block_till_done()
    assert len(rings) == 1
    await ws.close()


async def test_ollama_going_away_later_raises_the_repair_and_it_clears(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_ollama: FakeOllama
) -> None:
    """Ollama stopping while the entry runs: the minute check raises the repair, then clears it."""
    issues = ir.async_get(hass)
    assert issues.async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE) is None
    await fake_ollama.stop()
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=61))
    await hass.async_block_till_done(wait_background_tasks=True)
    issue = issues.async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE)
    assert issue is not None
    assert issue.translation_placeholders == {"url": fake_ollama.url}
    await fake_ollama.start()
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=122))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert issues.async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE) is None
    # Unloading removes a repair that would otherwise outlive the entry.
    await fake_ollama.stop()
    async_fire_time_changed(hass, dt_util.utcnow() + timedelta(seconds=183))
    await hass.async_block_till_done(wait_background_tasks=True)
    assert issues.async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE) is not None
    assert await hass.config_entries.async_unload(init_integration.entry_id)
    assert issues.async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE) is None


async def test_the_url_in_the_repair_has_no_password(
    hass: HomeAssistant, ollama_down: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    """Credentials in the Ollama URL never reach the repairs dashboard or the log, which
    names the server that failed."""
    url = ollama_down.url.replace("http://", "http://user:secret@")
    await set_up_entry(hass, config_entry(url))
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE)
    assert issue is not None
    assert issue.translation_placeholders == {"url": ollama_down.url}
    assert f"({ollama_down.url}): cannot connect" in caplog.text
    assert "secret" not in caplog.text


async def test_an_entry_without_a_model_works_on_local_rules(
    hass: HomeAssistant,
    fake_ollama: FakeOllama,
    hass_client_no_auth: ClientSessionGenerator,
    hass_access_token: str,
) -> None:
    """No model chosen: Ollama is reachable, questions get llm_unavailable, a repair says why."""
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={CONF_URL: fake_ollama.url, CONF_MODEL: "", CONF_DETECTOR_MODE: DETECTOR_HEURISTIC},
    )
    assert await set_up_entry(hass, entry)
    issues = ir.async_get(hass)
    assert issues.async_get_issue(DOMAIN, ISSUE_OLLAMA_UNREACHABLE) is None
    issue = issues.async_get_issue(DOMAIN, ISSUE_NO_MODEL)
    assert issue is not None
    assert issue.translation_placeholders == {"url": fake_ollama.url}
    assert hass.states.get(OLLAMA).state == STATE_ON

    ws = await _connect(hass_client_no_auth, hass_access_token)
    error = await _say(ws, "Is the pharmacy open on Sunday?", "q1")
    assert error["code"] == "llm_unavailable"
    assert error["retryable"] is True
    card = await _say(ws, "Remind me to water the plants.", "r1")
    assert card["intent"] == "reminder"
    assert fake_ollama.chat_count == 0
    # A failed call for want of a model does not make Ollama look unreachable.
    assert hass.states.get(OLLAMA).state == STATE_ON
    await ws.close()
