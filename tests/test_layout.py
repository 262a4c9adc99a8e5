"""The house's floors: no module of pbem imports, through others, a module that imports it back, and the
engine hides no import inside a function to dodge such a circle.

The imports are read from the source (`ast`), at module level and inside functions alike (and those
made only for type checking: they tie the modules as much), and each is resolved to the file it loads.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PBEM = ROOT / "pbem"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in PBEM.rglob("*.py")}


def _package(name: str) -> str:
    return name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]


def _imports(name: str, source: str | None = None) -> Iterator[tuple[str, int, bool]]:
    """(module imported, line, inside a function?) for every import of a pbem module in module ``name``
    (its source file, or ``source``)."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8") if source is None else source)
    functions = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    inner = {id(n) for f in functions for n in ast.walk(f) if n is not f}
    for node in ast.walk(tree):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = _package(name).split(".")
                anchor = anchor[:len(anchor) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            # ``from pbem.engine import when`` loads the module pbem.engine.when; ``import Engine``, the package
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names]
        for target in targets:
            while target and target not in MODULES:  # ``import pbem.engine.steps.turns`` names a module: keep it
                target = target.rpartition(".")[0]
            if target and target != name:
                yield target, node.lineno, id(node) in inner


def _graph(within: str) -> dict[str, set[str]]:
    inside = {m for m in MODULES if m == within or m.startswith(within + ".")}
    return {m: {t for t, _line, _fn in _imports(m) if t in inside} for m in inside}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_circle_in_pbem():
    assert _circles(_graph("pbem")) == []


def test_no_import_circle_between_the_engine_folders():
    """orders/ (the mail in) stands above desk/ (the MJ's desk), above steps/ (the step machine), above the
    engine's ground (the table, the answers, the words): a folder never imports one that imports it back."""
    def room(m: str) -> str:
        parts = m.split(".")
        return ".".join(parts[:3]) if len(parts) > 3 else m

    folders: dict[str, set[str]] = {}
    for m, targets in _graph("pbem.engine").items():
        folders.setdefault(room(m), set()).update(room(t) for t in targets if room(t) != room(m))
    assert _circles(folders) == []
    assert {"pbem.engine.orders", "pbem.engine.desk", "pbem.engine.steps"} <= set(folders)


def test_the_engine_imports_no_pbem_module_inside_a_function():
    """An import hidden in a function hides a knot, it does not untie it."""
    hidden = [(m, t, line) for m in MODULES if m.startswith("pbem.engine")
              for t, line, in_function in _imports(m) if in_function and t.startswith("pbem.engine")]
    assert hidden == []


def test_the_reader_sees_circles():
    """The reading itself: a circle made on purpose is found, with its function-level import."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    source = ("from pbem.engine import when\nfrom . import table\n\n\ndef f():\n"
              "    from pbem.engine.steps import turns\n    import pbem.clock\n")
    assert list(_imports("pbem.engine.answers", source)) == [
        ("pbem.engine.when", 1, False), ("pbem.engine.table", 2, False), ("pbem.engine.steps.turns", 6, True),
        ("pbem.clock", 7, True)]
