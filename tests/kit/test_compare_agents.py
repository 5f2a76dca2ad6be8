"""``throne compare --agents A B`` and ``--results A.parquet B.parquet`` (issue 32, item 5:
which of a designer's figures change when a stronger agent plays them): the same seeds and
setups with another agent in every seat, or two saved runs paired match by match."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest

from throne_lib.kit import registry
from throne_lib.kit.compare import (
    compare_main,
    compare_results,
    compare_text,
    run_compare,
    with_agent,
)
from throne_lib.kit.sim import seat_specs, simulate_main

TOY = registry.get("goofspiel")


def _simulate(tmp_path: Path, agent: str, seed: int = 0, n: int = 12) -> Path:
    out = tmp_path / f"{agent.replace(':', '_')}_{seed}.parquet"
    code = simulate_main(["--game", "goofspiel", "--agent", agent, "-n", str(n), "--seed",
                          str(seed), "--backend", "serial", "--no-progress", "--out", str(out)])  # fmt: skip
    assert code == 0
    return out


def test_agents_swap_every_seat_and_keep_seeds_and_setups() -> None:
    specs = seat_specs("goofspiel", ["player", "player"], ["random", "random"], 3, seed=7)
    specs = [replace(s, params=((("x", 1),), ())) for s in specs]
    swapped = with_agent(specs, "ismcts:iterations=3")
    assert [s.seed for s in swapped] == [7, 8, 9]
    assert [s.setups for s in swapped] == [s.setups for s in specs]
    assert {s.agents for s in swapped} == {("ismcts:iterations=3",) * 2}
    assert all(s.params == () for s in swapped)  # the old agent's parameters are gone


def test_compare_agents_plays_each_agent_on_the_same_seeds() -> None:
    specs = seat_specs("goofspiel", ["player", "player"], ["random", "random"], 10)
    cmp = run_compare(TOY, specs, {}, workers=1, backend="serial", progress=False,
                      agents=("random", "ismcts:iterations=4"))  # fmt: skip
    assert set(cmp.base["seat0_agent"]) == {"random"}
    assert set(cmp.variant["seat0_agent"]) == set(cmp.variant["seat1_agent"]) == {"ismcts:iterations=4"}  # fmt: skip
    assert list(cmp.base["seed"]) == list(cmp.variant["seed"]) == list(range(10))
    # the agents differ, so the matches do: some seed's score moved
    moved = cmp.table[cmp.table["section"] == "win rate · seat"]
    assert (cmp.base["winner"] != cmp.variant["winner"]).any()
    assert len(moved) == 2
    # one agent against itself is the same matches: every delta 0
    same = run_compare(TOY, specs, {}, workers=1, backend="serial", progress=False,
                       agents=("random", "random"))  # fmt: skip
    assert float(same.table["delta"].abs().max()) == 0.0


def test_saved_runs_pair_exactly_like_playing_them(tmp_path: Path) -> None:
    a, b = _simulate(tmp_path, "random"), _simulate(tmp_path, "ismcts:iterations=4")
    saved = compare_results(TOY, str(a), str(b))
    specs = seat_specs("goofspiel", ["player", "player"], ["random", "random"], 12)
    played = run_compare(TOY, specs, {}, workers=1, backend="serial", progress=False,
                         agents=("random", "ismcts:iterations=4"))  # fmt: skip
    pd.testing.assert_frame_equal(saved.table, played.table)
    assert saved.agents == ("random", "ismcts:iterations=4")


def test_results_of_other_seeds_are_refused_naming_the_match(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = _simulate(tmp_path, "random", seed=0), _simulate(tmp_path, "random", seed=5)
    assert compare_main(["--game", "goofspiel", "--results", str(a), str(b)]) == 1
    err = capsys.readouterr().err
    assert "did not play the same seeds: match 0 is seed 0 in one and 5 in the other" in err


def test_results_and_a_change_together_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = _simulate(tmp_path, "random")
    argv = ["--game", "goofspiel", "--results", str(a), str(a), "--set", "cards=5"]
    assert compare_main(argv) == 1
    assert "no --set, --cards or --agents" in capsys.readouterr().err


def test_compare_agents_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--game", "goofspiel", "--agents", "random", "ismcts:iterations=3", "-n", "6",
            "--backend", "serial", "--no-progress"]  # fmt: skip
    assert compare_main(argv) == 0
    out = capsys.readouterr().out
    assert "agents: base random, variant ismcts:iterations=3" in out
    assert "same setups and agents" not in out
    with pytest.raises(SystemExit):  # an unknown parameter: a usage error before any match
        compare_main(["--game", "goofspiel", "--agents", "random", "ismcts:budget=3"])


def test_saved_runs_of_different_lengths_pair_on_the_seeds_both_played(tmp_path: Path) -> None:
    a = _simulate(tmp_path, "random", n=12)
    b = tmp_path / "short.parquet"
    assert simulate_main(["--game", "goofspiel", "--agent", "ismcts:iterations=4", "-n", "5",
                          "--backend", "serial", "--no-progress", "--out", str(b)]) == 0  # fmt: skip
    cmp = compare_results(TOY, str(a), str(b))
    assert set(cmp.table["n"]) == {5}
    assert "12 + 5 matches, paired on the 5 seeds both played (seeds 0..4)" in compare_text(cmp)
