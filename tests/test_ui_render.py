"""Pure rendering: what would be drawn, read as ops (R-UI-1)."""

from __future__ import annotations

from collections.abc import Callable

from throne_lib import Match
from throne_lib.games.throne.ui.controller import Controller
from throne_lib.games.throne.ui.gallery import card_face_ops
from throne_lib.games.throne.ui.layout import CARD_H, CARD_W
from throne_lib.games.throne.ui.layout import DEFAULT_LAYOUT as L
from throne_lib.games.throne.ui.render import HL_LINE, board_ops, overlay_ops, units_ops

Scenario = Callable[..., Match]
POS = """
side blue general=lionheart mana=3
side red general=beast_king
round 3
hand blue holy_light siege_ballista militia_camp
unit c3 blue knight shield armor=2
unit b2 blue militia_camp level=2 loaded
unit c5 red wolf hp=1/3
"""


def texts(ops: list[tuple[object, ...]]) -> list[str]:
    return [str(op[1]) for op in ops if op[0] == "fill_text"]


def test_board_has_labels_and_both_halves() -> None:
    ops = board_ops()
    labels = texts(ops)
    assert labels[:7] == list("abcdefg") and labels[7:] == [str(r) for r in range(1, 7)]
    fills = {op[2] for op in ops if op[:2] == ("set", "fill_style")}
    assert {"#dde8fb", "#fbe1de"} <= fills  # blue and red halves


def test_units_thrones_barracks_and_markers(scenario: Scenario) -> None:
    m = scenario(POS)
    ops = units_ops(m, Controller(m).view())
    t = texts(ops)
    assert "骑士" in t and "甲2 盾" in t
    assert "40/40" in t and t.count("王座") == 2
    assert "Lv2 · 召2" in t and "耐久 10/10" in t and "装" in t
    assert "狮心王" in t and "百兽之王" in t


def test_hand_cards_cost_name_kind_and_dimmed_when_unaffordable(scenario: Scenario) -> None:
    m = scenario(POS)
    ops = units_ops(m, Controller(m).view())
    t = texts(ops)
    assert {"圣光术", "破城弩", "法术", "随从", "兵营"} <= set(t)
    # each card starts with its alpha: the 4-mana ballista is dimmed with 3 mana
    alphas = [op[2] for op in ops if op[:2] == ("set", "global_alpha")]
    assert 0.42 in alphas and 1.0 in alphas


def test_overlay_draws_highlights_in_their_colours(scenario: Scenario) -> None:
    """Moves and attacks differ in shape, not only colour (a dot vs. a thick frame with
    corner ticks), and an attack target keeps its unit unfaded (no fill over it) but
    carries the predicted result from the engine."""
    m = scenario(POS)
    c = Controller(m)
    c.click_cell(m.geo.parse("c3"))
    ops = overlay_ops(m, c.view())
    strokes = [op[2] for op in ops if op[:2] == ("set", "stroke_style")]
    assert HL_LINE["move"] in strokes and HL_LINE["attack"] not in strokes
    assert any(op[0] == "fill_circle" for op in ops)  # the move dot
    c.click_cell(m.geo.parse("c4"))  # move next to the wolf
    view = c.view()
    ops = overlay_ops(m, view)
    strokes = [op[2] for op in ops if op[:2] == ("set", "stroke_style")]
    assert HL_LINE["attack"] in strokes
    attacked = [cell for cell, style in view.highlights.items() if style == "attack"]
    assert attacked and set(view.predictions) == set(attacked)
    ax, ay = L.cell_xy(attacked[0])
    filled = [op for op in ops if op[0] == "fill_rect" and op[1:3] == (ax + 2, ay + 2)]
    assert not filled  # the attacked unit is not washed out
    assert any(op[0] == "fill_text" and op[1] == view.predictions[attacked[0]] for op in ops)
    x, y = L.cell_xy(m.geo.parse("c4"))
    assert ("stroke_rect", x + 2, y + 2, 76, 76) in ops  # the selection frame


def test_render_is_pure(scenario: Scenario) -> None:
    m = scenario(POS)
    before = m.hash()
    view = Controller(m).view()
    assert units_ops(m, view) == units_ops(m, view)
    assert m.hash() == before


def test_layout_hit_tests_round_trip() -> None:
    for cell in range(42):
        assert L.cell_at(*L.cell_center(cell)) == cell
    for i in range(8):
        assert L.hand.at(*L.hand.center(i), 8) == i
    for i in range(5):
        assert L.tray.at(*L.tray.center(i), 5) == i
    assert L.cell_at(2, 2) is None and L.hand.at(2, 2, 8) is None


def test_hand_cards_are_the_gallery_faces_at_hand_size(scenario: Scenario) -> None:
    """The hand reuses the gallery's card face (name, cost, kind, stats) at 66×96."""
    m = scenario(POS)
    c = Controller(m)
    ops = units_ops(m, c.view())
    x, y = L.hand.xy(1)  # the ballista: dimmed (4 mana, 3 available), not selected
    face = card_face_ops(m.db["siege_ballista"], x, y, CARD_W, CARD_H)
    start = ops.index(face[0], ops.index(("set", "global_alpha", 0.42)))
    assert ops[start : start + len(face)] == face
    assert m.db["siege_ballista"].name in texts(face) and "4" in texts(face)
    t = texts(ops)
    assert all(m.db[cid].name in t for cid in m.state.sides[0].hand)
    # the selected card is lifted and framed in gold; the drag ghost is 85% opaque
    c.click_hand(0)
    ops = units_ops(m, c.view())
    x, y = L.hand.xy(0)
    assert ("stroke_rect", x + 1, y - 6 + 1, CARD_W - 2, CARD_H - 2) in ops
    assert ("set", "stroke_style", "#f1c40f") in ops


def test_drag_ghost_is_the_card_face(scenario: Scenario) -> None:
    m = scenario(POS)
    c = Controller(m)
    view = c.view(drag_hand=0, drag_cell=m.geo.parse("c2"))
    ops = overlay_ops(m, view)
    assert ("set", "global_alpha", 0.85) in ops and "圣光术" in texts(ops)
    assert "圣光术" not in texts(units_ops(m, view))  # lifted out of the hand
