"""Which build of the engine's hot modules runs: compiled by mypyc, or pure Python.

``setup.py`` compiles the modules of :data:`COMPILED_MODULES` with mypyc when it can
(``docs/speed.md``); their ``.py`` sources stay installed beside the compiled ones, and
Python's import system prefers an extension module to a source file, so a compiled build
runs by default. ``import throne_lib`` imports this module first, which calls
:func:`choose` before any engine module is imported; it makes every one of them load from its ``.py`` source instead when

- ``THRONE_PURE=1`` is set: the pure-Python engine runs even where a compiled build is
  installed (the tests run against both builds);
- the compiled build is incomplete, or one of its sources changed since it was built (an
  editable install whose checkout was edited or merged since): a warning names the module
  and says how to build again.

It is all or nothing: compiled code reaches the compiled classes of its group directly, so
a compiled ``legal`` next to a pure ``state`` would fail on the first unit it meets.

Standard library only: ``setup.py`` loads this file by path before anything is installed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

# The engine's hot path: the rules (state, legal actions, the engine and its effects, the
# match), the values they pass around, and the standard and search agents' evaluation.
# Chosen by profiling random playouts and standard matches (docs/speed.md); every module
# here must compile with mypyc and may not be subclassed by an uncompiled class.
COMPILED_MODULES: tuple[str, ...] = (
    "throne_lib.games.throne.actions",
    "throne_lib.games.throne.board",
    "throne_lib.games.throne.effects",
    "throne_lib.games.throne.engine",
    "throne_lib.games.throne.lang",
    "throne_lib.games.throne.legal",
    "throne_lib.games.throne.match",
    "throne_lib.games.throne.rules",
    "throne_lib.games.throne.state",
    "throne_lib.games.throne.ai.evaluate",
    "throne_lib.games.throne.ai.standard",
    # 城堡之心's engine, view and scripted agent (ISMCTS rolls out with it), and 城池战's
    # match and agent, which subclass castle's classes (docs/speed.md, "城堡之心 and 城池战").
    "throne_lib.games.castle.actions",
    "throne_lib.games.castle.agents",
    "throne_lib.games.castle.combat",
    "throne_lib.games.castle.command",
    "throne_lib.games.castle.core",
    "throne_lib.games.castle.death",
    "throne_lib.games.castle.events",
    "throne_lib.games.castle.magic",
    "throne_lib.games.castle.match",
    "throne_lib.games.castle.play",
    "throne_lib.games.castle.skills",
    "throne_lib.games.castle.state",
    "throne_lib.games.castle.turn",
    "throne_lib.games.castle.view",
    "throne_lib.games.cities.agents",
    "throne_lib.games.cities.match",
)
# mypyc's shared library of the group (one C extension holding all the compiled code).
GROUP_NAME = "throne_lib.games.throne._compiled"
# Written by setup.py next to this file: the sha256 of every source it compiled.
DIGESTS_FILE = "_compiled.json"
PURE_ENV = "THRONE_PURE"

ROOT_DIR = Path(__file__).resolve().parent.parent

# What choose() decided: "compiled" or "pure", and why.
build = "pure"
reason = "not chosen yet"


def source_path(module: str, root: Path = ROOT_DIR) -> Path:
    """``throne_lib.games.throne.legal`` -> ``ROOT/throne_lib/games/throne/legal.py``."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def compiled_path(module: str, root: Path = ROOT_DIR) -> Path | None:
    """The module's compiled extension beside where its source is, or None."""
    source = source_path(module, root)
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = source.with_name(source.stem + suffix)
        if candidate.is_file():
            return candidate
    return None


def group_module() -> str:
    """The module name of mypyc's shared library of the group (all the compiled code; each
    compiled module is a small extension that loads it)."""
    return f"{GROUP_NAME}__mypyc"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def source_digests(root: Path = ROOT_DIR) -> dict[str, str]:
    """sha256 of each compiled module's source (what setup.py records at build time)."""
    return {m: digest(source_path(m, root)) for m in COMPILED_MODULES}


def decide(root: Path = ROOT_DIR) -> tuple[str, str, bool]:
    """(build, reason, warn): which build to run from the tree at ``root``, and why."""
    present = [m for m in COMPILED_MODULES if compiled_path(m, root) is not None]
    if not present:
        return "pure", "no compiled modules installed", False
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        return "pure", f"{PURE_ENV}={os.environ[PURE_ENV]}", False
    hint = "build again (pip install -e . / python3 dev.py test) to run compiled"
    missing = [m for m in (*COMPILED_MODULES, group_module()) if compiled_path(m, root) is None]
    if missing:
        return "pure", f"compiled build incomplete ({', '.join(missing)} missing); {hint}", True
    try:
        recorded = json.loads((root / "throne_lib" / DIGESTS_FILE).read_text())
    except (OSError, ValueError) as err:
        return "pure", f"{DIGESTS_FILE} of the compiled build unreadable ({err}); {hint}", True
    changed = [m for m, d in source_digests(root).items() if recorded.get(m) != d]
    if changed:
        names = ", ".join(changed)
        return "pure", f"source changed since the compiled build: {names}; {hint}", True
    return "compiled", "compiled build installed and up to date", False


class _SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled modules' ``.py`` sources ahead of their extensions."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED_MODULES or not path:
            return None
        leaf = fullname.rpartition(".")[2]
        for entry in path:
            source = os.path.join(entry, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def choose() -> str:
    """Decide the build for this process (once, before any engine module is imported) and
    return it. A pure decision where compiled modules exist installs the source finder."""
    global build, reason
    if any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return build
    loaded = [m for m in COMPILED_MODULES if m in sys.modules]
    if loaded:
        raise RuntimeError(f"throne_lib.compiled.choose() runs too late: {loaded[0]} is loaded")
    build, reason, warn = decide()
    if warn:
        warnings.warn(f"throne_lib runs pure Python: {reason}", RuntimeWarning, stacklevel=2)
    if build == "pure":
        sys.meta_path.insert(0, _SourceFinder())
    return build


def reduce_dataclass(obj: Any) -> tuple[Any, tuple[Any, ...]]:
    """``__reduce__`` of a frozen dataclass of a compiled module: pickle it as a call of its
    class with its field values (simulations send setups and rules to worker processes).
    The state protocol mypyc gives a compiled class sets the fields one by one, which a
    frozen dataclass forbids; every field of these classes is an ``__init__`` argument."""
    return type(obj), tuple(getattr(obj, f.name) for f in dataclasses.fields(obj))


def loaded_build() -> str:
    """What actually runs: "compiled" when every module of :data:`COMPILED_MODULES` was
    loaded from a compiled extension, "pure" when every one from its ``.py`` source (each
    is imported). A mix is an error."""
    kinds = set()
    for name in COMPILED_MODULES:
        module = importlib.import_module(name)
        origin = getattr(module, "__file__", None) or ""
        kinds.add("pure" if origin.endswith(".py") else "compiled")
    if len(kinds) != 1:
        raise RuntimeError(f"compiled and pure engine modules are mixed: {sorted(kinds)}")
    return kinds.pop()


if __name__ == "throne_lib.compiled":  # imported by throne_lib/__init__.py (not by setup.py)
    choose()
