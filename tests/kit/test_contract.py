"""The game contract is explicit and typed (issue 35, item 2): the identity a log needs is
checked by ``Game.new`` with a clear error; the command and simulator hooks are typed
protocols with the kit's defaults; ``SimHooks`` adds to the kit's seat options instead of
replacing them; the registry has no field nothing reads."""

from __future__ import annotations

import argparse
import dataclasses
import random
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from throne_lib.cli import main as throne_main
from throne_lib.kit import registry, sim
from throne_lib.kit.cli import CliHooks, KitCliHooks, cli_hooks
from throne_lib.kit.log import MatchRecorder, write_log
from throne_lib.kit.protocol import IDENTITY, ContractError, GameMatch

ROOT = Path(__file__).resolve().parents[2]


class Coin:
    """A one-action game: seat 0 calls heads or tails; the seeded coin decides."""

    game = "coin"

    def __init__(self, setups: list[Any], seed: int, options: dict[str, Any]) -> None:
        self.setups, self.seed, self.options = list(setups), seed, dict(options)
        self.rng = random.Random(seed)
        self.history: list[str] = []
        self.coin = self.rng.choice(("heads", "tails"))

    num_seats = property(lambda self: 1)
    current_seat = property(lambda self: 0)
    is_over = property(lambda self: bool(self.history))

    def legal_actions(self) -> list[str]:
        return [] if self.history else ["heads", "tails"]

    def parse(self, text: str) -> str:
        return text

    def apply(self, action: str) -> list[Any]:
        self.history.append(action)
        return []

    def copy(self) -> Coin:
        c = Coin(self.setups, self.seed, self.options)
        c.history = self.history[:]
        return c

    def hash(self) -> str:
        return f"{self.coin}:{','.join(self.history)}"

    def returns(self) -> list[float]:
        return [1.0 if self.history and self.history[0] == self.coin else 0.0]

    def observation(self, seat: int) -> dict[str, Any]:
        return {"called": self.history}

    def resample(self, seat: int, rng: random.Random) -> Coin:
        return self.copy()


class Nameless(Coin):
    """A game that forgot ``game = "NAME"`` (how issue 35 found an empty log file)."""

    game = property(lambda self: (_ for _ in ()).throw(AttributeError("game")))  # type: ignore[assignment]


def _game(cls: type[Coin], name: str = "coin") -> registry.Game:
    return registry.Game(
        name=name,
        title="硬币",
        title_en="Coin",
        rule_prefix="COIN-",
        module=__name__,
        seats=(1, 1),
        new_match=lambda setups, seed, options: cls(list(setups), seed, dict(options)),
        default_setups=lambda n: ["caller"] * n,
    )


def test_the_protocol_names_the_identity_a_log_needs() -> None:
    assert IDENTITY == ("game", "seed", "setups", "history")
    m = _game(Coin).new(seed=3)
    assert isinstance(m, GameMatch)
    for game in registry.games():
        match = game.new(seed=1)
        assert isinstance(match, GameMatch) and match.game == game.name


def test_a_match_without_its_game_name_fails_at_new_not_in_the_log(tmp_path: Path) -> None:
    with pytest.raises(ContractError, match=r"coin's match \(Nameless\) has no game"):
        _game(Nameless).new(seed=1)
    m = Nameless(["caller"], 1, {})
    out = tmp_path / "coin.jsonl"
    with pytest.raises(ContractError, match="has no game"):
        write_log(m, out)
    with pytest.raises(ContractError, match="has no game"):
        MatchRecorder(m, out)
    assert not out.exists()  # no empty log file left behind


def test_a_match_naming_another_game_is_refused() -> None:
    with pytest.raises(ContractError, match="says its game is 'coin', registered as 'other'"):
        _game(Coin, "other").new(seed=1)


def test_a_missing_history_is_named() -> None:
    class NoHistory(Coin):
        def __init__(self, setups: list[Any], seed: int, options: dict[str, Any]) -> None:
            super().__init__(setups, seed, options)
            del self.history

    with pytest.raises(ContractError, match="has no history"):
        _game(NoHistory).new(seed=1)


def test_cli_hooks_are_typed_with_the_kits_defaults() -> None:
    for game in registry.games():
        assert isinstance(cli_hooks(game), CliHooks), game.name
    kit = KitCliHooks()
    ns = argparse.Namespace()
    assert kit.seat_options is True and kit.play_options(ns) == {}
    assert [kit.play(ns), kit.summary(None), kit.report_text(pd.DataFrame())] == [None] * 3
    assert cli_hooks(registry.get("throne")).seat_options is False  # a deck per side instead

    class Partial:
        def summary(self, match: Any) -> list[str]:
            return []

    bad = dataclasses.replace(_game(Coin), cli=Partial())
    with pytest.raises(TypeError, match="Game.cli is a Partial without seat_options, add_play"):
        cli_hooks(bad)


def test_dead_registry_fields_are_gone() -> None:
    fields = {f.name for f in dataclasses.fields(registry.Game)}
    assert not fields & {"renderer", "controller"}
    assert "resolve_setup" in fields  # read by `throne play --setups` and benchmarks/soak.py


def test_play_setups_go_through_resolve_setup(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = sorted((ROOT / "decks" / "pin").glob("*.deck"))[:2]
    assert len(decks) == 2
    log = tmp_path / "pin.jsonl"
    words = ",".join(str(d) for d in decks)
    assert throne_main(["play", "--game", "pin", "--setups", words, "--log", str(log)]) == 0
    head = log.read_text(encoding="utf-8").splitlines()[0]
    assert decks[0].stem in head
    assert throne_main(["play", "--game", "pin", "--setups", str(decks[0])]) == 1
    assert "1 setups for 2 seats" in capsys.readouterr().err


def test_sim_hooks_add_to_the_kits_seat_options() -> None:
    """城堡之心 and 城池战 add columns and options; the kit keeps --seats/--agent/--rotate."""
    castle, cities = registry.get("castle"), registry.get("cities")
    for game in (castle, cities):
        assert isinstance(sim.sim_hooks(game), sim.SimHooks)
        args = sim.build_parser(game).parse_args(["--players", "3", "--rotate", "-n", "3"])
        assert (args.seats, args.agent, args.rotate) == (3, game.default_agent, True)
    assert sim.build_parser(castle).parse_args([]).seats == 5  # the game's default
    args = sim.build_parser(cities).parse_args(["--seats", "4", "--teams", "a,b,a,b", "-n", "2"])
    specs = sim.specs_from_args(cities, args, None)
    assert [s.setups for s in specs] == [("a", "b", "a", "b")] * 2
    args = sim.build_parser(cities).parse_args(["--seats", "4", "--deck-mode", "shared"])
    assert dict(sim.specs_from_args(cities, args, None)[0].options) == {
        "rules": (("deck_mode", "shared"),)
    }
    throne = sim.build_parser(registry.get("throne")).parse_args([])
    assert not hasattr(throne, "seats") and throne.blue == "human"  # Throne's own options


def test_one_report_table_for_castle_and_cities() -> None:
    from throne_lib.games.castle.report import report_text as castle_report
    from throne_lib.games.cities.sim import report_text as cities_report

    df = pd.DataFrame(
        {
            "match": [0, 1],
            "players": [3, 3],
            "end_rule": ["CH-WIN-1", "CH-WIN-2"],
            **{f"seat{s}_role": ["lord", "enemy"] for s in range(3)},
            **{f"seat{s}_hero": ["A", "B"] for s in range(3)},
            **{f"seat{s}_team_size": [1, 2] for s in range(3)},
            **{f"seat{s}_start_city": ["X", "Y"] for s in range(3)},
            **{f"seat{s}_return": [1.0, -1.0] for s in range(3)},
        }
    )
    castle, cities = castle_report(df).splitlines(), cities_report(df).splitlines()
    assert castle[0] == "城堡之心 · 2 matches" and cities[0] == "城池战 · 2 matches"
    assert "win rate by hero:" in castle and "win rate by starting city:" in cities
    assert any(line.split()[:2] == ["A", "100%"] for line in castle)
    assert any(line.split()[:2] == ["X", "100%"] for line in cities)


def test_simulate_help_without_a_game_shows_the_kits_options(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        sim.simulate_main(["--help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and "throne simulate --game NAME --help" in out
    assert "--matches" in out and "--blue" not in out and "goofspiel" in out
    with pytest.raises(SystemExit):
        sim.simulate_main(["--game", "throne", "--help"])
    assert "--blue" in capsys.readouterr().out  # a game's own options: with --game
