"""Config, options and reconfigure flows, against a real fake Ollama on 127.0.0.1."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import voluptuous as vol
from aiohttp import web
from homeassistant.config_entries import SOURCE_USER, ConfigEntryState
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResult, FlowResultType, InvalidData, UnknownFlow
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.homebuddy_proactive.config_flow import ENTRY_TITLE
from custom_components.homebuddy_proactive.const import (
    CONF_ACTIONS_PER_MINUTE,
    CONF_ALLOWED_DOMAINS,
    CONF_DETECTOR_MODE,
    CONF_EMBEDDING_MODEL,
    CONF_MEMORY_LINKS,
    CONF_MODEL,
    CONF_NEWS_URL,
    CONF_URL,
    CONF_WEATHER_ENTITY,
    DEFAULT_ALLOWED_DOMAINS,
    DEFAULT_URL,
    DOMAIN,
)
from custom_components.homebuddy_proactive.engine.config import TUNING_SETTINGS, default_tuning
from custom_components.homebuddy_proactive.engine.const import (
    DETECTOR_CONVERSATE,
    DETECTOR_HEURISTIC,
    DETECTOR_HYBRID,
    DETECTOR_MODES,
)
from custom_components.homebuddy_proactive.options_flow import OPTION_FIELDS, OPTION_SECTIONS
from tests.fake_ollama import FakeOllama

from .conftest import MODEL
from .options_form import field_keys, field_selector, filled, shown

TRANSLATIONS = Path(__file__).parents[2] / "custom_components" / DOMAIN / "translations"
# The options besides the tuning values and the detector mode, at their defaults.
DEFAULT_OPTIONS: dict[str, Any] = {
    CONF_EMBEDDING_MODEL: "",
    CONF_ALLOWED_DOMAINS: list(DEFAULT_ALLOWED_DOMAINS),
    CONF_ACTIONS_PER_MINUTE: 10,
    "alarm_speaker": "",
    "speakers": "",
    "ring_repeat_seconds": 60,
    "rings": 5,
    CONF_WEATHER_ENTITY: "",
    CONF_NEWS_URL: "",
    CONF_MEMORY_LINKS: "",
}


@dataclass
class GarbledTagsOllama(FakeOllama):
    """A fake Ollama whose model list is not JSON until ``garbled`` is cleared."""

    garbled: bool = True

    async def _tags(self, request: web.Request) -> web.Response:
        if self.garbled:
            return web.Response(text="<html>not json", content_type="application/json")
        return await super()._tags(request)


class GarbledShowOllama(FakeOllama):
    """A fake Ollama whose model details are not in Ollama's shape."""

    async def _show(self, request: web.Request) -> web.Response:
        return web.json_response({"capabilities": "all of them"})


def _marker(result: FlowResult, key: str) -> vol.Marker:
    """Return the schema marker of one form field."""
    return next(marker for marker in result["data_schema"].schema if marker == key)


def _default(result: FlowResult, key: str) -> Any:
    """Return the value a form field starts with: its suggested value, else its default."""
    marker = _marker(result, key)
    if marker.description and "suggested_value" in marker.description:
        return marker.description["suggested_value"]
    return marker.default()


def _dropdown(result: FlowResult, key: str) -> list[str]:
    """Return the options of a select field."""
    return list(result["data_schema"].schema[_marker(result, key)].config["options"])


async def _start_user_flow(hass: HomeAssistant) -> FlowResult:
    return await hass.config_entries.flow.async_init(DOMAIN, context={"source": SOURCE_USER})


async def _unreachable_menu(hass: HomeAssistant, result: FlowResult, url: str) -> FlowResult:
    """Submit an unreachable ``url``; return the menu that follows."""
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_URL: url})
    assert result["type"] is FlowResultType.MENU
    assert result["step_id"] == "unreachable"
    assert result["menu_options"] == ["user", "without_model"]
    assert result["description_placeholders"] == {"url": url}
    return result


async def _finish_model_step(hass: HomeAssistant, result: FlowResult) -> FlowResult:
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "model"
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_MODEL: MODEL, CONF_DETECTOR_MODE: DETECTOR_CONVERSATE}
    )
    await hass.async_block_till_done()
    return result


async def test_user_flow_offers_the_url_that_answers(
    hass: HomeAssistant, fake_ollama: FakeOllama, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The URL field offers HOMEBUDDY_OLLAMA_URL (scripts/develop's dev model) when it lists
    models, and Ollama's default when it does not answer or is not a URL."""
    monkeypatch.setenv("HOMEBUDDY_OLLAMA_URL", f"{fake_ollama.url}/")
    result = await _start_user_flow(hass)
    assert _default(result, CONF_URL) == fake_ollama.url
    hass.config_entries.flow.async_abort(result["flow_id"])

    await fake_ollama.stop()
    result = await _start_user_flow(hass)
    assert _default(result, CONF_URL) == DEFAULT_URL
    hass.config_entries.flow.async_abort(result["flow_id"])

    monkeypatch.setenv("HOMEBUDDY_OLLAMA_URL", "not a url")
    result = await _start_user_flow(hass)
    assert _default(result, CONF_URL) == DEFAULT_URL


async def test_user_flow_creates_a_working_entry(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """The URL is checked, the server's chat models are offered (not its embedding models)
    and the entry is set up."""
    fake_ollama.embedding_models = ["nomic-embed-text"]
    result = await _start_user_flow(hass)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    assert result["errors"] == {}
    assert _default(result, CONF_URL) == DEFAULT_URL

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: f"  {fake_ollama.url}  "}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "model"
    assert _dropdown(result, CONF_MODEL) == sorted(fake_ollama.models)
    assert _default(result, CONF_MODEL) == sorted(fake_ollama.models)[0]
    assert _dropdown(result, CONF_DETECTOR_MODE) == list(DETECTOR_MODES)
    assert _default(result, CONF_DETECTOR_MODE) == DETECTOR_CONVERSATE

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_MODEL: "qwen3:4b", CONF_DETECTOR_MODE: DETECTOR_HYBRID}
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["title"] == ENTRY_TITLE
    assert result["data"] == {
        CONF_URL: fake_ollama.url,
        CONF_MODEL: "qwen3:4b",
        CONF_DETECTOR_MODE: DETECTOR_HYBRID,
    }
    entry = result["result"]
    assert entry.state is ConfigEntryState.LOADED


async def test_model_must_come_from_the_server(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """A model name the server did not list is refused by the form."""
    result = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    with pytest.raises(InvalidData):
        await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_MODEL: "not-pulled:7b", CONF_DETECTOR_MODE: DETECTOR_HYBRID}
        )


async def test_user_flow_server_error_then_recovers(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """An HTTP error offers trying again; the form keeps the typed URL, and a retry succeeds."""
    fake_ollama.tags_status = 500
    result = await _start_user_flow(hass)
    result = await _unreachable_menu(hass, result, fake_ollama.url)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "user"}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    assert _default(result, CONF_URL) == fake_ollama.url

    fake_ollama.tags_status = 200
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    result = await _finish_model_step(hass, result)
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"][CONF_URL] == fake_ollama.url


async def test_user_flow_nothing_listening_then_recovers(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """A refused connection offers trying again; the corrected URL is accepted."""
    async with FakeOllama() as gone:
        dead_url = gone.url
    result = await _start_user_flow(hass)
    result = await _unreachable_menu(hass, result, dead_url)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {"next_step_id": "user"}
    )
    assert _default(result, CONF_URL) == dead_url

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    result = await _finish_model_step(hass, result)
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert result["data"][CONF_URL] == fake_ollama.url


@pytest.mark.parametrize(
    "typed",
    ["http://127.0.0.1:11434http://127.0.0.1:11999", "http://127.0.0.1:99999", "127.0.0.1:11434"],
    ids=["two_addresses_run_together", "port_out_of_range", "no_scheme"],
)
async def test_user_flow_malformed_url_is_named_on_its_field(
    hass: HomeAssistant, fake_ollama: FakeOllama, caplog: pytest.LogCaptureFixture, typed: str
) -> None:
    """An address typed wrong is refused on its field, kept in the form, and logs nothing."""
    result = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(result["flow_id"], {CONF_URL: typed})
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "user"
    assert result["errors"] == {CONF_URL: "invalid_url"}
    assert _default(result, CONF_URL) == typed
    assert "Traceback" not in caplog.text
    assert "Unexpected error" not in caplog.text

    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    result = await _finish_model_step(hass, result)
    assert result["type"] is FlowResultType.CREATE_ENTRY


@pytest.mark.usefixtures("socket_enabled")
async def test_model_details_out_of_shape_offer_every_model(hass: HomeAssistant) -> None:
    """Details of the models that cannot be read say nothing: every model is offered."""
    async with GarbledShowOllama(models=[MODEL], embedding_models=["nomic-embed-text"]) as odd:
        result = await _start_user_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: odd.url}
        )
        assert result["step_id"] == "model"
        assert _dropdown(result, CONF_MODEL) == [MODEL, "nomic-embed-text"]


@pytest.mark.usefixtures("socket_enabled")
async def test_user_flow_unexpected_answer_then_recovers(
    hass: HomeAssistant, caplog: pytest.LogCaptureFixture
) -> None:
    """A server answering something that is not JSON shows unknown and logs the error."""
    async with GarbledTagsOllama(models=[MODEL]) as garbled:
        result = await _start_user_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: garbled.url}
        )
        assert result["type"] is FlowResultType.FORM
        assert result["errors"] == {"base": "unknown"}
        assert _default(result, CONF_URL) == garbled.url
        assert "Unexpected error while listing the Ollama models" in caplog.text

        garbled.garbled = False
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: garbled.url}
        )
        result = await _finish_model_step(hass, result)
        assert result["type"] is FlowResultType.CREATE_ENTRY
        assert result["data"][CONF_URL] == garbled.url
        # Unload while the server still runs, so the entry's own shutdown is not disturbed.
        assert await hass.config_entries.async_unload(result["result"].entry_id)


async def test_a_server_with_only_embedding_models_has_no_chat_model(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """A server with embedding models only is refused with words that say so."""
    fake_ollama.models = []
    fake_ollama.embedding_models = ["nomic-embed-text"]
    result = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "no_chat_models"}


async def test_user_flow_server_without_models(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """A server with no models is refused until a model is pulled."""
    fake_ollama.models = []
    result = await _start_user_flow(hass)
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    assert result["type"] is FlowResultType.FORM
    assert result["errors"] == {"base": "no_models"}

    fake_ollama.models = [MODEL]
    result = await hass.config_entries.flow.async_configure(
        result["flow_id"], {CONF_URL: fake_ollama.url}
    )
    assert _dropdown(result, CONF_MODEL) == [MODEL]
    result = await _finish_model_step(hass, result)
    assert result["type"] is FlowResultType.CREATE_ENTRY


async def test_second_setup_is_aborted(
    hass: HomeAssistant, mock_config_entry: MockConfigEntry
) -> None:
    """Only one HomeBuddy Proactive entry can exist."""
    mock_config_entry.add_to_hass(hass)
    result = await _start_user_flow(hass)
    assert result["type"] is FlowResultType.ABORT
    assert result["reason"] == "single_instance_allowed"


async def test_second_dialog_closes_when_the_first_entry_is_created(
    hass: HomeAssistant, fake_ollama: FakeOllama
) -> None:
    """Two setup dialogs open at once: finishing one closes the other."""
    first = await _start_user_flow(hass)
    second = await _start_user_flow(hass)
    second = await hass.config_entries.flow.async_configure(
        second["flow_id"], {CONF_URL: fake_ollama.url}
    )
    first = await hass.config_entries.flow.async_configure(
        first["flow_id"], {CONF_URL: fake_ollama.url}
    )
    result = await _finish_model_step(hass, first)
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert hass.config_entries.flow.async_progress_by_handler(DOMAIN) == []
    with pytest.raises(UnknownFlow):
        await _finish_model_step(hass, second)
    assert len(hass.config_entries.async_entries(DOMAIN)) == 1


async def test_options_form_starts_from_defaults_and_saves_typed_values(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Every tuning value is offered; saved values are typed and reload the entry."""
    entry = init_integration
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "init"
    assert sorted(field_keys(result)) == sorted(
        [CONF_DETECTOR_MODE, *(setting.key for setting in TUNING_SETTINGS), *DEFAULT_OPTIONS]
    )
    for setting in TUNING_SETTINGS:
        assert shown(result, setting.key) == setting.default
        selector = field_selector(result, setting.key)
        assert selector.config["min"] == setting.minimum
        assert selector.config["max"] == setting.maximum
        assert selector.config["step"] == setting.step
        assert selector.config["mode"] == "box"
    # The detector mode chosen at setup is the starting point.
    assert shown(result, CONF_DETECTOR_MODE) == DETECTOR_HEURISTIC

    wanted = {
        **default_tuning(),
        CONF_DETECTOR_MODE: DETECTOR_CONVERSATE,
        "detector_threshold": 0.8,
        "insight_cooldown_seconds": 30.0,
        "insight_target_characters": 120.0,
        "insight_max_characters": 120.0,
        "memory_result_limit": 0.0,
    }
    result = await hass.config_entries.options.async_configure(result["flow_id"], filled(wanted))
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options == {**wanted, **DEFAULT_OPTIONS}
    for setting in TUNING_SETTINGS:
        expected_type = int if setting.integer else float
        assert type(entry.options[setting.key]) is expected_type, setting.key
    assert entry.state is ConfigEntryState.LOADED

    # Opening the options again starts from what was saved.
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert shown(result, "detector_threshold") == 0.8
    assert shown(result, "insight_cooldown_seconds") == 30
    assert shown(result, CONF_DETECTOR_MODE) == DETECTOR_CONVERSATE


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        (
            {"insight_cooldown_seconds": 20.5},
            {"insight_cooldown_seconds": "range_insight_cooldown_seconds"},
        ),
        ({"transcript_max_items": 12.25}, {"transcript_max_items": "range_transcript_max_items"}),
        ({"detector_threshold": math.nan}, {"detector_threshold": "range_detector_threshold"}),
        (
            {"insight_target_characters": 300, "insight_max_characters": 200},
            {"insight_max_characters": "max_below_target"},
        ),
    ],
    ids=["fractional_seconds", "fractional_count", "not_a_number", "max_below_target"],
)
async def test_options_errors_keep_the_form_and_recover(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    changes: dict[str, Any],
    errors: dict[str, str],
) -> None:
    """Invalid values are asked for again, alone, with what was typed and their error; nothing
    is saved until they are fixed, and then every other value is saved as typed."""
    entry = init_integration
    result = await hass.config_entries.options.async_init(entry.entry_id)
    typed = {**default_tuning(), CONF_DETECTOR_MODE: DETECTOR_HYBRID, **changes}
    result = await hass.config_entries.options.async_configure(result["flow_id"], filled(typed))
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "fix"
    assert result["errors"] == errors
    assert [str(marker) for marker in result["data_schema"].schema] == list(errors)
    for key in errors:
        typed_back = shown(result, key)
        assert typed_back == typed[key] or (math.isnan(typed[key]) and math.isnan(typed_back))
    assert entry.options == {}

    fixed = {key: default_tuning()[key] for key in errors}
    if "insight_max_characters" in fixed:  # at least the target typed in the first form
        fixed["insight_max_characters"] = typed["insight_target_characters"]
    result = await hass.config_entries.options.async_configure(result["flow_id"], fixed)
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options == {**typed, **fixed, **DEFAULT_OPTIONS}


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("detector_threshold", 1.5),
        ("partial_insight_interval_ms", 50),
        ("ollama_timeout_seconds", 0),
    ],
)
async def test_options_out_of_range_is_refused(
    hass: HomeAssistant, init_integration: MockConfigEntry, key: str, value: float
) -> None:
    """Values outside a setting's range never reach the entry: the field is asked for again
    alone (a short form: its error is in view after Submit), the error names it."""
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        filled({**default_tuning(), CONF_DETECTOR_MODE: DETECTOR_CONVERSATE, key: value}),
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "fix"
    assert result["errors"] == {key: f"range_{key}"}
    assert [str(marker) for marker in result["data_schema"].schema] == [key]
    assert shown(result, key) == value
    assert init_integration.options == {}


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("fr", "Pause entre les fiches : un nombre entier entre 0 et 3\u202f600 s."),
        ("en", "Card cooldown: a whole number from 0 to 3,600 s."),
        ("el", "Παύση μεταξύ καρτών: ακέραιος αριθμός από 0 έως 3.600 s."),
    ],
)
async def test_a_range_error_reads_with_its_field_and_range(
    hass: HomeAssistant, init_integration: MockConfigEntry, language: str, message: str
) -> None:
    """99999 in the card cooldown: the error, as the frontend fills it in the home's language,
    names the field and its range."""
    hass.config.language = language
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        filled(
            {
                **default_tuning(),
                CONF_DETECTOR_MODE: DETECTOR_CONVERSATE,
                "insight_cooldown_seconds": 99999,
            }
        ),
    )
    error = result["errors"]["insight_cooldown_seconds"]
    text = json.loads((TRANSLATIONS / f"{language}.json").read_text())["options"]["error"][error]
    assert text.format(**result["description_placeholders"]) == message


def test_every_number_option_has_a_range_error_in_every_language() -> None:
    """Each number field's error names its label and both ends of its range, in each
    translation; no other error is left without a translation."""
    for path in sorted(TRANSLATIONS.glob("*.json")):
        options = json.loads(path.read_text())["options"]
        labels = {
            key: label
            for part in options["step"]["init"]["sections"].values()
            for key, label in part["data"].items()
        }
        for option in OPTION_FIELDS:
            if option.range is None and not option.error:
                continue
            text = options["error"][option.error_key]
            if option.range is not None:
                assert text.startswith(labels[option.key]), (path.name, option.key)
                for end in ("min", "max"):
                    assert f"{{{option.key}_{end}}}" in text, (path.name, option.key)
        assert "invalid_range" not in options["error"], path.name


async def test_reconfigure_moves_to_another_server(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """A new URL is checked, its models offered, and the detector mode kept."""
    entry = init_integration
    async with FakeOllama(models=["mistral:7b", MODEL]) as other:
        result = await entry.start_reconfigure_flow(hass)
        assert result["type"] is FlowResultType.FORM
        assert result["step_id"] == "reconfigure"
        assert _default(result, CONF_URL) == entry.data[CONF_URL]

        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: other.url}
        )
        assert result["type"] is FlowResultType.FORM
        assert result["step_id"] == "reconfigure_model"
        assert _dropdown(result, CONF_MODEL) == ["llama3.2:3b", "mistral:7b"]
        # The current model stays selected when the new server has it too.
        assert _default(result, CONF_MODEL) == MODEL

        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_MODEL: "mistral:7b"}
        )
        await hass.async_block_till_done()
        assert result["type"] is FlowResultType.ABORT
        assert result["reason"] == "reconfigure_successful"
        assert entry.data == {
            CONF_URL: other.url,
            CONF_MODEL: "mistral:7b",
            CONF_DETECTOR_MODE: DETECTOR_HEURISTIC,
        }
        assert entry.state is ConfigEntryState.LOADED
        assert other.tag_requests >= 1
        # Unload while the new server still runs.
        assert await hass.config_entries.async_unload(entry.entry_id)


@pytest.mark.parametrize(
    ("broken", "error"),
    [({"tags_status": 500}, "cannot_connect"), ({"models": []}, "no_models")],
)
async def test_reconfigure_error_then_recovers(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    broken: dict[str, Any],
    error: str,
) -> None:
    """A bad new server leaves the entry untouched until a good answer comes."""
    entry = init_integration
    before = dict(entry.data)
    async with FakeOllama(**{"models": ["phi4:14b"], **broken}) as other:
        result = await entry.start_reconfigure_flow(hass)
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: other.url}
        )
        assert result["type"] is FlowResultType.FORM
        assert result["step_id"] == "reconfigure"
        assert result["errors"] == {"base": error}
        assert _default(result, CONF_URL) == other.url
        assert entry.data == before

        other.tags_status = 200
        other.models = ["phi4:14b"]
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_URL: other.url}
        )
        assert result["step_id"] == "reconfigure_model"
        # The old model is not on the new server: the first listed one is proposed.
        assert _default(result, CONF_MODEL) == "phi4:14b"
        result = await hass.config_entries.flow.async_configure(
            result["flow_id"], {CONF_MODEL: "phi4:14b"}
        )
        await hass.async_block_till_done()
        assert result["reason"] == "reconfigure_successful"
        assert entry.data[CONF_URL] == other.url
        assert entry.data[CONF_MODEL] == "phi4:14b"
        assert await hass.config_entries.async_unload(entry.entry_id)


def _keys(tree: Any, prefix: str = "") -> set[str]:
    """Return the dotted paths of every leaf of a translation tree."""
    if not isinstance(tree, dict):
        return {prefix}
    return {path for key, value in tree.items() for path in _keys(value, f"{prefix}{key}.")}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_every_flow_string_is_translated(language: str) -> None:
    """Each field, error, abort and detector mode of the flows has text, in every language."""
    strings = json.loads((TRANSLATIONS / f"{language}.json").read_text(encoding="utf-8"))
    config, options = strings["config"], strings["options"]
    for step in ("user", "reconfigure"):
        assert config["step"][step]["data"][CONF_URL]
        assert config["step"][step]["data_description"][CONF_URL]
    model_steps = {"model": (CONF_MODEL, CONF_DETECTOR_MODE), "reconfigure_model": (CONF_MODEL,)}
    for step, keys in model_steps.items():
        for key in keys:
            assert config["step"][step]["data"][key]
            assert config["step"][step]["data_description"][key]
    for error in ("cannot_connect", "unknown", "no_models", "no_chat_models"):
        assert config["error"][error]
    for reason in ("reconfigure_successful", "single_instance_allowed"):
        assert config["abort"][reason]
    init = options["step"]["init"]
    assert set(init["sections"]) == {part.key for part in OPTION_SECTIONS}
    for part in OPTION_SECTIONS:
        texts = init["sections"][part.key]
        assert texts["name"]
        assert texts["description"]
        assert set(texts["data"]) == set(part.fields)
        assert set(texts["data_description"]) == set(part.fields)
    assert {key for part in OPTION_SECTIONS for key in part.fields} == {
        option.key for option in OPTION_FIELDS
    }
    assert config["step"]["unreachable"]["menu_options"]["without_model"]
    for error in ("range_insight_cooldown_seconds", "max_below_target"):
        assert options["error"][error]
    fix = options["step"]["fix"]
    assert fix["title"] and fix["description"]
    assert set(fix["data"]) == {option.key for option in OPTION_FIELDS}
    assert set(strings["selector"][CONF_DETECTOR_MODE]["options"]) == set(DETECTOR_MODES)


def test_languages_have_the_same_strings() -> None:
    """French carries exactly the English keys, so no label falls back to a raw key."""
    english = json.loads((TRANSLATIONS / "en.json").read_text(encoding="utf-8"))
    french = json.loads((TRANSLATIONS / "fr.json").read_text(encoding="utf-8"))
    assert _keys(french) == _keys(english)
