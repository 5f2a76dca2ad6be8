"""The PIN dashboard's inspector, hand and prompts (issue 36, items 1–3): a hand card
and a unit show their full text; cards that cannot be paid are greyed by the button's
style (not ``Layout(opacity)``, which ipywidgets ignores); a selected unit's prompt says
what it may do and what it costs; a full deploy cell is marked apart (PIN-STACK); each
unit's labels fit its box."""

from __future__ import annotations

import warnings

from conftest import PosFn

from throne_lib.games.pin.cards import PinCardDB
from throne_lib.games.pin.ui.controller import PinController
from throne_lib.games.pin.ui.widget import FONT, ITEM, PinBoard, centre, item_texts, slot_x


def test_hand_card_and_unit_show_their_full_text(pos: PosFn) -> None:
    m = pos("unit u2 甲 anv_sappers 008\nhand 甲 anv_rifles\n")
    board = PinBoard(m, human=0, ai_mode="sync")
    board._card("anv_rifles")
    assert "铁砧步兵旅" in board.inspector.value and "指挥点" in board.inspector.value
    board._on_move(*centre(8, 0))
    shown = board.inspector.value
    assert m.db["anv_sappers"].name in shown and m.db.text("anv_sappers") in shown
    assert "甲方 008" in shown and "血" in shown
    board.bridge.send("card:anv_militia")  # a 战报 name
    assert m.db["anv_militia"].name in board.inspector.value


def test_unpayable_cards_are_greyed_by_style_without_a_warning(pos: PosFn) -> None:
    m = pos("hand 甲 anv_rifles anv_militia\n", cp="1/16")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # Layout(opacity=…) warned and did nothing
        board = PinBoard(m, human=0, ai_mode="sync")
    cards = {b.description: b for b in board.hand.children if hasattr(b, "style")}
    rifles = next(b for d, b in cards.items() if "铁砧步兵旅" in d)
    militia = next(b for d, b in cards.items() if "边防民兵连" in d)
    assert "pin-card-dimmed" in rifles._dom_classes and rifles.style.text_color
    assert "pin-card-dimmed" not in militia._dom_classes


def test_a_selected_unit_says_what_it_may_do_and_its_cost(pos: PosFn) -> None:
    m = pos("unit u2 甲 anv_tanks 008\nunit u3 乙 aur_templars 013\n")
    board = PinBoard(m, human=0, ai_mode="sync")
    board._on_click(*centre(8, 0))
    text = board.status.value
    assert "已选择 " + m.db["anv_tanks"].name in text
    assert f"激活（花费{m.db['anv_tanks'].action_cost}指挥点）" in text
    assert "action" not in board.top.value and "行动阶段" in board.top.value


def test_a_full_deploy_cell_is_marked_apart(pos: PosFn) -> None:
    m = pos("unit u2 甲 anv_militia 001\nunit u3 甲 anv_militia 001\nhand 甲 anv_rifles\n")
    c = PinController(m, 0)
    c.click_card("anv_rifles")
    marks = c.highlights()
    assert "001" in marks["full"] and "001" not in marks["deploy"] and "002" in marks["deploy"]


def test_unit_labels_fit_their_boxes_for_every_card(pdb: PinCardDB) -> None:
    """Each label's estimated width (a CJK glyph = FONT px, others 0.6 FONT) fits the
    unit's box, and the two boxes of a hex do not overlap (the browser test measures
    the same texts with the real font)."""
    for cid in pdb:
        c = pdb[cid]
        if c.kind != "单位":
            continue
        item = {"name": c.name, "icon": "甲", "size": c.size, "attack": 150, "hp": "150/150"}
        for text, _x, _, _ in item_texts(item, 0.0, 0.0):
            width = sum(FONT if ord(ch) > 0x2E80 else 0.6 * FONT for ch in text)
            assert width <= ITEM - 2, (c.name, text, width)
    assert slot_x(0, 1) - slot_x(0, 0) >= ITEM


def test_no_card_is_greyed_while_choosing_cards_to_change(new_match) -> None:  # type: ignore[no-untyped-def]
    m = new_match(seed=3)
    assert m.state.pending is not None and m.state.pending.kind == "mulligan"
    board = PinBoard(m, human=0, ai_mode="sync")
    cards = [b for b in board.hand.children if "pin-card" in getattr(b, "_dom_classes", ())]
    assert cards and not any("pin-card-dimmed" in b._dom_classes for b in cards)
