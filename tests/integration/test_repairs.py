"""The "no model chosen" repair is fixed from Repairs: Fix lists the chat models, picks one."""

from __future__ import annotations

from homeassistant.components.repairs import repairs_flow_manager
from homeassistant.config_entries import ConfigEntryState
from homeassistant.const import CONF_URL
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType
from homeassistant.helpers import issue_registry as ir
from homeassistant.setup import async_setup_component
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.homebuddy_proactive.const import (
    CONF_DETECTOR_MODE,
    CONF_MODEL,
    DOMAIN,
    ISSUE_NO_MODEL,
)
from custom_components.homebuddy_proactive.engine.const import DETECTOR_HEURISTIC
from tests.fake_ollama import FakeOllama

from .conftest import MODEL, set_up_entry


async def _entry_without_a_model(hass: HomeAssistant, url: str) -> MockConfigEntry:
    """An entry as "continue without the model" creates it, set up, with Repairs loaded."""
    assert await async_setup_component(hass, "repairs", {})
    entry = MockConfigEntry(
        domain=DOMAIN,
        data={CONF_URL: url, CONF_MODEL: "", CONF_DETECTOR_MODE: DETECTOR_HEURISTIC},
    )
    assert await set_up_entry(hass, entry)
    issue = ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_NO_MODEL)
    assert issue is not None
    assert issue.is_fixable
    return entry


def _options(result: dict[str, object]) -> list[str]:
    schema = result["data_schema"].schema  # type: ignore[attr-defined]
    (marker,) = schema
    return list(schema[marker].config["options"])


async def test_fix_picks_one_of_the_chat_models_and_the_repair_goes(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """Fix lists the server's chat models (not its embedding models); the one picked is the
    entry's model after a reload, and the repair is gone."""
    fake_ollama.embedding_models = ["nomic-embed-text"]
    entry = await _entry_without_a_model(hass, fake_ollama.url)
    flows = repairs_flow_manager(hass)
    assert flows is not None

    result = await flows.async_init(DOMAIN, data={"issue_id": ISSUE_NO_MODEL})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "model"
    assert _options(result) == sorted(fake_ollama.models)
    result = await flows.async_configure(result["flow_id"], {CONF_MODEL: MODEL})
    await hass.async_block_till_done()

    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.data[CONF_MODEL] == MODEL
    assert entry.data[CONF_URL] == fake_ollama.url
    assert entry.state is ConfigEntryState.LOADED
    assert entry.runtime_data.model.model == MODEL
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_NO_MODEL) is None


async def test_fix_says_why_while_ollama_is_down_and_tries_again(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """With Ollama down, Fix names the error and keeps the repair; submitted again once Ollama
    runs, it offers the models."""
    entry = await _entry_without_a_model(hass, fake_ollama.url)
    await fake_ollama.stop()
    flows = repairs_flow_manager(hass)
    assert flows is not None

    result = await flows.async_init(DOMAIN, data={"issue_id": ISSUE_NO_MODEL})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "init"
    assert result["errors"] == {"base": "cannot_connect"}
    assert result["description_placeholders"] == {"url": fake_ollama.url}

    await fake_ollama.start()
    result = await flows.async_configure(result["flow_id"], {})
    assert result["step_id"] == "model"
    result = await flows.async_configure(result["flow_id"], {CONF_MODEL: "qwen3:4b"})
    await hass.async_block_till_done()
    assert entry.data[CONF_MODEL] == "qwen3:4b"
    assert ir.async_get(hass).async_get_issue(DOMAIN, ISSUE_NO_MODEL) is None
