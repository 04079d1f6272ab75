"""The AI Task entity, end to end through the real ``ai_task.generate_data`` action.

A real Home Assistant (the test harness) and the real integration against the fake Ollama, a
real HTTP server scripted per test: what automations get back, what the model is asked (the
structure as Ollama's ``format``), and how a model that is down or talks nonsense fails the
action without harming Home Assistant.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import CoreState, HomeAssistant
from homeassistant.exceptions import HomeAssistantError
from homeassistant.helpers import entity_registry as er
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.homebuddy_proactive.ai_task import TEXT_SCHEMA
from custom_components.homebuddy_proactive.const import CONF_MODEL, DOMAIN
from tests.fake_ollama import FakeOllama, FakeReply
from tests.integration.conftest import MODEL, config_entry, set_up_entry

ENTITY = "ai_task.homebuddy_proactive_ai_tasks"
INSTRUCTIONS = "Suggest a name for the shopping list and say whether it is urgent."
# Fields as an automation writes them: a required text, an optional yes/no.
STRUCTURE = {
    "name": {"description": "The list's name", "required": True, "selector": {"text": {}}},
    "urgent": {"selector": {"boolean": {}}},
}


async def generate(hass: HomeAssistant, **fields: Any) -> dict[str, Any]:
    """Run ``ai_task.generate_data`` on our entity, as an automation does; its response."""
    response = await hass.services.async_call(
        "ai_task",
        "generate_data",
        {"task_name": "test", "entity_id": ENTITY, "instructions": INSTRUCTIONS, **fields},
        blocking=True,
        return_response=True,
    )
    assert response is not None
    return dict(response)


def our_errors(caplog: pytest.LogCaptureFixture) -> list[str]:
    """Error records of the integration (failures of a task are the caller's, not logged)."""
    return [
        record.getMessage()
        for record in caplog.records
        if record.levelno >= logging.ERROR
        and record.name.startswith(("custom_components.homebuddy_proactive", "homeassistant"))
    ]


async def test_entity_is_added(hass: HomeAssistant, init_integration: MockConfigEntry) -> None:
    """One AI Task entity on the entry's device, named by its translation, generating data."""
    entry = er.async_get(hass).async_get(ENTITY)
    assert entry is not None
    assert entry.unique_id == f"{init_integration.entry_id}_ai_tasks"
    assert entry.translation_key == "ai_tasks"
    state = hass.states.get(ENTITY)
    assert state is not None
    assert state.attributes["friendly_name"] == "HomeBuddy Proactive AI tasks"
    assert state.attributes["supported_features"] == 1  # GENERATE_DATA only


async def test_structured_data(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_ollama: FakeOllama
) -> None:
    """With a structure: the model is asked for it as a JSON schema and its fields come back."""
    fake_ollama.queue({"name": "Weekend groceries", "urgent": True})
    asked = fake_ollama.chat_count

    response = await generate(hass, structure=STRUCTURE)

    assert response["data"] == {"name": "Weekend groceries", "urgent": True}
    assert response["conversation_id"]
    assert fake_ollama.chat_count == asked + 1
    request = fake_ollama.requests[-1]
    assert request["model"] == MODEL
    schema = request["format"]
    assert schema["type"] == "object"
    assert schema["properties"]["name"]["type"] == "string"
    assert schema["properties"]["name"]["description"] == "The list's name"
    assert schema["properties"]["urgent"]["type"] == "boolean"
    assert schema["required"] == ["name"]
    messages = request["messages"]
    assert messages[0]["role"] == "system"
    assert "JSON" in messages[0]["content"]
    assert messages[-1] == {"role": "user", "content": INSTRUCTIONS}
    # The entity's state is the time of its last task.
    assert hass.states.get(ENTITY).state not in ("unknown", "unavailable")


async def test_text_answer(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_ollama: FakeOllama
) -> None:
    """Without a structure: the model fills {"text": ...} and the text alone comes back."""
    fake_ollama.queue({"text": "Weekend groceries, not urgent."})

    response = await generate(hass)

    assert response["data"] == "Weekend groceries, not urgent."
    request = fake_ollama.requests[-1]
    assert request["format"] == TEXT_SCHEMA
    assert request["messages"][-1] == {"role": "user", "content": INSTRUCTIONS}
    assert '{"text"' in request["messages"][0]["content"]


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        ({"name": 42, "urgent": True}, "'name'"),
        ({"urgent": False}, "'name'"),
        ({"name": "Groceries", "colour": "blue"}, "'colour'"),
        (FakeReply(content="Sure! Here is your list."), "content is not JSON"),
    ],
    ids=["wrong-types", "missing-field", "extra-field", "not-json"],
)
async def test_answer_not_matching_the_structure(
    *,
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_ollama: FakeOllama,
    caplog: pytest.LogCaptureFixture,
    reply: dict[str, Any] | FakeReply,
    reason: str,
) -> None:
    """An answer that does not fit the structure fails the action and says what is wrong."""
    fake_ollama.queue(reply)

    with pytest.raises(HomeAssistantError) as raised:
        await generate(hass, structure=STRUCTURE)

    message = str(raised.value)
    assert message.startswith("The HomeBuddy model's answer to the AI task is not usable: ")
    assert reason in message  # the field at fault, or what is wrong with the answer
    assert not our_errors(caplog)
    assert init_integration.state is ConfigEntryState.LOADED


async def test_text_answer_without_text(
    hass: HomeAssistant, init_integration: MockConfigEntry, fake_ollama: FakeOllama
) -> None:
    """A text task whose answer has no text fails the action."""
    fake_ollama.queue({"answer": "Weekend groceries"})

    with pytest.raises(HomeAssistantError, match='no "text" string'):
        await generate(hass)


async def test_model_failing_then_answering(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    fake_ollama: FakeOllama,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Ollama answering 500, then stopped: each task fails with the reason, Home Assistant and
    the entry keep running, nothing is logged as an error; back up, the next task succeeds."""
    fake_ollama.queue(FakeReply(status=500))
    with pytest.raises(HomeAssistantError) as raised:
        await generate(hass, structure=STRUCTURE)
    assert str(raised.value) == "The HomeBuddy model did not answer the AI task: HTTP 500"

    await fake_ollama.stop()
    with pytest.raises(HomeAssistantError) as raised:
        await generate(hass)
    assert str(raised.value) == "The HomeBuddy model did not answer the AI task: cannot connect"
    await hass.async_block_till_done()

    assert hass.state is CoreState.running
    assert init_integration.state is ConfigEntryState.LOADED
    assert not our_errors(caplog)
    assert "Traceback" not in caplog.text

    await fake_ollama.start()  # the same port
    fake_ollama.queue({"text": "Back."})
    assert (await generate(hass))["data"] == "Back."


async def test_no_model_chosen(
    hass: HomeAssistant, fake_ollama: FakeOllama, caplog: pytest.LogCaptureFixture
) -> None:
    """Set up without a model, the entity is there; a task fails and says to choose a model,
    without asking Ollama."""
    entry = config_entry(fake_ollama.url)
    hass_entry = MockConfigEntry(
        domain=DOMAIN, title=entry.title, data={**entry.data, CONF_MODEL: ""}
    )
    assert await set_up_entry(hass, hass_entry)
    assert hass.states.get(ENTITY) is not None
    asked = fake_ollama.chat_count

    with pytest.raises(HomeAssistantError, match="no language model chosen"):
        await generate(hass)

    assert fake_ollama.chat_count == asked
    assert not our_errors(caplog)
