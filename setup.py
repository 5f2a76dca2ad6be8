"""Build script beside pyproject.toml (which holds the metadata): compiles the engine's hot
modules (``throne_lib/compiled.py``: COMPILED_MODULES) with mypyc into C extensions.

THRONE_COMPILE decides:
- unset or ``auto``: compile when mypyc and a C compiler work; if either fails the build
  installs pure Python, with a warning (a Binder image or a machine without gcc);
- ``1``: compile or fail the build (CI: a silent fallback must not pass for compiled);
- ``0``: pure Python only.

The ``.py`` sources are installed either way; ``THRONE_PURE=1`` runs them (docs/speed.md).
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from types import ModuleType

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
MODE = os.environ.get("THRONE_COMPILE", "auto").strip().lower() or "auto"
# pip runs this script for metadata too (egg_info, dist_info): mypyc's type check and C
# generation run only for the commands that build extensions.
BUILDS = {"build", "build_ext", "bdist_wheel", "editable_wheel", "develop", "install"}


def load_compiled() -> ModuleType:
    """throne_lib/compiled.py on its own (standard library only): importing the package
    would need its dependencies, absent from a build environment."""
    spec = importlib.util.spec_from_file_location(
        "_throne_compiled", ROOT / "throne_lib" / "compiled.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def say(message: str) -> None:
    print(f"throne-phalanx setup.py: {message}", file=sys.stderr, flush=True)


def extensions() -> list[Extension]:
    if MODE not in ("auto", "0", "1"):
        raise SystemExit(f"THRONE_COMPILE must be auto, 0 or 1, not {MODE!r}")
    if not BUILDS.intersection(sys.argv[1:]):
        return []
    if MODE == "0":
        say("THRONE_COMPILE=0: pure Python, nothing compiled")
        return []
    compiled = load_compiled()
    try:
        from mypyc.build import mypycify

        paths = [
            str(compiled.source_path(m, ROOT).relative_to(ROOT)) for m in compiled.COMPILED_MODULES
        ]
        # The build's mypy checks what it compiles with pyproject's [tool.mypy] options;
        # a build environment may lack the stubs `mypy throne_lib` uses (pandas-stubs), so
        # third-party modules it cannot find are Any here (a slower call, the same result).
        exts = mypycify(
            ["--ignore-missing-imports", "--no-warn-unused-ignores", *paths],
            group_name=compiled.GROUP_NAME,
            opt_level="3",
        )
    except (Exception, SystemExit) as err:  # SystemExit: mypy found type errors
        if MODE == "1":
            raise
        say(f"mypyc could not prepare the build ({err!r}): installing pure Python")
        return []
    if MODE == "auto":
        for ext in exts:
            ext.optional = True  # a failed C compile installs pure Python (build_ext warns)
    digests = compiled.source_digests(ROOT)
    (ROOT / "throne_lib" / compiled.DIGESTS_FILE).write_text(json.dumps(digests, indent=1) + "\n")
    say(f"compiling {len(paths)} modules with mypyc (THRONE_COMPILE={MODE})")
    return exts


setup(ext_modules=extensions())
