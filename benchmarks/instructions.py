"""Instructions executed (callgrind's Ir) by a fixed engine workload: an older revision
beside today's pure-Python and today's installed (compiled) engine.

    .venv/bin/python benchmarks/instructions.py REV [--playouts 4] [--standard 1]

For a machine too busy for timings to mean much (docs/speed.md): the count does not
depend on what else runs. Each side runs ``valgrind --tool=callgrind`` twice in its own
tree (``PYTHONPATH`` = the tree, as ``compare.py``): once the imports, the card table and
the workload — ``--playouts`` random playouts (``bench_engine.playout``, the seeds
``compare.py`` uses) and ``--standard`` standard-vs-standard matches
(``bench_ai.standard_matches``) — and once the imports and the card table alone. The
difference is the workload's Ir. Today runs twice: with ``THRONE_PURE=1`` and as installed.
Instructions are not time (compiled code also misses caches and branches less per
instruction): a cross-check of ``compare.py``'s paired timings, not a replacement.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from compare import HERE, checkout, short_sha

SETUP = """
import sys
sys.path.insert(0, "benchmarks")
import throne_lib
from bench_ai import standard_matches
from bench_engine import new_match, playout
from throne_lib import load_cards
db = load_cards()
"""
WORK = """
for seed in range({playouts}):
    playout(new_match(db, seed), seed)
if {standard}:
    standard_matches(db, {standard})
"""
# Whether the tree has the compiled engine at all: a bare ``import throne_lib.compiled``
# would find today's module through the editable install's finder (it resolves submodules
# a tree lacks), and name an old tree "compiled".
BUILD = """
import pathlib
if (pathlib.Path(throne_lib.__file__).parent / "compiled.py").exists():
    from throne_lib.compiled import loaded_build
    print("BUILD", loaded_build())
else:
    print("BUILD pure (before the compiled engine)")
"""


def instructions(tree: Path, code: str, pure: bool) -> tuple[int, str]:
    """(Ir, build) of ``python -c code`` in ``tree`` under callgrind."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("THRONE_PURE", None)
    if pure:
        env["THRONE_PURE"] = "1"
    done = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code + BUILD,
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
    )
    found = re.search(r"Collected\s*:\s*(\d+)", done.stderr) or re.search(
        r"refs:\s*([\d,]+)", done.stderr
    )
    if done.returncode != 0 or found is None:
        raise SystemExit(f"callgrind failed in {tree}:\n{done.stderr[-3000:]}")
    build = re.search(r"^BUILD (.*)$", done.stdout, re.MULTILINE)
    return int(found.group(1).replace(",", "")), build.group(1) if build else "?"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("rev", help="the older revision (any git revision name)")
    p.add_argument("--playouts", type=int, default=4, help="random playouts")
    p.add_argument("--standard", type=int, default=1, help="standard-vs-standard matches")
    args = p.parse_args()
    work = WORK.format(playouts=args.playouts, standard=args.standard)
    sha = short_sha(args.rev)
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows: list[tuple[str, str, int]] = []
    with checkout(sha) as old_tree:
        sides = ((sha, old_tree, False), ("today pure", HERE, True), ("today", HERE, False))
        for name, tree, pure in sides:
            total, build = instructions(tree, SETUP + work, pure)
            base, _ = instructions(tree, SETUP, pure)
            rows.append((name, build, total - base))
            print(f"{name} done", file=sys.stderr)
    print(f"workload: {args.playouts} random playouts, {args.standard} standard matches")
    print(f"{'side':<12} {'engine':<34} {'Ir (workload)':>16} {sha + ' / side':>12}")
    for name, build, ir in rows:
        print(f"{name:<12} {build:<34} {ir:>16,} {rows[0][2] / ir:>11.2f}x")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
