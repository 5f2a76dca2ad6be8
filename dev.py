#!/usr/bin/env python3
"""Developer commands for Throne & Phalanx (stdlib only).

    python3 dev.py serve [--port N] [--ip ADDR]   create/update .venv, serve the dashboards
                                      (the play dashboard: /voila/render/play.ipynb)
    python3 dev.py test [PYTEST_ARGS] create/update .venv, then ruff, ruff format, mypy, pytest

The virtual environment lives in .venv; it is (re)installed with `pip install -e .[test]`
whenever pyproject.toml is newer than the stamp file .venv/.installed, or when the engine
modules setup.py compiles with mypyc changed since their build (docs/speed.md).
THRONE_COMPILE=1 requires the compiled build (CI), 0 installs pure Python; `test` without
pytest arguments runs the whole suite, then the engine tests again on the pure-Python
sources (THRONE_PURE=1), each pass checking which build it ran (tests/test_build.py).
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
VENV_BIN = VENV / "bin"
STAMP = VENV / ".installed"
PYPROJECT = ROOT / "pyproject.toml"
PLAY_NOTEBOOK = "notebooks/play.ipynb"
CHROMIUM = Path("/usr/bin/chromium")
APT_PACKAGES = ("chromium", "fonts-noto-cjk")
MIN_PYTHON = (3, 11)
# The second pass on the pure-Python engine (THRONE_PURE=1): which build runs, determinism,
# the fast paths against their references, the golden log, perft counts, the agents, the
# rules; the same for 城堡之心 and 城池战, and the bad input every game refuses. The first
# pass runs everything on the build installed (compiled where it can be).
PURE_TESTS = (
    "tests/test_build.py",
    "tests/test_speed_reference.py",
    "tests/test_log.py",
    "tests/test_perft.py",
    "tests/test_seed_fidelity.py",
    "tests/test_ai.py",
    "tests/test_rules_board.py",
    "tests/test_rules_combat.py",
    "tests/test_rules_throne.py",
    "tests/test_rules_turn.py",
    "tests/test_barracks.py",
    "tests/test_economy.py",
    "tests/test_scenario.py",
    # 城堡之心's and 城池战's engines and agents, compiled too since 2026-12-04
    "tests/castle",
    "tests/cities",
    "tests/test_ismcts.py",
    "tests/kit/test_bad_input.py",
)


class StepFailed(Exception):
    """A step of a command failed; the message says which and how."""


def say(message: str) -> None:
    print(f"==> {message}", flush=True)


def run(cmd: Sequence[str | Path], env: dict[str, str] | None = None) -> None:
    """Run a command in the repository root; raise StepFailed on a non-zero exit."""
    shown = " ".join(str(part) for part in cmd)
    say(shown)
    code = subprocess.call([str(part) for part in cmd], cwd=ROOT, env=env)
    if code != 0:
        raise StepFailed(f"`{shown}` exited with status {code}")


def venv_env() -> dict[str, str]:
    """The environment for tools run from .venv: its bin/ first on PATH."""
    env = dict(os.environ)
    env["PATH"] = f"{VENV_BIN}{os.pathsep}{env.get('PATH', '')}"
    env["VIRTUAL_ENV"] = str(VENV)
    env.pop("PYTHONHOME", None)
    env.setdefault("JUPYTER_PLATFORM_DIRS", "1")
    # The "throne" Voilà template of voila.json lives in share/jupyter/voila/templates/.
    env["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(ROOT / "share" / "jupyter"), env.get("JUPYTER_PATH", "")) if p
    )
    return env


def ensure_venv() -> None:
    """Create .venv if missing and install the project when pyproject.toml changed."""
    python = VENV_BIN / "python"
    if not python.exists():
        if sys.version_info < MIN_PYTHON:
            wanted = ".".join(map(str, MIN_PYTHON))
            raise StepFailed(
                f"Python >= {wanted} is needed to create .venv, "
                f"but dev.py runs on {sys.version.split()[0]}"
            )
        say("Step 1/2: creating the virtual environment .venv (a few seconds) …")
        started = time.monotonic()
        run([sys.executable, "-m", "venv", VENV])
        say(f"Step 1/2 done in {time.monotonic() - started:.0f} s")
        STAMP.unlink(missing_ok=True)
    if (
        STAMP.exists()
        and STAMP.stat().st_mtime >= PYPROJECT.stat().st_mtime
        and installed_from_here(python)
        and compiled_build_current()
    ):
        return
    env = venv_env()
    say(
        "Step 2/2: installing the project and its dependencies into .venv (the first time "
        "~3 minutes: pip downloads Voilà, ipywidgets, pandas … — each package is listed "
        "below as it comes — then mypyc compiles the engine's hot modules when a C "
        "compiler is there; later runs skip this until pyproject.toml changes)"
    )
    started = time.monotonic()
    run([python, "-m", "pip", "install", "--progress-bar", "on", "-e", ".[test]"], env=env)
    say(f"Step 2/2 done in {time.monotonic() - started:.0f} s")
    STAMP.write_text("installed from pyproject.toml by dev.py\n")


def installed_from_here(python: Path) -> bool:
    """Does .venv import throne_lib from this checkout? (An editable install made before
    throne_lib/__init__.py existed, or from another folder, does not.)"""
    probe = "import importlib.util as u; s = u.find_spec('throne_lib'); print(s and s.origin)"
    result = subprocess.run(
        [str(python), "-c", probe], cwd="/", capture_output=True, text=True, env=venv_env()
    )
    origin = result.stdout.strip()
    return (
        origin not in ("", "None") and Path(origin).resolve() == ROOT / "throne_lib" / "__init__.py"
    )


def compiled_build_current() -> bool:
    """False when the in-place compiled build is stale or incomplete (a compiled module's
    source changed since it was built): then the install builds it again. Asks
    throne_lib/compiled.py itself, loaded on its own (standard library only)."""
    if os.environ.get("THRONE_COMPILE") == "0":
        return True
    spec = importlib.util.spec_from_file_location(
        "_throne_compiled", ROOT / "throne_lib" / "compiled.py"
    )
    if spec is None or spec.loader is None:
        return True
    compiled = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(compiled)
    build, reason, stale = compiled.decide(ROOT)
    if stale:
        say(f"compiled engine out of date ({reason}): installing again")
    return not stale


def expected_build() -> dict[str, str]:
    """THRONE_EXPECT_BUILD for tests/test_build.py from THRONE_COMPILE: with 1 the compiled
    build must be the one running (a silent fallback to pure Python fails the run)."""
    wanted = {"1": "compiled", "0": "pure"}.get(os.environ.get("THRONE_COMPILE", ""))
    return {"THRONE_EXPECT_BUILD": wanted} if wanted else {}


def has_cjk_font() -> bool:
    fc_list = shutil.which("fc-list")
    if fc_list is None:
        return False
    result = subprocess.run([fc_list, ":lang=zh", "family"], capture_output=True, text=True)
    return result.returncode == 0 and bool(result.stdout.strip())


def ensure_browser() -> None:
    """Make sure Debian's Chromium and a CJK font are there for the browser tests."""
    missing = [
        what
        for what, present in ((str(CHROMIUM), CHROMIUM.exists()), ("a CJK font", has_cjk_font()))
        if not present
    ]
    if not missing:
        return
    packages = " ".join(APT_PACKAGES)
    if os.geteuid() != 0:
        raise StepFailed(
            f"The browser tests need {' and '.join(missing)}, missing here. "
            f"Install them as root (sudo apt-get install -y {packages}) and run again; "
            "the browser tests are never skipped."
        )
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    run(["apt-get", "update"], env=env)
    run(["apt-get", "install", "-y", *APT_PACKAGES], env=env)
    if not CHROMIUM.exists():
        raise StepFailed(f"apt-get installed {packages}, yet {CHROMIUM} is still missing")


def cmd_serve(args: argparse.Namespace) -> int:
    ensure_venv()
    voila = VENV_BIN / "voila"
    host = "127.0.0.1" if args.ip in ("127.0.0.1", "0.0.0.0", "") else args.ip
    base = f"http://{host}:{args.port}/voila/render"
    say("Serving the dashboards of notebooks/ (Ctrl-C stops it); open the home page first:")
    say(f"  首页 home  {base}/index.ipynb")
    for line in dashboard_lines(base):
        say(line)
    cmd = [
        str(voila),
        # Tree mode, so the dashboards link to each other (爬塔, home page); Voilà 0.5.8
        # answers 500 on every page of a relative root ("abs_root ... is not absolute").
        str(ROOT / "notebooks"),
        f"--port={args.port}",
        f"--Voila.ip={args.ip}",
        "--no-browser",
    ]
    if os.name == "posix":
        # voila.json keeps 14 kernels preheated, all started at once: over TCP each picks
        # five free ports (bind, close) that another process may take before the kernel
        # binds them ("Address already in use": a dead kernel in a pool, handed to a
        # visitor). Unix sockets are files named by the kernel's id (docs/ui.md).
        cmd.append("--KernelManager.transport=ipc")
    sys.stdout.flush()
    os.chdir(ROOT)  # voila.json at the root is read from the working directory
    os.execve(voila, cmd, venv_env())
    return 0  # not reached


# Every registered game's dashboards, read from the registry by .venv's Python (dev.py
# itself runs on any Python and imports nothing of the project).
LIST_DASHBOARDS = (
    "from throne_lib.kit import registry\n"
    "for g in registry.games():\n"
    "    for d in g.dashboards:\n"
    "        print(g.title, d.title, d.notebook, sep='\\t')\n"
)


def dashboard_lines(base: str) -> list[str]:
    """One console line per dashboard of every game (the notebooks' names if the
    registry cannot be read)."""
    result = subprocess.run(
        [str(VENV_BIN / "python"), "-c", LIST_DASHBOARDS],
        cwd=ROOT, capture_output=True, text=True, env=venv_env(),
    )  # fmt: skip
    rows = [line.split("\t") for line in result.stdout.splitlines() if line.count("\t") == 2]
    if result.returncode != 0 or not rows:
        notebooks = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
        return [f"  {base}/{name}" for name in notebooks if name != "index.ipynb"]
    out, game = [], ""
    for title, page, notebook in rows:
        if title != game:
            out.append(f"  {title}")
            game = title
        out.append(f"    {base}/{notebook}  {page}")
    return out


def pytest_status(code: int) -> None:
    if code == 5:
        raise StepFailed("pytest collected no tests (exit status 5): that counts as a failure")
    if code != 0:
        raise StepFailed(f"pytest exited with status {code}")


def cmd_test(args: argparse.Namespace) -> int:
    ensure_venv()
    ensure_browser()
    env = venv_env()
    run([VENV_BIN / "ruff", "check", "."], env=env)
    run([VENV_BIN / "ruff", "format", "--check", "."], env=env)
    run([VENV_BIN / "mypy", "throne_lib", "throne_serving"], env=env)
    # pyproject.toml makes this one run cover tests/ (library and browser tests) and
    # notebooks/ (each notebook executed by nbval, --nbval-lax).
    pytest_cmd = [str(VENV_BIN / "pytest"), *args.pytest_args]
    env.update(expected_build())
    say(" ".join(pytest_cmd))
    pytest_status(subprocess.call(pytest_cmd, cwd=ROOT, env=env))
    if args.pytest_args:
        say("All checks passed: ruff check, ruff format --check, mypy, pytest")
        return 0
    # The engine tests once more on the .py sources, even where compiled modules are
    # installed: both builds must give the same results (issue 16).
    pure_cmd = [str(VENV_BIN / "pytest"), *PURE_TESTS]
    pure_env = dict(env, THRONE_PURE="1", THRONE_EXPECT_BUILD="pure")
    say("THRONE_PURE=1 " + " ".join(pure_cmd))
    pytest_status(subprocess.call(pure_cmd, cwd=ROOT, env=pure_env))
    say(
        "All checks passed: ruff check, ruff format --check, mypy, pytest (installed build), "
        "pytest of the engine on pure Python"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="dev.py", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    serve = sub.add_parser("serve", help="serve the play dashboard with Voilà")
    serve.add_argument("--port", type=int, default=8866, help="port to listen on (default 8866)")
    serve.add_argument(
        "--ip",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1; a LAN address or 0.0.0.0 lets the "
        "players of a playtest reach it: docs/playtests.md)",
    )
    serve.set_defaults(func=cmd_serve)
    test = sub.add_parser(
        "test",
        help="ruff check, ruff format --check, mypy, pytest (arguments after `test` go to pytest)",
    )
    test.set_defaults(func=cmd_test)
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["test"]:
        # Everything after `test` belongs to pytest, verbatim (-k, -x, paths, -h ...).
        args = parser.parse_args(["test"])
        args.pytest_args = argv[1:]
    else:
        args = parser.parse_args(argv)
    try:
        return int(args.func(args))
    except StepFailed as failure:
        bar = "!" * 72
        print(f"\n{bar}\nFAILED: {failure}\n{bar}", file=sys.stderr, flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
