"""The PIN dashboard without a browser: clicks go through the controller to legal
actions only; a whole quick match is played by clicks (PIN-UI-5, -6, -7)."""

from __future__ import annotations

import dataclasses

from conftest import PosFn

from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.hexes import parse_cell
from throne_lib.games.pin.rules import PIN_RULES
from throne_lib.games.pin.ui.controller import PinController
from throne_lib.games.pin.ui.widget import PinBoard, centre


def test_click_unit_then_target(pos: PosFn) -> None:
    """PIN-UI-5: click a unit → 激活 with its cost; then its moves/targets are marked."""
    m = pos("unit u2 甲 anv_tanks 008\nunit u3 乙 aur_templars 013\n")
    c = PinController(m, 0)
    c.click_cell(8)
    labels = [t for t, _ in c.buttons()]
    assert labels[0] == "激活（2）" and labels[-1] == "结束回合"
    c.press(c.buttons()[0][1])
    marks = c.highlights()
    assert marks["target"] == ["013"] and set(marks["move"]) == {"002", "003", "007", "009", "014"}
    c.click_cell(13)  # 乙 is asked 【敌方宣告攻击】 though it holds nothing (PIN-COUNTER-5)
    assert not c.my_turn and m.forced_pass() == PinAction("pass")
    c.apply(PinAction("pass"))
    assert m.unit(3) is None and m.unit(2).hp == 43


def test_deploy_by_card_then_cell(pos: PosFn) -> None:
    """PIN-UI-6: click a unit card, its deploy cells light up, click one to deploy."""
    m = pos("hand 甲 anv_rifles\n")
    c = PinController(m, 0)
    c.click_card("anv_rifles")
    assert c.highlights()["deploy"] == ["001", "002", "003", "004", "005"]
    c.click_cell(2)
    assert m.unit(2) is not None and m.unit(2).cell == 2 and not m.state.hands[0]


def test_board_widget_plays_a_quick_match_by_clicks(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-UI-7 / PIN-AI-1: prompts, hand and canvas clicks to the end (AI synchronous):
    each turn deploy the first deployable card by card + cell, then press the last button
    (结束回合, 放弃, or the last offered choice)."""
    m = new_match(seed=5, rules=dataclasses.replace(PIN_RULES, round_limit=3))
    board = PinBoard(m, human=0, ai_mode="sync")
    deployed = 0
    for _ in range(400):
        if m.is_over:
            break
        if m.state.pending is None and m.state.phase == "action":
            for card in sorted(set(m.state.hands[0])):
                board._card(card)
                if board.ctrl.highlights()["deploy"]:
                    break
                board._card(card)  # unselect
        marks = board.ctrl.highlights()
        if marks["deploy"] or marks["retreat"]:
            x, y = centre(parse_cell((marks["deploy"] or marks["retreat"])[0]), 0)
            board._on_click(x, y)
            deployed += 1
            continue
        buttons = [b for b in board.prompt.children if hasattr(b, "click")]
        buttons[-1].click()
    assert m.is_over and "对局结束" in board.info.value and deployed > 0
    assert "战报" in board.log_panel.title.value and board.log_panel.html.value
    assert "pin-state" in board.status.value


def test_human_seat_with_nothing_to_play_passes_at_once(pos: PosFn) -> None:
    """PIN-COUNTER-5: the dashboard gives the human seat's forced pass by itself (the AI
    saw the same wait either way); a window where it can play is left to the human, its
    prompt the counter and 放弃."""
    lines = "unit u2 甲 anv_tanks 008\nunit u3 乙 aur_templars 013\nhand 甲 anv_tanks\n"
    m = pos(lines, active="乙")
    board = PinBoard(m, human=0, ai_mode="sync")  # the AI (乙) plays its turn
    passes = [t for t in board.ctrl.log if t == "甲放弃反制"]
    assert passes, board.ctrl.log  # 甲's windows were asked and passed for it
    assert m.is_over or (m.current_seat == 0 and m.forced_pass() is None)
    m = pos(
        "unit u2 乙 aur_templars 013\nunit u3 甲 anv_rifles 008\nhand 甲 anv_smoke\n", active="乙"
    )
    m.apply("activate u2")
    m.apply("attack u2 u3 普通")  # 甲 holds 烟幕撤离: a choice, left to the human
    board = PinBoard(m, human=0, ai_mode="sync")
    assert m.current_seat == 0 and m.forced_pass() is None
    labels = [b.description for b in board.prompt.children if hasattr(b, "click")]
    assert labels[-1] == "放弃" and any("烟幕撤离" in t for t in labels), labels
