"""The engine's tests: they import ``custom_components.homebuddy_proactive.engine`` and nothing
of Home Assistant, and run in a venv without it (``scripts/test-engine``).

Importing ``custom_components.homebuddy_proactive.engine`` first runs the integration package's
``__init__``, which is Home Assistant code (HA's loader needs ``async_setup_entry`` and the rest
there, so it stays as it is). When Home Assistant is not installed, this package registers
``custom_components.homebuddy_proactive`` in ``sys.modules`` as a bare package over the same
folder, before anything below imports the engine: its submodules (the engine) import from
their files as usual, the integration's ``__init__`` never runs. Python runs this file before
any module of ``tests.engine`` (the conftest included) and before any test module that imports
from it, whatever pytest was asked to run.

With Home Assistant installed (the full suite) nothing is changed: the engine is imported
through the real integration package, as the integration's own tests import it in the same
process.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

INTEGRATION = "custom_components.homebuddy_proactive"
INTEGRATION_DIR = Path(__file__).resolve().parents[2] / "custom_components" / "homebuddy_proactive"


def _integration_package_without_home_assistant() -> None:
    """Register the integration's package without running its ``__init__`` (no HA here)."""
    if INTEGRATION in sys.modules or importlib.util.find_spec("homeassistant") is not None:
        return
    import custom_components  # the namespace package of the repository's folder

    spec = importlib.machinery.ModuleSpec(INTEGRATION, loader=None, is_package=True)
    spec.submodule_search_locations = [str(INTEGRATION_DIR)]
    package = importlib.util.module_from_spec(spec)
    sys.modules[INTEGRATION] = package
    custom_components.homebuddy_proactive = package  # type: ignore[attr-defined]


_integration_package_without_home_assistant()
