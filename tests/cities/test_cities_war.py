"""The city layer's rules: set-up, table, grain, siege targets, capture, stack, abandon,
deck reset, concession and victory."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.cities.helpers import TABLE, cid, names, war
from throne_lib.games.cities import EMPTY, CitiesRules, CityWar, parse_city_table
from throne_lib.games.cities.live import CityTableWatcher
from throne_lib.games.cities.table import DEFAULT_PATH
from throne_lib.kit.protocol import IllegalAction
from throne_lib.kit.tables import TableError


@pytest.mark.parametrize("players", [3, 4, 5, 6, 7, 8])
def test_setup_deals_starting_and_empty_cities(players: int) -> None:
    """CW-SETUP-3 / CW-SETUP-5 / CW-SETUP-6 / CW-GRAIN-1 / CW-GRAIN-2 / CW-CITY-1."""
    r = CitiesRules()
    w = CityWar.deal(TABLE, r, list(range(players)), random.Random(players))
    in_play, goal = r.city_table[players]
    assert len(w.empty) == in_play - players
    assert len({c for st in w.stacks for c in st} | set(w.empty)) == in_play  # no duplicate
    assert all(w.grain[c] == 30 for c in w.starting)
    assert all(w.grain[c] == 15 for c in w.empty)
    assert w.victory_counts() == {seat: goal for seat in range(players)}  # everyone alone
    assert w.invariant_problems() == []


def test_setup_same_seed_same_deal_and_team_rules() -> None:
    """CW-SETUP-4 (match RNG decides) / CW-SETUP-2 (at least two teams, sizes may differ)."""
    a = CityWar.deal(TABLE, CitiesRules(), [0, 1, 2], random.Random(7))
    b = CityWar.deal(TABLE, CitiesRules(), [0, 1, 2], random.Random(7))
    assert a.starting == b.starting and a.empty == b.empty
    with pytest.raises(ValueError, match="CW-SETUP-2"):
        CityWar.deal(TABLE, CitiesRules(), [0, 0, 0], random.Random(1))
    with pytest.raises(ValueError, match="CW-SETUP-2"):
        CitiesRules().cities_in_play(2)
    # uneven teams: each team's own count, its members + (the table's 4 − 1) (CW-SETUP-3)
    w = CityWar.deal(TABLE, CitiesRules(), [0, 0, 0, 1], random.Random(1))
    assert w.victory_counts() == {0: 6, 1: 4}


@pytest.mark.parametrize(
    ("teams", "counts"),
    [
        ([0, 1, 0, 1, 0, 1, 0, 1], {0: 4 + 6 - 1, 1: 9}),  # 4 v 4: the table's 6 for 8
        ([0, 1, 0, 1], {0: 2 + 4 - 1, 1: 5}),  # 2 v 2: the table's 4 for 4
        ([0, 1, 2, 0, 1, 2], {0: 2 + 5 - 1, 1: 6, 2: 6}),  # 3 teams of 2: 5 for 6
        ([0, 0, 1, 2, 3], {0: 2 + 5 - 1, 1: 5, 2: 5, 3: 5}),  # one pair, three alone
    ],
)
def test_team_victory_count_is_members_plus_table_count_less_one(
    teams: list[int], counts: dict[int, int]
) -> None:
    """CW-SETUP-3: a team needs as many cities beyond its starting cities as a lone
    player does: its members + (the table's count − 1), each team by its own size."""
    w = CityWar.deal(TABLE, CitiesRules(), teams, random.Random(3))
    assert w.victory_counts() == counts
    assert w.view(0)["victory_count"] == {str(t): k for t, k in counts.items()}


def test_two_empty_cities_do_not_win_a_two_v_two() -> None:
    """CW-SETUP-3: two members' starting cities and two empty cities (4) are one short
    of a 2 v 2 team's 5: the team must still take a fifth city."""
    w = war(
        [["洛阳", "南皮"], ["许昌"], ["建业", "南平"], ["成都"]],
        empty=["长沙"],
        teams=[0, 1, 0, 1],
    )
    assert w.team_cities(0) == 4 and w.result is None
    w.check_win()
    assert w.result is None
    w.damage(0, cid("长沙"), 15)
    assert w.team_cities(0) == 5
    assert w.result == [1.0, -1.0, 1.0, -1.0] and w.end_rule == "CW-WIN-1"


def test_victory_per_member_is_a_rules_parameter() -> None:
    """CW-SETUP-3's Reading as a parameter: 0 gives every team the table's count."""
    flat = CitiesRules(victory_per_member=0)
    assert CityWar.deal(TABLE, flat, [0, 1, 0, 1], random.Random(3)).victory_counts() == {
        0: 4,
        1: 4,
    }
    with pytest.raises(ValueError, match="CW-SETUP-3"):
        CitiesRules().victory_count(4, 0)


def test_setup_parameters_are_the_rulebook_readings() -> None:
    """CW-SETUP-1 (base_variant none; the base game's rules underneath) / CW-SETUP-7 /
    CW-TEAM-1 (roles off) / CW-TEAM-3 (non-城主 values) / CW-WIN-6 (40 rounds)."""
    r = CitiesRules()
    assert r.base_variant == "none" and r.roles is False
    assert r.base.leadership == 2 and r.base.mana == 6
    assert r.max_rounds == 40


def test_city_table_errors_name_file_row_column() -> None:
    """CW-CITY-8 / CW-CITY-1: the table's 12 cities; a broken row names file:row:column."""
    assert len(TABLE) == 12 and TABLE["长沙"].capture == (("heal_hero", 2),)
    bad = (
        "id,name,defence,capture,ai_weight\n"
        "luoyang,洛阳,draw_extra(1),draw(2),5\n"
        "luoyang,洛阳,fly(1),draw(2),x\n"
    )
    with pytest.raises(TableError) as exc:
        parse_city_table(bad)
    text = str(exc.value)
    assert "cities.csv:3:id" in text and "twice" in text
    assert "cities.csv:3:defence" in text and "fly" in text
    assert "cities.csv:3:ai_weight" in text


def test_only_the_newest_city_defence_works() -> None:
    """CW-CITY-3 / CW-STACK-1 / CW-STACK-2: 长沙 (+1 to the hero's 剑 attacks) works only
    while it is current; covered by 南平, it does nothing."""
    w = war([["长沙"], ["许昌"], ["建业"]], empty=["南平"])
    assert w.attack_damage(0, cid("南平"), 1, "sword") == 4
    w.damage(0, cid("南平"), 99)
    assert w.active_defence(0) == TABLE["南平"]
    assert w.attack_damage(0, cid("许昌"), 1, "sword") == 3


def test_defence_effects_modify_attacks() -> None:
    """CW-CITY-6 / CW-SIEGE-3: 下邳 -1 against soldiers, 建业's first attack each turn
    deals nothing; magic gets no siege bonus (CW-SIEGE-9)."""
    w = war([["下邳"], ["建业"], ["许昌"]])
    assert w.attack_damage(2, cid("下邳"), 1, "soldier") == 2
    assert w.attack_damage(2, cid("下邳"), 1, "sword") == 3
    assert w.attack_damage(2, cid("建业"), 1, "sword") == 0
    assert w.attack_damage(2, cid("建业"), 1, "sword") == 3
    assert w.attack_damage(2, cid("许昌"), 3, "fireball") == 3
    w.turn_start(0)
    assert w.attack_damage(2, cid("建业"), 1, "soldier") == 0


def test_xuchang_regains_grain_up_to_full_and_arrives_with_twenty() -> None:
    """CW-GRAIN-9 (only named effects raise grain, never above full unless the text says
    so) / CW-CITY-8 (许昌's 屯田 and arrival grain)."""
    w = war([["许昌"], ["洛阳"], ["建业"]], grain={"许昌": 29})
    w.turn_start(0)
    assert w.grain[cid("许昌")] == 30
    w2 = war([["洛阳"], ["建业"], ["成都"]], empty=["许昌"])
    w2.damage(0, cid("许昌"), 15)
    assert w2.grain[cid("许昌")] == 20


def test_siege_targets_rear_ally_and_own_cities_refused() -> None:
    """CW-SIEGE-1 / CW-SIEGE-4 / CW-SIEGE-8: opponents' current cities and empty cities
    only; an illegal target raises IllegalAction naming the rule, state unchanged."""
    w = war([["长沙", "南皮"], ["许昌"], ["建业"], ["成都"]], empty=["洛阳"], teams=[0, 1, 0, 2])
    targets = set(w.attack_targets(1))
    assert targets == {cid("南皮"), cid("建业"), cid("成都"), cid("洛阳")}
    assert cid("建业") not in w.attack_targets(0)  # an ally's
    before = (dict(w.grain), [list(s) for s in w.stacks])
    with pytest.raises(IllegalAction) as exc:
        w.damage(1, cid("长沙"), 5)  # rear city
    assert exc.value.rule == "CW-SIEGE-1"
    assert (dict(w.grain), [list(s) for s in w.stacks]) == before


def test_capture_effect_resolves_before_ownership() -> None:
    """CW-CAPTURE-4 / CW-CAPTURE-5 / CW-CITY-2 / CW-CITY-5: while the capture effect
    resolves the city is nobody's, counts for no victory; the previous owner is named."""
    w = war([["洛阳", "南平"], ["许昌"], ["建业"]])
    seen: list[tuple[int | None, str | None, int, int | None]] = []

    def resolve(breaker: int, city: object, previous: int | None) -> None:
        seen.append((w.owner(cid("南平")), w.current(1), len(w.stacks[1]), previous))

    w.damage(1, cid("南平"), 15, resolve)
    assert seen == [(None, cid("许昌"), 1, 0)]
    assert w.current(1) == cid("南平") and w.current(0) == cid("洛阳")
    # an empty city's capture has no previous owner
    w2 = war([["洛阳"], ["许昌"], ["建业"]], empty=["南平"])
    prev: list[int | None] = []
    w2.damage(1, cid("南平"), 15, lambda b, c, p: prev.append(p))
    assert prev == [None]


def test_capture_effect_never_on_loss_without_breaker() -> None:
    """CW-CITY-4 / CW-CAPTURE-3: 失守 by payment, 弃守, reset and 认输 trigger nothing."""
    w = war([["洛阳", "南皮", "南平"], ["许昌"], ["建业"]], grain={"南平": 2})
    w.pay_grain(0, 2)
    w.abandon(0)
    w.concede(0)
    assert not any(e["kind"] == "capture_effect" for e in w.log)
    assert {cid("南平"), cid("南皮"), cid("洛阳")} <= set(w.empty)


def test_several_captures_in_the_breakers_order() -> None:
    """CW-CAPTURE-6: effects resolve in order, then the cities stack so the last is current."""
    w = war([["洛阳"], ["许昌"], ["建业"]], empty=["南平", "成都"])
    order: list[str] = []
    w.capture(0, [cid("成都"), cid("南平")], lambda b, c, p: order.append(c.name))
    assert order == ["成都", "南平"]
    assert names(w.stacks[0]) == ["洛阳", "成都", "南平"]
    assert w.grain[cid("成都")] == 15  # rear: full


def test_losing_the_starting_city_puts_out_and_the_rest_goes_empty() -> None:
    """CW-WIN-3 / CW-WIN-5 / CW-STACK-3."""
    w = war([["洛阳"], ["许昌"], ["建业"], ["成都"]])
    w.damage(1, cid("洛阳"), 30)
    assert w.out[0] and w.stacks[0] == [] and w.owner(cid("洛阳")) == 1
    assert w.attack_targets(0) == []


def test_abandon_ban_until_another_breaks_and_occupies() -> None:
    """CW-ABANDON-1 / CW-ABANDON-3 / CW-ABANDON-4 / CW-ABANDON-2 (no limit) / CW-TURN-3."""
    w = war([["洛阳", "南皮"], ["许昌"], ["建业"]])
    w.abandon(0)
    assert w.current(0) == cid("洛阳") and w.grain[cid("南皮")] == 15
    assert cid("南皮") not in w.attack_targets(0)
    with pytest.raises(IllegalAction) as exc:
        w.damage(0, cid("南皮"), 3)
    assert exc.value.rule == "CW-ABANDON-3"
    assert cid("南皮") in w.attack_targets(1)  # others at once
    w.damage(1, cid("南皮"), 15)
    assert cid("南皮") in w.attack_targets(0)
    w.damage(2, cid("南皮"), 15)  # B loses it; even empty again A may attack it
    w.abandon(2)
    assert cid("南皮") in w.attack_targets(0)
    assert CitiesRules().abandon_limit is None
    w.abandon(0)  # abandoning the starting city puts the player out
    assert w.out[0]


def test_deck_reset_with_only_the_starting_city_is_out() -> None:
    """CW-DECK-4 / CW-DECK-2 (running out never ends the game by itself)."""
    w = war([["洛阳"], ["许昌"], ["建业"]])
    w.deck_reset(0)
    assert w.out[0] and cid("洛阳") in w.empty and w.result is None


def test_victory_by_team_count() -> None:
    """CW-WIN-1: the team's members' cities together reach the count."""
    w = war(
        [["洛阳", "南皮", "长沙"], ["许昌"], ["建业"], ["成都"]],
        empty=["南平"],
        teams=[0, 1, 0, 2],
    )
    assert w.victory_counts() == {0: 5, 1: 4, 2: 4}  # CW-SETUP-3: a pair needs 2 + 3
    w.damage(2, cid("南平"), 15)
    assert w.result == [1.0, -1.0, 1.0, -1.0] and w.end_rule == "CW-WIN-1"
    with pytest.raises(IllegalAction) as exc:  # the match ends at once
        w.damage(1, cid("成都"), 30)
    assert exc.value.rule == "CW-WIN-1" and w.owner(cid("成都")) == 3


def test_victory_by_elimination_and_concession() -> None:
    """CW-WIN-2 / CW-WIN-4: conceding empties all cities; last team standing wins,
    its out allies too."""
    w = war([["洛阳"], ["许昌", "南平"], ["建业"]], teams=[0, 1, 0])
    w.concede(1)
    assert w.owner(cid("南平")) == EMPTY and w.owner(cid("许昌")) == EMPTY
    assert w.result == [1.0, -1.0, 1.0] and w.end_rule == "CW-WIN-2"
    with pytest.raises(IllegalAction):
        w.concede(1)


def test_round_limit_most_cities_then_grain() -> None:
    """CW-WIN-6: most cities wins; tie broken by current grain; still tied draw."""
    w = war([["洛阳", "南平"], ["许昌"], ["建业"]])
    w.end_by_rounds()
    assert w.result == [1.0, -1.0, -1.0]
    w = war([["洛阳"], ["许昌"], ["建业"]], grain={"洛阳": 10})
    w.end_by_rounds()
    assert w.result == [-1.0, 0.0, 0.0]


def test_grain_belongs_to_cities_no_carry_over() -> None:
    """CW-GRAIN-1 / CW-GRAIN-6 / CW-CAPTURE-1: damage beyond the grain is lost."""
    w = war([["洛阳", "南皮"], ["许昌"], ["建业"]], grain={"南皮": 2})
    w.damage(1, cid("南皮"), 10)
    assert w.current(0) == cid("洛阳") and w.grain[cid("洛阳")] == 30


def test_city_table_live_reload(tmp_path: Path) -> None:
    """CW-CITY-8: cities.csv reloads live like every card table; a broken save keeps the
    table in force and reports file:row:column."""
    f = tmp_path / "cities.csv"
    text = (DEFAULT_PATH).read_text(encoding="utf-8")
    f.write_text(text, encoding="utf-8")
    watcher = CityTableWatcher(f)
    assert watcher.db["洛阳"].ai_weight == 5
    f.write_text(text.replace("draw(2),5", "draw(2),9"), encoding="utf-8")
    assert watcher.reload() and watcher.db["洛阳"].ai_weight == 9
    f.write_text(text.replace("draw(2),5", "draw(2),nine"), encoding="utf-8")
    watcher.reload()
    assert watcher.db["洛阳"].ai_weight == 9
    assert any("cities.csv:2:ai_weight" in e for e in watcher.errors)


def test_view_is_json_and_shows_only_the_viewers_bans() -> None:
    """CW-ABANDON-3 (the ban is the abandoner's alone) / CW-STACK-1 (bottom = start)."""
    import json

    w = war([["洛阳", "南皮"], ["许昌"], ["建业"]], teams=[0, 1, 1])
    w.abandon(0)
    mine, theirs = w.view(0), w.view(1)
    json.dumps(mine)
    assert [e["banned"] for e in mine["empty"]] == [True]
    assert [e["banned"] for e in theirs["empty"]] == [False]
    assert mine["stacks"][0] == [
        {"id": cid("洛阳"), "name": "洛阳", "grain": 30, "full": 30, "start": True}
    ]
    assert mine["team_cities"] == {"0": 1, "1": 2}
    assert mine["victory_count"] == {"0": 4, "1": 5}  # 3 players: 4; the pair 2 + 3
