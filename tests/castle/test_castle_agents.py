"""Computer seats (CH-AI): legal choices from the seat's view only, public-act inference,
play by identity, habits, determinism."""

from __future__ import annotations

import copy
import random

from tests.castle.helpers import P, do, scen
from throne_lib.games.castle import CastleMatch
from throne_lib.games.castle.agents import RandomAgent, ScriptedAgent, play_match, suspicion


def test_scripted_choices_ignore_hidden_state() -> None:
    """CH-AI-1: the scripted agent reads only observation(seat) and legal_actions(): at
    every decision its choice is identical when all that is hidden from its seat (other
    identities and hands, deck order, RNG) is redrawn."""
    checked = differing_states = 0
    for seed in range(3):
        m = CastleMatch(players=6, seed=seed)
        agents = [ScriptedAgent(seed, i) for i in range(6)]
        rng = random.Random(seed)
        while not m.is_over and checked < 80 * (seed + 1):
            seat = m.current_seat
            legal = m.legal_actions()
            choice = copy.deepcopy(agents[seat]).decide(m.observation(seat), legal)
            assert choice in legal
            for _k in range(2):
                other = m.resample(seat, random.Random(rng.random()))
                differing_states += other.hash() != m.hash()
                twin = copy.deepcopy(agents[seat])
                assert twin.choose(other) == choice
            checked += 1
            m.apply(agents[seat].decide(m.observation(seat), legal))
    assert checked > 200 and differing_states > 100


def test_suspicion_from_public_acts() -> None:
    """CH-AI-2: harming the 城主 leans enemy, rescuing the 城主 leans castle; revealed
    identities and declared camps are certain."""
    m = scen(
        "lord tang_na",
        "enemy bai_pa",
        "reinforcement di_shi",
        "enemy li_wei",
        "neutral ge_lu_qi camp=castle flags=declared,revealed",
    )
    s = m.state
    s.harm[1][0] = 3  # 拜帕 hit the 城主
    s.helped[2][0] = 1  # 迪什 healed the 城主
    sus = suspicion(m.observation(3))
    assert sus[1] > 0 and sus[2] < 0 and sus[0] == -10.0 and sus[4] == -10.0
    P(m, 1).revealed = True
    assert suspicion(m.observation(3))[1] == 10.0


def test_by_identity_targets() -> None:
    """CH-AI-3: an enemy goes for the 城主; the 城主 attacks the most enemy-like and
    spares heroes that may be 援军."""
    m = scen(
        "enemy tang_na hand=sword,sword",
        "lord bai_pa",
        "enemy di_shi",
        "enemy li_wei hp=1/4",
        "reinforcement ge_lu_qi",
    )
    act = ScriptedAgent().choose(m)
    assert act.text() == "attack h1 0 sword"
    m2 = scen(
        "lord tang_na hand=sword,sword",
        "enemy bai_pa",
        "reinforcement di_shi",
        "enemy li_wei",
        "enemy ge_lu_qi",
    )
    act2 = ScriptedAgent().choose(m2)
    assert act2.kind == "end_play"  # nobody has shown hostility yet: spare them
    m2.state.harm[4][0] = 2
    act3 = ScriptedAgent().choose(m2)
    assert act3.text() == "attack h4 0 sword"


def test_neutral_keeps_lord_alive_and_refuses() -> None:
    """CH-AI-3: a neutral keeps the 城主 alive while 敌军 live and refuses 投靠 while it
    can still win."""
    m = scen(
        "neutral tang_na hand=sword,sword", "lord bai_pa hp=1/5", "enemy di_shi", "enemy li_wei"
    )
    m.state.harm[2][1] = 1
    agent = ScriptedAgent()
    act = agent.choose(m)
    assert act.text() != "attack h1 0 sword"
    obs = m.observation(0)
    obs = {**obs, "prompt": {"kind": "defect", "mine": True, "detail": {}}}
    from throne_lib.games.castle.actions import Act

    assert agent.decide(obs, [Act("yes"), Act("no")]).kind == "no"


def test_habits_block_heal_draft_counter() -> None:
    """CH-AI-4: keeps and uses a 剑 to block; heals when low; drafts the best soldiers
    its mana buys keeping 魔 for a 魔-using hero; counters harmful magic aimed at it."""
    m = scen("enemy tang_na hand=sword", "lord bai_pa hand=sword", "enemy di_shi")
    do(m, "attack h1 0 sword")
    assert ScriptedAgent().choose(m).kind == "block"
    m2 = scen("lord tang_na hp=2/5 hand=heal,sword", "enemy bai_pa", "enemy di_shi")
    assert ScriptedAgent().choose(m2).text() == "heal h0 heal"
    m3 = scen(
        "enemy tang_na hand=exploding_fireball", "lord bai_pa hand=counterspell", "enemy di_shi"
    )
    do(m3, "magic exploding_fireball h1")
    assert m3.current_seat == 1
    assert ScriptedAgent().choose(m3).kind == "counter"
    d = CastleMatch(players=4, seed=0)
    while d.prompt_kind == "pick_hero":
        d.apply(d.legal_actions()[0])
    seat = d.current_seat
    hero = d.state.players[seat].hero
    act = ScriptedAgent().choose(d)
    value = d.state.cards[str(act.args[0])].value if act.kind == "draft" else 0
    reserve = 3 if hero in ("li_wei", "di_shi", "ge_lei_si", "ge_lu_qi", "luo_xia", "bai_pa") else 0
    assert act.kind == "draft" and 10 - value >= reserve
    best = max(
        d.state.cards[str(a.args[0])].value
        for a in d.legal_actions()
        if a.kind == "draft" and 10 - d.state.cards[str(a.args[0])].value >= reserve
    )
    assert value == best


def test_agents_deterministic() -> None:
    """CH-AI-5: seeded from the match seed and the seat; no clock: same seed, same match."""
    hashes = []
    for _ in range(2):
        m = CastleMatch(players=5, seed=17)
        play_match(m, [ScriptedAgent(17, i) for i in range(5)])
        hashes.append((m.hash(), m.returns()))
    assert hashes[0] == hashes[1]
    m2 = CastleMatch(players=4, seed=3)
    n = play_match(m2, [RandomAgent(3, i) for i in range(4)])
    assert m2.is_over and n > 10


def test_registered_with_the_kit() -> None:
    """The game registers itself: the registry builds matches of 3..8 seats and agents."""
    from throne_lib.kit import registry
    from throne_lib.kit.protocol import GameMatch

    g = registry.get("castle")
    assert (g.title, g.seats, g.rule_prefix) == ("城堡之心", (3, 8), "CH-")
    m = g.new(g.default_setups(5), seed=3)  # type: ignore[misc]
    assert isinstance(m, GameMatch) and m.num_seats == 5
    agent = g.agents["scripted"](3)
    n = play_match(m, [agent] * 5)
    assert m.is_over and n > 0


def test_rules_round_trip_through_options() -> None:
    """Rule parameters (every Reading is one, e.g. CH-TURN-11 max_rounds, CH-ROLE-4 the role
    table) survive a JSON round trip, so a log rebuilds the same match."""
    import json

    from throne_lib.games.castle import CastleRules
    from throne_lib.games.castle.match import rules_from, rules_overrides
    from throne_lib.games.castle.rules import DEFAULT_ROLE_TABLE

    r = CastleRules(
        max_rounds=9, curse_skips=("play",), role_table={**DEFAULT_ROLE_TABLE, 5: (1, 3, 1, 0)}
    )
    back = rules_from(json.loads(json.dumps(rules_overrides(r))))
    assert back == r and rules_overrides(CastleRules()) == {}
    m = CastleMatch(players=4, seed=2, rules=r)
    assert m.options == {"rules": {"max_rounds": 9, "curse_skips": ["play"]}} and m.seed == 2


def test_kit_search_agent_plays_castle() -> None:
    """The kit's search agent plays 城堡之心 through resample (CH-AI-1: it sees the hidden
    state only as redrawn from the seat's view) to the end of a match."""
    from throne_lib.kit.agents import make_agent

    m = CastleMatch(players=4, seed=2)
    agents = [make_agent("search", 2, "castle", iterations=4)] + [
        ScriptedAgent(2, i) for i in (1, 2, 3)
    ]
    n = 0
    while not m.is_over and n < 5000:
        m.apply(agents[m.current_seat].choose(m))
        n += 1
    assert m.is_over


def test_hero_pick_by_evaluation_not_hp() -> None:
    """CH-SETUP-5 / CH-AI-4: heroes are picked by their value to the seat, not by HP: the
    城主 takes 迪什 (HP 3, soldiers by 造化万物) over 威尔普斯 (HP 5); an 敌军 two seats
    from the 城主 takes 格鲁奇 (HP 3, 火箭 reaches any distance) over 威尔普斯, one next
    to the 城主 takes 威尔普斯."""
    from throne_lib.games.castle.actions import Act

    m = CastleMatch(players=6, seed=3)
    agent = ScriptedAgent(3)
    s = m.state
    lord = next(p.seat for p in s.players if p.role == "lord")
    strong, rich = Act("pick_hero", ("wei_er_pu_si",)), Act("pick_hero", ("di_shi",))
    obs = {**m.observation(lord), "prompt": {"kind": "pick_hero", "mine": True, "detail": {}}}
    assert s.cards["wei_er_pu_si"].hp > s.cards["di_shi"].hp
    assert agent.decide(obs, [strong, rich]) == rich
    archer = Act("pick_hero", ("ge_lu_qi",))
    picks = {}
    for p in s.players:
        if p.role != "enemy":
            continue
        obs = {**m.observation(p.seat), "prompt": {"kind": "pick_hero", "mine": True}}
        picks[s.seat_distance(p.seat, lord)] = agent.decide(obs, [strong, archer])
    assert picks[1] == strong and picks[2] == archer


def test_neutral_never_defects_and_finishes_the_castle_last() -> None:
    """CH-WIN-4 / CH-WIN-5 / CH-WIN-2 / CH-ROLE-7: 投靠 cannot win a neutral anything, so
    it refuses even at 1 HP; once its camp is 敌军 (it refused), it attacks the 援军 and
    spares the 城主 while anyone else lives — the 城主's death with a 援军 alive is the
    敌军's win — and goes for the 城主 when they are the last two; it never declares 敌军
    and gives up 援军 when at most one 敌军-like seat is left (CH-WIN-3)."""
    from throne_lib.games.castle.actions import Act

    m = scen(
        "neutral tang_na hp=1/5 hand=sword,sword",
        "lord bai_pa",
        "reinforcement di_shi",
        "enemy li_wei",
    )
    agent = ScriptedAgent()
    obs = {**m.observation(0), "prompt": {"kind": "defect", "mine": True, "detail": {}}}
    assert agent.decide(obs, [Act("yes"), Act("no")]).kind == "no"
    m.state.harm[3][1] = 2  # seat 3 hurt the 城主: 敌军-like, the only one
    obs = {**m.observation(0), "prompt": {"kind": "declare", "mine": True, "detail": {}}}
    declares = [Act("declare", (c,)) for c in ("enemy", "castle", "keep")]
    assert agent.decide(obs, declares).args[0] == "keep"
    enemy = m.state.players[3]
    enemy.alive, enemy.revealed, enemy.hp = False, True, 0
    me = m.state.players[0]
    me.camp, me.declared, me.camp_fixed, me.revealed = "enemy", True, True, True
    host = agent.hostility(m.observation(0))
    assert host[2] > 0 > host[1]
    m.state.players[2].alive, m.state.players[2].revealed = False, True
    assert agent.hostility(m.observation(0))[1] > 0
