"""Setup, command points and the turn (PIN-SETUP, -CP, -TURN, -HQ)."""

from __future__ import annotations

import dataclasses
from collections import Counter

from conftest import PosFn, act, illegal, texts

from throne_lib.games.pin.rules import PIN_RULES


def _through_setup(m) -> None:  # type: ignore[no-untyped-def]
    """Mulligan nothing, reveal the first card listed, until turn 1 begins."""
    while m.state.turn == 0:
        acts = m.legal_actions()
        act(m, acts[0])


def test_setup_hqs_decks_and_hands(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-SETUP-1 / PIN-SETUP-2 / PIN-HQ-1: HQs on 003/020 with 160 HP; 49 shuffled
    cards; CP 0/0; 6 cards each; the mulligan of seat 0 is awaited."""
    m = new_match(seed=4)
    st = m.state
    assert st.units[0].cell == 3 and st.units[1].cell == 20
    assert st.units[0].hp == st.units[0].max_hp == 160
    assert [len(h) for h in st.hands] == [6, 6] and [len(d) for d in st.decks] == [43, 43]
    assert st.cp == [0, 0] and st.cp_max == [0, 0]
    assert st.pending is not None and st.pending.kind == "mulligan" and m.current_seat == 0
    other = new_match(seed=5)
    assert other.state.decks[0] != st.decks[0]  # shuffled by the seed


def test_mulligan_once_to_bottom_then_draw(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-SETUP-3: any sub-multiset (0 allowed) goes to the bottom, as many are drawn;
    once per side, hidden from the other seat."""
    m = new_match(seed=2)
    hand = list(m.state.hands[0])
    n_options = 1
    for n in Counter(hand).values():
        n_options *= n + 1
    assert len(m.legal_actions()) == n_options
    top = list(reversed(m.state.decks[0][-2:]))
    give = sorted(hand)[:2]
    act(m, "mulligan " + "+".join(give))
    assert Counter(m.state.hands[0]) == Counter(hand) - Counter(give) + Counter(top)
    assert Counter(m.state.decks[0][:2]) == Counter(give)  # bottom
    assert m.state.mulliganed[0] and m.current_seat == 1
    obs = m.observation(1)
    assert (
        obs["hand_counts"] == [6, 6] and "hand" in obs and obs["hand"] == sorted(m.state.hands[1])
    )
    act(m, "mulligan -")
    assert m.state.pending.kind == "reveal"


def test_reveal_decides_first_player(new_match, pdb) -> None:  # type: ignore[no-untyped-def]
    """PIN-SETUP-4 / PIN-SETUP-6: the higher cost goes first and shuffles its card back (5
    cards); the second keeps it (6) and all have seen it."""
    m = new_match(seed=3)
    act(m, "mulligan -")
    act(m, "mulligan -")
    h0, h1 = m.state.hands
    hi = max(h0, key=lambda c: pdb[c].cost)
    lo = min(h1, key=lambda c: pdb[c].cost)
    if pdb[hi].cost == pdb[lo].cost:
        return
    act(m, f"reveal {hi}")
    assert m.observation(1)["revealed"] == ["", ""]  # secret until both picked
    act(m, f"reveal {lo}")
    st = m.state
    assert st.first == 0 and st.turn == 1 and st.active == 0
    assert len(st.hands[0]) == 5 and len(st.hands[1]) == 6 and lo in st.known[1]


def test_reveal_tie_repeats_then_seeded_pick(pdb, decks) -> None:  # type: ignore[no-untyped-def]
    """PIN-SETUP-5: on a tie both shuffle the shown card in and draw 1; after the tie
    limit the seed picks."""
    from throne_lib.games.pin.match import PinMatch

    a = decks["anvil"]
    rules = dataclasses.replace(PIN_RULES, reveal_ties_max=2)
    m = PinMatch.new(pdb, ("anv_hq", "anv_hq"), (a.cards, a.cards), 9, rules)
    act(m, "mulligan -")
    act(m, "mulligan -")
    for _ in range(2):
        c0 = min(m.state.hands[0], key=lambda c: pdb[c].cost)
        c1 = next(c for c in m.state.hands[1] if pdb[c].cost == pdb[c0].cost)
        act(m, f"reveal {c0}")
        act(m, f"reveal {c1}")
    assert m.state.ties == 2 and m.state.first in (0, 1) and m.state.turn == 1
    assert [len(h) for h in m.state.hands] == [6, 6]


def test_cp_rise_cap_and_reset(pos: PosFn) -> None:
    """PIN-CP-1 / PIN-CP-2: +2 to 16 (15 → 16), current reset to max, leftovers lost."""
    m = pos("", active="乙", cp="3/15")
    act(m, "end")
    assert m.state.cp_max[0] == 16 and m.state.cp[0] == 16 - 0
    m = pos("", active="乙", cp="1/16")
    act(m, "end")
    assert m.state.cp_max[0] == 16 and m.state.cp[0] == 16


def test_cp_effects_up_to_24(pos: PosFn) -> None:
    """PIN-CP-3: 指挥点上限+N raises the max only (≤ 24); 获得N点 raises current CP (≤ 24)."""
    m = pos("hand 甲 anv_mobilize\n", cp="23/23")
    act(m, "play anv_mobilize -")
    assert m.state.cp_max[0] == 24 and m.state.cp[0] == 21
    m = pos("hand 乙 aur_ley\n", active="乙", cp="23/16")
    act(m, "play aur_ley -")
    assert m.state.cp[1] == 24


def test_leftover_cp_pays_counters_in_opponent_turn(pos: PosFn) -> None:
    """PIN-CP-4: CP left at the end stays for counters; the variant zeroes it."""
    lines = "hand 甲 anv_ambush\nunit u3 甲 anv_rifles 009\nunit u2 乙 aur_templars 019\n"
    m = pos(lines, cp="4/16")
    act(m, "end")
    act(m, "skip") if m.state.pending and m.state.pending.kind == "draw" else None
    act(m, "activate u2")
    act(m, "move u2 014")
    assert m.state.pending is not None and m.state.pending.kind == "window"
    rules = dataclasses.replace(PIN_RULES, leftover_cp_for_counters=False)
    m = pos(lines, cp="4/16", rules=rules)
    act(m, "end")
    assert m.state.cp[0] == 0


def test_turn_phases_and_start_refills(pos: PosFn) -> None:
    """PIN-TURN-1 / PIN-TURN-2 / PIN-DMG-7 / PIN-DMG-8 / PIN-DMG-9: start phase refills ADS and
    护盾, not 魔法护盾; clears activations; runs 回合开始： (PIN-KW-4)."""
    m = pos(
        """
        unit u2 乙 anv_1starm 013 ads=0 hp=50 activated act=1 stopped
        unit u3 乙 aur_prism 014 shield=0
        unit u4 乙 aur_dragons 019 mshield=0
        unit u5 乙 aur_judgement 019 mshield=3
        deck 乙 aur_templars aur_templars
        """,
        cp="0/16",
    )
    act(m, "end")
    st = m.state
    u2 = m.unit(2)
    assert (u2.ads, u2.hp, u2.activated, u2.stopped) == (1, 60, False, False)
    assert m.unit(3).shield == 10
    assert m.unit(4).mshield == 10  # restored by its own 回合开始：
    assert m.unit(5).mshield == 3  # never refills by itself
    assert st.phase == "draw" and st.pending.kind == "draw"
    kinds = [e.kind for e in act(m, "skip")]
    assert kinds == [] and st.phase == "action"


def test_draw_phase_paid_draw_and_first_turn_skip(new_match, pos: PosFn) -> None:  # type: ignore[no-untyped-def]
    """PIN-TURN-3: draw 1, then optionally pay 2 for one more; the first player's turn 1
    skips it all; an empty deck draws nothing and offers no paid draw."""
    m = new_match(seed=11)
    _through_setup(m)
    first = m.state.first
    assert m.state.phase == "action" and len(m.state.hands[first]) == 5
    m = pos("deck 乙 aur_templars aur_golems aur_pilgrims\n", cp="5/5")
    act(m, "end")
    assert m.state.hands[1] == ["aur_pilgrims"] and texts(m) == {"draw", "skip"}
    act(m, "draw")
    assert m.state.hands[1] == ["aur_pilgrims", "aur_golems"] and m.state.cp[1] == 5
    illegal(m, "draw", "PIN-TURN-4")
    m = pos("", cp="5/5")
    act(m, "end")
    assert m.state.phase == "action" and m.state.pending is None


def test_action_phase_free_order_and_end(pos: PosFn) -> None:
    """PIN-TURN-4: deploy, play, activate in any order; counters only in windows."""
    m = pos(
        "hand 甲 anv_rifles anv_barrage anv_ambush\nunit u2 乙 aur_templars 013\nunit u3 甲 anv_rifles 008\n"
    )
    kinds = {a.kind for a in m.legal_actions()}
    assert kinds == {"deploy", "play", "activate", "end"}
    illegal(m, "counter anv_ambush -", "PIN-TURN-4")


def test_end_phase_order(pos: PosFn) -> None:
    """PIN-TURN-5 / PIN-CHAOS-2: 回合结束： effects, then chaos that expires, then the turn passes."""
    m = pos("""
        unit u2 甲 aur_sentinel 008 chaos=3
        unit u3 甲 aur_sentinel 009
        deck 乙 aur_templars
    """)
    events = act(m, "end")
    kinds = [e.kind for e in events]
    assert kinds.index("effect_damage") < kinds.index("chaos_end") < kinds.index("turn")
    assert m.unit(2).hp == 15 and m.unit(3).hp == 10  # the sentinel in chaos was silent
    assert not m.unit(2).in_chaos and m.state.active == 1


def test_hand_limit(pos: PosFn) -> None:
    """PIN-TURN-6: the 11th card goes to the graveyard (a 衍生 card is removed)."""
    hand = " ".join(["aur_templars"] * 10)
    m = pos(f"hand 乙 {hand}\ndeck 乙 aur_golems\n", cp="1/16")
    act(m, "end")
    assert len(m.state.hands[1]) == 10 and m.state.graves[1] == ["aur_golems"]
    m = pos(f"hand 乙 {hand.replace('aur_templars', 'aur_summon', 1)}\n", active="乙")
    act(m, "play aur_summon -")
    assert len(m.state.hands[1]) == 10 and m.state.removed[1] == ["aur_sentinel"]


def test_round_limit_hp_decides(pos: PosFn) -> None:
    """PIN-TURN-7: when round 30 ends, more HQ HP wins; equal is a draw."""
    m = pos("hq 乙 aur_hq hp=100\n", active="乙", turn=60)
    act(m, "end")
    assert m.is_over and m.state.winner == 0 and m.returns() == [1.0, -1.0]
    assert m.end_reason == "round_limit"
    m = pos("", active="乙", turn=60)
    act(m, "end")
    assert m.is_over and m.state.winner == -1 and m.returns() == [0.0, 0.0]


def test_hidden_hands_public_rest(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-TURN-8: observation shows own hand only, counts and board for both."""
    m = new_match(seed=6)
    obs = m.observation(1)
    assert obs["hand"] == sorted(m.state.hands[1])
    assert "decks" not in obs and obs["deck_counts"] == [43, 43]
    other = m.copy()
    other.state.hands[0] = list(reversed(other.state.decks[0][:6]))
    other.state.decks[0] = m.state.decks[0][6:] + m.state.hands[0]
    assert other.observation(1) == obs  # seat 0's cards are nowhere in it
    assert other.observation(0) != m.observation(0)


def test_hq_not_a_unit(pos: PosFn) -> None:
    """PIN-HQ-2: effects naming units cannot choose the HQ; those naming the HQ can."""
    m = pos("hand 甲 anv_barrage anv_orbital\nunit u2 乙 aur_templars 013\n")
    assert texts(m, "play") == {
        "play anv_barrage u2",
        "play anv_orbital u2",
        "play anv_orbital hq1",
    }


def test_hq_keywords_and_no_type(pos: PosFn) -> None:
    """PIN-HQ-3: the HQ card's defence works (魔法护盾 20); no type: no 相克 and no air rule."""
    m = pos("unit u2 甲 anv_bomber 009 activated act=1\n")
    act(m, "attack u2 hq1 爆炸")
    hq = m.state.units[1]
    assert hq.mshield == 0 and hq.hp == 160 - 10


def test_victory_and_draw_when_both_fall(pos: PosFn) -> None:
    """PIN-HQ-4: an HQ at 0 loses at once, nothing else resolves."""
    m = pos("hq 乙 aur_hq hp=10 mshield=0\nhand 甲 anv_orbital\n")
    events = act(m, "play anv_orbital hq1")
    assert m.is_over and m.state.winner == 0 and events[-1].kind == "over"
    assert m.end_reason == "hq"
    assert m.legal_actions() == []
    illegal(m, "end", "PIN-HQ-4")
    from throne_lib.games.pin import combat

    m = pos("")
    m.state.units[0].hp = m.state.units[1].hp = 0
    combat.check_win(m)
    assert m.is_over and m.state.winner == -1


def test_a_command_that_wins_still_goes_to_the_graveyard(pos: PosFn) -> None:
    """PIN-CMD-1 / PIN-HQ-4: the command whose damage ends the match still reaches the
    graveyard (hypothesis found it lost at seed 8423: the end cleared its pending step)."""
    m = pos("hq 甲 anv_hq hp=15\nhand 乙 aur_verdict\ndeck 乙 aur_golems\n", active="乙")
    act(m, "play aur_verdict hq0")
    assert m.is_over and m.state.winner == 1
    assert m.state.graves[1] == ["aur_verdict"] and m.state.hands[1] == []
