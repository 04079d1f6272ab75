"""The Assist agent's options: allowed domains, actions a minute, weather entity, news feed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from homeassistant.core import HomeAssistant
from homeassistant.data_entry_flow import FlowResultType, InvalidData
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.homebuddy_proactive.const import (
    ASSIST_DOMAINS,
    CONF_ACTIONS_PER_MINUTE,
    CONF_ALLOWED_DOMAINS,
    CONF_DETECTOR_MODE,
    CONF_MEMORY_LINKS,
    CONF_NEWS_URL,
    CONF_WEATHER_ENTITY,
    DEFAULT_ALLOWED_DOMAINS,
    DOMAIN,
)
from custom_components.homebuddy_proactive.engine.config import ConfigError, default_tuning
from custom_components.homebuddy_proactive.engine.const import DETECTOR_HEURISTIC
from custom_components.homebuddy_proactive.options_flow import OPTION_FIELDS
from custom_components.homebuddy_proactive.speakers import speaker_client

from .options_form import field_selector, filled
from .options_form import shown as _shown

FIELDS = {option.key: option for option in OPTION_FIELDS}


def _base() -> dict[str, Any]:
    return {**default_tuning(), CONF_DETECTOR_MODE: DETECTOR_HEURISTIC}


async def test_assist_options_are_offered_saved_and_shown_again(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Defaults first; chosen values are stored cleaned and typed, and come back in the form."""
    entry = init_integration
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert _shown(result, CONF_ALLOWED_DOMAINS) == list(DEFAULT_ALLOWED_DOMAINS)
    assert _shown(result, CONF_ACTIONS_PER_MINUTE) == 10
    assert _shown(result, CONF_WEATHER_ENTITY) is None  # starts empty
    assert _shown(result, CONF_NEWS_URL) is None
    selector = field_selector(result, CONF_ALLOWED_DOMAINS)
    assert selector.config["options"] == list(ASSIST_DOMAINS)
    assert selector.config["multiple"] is True

    result = await hass.config_entries.options.async_configure(
        result["flow_id"],
        filled(
            {
                **_base(),
                CONF_ALLOWED_DOMAINS: ["lock", "light"],
                CONF_ACTIONS_PER_MINUTE: 5.0,
                CONF_WEATHER_ENTITY: "weather.maison",
                CONF_NEWS_URL: "  https://example.org/rss.xml ",
            }
        ),
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_ALLOWED_DOMAINS] == ["light", "lock"]
    assert entry.options[CONF_ACTIONS_PER_MINUTE] == 5
    assert type(entry.options[CONF_ACTIONS_PER_MINUTE]) is int
    assert entry.options[CONF_WEATHER_ENTITY] == "weather.maison"
    assert entry.options[CONF_NEWS_URL] == "https://example.org/rss.xml"
    assistant = entry.runtime_data.assist
    assert assistant is not None
    assert assistant.allowed_domains == {"light", "lock"}
    assert assistant.rate_limiter.limit == 5
    assert assistant.news is not None and assistant.news.url == "https://example.org/rss.xml"

    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert _shown(result, CONF_ALLOWED_DOMAINS) == ["light", "lock"]
    assert _shown(result, CONF_WEATHER_ENTITY) == "weather.maison"

    # Leaving the optional fields out clears them.
    result = await hass.config_entries.options.async_configure(result["flow_id"], filled(_base()))
    await hass.async_block_till_done()
    assert entry.options[CONF_WEATHER_ENTITY] == ""
    assert entry.options[CONF_NEWS_URL] == ""
    assert entry.options[CONF_ALLOWED_DOMAINS] == ["light", "lock"]


@pytest.mark.parametrize(
    ("changes", "errors"),
    [
        ({CONF_NEWS_URL: "ftp://example.org/feed"}, {CONF_NEWS_URL: "invalid_url"}),
        ({CONF_NEWS_URL: "les nouvelles"}, {CONF_NEWS_URL: "invalid_url"}),
        ({CONF_NEWS_URL: "https://example.org:rss/feed"}, {CONF_NEWS_URL: "invalid_url"}),
        ({CONF_ACTIONS_PER_MINUTE: 2.5}, {CONF_ACTIONS_PER_MINUTE: "range_actions_per_minute"}),
        ({CONF_ACTIONS_PER_MINUTE: 0}, {CONF_ACTIONS_PER_MINUTE: "range_actions_per_minute"}),
        ({CONF_MEMORY_LINKS: "person.lea"}, {CONF_MEMORY_LINKS: "invalid_memory_links"}),
        ({CONF_MEMORY_LINKS: "a = global"}, {CONF_MEMORY_LINKS: "invalid_memory_links"}),
    ],
    ids=[
        "not_http",
        "not_a_url",
        "port_not_a_number",
        "fractional",
        "zero",
        "link_without_client",
        "link_to_global",
    ],
)
async def test_assist_option_errors_keep_the_form(
    hass: HomeAssistant,
    init_integration: MockConfigEntry,
    changes: dict[str, Any],
    errors: dict[str, str],
) -> None:
    """A wrong feed address or a fractional rate is asked for again, alone, with its error;
    nothing is saved."""
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], filled({**_base(), **changes})
    )
    assert result["type"] is FlowResultType.FORM
    assert result["step_id"] == "fix"
    assert result["errors"] == errors
    assert [str(marker) for marker in result["data_schema"].schema] == list(errors)
    assert init_integration.options == {}


async def test_memory_links_are_saved_and_followed(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Links typed in the form are kept as typed and reach the agent's speaker rule."""
    entry = init_integration
    result = await hass.config_entries.options.async_init(entry.entry_id)
    assert _shown(result, CONF_MEMORY_LINKS) is None
    links = "person.lea = glasses-lea\nkitchen-satellite = glasses-paul"
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], filled({**_base(), CONF_MEMORY_LINKS: f"  {links}\n"})
    )
    await hass.async_block_till_done()
    assert result["type"] is FlowResultType.CREATE_ENTRY
    assert entry.options[CONF_MEMORY_LINKS] == links
    links = entry.runtime_data.assist.links
    assert speaker_client(hass, links, None, "kitchen-satellite") == "glasses-paul"
    assert speaker_client(hass, links, None, "hall-satellite") == "assist"


@pytest.mark.parametrize(
    "changes",
    [{CONF_ALLOWED_DOMAINS: ["garage"]}, {CONF_WEATHER_ENTITY: "x"}],
)
async def test_selectors_refuse_what_they_do_not_offer(
    hass: HomeAssistant, init_integration: MockConfigEntry, changes: dict[str, Any]
) -> None:
    """Unknown domains and a malformed entity id never reach the entry."""
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    with pytest.raises(InvalidData):
        await hass.config_entries.options.async_configure(
            result["flow_id"], filled({**_base(), **changes})
        )


def test_domain_validation_beyond_the_selector() -> None:
    """Values are validated again after the selector: unknown domains are refused."""
    validate = FIELDS[CONF_ALLOWED_DOMAINS].validate
    assert validate(("switch", "light")) == ["light", "switch"]
    assert validate([]) == []
    with pytest.raises(ConfigError):
        validate(["light", "garage"])
    assert FIELDS[CONF_ALLOWED_DOMAINS].error == "unknown_domain"


async def test_a_bad_link_names_its_line(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """The error says which line of the links is wrong, in the user's language too."""
    result = await hass.config_entries.options.async_init(init_integration.entry_id)
    links = "person.lea = glasses-lea\nthis is not a linkperson.anna = glasses-anna"
    result = await hass.config_entries.options.async_configure(
        result["flow_id"], filled({**_base(), CONF_MEMORY_LINKS: links})
    )
    assert result["errors"][CONF_MEMORY_LINKS] == "invalid_memory_links"
    assert result["description_placeholders"] == {"line": "2"}
    translations = Path(__file__).parents[2] / "custom_components" / DOMAIN / "translations"
    for code in ("en", "fr", "el"):
        text = json.loads((translations / f"{code}.json").read_text())["options"]["error"][
            "invalid_memory_links"
        ]
        assert "{line}" in text
    assert init_integration.options == {}


async def test_links_stored_before_a_newer_rule_do_not_stop_the_entry(
    hass: HomeAssistant,
    setup_with_options: Any,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Links saved by an older version that a rule added since refuses (a speaker with
    spaces): the entry still loads, every speaker is in the household scope, and the log says
    to correct them."""
    entry = await setup_with_options(**{CONF_MEMORY_LINKS: "person lea = glasses-lea"})
    assert entry.runtime_data.assist.links.client_for(("person lea",)) == "assist"
    assert "Speaker links ignored until corrected in the options" in caplog.text
