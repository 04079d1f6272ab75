"""Memory actions in Home Assistant, and the daily memory maintenance schedule."""

from __future__ import annotations

import json
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import yaml
from freezegun.api import FrozenDateTimeFactory
from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.exceptions import ServiceValidationError
from homeassistant.util import dt as dt_util
from pytest_homeassistant_custom_component.common import MockConfigEntry, async_fire_time_changed

from custom_components.homebuddy_proactive.const import DOMAIN
from custom_components.homebuddy_proactive.engine.memory import MemoryEngine
from custom_components.homebuddy_proactive.schema_library import vol

INTEGRATION = Path(__file__).resolve().parents[2] / "custom_components" / DOMAIN
MEMORY_SERVICES = (
    "add_memory",
    "list_memories",
    "update_memory",
    "forget_memory",
    "export_memories",
    "memory_history",
)


async def call(hass: HomeAssistant, service: str, **data: Any) -> Any:
    """Call a memory action and return its response (None for forget_memory)."""
    return await hass.services.async_call(
        DOMAIN,
        service,
        data,
        blocking=True,
        return_response=service != "forget_memory",
    )


def memory_of(entry: MockConfigEntry) -> MemoryEngine:
    """The loaded entry's memory engine."""
    engine: MemoryEngine = entry.runtime_data.engine.memory
    return engine


async def test_every_store_can_be_added_listed_and_forgotten(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Facts, procedures and feelings are added; conversation memories are listed too."""
    fact = await call(
        hass, "add_memory", client_id="glasses-1", kind="person", content="Léa is 7", importance=0.9
    )
    assert fact["memory"]["store"] == "factual"
    assert fact["memory"]["content"] == "Léa is 7"
    assert fact["memory"]["importance"] == 0.9
    procedure = await call(
        hass,
        "add_memory",
        client_id="glasses-1",
        store="procedural",
        name="Reset the boiler",
        steps=["Open the panel", "Hold reset"],
        prerequisites="The boiler has power",
        difficulty="easy",
        success_criteria="The flame is lit",
    )
    assert procedure["memory"]["steps"] == ["Open the panel", "Hold reset"]
    assert procedure["memory"]["prerequisites"] == ["The boiler has power"]
    feeling = await call(
        hass,
        "add_memory",
        client_id="glasses-1",
        store="affective",
        content="Talking about the hospital",
        sentiment=-0.6,
        emotions=["anxious"],
        triggers=["hospital"],
    )
    assert feeling["memory"]["sentiment"] == -0.6
    memory = memory_of(init_integration)
    for text in ("The roses need pruning.", "The garden roses are old.", "Roses again."):
        await memory.observe_turn("glasses-1", "s1", text, speaker="Anna")
    await memory.close_episode("glasses-1", "s1")
    await call(hass, "add_memory", client_id="glasses-2", content="not for glasses-1")

    listed = await call(hass, "list_memories", client_id="glasses-1")
    assert listed["client_id"] == "glasses-1"
    stores = [entry["store"] for entry in listed["memories"]]
    assert sorted(stores) == sorted(
        ["factual", "procedural", "affective", "episodic"] + ["short_term"] * 3
    )
    assert "not for glasses-1" not in json.dumps(listed)
    episodes = await call(hass, "list_memories", client_id="glasses-1", store="episodic")
    [episode] = episodes["memories"]
    assert "roses" in episode["summary"]
    assert episode["topics"][0] == "roses"
    limited = await call(hass, "list_memories", client_id="glasses-1", limit=2)
    assert len(limited["memories"]) == 2

    for entry in listed["memories"]:
        await call(hass, "forget_memory", memory_id=entry["id"], store=entry["store"])
    assert (await call(hass, "list_memories", client_id="glasses-1"))["memories"] == []
    assert (await call(hass, "list_memories", client_id="glasses-2"))["memories"] != []


async def test_facts_can_be_listed_by_kind(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A kind keeps the facts of that kind; it makes no sense for other stores."""
    await call(hass, "add_memory", client_id="glasses-1", kind="person", content="Léa is 7")
    await call(hass, "add_memory", client_id="glasses-1", kind="task", content="Call Léa")
    await call(
        hass, "add_memory", client_id="glasses-1", store="procedural", name="Tea", steps=["Boil"]
    )
    tasks = await call(hass, "list_memories", client_id="glasses-1", kind="task")
    assert [m["content"] for m in tasks["memories"]] == ["Call Léa"]
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "list_memories", client_id="glasses-1", store="procedural", kind="task")
    assert err.value.translation_key == "invalid_memory_filter"


async def test_export_has_everything_of_a_client(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """The export carries every store, with the turns of the client's episodes."""
    await call(hass, "add_memory", client_id="glasses-1", content="Léa is 7")
    await memory_of(init_integration).observe_turn("glasses-1", "s1", "Hello Léa", speaker="Anna")
    exported = await call(hass, "export_memories", client_id="glasses-1")
    assert exported["client_id"] == "glasses-1"
    assert set(exported["stores"]) == {
        "factual",
        "episodic",
        "procedural",
        "affective",
        "short_term",
    }
    assert [m["content"] for m in exported["stores"]["factual"]] == ["Léa is 7"]
    [episode] = exported["stores"]["episodic"]
    assert [t["text"] for t in episode["turns"]] == ["Hello Léa"]
    assert [t["content"] for t in exported["stores"]["short_term"]] == ["Hello Léa"]
    json.dumps(exported)  # a response must be plain JSON


def _refusal(err: Exception) -> ServiceValidationError:
    """The translated refusal inside a schema error (the library wraps a field's error)."""
    refused = err.errors[0] if hasattr(err, "errors") else err
    assert isinstance(refused, ServiceValidationError), refused
    assert refused.translation_placeholders is not None
    return refused


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"store": "procedural", "name": "No steps"}, "procedural memories need steps"),
        ({"store": "procedural", "steps": ["a"]}, "procedural memories need name"),
        ({"store": "procedural", "name": "Tea", "steps": [" "]}, "each of steps must not be"),
        ({"store": "affective", "content": "sad"}, "affective memories need sentiment"),
        ({"kind": "fact", "steps": ["a"], "content": "x"}, "factual memories have no steps"),
        ({"content": "   "}, "content must not be empty"),
        ({"content": "x" * 2001}, "at most 2000 characters"),
    ],
)
async def test_invalid_memories_are_translated_errors(
    hass: HomeAssistant, init_integration: MockConfigEntry, data: dict[str, Any], error: str
) -> None:
    """What the action's schema refuses comes back as a translated validation error that is
    also the schema library's error (HA's REST view answers 400 for it)."""
    with pytest.raises(vol.Invalid) as err:
        await call(hass, "add_memory", client_id="glasses-1", **data)
    refused = _refusal(err.value)
    assert refused.translation_key == "invalid_memory"
    assert error in refused.translation_placeholders["error"]


@pytest.mark.parametrize(
    ("service", "data"),
    [
        ("add_memory", {"client_id": " padded ", "content": "x"}),
        ("add_memory", {"client_id": "c", "kind": "opinion", "content": "x"}),
        ("add_memory", {"client_id": "c", "content": "x", "importance": 2}),
        ("add_memory", {"client_id": "c", "store": "episodic", "content": "x"}),
        ("list_memories", {"client_id": "c", "store": "dreams"}),
        ("list_memories", {}),
        ("forget_memory", {"memory_id": 0}),
        ("update_memory", {"memory_id": 0, "content": "x"}),
        ("update_memory", {"memory_id": 1, "store": "short_term", "content": "x"}),
        ("update_memory", {"memory_id": 1, "importance": 2}),
        ("update_memory", {"memory_id": 1, "kind": "opinion"}),
        ("update_memory", {"memory_id": 1, "store": "episodic", "emotional_tone": "furious"}),
        ("update_memory", {"memory_id": 1, "client_id": " padded ", "content": "x"}),
        ("export_memories", {"client_id": "x" * 200}),
    ],
)
async def test_schemas_refuse_bad_data(
    hass: HomeAssistant, init_integration: MockConfigEntry, service: str, data: dict[str, Any]
) -> None:
    """Voluptuous schemas stop malformed calls before the engine."""
    with pytest.raises(vol.Invalid):
        await call(hass, service, **data)


async def test_memories_can_be_corrected(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A corrected memory is returned, listed and found by its new words, in every store."""
    memory = memory_of(init_integration)
    added = (await call(hass, "add_memory", client_id="glasses-1", content="The plumber is Jean"))[
        "memory"
    ]
    updated = await call(
        hass,
        "update_memory",
        memory_id=added["id"],
        client_id="glasses-1",
        content="The electrician is Marcel",
        kind="person",
        importance=0.8,
    )
    assert updated["memory"] == {
        **added,
        "content": "The electrician is Marcel",
        "kind": "person",
        "importance": 0.8,
    }
    listed = await call(hass, "list_memories", client_id="glasses-1")
    assert listed["memories"] == [updated["memory"]]
    assert [r.id for r in await memory.retrieve("glasses-1", "the electrician", 3)] == [added["id"]]
    assert await memory.retrieve("glasses-1", "the plumber Jean", 3) == []
    # Without asking for the response, the change is made all the same.
    assert (
        await hass.services.async_call(
            DOMAIN,
            "update_memory",
            {"memory_id": added["id"], "importance": 0.3},
            blocking=True,
        )
        is None
    )
    assert [m.importance for m in await memory.list("glasses-1")] == [0.3]

    procedure = await call(
        hass,
        "add_memory",
        client_id="glasses-1",
        store="procedural",
        name="Reset the boiler",
        steps=["Hold reset"],
    )
    revised = await call(
        hass,
        "update_memory",
        memory_id=procedure["memory"]["id"],
        store="procedural",
        steps=["Open the panel", "Hold reset for ten seconds"],
        difficulty="medium",
    )
    assert revised["memory"]["steps"] == ["Open the panel", "Hold reset for ten seconds"]
    assert revised["memory"]["difficulty"] == "medium"
    assert revised["memory"]["name"] == "Reset the boiler"
    feeling = await call(
        hass,
        "add_memory",
        client_id="glasses-1",
        store="affective",
        content="Talking about the hospital",
        sentiment=-0.6,
    )
    revised = await call(
        hass,
        "update_memory",
        memory_id=feeling["memory"]["id"],
        store="affective",
        content="Talking about the dentist",
        sentiment=-0.2,
        triggers="dentist",
    )
    assert revised["memory"]["context"] == "Talking about the dentist"
    assert (revised["memory"]["sentiment"], revised["memory"]["triggers"]) == (-0.2, ["dentist"])
    for text in ("The roses need pruning.", "The garden roses are old.", "Roses again."):
        await memory.observe_turn("glasses-1", "s1", text, speaker="Anna")
    await memory.close_episode("glasses-1", "s1")
    [episode] = (await call(hass, "list_memories", client_id="glasses-1", store="episodic"))[
        "memories"
    ]
    revised = await call(
        hass,
        "update_memory",
        memory_id=episode["id"],
        store="episodic",
        content="Anna planned the winter pruning.",
        topics=["pruning"],
        emotional_tone="positive",
    )
    assert revised["memory"]["summary"] == "Anna planned the winter pruning."
    assert revised["memory"]["topics"] == ["pruning"]
    assert revised["memory"]["emotional_tone"] == "positive"
    assert revised["memory"]["summary_source"] == "user"
    json.dumps(revised)  # a response must be plain JSON


@pytest.mark.parametrize(
    ("data", "error"),
    [
        ({"content": "   "}, "content must not be empty"),
        ({"content": "x" * 2001}, "at most 2000 characters"),
        ({}, "nothing to change"),
        ({"steps": ["a"]}, "factual memories have no steps"),
        ({"store": "procedural", "kind": "task"}, "procedural memories have no kind"),
    ],
)
async def test_invalid_corrections_are_translated_errors(
    hass: HomeAssistant, init_integration: MockConfigEntry, data: dict[str, Any], error: str
) -> None:
    """What the schema refuses in a correction comes back as a translated validation error."""
    added = await call(hass, "add_memory", client_id="glasses-1", content="Léa is 7")
    with pytest.raises(vol.Invalid) as err:
        await call(hass, "update_memory", memory_id=added["memory"]["id"], **data)
    refused = _refusal(err.value)
    assert refused.translation_key in ("invalid_memory", "invalid_memory_update")
    assert error in refused.translation_placeholders["error"]
    [unchanged] = (await call(hass, "list_memories", client_id="glasses-1"))["memories"]
    assert unchanged == added["memory"]


async def test_correcting_a_missing_memory_says_so(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """An unknown id, or another client's memory, is a translated not-found error."""
    added = await call(hass, "add_memory", client_id="glasses-1", content="Léa is 7")
    memory_id = added["memory"]["id"]
    for data in (
        {"memory_id": memory_id, "client_id": "glasses-2"},
        {"memory_id": memory_id, "store": "affective"},
        {"memory_id": 12345},
    ):
        with pytest.raises(ServiceValidationError) as err:
            await call(hass, "update_memory", content="Léa is 8", **data)
        assert err.value.translation_key == "memory_not_found"
        assert err.value.translation_placeholders["memory_id"] == str(data["memory_id"])
    [unchanged] = (await call(hass, "list_memories", client_id="glasses-1"))["memories"]
    assert unchanged["content"] == "Léa is 7"


async def test_forgetting_a_missing_memory_says_so(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """An unknown id, or another client's memory, is a translated not-found error."""
    added = await call(hass, "add_memory", client_id="glasses-1", content="Léa is 7")
    with pytest.raises(ServiceValidationError) as err:
        await call(
            hass,
            "forget_memory",
            memory_id=added["memory"]["id"],
            store="factual",
            client_id="glasses-2",
        )
    assert err.value.translation_key == "memory_not_found"
    assert err.value.translation_placeholders == {
        "store": "factual",
        "memory_id": str(added["memory"]["id"]),
    }
    with pytest.raises(ServiceValidationError):
        await call(hass, "forget_memory", memory_id=12345, store="episodic")


async def test_a_facts_history_shows_the_users_edit_and_superseded_facts_stay_apart(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """memory_history: added, then edited by the user (old and new words); a superseded fact
    is listed only on request, with its end of validity."""
    dupont, martin = "My doctor is Dr Dupont", "My doctor is Dr Martin"
    added = (await call(hass, "add_memory", client_id="glasses-1", kind="person", content=dupont))[
        "memory"
    ]
    await call(hass, "update_memory", memory_id=added["id"], content=f"{dupont}, in Lyon")
    history = await call(hass, "memory_history", memory_id=added["id"], client_id="glasses-1")
    assert history["memory"]["content"] == f"{dupont}, in Lyon"
    assert [
        (e["action"], e["source"], e["old_content"], e["new_content"]) for e in history["history"]
    ] == [
        ("added", "home_assistant", None, dupont),
        ("edited", "user", dupont, f"{dupont}, in Lyon"),
    ]
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "memory_history", memory_id=added["id"], client_id="glasses-2")
    assert err.value.translation_key == "memory_not_found"

    newer = (await call(hass, "add_memory", client_id="glasses-1", kind="person", content=martin))[
        "memory"
    ]
    assert await memory_of(init_integration).memories.supersede_fact(
        added["id"], newer["id"], dt_util.utcnow()
    )
    listed = await call(hass, "list_memories", client_id="glasses-1", store="factual")
    assert [m["content"] for m in listed["memories"]] == [martin]
    everything = await call(
        hass, "list_memories", client_id="glasses-1", store="factual", include_superseded=True
    )
    assert {(m["content"], m["current"], m["superseded_by"]) for m in everything["memories"]} == {
        (martin, True, None),
        (f"{dupont}, in Lyon", False, newer["id"]),
    }


async def test_actions_need_a_loaded_entry(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """After unloading, the actions stay registered and fail with a translated error."""
    await hass.config_entries.async_unload(init_integration.entry_id)
    assert init_integration.state is ConfigEntryState.NOT_LOADED
    for service in MEMORY_SERVICES:
        assert hass.services.has_service(DOMAIN, service)
    with pytest.raises(ServiceValidationError) as err:
        await call(hass, "list_memories", client_id="glasses-1")
    assert err.value.translation_key == "memories_unavailable"


async def test_maintenance_runs_at_start_when_due_and_then_daily(
    hass: HomeAssistant,
    mock_config_entry: MockConfigEntry,
    freezer: FrozenDateTimeFactory,
) -> None:
    """A missed daily run happens at start; a recent one is not repeated; then every day."""
    start = dt_util.utcnow()
    mock_config_entry.add_to_hass(hass)
    await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    memory = memory_of(mock_config_entry)
    assert await memory.last_maintenance() == start
    await call(hass, "add_memory", client_id="glasses-1", content="A passing remark")
    await call(hass, "add_memory", client_id="glasses-1", content="Léa is 7", importance=1.0)
    fact_ids = {m.id for m in await memory.list("glasses-1")}

    # A restart an hour later: the last run (kept in the database) is recent.
    await hass.config_entries.async_unload(mock_config_entry.entry_id)
    freezer.tick(timedelta(hours=1))
    await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    memory = memory_of(mock_config_entry)
    assert await memory.last_maintenance() == start

    # Fifteen days on, the daily runs have forgotten the unused remark (its score fell below
    # 0.3 after about 14 days), not yet the important fact (about 18 days).
    for day in range(1, 16):
        freezer.tick(timedelta(days=1))
        async_fire_time_changed(hass)
        await hass.async_block_till_done(wait_background_tasks=True)
        assert await memory.last_maintenance() == start + timedelta(hours=1, days=day)
    remaining = await memory.list("glasses-1")
    assert [m.content for m in remaining] == ["Léa is 7"]
    assert {m.id for m in remaining} < fact_ids

    # Down for two days: the missed run happens at start.
    await hass.config_entries.async_unload(mock_config_entry.entry_id)
    freezer.tick(timedelta(days=2))
    await hass.config_entries.async_setup(mock_config_entry.entry_id)
    await hass.async_block_till_done(wait_background_tasks=True)
    assert await memory_of(mock_config_entry).last_maintenance() == dt_util.utcnow()


def test_every_action_and_field_is_described_in_every_language() -> None:
    """services.yaml, the translations and the selectors' options agree, in en and fr."""
    services = yaml.safe_load((INTEGRATION / "services.yaml").read_text(encoding="utf-8"))
    for language in ("en", "fr"):
        strings = json.loads(
            (INTEGRATION / "translations" / f"{language}.json").read_text(encoding="utf-8")
        )
        for service in MEMORY_SERVICES:
            described = strings["services"][service]
            assert described["name"]
            assert described["description"]
            for field, spec in services[service]["fields"].items():
                assert described["fields"][field]["name"], (language, service, field)
                assert described["fields"][field]["description"], (language, service, field)
                select = spec["selector"].get("select")
                if select:
                    options = strings["selector"][select["translation_key"]]["options"]
                    assert set(select["options"]) <= set(options), (language, field)
        for key in (
            "memories_unavailable",
            "invalid_memory",
            "invalid_memory_update",
            "invalid_memory_filter",
            "memory_not_found",
        ):
            assert strings["exceptions"][key]["message"]
