"""Throne & Phalanx's balance adapter and ``throne balance`` (throne_lib/games/throne/balance.py)."""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

import pandas as pd
import pytest

from throne_lib.cli import main as throne_main
from throne_lib.games.throne.balance import ThroneBalance, rules_knobs
from throne_lib.games.throne.cards import DEFAULT_PATH, load_cards, parse_cards
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.rules import Rules
from throne_lib.kit.balance import (
    BalanceGame,
    PlayTask,
    apply_card_changes,
    effect_numbers,
    search_space,
)
from throne_lib.kit.carddiff import Sheet, diff_tables

TEXT = Path(DEFAULT_PATH).read_text(encoding="utf-8")
FOUR = "lionheart,pain_lord,saint_marshal,beast_king"


@pytest.fixture(scope="module")
def game() -> ThroneBalance:
    return ThroneBalance(TEXT, agent="random")


def test_the_adapter_is_a_balance_game(game: ThroneBalance) -> None:
    g: BalanceGame = game
    assert len(g.groups()) == len(load_cards().of("general"))


def test_keyword_amounts_are_fields(game: ThroneBalance) -> None:
    rec = {"id": "x", "keywords": "formation, armor(2)"}
    assert game.get_field(rec, "kw.armor") == 2
    assert game.get_field(rec, "kw.siege") is None
    game.set_field(rec, "kw.armor", 3)
    assert rec["keywords"] == "formation, armor(3)"
    assert game.get_field({"id": "y", "cost": ""}, "cost") is None


def test_effect_numbers_are_fields_named_by_trigger_call_and_place() -> None:
    text = "skill(mana=1, hp=3): damage(5, enemy); play: buff(2, 3, ally), damage(1, enemy)"
    fields = {name: (n.value, text[n.start : n.end]) for name, n in effect_numbers(text).items()}
    assert fields == {
        "fx.skill(mana)": (1, "1"),
        "fx.skill(hp)": (3, "3"),
        "fx.skill.damage": (5, "5"),
        "fx.play.buff": (2, "2"),
        "fx.play.buff[2]": (3, "3"),
        "fx.play.damage": (1, "1"),
    }
    again = effect_numbers("play: damage(1, enemy), damage(2, row_enemies); play: draw(1)")
    assert sorted(again) == ["fx.play#2.draw", "fx.play.damage", "fx.play.damage#2"]
    assert effect_numbers("play: summon(skeleton, own_half)") == {}  # the default count
    assert effect_numbers("play: mana(-1)") == {}  # a sign is meaning, not a knob


@pytest.mark.parametrize(
    ("effects", "field", "sign"),
    [
        ("skill(mana=2, hp=3): damage(5, enemy)", "fx.skill(mana)", -1),  # the price
        ("skill(mana=2, hp=3): damage(5, enemy)", "fx.skill(hp)", -1),
        ("skill(mana=2, hp=3): damage(5, enemy)", "fx.skill.damage", +1),
        ("play: damage(2, ally_unit)", "fx.play.damage", -1),  # hurts our own
        ("play: heal(2, enemy)", "fx.play.heal", -1),
        ("skill(mana=2): heal(4, ally), shield(target)", "fx.skill.heal", +1),
        ("play: damage(1, adjacent_units)", "fx.play.damage", 0),  # both sides
        ("skill(mana=2): summon(skeleton, own_half, 2)", "fx.skill.summon", +1),
        ("play: retreat(1, enemy)", "fx.play.retreat", +1),
        ("play: advance(1, enemy)", "fx.play.advance", -1),
    ],
)
def test_an_effect_numbers_sign_says_which_way_it_strengthens_the_card(
    game: ThroneBalance, effects: str, field: str, sign: int
) -> None:
    assert game.field_sign({"id": "x", "effects": effects}, field) == sign


def test_a_generals_skill_numbers_are_knobs_and_rewrite_only_their_number(
    game: ThroneBalance,
) -> None:
    space = search_space(game)
    mana, summon = space["lich_lord.fx.skill(mana)"], space["lich_lord.fx.skill.summon"]
    assert (mana.base, mana.sign, summon.base, summon.sign) == (2, -1, 2, +1)
    assert "lich_lord" in mana.groups and "lich_lord" in summon.groups
    rec = next(r for r in Sheet.parse(TEXT).records() if r["id"] == "lich_lord")
    before = rec["effects"]
    game.set_field(rec, "fx.skill.summon", 3)
    assert rec["effects"] == before.replace("own_half, 2)", "own_half, 3)")
    table = apply_card_changes(game, TEXT, [("lich_lord", "fx.skill(mana)", 1)])
    lich = parse_cards(table)["lich_lord"]
    assert (
        lich.effects[0].mana == 1
        and lich.effects[0].calls == load_cards()["lich_lord"].effects[0].calls
    )
    with pytest.raises(ValueError, match="no effect number"):
        game.set_field(dict(rec), "fx.play.damage", 2)


def test_a_generals_cost_and_hp_do_not_move_its_own_throne(game: ThroneBalance) -> None:
    """R-THRONE-1: the throne's HP is the rules'; a general card's cost and HP act only
    where it is a card in a deck, so they are no knob of its own general."""
    space = search_space(game)
    assert "lionheart" not in space["lionheart.cost"].groups
    assert "lionheart" not in space["lionheart.hp"].groups
    assert "lionheart" in space["lionheart.attack"].groups  # the royal march (R-THRONE-5)
    items = tuple(("lionheart", "pain_lord", s) for s in (21, 22, 23))
    for field in ("cost", "hp"):
        rec = next(r for r in Sheet.parse(TEXT).records() if r["id"] == "lionheart")
        value = game.get_field(rec, field)
        assert value is not None
        other = apply_card_changes(game, TEXT, [("lionheart", field, value + 2)])
        assert game.play(PlayTask(other, (), items)) == game.play(PlayTask(TEXT, (), items))


def test_search_space_covers_card_fields_and_the_second_seat(game: ThroneBalance) -> None:
    space = search_space(game, freeze=["lionheart", "hp"])
    keys = {k.key for k in space.knobs}
    assert "rules.second_first_turn_mana" in keys and "rules.second_first_turn_draw" in keys
    assert "pain_lord.attack" in keys
    assert not any(k.startswith("lionheart.") or k.endswith(".hp") for k in keys)
    assert any(k.startswith("iron_duke.kw.") for k in keys)  # iron_duke has armor(2)
    # a dotted field name freezes it on every card
    fields = {k.field for k in search_space(game, freeze=["kw.armor", "fx.skill(mana)"]).knobs}
    assert "kw.armor" not in fields and "fx.skill(mana)" not in fields
    assert {"kw.armor", "fx.skill(mana)"} <= {k.field for k in space.knobs}


def test_a_match_replays_only_when_its_cards_change(game: ThroneBalance) -> None:
    """The cache's premise: changing every card outside a match's closure (cost, attack,
    HP) leaves its outcome as it was."""
    items = (("pain_lord", "saint_marshal", 11), ("tinker_king", "lich_lord", 12))
    keep = game.item_cards(items[0]) | game.item_cards(items[1])
    changes = []
    for rec in Sheet.parse(TEXT).records():
        if rec["id"] in keep:
            continue
        for f in ("cost", "attack", "hp"):
            v = game.get_field(rec, f)
            if v is not None and (f != "attack" or v > 0):
                changes.append((rec["id"], f, v + 1))
    assert len(changes) > 50
    other = apply_card_changes(game, TEXT, changes)
    parse_cards(other)  # still a valid table
    assert game.play(PlayTask(TEXT, (), items)) == game.play(PlayTask(other, (), items))
    mine = [
        (rec["id"], "attack", int(rec["attack"]) + 3)
        for rec in Sheet.parse(TEXT).records()
        if rec["id"] in game.item_cards(items[0]) and (game.get_field(rec, "attack") or 0) > 0
    ]
    inside = apply_card_changes(game, TEXT, mine)
    three = tuple(("pain_lord", "saint_marshal", s) for s in (11, 12, 13))
    assert game.play(PlayTask(inside, (), three)) != game.play(PlayTask(TEXT, (), three))


def test_blocks_pair_every_general_once_per_round(game: ThroneBalance) -> None:
    block = game.block(random.Random(0), 500)
    gens = [g for item in block for g in item[:2]]  # type: ignore[index]
    assert sorted(gens) == sorted(list(game.groups()) * 2)
    assert [item[2] for item in block] == list(range(500, 500 + len(block)))  # type: ignore[index]


def test_second_seat_rules_give_mana_and_cards_on_its_first_turn() -> None:
    """R-TURN-12 (Reading kept as parameters): by default the second side's first turn is
    like any other; ``second_first_turn_mana``/``_draw`` add mana and cards to it."""
    db = load_cards()
    from throne_lib.games.throne.decks import signature_deck

    blue, red = signature_deck(db, "lionheart"), signature_deck(db, "beast_king")

    def second_turn_start(rules: Rules) -> tuple[int, int]:
        m = Match.new(db, blue, red, 5, rules)
        while m.state.round < 1 or m.state.turn == m.state.first:
            m.apply(m.legal_actions()[0])
        s = m.state.sides[m.state.turn]
        return s.mana, len(s.hand)

    mana, hand = second_turn_start(Rules())
    mana2, hand2 = second_turn_start(Rules(second_first_turn_mana=2, second_first_turn_draw=1))
    assert (mana2, hand2) == (mana + 2, hand + 1)


def test_rules_knobs_by_name() -> None:
    knobs = rules_knobs(["second_first_turn_mana", "throne_hp=36:44"])
    assert knobs["throne_hp"].base == 40 and knobs["throne_hp"].low == 36
    assert knobs["second_first_turn_mana"].first_sign == -1
    with pytest.raises(ValueError, match="unknown rules parameter 'speed'"):
        rules_knobs(["speed"])


def test_cli_suggest_writes_report_and_parquet_and_applies(tmp_path: Path) -> None:
    cards = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, cards)
    out, report = tmp_path / "b.parquet", tmp_path / "b.txt"
    args = ["balance", "suggest", "--cards", str(cards), "--agent", "random"]
    args += ["--generals", FOUR, "--population", "3", "--generations", "1", "--blocks", "2"]
    args += ["--holdout-blocks", "2", "--workers", "1", "--no-progress", "--seed", "1"]
    args += ["--rules="]  # card changes only: what apply writes
    args += [
        "--no-prune"
    ]  # a 2-block holdout confirms no change (pruning: test_balance_verify_run)
    args += ["--out", str(out), "--report", str(report)]
    assert throne_main(args) == 0
    text = report.read_text(encoding="utf-8")
    assert "== balance suggestions ==" in text and "first seat" in text
    # the run's size and time, for a closing note: "run: N matches in S s wall (M min), C CPU-s"
    run = re.search(r"^run: (\d+) matches in (\d+) s wall .*, (\d+) CPU-s", text, re.M)
    assert run is not None, text
    assert f"matches played: {run.group(1)}" in text and int(run.group(1)) > 0
    frame = pd.read_parquet(out)
    assert {"proposal", "group", "before", "after_low", "changes_json"} <= set(frame.columns)
    assert cards.read_text(encoding="utf-8") == TEXT  # nothing applied unasked
    numbers = sorted(int(n) for n in frame["proposal"].unique() if n > 0)
    assert numbers, (
        text
    )  # seed 1 of this tiny run finds one (on the table and search of this commit)
    # verify: the run's agent, generals and targets, from the Parquet file, on fresh seeds
    check = tmp_path / "v.txt"
    verify = ["balance", "verify", str(out), "--cards", str(cards), "--blocks", "2"]
    assert throne_main([*verify, "--workers", "1", "--seed", "1", "--report", str(check)]) == 0
    vtext = check.read_text(encoding="utf-8")
    assert "verify seed 1, 2 blocks" in vtext and "no search and no holdout" in vtext
    for n in numbers:
        assert f"== proposal {n}:" in vtext
    shown = re.findall(r"(?:yes|NO)\s+(\w+) ", vtext)
    assert set(shown) - {"first"} == set(FOUR.split(","))  # the run's generals, not all 18
    assert cards.read_text(encoding="utf-8") == TEXT  # verify writes nothing
    assert throne_main(["balance", "apply", str(out), str(numbers[0]), "--cards", str(cards)]) == 0
    diff = diff_tables(TEXT, cards.read_text(encoding="utf-8"))
    row = frame[frame["proposal"] == numbers[0]].iloc[0]
    assert diff.text() == row["diff"] or row["diff"] == "no card changes"
    load_cards(cards)  # the written table loads
    # applying again: the table has moved on since the run, refused and left as it is
    assert row["changes"] >= 1 and "rules." not in row["changes_json"]
    now = cards.read_bytes()
    assert throne_main(["balance", "apply", str(out), str(numbers[0]), "--cards", str(cards)]) == 1
    assert cards.read_bytes() == now
    assert throne_main([*verify, "--workers", "1"]) == 1  # nor measured against it


def test_cli_errors_are_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert throne_main(["balance", "suggest", "--cards", str(tmp_path / "none.csv")]) == 1
    assert "throne balance:" in capsys.readouterr().err
    assert throne_main(["balance", "suggest", "--freeze", "dragon", "--generals", FOUR]) == 1
    assert "freeze 'dragon'" in capsys.readouterr().err


def test_cli_repair_with_confirm_blocks_says_what_it_kept(tmp_path: Path) -> None:
    """``--repair`` and ``--confirm`` reach the search; the report's repair line counts
    the moves kept and the tries the confirm blocks rejected."""
    report = tmp_path / "r.txt"
    args = ["balance", "suggest", "--agent", "random", "--generals", FOUR, "--rules="]
    args += ["--population", "2", "--generations", "0", "--blocks", "2", "--holdout-blocks"]
    args += ["1", "--workers", "1", "--no-progress", "--seed", "2", "--repair", "2"]
    args += ["--confirm", "2", "--report", str(report), "--out", str(tmp_path / "r.parquet")]
    args += ["--repair-groups", "2", "--repair-tries", "1"]
    assert throne_main(args) == 0
    text = report.read_text(encoding="utf-8")
    line = re.search(r"^repair: (\d) of 2 steps.*; (\d+) moves kept, (\d+) tries chosen on "
                     r"the search blocks failed on 2 confirm blocks; each step: the 2 groups "
                     r"furthest out, ≤ 1 tries each$", text, re.M)  # fmt: skip
    assert line is not None, text
    assert int(line.group(2)) <= int(line.group(1))
