"""The house's structure: no import circle at run time, no file past what one person holds in mind.

The import graph is grimp's (import-linter's own): every ``import`` of ``src/erma``, at the top of a module or
inside a function (a lazy import runs too), but not those under ``if TYPE_CHECKING:``, which never run.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path

import grimp
import pytest

SRC = Path(__file__).resolve().parents[1] / "src" / "erma"

MAX_PY = 800
"""No Python file over this many lines."""
MAX_GAME = 500
"""No module of ``erma.game`` over this many lines (the engine's core is read most)."""
MAX_JS = 700
"""No JavaScript file of the web client over this many lines."""


def circles(nodes: Iterable[str], edges: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """The import circles: every strongly connected component of more than one module (Tarjan), sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(nodes):
        if root in index:
            continue
        # an explicit stack of (node, its successors left to visit): the graph may be deep
        work = [(root, iter(sorted(edges(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, rest = work[-1]
            for nxt in rest:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges(nxt)))))
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def _from(graph: Mapping[str, set[str]]) -> Callable[[str], Iterable[str]]:
    return lambda node: graph.get(node, set())


def test_circles_finds_a_circle_and_only_a_circle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a", "d"}, "d": {"e"}, "e": set(), "f": {"f"}}
    assert circles(graph, _from(graph)) == [["a", "b", "c"]]
    assert circles({"x": {"y"}, "y": set()}, _from({"x": {"y"}, "y": set()})) == []
    two = {"p": {"q"}, "q": {"p"}, "r": {"s"}, "s": {"r", "p"}}
    assert circles(two, _from(two)) == [["p", "q"], ["r", "s"]]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("erma", exclude_type_checking_imports=True)


def test_the_graph_sees_lazy_imports(graph: grimp.ImportGraph) -> None:
    # the CLI imports its commands' modules inside the command functions: those edges must be in the graph
    assert "erma.lab.arena" in graph.find_modules_directly_imported_by("erma.cli.lab")


def test_no_import_circle_at_run_time(graph: grimp.ImportGraph) -> None:
    def imported(module: str) -> set[str]:
        return {m for m in graph.find_modules_directly_imported_by(module) if m.startswith("erma")}

    found = circles(graph.modules, imported)
    assert found == [], "run-time import circles: " + "; ".join(" ↔ ".join(c) for c in found)


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_python_file_past_what_one_holds_in_mind() -> None:
    too_long = {str(p.relative_to(SRC)): n for p in SRC.rglob("*.py") if (n := _lines(p)) > MAX_PY}
    assert too_long == {}
    game = {str(p.relative_to(SRC)): n for p in (SRC / "game").rglob("*.py") if (n := _lines(p)) > MAX_GAME}
    assert game == {}


def test_no_javascript_file_past_what_one_holds_in_mind() -> None:
    files = list((SRC / "web").rglob("*.js"))
    assert files
    too_long = {str(p.relative_to(SRC)): n for p in files if (n := _lines(p)) > MAX_JS}
    assert too_long == {}


def test_design_draws_the_current_import_graph(graph: grimp.ImportGraph) -> None:
    path = SRC.parents[1] / "scripts" / "import_graph.py"
    spec = importlib.util.spec_from_file_location("import_graph", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    design = (SRC.parents[1] / "docs" / "design.md").read_text(encoding="utf-8")
    drawn = module.drawing(graph)
    assert "-->" in drawn
    assert drawn in design, (
        "docs/design.md's import graph is stale: run python scripts/import_graph.py --write"
    )
