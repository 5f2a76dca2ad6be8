"""The 战报: every engine event reads as Chinese with cell names."""

from __future__ import annotations

from throne_lib import CardDB, Event, Match, SideSetup, geometry
from throne_lib.games.throne.ui.text import event_text, result_text
from throne_lib.kit.agents import RandomAgent, play_match


def test_siege_attack_line(db: CardDB) -> None:
    g = geometry()
    e = Event(
        "attack", 3, 1, "siege_behemoth", g.parse("d5"), "lionheart", g.parse("d6"), 7, "围攻+5"
    )
    assert event_text(e, db, g) == "攻城巨兽 d5 攻击王座 d6：-7（围攻+5）"


def test_hand_full_and_overflow_heal(db: CardDB) -> None:
    g = geometry()
    assert "手牌已满" in event_text(Event("hand_full", 2, 0, note="手牌已满"), db, g)
    heal = Event("heal", 2, 0, "pain_lord", -1, "pain_lord", g.parse("d1"), 3, "溢出上限")
    assert event_text(heal, db, g) == "王座 d1 恢复 3 点生命，溢出上限"


def test_hidden_draws_of_the_other_side(db: CardDB) -> None:
    g = geometry()
    draw = Event("draw", 2, 1, "holy_light")
    assert "圣光术" not in event_text(draw, db, g, viewer=0)
    assert "圣光术" in event_text(draw, db, g, viewer=1)


def test_every_event_of_random_matches_has_a_chinese_line(db: CardDB) -> None:
    kinds: set[str] = set()
    for seed, (a, b) in enumerate([("human", "demon"), ("goblin", "undead"), ("beast", "elf")]):
        m = Match.new(db, SideSetup.signature(db, a), SideSetup.signature(db, b), seed)
        events = list(m.setup_events)
        agents = (RandomAgent(seed), RandomAgent(seed + 100))
        while not m.is_over:
            events += m.apply(agents[m.turn].choose(m))
        for e in events:
            line = event_text(e, db, m.geo, viewer=0)
            assert line and not line.startswith(e.kind), e
            kinds.add(e.kind)
    assert {"attack", "damage", "summon", "death", "turn_start", "game_over"} <= kinds


def test_result_headline() -> None:
    assert result_text(0, "throne", human=0).startswith("你赢了")
    assert "平局" in result_text(None, "round_limit:draw")
    assert "按王座血量" in result_text(1, "round_limit:hp", human=0)


def test_play_match_helper_still_available(db: CardDB) -> None:
    m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "beast"), 9)
    play_match(m, RandomAgent(1), RandomAgent(2))
    assert m.is_over


def test_action_and_illegal_lines(db: CardDB) -> None:
    from throne_lib import Action
    from throne_lib.games.throne.ui.text import action_text, illegal_text

    g = geometry()
    assert action_text(Action("summon", g.parse("b2"), g.parse("b3"), "militia"), db, g) == (
        "召唤 民兵 → b3"
    )
    assert action_text(Action("end"), db, g) == "结束回合"
    assert illegal_text("R-TURN-1", "costs 4").startswith("不可行：法力不足（R-TURN-1）")
