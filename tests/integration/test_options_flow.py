"""The options form in sections, and the config flow's path without the model."""

from __future__ import annotations

from typing import Any

from homeassistant.config_entries import SOURCE_RECONFIGURE, SOURCE_USER, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.homebuddy_proactive.const import (
    CONF_ACTIONS_PER_MINUTE,
    CONF_DETECTOR_MODE,
    CONF_EMBEDDING_MODEL,
    CONF_MODEL,
    CONF_URL,
    CONF_WEATHER_ENTITY,
    DOMAIN,
    ISSUE_NO_MODEL,
)
from custom_components.homebuddy_proactive.engine.config import default_tuning
from custom_components.homebuddy_proactive.engine.const import DETECTOR_HEURISTIC
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, config_entry, set_up_entry
from .options_form import field_keys, field_selector, filled, sections, shown


async def test_options_are_shown_in_sections_with_units(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Cards, timing, memory, Assist, then advanced (collapsed); boxes carry their units."""
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    parts = sections(result)
    assert list(parts) == ["cards", "timing", "memory", "assist", "advanced"]
    assert [part.options["collapsed"] for part in parts.values()] == [
        False,
        False,
        False,
        False,
        True,
    ]
    assert field_selector(result, "insight_cooldown_seconds").config["unit_of_measurement"] == "s"
    assert field_selector(result, "partial_insight_interval_ms").config["unit_of_measurement"] == (
        "ms"
    )
    assert field_selector(result, "ollama_timeout_seconds").config["max"] == 600


async def test_sectioned_input_is_stored_flat_and_read_by_the_engine(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """What the sections send is stored as flat keys; the reloaded engine uses them."""
    entry = init_integration
    result = await hass.config_entries.options.async_init(entry.entry_id)
    wanted = {
        **default_tuning(),
        CONF_DETECTOR_MODE: DETECTOR_HEURISTIC,
        "insight_cooldown_seconds": 45,
        "ollama_timeout_seconds": 30,
        CONF_ACTIONS_PER_MINUTE: 4,
    }
    result = await hass.config_entries.options.async_configure(result["flow_id"], filled(wanted))
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options["insight_cooldown_seconds"] == 45
    assert entry.options["ollama_timeout_seconds"] == 30
    assert not any(isinstance(value, dict) for value in entry.options.values())
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.engine.config.insight_cooldown_seconds == 45
    assert entry.runtime_data.model.timeout == 30


async def test_an_out_of_range_value_is_shown_under_its_field(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A timeout of 9000 s: that field is asked for again with its error, nothing saved."""
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    typed = {**default_tuning(), CONF_DETECTOR_MODE: DETECTOR_HEURISTIC}
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], filled({**typed, "ollama_timeout_seconds": 9000})
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "fix"
    assert result["errors"] == {"ollama_timeout_seconds": "range_ollama_timeout_seconds"}
    assert shown(result, "ollama_timeout_seconds") == 9000
    assert init_integration.options == {}


async def test_entries_with_flat_options_keep_working(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """Options saved before the sections (flat keys) load, and the form starts from them."""
    entry = config_entry(
        fake_ollama.url, insight_cooldown_seconds=33, memory_result_limit=2, detector_threshold=0.7
    )
    assert await set_up_entry(hass, entry)
    assert entry.runtime_data.engine.config.insight_cooldown_seconds == 33
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert shown(result, "insight_cooldown_seconds") == 33
    assert shown(result, "memory_result_limit") == 2
    assert shown(result, "detector_threshold") == 0.7


async def test_continue_without_the_model_then_choose_one(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """Ollama down during setup: continue with local rules; Reconfigure later picks a model."""
    await fake_ollama.stop()
    result = await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    assert result["type"] is FlowResultType.MENU
    assert result["step_id"] == "unreachable"
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "without_model"}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"] == {
        CONF_URL: fake_ollama.url,
        CONF_MODEL: "",
        CONF_DETECTOR_MODE: DETECTOR_HEURISTIC,
    }
    (entry,) = hass.config_entries.async_entries(DOMAIN)
    assert entry.state is ConfigEntryState.LOADED
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_NO_MODEL) is not None

    await fake_ollama.start()
    result = await hass.config_entries.flow.async_init(
        DOMAIN, context={"source": SOURCE_RECONFIGURE, "entry_id": entry.entry_id}
    )
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    assert result["step_id"] == "reconfigure_model"
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_MODEL: MODEL})
    await hass.async_block_till_done()
    assert result["reason"] == "reconfigure_successful"
    assert entry.data[CONF_MODEL] == MODEL
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.model.model == MODEL
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_NO_MODEL) is None


async def test_the_form_as_shown_can_be_saved_without_a_weather_entity(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Submitting every field as the form shows it saves, although no weather entity is set.

    The frontend sends back what each field starts with; an empty entity field must start
    empty (the entity selector refuses ""), or no home without a weather entity can save.
    """
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    as_shown: dict[str, Any] = {}
    for key in field_keys(result):
        value = shown(result, key)
        if value is not None:  # a field that starts empty is left out by the frontend
            as_shown[key] = value
    assert CONF_WEATHER_ENTITY not in as_shown
    result = await hass.config_entries.options.async_configure(result["flow_id"], filled(as_shown))
    assert result["type"] is FlowResultType.CREATE_ENTRY


async def test_the_embedding_model_is_chosen_from_the_servers_models(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """None by default; the dropdown lists the server's embedding models (not its chat models);
    the saved choice reaches the reloaded engine, whose memory search then finds a memory by
    meaning."""
    fake_ollama.embedding_models = ["nomic-embed-text"]
    fake_ollama.embedding_words = {"docteur": 1, "médecin": 1}
    entry = config_entry(fake_ollama.url)
    assert await set_up_entry(hass, entry)
    assert entry.runtime_data.engine.config.embedding_model == ""
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert shown(result, CONF_EMBEDDING_MODEL) is None
    assert field_selector(result, CONF_EMBEDDING_MODEL).config["options"] == ["nomic-embed-text"]
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        filled(
            {
                **default_tuning(),
                CONF_DETECTOR_MODE: DETECTOR_HEURISTIC,
                CONF_EMBEDDING_MODEL: "nomic-embed-text",
            }
        ),
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_EMBEDDING_MODEL] == "nomic-embed-text"
    memory = entry.runtime_data.engine.memory
    assert memory.hybrid.embedding_model == "nomic-embed-text"
    await memory.remember("c1", "person", "Mon médecin s'appelle Dupont")
    await memory.settle()
    found = await memory.retrieve("c1", "Qui est le docteur ?", 5)
    assert [r.content for r in found] == ["Mon médecin s'appelle Dupont"]
    assert fake_ollama.embed_requests[-1]["model"] == "nomic-embed-text"

    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert shown(result, CONF_EMBEDDING_MODEL) == "nomic-embed-text"


async def test_a_server_too_old_to_say_what_models_do_offers_them_all(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """An Ollama that does not name its models' capabilities: every model is offered."""
    fake_ollama.embedding_models = ["nomic-embed-text"]
    fake_ollama.capabilities = False
    entry = config_entry(fake_ollama.url)
    assert await set_up_entry(hass, entry)
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert field_selector(result, CONF_EMBEDDING_MODEL).config["options"] == sorted(
        [MODEL, "qwen3:4b", "nomic-embed-text"]
    )
