"""Migration steps are found from the package's ``vNN_*.py`` modules, numbered 1..N."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import pytest

from custom_components.homebuddy_proactive.engine.storage import migrations
from custom_components.homebuddy_proactive.engine.storage.migrations import (
    MIGRATIONS,
    MigrationOrderError,
    discover,
)


def _package(tmp_path: Path, name: str, steps: list[str]) -> str:
    root = tmp_path / name
    root.mkdir()
    (root / "__init__.py").write_text("")
    (root / "helper.py").write_text("STATEMENTS = ('not a step',)\n")
    for step in steps:
        (root / f"{step}.py").write_text(f"STATEMENTS = ('-- {step}',)\n")
    sys.path.insert(0, str(tmp_path))
    importlib.import_module(name)
    return name


def test_every_step_module_is_a_migration_in_order() -> None:
    folder = Path(migrations.__file__).parent
    steps = sorted(p.stem for p in folder.glob("v[0-9]*_*.py"))
    assert len(MIGRATIONS) == len(steps)
    assert [int(s[1:].split("_")[0]) for s in steps] == list(range(1, len(steps) + 1))


def test_discover_orders_by_number(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    name = _package(
        tmp_path, "steps_ok", ["v2_b", "v10_j", "v1_a", *[f"v{n}_x" for n in range(3, 10)]]
    )
    found = discover(name)
    assert found[0] == ("-- v1_a",)
    assert found[1] == ("-- v2_b",)
    assert found[9] == ("-- v10_j",)
    assert len(found) == 10


@pytest.mark.parametrize(
    ("steps", "message"),
    [
        (["v1_a", "v3_c"], "missing [2]"),
        (["v2_b"], "missing [1]"),
        (["v1_a", "v01_again"], "share a number"),
        (["v0_zero", "v1_a"], "1..N"),
    ],
)
def test_discover_refuses_gaps_and_repeats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, steps: list[str], message: str
) -> None:
    monkeypatch.setattr(sys, "path", list(sys.path))
    name = _package(tmp_path, f"steps_bad_{abs(hash(tuple(steps)))}", steps)
    with pytest.raises(MigrationOrderError, match=message.replace("[", r"\[").replace("]", r"\]")):
        discover(name)
