"""Reading and filling the options forms the way the frontend does: the sectioned form, and
the flat *fix* form that asks again for what could not be saved."""

from __future__ import annotations

from typing import Any

import voluptuous as vol
from homeassistant.data_entry_flow import FlowResult, section

from custom_components.homebuddy_proactive.options_flow import sectioned_options


def sections(result: FlowResult) -> dict[str, section]:
    """The form's sections by key, in order."""
    return {
        str(marker): value
        for marker, value in result["data_schema"].schema.items()
        if isinstance(value, section)
    }


def field_marker(result: FlowResult, key: str) -> vol.Marker:
    """The schema marker of one field, whichever section holds it (or the flat form's)."""
    for marker in result["data_schema"].schema:
        if marker == key:
            return marker
    for part in sections(result).values():
        for marker in part.schema.schema:
            if marker == key:
                return marker
    raise KeyError(key)


def field_selector(result: FlowResult, key: str) -> Any:
    """The selector of one field."""
    for part in sections(result).values():
        for marker, value in part.schema.schema.items():
            if marker == key:
                return value
    raise KeyError(key)


def field_keys(result: FlowResult) -> list[str]:
    """Every field of the form, section after section."""
    return [str(marker) for part in sections(result).values() for marker in part.schema.schema]


def shown(result: FlowResult, key: str) -> Any:
    """The value a field starts with: its suggested value, else its default; None if empty."""
    marker = field_marker(result, key)
    if marker.description and "suggested_value" in marker.description:
        return marker.description["suggested_value"]
    if marker.default is vol.UNDEFINED:
        return None
    return marker.default()


def filled(flat: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Flat values as the frontend sends them: one mapping per section."""
    return sectioned_options(flat)
