"""The house keeps its plan: every import of clarq_bench (top level, inside functions, under TYPE_CHECKING) runs
down the layers, siblings of one layer stay apart, no two modules import each other in a loop, and no module grows
past 500 lines. The layers are LAYERS below, bottom to top; each subpackage's docstring and the README's "Layout"
say the same.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "clarq_bench"

#: Bottom to top. A module may import its own subpackage and any lower layer; never a sibling of its own layer,
#: never a higher one. `clarq_bench` itself only holds the lazy re-export of api (its __version__ is core's), and its
#: own lazy imports are not edges.
LAYERS: list[set[str]] = [
    {"core"},  # task and transcript model, errors, registry, prompts, jsonl, redaction
    {"data"},  # loading, download, released files, validation
    {"testing"},  # the scripted model and fake server (test doubles; llm never imports them)
    {"llm"},  # the one door to language models
    {"scoring", "seekers", "provider"},  # scoring reads transcripts and tasks; the two agents play
    {"runner", "leaderboard"},  # dialogues and runs; submissions and their verification
    {
        "fidelity",
        "clarify",
        "pairwise",
        "inspect_task",
    },  # provider audit; offline track; pairwise judging; inspect task
    {"api"},  # the Python API (api/__init__) and what the CLI needs beside it (api/support)
    {"cli"},  # flags in, one API call, printing out (and __main__)
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}
MAX_LINES = 500


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def imports_of(name: str) -> set[str]:
    """The clarq_bench modules `name` imports, resolved to the module (not the attribute) it reads from."""
    path = MODULES[name]
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package[: len(package) - node.level + 1] + ([node.module] if node.module else []))
            targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in MODULES else base for alias in node.names]
        for target in targets:
            while target not in MODULES and "." in target:
                target = target.rsplit(".", 1)[0]
            if target in MODULES and target != name:
                found.add(target)
    return found


GRAPH = {name: imports_of(name) for name in MODULES if name != "clarq_bench"}


def layer(name: str) -> str:
    part = name.split(".")[1]
    return "cli" if part == "__main__" else part


def test_every_part_of_the_package_has_a_layer() -> None:
    assert {layer(name) for name in GRAPH} - RANK.keys() == set()


@pytest.mark.parametrize("name", sorted(GRAPH))
def test_imports_run_down_the_layers(name: str) -> None:
    wrong = []
    for target in sorted(GRAPH[name] - {"clarq_bench"}):
        mine, theirs = layer(name), layer(target)
        if mine != theirs and RANK[theirs] >= RANK[mine]:
            wrong.append(f"{target} ({theirs}, layer {RANK[theirs]})")
    assert not wrong, f"{name} ({layer(name)}, layer {RANK[layer(name)]}) imports " + ", ".join(wrong)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph.get(node, ()):
            if nxt not in graph:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_loops() -> None:
    assert cycles(GRAPH) == []


def test_the_loop_check_sees_a_loop() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_nothing_imports_cli() -> None:
    assert [
        name
        for name, targets in GRAPH.items()
        if layer(name) != "cli" and any(layer(t) == "cli" for t in targets if t != "clarq_bench")
    ] == []


def test_no_module_over_500_lines() -> None:
    lengths = {name: len(path.read_text(encoding="utf-8").splitlines()) for name, path in MODULES.items()}
    assert {name: n for name, n in lengths.items() if n > MAX_LINES} == {}


def test_the_cli_imports_only_the_api_and_core() -> None:
    """DESIGN: the CLI parses flags, calls the API and prints; whatever it needs from below goes through the API."""
    allowed = {"cli", "api", "core"}
    assert {
        name: sorted(t for t in targets if t == "clarq_bench" or layer(t) not in allowed)
        for name, targets in GRAPH.items()
        if layer(name) == "cli" and any(t == "clarq_bench" or layer(t) not in allowed for t in targets)
    } == {}


def test_llm_imports_no_test_double() -> None:
    assert {
        name: sorted(t for t in targets if layer(t) == "testing")
        for name, targets in GRAPH.items()
        if layer(name) == "llm" and any(layer(t) == "testing" for t in targets)
    } == {}


def test_no_module_reads_the_package_top() -> None:
    """__version__ lives in core.version: a lower layer reading `clarq_bench` would load the API's re-exports."""
    assert [name for name, targets in GRAPH.items() if "clarq_bench" in targets] == []


def test_every_name_the_cli_reads_through_the_api_loads() -> None:
    from clarq_bench.api import support

    assert support.__all__ == list(support.NAMES)
    assert all(getattr(support, name) is not None for name in support.NAMES)
