"""Loaded at start-up by a subprocess whose PYTHONPATH holds this folder: Home Assistant and
the integration's HA glue become unimportable, so the process proves it runs without them.

``HA_BLOCKER_ALSO`` (comma-separated top-level names) blocks more: an optional dependency, to
show the process runs without it.

Every blocked attempt is also written to stderr, so a test sees one even if some code swallowed
the ImportError.
"""

from __future__ import annotations

import os
import sys
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from types import ModuleType

BLOCKED = ("homeassistant", "custom_components")
OPTIONAL = tuple(filter(None, os.environ.get("HA_BLOCKER_ALSO", "").split(",")))


class BlockHomeAssistant(MetaPathFinder):
    """Refuse to find ``homeassistant`` and ``custom_components`` (the HA package),
    and the optional names of ``HA_BLOCKER_ALSO``."""

    def find_spec(
        self,
        fullname: str,
        path: object = None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        """Raise ImportError for a blocked name; let every other import through."""
        top = fullname.partition(".")[0]
        if top in BLOCKED:
            sys.stderr.write(f"HA-BLOCKER: refused import of {fullname}\n")
            raise ImportError(f"{fullname} is blocked: the standalone server must not import it")
        if top in OPTIONAL:
            sys.stderr.write(f"OPTIONAL-BLOCKER: refused import of {fullname}\n")
            raise ImportError(f"{fullname} is blocked: the process must run without it")
        return None


sys.meta_path.insert(0, BlockHomeAssistant())
