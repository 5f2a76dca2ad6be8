"""城堡之心's balance per seat count (issue 38, item 5): the groups are (seat count, role)
pairs, the band the designer sets applies to each, ``roles_N`` knobs choose among the role
tables CH-ROLE-3 allows (CH-ROLE-4's row is a Reading), and the report and ``throne
balance show`` print each camp's rate at each seat count."""

from __future__ import annotations

import argparse
import random
from pathlib import Path
from typing import cast

import pytest

from throne_lib.cli import main as throne_main
from throne_lib.games.castle.balance_search import (
    BALANCE,
    CastleBalance,
    camp_group,
    default_rules_knobs,
    make,
    parse_players,
    rules_knobs,
)
from throne_lib.games.castle.game import GAME as CASTLE
from throne_lib.games.castle.rules import (
    DEFAULT_ROLE_TABLE,
    CastleRules,
    check_role_row,
    legal_role_rows,
)
from throne_lib.kit.balance import Budget, PlayTask, Targets, search_space, suggest
from throne_lib.kit.balance_cli import build_parser, options, parse_band
from throne_lib.kit.balance_report import report_text, rules_lines
from throne_lib.kit.balance_run import change_line, load_run, show_text

TEXT = CASTLE.card_tables[0].read_text(encoding="utf-8")
SEATS = (4, 5, 6, 7, 8)


def _game(**kw: object) -> CastleBalance:
    return CastleBalance(TEXT, players=SEATS, block_matches=1, **kw)  # type: ignore[arg-type]


def test_groups_are_each_role_at_each_seat_count() -> None:
    """CH-ROLE-4: 4 seats deal 城主 and 敌军 only; 援军 from 5, 中立 from 6. With the
    default knobs (roles_5 may deal no 援军, roles_6 no 中立) every role a row may seat
    is a group; heroes only when asked."""
    game = _game()
    assert list(game.groups()) == [
        "lord@4", "enemy@4",
        "lord@5", "enemy@5", "reinforcement@5",
        "lord@6", "enemy@6", "reinforcement@6", "neutral@6",
        "lord@7", "enemy@7", "reinforcement@7", "neutral@7",
        "lord@8", "enemy@8", "reinforcement@8", "neutral@8",
    ]  # fmt: skip
    assert game.names["lord@4"] == "4人·城主" and game.names["neutral@8"] == "8人·中立"
    assert game.names["reinforcement@5"] == "5人·援军" and game.names["enemy@7"] == "7人·敌军"
    heroes = _game(hero_groups=True)
    assert list(heroes.groups())[-len(heroes.heroes) :] == heroes.heroes
    # a block: the same number of matches at every seat count, distinct seeds
    game3 = CastleBalance(TEXT, players=SEATS, block_matches=3)
    block = [cast(tuple[int, int], item) for item in game3.block(random.Random(0), 100)]
    assert [n for n, _ in block] == [n for n in SEATS for _ in range(3)]
    assert len({s for _, s in block}) == len(block) and min(s for _, s in block) == 100


def test_players_and_camp_band_options() -> None:
    assert parse_players("4,5,6,7,8") == parse_players("4-8") == parse_players("8,4-7") == SEATS
    assert parse_players(5) == (5,)
    with pytest.raises(argparse.ArgumentTypeError, match="seat counts"):
        parse_players("four")
    assert parse_band("40,60") == (0.4, 0.6) == parse_band("0.4:0.6")
    with pytest.raises(argparse.ArgumentTypeError, match="LOW <= HIGH"):
        parse_band("60,40")
    p = build_parser("castle", BALANCE)
    args = p.parse_args(["suggest", "--players", "4,5,6,7,8", "--camp-band", "40,60"])
    assert args.players == SEATS and parse_band(args.band) == (0.4, 0.6)
    with pytest.raises(ValueError, match="seats 3–8 players, not 9"):
        CastleBalance(TEXT, players=(4, 9))


def test_targets_hold_per_seat_count() -> None:
    """Imbalance: each (seat count, role) is judged by the band on its own; a seat count
    whose 城主 wins half its matches adds nothing while another's 城主 at 0% does."""
    from throne_lib.kit.balance import Outcome, SeatResult, tally

    def match(n: int, lord_wins: bool) -> Outcome:
        lord = SeatResult(camp_group(n, "lord"), False, float(lord_wins))
        enemies = [SeatResult(camp_group(n, "enemy"), False, float(not lord_wins))] * (n - 1)
        return Outcome((lord, *enemies), 3.0)

    t = tally([match(4, True), match(4, False), match(5, False), match(5, False)])
    groups = ["lord@4", "enemy@4", "lord@5", "enemy@5"]
    assert t.rate("lord@4") == 0.5 and t.rate("lord@5") == 0.0
    assert t.imbalance(Targets((0.4, 0.6), 1.0), groups) == pytest.approx(0.4 + 0.4)
    wanted = {(g, d) for g, d, _ in t.complaints(Targets((0.4, 0.6), 1.0), groups)}
    assert wanted == {("lord@5", +1), ("enemy@5", -1)}


def test_legal_role_rows_are_every_row_ch_role_3_allows() -> None:
    for n in range(3, 9):
        rows = legal_role_rows(n)
        assert DEFAULT_ROLE_TABLE[n] in rows  # CH-ROLE-4's Reading is one of them
        for row in rows:
            check_role_row(n, row)  # CH-ROLE-3: raises on a bad row
        every = {
            (1, e, r, n - 1 - e - r)
            for e in range(n)
            for r in range(n - e)
            if e > 1 + r and n - 1 - e - r <= r
        }
        assert set(rows) == every
        enemies = [row[1] for row in rows]
        assert enemies == sorted(enemies, reverse=True)  # the castle camp's weakest first
    assert legal_role_rows(4) == [(1, 3, 0, 0)]  # 4 seats: no choice, no knob
    assert legal_role_rows(7)[-1] == (1, 4, 2, 0)


def test_role_knobs_produce_legal_role_tables_only() -> None:
    """CH-ROLE-3: every value a roles_N knob can take deals a legal table, and a match
    played with it seats exactly that row."""
    game = _game()
    space = search_space(game, fields=[])
    role_knobs = [k for k in space.knobs if k.field.startswith("roles_")]
    assert sorted(k.field for k in role_knobs) == ["roles_5", "roles_6", "roles_7", "roles_8"]
    for k in role_knobs:
        n = int(k.field.removeprefix("roles_"))
        assert legal_role_rows(n)[k.base] == DEFAULT_ROLE_TABLE[n]
        assert (k.low, k.high) == (0, len(legal_role_rows(n)) - 1)
        assert k.groups == {f"lord@{n}", f"reinforcement@{n}"} and k.sign == 1
        for value in range(k.low, k.high + 1):
            rules = game.rules_of({k.field: value})
            check_role_row(n, rules.role_table[n])
            assert rules.roles_for(n) == legal_role_rows(n)[value]
    with pytest.raises(ValueError, match="roles_7=4: expected 0 to 3"):
        game.rules_of({"roles_7": 4})
    # a match under roles_7 = 3 (城主1 敌军4 援军2 中立0) seats that row
    (out,) = game.play(PlayTask(TEXT, (("roles_7", 3),), ((7, 11),)))
    seats = [s.group for s in out.seats if s.score or s.group != "neutral@7"]
    dealt = [seats.count(f"{r}@7") for r in ("lord", "enemy", "reinforcement")]
    assert dealt == [1, 4, 2] and len(out.seats) == 7 + 1  # seven seats, the 中立 camp's 0
    # a camp the row deals out of the game counts as one that wins no match: a search
    # cannot lower the imbalance by dealing a losing camp out (run C2, docs/balance.md)
    assert [s.score for s in out.seats if s.group == "neutral@7"] == [0.0]
    (out6,) = game.play(PlayTask(TEXT, (("roles_6", 0),), ((6, 11),)))
    assert {s.group: s.score for s in out6.seats if s.group.startswith(("reinf", "neutral"))} == {
        "reinforcement@6": 0.0,
        "neutral@6": 0.0,
    }
    assert sum(s.group == "enemy@6" for s in out6.seats) == 5  # 城主1 敌军5 援军0 中立0
    # a role table of a seat count not played is refused, naming both
    with pytest.raises(ValueError, match="roles_7: the role table at 7 seats"):
        CastleBalance(TEXT, players=(4, 5), rules_knobs=rules_knobs(["roles_7"], CastleRules()))
    with pytest.raises(ValueError, match="does not contain"):
        rules_knobs(["roles_7=3:3"], CastleRules())


def test_the_lords_extras_help_the_castle_camp_at_every_seat_count() -> None:
    knobs = rules_knobs(["lord_bonus_hp=0:6", "lord_mana=8:16", "mana"], CastleRules())
    game = _game(rules_knobs=knobs)
    by_key = {k.key: k for k in search_space(game, fields=[]).knobs}
    castle = {f"lord@{n}" for n in SEATS} | {f"reinforcement@{n}" for n in SEATS[1:]}
    assert by_key["rules.lord_bonus_hp"].groups == castle and by_key["rules.lord_mana"].sign == 1
    assert (by_key["rules.lord_bonus_hp"].low, by_key["rules.lord_bonus_hp"].high) == (0, 6)
    assert by_key["rules.mana"].groups == {"@first"}  # everyone's: no known direction
    # the default knobs keep only the role tables of the seat counts played
    args = options("castle", players=(4, 7), rules=None)
    assert make(TEXT, args).knobs.keys() == {
        "lord_bonus_hp",
        "lord_leadership",
        "lord_mana",
        "roles_7",
    }
    assert set(default_rules_knobs(CastleRules())) >= {f"roles_{n}" for n in (5, 6, 7, 8)}


def test_rules_changes_read_in_the_games_words() -> None:
    names = _game().names
    assert rules_lines([("roles_7", 2, 3)], names) == [
        "rules: roles_7 (7人身份表) 2 (城主1 敌军4 援军1 中立1) -> 3 (城主1 敌军4 援军2 中立0)"
    ]
    assert rules_lines([("lord_mana", 10, 12)], names) == ["rules: lord_mana (城主法力) 10 -> 12"]
    change = {"key": "rules.roles_8", "card": "", "field": "roles_8", "old": 4, "new": 3}
    assert change_line(change, names) == (
        "rules.roles_8 (8人身份表): 4 (城主1 敌军4 援军2 中立1) -> 3 (城主1 敌军5 援军2 中立0)"
    )


# --- a tiny run: the report per seat count, the file, determinism ---------------------------------

TINY = Budget(population=3, generations=1, blocks=1, holdout_blocks=1, verify_blocks=1, prune=False)
SMALL_SEATS = (4, 6)


def _run(seed: int) -> tuple[CastleBalance, object]:
    game = CastleBalance(TEXT, players=SMALL_SEATS, block_matches=2)
    space = search_space(game, fields=["hp"], cards=["li_wei", "tang_na"])
    res = suggest(game, space, Targets((0.4, 0.6), 1.0), TINY, seed=seed, backend="serial")
    return game, res


def test_same_seed_same_run_and_report() -> None:
    game, a = _run(3)
    _, b = _run(3)
    assert a.front == b.front  # type: ignore[attr-defined]
    assert report_text(a, game.names) == report_text(b, game.names)  # type: ignore[arg-type]


def test_report_and_show_print_each_camp_at_each_seat_count(tmp_path: Path) -> None:
    out, report = tmp_path / "c.parquet", tmp_path / "c.txt"
    args = ["--game", "castle", "balance", "suggest", "--players", "4,6", "--camp-band", "40,60"]
    args += ["--population", "3", "--generations", "1", "--blocks", "1", "--block-matches", "2"]
    args += ["--holdout-blocks", "1", "--verify-blocks", "1", "--fields", "hp", "--no-prune"]
    args += ["--backend", "serial", "--no-progress", "--seed", "2"]
    assert throne_main([*args, "--out", str(out), "--report", str(report)]) == 0
    text = report.read_text(encoding="utf-8")
    assert "targets: win rate per group 40–60%" in text
    # the grid: one line per seat count, one column per role, in Chinese
    head = next(i for i, line in enumerate(text.splitlines()) if "as a grid" in line)
    grid = text.splitlines()[head : head + 4]
    assert grid[1].split() == ["城主", "敌军", "援军", "中立"]
    assert grid[2].startswith("4人") and grid[3].startswith("6人")
    assert len(grid[2].split("[")) == 3 and len(grid[3].split("[")) == 5  # 2 and 4 roles
    shown = show_text(load_run(out))
    for label in ("lord@4 4人·城主", "enemy@4 4人·敌军", "reinforcement@6 6人·援军"):
        assert label in shown  # one line per (seat count, role), key and name
    assert "neutral@6 6人·中立" in shown and "as a grid" in shown
    assert "players=[4, 6]" in shown  # the run's seat counts are kept with it


def test_verification_report_has_the_grid_and_no_first_seat_count() -> None:
    """``throne balance verify`` of a 城堡之心 proposal: the grid per seat count, and no
    "0 matches per table" (the count came from the first seat, which 城堡之心 has not)."""
    import pandas as pd

    from throne_lib.kit.balance import verify
    from throne_lib.kit.balance_report import verification_text

    game = CastleBalance(
        TEXT, players=(7,), block_matches=1, rules_knobs=rules_knobs(["roles_7"], CastleRules())
    )
    v = verify(game, {1: {"rules.roles_7": 3}}, Targets((0.4, 0.6), 1.0), 0, 1, "serial")
    frame = pd.DataFrame(
        [{"proposal": 1, "changes": 1, "search_imbalance": 1.0, "holdout_imbalance": 1.0,
          "diff": "", "rules": "roles_7 2 -> 3"}]
    )  # fmt: skip
    text = verification_text(v, frame, game.names)
    assert "0 matches per table" not in text and "verify seed 0, 1 blocks:" in text
    assert "as a grid" in text and "7人" in text and "中立" in text
