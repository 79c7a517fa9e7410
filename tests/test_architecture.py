"""The floors of docs/architecture.md hold: no import reaches up a floor, and no import cycle.

The test reads every module of `src/choux` with `ast` (imports inside functions and under
TYPE_CHECKING count too: a lazy import is still a dependency).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "choux"

#: floor of each top-level part; a module may import its own floor and those below.
#: `ai` holds game-agnostic searchers that know only the engine; games build their bot
#: levels from them, so ai sits under games (see docs/architecture.md).
FLOORS = {
    "engine": 0,
    "ai": 1,
    "games": 2,
    "play": 3,
    "web": 4,
    "cli": 5,
    "benchmark": 5,
    "admin": 5,
    "__main__": 5,
}


def module_name(path: Path) -> str:
    parts = ["choux", *path.relative_to(SRC).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The `choux` modules `name` imports (a `from package import module` names the module)."""
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("choux"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            if not base.startswith("choux"):
                continue
            for alias in node.names:
                child = f"{base}.{alias.name}"
                found.add(child if child in known else base)
    return found - {name}


def floor(name: str) -> int | None:
    parts = name.split(".")
    return FLOORS.get(parts[1]) if len(parts) > 1 else None


def graph() -> dict[str, set[str]]:
    found = modules()
    known = set(found)
    return {name: imports_of(name, path, known) & known for name, path in found.items()}


def test_every_part_of_the_package_has_a_floor() -> None:
    parts = {name.split(".")[1] for name in modules() if name != "choux"}
    assert parts <= set(FLOORS), sorted(parts - set(FLOORS))


def test_no_import_reaches_a_higher_floor() -> None:
    upward = []
    for name, targets in graph().items():
        for target in sorted(targets):
            mine, theirs = floor(name), floor(target)
            if mine is not None and theirs is not None and theirs > mine:
                upward.append(f"{name} (floor {mine}) imports {target} (floor {theirs})")
    assert not upward, "\n".join(upward)


def find_cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `edges` as a path that comes back to its start, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for target in sorted(edges.get(node, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for start in sorted(edges):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_find_cycle_sees_a_cycle_and_only_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


def test_no_import_cycle() -> None:
    cycle = find_cycle(graph())
    assert cycle is None, " -> ".join(cycle or [])
