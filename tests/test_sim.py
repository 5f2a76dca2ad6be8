"""Batch simulation: result rows, determinism across backends (serial, processes,
Dask LocalCluster), Parquet output, match logs and the ``throne simulate`` CLI."""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
import pytest

from throne_lib import CardDB
from throne_lib.cli import main as throne_main
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.sim import ladder_specs, matchup_specs, round_robin_specs
from throne_lib.kit.log import replay
from throne_lib.kit.sim import MatchSpec, load_results, simulate, simulate_main
from throne_lib.kit.sim import play_spec as sim_play_spec


def small_specs(db: CardDB, n: int = 4) -> list[MatchSpec]:
    return matchup_specs(
        signature_deck(db, "human"),
        signature_deck(db, "demon"),
        n,
        seed=40,
        agents=("standard", "random"),
        alternate=True,
    )


def test_rows_describe_each_match(db: CardDB) -> None:
    specs = small_specs(db)
    df = simulate(specs, backend="serial", progress=False)
    assert list(df["match"]) == [0, 1, 2, 3]
    assert list(df["seed"]) == [40, 41, 42, 43]
    assert set(df["winner"]) <= {"blue", "red", "draw"}
    # alternate: odd matches swap decks and agents
    assert list(df["blue_agent"]) == ["standard", "random", "standard", "random"]
    assert df.loc[1, "blue_general"] == df.loc[0, "red_general"]
    for name in ("blue", "red"):
        assert (df[f"{name}_mana_spent"] > 0).all()
        assert (df[f"{name}_cards_drawn"] >= 5).all()  # the opening hand (R-TURN-4)
        assert df[f"{name}_throne_hp"].between(0, 60).all()
    over = df[df["end_reason"] == "throne"]
    assert ((over["blue_throne_hp"] == 0) | (over["red_throne_hp"] == 0)).all()
    for _, row in df.iterrows():
        for name in ("blue", "red"):
            played, drawn = set(row[f"{name}_played"]), set(row[f"{name}_drawn"])
            assert played <= drawn
            assert row[f"{name}_cards_played"] >= len(played)


def test_process_backend_equals_serial(db: CardDB) -> None:
    specs = small_specs(db)
    serial = simulate(specs, backend="serial", progress=False)
    procs = simulate(specs, backend="process", workers=2, progress=False)
    pd.testing.assert_frame_equal(serial, procs)


def test_simulate_cli_dask_equals_process(tmp_path: Path) -> None:
    """``throne simulate --backend dask`` on a LocalCluster (127.0.0.1, one in-process
    worker) gives the same results as the process backend for the same seeds."""
    common = ["--blue", "goblin", "--red", "undead", "-n", "3", "--seed", "7", "--no-progress"]
    common += ["--blue-agent", "standard", "--red-agent", "random", "--alternate"]
    out_p, out_d = tmp_path / "p.parquet", tmp_path / "d.parquet"
    assert throne_main(["simulate", *common, "--workers", "2", "--out", str(out_p)]) == 0
    assert simulate_main([*common, "--backend", "dask", "--workers", "1", "--out", str(out_d)]) == 0
    a, b = load_results(out_p), load_results(out_d)
    assert len(a) == 3
    pd.testing.assert_frame_equal(a, b)


def test_logs_are_written_and_replay(db: CardDB, tmp_path: Path) -> None:
    specs = small_specs(db, 2)
    df = simulate(specs, backend="serial", progress=False, log_dir=tmp_path)
    logs = sorted(tmp_path.glob("match_*.jsonl"))
    assert len(logs) == 2
    m = replay(logs[1], check=True)
    assert m.is_over and m.round == df.loc[1, "rounds"]


def test_round_robin_and_ladder_specs(db: CardDB) -> None:
    gens = [g.id for g in db.of("general")]
    rr = round_robin_specs(db, 2, seed=5)
    pairs = len(gens) * (len(gens) + 1) // 2
    assert len(rr) == 2 * pairs
    assert [s.index for s in rr] == list(range(len(rr)))
    assert len({s.seed for s in rr}) == len(rr)
    lad = ladder_specs(db, "search", "standard", 6)
    assert [s.agents for s in lad[:2]] == [("search", "standard"), ("standard", "search")]


def test_unknown_backend_and_bad_side(db: CardDB, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(ValueError, match="unknown backend"):
        simulate(small_specs(db, 1), backend="spark", progress=False)
    assert simulate_main(["--blue", "nobody", "-n", "1", "--no-progress"]) == 1
    assert "nobody" in capsys.readouterr().err


def test_play_spec_plays_the_agents_it_is_given() -> None:
    """``play_spec(spec, agents=…)``: the given agents play (a benchmark's probe); the
    same agents as the spec names give the same row, other ones another match."""
    from throne_lib.kit.agents import make_agent
    from throne_lib.kit.registry import get

    setups = get("castle").default_setups(5)  # type: ignore[misc]
    spec = MatchSpec(0, 11, tuple(setups), ("scripted",) * 5, game="castle")
    _, row = sim_play_spec(spec)
    same = [make_agent("scripted", spec.agent_seed(q), "castle") for q in range(5)]
    assert sim_play_spec(spec, None, same)[1] == row
    other = [make_agent("random", spec.agent_seed(q), "castle") for q in range(5)]
    _, moved = sim_play_spec(spec, None, other)
    assert moved["actions"] != row["actions"] and moved["seat0_agent"] == "scripted"


def test_the_castle_headroom_probe_runs_and_its_cheat_is_no_agent(tmp_path: Path) -> None:
    """benchmarks/castle_headroom.py end to end at a toy size: the ladder's rows for the
    baseline, the honest search and the cheating probe; the probe is no agent anyone can
    name."""
    import importlib.util

    from throne_lib.kit.agents import agent_names

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "castle_headroom.py"
    spec = importlib.util.spec_from_file_location("castle_headroom", path)
    assert spec is not None and spec.loader is not None
    probe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(probe)
    out = tmp_path / "h.parquet"
    argv = ["--seats", "5", "-n", "1", "--iterations", "2", "--workers", "1", "--out", str(out)]
    assert probe.main([*argv, "--agents", "ismcts,roles,cheat"]) == 0
    labels = sorted(load_results(out)["ladder"])
    assert [x.split("|")[:2] for x in labels] == [
        ["base", ""], ["focus", "cheat:iterations=2"], ["focus", "ismcts:iterations=2"],
        ["focus", "roles:iterations=2"],
    ]  # fmt: skip
    assert not {"cheat", "roles"} & set(agent_names("castle"))
    # the role oracle's worlds: the true identities, the hands and pile redrawn
    from throne_lib.kit import registry

    m = registry.get("castle").new(registry.get("castle").default_setups(6), seed=3)  # type: ignore[misc]
    oracle = probe.RoleOracleIsmcts(0, game="castle", iterations=2)
    worlds = [oracle.determinize(m, 0, random.Random(k)) for k in range(8)]
    assert all([p.role for p in w.state.players] == [p.role for p in m.state.players]
               for w in worlds)  # fmt: skip
    assert all(w.state.deck != m.state.deck for w in worlds)  # the pile is redrawn


def test_the_castle_choice_diff_replays_the_ladder_match(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """benchmarks/castle_choice_diff.py replays the ladder's match of a seed with the focus
    seat's agent and seeds: with the scripted agent in the focus seat it finds no choice
    that differs from the scripted agent's and ends as the ladder's base match did; a
    search differs somewhere and says where."""
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "benchmarks" / "castle_choice_diff.py"
    spec = importlib.util.spec_from_file_location("castle_choice_diff", path)
    assert spec is not None and spec.loader is not None
    diff = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(diff)
    from throne_lib.kit import registry
    from throne_lib.kit.ladder import ladder_specs as kit_ladder_specs
    from throne_lib.kit.ladder import parse_entrant

    game = registry.get("castle")
    specs = kit_ladder_specs(
        game, [parse_entrant("scripted"), parse_entrant("random")], 1, 5, seed=11
    )
    _, base = sim_play_spec(specs[0], None)
    seat = int(specs[1].label.split("|")[2])
    assert diff.main(["11", str(seat), "5", "scripted"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert f"winner {base['winner']} after {base['actions']} actions" in last
    assert "otherwise than scripted at 0 of" in last
    assert diff.main(["11", str(seat), "5", "random"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) > 1 and "where scripted plays" in out[0] and "at 0 of" not in out[-1]
