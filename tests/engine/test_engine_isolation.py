"""The engine package never imports Home Assistant (the standalone server runs it without HA)."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "custom_components" / "homebuddy_proactive" / "engine"


def _engine_files() -> list[Path]:
    files = sorted(ENGINE.rglob("*.py"))
    assert files, f"no engine modules under {ENGINE}"
    return files


def _imports_homeassistant(name: str | None) -> bool:
    return name is not None and (name == "homeassistant" or name.startswith("homeassistant."))


def _dynamic_import(node: ast.Call) -> str | None:
    """The literal name in ``__import__("x")`` or ``importlib.import_module("x")``."""
    func = node.func
    dynamic = (isinstance(func, ast.Name) and func.id in {"__import__", "import_module"}) or (
        isinstance(func, ast.Attribute) and func.attr == "import_module"
    )
    if not dynamic or not node.args:
        return None
    first = node.args[0]
    return first.value if isinstance(first, ast.Constant) and isinstance(first.value, str) else None


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
            elif isinstance(node, ast.Call) and (name := _dynamic_import(node)) is not None:
                names = [name]
            else:
                continue
            offenders.extend(
                f"{path.relative_to(REPO)}:{node.lineno}: {name}"
                for name in names
                if _imports_homeassistant(name)
            )
    assert not offenders, "engine modules import homeassistant:\n" + "\n".join(offenders)


# Imports every engine module the way the standalone server does (scripts/serve.py): the
# integration's folder on sys.path and the engine as the top-level package ``engine``, so the
# integration's ``__init__`` (Home Assistant code) never runs. A meta-path finder raises on any
# homeassistant import, and none may be loaded at the end.
_IMPORT_ALL = textwrap.dedent(
    """
    import importlib
    import sys

    integration_dir, modules = sys.argv[1], sys.argv[2:]


    class NoHomeAssistant:
        def find_spec(self, name, path=None, target=None):
            if name == "homeassistant" or name.startswith("homeassistant."):
                raise ImportError(f"the engine imported {name}")
            return None


    sys.meta_path.insert(0, NoHomeAssistant())
    sys.path.insert(0, integration_dir)
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
        parts = path.relative_to(ENGINE.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules.append(".".join(parts))
    # -I: no PYTHONPATH, no user site, not the current directory on sys.path.
    result = subprocess.run(
        [sys.executable, "-I", "-c", _IMPORT_ALL, str(ENGINE.parent), *modules],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr + result.stdout
    assert f"imported {len(modules)} engine modules" in result.stdout


def test_the_session_runs_where_its_venv_says() -> None:
    """In scripts/test-engine's venv (``HOMEBUDDY_ENGINE_WITHOUT_HA=1``) Home Assistant is not
    installed and the integration's ``__init__`` never ran (tests/engine/__init__.py); in the
    full venv the engine is imported through the real integration package."""
    package = sys.modules["custom_components.homebuddy_proactive"]
    if os.environ.get("HOMEBUDDY_ENGINE_WITHOUT_HA") == "1":
        assert importlib.util.find_spec("homeassistant") is None
        assert not any(name.split(".")[0] == "homeassistant" for name in sys.modules)
        assert not hasattr(package, "async_setup_entry"), "the integration's __init__ ran"
    # Either way: the real integration package exactly when Home Assistant is there.
    has_home_assistant = importlib.util.find_spec("homeassistant") is not None
    assert hasattr(package, "async_setup_entry") == has_home_assistant
