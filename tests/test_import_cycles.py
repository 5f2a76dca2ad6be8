"""No import circles inside throne_lib (issue 35 item 5).

The import graph is read statically with :mod:`ast`: every ``import`` / ``from … import``
statement that can run, at module level or inside a function (a function-local import
hides a circle from the interpreter, not from the design), counts; imports under
``if TYPE_CHECKING:`` do not (they never run). ``from pkg import name`` is an edge to
``pkg.name`` when that is a module, else to ``pkg``. Two modules that need each other
share something that belongs in a third module.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _modules(root: Path, package: str) -> dict[str, Path]:
    """Every module of ``package`` under ``root`` by dotted name (a package by its own)."""
    out = {}
    for path in sorted((root / package.replace(".", "/")).rglob("*.py")):
        parts = path.relative_to(root).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, name: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that ``tree`` (module ``name``) imports."""
    known = set(known)
    out: set[str] = set()

    def visit(stmts: list[ast.stmt]) -> None:
        for node in stmts:
            if isinstance(node, ast.If) and _type_checking(node.test):
                visit(node.orelse)
                continue
            if isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = name if is_package else name.rsplit(".", 1)[0]
                    for _ in range(node.level - 1):
                        base = base.rsplit(".", 1)[0]
                    base = f"{base}.{node.module}" if node.module else base
                else:
                    base = node.module or ""
                subs = {f"{base}.{a.name}" for a in node.names} & known
                out.update(subs)
                if len(subs) < len(node.names):
                    out.add(base)
            else:  # statements that hold statements: if/else, try, with, loops, defs
                for field in ("body", "orelse", "finalbody", "handlers"):
                    inner = getattr(node, field, None)
                    if isinstance(inner, list):
                        visit([s for s in inner if isinstance(s, ast.stmt)])
                for h in getattr(node, "handlers", []):
                    visit(h.body)

    visit(tree.body)
    return out & known


def import_graph(root: Path, package: str) -> dict[str, set[str]]:
    mods = _modules(root, package)
    return {
        name: _imports(ast.parse(path.read_text("utf-8")), name, path.name == "__init__.py", mods)
        - {name}
        for name, path in mods.items()
    }


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return found


def test_throne_lib_has_no_import_circles() -> None:
    graph = import_graph(ROOT, "throne_lib")
    assert len(graph) > 100 and "throne_lib.games.pin.engine" in graph["throne_lib.games.pin.match"]
    assert circles(graph) == []


def _package(tmp_path: Path, files: dict[str, str]) -> dict[str, set[str]]:
    for rel, text in files.items():
        path = tmp_path / "pkg" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return import_graph(tmp_path, "pkg")


def test_a_circle_hidden_in_a_function_is_found(tmp_path: Path) -> None:
    graph = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from pkg.b import f\n",
            "b.py": "def f():\n    from pkg import a\n    try:\n        import pkg.c\n    except ImportError:\n        pass\n",
            "c.py": "from . import d\n",
            "d.py": "from .a import x\n",
        },
    )
    assert circles(graph) == [["pkg.a", "pkg.b", "pkg.c", "pkg.d"]]


def test_type_checking_imports_do_not_count(tmp_path: Path) -> None:
    graph = _package(
        tmp_path,
        {
            "__init__.py": "",
            "a.py": "from typing import TYPE_CHECKING\nimport pkg.b\n",
            "b.py": "import typing\nif typing.TYPE_CHECKING:\n    from pkg.a import A\nelse:\n    pass\n",
        },
    )
    assert graph["pkg.b"] == set() and circles(graph) == []
