"""The engine's rooms are layered, without knots: no module imports itself back, and no room
imports a room above it.

From the bottom up: ``const``, then ``config``, then ``llm`` (the modules directly in
``engine/``), then ``text``, ``storage``, ``memory``, then ``proactive`` and ``assist`` side by
side (neither imports the other), and ``standalone`` on top. The imports are read from the
source with :mod:`ast`, everywhere in a module: an import inside a function is imported when it
runs, so it counts. Relative imports are resolved against the module's package; a registry that
loads one module per language by name (``import_module(f"{__name__}.{code}")``, or a part of
each language's folder, ``f"{__name__}.{code}.{part}"``) imports each of
its language modules, and the migrations runner loading its steps by name
(``import_module(f"{package}.{step}")``) imports each ``vNN_*`` module of its package. An
import under ``if TYPE_CHECKING:`` names a type only, and never runs: it is held to the room
order, not counted in cycles.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from custom_components.homebuddy_proactive.engine.text.languages import LANGUAGES

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "custom_components" / "homebuddy_proactive" / "engine"
PACKAGE = "engine"

# Each room's level: a module may import its own room and the rooms of a lower level, never one
# of a higher level nor another room of its own level. The package's ``__init__`` only names
# the rooms (it imports nothing), so it sits at the bottom.
LEVELS: dict[str, int] = {
    "__init__": 0,
    "const": 0,
    "config": 1,
    "llm": 2,
    "text": 3,
    "storage": 4,
    "memory": 5,
    "proactive": 6,
    "assist": 6,
    "standalone": 7,
}
# The modules a language registry may load by name: one per supported language.
LANGUAGE_MODULES = frozenset(
    name for language in LANGUAGES for name in (language.code, language.rules_module)
)


@dataclass(frozen=True)
class Import:
    """One import of an engine module by another."""

    source: str  # dotted module name, "engine.text.analysis"
    target: str
    line: int
    type_only: bool  # under ``if TYPE_CHECKING:``: names a type, never runs

    def where(self) -> str:
        return f"{_path(self.source)}:{self.line}"


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES: dict[str, Path] = {_module_name(path): path for path in sorted(ENGINE.rglob("*.py"))}


def _path(module: str) -> str:
    return str(MODULES[module].relative_to(REPO))


def _is_package(module: str) -> bool:
    return MODULES[module].name == "__init__.py"


def _room(module: str) -> str:
    """The room of a module: its folder under ``engine/``, or its own name directly in it."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _resolve(module: str, level: int, name: str | None) -> str:
    """The absolute name of ``from {'.' * level}{name} import ...`` written in ``module``."""
    if level == 0:
        return name or ""
    package = module if _is_package(module) else module.rpartition(".")[0]
    base = package.split(".")
    if level > 1:
        base = base[: -(level - 1)]
    return ".".join([*base, name] if name else base)


def _in_engine(name: str) -> str | None:
    """The engine module ``name`` names (an absolute import names ``custom_components...``)."""
    for prefix in ("custom_components.homebuddy_proactive.", ""):
        if name.startswith(prefix + PACKAGE) and name[len(prefix) :] in MODULES:
            return name[len(prefix) :]
    return None


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _dynamic_targets(module: str, node: ast.Call) -> list[str] | None:
    """What ``importlib.import_module(...)`` / ``__import__(...)`` imports; None if it is not
    one. A name built from ``__name__`` loads the package's language modules."""
    func = node.func
    if not (
        (isinstance(func, ast.Name) and func.id in {"__import__", "import_module"})
        or (isinstance(func, ast.Attribute) and func.attr == "import_module")
    ):
        return None
    first = node.args[0] if node.args else None
    if isinstance(first, ast.Constant) and isinstance(first.value, str):
        return [first.value]
    if (
        isinstance(first, ast.JoinedStr)
        and len(first.values) == 3  # {__name__}, ".", {code}
        and isinstance(first.values[0], ast.FormattedValue)
        and isinstance(first.values[0].value, ast.Name)
        and first.values[0].value.id == "__name__"
        and isinstance(first.values[1], ast.Constant)
        and first.values[1].value == "."
        and _is_package(module)
    ):
        return [f"{module}.{name}" for name in sorted(LANGUAGE_MODULES)]
    if (
        isinstance(first, ast.JoinedStr)
        and len(first.values) == 5  # {__name__}, ".", {code}, ".", {part}
        and isinstance(first.values[0], ast.FormattedValue)
        and isinstance(first.values[0].value, ast.Name)
        and first.values[0].value.id == "__name__"
        and _is_package(module)
    ):
        # A language folder's part by name: every such part of every language's folder.
        return [
            name
            for name in sorted(MODULES)
            if name.startswith(f"{module}.")
            and len(parts := name.removeprefix(f"{module}.").split(".")) == 2
            and parts[0] in LANGUAGE_MODULES
        ]
    if (
        isinstance(first, ast.JoinedStr)
        and len(first.values) == 3  # {package}, ".", {step}
        and isinstance(first.values[0], ast.FormattedValue)
        and isinstance(first.values[0].value, ast.Name)
        and first.values[0].value.id == "package"
        and module.endswith(".migrations")
        and _is_package(module)
    ):
        # The migration steps, found by name (``storage/migrations/__init__.py``).
        return [
            name
            for name in sorted(MODULES)
            if name.startswith(f"{module}.v")
            and name.removeprefix(f"{module}.v").split("_")[0].isdigit()
        ]
    raise AssertionError(
        f"{_path(module)}:{node.lineno}: a dynamic import this test cannot resolve; "
        "name the module literally, or teach the test how to read it"
    )


def _imports(module: str) -> Iterator[Import]:
    """Every import of an engine module written anywhere in ``module``."""
    tree = ast.parse(MODULES[module].read_text(encoding="utf-8"), filename=_path(module))
    type_only_nodes = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and _is_type_checking(node)
        for statement in node.body
        for inner in ast.walk(statement)
    }
    for node in ast.walk(tree):
        if not isinstance(node, ast.Import | ast.ImportFrom | ast.Call):
            continue
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(module, node.level, node.module)
            # ``from package import name``: the submodule ``name`` when there is one.
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base
                for alias in node.names
            ]
        else:
            targets = _dynamic_targets(module, node) or []
        for target in dict.fromkeys(targets):
            resolved = _in_engine(target)
            if resolved is not None and resolved != module:
                yield Import(module, resolved, node.lineno, id(node) in type_only_nodes)


IMPORTS: list[Import] = [found for module in MODULES for found in _imports(module)]


def test_the_engine_is_read() -> None:
    assert "engine.text.analysis" in MODULES
    assert all(_room(module) in LEVELS for module in MODULES), sorted(
        {_room(module) for module in MODULES} - set(LEVELS)
    )
    targets = {found.target for found in IMPORTS}
    # A relative import, one from a package, one of a registry, one inside a function.
    assert {"engine.text.normalize", "engine.storage", "engine.text.rules.en"} <= targets


def test_no_room_imports_a_room_above_it_or_beside_it() -> None:
    wrong = [
        f"{found.where()}: {found.source} ({_room(found.source)}) imports {found.target} "
        f"({_room(found.target)})"
        for found in IMPORTS
        if _room(found.source) != _room(found.target)
        and LEVELS[_room(found.source)] <= LEVELS[_room(found.target)]
    ]
    assert not wrong, "imports up or across the engine's rooms:\n" + "\n".join(wrong)


def _cycles(graph: dict[str, list[Import]]) -> list[tuple[set[str], list[Import]]]:
    """Each knot of ``graph`` (a strongly connected component of more than one module) and one
    cycle through it, as the imports that close it."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[set[str]] = []

    def connect(module: str) -> None:  # Tarjan's algorithm
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for found in graph[module]:
            if found.target not in index:
                connect(found.target)
                low[module] = min(low[module], low[found.target])
            elif found.target in on_stack:
                low[module] = min(low[module], index[found.target])
        if low[module] == index[module]:
            component = set()
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.add(member)
                if member == module:
                    break
            if len(component) > 1:
                components.append(component)

    for module in sorted(graph):
        if module not in index:
            connect(module)
    return [(component, _cycle_in(graph, component)) for component in components]


def _cycle_in(graph: dict[str, list[Import]], component: set[str]) -> list[Import]:
    """The shortest path from the component's first module back to itself."""
    start = min(component)
    paths: dict[str, list[Import]] = {start: []}
    queue = [start]
    for module in queue:
        for found in graph[module]:
            if found.target not in component:
                continue
            if found.target == start:
                return [*paths[module], found]
            if found.target not in paths:
                paths[found.target] = [*paths[module], found]
                queue.append(found.target)
    raise AssertionError(f"no cycle in {sorted(component)}")


def test_no_import_cycle() -> None:
    graph: dict[str, list[Import]] = {module: [] for module in MODULES}
    for found in IMPORTS:
        if not found.type_only:
            graph[found.source].append(found)
    knots = [
        " -> ".join([cycle[0].source, *(found.target for found in cycle)])
        + (f" (a knot of {len(knot)}: {', '.join(sorted(knot))})" if len(knot) > len(cycle) else "")
        + "\n"
        + "\n".join(f"    {found.where()}: imports {found.target}" for found in cycle)
        for knot, cycle in _cycles(graph)
    ]
    assert not knots, "import cycles in the engine:\n" + "\n".join(knots)


def test_the_text_room_imports_only_const_outside_itself() -> None:
    """The text room's own rule (its package docstring): pure rules, no model, no storage."""
    wrong = [
        f"{found.where()}: imports {found.target}"
        for found in IMPORTS
        if _room(found.source) == "text"
        and _room(found.target) != "text"
        and found.target != "engine.const"
    ]
    assert not wrong, "the text room reaches outside itself:\n" + "\n".join(wrong)


def test_the_cycle_finder_names_the_path() -> None:
    a, b, c = "engine.a", "engine.b", "engine.c"
    graph = {
        a: [Import(a, b, 1, type_only=False)],
        b: [Import(b, c, 2, type_only=False)],
        c: [Import(c, a, 3, type_only=False)],
    }
    ((knot, cycle),) = _cycles(graph)
    assert knot == {a, b, c}
    assert [found.source for found in cycle] == [a, b, c]
    assert cycle[-1].target == a
    assert _cycles({a: [Import(a, b, 1, type_only=False)], b: []}) == []
