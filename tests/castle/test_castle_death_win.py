"""Dying, rescue, death, rewards, adoption (CH-DEATH); camps (CH-ROLE); the end (CH-WIN);
the turn (CH-TURN)."""

from __future__ import annotations

from tests.castle.helpers import P, do, scen, texts
from throne_lib.games.castle import CastleMatch, CastleRules


def finish_turn(m: CastleMatch) -> None:
    seat = m.state.turn_seat
    while not m.is_over and m.state.turn_seat == seat:
        acts = texts(m)
        for pref in ("end_play", "skip_command", "end_command", "decline", "no"):
            if pref in acts:
                m.apply(pref)
                break
        else:
            m.apply(m.legal_actions()[-1])


def test_rescue_window_after_fall_and_by_anyone() -> None:
    """CH-DEATH-2: any living hero may play 愈 on a dying hero, 1 HP each; CH-DEATH-3 (a):
    a window opens after the action, from the current hero clockwise; CH-DEATH-1 a dying
    hero only heals itself."""
    m = scen(
        "lord tang_na hand=sword,heal",
        "enemy bai_pa hp=1/5 hand=heal",
        "enemy di_shi hand=heal,heal",
    )
    do(m, "attack h1 0 sword")
    assert m.prompt_kind == "rescue" and m.current_seat == 0
    do(m, "decline")
    assert m.current_seat == 1 and set(texts(m)) == {"rescue h1 heal", "decline"}
    do(m, "decline")
    assert m.current_seat == 2
    do(m, "rescue h1 heal")
    assert P(m, 1).hp == 1 and not P(m, 1).dying and m.state.helped[2][1] == 1
    assert m.current_seat == 0 and m.prompt_kind == "play"


def test_dying_hero_dies_at_turn_end_and_is_revealed() -> None:
    """CH-DEATH-4: still dying at the end of the turn → dies; CH-DEATH-3 (b) a turn-end
    window first; CH-DEATH-5 deaths together at turn end; CH-DEATH-7 identity revealed,
    hand and equipment discarded, conjured 魔 removed, no more turns; CH-TURN-9 order."""
    m = scen(
        "lord tang_na hand=sword",
        "enemy bai_pa hp=1/5 hand=heal,conjured_mana,sword equip=knight_armor poison=1",
        "enemy di_shi",
        "enemy li_wei",
    )
    P(m, 1).equip = {}
    do(m, "attack h1 0 sword", "no_block")
    assert P(m, 1).dying and P(m, 1).alive
    while m.prompt_kind == "rescue":
        do(m, "decline")
    do(m, "end_play")
    while m.prompt_kind == "rescue":
        do(m, "decline")
    assert not P(m, 1).alive and P(m, 1).revealed
    assert m.observation(2)["players"][1]["status"] == []  # CH-STATUS-5: statuses end
    assert P(m, 1).hand == [] and "conjured_mana" not in m.state.discard
    assert {"heal", "sword"} <= set(m.state.discard)
    assert m.observation(2)["players"][1]["role"] == "enemy"
    assert m.state.turn_seat == 2  # seat 1 is skipped
    assert "拜帕 阵亡，身份：敌军" in m.log_lines(None)


def test_killer_rewards_and_lord_penalty() -> None:
    """CH-DEATH-6 killer = last source; CH-DEATH-8: killing a 敌军 draws 3; a 城主 killing a
    援军 loses hand and equipment; 敌军 killing 援军 draws 3; an undeclared neutral gives
    nothing; CH-ROLE-6 a declared neutral counts as declared."""
    m = scen("lord tang_na hand=sword", "enemy bai_pa hp=1/5", "enemy di_shi", "enemy li_wei")
    do(m, "attack h1 0 sword", "end_play")
    assert len(P(m, 0).hand) == 3 and "消灭敌军，获得摸3张牌的奖励" in " ".join(m.log_lines(None))
    m2 = scen(
        "lord tang_na hand=sword,heal equip=knight_armor",
        "reinforcement bai_pa hp=1/5",
        "enemy di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
    )
    do(m2, "attack h1 0 sword")
    while m2.prompt_kind == "rescue":
        do(m2, "decline")
    do(m2, "end_play")
    while m2.prompt_kind == "rescue":  # the turn-end window
        do(m2, "decline")
    assert P(m2, 0).hand == [] and P(m2, 0).equip == {}
    m3 = scen(
        "enemy tang_na hand=sword",
        "reinforcement bai_pa hp=1/5",
        "lord di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
    )
    do(m3, "attack h1 0 sword", "end_play")
    assert len(P(m3, 0).hand) == 3
    m4 = scen(
        "enemy tang_na hand=sword",
        "neutral bai_pa hp=1/5",
        "lord di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
        "reinforcement luo_xia",
    )
    do(m4, "attack h1 0 sword", "end_play")
    assert P(m4, 0).hand == []  # undeclared neutral: nothing
    m5 = scen(
        "lord tang_na hand=sword",
        "neutral bai_pa hp=1/5 camp=enemy flags=declared",
        "enemy di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
        "reinforcement luo_xia",
    )
    do(m5, "attack h1 0 sword", "end_play")
    assert len(P(m5, 0).hand) == 3  # 宣布为敌军的中立


def test_adoption_by_same_camp_within_leadership() -> None:
    """CH-DEATH-9: the dead hero's camp, clockwise from its seat, may take surviving
    soldiers within free leadership; the rest die (CH-DEATH-10: fallen pile)."""
    m = scen(
        "lord tang_na hand=sword",
        "enemy bai_pa hp=1/5 soldiers=militia,goblin,archer",
        "enemy di_shi soldiers=imp",
        "enemy li_wei",
        "reinforcement ge_lu_qi",
    )
    P(m, 1).leadership = 3
    do(m, "attack h1 0 sword", "end_play")
    assert m.prompt_kind == "adopt" and m.current_seat == 2
    assert set(texts(m)) == {"adopt s1", "adopt s2", "adopt s3", "decline"}
    do(m, "adopt s3")
    assert m.prompt_kind == "adopt" and m.current_seat == 3  # 迪什 is full (2)
    do(m, "adopt s1", "adopt s2")
    assert [x.card for x in P(m, 2).soldiers] == ["imp", "archer"]
    assert [x.card for x in P(m, 3).soldiers] == ["militia", "goblin"]


def test_adopt_rest_die_to_fallen_pile() -> None:
    """CH-DEATH-10: soldiers not adopted die, their cards on the fallen pile."""
    m = scen(
        "lord tang_na hand=sword",
        "enemy bai_pa hp=1/5 soldiers=militia",
        "enemy di_shi",
        "enemy li_wei",
    )
    do(m, "attack h1 0 sword", "end_play", "decline", "decline")
    assert m.state.fallen == ["militia"]


def test_lord_dies_enemies_win() -> None:
    """CH-WIN-2: the 城主 dead → every 敌军 wins, dead or alive (CH-ROLE-2 dead_share_win);
    CH-WIN-1: identities revealed, each seat marked, the rule named."""
    m = scen(
        "enemy tang_na hand=sword",
        "lord bai_pa hp=1/5",
        "enemy di_shi",
        "reinforcement li_wei",
        "enemy ge_lu_qi flags=revealed",
    )
    P(m, 4).alive = False
    do(m, "attack h1 0 sword", "end_play")
    assert m.is_over and m.state.end_rule == "CH-WIN-2" == m.end_reason
    assert m.returns() == [1.0, -1.0, 1.0, -1.0, 1.0]
    assert all(p["role"] != "?" for p in m.observation(3)["players"])
    m2 = scen(
        "enemy tang_na hand=sword",
        "lord bai_pa hp=1/5",
        "enemy di_shi",
        "reinforcement li_wei",
        "enemy ge_lu_qi",
        rules=CastleRules(dead_share_win=False),
    )
    P(m2, 4).alive = False
    do(m2, "attack h1 0 sword", "end_play")
    assert m2.returns()[4] == -1.0


def test_last_neutral_standing_wins() -> None:
    """CH-WIN-2: if the one hero alive is a 中立 that never chose 投靠, it alone wins."""
    m = scen(
        "neutral tang_na hand=sword", "lord bai_pa hp=1/5", "enemy di_shi", "reinforcement li_wei"
    )
    for q in (2, 3):
        P(m, q).alive = False
    do(m, "attack h1 0 sword", "end_play")
    assert m.returns() == [1.0, -1.0, -1.0, -1.0]


def test_all_enemies_dead_castle_wins() -> None:
    """CH-WIN-3: the 城主 alive and no 敌军: no neutral alive → the castle side wins."""
    m = scen(
        "lord tang_na hand=sword", "enemy bai_pa hp=1/5", "reinforcement di_shi", "enemy li_wei"
    )
    P(m, 3).alive = False
    do(m, "attack h1 0 sword", "end_play")
    assert m.state.end_rule == "CH-WIN-3" and m.returns() == [1.0, -1.0, 1.0, -1.0]


def test_neutral_defect_or_refuse() -> None:
    """CH-WIN-4: all 敌军 dead: each neutral not fixed chooses 投靠 (game ends) or refuses
    (camp fixed to 敌军, the game goes on); CH-ROLE-8 a fixed camp can't switch; CH-WIN-5:
    no neutral shares the castle's win (defector_wins = False)."""

    def setup() -> CastleMatch:
        m = scen(
            "lord tang_na hand=sword",
            "enemy bai_pa hp=1/5",
            "reinforcement di_shi",
            "neutral li_wei",
            "enemy ge_lu_qi",
        )
        P(m, 4).alive = False
        return m

    m = setup()
    do(m, "attack h1 0 sword", "end_play")
    assert m.prompt_kind == "defect" and m.current_seat == 3
    do(m, "yes")
    assert m.is_over and m.returns() == [1.0, -1.0, 1.0, -1.0, -1.0]
    m2 = setup()
    do(m2, "attack h1 0 sword", "end_play", "no")
    assert not m2.is_over and P(m2, 3).camp == "enemy" and P(m2, 3).camp_fixed
    while m2.state.turn_seat != 3:
        finish_turn(m2)
    # fixed: no switching at turn start (CH-ROLE-8); the start step is asked all the same
    assert m2.prompt_kind == "declare" and texts(m2) == ["declare keep"]


def test_neutral_of_camp_castle_ends_game() -> None:
    """CH-WIN-3: every living neutral of camp 援军 when the 敌军 are gone → castle wins."""
    m = scen(
        "lord tang_na hand=sword",
        "enemy bai_pa hp=1/5",
        "neutral li_wei camp=castle flags=declared",
        "reinforcement di_shi",
        "enemy ge_lu_qi",
    )
    P(m, 4).alive = False
    do(m, "attack h1 0 sword", "end_play")
    assert m.is_over and m.returns()[2] == -1.0 and m.returns()[0] == 1.0


def test_neutral_declares_at_own_turn_start() -> None:
    """CH-ROLE-7: at the start of its own turn a neutral may set its camp; the camp is
    public and the first declaration reveals 中立; CH-ROLE-1 identity never changes."""
    m = scen(
        "neutral li_wei",
        "lord bai_pa",
        "enemy di_shi",
        "enemy tang_na",
        "reinforcement ge_lu_qi",
        at="turn",
    )
    assert m.prompt_kind == "declare"
    assert set(texts(m)) == {"declare enemy", "declare castle", "declare keep"}
    do(m, "declare enemy")
    obs = m.observation(2)["players"][0]
    assert obs["camp"] == "enemy" and obs["role"] == "neutral" and P(m, 0).role == "neutral"


def test_camps_of_identities() -> None:
    """CH-ROLE-6: 城主/援军 castle, 敌军 enemy, a neutral its declaration; CH-ROLE-2 goals:
    the castle side wins or loses together (see the win tests)."""
    from throne_lib.games.castle.core import eff_camp

    m = scen(
        "lord li_wei",
        "reinforcement bai_pa",
        "enemy di_shi",
        "enemy tang_na",
        "neutral ge_lu_qi",
        "enemy luo_xia",
    )
    assert [eff_camp(P(m, i)) for i in range(6)] == [
        "castle",
        "castle",
        "enemy",
        "enemy",
        "",
        "enemy",
    ]


def test_round_limit_draw() -> None:
    """CH-TURN-11: a round begins with each 城主 turn; past max_rounds the game is a draw
    (CH-WIN-6: the only other end)."""
    m = scen("lord tang_na", "enemy bai_pa", "enemy di_shi", rules=CastleRules(max_rounds=2))
    while not m.is_over:
        finish_turn(m)
    assert m.state.end_rule == "CH-TURN-11" and m.returns() == [0.0, 0.0, 0.0]
    assert m.state.round == 3


def test_turn_phases_in_order_and_hand_limit() -> None:
    """CH-TURN-2 phases in order; CH-TURN-4 draw 2; CH-TURN-7 指挥阶段 after 出牌;
    CH-TURN-8 discard down to current HP, checked in this phase only."""
    m = scen("lord tang_na hp=2/5 soldiers=spearman", "enemy bai_pa", "enemy di_shi", at="turn")
    assert m.prompt_kind == "play" and len(P(m, 0).hand) == 2
    P(m, 0).hand += ["heal", "heal"]
    do(m, "end_play")
    assert m.prompt_kind == "command_pick"
    do(m, "skip_command")
    assert m.prompt_kind == "discard"
    do(m, "discard heal", "discard heal")
    assert len(P(m, 0).hand) == 2 and m.state.turn_seat == 1


def test_public_and_private_zones() -> None:
    """CH-DECK-6: hands hidden, sizes public; equipment, soldiers, discard public;
    CH-PREP-2 mana exists in the preparation phase only; CH-SEAT-2 a soldier is at its
    commander's seat; CH-SEAT-6 hero_base_range."""
    m = scen(
        "lord tang_na hand=sword,heal equip=knight_armor soldiers=militia",
        "enemy bai_pa",
        "enemy di_shi",
        discard="mana",
    )
    o = m.observation(1)
    me = o["players"][0]
    assert me["hand_size"] == 2 and "hand" not in me and o["discard"] == ["mana"]
    assert me["equip"] == {"armour": "knight_armor"} and me["soldiers"][0]["card"] == "militia"
    assert me["mana"] == 0 and m.state.commander("s1") == 0
    m2 = scen(
        "lord tang_na hand=sword",
        "enemy bai_pa",
        "enemy di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
        rules=CastleRules(hero_base_range=2),
    )
    assert "attack h2 0 sword" in texts(m2)
