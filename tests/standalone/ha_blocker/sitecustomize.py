"""Loaded at start-up by a subprocess whose PYTHONPATH holds this folder: Home Assistant and
the integration's HA glue become unimportable, so the process proves it runs without them.

Every blocked attempt is also written to stderr, so a test sees one even if some code swallowed
the ImportError.
"""

from __future__ import annotations

import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

BLOCKED = ("homeassistant", "custom_components")


class BlockHomeAssistant(MetaPathFinder):
    """Refuse to find ``homeassistant`` and ``custom_components`` (the HA package)."""

    def find_spec(
        self,
        fullname: str,
        path: object = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Raise ImportError for a blocked name; let every other import through."""
        if fullname.partition(".")[0] in BLOCKED:
            sys.stderr.write(f"HA-BLOCKER: refused import of {fullname}\n")
            raise ImportError(f"{fullname} is blocked: the standalone server must not import it")
        return None


sys.meta_path.insert(0, BlockHomeAssistant())
