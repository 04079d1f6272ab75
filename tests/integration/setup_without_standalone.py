"""Run alone, in a fresh interpreter, by ``test_no_standalone_import.py``; never collected.

Its name does not start with ``test_``, so the suite's own run skips it: in a process shared
with the standalone tests (pytest-xdist workers) the server could already be imported, and the
check below would prove nothing.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

from homeassistant.config_entries import ConfigEntryState
from homeassistant.core import HomeAssistant
from pytest_homeassistant_custom_component.common import MockConfigEntry

import custom_components.homebuddy_proactive as integration

STANDALONE = ".engine.standalone"
MARKER = "HOMEBUDDY-SETUP-MODULES"


def _standalone_modules() -> list[str]:
    return sorted(name for name in sys.modules if STANDALONE in name)


async def test_setup_imports_no_standalone_module(
    hass: HomeAssistant, init_integration: MockConfigEntry
) -> None:
    """Set the integration up, answer one Assist turn, then load every glue module."""
    assert init_integration.state is ConfigEntryState.LOADED
    result = await hass.services.async_call(
        "conversation",
        "process",
        {"text": "Bonjour", "language": "fr", "agent_id": init_integration.entry_id},
        blocking=True,
        return_response=True,
    )
    assert result
    after_setup = _standalone_modules()

    # What Home Assistant may load later by name: config flow, diagnostics, platforms.
    glue = sorted(Path(integration.__file__).parent.glob("*.py"))
    for path in glue:
        if path.stem != "__init__":
            importlib.import_module(f"{integration.__name__}.{path.stem}")
    engine_loaded = sorted(m for m in sys.modules if f"{integration.__name__}.engine." in m)
    print(MARKER, len(glue), "glue modules", len(engine_loaded), "engine modules")

    # The check would be vacuous if the integration's engine had not been imported at all.
    assert f"{integration.__name__}.engine.proactive.engine" in engine_loaded
    assert not after_setup, f"setting the integration up imported {after_setup}"
    assert not _standalone_modules(), f"the glue imports {_standalone_modules()}"
