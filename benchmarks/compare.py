"""Set an older revision's engine figures beside today's, measured in the same run.

    .venv/bin/python benchmarks/compare.py REV [--rounds 3] [--matches 30] [--repeat 1000]
        [--standard-matches 6] [--scaling-matches 0] [--clock cpu|wall]

REV is checked out into a temporary ``git worktree``; each round runs REV's own
``benchmarks/bench_engine.py`` and today's (this working tree, uncommitted changes
included) one after the other, alternating which goes first, each in a subprocess whose
``PYTHONPATH`` is its own tree, with the same arguments and therefore the same seeds.
For each figure it prints both medians over the rounds and today's speed-up (REV's
time / today's time, or today's rate / REV's rate: above 1 means today is faster), with
the lowest and highest per-round speed-up. A figure a side does not measure is n/a.
Today's engine is the build this tree imports: compiled by mypyc where ``setup.py`` built
it in place (``pip install -e .``), pure Python otherwise or with ``THRONE_PURE=1``
(docs/speed.md); the report names it.

A revision whose ``bench_engine.py`` has no ``--json`` (8fc5dc6 and older) is read from
its text output and from its ``bench_ai.py`` (which measures the standard agent and the
process scaling the way today's ``bench_engine.py`` does). ``--clock cpu`` (the default)
times the playout and per-call figures in CPU seconds of the benchmark process on both
sides (for an old script, by running it with ``time.perf_counter`` bound to
``time.process_time``): the one-core figure, much less disturbed by other jobs on a shared
machine than wall time. Standard figures are CPU time on both sides; the scaling figure is
wall time by nature and needs a quiet machine to mean anything.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

# (key, label, unit, higher is better)
FIGURES: tuple[tuple[str, str, str, bool], ...] = (
    ("random_actions_per_s", "random playout", "actions/s", True),
    ("random_matches_per_s", "random playout", "matches/s", True),
    ("most_units:legal_us", "most units: legal_actions()", "µs", False),
    ("most_units:copy_us", "most units: Match.copy()", "µs", False),
    ("most_units:hash_us", "most units: Match.hash()", "µs", False),
    ("most_units:first_hash_us", "most units: first hash() of a copy", "µs", False),
    ("most_actions:legal_us", "most actions: legal_actions()", "µs", False),
    ("most_actions:copy_us", "most actions: Match.copy()", "µs", False),
    ("most_actions:hash_us", "most actions: Match.hash()", "µs", False),
    ("most_actions:first_hash_us", "most actions: first hash() of a copy", "µs", False),
    ("standard_decision_ms", "standard decision (median)", "ms", False),
    ("standard_match_s", "standard vs standard match (median)", "s", False),
    ("scaling_x", "process scaling, 2 workers / 1", "x", True),
)
RATIOS = ("most_units:hash_per_copy", "most_actions:hash_per_copy")

# Runs an old script with its wall clock replaced by this process's CPU clock.
CPU_SHIM = (
    "import runpy, sys, time; time.perf_counter = time.process_time; "
    "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')"
)


def _run(tree: Path, argv: list[str], cpu_shim: bool = False) -> str:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, "-c", CPU_SHIM, *argv] if cpu_shim else [sys.executable, *argv]
    done = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed in {tree}:\n{done.stderr[-3000:]}")
    return done.stdout


def _num(pattern: str, text: str) -> float | None:
    m = re.search(pattern, text, re.MULTILINE)
    return float(m.group(1).replace(",", "")) if m else None


def _parse_legacy(engine_out: str, ai_out: str) -> dict[str, object]:
    """The figures of a bench_engine.py / bench_ai.py pair that print text only."""
    fig: dict[str, object] = {
        "random_actions_per_s": _num(r"^actions applied.*?([\d,.]+) actions/s", engine_out),
        "random_matches_per_s": _num(r"^random matches.*?([\d,.]+) matches/s", engine_out),
        "standard_decision_ms": _num(r"^standard decision: median ([\d.]+) ms", ai_out),
        "standard_match_s": _num(r"^standard vs standard match: median ([\d.]+)", ai_out),
        "scaling_x": _num(r"^process scaling:.*-> ([\d.]+)x", ai_out),
    }
    for block in re.split(r"^position: ", engine_out, flags=re.MULTILINE)[1:]:
        key = block.split()[0] + "_" + block.split()[1]  # "most units" -> most_units
        fig[f"{key}:legal_us"] = _num(r"legal_actions\(\).*?([\d,.]+) µs", block)
        fig[f"{key}:copy_us"] = _num(r"Match\.copy\(\).*?([\d,.]+) µs", block)
        fig[f"{key}:hash_us"] = _num(r"Match\.hash\(\).*?([\d,.]+) µs", block)
    return {k: v for k, v in fig.items() if v is not None}


def measure(tree: Path, args: argparse.Namespace) -> dict[str, object]:
    """One run of ``tree``'s own benchmark; its figures by key."""
    script = tree / "benchmarks" / "bench_engine.py"
    common = ["--matches", str(args.matches), "--repeat", str(args.repeat)]
    if "--json" in script.read_text(encoding="utf-8"):
        out = _run(
            tree,
            [
                str(script),
                *common,
                "--standard-matches",
                str(args.standard_matches),
                "--scaling-matches",
                str(args.scaling_matches),
                "--clock",
                args.clock,
                "--json",
            ],
        )
        fig: dict[str, object] = json.loads(out.strip().splitlines()[-1])
    else:
        engine_out = _run(tree, [str(script), *common], cpu_shim=args.clock == "cpu")
        ai_out = ""
        ai = tree / "benchmarks" / "bench_ai.py"
        if ai.exists() and (args.standard_matches or args.scaling_matches):
            ai_out = _run(
                tree,
                [
                    str(ai),
                    "--random-matches",
                    "0",
                    "--standard-matches",
                    str(max(args.standard_matches, 2)),
                    "--scaling-matches",
                    str(max(args.scaling_matches, 1)),
                ],
            )
        fig = _parse_legacy(engine_out, ai_out)
        if not args.standard_matches:
            fig.pop("standard_decision_ms", None)
            fig.pop("standard_match_s", None)
        if not args.scaling_matches:
            fig.pop("scaling_x", None)
    module = fig.get("module")
    if isinstance(module, str) and not module.startswith(str(tree)):
        raise SystemExit(f"{tree} imported throne_lib from {module}: PYTHONPATH did not win")
    for key in ("most_units", "most_actions"):
        h, c = fig.get(f"{key}:hash_us"), fig.get(f"{key}:copy_us")
        if isinstance(h, float) and isinstance(c, float):
            fig[f"{key}:hash_per_copy"] = h / c
    return fig


def _fmt(v: float | None) -> str:
    if v is None:
        return "n/a"
    return f"{v:,.0f}" if abs(v) >= 1000 else f"{v:,.3g}" if abs(v) < 10 else f"{v:,.1f}"


def report(rev: str, runs: dict[str, list[dict[str, object]]]) -> None:
    def values(side: str, key: str) -> list[float]:
        return [float(v) for r in runs[side] if isinstance(v := r.get(key), int | float)]

    def med(side: str, key: str) -> float | None:
        vs = values(side, key)
        return statistics.median(vs) if vs else None

    rows = [("figure", "unit", rev, "today", "speed-up", "per round")]
    for key, label, unit, higher in FIGURES:
        old, new = med("old", key), med("new", key)
        speed = per_round = "n/a"
        if old and new:
            speed = f"{(new / old if higher else old / new):.2f}x"
            pairs = [
                (n / o if higher else o / n)
                for o, n in zip(values("old", key), values("new", key), strict=False)
                if o and n
            ]
            per_round = f"{min(pairs):.2f}-{max(pairs):.2f}" if pairs else "n/a"
        rows.append((label, unit, _fmt(old), _fmt(new), speed, per_round))
    for key in RATIOS:
        old, new = med("old", key), med("new", key)
        rows.append(
            (key.replace(":", ": ").replace("_", " "), "ratio", _fmt(old), _fmt(new), "", "")
        )
    width = [max(len(r[i]) for r in rows) for i in range(6)]
    for i, r in enumerate(rows):
        print(
            "   ".join(f"{c:<{width[j]}}" if j < 2 else f"{c:>{width[j]}}" for j, c in enumerate(r))
        )
        if i == 0:
            print("-" * (sum(width) + 15))
    builds = {str(r.get("build", "pure")) for r in runs["new"]}
    print(f"today's engine: {', '.join(sorted(builds))} (THRONE_PURE=1 runs pure Python)")
    for side, name in (("old", rev), ("new", "today")):
        pos = {r.get("most_units:position") for r in runs[side]} | {
            r.get("most_actions:position") for r in runs[side]
        }
        pos.discard(None)
        if pos:
            print(f"positions measured by {name}: {'; '.join(sorted(map(str, pos)))}")


def short_sha(rev: str) -> str:
    return subprocess.run(
        ["git", "-C", str(HERE), "rev-parse", "--short", rev],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()


@contextlib.contextmanager
def checkout(sha: str) -> Iterator[Path]:
    """``sha`` checked out into a temporary ``git worktree``, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="compare-") as tmp:
        tree = Path(tmp) / sha
        subprocess.run(
            ["git", "-C", str(HERE), "worktree", "add", "--detach", str(tree), sha],
            check=True,
            capture_output=True,
        )
        try:
            yield tree
        finally:
            subprocess.run(
                ["git", "-C", str(HERE), "worktree", "remove", "--force", str(tree)],
                check=False,
                capture_output=True,
            )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("rev", help="the older revision (any git revision name)")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--matches", type=int, default=30, help="random playouts per run")
    p.add_argument("--repeat", type=int, default=1000, help="calls per timing batch")
    p.add_argument("--standard-matches", type=int, default=6, help="0: skip")
    p.add_argument("--scaling-matches", type=int, default=0, help="0: skip (needs a quiet machine)")
    p.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = p.parse_args()
    sha = short_sha(args.rev)
    print(f"{args.rev} ({sha}) vs today ({HERE}); {args.rounds} rounds, {args.clock} clock")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    with checkout(sha) as old_tree:
        sides: dict[str, Callable[[], dict[str, object]]] = {
            "old": lambda: measure(old_tree, args),
            "new": lambda: measure(HERE, args),
        }
        runs: dict[str, list[dict[str, object]]] = {"old": [], "new": []}
        for r in range(args.rounds):
            order = ("old", "new") if r % 2 == 0 else ("new", "old")
            for side in order:
                runs[side].append(sides[side]())
            print(f"round {r + 1}/{args.rounds} done", file=sys.stderr)
    report(sha, runs)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
