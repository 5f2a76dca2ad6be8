"""Soak test (issue 15): many seeded random matches of every registered game, each written
to a log; a sample of the logs is replayed with ``throne replay --check``.

    .venv/bin/python benchmarks/soak.py [--matches 10000] [--sample 200] [--seed 0]
                                        [--logs DIR] [--keep-logs] [--minutes M]

Not part of the test run (it takes a long time); it asserts nothing by timing. It
prints figures — matches and actions per game, end reasons, any exception with the
game and seed that reproduces it, and the replay-check results — and exits 1 if any
match raised or any sampled log failed its check. Every match is a pure function of
(game, seed): ``--seed S`` shifts the seeds, so a failure is reproduced by its seed.
``--minutes M`` stops starting new matches after M minutes (the figures say how many
were played).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import random
import shutil
import sys
import tempfile
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm  # type: ignore[import-untyped]

from throne_lib.cli import main as throne_main
from throne_lib.kit import registry

# Variety for games whose setups can be named by a word (``Game.resolve_setup``); a game
# not listed plays its default setups.
SETUP_WORDS: dict[str, tuple[str, ...]] = {
    "throne": ("human", "beast", "goblin", "undead", "elf", "demon"),
}


def setups_for(game: registry.Game, rng: random.Random) -> list[Any] | None:
    words = SETUP_WORDS.get(game.name)
    n = game.seats[0] if game.seats[0] == game.seats[1] else rng.randint(*game.seats)
    if words and game.resolve_setup is not None:
        return [game.resolve_setup(rng.choice(words)) for _ in range(n)]
    if game.default_setups is not None:
        return game.default_setups(n)
    return None


def random_agent(game: registry.Game, seed: int) -> Any:
    """The kit's random agent for ``game`` (uniform over legal actions)."""
    from throne_lib.kit.agents import make_agent

    return make_agent("random", seed, game.name)


def recorder(game: registry.Game, match: Any, path: Path) -> Any:
    """A recorder that applies actions to ``match`` and writes its log line by line."""
    from throne_lib.kit.log import MatchRecorder

    return MatchRecorder(match, path)


def play_one(game: registry.Game, seed: int, log_dir: Path) -> tuple[Any, Path]:
    rng = random.Random(f"soak:{game.name}:{seed}")
    setups = setups_for(game, rng)
    match = game.new(setups, seed)
    agents = [random_agent(game, seed * 8 + k) for k in range(match.num_seats)]
    path = log_dir / f"{game.name}_{seed:06d}.jsonl"
    with recorder(game, match, path) as rec:
        for _ in range(200_000):
            if match.is_over:
                break
            rec.apply(agents[match.current_seat].choose(match))
        else:
            raise RuntimeError("the match did not end within 200000 actions")
    return match, path


def replay_check(game: registry.Game, path: Path) -> tuple[int, str]:
    """``throne replay LOG --check`` in this process: (exit status, stderr)."""
    err = io.StringIO()
    argv = ["replay", str(path), "--check"]
    if game.name != registry.DEFAULT_GAME:
        argv += ["--game", game.name]
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = throne_main(argv)
    return code, err.getvalue().strip()


def soak(
    matches: int, sample: int, seed0: int, log_dir: Path, minutes: float | None
) -> dict[str, Any]:
    games = registry.games()
    deadline = time.monotonic() + minutes * 60 if minutes else None
    played: Counter[str] = Counter()
    actions: Counter[str] = Counter()
    reasons: Counter[tuple[str, str]] = Counter()
    failures: list[tuple[str, int, str]] = []
    logs: list[tuple[registry.Game, Path]] = []
    started = time.monotonic()
    bar = tqdm(total=matches, desc="soak", unit="match")
    for k in range(matches):
        if deadline is not None and time.monotonic() > deadline:
            break
        game = games[k % len(games)]
        seed = seed0 + k // len(games)
        try:
            match, path = play_one(game, seed, log_dir)
        except Exception as exc:  # the point of a soak: record, reproduce by seed, go on
            failures.append((game.name, seed, "".join(traceback.format_exception_only(exc))))
        else:
            played[game.name] += 1
            actions[game.name] += len(match.history)
            reasons[(game.name, str(getattr(match, "end_reason", "")).split(":")[0])] += 1
            logs.append((game, path))
        bar.update(1)
    bar.close()
    play_time = time.monotonic() - started
    rng = random.Random(seed0)
    chosen = rng.sample(logs, min(sample, len(logs)))
    checks: list[tuple[str, int, str]] = []
    t0 = time.monotonic()
    for game, path in tqdm(chosen, desc="replay --check", unit="log"):
        code, err = replay_check(game, path)
        if code != 0:
            checks.append((path.name, code, err))
    return {
        "games": [g.name for g in games],
        "played": played,
        "actions": actions,
        "reasons": reasons,
        "failures": failures,
        "play_seconds": play_time,
        "checked": len(chosen),
        "check_failures": checks,
        "check_seconds": time.monotonic() - t0,
        "attempted": sum(played.values()) + len(failures),
    }


def report(r: dict[str, Any]) -> None:
    total = sum(r["played"].values())
    print(f"games: {', '.join(r['games'])}")
    print(
        f"matches: {r['attempted']} started, {total} finished, {len(r['failures'])} raised; "
        f"{r['play_seconds']:.0f} s ({total / max(r['play_seconds'], 1e-9):.1f} matches/s)"
    )
    for name in r["games"]:
        n = r["played"][name]
        if n:
            mean = r["actions"][name] / n
            ends = ", ".join(
                f"{reason or '?'} {c}"
                for (g, reason), c in sorted(r["reasons"].items())
                if g == name
            )
            print(f"  {name}: {n} matches, {mean:.0f} actions on average; ends: {ends}")
    for game, seed, what in r["failures"][:20]:
        print(f"  RAISED {game} seed {seed}: {what.strip()}")
    print(
        f"replay --check: {r['checked']} sampled logs, {len(r['check_failures'])} failed "
        f"({r['check_seconds']:.0f} s)"
    )
    for name, code, err in r["check_failures"][:20]:
        print(f"  FAILED {name} (exit {code}): {err}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--matches", type=int, default=10_000)
    p.add_argument("--sample", type=int, default=200, help="logs replayed with --check")
    p.add_argument("--seed", type=int, default=0, help="first seed")
    p.add_argument("--logs", type=Path, help="directory for the logs (default: a temp dir)")
    p.add_argument("--keep-logs", action="store_true")
    p.add_argument("--minutes", type=float, help="stop starting matches after this long")
    args = p.parse_args(argv)
    log_dir = args.logs or Path(tempfile.mkdtemp(prefix="throne-soak-"))
    log_dir.mkdir(parents=True, exist_ok=True)
    try:
        r = soak(args.matches, args.sample, args.seed, log_dir, args.minutes)
    finally:
        if not args.keep_logs and args.logs is None:
            shutil.rmtree(log_dir, ignore_errors=True)
    report(r)
    return 1 if r["failures"] or r["check_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
