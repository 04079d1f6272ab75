"""Icons of the entities and actions, read through Home Assistant's own icon loader."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import hass_frontend
import yaml
from homeassistant.core import HomeAssistant
from homeassistant.helpers import entity_registry as er
from homeassistant.helpers.icon import async_get_icons
from pytest_homeassistant_custom_component.common import MockConfigEntry

from custom_components.homebuddy_proactive.const import DOMAIN
from custom_components.homebuddy_proactive.engine.const import INTENTS
from custom_components.homebuddy_proactive.sensor import LLM_STATES

INTEGRATION = Path(__file__).resolve().parents[2] / "custom_components" / DOMAIN
ICON_RE = re.compile(r"mdi:[a-z0-9-]+")


def known_icons() -> set[str]:
    """Every Material Design icon the installed Home Assistant frontend can draw."""
    listed = json.loads(
        (Path(hass_frontend.where()) / "static" / "mdi" / "iconList.json").read_text("utf-8")
    )
    return {f"mdi:{icon['name']}" for icon in listed}


def icons_in(value: Any) -> list[str]:
    """Every icon of an icons.json section."""
    if isinstance(value, dict):
        return [icon for item in value.values() for icon in icons_in(item)]
    return [value]


async def test_every_entity_has_an_icon(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Each translated entity has a default icon; insight kinds and model states have theirs."""
    icons = (await async_get_icons(hass, "entity", [DOMAIN]))[DOMAIN]
    strings = json.loads((INTEGRATION / "translations" / "en.json").read_text("utf-8"))
    described = {
        (platform, key) for platform, entities in strings["entity"].items() for key in entities
    }
    with_icons = {(platform, key) for platform, entities in icons.items() for key in entities}
    assert with_icons == described
    for platform, key in described:
        assert icons[platform][key]["default"], (platform, key)
    insight = icons["event"]["insight"]["state_attributes"]["event_type"]["state"]
    assert set(insight) == set(INTENTS)
    assert set(icons["sensor"]["llm_status"]["state"]) == set(LLM_STATES)
    # Every entity the integration creates is one of those.
    created = {
        (entry.domain, entry.translation_key)
        for entry in er.async_entries_for_config_entry(
            er.async_get(hass), init_integration.entry_id
        )
    }
    assert created <= with_icons
    assert {platform for platform, _ in created} == {
        "ai_task",
        "binary_sensor",
        "conversation",
        "event",
        "sensor",
        "todo",
    }


async def test_every_action_has_an_icon(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Each registered action, all described in services.yaml, has an icon."""
    icons = (await async_get_icons(hass, "services", [DOMAIN]))[DOMAIN]
    declared = yaml.safe_load((INTEGRATION / "services.yaml").read_text("utf-8"))
    registered = hass.services.async_services_for_domain(DOMAIN)
    assert set(registered) == set(declared) == set(icons)
    assert all(icons[service]["service"] for service in registered)


def test_every_icon_is_a_material_design_icon() -> None:
    """No typo: the frontend knows every icon named in icons.json."""
    icons = json.loads((INTEGRATION / "icons.json").read_text("utf-8"))
    named = icons_in(icons)
    assert len(named) > 20
    assert all(ICON_RE.fullmatch(icon) for icon in named), named
    assert set(named) <= known_icons(), set(named) - known_icons()
