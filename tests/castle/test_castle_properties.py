"""Seeded random matches for 3–8 seats and hidden information (CH-UI, CH-RNG, CH-DECK-8).

Property tests: every match terminates with no exception; the 140 cards are conserved at
every step; observation(seat) is unchanged when everything hidden from that seat is
shuffled (so it can't contain another seat's hidden identity or hand).
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from tests.castle.helpers import do, scen
from throne_lib.games.castle import CastleMatch, box_census, load_castle_cards

BOX = Counter(load_castle_cards().box())


def check_invariants(m: CastleMatch) -> None:
    s = m.state
    assert Counter(box_census(s)) == BOX  # CH-DECK-8
    for p in s.players:
        assert p.hp <= p.max_hp
        for x in p.soldiers:
            assert 0 < x.hp <= x.max_hp
        if p.leadership >= 0 and s.stage == "prep":
            assert len(p.soldiers) <= p.leadership


@settings(max_examples=15, deadline=None)
@given(players=st.integers(3, 8), seed=st.integers(0, 10_000))
def test_random_matches_terminate_conserve_cards(players: int, seed: int) -> None:
    """CH-DECK-8 conservation and CH-TURN-11 termination for seeded random matches."""
    m = CastleMatch(players=players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not m.is_over:
        acts = m.legal_actions()
        assert acts, f"no legal action at prompt {m.prompt_kind}"
        m.apply(acts[rng.randrange(len(acts))])
        steps += 1
        if steps % 7 == 0:
            check_invariants(m)
    check_invariants(m)
    assert sorted(set(m.returns())) in ([-1.0, 1.0], [0.0], [-1.0, 0.0, 1.0], [1.0], [-1.0])
    assert m.state.end_rule in ("CH-WIN-2", "CH-WIN-3", "CH-TURN-11")


def _hidden_positions(players: int, seed: int, stops: int) -> list[CastleMatch]:
    m = CastleMatch(players=players, seed=seed)
    rng = random.Random(seed + 1)
    out = []
    step = 0
    while not m.is_over and len(out) < stops:
        acts = m.legal_actions()
        m.apply(acts[rng.randrange(len(acts))])
        step += 1
        if step % 23 == 0 and m.state.stage == "battle":
            out.append(m.copy())
    return out


@settings(max_examples=8, deadline=None)
@given(players=st.integers(4, 8), seed=st.integers(0, 10_000))
def test_observation_invariant_under_hidden_shuffle(players: int, seed: int) -> None:
    """CH-UI-2 / CH-AI-1: observation(seat) doesn't change when every part hidden from
    that seat (other identities, other hands, deck order, RNG) is redrawn; and the
    redraw does change the hidden state (the check can fail)."""
    changed = 0
    positions = _hidden_positions(players, seed, 3)
    assume(positions)
    for m in positions:
        for seat in range(players):
            before = m.observation(seat)
            for k in range(3):
                other = m.resample(seat, random.Random(k))
                assert other.observation(seat) == before
                changed += other.hash() != m.hash()
            json.dumps(before)  # plain data
    assert changed > 0


def test_observation_fields_ui() -> None:
    """CH-UI-1: own identity, hand and hero; the 城主 marked; per hero HP/max, hand size,
    equipment, soldiers with HP, statuses, dying/holding, camp, identity or "?"; deck
    and discard sizes; round, current hero, phase; the public log."""
    m = scen(
        "lord tang_na hand=sword equip=knight_armor soldiers=militia",
        "enemy bai_pa hp=0/5 flags=dying poison=1",
        "neutral di_shi camp=enemy flags=declared,revealed",
        "enemy li_wei hold=1",
    )
    o = m.observation(3)
    assert o["role"] == "enemy" and o["hand"] == [] and o["players"][3]["hero"] == "li_wei"
    lord, b, c, d = o["players"]
    assert lord["role_zh"] == "城主" and lord["equip"] == {"armour": "knight_armor"}
    assert lord["soldiers"] == [
        {
            "ref": "s1",
            "card": "militia",
            "hp": 1,
            "max_hp": 1,
            "poison": 0,
            "cursed": False,
            "coward": False,
        }
    ]
    assert b["role"] == "?" and b["dying"] and b["status"] == ["中毒1"] and b["hp"] == 0
    assert c["camp"] == "enemy" and c["role"] == "neutral" and d["holding"]
    assert (o["deck_size"], o["discard_size"], o["round"], o["turn_seat"], o["step"]) == (
        20,
        0,
        1,
        0,
        "play",
    )
    assert isinstance(o["log"], list)


def test_private_parts_and_spectator() -> None:
    """CH-UI-2: private are the hand, the identity and spied hands; a spectator (None)
    sees the public part only; CH-UI-4: what a cover screen shows between seats is the
    spectator view — no hand, no hidden identity."""
    m = scen("lord lai_en hand=sword", "enemy bai_pa hand=heal", "enemy di_shi")
    do(m, "skill spy h1")
    spectator = m.public_view()
    assert spectator["hand"] == [] and spectator["spied"] == {} and spectator["role"] == ""
    assert all(p["role"] in ("?", "lord") for p in spectator["players"])
    assert "愈" not in json.dumps(spectator, ensure_ascii=False).replace("使用愈", "")
    assert m.observation(0)["spied"] == {"1": ["heal"]}


def test_prompt_seen_by_asked_seat_only() -> None:
    """CH-UI-3: an answer is asked of that seat alone; others see that answers are
    awaited, never who was asked or who declined."""
    m = scen("lord tang_na hand=sword", "enemy bai_pa hand=sword", "enemy di_shi")
    do(m, "attack h1 0 sword")
    assert m.observation(1)["prompt"]["kind"] == "block" and m.observation(1)["prompt"]["mine"]
    assert m.observation(1)["prompt"]["detail"] == {
        "attacker": "h0",
        "target": "h1",
        "source": 0,
        "need": 1,
    }
    assert m.observation(2)["prompt"] == {"kind": "awaiting", "mine": False}
    assert m.observation(0)["prompt"] == {"kind": "awaiting", "mine": False}
    do(m, "no_block")
    assert not any("不抵挡" in x or "no_block" in x for x in m.log_lines(None))


def test_replay_reveals_everything() -> None:
    """CH-UI-5: a replay shows all identities, all hands and the deck order."""
    m = scen("lord tang_na hand=sword", "enemy bai_pa hand=heal", "enemy di_shi")
    v = m.reveal_all()
    assert [p["role"] for p in v["players"]] == ["lord", "enemy", "enemy"]
    assert v["players"][1]["hand"] == ["heal"] and len(v["deck"]) == 20


def test_log_in_chinese_names() -> None:
    """CH-UI-6: the log names cards and traits in Chinese; hidden draws as counts;
    CH-RNG-2: random outcomes are logged publicly."""
    m = scen("lord tang_na hand=sword,sword,sword", "enemy bai_pa", "enemy di_shi")
    lines = do(m, "skill roar")
    assert lines[0] == "唐纳 发动 熊之咆哮"
    m2 = scen("lord tang_na hand=horn_of_plenty", "enemy bai_pa", "enemy di_shi")
    do(m2, "magic horn_of_plenty")
    assert "唐纳 （丰饶号角）摸了2张牌" in m2.log_lines(1)
    assert any(x.startswith("唐纳 （丰饶号角）摸了2张牌：") for x in m2.log_lines(0))
    # CH-UI-2: no seat given, the public lines only: the cards drawn stay hidden
    assert "唐纳 （丰饶号角）摸了2张牌" in m2.log_lines(None)
    assert not any("摸了2张牌：" in x for x in m2.log_lines(None))


def test_rng_owned_and_copied() -> None:
    """CH-RNG-1: the match owns its RNG and copies it: a copy replays identically."""
    m = CastleMatch(players=5, seed=8)
    rng = random.Random(3)
    for _ in range(60):
        m.apply(m.legal_actions()[rng.randrange(len(m.legal_actions()))])
    c = m.copy()
    r1, r2 = random.Random(4), random.Random(4)
    for _ in range(80):
        if m.is_over:
            break
        a, b = m.legal_actions(), c.legal_actions()
        assert a == b
        m.apply(a[r1.randrange(len(a))])
        c.apply(b[r2.randrange(len(b))])
    assert m.hash() == c.hash()


def test_every_action_has_chinese_text() -> None:
    """CH-UI-6 / CH-UI-3: every legal action offered in random matches has a Chinese
    description (no raw action text left)."""
    for seed in range(4):
        m = CastleMatch(players=5 + seed % 3, seed=seed)
        rng = random.Random(seed)
        while not m.is_over:
            acts = m.legal_actions()
            for a in acts:
                text = m.describe(a)
                assert text != a.text() and any("\u4e00" <= ch <= "\u9fff" for ch in text), a
            m.apply(acts[rng.randrange(len(acts))])
    m2 = scen("lord tang_na hand=sword", "enemy bai_pa", "enemy di_shi")
    assert m2.describe(m2.legal_actions()[0]) == "剑攻击 拜帕（支付1张剑）"
