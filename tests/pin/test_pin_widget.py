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
