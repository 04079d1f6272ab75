"""The memories on Home Assistant's websocket API (the UI's way in), against the real store."""

from __future__ import annotations

import json
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry
from pytest_homeassistant_custom_component.typing import (
    MockHAClientWebSocket,
    WebSocketGenerator,
)

from custom_components.homebuddy_proactive.const import DOMAIN

# One valid call of each command.
CALLS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("list", {}),
    ("add", {"client_id": "glasses-1", "content": "Léa is 7"}),
    ("update", {"memory_id": 1, "content": "Léa is 8"}),
    ("forget", {"memory_id": 1}),
    ("export", {"client_id": "glasses-1"}),
    ("history", {"memory_id": 1}),
)


async def command(ws: MockHAClientWebSocket, name: str, /, **fields: Any) -> dict[str, Any]:
    """Send ``homebuddy_proactive/memories/<name>`` and return the answer."""
    await ws.send_json_auto_id({"type": f"{DOMAIN}/memories/{name}", **fields})
    answer: dict[str, Any] = await ws.receive_json()
    return answer


async def result(ws: MockHAClientWebSocket, name: str, /, **fields: Any) -> Any:
    """The result of a command that must succeed."""
    answer = await command(ws, name, **fields)
    assert answer["success"], answer
    return answer["result"]


@pytest.fixture
async def ws(
    hass: HomeAssistant, init_integration: MockConfigEntry, hass_ws_client: WebSocketGenerator
) -> MockHAClientWebSocket:
    """A websocket API connection of an administrator, with the integration loaded."""
    return await hass_ws_client(hass)


async def test_add_list_update_forget_and_export(
    hass: HomeAssistant, ws: MockHAClientWebSocket, init_integration: MockConfigEntry
) -> None:
    """A full round trip through the real SQLite store, as the UI would make it."""
    fact = (await result(ws, "add", client_id="glasses-1", kind="person", content="Léa is 7"))[
        "memory"
    ]
    assert (fact["store"], fact["kind"], fact["content"]) == ("factual", "person", "Léa is 7")
    procedure = (
        await result(
            ws,
            "add",
            client_id="glasses-1",
            store="procedural",
            name="Reset the boiler",
            steps=["Open the panel", "Hold reset"],
        )
    )["memory"]
    await result(ws, "add", client_id="glasses-2", content="The plumber is Jean")

    listed = await result(ws, "list", client_id="glasses-1")
    assert listed["client_id"] == "glasses-1"
    assert {(m["store"], m["id"]) for m in listed["memories"]} == {
        ("factual", fact["id"]),
        ("procedural", procedure["id"]),
    }
    everyone = await result(ws, "list")
    assert everyone["client_id"] is None
    assert {m["client_id"] for m in everyone["memories"]} == {"glasses-1", "glasses-2"}
    people = await result(ws, "list", kind="person")
    assert [m["content"] for m in people["memories"]] == ["Léa is 7"]
    procedures = await result(ws, "list", store="procedural", limit=1)
    assert [m["name"] for m in procedures["memories"]] == ["Reset the boiler"]

    updated = await result(
        ws, "update", memory_id=fact["id"], client_id="glasses-1", content="Léa is 8"
    )
    assert updated["memory"] == {**fact, "content": "Léa is 8"}
    # The action sees what the websocket API changed: one store behind both.
    listed_by_action = await hass.services.async_call(
        DOMAIN,
        "list_memories",
        {"client_id": "glasses-1", "store": "factual"},
        blocking=True,
        return_response=True,
    )
    assert listed_by_action["memories"] == [updated["memory"]]

    exported = await result(ws, "export", client_id="glasses-1")
    assert exported["client_id"] == "glasses-1"
    assert [m["content"] for m in exported["stores"]["factual"]] == ["Léa is 8"]
    assert [m["steps"] for m in exported["stores"]["procedural"]] == [
        ["Open the panel", "Hold reset"]
    ]
    json.dumps(exported)

    assert await result(ws, "forget", memory_id=fact["id"]) is None
    assert await result(ws, "forget", memory_id=procedure["id"], store="procedural") is None
    assert (await result(ws, "list", client_id="glasses-1"))["memories"] == []
    remaining = init_integration.runtime_data.engine.memory
    assert [m.content for m in await remaining.list("glasses-2")] == ["The plumber is Jean"]


async def test_history_shows_the_users_edit(ws: MockHAClientWebSocket) -> None:
    """memories/history: the fact now and its changes; an unknown id is not_found."""
    fact = (await result(ws, "add", client_id="glasses-1", content="Léa is 7"))["memory"]
    await result(ws, "update", memory_id=fact["id"], content="Léa is 8")
    history = await result(ws, "history", memory_id=fact["id"])
    assert history["memory"]["content"] == "Léa is 8"
    assert [(e["action"], e["old_content"], e["new_content"]) for e in history["history"]] == [
        ("added", None, "Léa is 7"),
        ("edited", "Léa is 7", "Léa is 8"),
    ]
    await result(ws, "forget", memory_id=fact["id"])
    forgotten = await result(ws, "history", memory_id=fact["id"])
    assert forgotten["memory"] is None
    assert [e["action"] for e in forgotten["history"]] == ["forgotten"]
    answer = await command(ws, "history", memory_id=fact["id"] + 100)
    assert answer["error"]["code"] == "not_found"


async def test_unknown_memory_is_not_found(ws: MockHAClientWebSocket) -> None:
    """An unknown id, or another client's memory, answers not_found and changes nothing."""
    fact = (await result(ws, "add", client_id="glasses-1", content="Léa is 7"))["memory"]
    for name, fields in (
        ("update", {"memory_id": 12345, "content": "Léa is 8"}),
        ("update", {"memory_id": fact["id"], "client_id": "glasses-2", "content": "Léa is 8"}),
        ("forget", {"memory_id": 12345}),
        ("forget", {"memory_id": fact["id"], "store": "procedural"}),
    ):
        answer = await command(ws, name, **fields)
        assert not answer["success"]
        assert answer["error"]["code"] == "not_found", (name, fields)
        assert answer["error"]["translation_key"] == "memory_not_found"
    [kept] = (await result(ws, "list", client_id="glasses-1"))["memories"]
    assert kept == fact


@pytest.mark.parametrize(
    ("name", "fields"),
    [
        ("add", {"content": "no client"}),
        ("add", {"client_id": " padded ", "content": "x"}),
        ("add", {"client_id": "glasses-1", "store": "episodic", "content": "x"}),
        ("add", {"client_id": "glasses-1", "content": "x", "importance": 2}),
        ("list", {"store": "dreams"}),
        ("list", {"kind": "opinion"}),
        ("list", {"limit": 0}),
        ("update", {"memory_id": 0, "content": "x"}),
        ("update", {"memory_id": 1, "store": "short_term", "content": "x"}),
        ("forget", {}),
        ("export", {}),
    ],
)
async def test_malformed_commands_are_invalid_format(
    ws: MockHAClientWebSocket, name: str, fields: dict[str, Any]
) -> None:
    """What the schema refuses is HA's standard invalid_format."""
    answer = await command(ws, name, **fields)
    assert not answer["success"]
    assert answer["error"]["code"] == "invalid_format"


@pytest.mark.parametrize(
    ("name", "fields", "error"),
    [
        ("add", {"client_id": "glasses-1", "content": "   "}, "content must not be empty"),
        ("add", {"client_id": "glasses-1", "store": "affective", "content": "sad"}, "sentiment"),
        ("list", {"store": "procedural", "kind": "fact"}, "only factual memories have a kind"),
    ],
)
async def test_refused_memories_are_invalid_format_with_the_reason(
    ws: MockHAClientWebSocket, name: str, fields: dict[str, Any], error: str
) -> None:
    """What the memory engine refuses is invalid_format too, with its reason."""
    answer = await command(ws, name, **fields)
    assert not answer["success"]
    assert answer["error"]["code"] == "invalid_format"
    assert error in answer["error"]["translation_placeholders"]["error"]
    assert error in answer["error"]["message"]
    assert (await result(ws, "list", client_id="glasses-1"))["memories"] == []


async def test_bad_correction_is_invalid_format(ws: MockHAClientWebSocket) -> None:
    """A correction the engine refuses is invalid_format; the memory stays as it was."""
    fact = (await result(ws, "add", client_id="glasses-1", content="Léa is 7"))["memory"]
    answer = await command(ws, "update", memory_id=fact["id"], steps=["a"])
    assert answer["error"]["code"] == "invalid_format"
    assert answer["error"]["translation_key"] == "invalid_memory_update"
    assert (await result(ws, "list", client_id="glasses-1"))["memories"] == [fact]


async def test_only_administrators_reach_memories(
    hass: HomeAssistant,
    ws: MockHAClientWebSocket,
    hass_ws_client: WebSocketGenerator,
    hass_read_only_access_token: str,
) -> None:
    """Memories are personal data: a non-admin user gets unauthorized for every command."""
    await result(ws, "add", client_id="glasses-1", content="Léa is 7")
    reader = await hass_ws_client(hass, hass_read_only_access_token)
    for name, fields in CALLS:
        answer = await command(reader, name, **fields)
        assert not answer["success"]
        assert answer["error"]["code"] == "unauthorized", name
    [kept] = (await result(ws, "list", client_id="glasses-1"))["memories"]
    assert kept["content"] == "Léa is 7"


async def test_commands_need_a_loaded_entry(
    hass: HomeAssistant, ws: MockHAClientWebSocket, init_integration: MockConfigEntry
) -> None:
    """After unloading, the commands stay registered and answer not_loaded."""
    await hass.config_entries.async_unload(init_integration.entry_id)
    await hass.async_block_till_done()
    for name, fields in CALLS:
        answer = await command(ws, name, **fields)
        assert not answer["success"]
        assert answer["error"]["code"] == "not_loaded", name
        assert "not loaded" in answer["error"]["message"]


async def test_session_summary_command_and_event(
    hass: HomeAssistant, ws: MockHAClientWebSocket, init_integration: MockConfigEntry
) -> None:
    """not_found before; the bus event and the command carry the summary once it closed."""
    await ws.send_json_auto_id({"type": f"{DOMAIN}/session_summary", "session_id": "trip"})
    answer = await ws.receive_json()
    assert not answer["success"]
    assert answer["error"]["code"] == "not_found"
    events: list[Any] = []
    hass.bus.async_listen("homebuddy_proactive_session_summary", events.append)
    memory = init_integration.runtime_data.engine.memory
    for text in ("We fly to Australia in May.", "The flights are booked.", "We land in Sydney."):
        await memory.observe_turn("c1", "trip", text, speaker="owner", language="en")
    await memory.close_episode("c1", "trip")
    await memory.settle()
    await hass.async_block_till_done()
    assert [event.data["session_id"] for event in events] == ["trip"]
    await ws.send_json_auto_id({"type": f"{DOMAIN}/session_summary", "session_id": "trip"})
    answer = await ws.receive_json()
    assert answer["success"], answer
    assert answer["result"]["session_id"] == "trip"
    assert answer["result"]["summary"] == events[0].data["summary"]
    assert answer["result"]["moments"]
