"""Pure drawing: a Match (+ a UI View) -> a list of canvas operations.

An op is a tuple ``(method, *args)`` for an ipycanvas ``Canvas`` method
(``fill_rect``, ``fill_text`` …) or ``("set", attribute, value)``. Nothing here
imports ipycanvas, so the drawing is testable by reading the ops, and a replay
viewer can reuse it. Three layers: :func:`board_ops` (static), :func:`units_ops`
(units, tray, hand), :func:`overlay_ops` (highlights, selection, flash, drag).
"""

from __future__ import annotations

from throne_lib.games.throne.match import Match
from throne_lib.games.throne.state import BARRACKS, MAIN, THRONE, Unit
from throne_lib.games.throne.ui.controller import View
from throne_lib.games.throne.ui.gallery import card_face_ops
from throne_lib.games.throne.ui.layout import (
    BOARD_X,
    BOARD_Y,
    CARD_H,
    CARD_W,
    CELL,
    CHIP_H,
    CHIP_W,
    DEFAULT_LAYOUT,
    Layout,
)

Op = tuple[object, ...]

FONT = "'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', sans-serif"
HALF_BG = ("#dde8fb", "#fbe1de")  # blue half, red half (alternating shades below)
HALF_BG2 = ("#d2e0f8", "#f7d5d1")
UNIT_BG = ("#2d6cdf", "#d2453a")
STRUCT_BG = ("#1d4796", "#962c25")
THRONE_BG = ("#173a7a", "#7a211b")
HL_LINE = {
    "move": "#1e8449",
    "attack": "#e3121b",
    "target": "#7d3c98",
    "place": "#117a65",
    "summon": "#117a65",
    "skill": "#b7950b",
    "ally": "#ca6f1e",
}


def font(size: int, bold: bool = False) -> Op:
    return ("set", "font", f"{'bold ' if bold else ''}{size}px {FONT}")


def text(s: str, x: float, y: float, size: int, colour: str, bold: bool = False) -> list[Op]:
    return [font(size, bold), ("set", "fill_style", colour), ("fill_text", s, x, y)]


def highlight_ops(style: str, x: float, y: float) -> list[Op]:
    """One highlighted cell; each style has its own shape, not just a colour, and none
    washes out the unit under it: moves are a green dot on a light cell, attacks a thick
    red frame with corner ticks, spell targets a dashed purple frame with a diamond,
    placements and summons a teal plus, skills a dashed gold frame with a star."""
    line, c = HL_LINE[style], CELL / 2
    if style == "move":
        return [
            ("set", "fill_style", "rgba(255, 255, 255, 0.55)"),
            ("fill_rect", x + 2, y + 2, CELL - 4, CELL - 4),
            ("set", "stroke_style", line),
            ("set", "line_width", 2),
            ("stroke_rect", x + 4, y + 4, CELL - 8, CELL - 8),
            ("set", "fill_style", line),
            ("fill_circle", x + c, y + c, 12),
            ("set", "fill_style", "#ffffff"),
            ("fill_circle", x + c, y + c, 4),
        ]
    if style in ("attack", "ally"):
        ops: list[Op] = [
            ("set", "stroke_style", line),
            ("set", "line_width", 5),
            ("stroke_rect", x + 3, y + 3, CELL - 6, CELL - 6),
            ("set", "line_width", 4),
        ]
        for dx, dy in ((0, 0), (CELL, 0), (0, CELL), (CELL, CELL)):  # corner ticks outwards
            sx, sy = (1 if dx == 0 else -1), (1 if dy == 0 else -1)
            ops += [
                ("stroke_line", x + dx, y + dy + sy * 14, x + dx, y + dy),
                ("stroke_line", x + dx, y + dy, x + dx + sx * 14, y + dy),
            ]
        return ops
    fill = "rgba(255, 255, 255, 0.45)"
    ops = [("set", "fill_style", fill), ("fill_rect", x + 2, y + 2, CELL - 4, CELL - 4)]
    dashed = style in ("target", "skill")
    ops += [
        ("set_line_dash", [9, 5] if dashed else []),
        ("set", "stroke_style", line),
        ("set", "line_width", 4),
        ("stroke_rect", x + 4, y + 4, CELL - 8, CELL - 8),
        ("set_line_dash", []),
        ("set", "fill_style", line),
    ]
    if style == "target":  # a diamond
        ops += [
            ("begin_path",),
            ("move_to", x + c, y + c - 13),
            ("line_to", x + c + 13, y + c),
            ("line_to", x + c, y + c + 13),
            ("line_to", x + c - 13, y + c),
            ("close_path",),
            ("fill",),
        ]
    elif style == "skill":
        ops += text("★", x + c, y + c, 26, line, True)
    else:  # place, summon: a plus
        ops += [
            ("fill_rect", x + c - 13, y + c - 3, 26, 6),
            ("fill_rect", x + c - 3, y + c - 13, 6, 26),
        ]
    return ops


def badge_ops(badge: str, x: float, y: float) -> list[Op]:
    """The predicted result of an attack, on the target: a dark strip across its middle,
    between its name and its attack/HP badges (which stay in view)."""
    return [
        ("set", "fill_style", "rgba(40, 10, 10, 0.85)"),
        ("fill_rect", x + 4, y + BADGE_TOP, CELL - 8, 18),
        *text(badge, x + CELL / 2, y + BADGE_TOP + 9, 12, "#ffffff", True),
    ]


BADGE_TOP = 26  # px below a cell's top: a unit's name ends above, its badges start at 46


def board_ops(layout: Layout = DEFAULT_LAYOUT) -> list[Op]:
    """The static layer: halves, grid, throne squares and a-g / 1-6 labels."""
    ops: list[Op] = [
        ("clear",),
        ("set", "fill_style", "#f7f8fa"),
        ("fill_rect", 0, 0, layout.width, layout.height),
        ("set", "text_align", "center"),
        ("set", "text_baseline", "middle"),
    ]
    half = layout.rows // 2
    for cell in range(layout.columns * layout.rows):
        col, row = cell % layout.columns, cell // layout.columns
        side = 0 if row < half else 1
        x, y = layout.cell_xy(cell)
        shade = HALF_BG if (col + row) % 2 == 0 else HALF_BG2
        ops += [("set", "fill_style", shade[side]), ("fill_rect", x, y, CELL, CELL)]
    for row in (0, layout.rows - 1):  # throne squares
        x, y = layout.cell_xy(row * layout.columns + layout.columns // 2)
        ops += [
            ("set", "stroke_style", "#c9a100"),
            ("set", "line_width", 3),
            ("stroke_rect", x + 2, y + 2, CELL - 4, CELL - 4),
        ]
    ops += [("set", "stroke_style", "#b8c0cc"), ("set", "line_width", 1)]
    for c in range(layout.columns + 1):
        x = BOARD_X + c * CELL
        ops.append(("stroke_line", x, BOARD_Y, x, BOARD_Y + layout.board_h))
    for r in range(layout.rows + 1):
        y = BOARD_Y + r * CELL
        ops.append(("stroke_line", BOARD_X, y, BOARD_X + layout.board_w, y))
    mid = BOARD_Y + half * CELL
    ops += [
        ("set", "stroke_style", "#5d6778"),
        ("set", "line_width", 3),
        ("stroke_line", BOARD_X, mid, BOARD_X + layout.board_w, mid),
    ]
    for c in range(layout.columns):  # under its column (a turned board: a on the right)
        lx = layout.cell_center(c)[0]
        ops += text(chr(ord("a") + c), lx, BOARD_Y + layout.board_h + 10, 13, "#5d6778", True)
    for r in range(layout.rows):
        ly = layout.cell_center(r * layout.columns)[1]
        colour = "#1d4796" if r < half else "#962c25"
        ops += text(str(r + 1), BOARD_X / 2, ly, 13, colour, True)
    return ops


def _badges(match: Match, u: Unit) -> str:
    b = []
    if u.armor:
        b.append(f"甲{u.armor}")
    if u.shield:
        b.append("盾")
    if u.taunt:
        b.append("嘲")
    if u.flying:
        b.append("飞")
    if u.siege:
        b.append(f"城+{u.siege}")
    if u.kind == BARRACKS and match.eng.is_loaded(u):
        b.append("装")
    if u.fortified:
        b.append("固")
    return " ".join(b)


def unit_ops(match: Match, u: Unit, layout: Layout, can_act: bool) -> list[Op]:
    """One unit: a colour block with its name, stats and keyword markers."""
    x, y = layout.cell_xy(u.cell)
    cx = x + CELL / 2
    name = match.db[u.card].name
    bg = THRONE_BG if u.kind == THRONE else STRUCT_BG if u.is_structure else UNIT_BG
    ops: list[Op] = [("set", "fill_style", bg[u.side]), ("fill_rect", x + 5, y + 5, 70, 70)]
    if u.shield:  # divine shield: a golden ring
        ops += [
            ("set", "stroke_style", "#ffd54a"),
            ("set", "line_width", 4),
            ("stroke_rect", x + 4, y + 4, 72, 72),
        ]
    if u.taunt:  # taunt: a heavy dark frame
        ops += [
            ("set", "stroke_style", "#1b1b1b"),
            ("set", "line_width", 3),
            ("stroke_rect", x + 8, y + 8, 64, 64),
        ]
    if u.kind == THRONE:
        ops += text("王座", cx, y + 15, 11, "#ffe08a", True)
        ops += text(name, cx, y + 31, 13, "#ffffff", True)
        ops += text(f"{u.hp}/{u.max_hp}", cx, y + 53, 18, "#ffffff", True)
        cooldown = match.state.sides[u.side].skill_cooldown
        extra = "技能冷却" if cooldown > 0 else _badges(match, u)
        if u.attack:
            extra = f"攻{u.attack} {extra}".strip()
        ops += text(extra, cx, y + 68, 10, "#ffe08a")
    elif u.kind == BARRACKS:
        left = max(match.eng.summons_left(u), 0)
        size = 13 if len(name) <= 5 else 11
        ops += text(name, cx, y + 17, size, "#ffffff", True)
        ops += text(f"Lv{u.level} · 召{left}", cx, y + 35, 12, "#ffe08a", True)
        ops += text(f"耐久 {u.hp}/{u.max_hp}", cx, y + 52, 12, "#ffffff")
        ops += text(_badges(match, u), cx, y + 67, 10, "#ffe08a")
    else:
        size = 13 if len(name) <= 5 else 11
        ops += text(name, cx, y + 17, size, "#ffffff", True)
        ops += text(_badges(match, u), cx, y + 36, 11, "#ffe08a", True)
        ops += [("set", "fill_style", "#f5b041"), ("fill_circle", x + 20, y + 58, 12)]
        ops += text(str(u.attack), x + 20, y + 58, 14, "#1b1b1b", True)
        hp_bg = "#27ae60" if u.hp >= u.max_hp else "#c0392b"
        ops += [("set", "fill_style", hp_bg), ("fill_circle", x + 60, y + 58, 12)]
        ops += text(str(u.hp), x + 60, y + 58, 14, "#ffffff", True)
    if can_act:  # a small white dot: this unit still has something to do
        ops += [("set", "fill_style", "#fffbe6"), ("fill_circle", x + 68, y + 12, 4)]
    return ops


def card_ops(
    match: Match,
    card_id: str,
    x: float,
    y: float,
    dim: bool,
    selected: bool,
    alpha: float = 1.0,
) -> list[Op]:
    """One hand card: the gallery's card face at hand size (:func:`gallery.card_face_ops`),
    drawn at ``alpha`` (0.42 when ``dim``: not playable now), gold-framed when selected."""
    ops: list[Op] = [("set", "global_alpha", 0.42 if dim else alpha)]
    ops += card_face_ops(match.db[card_id], x, y, CARD_W, CARD_H, selected)
    ops += [("set", "global_alpha", 1.0), ("set", "text_align", "center")]
    return ops


def chip_ops(view: View, layout: Layout) -> list[Op]:
    ops: list[Op] = []
    if not view.chips:
        x, y = layout.tray.xy(0)
        ops += [("set", "text_align", "left")]
        ops += text(view.hint, x + 4, y + CHIP_H / 2, 13, "#5d6778")
        return ops + [("set", "text_align", "center")]
    for i, chip in enumerate(view.chips):
        x, y = layout.tray.xy(i)
        ops += [("set", "global_alpha", 1.0 if chip.enabled else 0.45)]
        ops += [("set", "fill_style", "#34495e" if chip.selected else "#ecf0f4")]
        ops += [("fill_rect", x, y, CHIP_W, CHIP_H)]
        ops += [
            ("set", "stroke_style", "#f1c40f" if chip.selected else "#95a5a6"),
            ("set", "line_width", 3 if chip.selected else 1),
            ("stroke_rect", x + 1, y + 1, CHIP_W - 2, CHIP_H - 2),
        ]
        fg = "#ffffff" if chip.selected else "#1b1b1b"
        ops += text(chip.label, x + CHIP_W / 2, y + 13, 13, fg, True)
        ops += text(chip.sub, x + CHIP_W / 2, y + 29, 11, "#f7dc6f" if chip.selected else "#5d6778")
    return ops + [("set", "global_alpha", 1.0)]


def pieces_ops(match: Match, view: View, layout: Layout = DEFAULT_LAYOUT) -> list[Op]:
    """The pieces layer: every unit on the board."""
    ops: list[Op] = [
        ("clear",),
        ("set", "text_align", "center"),
        ("set", "text_baseline", "middle"),
    ]
    for u in match.state.board:
        if u is not None:
            ops += unit_ops(match, u, layout, u.cell in view.can_act)
    return ops


def tray_ops(
    match: Match, view: View, layout: Layout = DEFAULT_LAYOUT, layer: bool = True
) -> list[Op]:
    """The tray of chips and the human's hand; ``layer``: as a layer of its own (cleared
    first), else to follow :func:`pieces_ops` on the same layer."""
    ops: list[Op] = (
        [("clear",), ("set", "text_align", "center"), ("set", "text_baseline", "middle")]
        if layer
        else []
    )
    ops += chip_ops(view, layout)
    hand = match.state.sides[view.human].hand
    for i, card_id in enumerate(hand):
        if i == view.drag_hand:
            continue  # drawn under the pointer by the overlay
        x, y = layout.hand.xy(i)
        selected = i == view.selected_hand
        dim = i not in view.playable
        ops += card_ops(match, card_id, x, y - (6 if selected else 0), dim, selected)
    return ops


def units_ops(match: Match, view: View, layout: Layout = DEFAULT_LAYOUT) -> list[Op]:
    """The units layer of a one-layer view (the replay): every unit, the tray of chips
    and the human's hand. The play widget draws :func:`pieces_ops` and :func:`tray_ops`
    on layers of their own, so a click that only changes the tray (a barracks selected)
    does not resend some 400 commands of unchanged pieces."""
    return pieces_ops(match, view, layout) + tray_ops(match, view, layout, layer=False)


def overlay_ops(match: Match, view: View, layout: Layout = DEFAULT_LAYOUT) -> list[Op]:
    """The highlight/drag layer: legal targets in their colours, selection, flash, drag ghost."""
    ops: list[Op] = [("clear",)]
    for cell, style in sorted(view.highlights.items()):
        ops += highlight_ops(style, *layout.cell_xy(cell))
    for cell, badge in sorted(view.predictions.items()):
        ops += badge_ops(badge, *layout.cell_xy(cell))
    if view.selected_cell >= 0:
        x, y = layout.cell_xy(view.selected_cell)
        ops += [
            ("set", "stroke_style", "#f1c40f"),
            ("set", "line_width", 5),
            ("stroke_rect", x + 2, y + 2, CELL - 4, CELL - 4),
        ]
    for cell in view.flash:
        if 0 <= cell < layout.columns * layout.rows:
            x, y = layout.cell_xy(cell)
            ops += [
                ("set", "fill_style", "rgba(255, 215, 0, 0.45)"),
                ("fill_rect", x, y, CELL, CELL),
            ]
            ops += [
                ("set", "stroke_style", "#e67e22"),
                ("set", "line_width", 4),
                ("stroke_rect", x + 2, y + 2, CELL - 4, CELL - 4),
            ]
    hand = match.state.sides[view.human].hand
    if 0 <= view.drag_hand < len(hand):
        if view.drag_cell >= 0:  # the ghost snaps to the hovered cell
            cx, cy = layout.cell_center(view.drag_cell)
            gx, gy = cx - CARD_W / 2, cy - CARD_H / 2
        else:
            hx, hy = layout.hand.xy(view.drag_hand)
            gx, gy = float(hx), float(hy - 14)
        ops += [("set", "text_align", "center"), ("set", "text_baseline", "middle")]
        ops += card_ops(match, hand[view.drag_hand], gx, gy, False, True, alpha=0.85)
    return ops


def status_ok(match: Match) -> bool:
    return match.phase == MAIN
