"""Magic cards (CH-MAGIC) and statuses (CH-STATUS)."""

from __future__ import annotations

from tests.castle.helpers import P, do, scen, texts
from throne_lib.games.castle import CastleRules


def test_magic_any_number_counter_window_discard() -> None:
    """CH-MAGIC-1: any number of magic cards in the 出牌阶段; a counter window follows;
    the card goes to the discard pile either way; CH-CARD-5: no per-turn limit."""
    m = scen("lord tang_na hp=3/5 hand=mass_heal,mass_heal", "enemy bai_pa hp=4/5", "enemy di_shi")
    do(m, "magic mass_heal", "magic mass_heal")
    assert P(m, 0).hp == 5 and P(m, 1).hp == 5 and m.state.discard.count("mass_heal") == 2


def test_mass_heal_revives_dying() -> None:
    """CH-MAGIC-2: every living hero heals 1, a dying hero reaching 1 HP is back up."""
    m = scen(
        "lord tang_na hand=mass_heal", "enemy bai_pa hp=0/5 flags=dying", "enemy di_shi hp=3/3"
    )
    do(m, "magic mass_heal")
    assert P(m, 1).hp == 1 and not P(m, 1).dying and P(m, 2).hp == 3


def test_exploding_fireball_split_choices() -> None:
    """CH-MAGIC-3: the target's player chooses: one soldier takes 3, or the group spreads
    ⌊3/n⌋ each and it picks who takes one more; no soldier: the hero takes 3."""
    m = scen(
        "lord tang_na hand=exploding_fireball",
        "enemy bai_pa soldiers=horned_demon,militia",
        "enemy di_shi",
    )
    do(m, "magic exploding_fireball h1")
    assert m.prompt_kind == "fb_split" and m.current_seat == 1
    assert set(texts(m)) == {"take s1", "take s2", "split"}
    do(m, "split")  # 3 units: 1 each, nobody picks an extra
    assert P(m, 1).hp == 4 and [x.card for x in P(m, 1).soldiers] == ["horned_demon"]
    m2 = scen("lord tang_na hand=exploding_fireball", "enemy bai_pa", "enemy di_shi")
    do(m2, "magic exploding_fireball h1")
    assert P(m2, 1).hp == 2
    m3 = scen(
        "lord tang_na hand=exploding_fireball", "enemy bai_pa soldiers=militia", "enemy di_shi"
    )
    do(m3, "magic exploding_fireball h1")
    assert "split h1" in texts(m3) and "split s1" in texts(m3)
    do(m3, "take s1")
    assert P(m3, 1).hp == 5 and not P(m3, 1).soldiers


def test_horn_of_plenty_draws_two() -> None:
    """CH-MAGIC-4: the caster draws 2."""
    m = scen("lord tang_na hand=horn_of_plenty", "enemy bai_pa", "enemy di_shi")
    do(m, "magic horn_of_plenty")
    assert len(P(m, 0).hand) == 2


def test_swift_wind_ignores_distance_soldiers_too() -> None:
    """CH-MAGIC-5: attacks by the caster and its soldiers ignore distance this turn."""
    seats = ("enemy bai_pa", "enemy di_shi", "enemy li_wei", "enemy ge_lu_qi")
    m = scen("lord tang_na hand=swift_wind,sword soldiers=spearman", *seats)
    do(m, "magic swift_wind")
    assert {a.args[0] for a in m.legal_actions() if a.kind == "attack"} == {"h1", "h2", "h3", "h4"}
    do(m, "end_play")
    assert {a.args[0] for a in m.legal_actions() if a.kind == "command"} == {"h1", "h2", "h3", "h4"}
    m2 = scen(
        "lord tang_na hand=swift_wind soldiers=spearman",
        *seats,
        rules=CastleRules(swift_wind_soldiers=False),
    )
    do(m2, "magic swift_wind", "end_play")
    assert {a.args[0] for a in m2.legal_actions() if a.kind == "command"} == {"h1", "h4"}


def test_mirror_images_until_next_turn() -> None:
    """CH-MAGIC-6: each attack on the caster is negated with 50% until its next turn
    starts (CH-TURN-3 (1)); 无豁免 is not stopped; magic is no attack."""
    m = scen("lord tang_na hand=mirror_images", "enemy bai_pa", "enemy di_shi")
    do(m, "magic mirror_images")
    assert P(m, 0).mirror
    s = m.state
    from throne_lib.games.castle.combat import Atk

    s.stack.append(("atk", Atk("h1", "h0", 1, "melee", 1, True, tgroup=0)))
    from throne_lib.games.castle.core import run

    s.prompt = None
    run(s)
    assert any("镜影憧憧 判定" in x for x in m.log_lines(None))
    m2 = scen("enemy ge_lu_qi", "lord tang_na flags=mirror", "enemy di_shi")
    do(m2, "skill fire_arrow h1")
    assert P(m2, 1).hp == 4 and not any("镜影" in x for x in m2.log_lines(None))
    m3 = scen("enemy tang_na flags=mirror", "lord bai_pa", "enemy di_shi", turn=1)
    do(m3, "end_play")
    while m3.state.turn_seat != 0:
        m3.apply(m3.legal_actions()[-1])
    assert not P(m3, 0).mirror and "的镜影消失" in " ".join(m3.log_lines(None))


def test_lesser_disintegration_hand_or_equipment() -> None:
    """CH-MAGIC-7: a random hand card or a chosen equipment card goes to the discard."""
    m = scen(
        "lord tang_na hand=lesser_disintegration,lesser_disintegration",
        "enemy bai_pa hand=heal equip=knight_armor",
        "enemy di_shi",
    )
    assert {
        "magic lesser_disintegration h1 hand",
        "magic lesser_disintegration h1 knight_armor",
    } <= set(texts(m))
    do(m, "magic lesser_disintegration h1 knight_armor", "magic lesser_disintegration h1 hand")
    assert P(m, 1).equip == {} and P(m, 1).hand == []
    assert {"knight_armor", "heal"} <= set(m.state.discard)


def test_paralyzing_finger_freezes() -> None:
    """CH-MAGIC-8 / CH-STATUS-3: a frozen hero only draws and discards in its next turn:
    no cards, no command, no block; armour still works; heroes only."""
    m = scen(
        "lord tang_na hand=paralyzing_finger,sword soldiers=spearman",
        "enemy bai_pa hand=sword soldiers=militia",
        "enemy di_shi",
    )
    assert "magic paralyzing_finger s1" not in texts(m)
    do(m, "magic paralyzing_finger h1")
    assert P(m, 1).frozen == 1
    do(m, "attack h1 0 sword")
    assert P(m, 1).hp == 4  # no block prompt for a frozen hero
    do(m, "end_play", "skip_command")
    lines = " ".join(m.log_lines(None))
    assert "拜帕 被定身，跳过出牌阶段" in lines and P(m, 1).frozen == 0


def test_mana_rewind_returns_own_previous_turn_mana() -> None:
    """CH-MAGIC-9: 魔 paid as costs in the caster's own previous turn and still in the
    discard pile return to its hand; conjured ones are restored."""
    m = scen("lord li_wei hand=mana_rewind", "enemy bai_pa", "enemy di_shi")
    P(m, 0).paid_mana_prev = ["conjured_mana", "mana", "mana"]
    m.state.discard = ["mana"]
    do(m, "magic mana_rewind")
    assert sorted(P(m, 0).hand) == ["conjured_mana", "mana"]


def test_ice_storm_each_other_hero() -> None:
    """CH-MAGIC-10: each other living hero clockwise discards a 魔 or takes 1 (magic);
    soldiers are not hit."""
    m = scen(
        "lord tang_na hand=ice_storm",
        "enemy bai_pa hand=mana soldiers=militia",
        "enemy di_shi",
        "enemy li_wei hand=conjured_mana",
    )
    do(m, "magic ice_storm")
    assert m.prompt_kind == "ice" and m.current_seat == 1
    do(m, "discard mana")
    assert P(m, 2).hp == 2 and m.current_seat == 3
    do(m, "take")
    assert P(m, 3).hp == 3 and P(m, 1).soldiers[0].hp == 1 and P(m, 0).hp == 5


def test_counterspell_cancels_and_chains() -> None:
    """CH-MAGIC-11 (a) cancels the magic card; CH-MAGIC-12: clockwise from the caster's
    left, an answer opens its own window where the first player may answer."""
    m = scen(
        "lord tang_na hand=exploding_fireball,counterspell",
        "enemy bai_pa hand=counterspell",
        "enemy di_shi",
    )
    do(m, "magic exploding_fireball h1")
    assert m.prompt_kind == "counter" and m.current_seat == 1
    do(m, "counter")
    assert m.prompt_kind == "counter" and m.current_seat == 0
    do(m, "counter")
    assert P(m, 1).hp == 2  # the counter was countered: the fireball resolves
    m2 = scen(
        "lord tang_na hand=exploding_fireball", "enemy bai_pa hand=counterspell", "enemy di_shi"
    )
    do(m2, "magic exploding_fireball h1", "counter")
    assert P(m2, 1).hp == 5 and "被魔法抵消" in m2.log_lines(None)[-1]


def test_counterspell_lifts_freeze_and_mirror() -> None:
    """CH-MAGIC-11 (b): in its own 出牌阶段 it ends 定身一指 or 镜影憧憧 on another hero; a
    frozen hero can't play it."""
    m = scen("lord tang_na hand=counterspell", "enemy bai_pa frozen=1 flags=mirror", "enemy di_shi")
    do(m, "magic counterspell h1")
    assert P(m, 1).frozen == 0 and not P(m, 1).mirror
    m2 = scen(
        "lord tang_na hand=exploding_fireball",
        "enemy bai_pa frozen=1 hand=counterspell",
        "enemy di_shi",
    )
    do(m2, "magic exploding_fireball h1")
    assert m2.prompt_kind != "counter"


def test_counter_prompts_not_logged() -> None:
    """CH-MAGIC-12 log_counter_prompts=False: the log shows who countered, never who was
    asked or declined."""
    m = scen(
        "lord tang_na hand=horn_of_plenty",
        "enemy bai_pa hand=counterspell",
        "enemy di_shi hand=counterspell",
    )
    do(m, "magic horn_of_plenty", "decline", "decline")
    assert not any("抵消" in x or "放弃" in x for x in m.log_lines(None))


def test_status_refresh_and_public() -> None:
    """CH-STATUS-5: a status gained again isn't extended; statuses are public and end
    when the unit dies. CH-STATUS-1 stun blocks no card before its turn."""
    m = scen(
        "lord tang_na hand=paralyzing_finger,paralyzing_finger", "enemy bai_pa", "enemy di_shi"
    )
    do(m, "magic paralyzing_finger h1")
    assert m.observation(2)["players"][1]["status"] == ["定身"]
    do(m, "magic paralyzing_finger h1")
    assert P(m, 1).frozen == 1
    m2 = scen("lord tang_na hand=sword", "enemy bai_pa hand=sword stun=1", "enemy di_shi")
    do(m2, "attack h1 0 sword")
    assert m2.prompt_kind == "block"  # stunned only in its own next turn


def test_curse_skips_play_and_command() -> None:
    """CH-STATUS-2: a cursed hero skips the 出牌 and 指挥 phases of its next turn but
    still draws and discards (curse_skips)."""
    m = scen("lord tang_na curse=1 soldiers=spearman", "enemy bai_pa", "enemy di_shi", at="turn")
    lines = m.log_lines(0)
    assert any("摸了2张牌" in x for x in lines)
    assert "唐纳 被诅咒，跳过出牌阶段" in lines and "唐纳 被诅咒，跳过指挥阶段" in lines


def test_poison_on_soldier_commander_turn() -> None:
    """CH-STATUS-4: a poisoned soldier takes its damage at its commander's next turn."""
    m = scen(
        "lord tang_na hand=sword equip=poisoned_dagger",
        "enemy bai_pa soldiers=spearman",
        "enemy di_shi",
    )
    do(m, "attack s1 0 sword")
    assert P(m, 1).soldiers[0].poison == 1 and P(m, 1).soldiers[0].hp == 1
    do(m, "end_play")
    assert not P(m, 1).soldiers and m.state.fallen == ["spearman"]
    assert "拜帕的长枪兵 毒性发作" in m.log_lines(None)
    m2 = scen(
        "lord tang_na hand=sword equip=poisoned_dagger",
        "enemy bai_pa soldiers=horned_demon",
        "enemy di_shi",
    )
    do(m2, "attack s1 0 sword", "end_play")  # 厚皮 stops the hit, then the poison of 拜帕's turn
    assert P(m2, 1).soldiers[0].hp == 3 and P(m2, 1).soldiers[0].poison == 0


def test_ask_everyone_parameter() -> None:
    """CH-MAGIC-12 / CH-UI-3: by default (ask_only_able=False) every able hero is asked in
    a counter window, holding 魔法抵消 or not (so being asked reveals nothing)."""
    m = scen(
        "lord tang_na hand=horn_of_plenty",
        "enemy bai_pa",
        "enemy di_shi hand=counterspell",
    )
    m.apply("magic horn_of_plenty")
    assert m.current_seat == 1 and texts(m) == ["decline"]
    m.apply("decline")
    assert m.current_seat == 2 and texts(m) == ["counter", "decline"]
