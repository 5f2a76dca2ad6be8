"""``throne compare`` and ``--set`` (issue 38, item 6): two variants of any registered game
on the same seeds, paired deltas with 95% intervals; ``--set field=value`` read against the
game's rules dataclass, for ``simulate`` and ``compare`` alike."""

from __future__ import annotations

import dataclasses
import enum
import json
import shutil
from pathlib import Path
from typing import Any, Literal

import pandas as pd
import pytest

from throne_lib.cli import main as throne_main
from throne_lib.kit import registry
from throne_lib.kit.compare import build_compare_parser, compare_main, paired_table, run_compare
from throne_lib.kit.log import read_log
from throne_lib.kit.sim import plain_specs, table_text
from throne_lib.kit.stats import Z95
from throne_lib.kit.variants import (
    VariantError,
    apply_changes,
    default_rules,
    parse_sets,
    parse_value,
)

GAMES = registry.names()


def _specs(game: registry.Game, n: int, extra: list[str] | None = None) -> list[Any]:
    """The specs ``throne compare --game NAME -n N`` plays (small setups for speed)."""
    argv = ["-n", str(n), *(extra or [])]
    args = build_compare_parser(game).parse_args(argv)
    text = table_text(game)
    table = registry.get(game.name).parse_table(text) if text is not None else None  # type: ignore[misc]
    return plain_specs(game, args, table)


def _unchanged(game: registry.Game) -> dict[str, Any]:
    """A ``--set`` of the first int field to its own default: the same rules, rebuilt."""
    rules = default_rules(game)
    for f in dataclasses.fields(rules):
        value = getattr(rules, f.name)
        if isinstance(value, int) and not isinstance(value, bool):
            return parse_sets(game, [f"{f.name}={value}"])
    raise AssertionError(f"{game.name}: no int rule field")


def test_every_game_registers_rules() -> None:
    assert set(GAMES) >= {"throne", "castle", "cities", "pin", "goofspiel"}
    for name in GAMES:
        assert dataclasses.is_dataclass(default_rules(registry.get(name)))


@pytest.mark.parametrize("name", GAMES)
def test_identical_variant_gives_zero_deltas(name: str) -> None:
    """Common random numbers: the same seeds, setups and agents, rules set to what they
    were -> every figure of every row is the same, each delta 0 with the interval [0, 0]."""
    game = registry.get(name)
    extra = ["--seats", "3"] if name in ("castle", "cities") else []
    specs = _specs(game, 3, extra)
    cmp = run_compare(game, specs, _unchanged(game), backend="serial", progress=False)
    t = cmp.table
    assert len(t) >= 4 and set(t["section"]) >= {"win rate · seat", "first player", "length", "end"}
    every = t["section"].isin(["win rate · seat", "first player", "length", "end"])
    assert (t[every]["n"] == 3).all() and (t["n"] >= 1).all()  # a hero: the seeds dealt it
    assert (t["delta"] == 0).all()
    two = t[t["n"] >= 2]  # one seed has no interval (NaN)
    assert (two["ci_low"] == 0).all() and (two["ci_high"] == 0).all()
    assert (t["base"] == t["variant"]).all()
    assert list(cmp.base["seed"]) == list(cmp.variant["seed"]) == [0, 1, 2]


def test_same_card_table_twice_gives_zero_deltas(tmp_path: Path) -> None:
    """``--cards A B`` with B a copy of A: nothing moves (PIN, seeds 0-2)."""
    a = registry.get("pin").card_tables[0]
    b = tmp_path / "copy.csv"
    shutil.copy(a, b)
    out = tmp_path / "rows.parquet"
    argv = ["--game", "pin", "--cards", str(a), str(b), "-n", "3", "--workers", "1",
            "--no-progress", "--out", str(out)]  # fmt: skip
    assert compare_main(argv) == 0
    rows = pd.read_parquet(out)
    assert list(rows["variant"]) == ["base"] * 3 + ["variant"] * 3
    assert set(rows["cards"]) == {str(a), str(b)}
    base, var = rows[rows["variant"] == "base"], rows[rows["variant"] == "variant"]
    assert list(base["winner"]) == list(var["winner"])
    assert list(base["actions"]) == list(var["actions"])


def test_a_real_rule_change_moves_the_lord_up() -> None:
    """城堡之心 with 30 more HP for the 城主 (CH-SETUP-6 lord_bonus_hp): the lord's and the
    reinforcements' win rates rise, the enemies' fall, on the same 10 seeds (0-9)."""
    game = registry.get("castle")
    specs = _specs(game, 10)
    cmp = run_compare(game, specs, {"lord_bonus_hp": 30}, backend="serial", progress=False)
    roles = cmp.table[cmp.table["section"] == "win rate · role"].set_index("key")
    assert roles.loc["lord", "delta"] > 0 and roles.loc["lord", "ci_low"] > 0
    assert roles.loc["enemy", "delta"] < 0 and roles.loc["enemy", "ci_high"] < 0


def test_a_shorter_round_limit_shortens_matches() -> None:
    """Throne with R-END-1's round limit at 6: fewer rounds, more round-limit endings."""
    game = registry.get("throne")
    specs = _specs(game, 4)
    cmp = run_compare(game, specs, {"round_limit": 6}, backend="serial", progress=False)
    t = cmp.table.set_index(["section", "key"])
    assert t.loc[("length", "rounds"), "ci_high"] < 0
    assert (cmp.variant["rounds"] <= 6).all()
    assert t.loc[("end", "end_reason=throne"), "delta"] < 0


def test_paired_table_pairs_by_match() -> None:
    """Deltas are per-seed differences: a figure that moves by +1 in one seed of two has
    mean +0.5 and the interval ±1.96·sd/√n."""
    game = registry.get("goofspiel")

    def frame(winners: list[str]) -> pd.DataFrame:
        return pd.DataFrame(
            {
                "match": [0, 1], "seed": [0, 1], "winner": winners, "actions": [16, 16],
                "seat0_agent": "random", "seat0_return": [1.0 if w == "seat0" else -1.0 for w in winners],
                "seat1_agent": "random", "seat1_return": [1.0 if w == "seat1" else -1.0 for w in winners],
            }
        )  # fmt: skip

    t = paired_table(game, frame(["seat1", "seat1"]), frame(["seat0", "seat1"]))
    row = t.set_index(["section", "key"]).loc[("win rate · seat", "seat0")]
    assert row["delta"] == 0.5
    assert row["ci_high"] - row["delta"] == pytest.approx(Z95 * 0.5**0.5 / 2**0.5)


# --- --set -----------------------------------------------------------------------------


def test_set_reads_each_field_type() -> None:
    throne, castle = registry.get("throne"), registry.get("castle")
    pin, cities = registry.get("pin"), registry.get("cities")
    assert parse_sets(throne, ["base_mana=6", "shuffle_costs=1, 2,3"]) == {
        "base_mana": 6,
        "shuffle_costs": (1, 2, 3),
    }
    assert parse_sets(castle, ["hidden_identities=false", "max_rounds=none"]) == {
        "hidden_identities": False,
        "max_rounds": None,
    }
    assert parse_sets(castle, ["turn_passing=by_seat", "max_rounds=12"])["max_rounds"] == 12
    assert parse_sets(castle, ['role_table={"3": [1, 2, 0, 0]}'])["role_table"] == {3: (1, 2, 0, 0)}
    assert parse_sets(pin, ["rarity_limits=普通:5,限定:4"]) == {
        "rarity_limits": (("普通", 5), ("限定", 4))
    }
    changes = parse_sets(cities, ["base.max_rounds=30", "kill_reward=5"])
    rules = apply_changes(default_rules(cities), changes)
    assert (rules.base.max_rounds, rules.kill_reward) == (30, 5)
    assert rules.base.mana == default_rules(cities).base.mana  # the rest of base kept


def test_set_reads_enums_and_literals() -> None:
    class Colour(enum.Enum):
        RED = "red"
        BLUE = "blue"

    assert parse_value("RED", Colour, "c") is Colour.RED
    assert parse_value("blue", Colour, "c") is Colour.BLUE
    assert parse_value("b", Literal["a", "b"], "x") == "b"
    with pytest.raises(VariantError, match="one of RED, BLUE"):
        parse_value("green", Colour, "c")
    with pytest.raises(VariantError, match="one of a, b"):
        parse_value("c", Literal["a", "b"], "x")


@pytest.mark.parametrize(
    ("name", "item", "message"),
    [
        ("throne", "mana=6", "throne has no rule field 'mana'; valid fields: columns (int, 7)"),
        ("throne", "base_mana=six", "--set base_mana=six: expected int"),
        ("throne", "base_mana", "expected field=value; valid fields:"),
        ("throne", "columns=40", "columns=40 (expected 1..26)"),
        ("castle", "hidden_identities=maybe", "expected bool (true or false)"),
        ("castle", "bogus=1", "valid fields: min_players (int, 3)"),
        ("cities", "base.nope=1", "no rule field 'base.nope'"),
        ("pin", "rarity_limits=普通", "items name:value"),
        ("goofspiel", "cards=20", "the game refuses it: cards: 1..13, not 20 (GS-SETUP-1)"),
        ("goofspiel", "decks=2", "valid fields: cards (int, 8)"),
    ],
)
def test_bad_set_is_one_clear_line(
    name: str, item: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """An unknown field or a bad value: exit 1, one line naming it (and the valid fields
    for a wrong name), no traceback — for ``compare`` and ``simulate`` alike."""
    for command in ("compare", "simulate"):
        code = throne_main([command, "--game", name, "--set", item, "-n", "1"])
        err = capsys.readouterr().err
        assert code == 1, (command, err)
        assert message in err and "Traceback" not in err
        assert len(err.strip().splitlines()) == 1


def test_compare_needs_a_change(capsys: pytest.CaptureFixture[str]) -> None:
    assert throne_main(["compare", "--game", "goofspiel", "-n", "1"]) == 1
    assert "nothing to compare" in capsys.readouterr().err


def test_simulate_set_is_recorded_in_parquet_and_logs(tmp_path: Path) -> None:
    """``throne simulate --set`` plays the changed rules: the Parquet rows name them, each
    log header carries them and replays to the same state."""
    out, logs = tmp_path / "c.parquet", tmp_path / "logs"
    argv = ["simulate", "--game", "castle", "--players", "3", "-n", "2", "--workers", "1",
            "--no-progress", "--set", "lord_bonus_hp=3", "--set", "mana=7",
            "--out", str(out), "--logs", str(logs)]  # fmt: skip
    assert throne_main(argv) == 0
    df = pd.read_parquet(out)
    assert set(df["rules"]) == {json.dumps({"lord_bonus_hp": 3, "mana": 7}, sort_keys=True)}
    log = read_log(sorted(logs.glob("*.jsonl"))[0])
    assert log.header.options["rules"] == {"lord_bonus_hp": 3, "mana": 7}

    out2, logs2 = tmp_path / "t.parquet", tmp_path / "tlogs"
    argv = ["simulate", "-n", "1", "--workers", "1", "--no-progress", "--set", "base_mana=6",
            "--out", str(out2), "--logs", str(logs2)]  # fmt: skip
    assert throne_main(argv) == 0
    header = read_log(sorted(logs2.glob("*.jsonl"))[0]).header
    assert header.rules.base_mana == 6  # type: ignore[attr-defined]
    assert json.loads(pd.read_parquet(out2)["rules"][0]) == {"base_mana": 6}


def test_simulate_set_combines_with_a_games_own_rule_option() -> None:
    """城池战's ``--deck-mode shared`` and a ``--set`` both reach the match's rules."""
    from throne_lib.kit import sim

    game = registry.get("cities")
    args = sim.build_parser(game).parse_args(
        ["--seats", "3", "-n", "1", "--deck-mode", "shared", "--set", "kill_reward=4"]
    )
    (spec,) = sim.specs_from_args(game, args, None)
    rules = dict(spec.options)["rules"]
    assert (rules.deck_mode, rules.kill_reward) == ("shared", 4)


def test_a_value_is_checked_on_the_seats_played(capsys: pytest.CaptureFixture[str]) -> None:
    """A role table with a row for 5 players only (CH-ROLE-4) is fine for 5 seats and
    refused, before any match, for 4."""
    table = '--set=role_table={"5": [1, 3, 1, 0]}'
    argv = ["compare", "--game", "castle", table, "-n", "1", "--workers", "1", "--no-progress"]
    assert throne_main([*argv, "--seats", "5"]) == 0
    assert throne_main([*argv, "--seats", "4"]) == 1
    assert "no row for 4 players (CH-ROLE-4)" in capsys.readouterr().err


def test_field_types_come_from_the_source_when_compiled() -> None:
    """A mypyc-compiled Rules keeps only ``tuple`` as the annotation of ``shuffle_costs``;
    the types are then read from the module's ``.py`` source, which stays installed."""
    from throne_lib.games.throne.rules import Rules
    from throne_lib.kit.variants import _source_annotations

    source = _source_annotations(Rules)
    assert source["shuffle_costs"] == "tuple[int, ...]"
    assert source["extra"] == "tuple[tuple[str, int], ...]"


def test_card_table_b_is_what_the_variant_plays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Throne with table B's 戟兵 at 6/6 instead of 3/3: the same specs (built from table
    A), and some seed of 0-3 plays differently; an error in B names B's file."""
    a = registry.get("throne").card_tables[0]
    b = tmp_path / "b.csv"
    text = a.read_text(encoding="utf-8")
    row = "halberdier,戟兵,human,minion,3,3,3,"
    assert row in text
    b.write_text(text.replace(row, "halberdier,戟兵,human,minion,3,6,6,"), encoding="utf-8")
    game = registry.get("throne")
    cmp = run_compare(game, _specs(game, 4), {}, (str(a), str(b)), backend="serial", progress=False)
    assert list(cmp.base["blue_general"]) == list(cmp.variant["blue_general"])
    assert list(cmp.base["actions"]) != list(cmp.variant["actions"])
    bad = tmp_path / "broken.csv"
    bad.write_text("id,name\nx,y\n", encoding="utf-8")
    assert compare_main(["--cards", str(a), str(bad), "-n", "1"]) == 1
    assert "broken.csv:1:race: missing column" in capsys.readouterr().err


@pytest.mark.parametrize(("name", "card_id"), [("throne", "squire"), ("pin", "anv_militia")])
def test_table_b_missing_a_card_the_setups_use_is_refused_before_any_match(
    name: str, card_id: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The setups are built from table A and played on both tables (common random
    numbers): a deck card that table B removed is named, with B's file, before a match."""
    game = registry.get(name)
    a = game.card_tables[0]
    lines = a.read_text(encoding="utf-8").splitlines(keepends=True)
    kept = [line for line in lines if not line.startswith(f"{card_id},")]
    assert len(kept) == len(lines) - 1
    b = tmp_path / "b.csv"
    b.write_text("".join(kept), encoding="utf-8")
    argv = ["--game", name, "--cards", str(a), str(b), "-n", "2", "--no-progress"]
    assert compare_main(argv) == 1
    captured = capsys.readouterr()
    assert f"card table B ({b}) cannot play" in captured.err
    assert card_id in captured.err
    assert "==" not in captured.out  # no result table: nothing was played
