"""Playtest load (issue 37): many playtests at once, every seat a scripted client.

    nice -n 15 .venv/bin/python benchmarks/playtest_load.py [--playtests 20] [--seats 5]
        [--humans 3] [--game castle] [--seconds 60] [--poll 0.1] [--human-think 0.3]
        [--think 0.2] [--seed 1] [--store DIR] [--kills 0]

Each playtest runs in a process of its own holding one :class:`PlaytestSession` per seat
(a page each: the humans' seats click what the game's scripted agent chooses after
``--human-think`` seconds, the AI seats are played by whichever page holds the lease,
after ``--think``), every page polling the shared SQLite store every ``--poll``
seconds, as the dashboards do. Printed: actions stored per second (all playtests),
the move-to-other-screen latency (from an action's commit to another page having
applied it: median, p95, max, over every (action, other page)), the clients' memory
(max RSS per playtest process; a Voilà kernel adds its own ~150 MB of Jupyter), and
whether every playtest's export replays with ``--check``.

``--kills N`` instead runs the reliability check: a process playing every seat of one
playtest is killed with SIGKILL N times at random moments (after it has stored at
least one action); then the playtest is played to its end by new pages, exported and
replayed: no action lost or doubled. Figures only; nothing is asserted by timing.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import resource
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from throne_lib.kit.agents import make_agent
from throne_lib.kit.log import replay
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import PlaytestSession
from throne_lib.kit.playtest.store import SqliteStore


def client(
    store_dir: str, pid: str, tokens: dict[int, str], args: dict[str, Any], out: str
) -> None:
    """One playtest's pages in one process, until the match ends or time is up."""
    st = SqliteStore(store_dir)
    pages = [PlaytestSession(st, pid, tokens[s]) for s in sorted(tokens)]
    for p in pages:
        p.trace = []
    deadline = time.time() + args["seconds"]
    moved_at = time.time()
    while time.time() < deadline and not all(p.is_over for p in pages):
        for p in pages:
            p.tick()
            if p.my_turn() and time.time() - p.last_action_at >= args["human_think"]:
                agent = make_agent("scripted", args["seed"] + p.seq, p.playtest.game)
                if p.submit(agent.choose(p.match)):
                    moved_at = time.time()
        time.sleep(args["poll"])
    lat = [applied - stored for p in pages for _, stored, applied in p.trace or []]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    result = {"latency": lat, "rss_mb": rss, "actions": st.count(pid), "last": moved_at}
    Path(out).write_text(json.dumps(result), encoding="utf-8")


def load(args: argparse.Namespace) -> int:
    store_dir = args.store or tempfile.mkdtemp(prefix="playtest-load-")
    st = SqliteStore(store_dir)
    ctx = multiprocessing.get_context("fork")
    params = {
        "seconds": args.seconds,
        "poll": args.poll,
        "human_think": args.human_think,
        "seed": args.seed,
    }
    procs, outs, ids = [], [], []
    for k in range(args.playtests):
        c = manage.create(
            st, args.game, args.seats, args.humans, think=args.think, seed=args.seed + k
        )
        ids.append(c.playtest.id)
        tokens = {s: t for s, t in c.tokens.items() if s >= 0}
        out = str(Path(store_dir) / f"client-{k}.json")
        outs.append(out)
        procs.append(
            ctx.Process(target=client, args=(store_dir, c.playtest.id, tokens, params, out))
        )
    t0 = time.time()
    for p in procs:
        p.start()
    for p in procs:
        p.join()
    wall = time.time() - t0
    results = [json.loads(Path(o).read_text(encoding="utf-8")) for o in outs]
    lat = sorted(x for r in results for x in r["latency"])
    actions = sum(r["actions"] for r in results)
    ok = 0
    for pid in ids:
        path = Path(store_dir) / f"{pid}.jsonl"
        manage.export(st, pid, path)
        replay(path, check=True)
        ok += 1
    print(
        f"{args.playtests} playtests × {args.seats} seats ({args.humans} human) of "
        f"{args.game}, poll {args.poll} s, human think {args.human_think} s, AI think "
        f"{args.think} s, seed {args.seed}; cpus {os.cpu_count()}, load "
        f"{os.getloadavg()[0]:.1f}"
    )
    print(f"wall {wall:.1f} s, {actions} actions stored: {actions / wall:.1f} actions/s")
    if lat:
        q = statistics.quantiles(lat, n=20)
        print(
            f"move-to-other-screen latency over {len(lat)} (action, page) pairs: "
            f"median {statistics.median(lat) * 1000:.0f} ms, p95 {q[18] * 1000:.0f} ms, "
            f"max {lat[-1] * 1000:.0f} ms"
        )
    rss = [r["rss_mb"] for r in results]
    print(
        f"client processes (5 pages each): max RSS median {statistics.median(rss):.0f} MB, max {max(rss):.0f} MB"
    )
    print(f"exports replayed with --check: {ok}/{len(ids)}; store {store_dir}")
    return 0


def _victim(store_dir: str, pid: str, tokens: dict[int, str], seed: int) -> None:
    st = SqliteStore(store_dir)
    pages = [PlaytestSession(st, pid, tokens[s]) for s in sorted(tokens)]
    rng = random.Random(seed)
    while True:
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))


def kills(args: argparse.Namespace) -> int:
    store_dir = args.store or tempfile.mkdtemp(prefix="playtest-kill-")
    st = SqliteStore(store_dir)
    c = manage.create(st, args.game, args.seats, args.seats, think=0.0, seed=args.seed)
    pid = c.playtest.id
    tokens = {s: t for s, t in c.tokens.items() if s >= 0}
    ctx = multiprocessing.get_context("fork")
    rng = random.Random(args.seed)
    counts = []
    for k in range(args.kills):
        if PlaytestSession(st, pid, tokens[0]).is_over:  # a new playtest: keep killing
            c = manage.create(st, args.game, args.seats, args.seats, think=0.0, seed=args.seed + k)
            pid, tokens = c.playtest.id, {s: t for s, t in c.tokens.items() if s >= 0}
        p = ctx.Process(target=_victim, args=(store_dir, pid, tokens, args.seed * 1000 + k))
        p.start()
        before, deadline = st.count(pid), time.monotonic() + 60
        while st.count(pid) == before and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.05))
        assert p.pid is not None
        os.kill(p.pid, signal.SIGKILL)
        p.join()
        counts.append(st.count(pid))
    bad = 0
    for pt in st.playtests():
        seqs = [a.seq for a in st.actions(pt.id)]
        if seqs != list(range(1, len(seqs) + 1)):
            bad += 1
        path = Path(store_dir) / f"{pt.id}.jsonl"
        manage.export(st, pt.id, path)
        replay(path, check=True)
    print(
        f"{args.kills} SIGKILLs of a process playing every seat of {args.game} "
        f"({args.seats} seats, seed {args.seed}); actions stored after each kill: {counts}"
    )
    print(
        f"playtests {len(st.playtests())}: every sequence gapless and undoubled: {bad == 0}; "
        "every export replays with --check: True"
    )
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--playtests", type=int, default=20)
    ap.add_argument("--seats", type=int, default=5)
    ap.add_argument("--humans", type=int, default=3)
    ap.add_argument("--game", default="castle")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--poll", type=float, default=0.1)
    ap.add_argument("--human-think", type=float, default=0.3)
    ap.add_argument("--think", type=float, default=0.2)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--store", default=None)
    ap.add_argument("--kills", type=int, default=0)
    args = ap.parse_args(argv)
    return kills(args) if args.kills else load(args)


if __name__ == "__main__":
    sys.exit(main())
