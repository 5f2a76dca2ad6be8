"""Agent specs with parameters (``ismcts:iterations=10``) on every command line: parsed
once (:func:`throne_lib.kit.agents.parse_agent`), checked before a batch starts, recorded
whole in the result rows so a figure says which budget made it."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from throne_lib.kit import registry
from throne_lib.kit.agents import check_agent, make_agent, parse_agent
from throne_lib.kit.ladder import parse_entrant
from throne_lib.kit.sim import simulate_main


def test_a_spec_is_a_name_and_typed_parameters_in_order() -> None:
    assert parse_agent("ismcts") == ("ismcts", ())
    assert parse_agent(" ismcts:iterations=10:c=0.7:rollout=none ") == (
        "ismcts",
        (("iterations", 10), ("c", 0.7), ("rollout", "none")),
    )
    with pytest.raises(ValueError, match="expected name:key=value, got 'iterations'"):
        parse_agent("ismcts:iterations")
    # the ladder's entrants are the same parse, labelled by the whole token
    e = parse_entrant("ismcts:iterations=10")
    assert (e.label, e.name, e.params) == ("ismcts:iterations=10", "ismcts", (("iterations", 10),))


@pytest.mark.parametrize("game", registry.names())
def test_a_spec_builds_the_agent_its_parameters_describe_in_every_game(game: str) -> None:
    spec = make_agent("ismcts:iterations=7:c=0.9", 3, game)
    by_params = make_agent("ismcts", 3, game, iterations=7, c=0.9)
    assert (spec.iterations, spec.c) == (by_params.iterations, by_params.c) == (7, 0.9)
    # keyword parameters override the spec's
    assert make_agent("ismcts:iterations=7", 3, game, iterations=2).iterations == 2


def test_a_wrong_name_or_parameter_is_refused_with_what_is_known() -> None:
    with pytest.raises(ValueError, match="unknown agent 'ismctz'; known: .*ismcts"):
        check_agent("ismctz:iterations=3", "pin")
    with pytest.raises(ValueError, match="unknown parameter.*iterationz.*known: .*iterations"):
        check_agent("ismcts:iterationz=3", "pin")
    assert check_agent("ismcts:iterations=3", "pin") == "ismcts:iterations=3"


def test_simulate_plays_the_spec_and_its_rows_name_the_budget(tmp_path: Path) -> None:
    out = tmp_path / "g.parquet"
    code = simulate_main(["--game", "goofspiel", "--agent", "ismcts:iterations=3", "-n", "2",
                     "--backend", "serial", "--no-progress", "--out", str(out)])  # fmt: skip
    assert code == 0
    df = pd.read_parquet(out)
    agents = df.filter(like="_agent").drop(columns=df.filter(like="_seed").columns)
    assert set(agents.to_numpy().ravel()) == {"ismcts:iterations=3"}


def test_simulate_refuses_a_wrong_parameter_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "g.parquet"
    with pytest.raises(SystemExit) as exit_:
        simulate_main(["--game", "goofspiel", "--agent", "ismcts:iterationz=3", "-n", "2",
                  "--backend", "serial", "--out", str(out)])  # fmt: skip
    assert exit_.value.code == 2
    assert "iterationz" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize(
    ("argv", "agent"),
    [
        (
            ["--game", "castle", "play", "--agents", "scripted:x=1,scripted,scripted"],
            "scripted:x=1",
        ),
        (["play", "--blue", "standard:x=1"], "standard:x=1"),
    ],
)
def test_play_names_the_agent_whose_parameter_is_wrong(
    argv: list[str], agent: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from throne_lib.cli import main as throne_main

    assert throne_main(argv) == 1
    err = capsys.readouterr().err
    assert f"agent {agent!r}:" in err and "'x'" in err
