"""The kit's conformance suite (issue 35): what every registered game guarantees, checked
once over ``registry.games()``. A new game gets all of it by registering — and by storing
its golden files (below). Two sibling files belong to the suite: ``test_bad_input.py``
(non-actions, bad seats and float/bool action fields leave the hash unchanged) and
``test_hidden_information.py`` (``resample(seat)`` keeps ``observation(seat)`` and the
seat to act).

- ``copy()`` is independent: playing on a copy changes nothing in the original, and back.
- ``observation(seat)`` is JSON-serialisable for every seat, at every step of a playout.
- Random play → log → ``throne replay --check`` round trip, through the command line.
- Determinism by seed: the same seed and agents give the same hashes, action by action.
- Behaviour is unchanged (a refactor must keep it): under ``tests/golden/<game>/`` a
  golden log (``random_seed<S>.jsonl``: seeded random agents from ``Game.new(seed=S)``,
  at most ``PLIES`` actions), the perft counts of that start position (``perft.json``,
  kit/perft.py's format, with the divide) and the digest of a seeded simulation
  (``simulation.json``). The stored log must replay and be regenerated identically
  (but its ``created`` time); the perft counts and the digest must be equal.

When a game's rules change **on purpose**, regenerate its files and commit them with the
change that explains them (a new game: run it once to create them)::

    .venv/bin/python tests/kit/test_conformance.py            # every game
    .venv/bin/python tests/kit/test_conformance.py goofspiel  # one game
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from throne_lib.cli import main as throne_main
from throne_lib.kit import perft as kit_perft
from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent
from throne_lib.kit.log import AgentInfo, log_lines, read_log, replay
from throne_lib.kit.protocol import GameMatch
from throne_lib.kit.sim import frame_digest, seat_specs, simulate

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
SEED = 3  # the golden log's and the perft position's seed
PLIES = 120  # the golden log's length at most (a long random match proves no more)
PERFT_LEAVES = 4000  # the perft depth stored is the deepest with at most this many leaves
SIM_MATCHES, SIM_SEED = 2, 11  # the seeded simulation: random agents, full matches

# the games of the game packages (a test module may register a throw-away game of its own)
GAMES = [g for g in registry.games() if g.module.startswith("throne_lib.games.")]
IDS = [g.name for g in GAMES]


def agents_for(game: registry.Game, n: int, seed: int) -> list[Any]:
    """Seeded random agents, one per seat (the seeds ``throne play`` gives them)."""
    return [make_agent("random", seed * n + s, game.name) for s in range(n)]


def play(game: registry.Game, seed: int, plies: int = PLIES) -> GameMatch:
    """``Game.new(seed=seed)`` after at most ``plies`` actions of seeded random agents."""
    m = game.new(seed=seed)
    agents = agents_for(game, m.num_seats, seed)
    for _ in range(plies):
        if m.is_over:
            break
        m.apply(agents[m.current_seat].choose(m))
    return m


def golden_lines(game: registry.Game) -> list[dict[str, Any]]:
    m = play(game, SEED)
    infos = [AgentInfo("random", SEED * m.num_seats + s) for s in range(m.num_seats)]
    return [_timeless(line) for line in log_lines(m, infos)]


def _timeless(line: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in line.items() if k != "created"}


def perft_position(game: registry.Game) -> Any:
    return lambda data: game.new(seed=data["seed"])


def simulation_digest(game: registry.Game) -> str:
    n = game.seats[0]
    setups = game.default_setups(n) if game.default_setups else []
    specs = seat_specs(game.name, setups, ["random"] * n, SIM_MATCHES, SIM_SEED)
    return frame_digest(simulate(specs, backend="serial", progress=False))


def folder(game: registry.Game) -> Path:
    return GOLDEN / game.name


# --- the tests ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_copies_are_independent(game: registry.Game) -> None:
    m = play(game, 5, 8)
    if m.is_over:
        pytest.skip(f"{game.name}'s seed-5 match ended within 8 actions")
    before, legal = m.hash(), [str(a) for a in m.legal_actions()]
    c = m.copy()
    assert c.hash() == before
    agents = agents_for(game, c.num_seats, 5)
    for _ in range(10):
        if c.is_over:
            break
        c.apply(agents[c.current_seat].choose(c))
    assert c.hash() != before
    assert m.hash() == before and [str(a) for a in m.legal_actions()] == legal
    c2 = m.copy()
    m.apply(m.legal_actions()[0])
    assert c2.hash() == before  # and back: playing on the original leaves the copy


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_observations_are_json_for_every_seat(game: registry.Game) -> None:
    m = game.new(seed=7)
    agents = agents_for(game, m.num_seats, 7)
    for _ in range(40):
        for seat in range(m.num_seats):
            json.dumps(m.observation(seat))  # raises on anything that is not plain data
        if m.is_over:
            break
        m.apply(agents[m.current_seat].choose(m))


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_play_logs_and_replays_through_the_cli(
    game: registry.Game, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    n = game.seats[0]
    log = tmp_path / f"{game.name}.jsonl"
    argv = ["play", "--game", game.name, "--seed", "2", "--log", str(log)]
    if game.name == "throne":  # Throne names an agent per side, the others per seat
        argv += ["--blue", "random", "--red", "random"]
    else:
        argv += ["--agents", ",".join(["random"] * n)]
    assert throne_main(argv) == 0, capsys.readouterr().err
    played = capsys.readouterr().out
    assert throne_main(["replay", str(log), "--check"]) == 0, capsys.readouterr().err
    out = capsys.readouterr().out
    assert "check: OK, every state hash matches" in out
    final = [ln for ln in played.splitlines() if ln.startswith("final hash")]
    assert final and final[0] in out.splitlines()  # the replay ends where the play did
    assert read_log(log).game == game.name


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_seed_decides_the_match(game: registry.Game) -> None:
    def hashes(seed: int) -> list[str]:
        m = game.new(seed=seed)
        agents = agents_for(game, m.num_seats, seed)
        out = [m.hash()]
        for _ in range(30):
            if m.is_over:
                break
            m.apply(agents[m.current_seat].choose(m))
            out.append(m.hash())
        return out

    assert hashes(4) == hashes(4)
    assert len({tuple(hashes(s)) for s in (4, 5, 6)}) > 1, "the seed changes nothing"


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_golden_log_replays_and_is_made_again_identically(game: registry.Game) -> None:
    path = folder(game) / f"random_seed{SEED}.jsonl"
    assert path.is_file(), f"no golden log for {game.name}: run {Path(__file__).name} {game.name}"
    replay(read_log(path), check=True)
    stored = [_timeless(json.loads(ln)) for ln in path.read_text(encoding="utf-8").splitlines()]
    now = golden_lines(game)
    first = next((i for i, (a, b) in enumerate(zip(stored, now, strict=False)) if a != b), None)
    assert first is None and len(stored) == len(now), (
        f"{game.name}: the golden log differs from line {first if first is not None else len(now)}"
    )


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_perft_counts_are_unchanged(game: registry.Game) -> None:
    path = folder(game) / "perft.json"
    assert path.is_file(), f"no perft counts for {game.name}"
    data = kit_perft.load(folder(game), "perft")
    counts, changed = kit_perft.check(data, perft_position(game))
    assert not changed, f"{game.name}: {changed}"
    assert counts[0] == len(game.new(seed=data["seed"]).legal_actions())


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_the_seeded_simulation_is_unchanged(game: registry.Game) -> None:
    data = json.loads((folder(game) / "simulation.json").read_text(encoding="utf-8"))
    assert (data["matches"], data["seed"]) == (SIM_MATCHES, SIM_SEED)
    assert simulation_digest(game) == data["digest"]


# --- regenerating (see the module docstring) -------------------------------------------


def regenerate(game: registry.Game) -> None:
    out = folder(game)
    out.mkdir(parents=True, exist_ok=True)
    m = play(game, SEED)
    infos = [AgentInfo("random", SEED * m.num_seats + s) for s in range(m.num_seats)]
    text = "".join(json.dumps(ln, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for ln in log_lines(m, infos))  # fmt: skip
    (out / f"random_seed{SEED}.jsonl").write_text(text, encoding="utf-8")
    start = game.new(seed=SEED)
    depth = 1
    while depth < 6 and kit_perft.perft(start, depth + 1) <= PERFT_LEAVES:
        depth += 1
    perft_file = out / "perft.json"
    perft_file.write_text(json.dumps({"description": f"{game.name}: Game.new(seed={SEED})",
                                      "seed": SEED, "depth": depth}) + "\n")  # fmt: skip
    kit_perft.regenerate(out, ["perft"], perft_position(game))
    sim = {"matches": SIM_MATCHES, "seed": SIM_SEED, "digest": simulation_digest(game)}
    (out / "simulation.json").write_text(json.dumps(sim, indent=1) + "\n", encoding="utf-8")
    print(f"{game.name}: {len(m.history)} actions logged, perft depth {depth}, sim {sim['digest']}")


if __name__ == "__main__":
    random.seed(0)  # nothing here should draw from it; a draw would still be repeatable
    names = sys.argv[1:] or [g.name for g in GAMES]
    for name in names:
        regenerate(registry.get(name))
