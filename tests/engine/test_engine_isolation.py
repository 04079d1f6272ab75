"""The engine package never imports Home Assistant (the standalone server runs it without HA)."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "custom_components" / "homebuddy_proactive" / "engine"
ENGINE_PACKAGE = "custom_components.homebuddy_proactive.engine"


def _engine_files() -> list[Path]:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, f"no engine modules under {ENGINE}"
    return files


def _imports_homeassistant(name: str | None) -> bool:
    return name is not None and (name == "homeassistant" or name.startswith("homeassistant."))


def test_no_engine_module_imports_homeassistant() -> None:
    """No import statement in the engine names homeassistant, even inside a function."""
    offenders: list[str] = []
    for path in _engine_files():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                # A relative import (level > 0) stays inside our package.
                names = [node.module or ""] if node.level == 0 else []
            else:
                continue
            offenders.extend(
                f"{path.relative_to(REPO)}:{node.lineno}: {name}"
                for name in names
                if _imports_homeassistant(name)
            )
    assert not offenders, "engine modules import homeassistant:\n" + "\n".join(offenders)


# Imports every engine module without the package's __init__ (which is the HA integration):
# ``custom_components`` and ``custom_components.homebuddy_proactive`` are stood in by empty
# namespace modules, and a meta-path finder raises on any homeassistant import.
_IMPORT_ALL = textwrap.dedent(
    """
    import importlib
    import importlib.util
    import sys
    import types

    engine_dir, package, modules = sys.argv[1], sys.argv[2], sys.argv[3:]


    class NoHomeAssistant:
        def find_spec(self, name, path=None, target=None):
            if name == "homeassistant" or name.startswith("homeassistant."):
                raise ImportError(f"the engine imported {name}")
            return None


    sys.meta_path.insert(0, NoHomeAssistant())
    parents = package.split(".")[:-1]
    for depth in range(1, len(parents) + 1):
        stub = types.ModuleType(".".join(parents[:depth]))
        stub.__path__ = []
        sys.modules[stub.__name__] = stub
    spec = importlib.util.spec_from_file_location(
        package, f"{engine_dir}/__init__.py", submodule_search_locations=[engine_dir]
    )
    engine = importlib.util.module_from_spec(spec)
    sys.modules[package] = engine
    spec.loader.exec_module(engine)
    for module in modules:
        importlib.import_module(module)
    leaked = sorted(m for m in sys.modules if m.split(".")[0] == "homeassistant")
    assert not leaked, leaked
    print("imported", len(modules), "engine modules")
    """
)


def test_engine_imports_without_homeassistant() -> None:
    """Every engine module imports in a fresh interpreter where homeassistant cannot load."""
    modules = []
    for path in _engine_files():
        parts = path.relative_to(ENGINE).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.append(".".join((ENGINE_PACKAGE, *parts)))
    result = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALL, str(ENGINE), ENGINE_PACKAGE, *modules],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"imported {len(modules)} engine modules" in result.stdout
