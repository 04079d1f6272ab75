"""Diagnostics: configuration, counters and table sizes; never transcripts, memories or tokens."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from homeassistant.components.diagnostics import async_redact_data
from homeassistant.core import HomeAssistant

from .const import CONF_MEMORY_LINKS, CONF_URL
from .models import HomeBuddyConfigEntry

TO_REDACT = {CONF_URL, CONF_MEMORY_LINKS, "text", "client_id", "session_id", "last_error"}


async def async_get_config_entry_diagnostics(
    hass: HomeAssistant, entry: HomeBuddyConfigEntry
) -> dict[str, Any]:
    """Return what helps debugging without personal data."""
    runtime = entry.runtime_data
    engine = runtime.engine
    last_maintenance = await engine.memory.last_maintenance()
    return {
        "entry": async_redact_data(
            {"data": dict(entry.data), "options": dict(entry.options)}, TO_REDACT
        ),
        "engine": {
            "detector_mode": engine.config.detector_mode,
            "active_sessions": engine.active_sessions,
            "stats": asdict(engine.stats),
        },
        "model": {
            "name": runtime.model.model,
            "stats": async_redact_data(asdict(runtime.model.stats), TO_REDACT),
        },
        "store": {
            "schema_version": await runtime.store.schema_version(),
            "rows": await runtime.store.counts(),
        },
        "memory": {
            "rows": await engine.memory.counts(),
            "last_maintenance": last_maintenance.isoformat() if last_maintenance else None,
        },
        "last_insight": async_redact_data(
            {
                "intent": runtime.tally.last.intent,
                "source": runtime.tally.last.source,
                "text": runtime.tally.last.text,
                "client_id": runtime.tally.last.client_id,
            }
            if runtime.tally.last
            else {},
            TO_REDACT,
        ),
    }
