"""PIN-COUNTER-5: a counter window opens at every trigger of the table, whether or not
its side holds a counter card it can play there, so the pause tells the opponent nothing.

Each case is two positions that differ only in one card of the side a trigger concerns
(a counter it can play there, or a card of the same deck that is no counter): after the
same public action the opponent sees the same observation and the same seat to act.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from conftest import PosFn

from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.rules import PIN_RULES

PASS = PinAction("pass")

# (trigger, position lines with {card} in the answering side's hand, active side,
#  the public actions (|-separated), the counter it can play there, a card of the same
#  deck that is no counter)
CASES = [
    (
        "enemy_attack",
        "unit u2 甲 anv_tanks 008\nunit u3 乙 aur_templars 013\nhand 乙 {card}\n",
        "甲",
        "activate u2|attack u2 u3 动能",
        "aur_mirror",
        "aur_golems",
    ),
    (
        "enemy_command",
        "unit u2 乙 aur_templars 013\nhand 甲 anv_barrage\nhand 乙 {card}\n",
        "甲",
        "play anv_barrage u2",
        "aur_counterspell",
        "aur_golems",
    ),
    (
        "enemy_deploy",
        "hand 甲 anv_rifles\nhand 乙 {card}\n",
        "甲",
        "deploy anv_rifles 002",
        "aur_chaostrap",
        "aur_golems",
    ),
    (
        "enemy_move",
        "unit u2 乙 aur_templars 013\nunit u3 甲 anv_rifles 008\nhand 甲 {card}\n",
        "乙",
        "activate u2|move u2 007",
        "anv_ambush",
        "anv_rifles",
    ),
]


def _plain(m: PinMatch, seat: int) -> Any:
    return json.loads(json.dumps(m.observation(seat), sort_keys=True, default=str))


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_window_is_asked_whatever_the_side_holds(pos: PosFn, case: tuple[str, ...]) -> None:
    """PIN-COUNTER-5: with or without a playable counter in the answering side's hand,
    its opponent sees the same step, the same seat awaited and the same observation."""
    trigger, lines, active, action, counter, filler = case
    answering = 1 if active == "甲" else 0
    watcher = 1 - answering
    holds = pos(lines.format(card=counter), active=active)
    empty = pos(lines.format(card=filler), active=active)
    assert _plain(holds, watcher) == _plain(empty, watcher)  # the two deals look alike
    for text in action.split("|"):
        holds.apply(text)
        empty.apply(text)
    for m in (holds, empty):
        d = m.state.pending
        assert d is not None and d.kind == "window" and d.data["trigger"] == trigger
        assert m.current_seat == answering
    assert _plain(holds, watcher) == _plain(empty, watcher)
    # The holder chooses; the other side's only answer is the pass, given at once.
    assert any(a.kind == "counter" and a.args[0] == counter for a in holds.legal_actions())
    assert holds.forced_pass() is None
    assert empty.legal_actions() == [PASS] and empty.forced_pass() == PASS
    holds.apply(PASS)
    empty.apply(PASS)
    assert holds.current_seat == empty.current_seat
    assert _plain(holds, watcher) == _plain(empty, watcher)


def test_forced_pass_only_in_a_window(pos: PosFn) -> None:
    """PIN-COUNTER-5: ``forced_pass`` is None outside windows (the action phase, a
    retreat) even when one action is legal."""
    m = pos("unit u2 甲 anv_rifles 009\nhand 乙 aur_banish\n", active="乙")
    assert m.forced_pass() is None  # 乙's action phase
    m.apply("play aur_banish u2")
    assert m.forced_pass() == PASS  # 甲's 【敌方指令】 window, 甲 holds nothing
    m.apply(PASS)
    assert m.state.pending is not None and m.state.pending.kind == "retreat"
    assert m.forced_pass() is None


def test_ask_only_able_is_the_old_shortcut(pos: PosFn) -> None:
    """PIN-COUNTER-5 / PIN-PARAM-1: ``ask_only_able=True`` keeps the old engine shortcut
    (only a side that can answer is asked) for logs made with it; it tells the opponent
    whether the side holds a counter, which is why it is not the default."""
    old = dataclasses.replace(PIN_RULES, ask_only_able=True)
    lines = "unit u2 甲 anv_tanks 008\nunit u3 乙 aur_templars 013\nhand 乙 {}\n"
    holds = pos(lines.format("aur_mirror"), rules=old)
    empty = pos(lines.format("aur_golems"), rules=old)
    for m in (holds, empty):
        m.apply("activate u2")
        m.apply("attack u2 u3 动能")
    assert holds.current_seat == 1 and empty.current_seat == 0  # the tell
    assert empty.unit(3) is None  # the attack resolved at once: the templars fell
