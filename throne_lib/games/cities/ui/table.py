"""Drawing the cities on the 城堡之心 round table (pure: observation in, canvas out).

Each seat's box (the castle's) gets its team colour and, beneath it, its city stack:
the current city as a card with name, grain/full, 守城效果 and grain bar; the rear cities
fanned beneath, newest first, each with its full bar; the starting city at the bottom,
marked 起始 (CW-UI-1). Before the reveal every city shows its back (CW-UI-5). The empty cities lie in the middle with their grain bars; a city the
viewer abandoned is greyed and marked 弃守 (CW-UI-2). Legal targets are outlined green,
with 「破城」 or the grain left after the hit (CW-UI-4). ``city_at`` maps a click back.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.ui.table import BOX_H, BOX_W, H, W, seat_centre, seat_lines

TEAM_COLOURS = (
    "#c0392b",
    "#2d6cdf",
    "#27ae60",
    "#8e44ad",
    "#d68910",
    "#16a085",
    "#7f8c8d",
    "#a04000",
)
CARD_W, CARD_H = 104, 60  # an empty city: name and bar, then its 破城 text in 3 lines
TOP_H = 58  # the current city's card under a seat's box (CW-UI-1): 守城 text in 2 lines
STRIP_H = TOP_H
FAN = 13  # how much of each rear city shows beneath it
FAN_DX = 4
EXTRA_H = 110  # canvas rows below the castle table, for the bottom seat's stack
AREA_W = 3 * CARD_W + 2 * 6 + 16
AREA_HEAD = 26  # the area's heading: the round, 空城区域, the piles


def canvas_height() -> int:
    return H + EXTRA_H


def team_colour(team: int) -> str:
    return TEAM_COLOURS[team % len(TEAM_COLOURS)]


def city_seat_lines(obs: Mapping[str, Any], p: Mapping[str, Any], cards: CastleCards) -> list[str]:
    """The castle's box text with the team and the draw pile instead of the identity."""
    lines = seat_lines(obs, p, cards)
    cv = obs["cities"]
    q = p["seat"]
    out = "（出局）" if cv["out"][q] else ""
    lines[1] = f"队伍{cv['teams'][q] + 1}{out} · 牌组{obs['piles'][q]['deck']}"
    return lines


def piles_text(obs: Mapping[str, Any]) -> str:
    """The draw and discard piles in the empty area's head (CW-DECK-1): the viewer's own,
    or the shared ones; none for a spectator when every seat has its own piles (each
    player's box shows its 牌组)."""
    seat = obs.get("seat")
    shared = obs["cities"].get("deck_mode") == "shared"
    if seat is None and not shared:
        return ""
    pile = obs["piles"][0 if seat is None else seat]
    return f" · 牌组 {pile['deck']} 弃牌 {len(pile['discard'])}"


def area_box(obs: Mapping[str, Any]) -> tuple[float, float, float, float]:
    """(x, y, w, h) of the empty area: below the top seat's stack (two rear cities
    fanned), as tall as its rows of cards, up to the bottom seat's box."""
    rows = max(1, (len(obs["cities"]["empty"]) + 2) // 3)
    h = AREA_HEAD + rows * (CARD_H + 6) + 4
    top, bottom = H / 2 - 100.0, float(H)  # below the seats above it, above those below
    for p in obs["players"]:
        cx, cy = seat_centre(obs, p["seat"])
        if abs(cx - W / 2) >= (AREA_W + BOX_W) / 2:
            continue  # beside the area
        if cy < H / 2:
            top = max(top, cy + BOX_H / 2 + 3 + TOP_H + 2 * FAN + 8)
        else:
            bottom = min(bottom, cy - BOX_H / 2 - 4)
    return W / 2 - AREA_W / 2, min(top, max(H / 2 - 100, bottom - h)), AREA_W, h


def empty_slots(obs: Mapping[str, Any]) -> list[tuple[str, float, float]]:
    """(city id, x, y) of each empty city's card in the middle, 3 per row."""
    empty = obs["cities"]["empty"]
    cols = 3
    _, ay, _, _ = area_box(obs)
    x0 = W / 2 - (cols * CARD_W + (cols - 1) * 6) / 2
    y0 = ay + AREA_HEAD
    return [
        (c["id"], x0 + (i % cols) * (CARD_W + 6), y0 + (i // cols) * (CARD_H + 6))
        for i, c in enumerate(empty)
    ]


def strip_box(obs: Mapping[str, Any], seat: int) -> tuple[float, float]:
    """Top-left corner of ``seat``'s current-city card, under its box."""
    cx, cy = seat_centre(obs, seat)
    return cx - BOX_W / 2, cy + BOX_H / 2 + 3


def city_at(obs: Mapping[str, Any], x: float, y: float) -> str | None:
    """The city under a click: an empty city's card or a seat's current-city card."""
    for cid, cx, cy in empty_slots(obs):
        if cx <= x <= cx + CARD_W and cy <= y <= cy + CARD_H:
            return cid
    for seat, stack in enumerate(obs["cities"]["stacks"]):
        if not stack:
            continue
        sx, sy = strip_box(obs, seat)
        if sx <= x <= sx + BOX_W and sy <= y <= sy + TOP_H:
            return str(stack[-1]["id"])
    return None


def _bar(canvas: Any, x: float, y: float, w: float, grain: int, full: int, h: float = 5) -> None:
    canvas.fill_style = "#e8e1cf"
    canvas.fill_rect(x, y, w, h)
    canvas.fill_style = "#d4a017" if grain * 3 > full else "#c0392b"
    canvas.fill_rect(x, y, w * max(0, min(grain, full)) / max(full, 1), h)


def _hit_note(c: Mapping[str, Any], preview: Mapping[str, int]) -> str:
    dmg = preview.get(str(c["id"]))
    if dmg is None:
        return ""
    return "破城" if dmg >= c["grain"] else f"−{dmg}→{c['grain'] - dmg}"


def wrap(text: str, per_line: int, lines: int) -> list[str]:
    """``text`` in lines of ``per_line`` characters, at most ``lines`` of them (the last
    ends in … only when the text is longer still; the inspector has it in full)."""
    out = [text[i : i + per_line] for i in range(0, len(text), per_line)] or [""]
    if len(out) > lines:
        out = out[:lines]
        out[-1] = out[-1][:-1] + "…"
    return out


def _start_tag(canvas: Any, x: float, y: float) -> None:
    """The 起始 mark of a starting city, right-aligned at ``x``."""
    canvas.fill_style = "#7b241c"
    canvas.fill_rect(x - 26, y - 10, 26, 13)
    canvas.fill_style = "#fff"
    canvas.font = "bold 10px sans-serif"
    canvas.text_align = "center"
    canvas.fill_text("起始", x - 13, y)
    canvas.text_align = "left"


def _card_back(canvas: Any, x: float, y: float, w: float, h: float, colour: str) -> None:
    canvas.fill_style = "#5b4a2f"
    canvas.fill_rect(x, y, w, h)
    canvas.stroke_style = colour
    canvas.line_width = 2
    canvas.stroke_rect(x + 2, y + 2, w - 4, h - 4)
    canvas.fill_style = "#e8d9b0"
    canvas.font = "bold 12px sans-serif"
    canvas.text_align = "center"
    canvas.fill_text("城池", x + w / 2, y + h / 2 + 4)
    canvas.text_align = "left"


def draw_stack(
    canvas: Any,
    x: float,
    y: float,
    stack: list[Mapping[str, Any]],
    colour: str,
    hot: bool = False,
    note: str = "",
) -> None:
    """CW-UI-1: one player's stack in its team colour. The current city on top, face
    up: name, grain/full, 守城效果 and a grain bar; the rear cities fanned beneath it,
    newest first, each with its (full) bar; the starting city at the bottom, 起始."""
    if not stack:
        return
    rear = stack[:-1][::-1]  # newest first; the starting city last
    for i in range(len(rear) - 1, -1, -1):  # the bottom one first, so the upper ones cover it
        c = rear[i]
        rx, ry = x + (i + 1) * FAN_DX, y + TOP_H - 4 + i * FAN
        rw = BOX_W - (i + 1) * FAN_DX
        canvas.fill_style = "#f4ecd8"
        canvas.fill_rect(rx, ry, rw, FAN + 4)
        canvas.stroke_style = colour
        canvas.line_width = 1
        canvas.stroke_rect(rx, ry, rw, FAN + 4)
        canvas.fill_style = colour
        canvas.fill_rect(rx, ry, 4, FAN + 4)
        canvas.fill_style = "#333"
        canvas.font = "10px sans-serif"
        canvas.text_align = "left"
        canvas.fill_text(f"{c['name']} {c['grain']}/{c['full']}", rx + 7, ry + 14)
        bar_end = rx + rw - (32 if c.get("start") else 4)
        _bar(canvas, bar_end - 52, ry + 9, 52, c["grain"], c["full"], 4)
        if c.get("start"):
            _start_tag(canvas, rx + rw - 2, ry + 15)
    top = stack[-1]
    canvas.fill_style = "#fffaf0"
    canvas.fill_rect(x, y, BOX_W, TOP_H)
    canvas.fill_style = colour
    canvas.fill_rect(x, y, 5, TOP_H)
    canvas.stroke_style = "#2ea043" if hot else colour
    canvas.line_width = 3 if hot else 2
    canvas.stroke_rect(x, y, BOX_W, TOP_H)
    canvas.text_align = "left"
    canvas.font = "bold 12px sans-serif"
    canvas.fill_style = "#222"
    canvas.fill_text(f"{top['name']} {top['grain']}/{top['full']}", x + 9, y + 14)
    if note:
        canvas.fill_style = "#c0392b"
        canvas.fill_text(note, x + 92, y + 14)
    if top.get("start"):
        _start_tag(canvas, x + BOX_W - 3, y + 14)
    _bar(canvas, x + 9, y + 19, BOX_W - 15, top["grain"], top["full"], 5)
    canvas.font = "10px sans-serif"
    canvas.fill_style = "#555"
    text = "守城：" + str(top.get("defence_text", ""))
    for i, line in enumerate(wrap(text, int((BOX_W - 14) // 10), 2)):
        canvas.fill_text(line, x + 9, y + 36 + i * 12)


def draw_cities(
    canvas: Any,
    obs: Mapping[str, Any],
    targets: set[str] | frozenset[str] = frozenset(),
    face_down: bool = False,
) -> None:
    """The empty area and every seat's stack. ``face_down``: the set-up before the
    reveal (CW-SETUP-5, CW-UI-5): each seat's starting city and the cities nobody drew
    show their backs."""
    cv = obs["cities"]
    preview = cv.get("preview", {})
    canvas.fill_style = "#f6f1e4"  # the rows below the castle table
    canvas.fill_rect(0, H, W, EXTRA_H)
    # the empty area is the table's middle (CW-UI-2): the castle's disc is painted over
    # (it lay half hidden behind it), the round and the piles go in the area's head
    canvas.fill_style = "#f6f1e4"
    canvas.fill_rect(W / 2 - 122, H / 2 - 136, 244, 244)
    ax, ay, aw, ah = area_box(obs)
    canvas.fill_style = "#efe6cf"
    canvas.fill_rect(ax, ay, aw, ah)
    canvas.stroke_style = "#d9ccb0"
    canvas.line_width = 2
    canvas.stroke_rect(ax, ay, aw, ah)
    canvas.fill_style = "#5b4a2f"
    canvas.font = "bold 13px sans-serif"
    canvas.text_align = "center"
    label = "未抽取的城池（背面朝上）" if face_down else "空城区域"
    canvas.fill_text(f"第{obs['round']}轮 · {label}{piles_text(obs)}", W / 2, ay + 17)
    for cid, x, y in empty_slots(obs):
        if face_down:
            _card_back(canvas, x, y, CARD_W, CARD_H, "#8a7a5c")
            continue
        c = next(e for e in cv["empty"] if e["id"] == cid)
        banned = bool(c.get("banned"))
        canvas.fill_style = "#d5d5d5" if banned else "#fffaf0"
        canvas.fill_rect(x, y, CARD_W, CARD_H)
        hot = cid in targets
        canvas.stroke_style = "#2ea043" if hot else "#8a7a5c"
        canvas.line_width = 3 if hot else 1
        canvas.stroke_rect(x, y, CARD_W, CARD_H)
        canvas.text_align = "left"
        canvas.fill_style = "#777" if banned else "#222"
        canvas.font = "bold 12px sans-serif"
        mark = " 弃守" if banned else ""
        canvas.fill_text(f"{c['name']} {c['grain']}/{c['full']}{mark}", x + 5, y + 14)
        _bar(canvas, x + 5, y + 19, CARD_W - 10, c["grain"], c["full"])
        canvas.font = "10px sans-serif"
        note = _hit_note(c, preview) if hot else ""
        canvas.fill_style = "#c0392b" if note else "#666"
        text = note or "破城：" + str(c["capture_text"])
        for i, line in enumerate(wrap(text, int((CARD_W - 8) // 10), 3)):
            canvas.fill_text(line, x + 5, y + 34 + i * 11)
    # each seat: team colour and its city stack (CW-UI-1)
    for p in obs["players"]:
        q = p["seat"]
        cx, cy = seat_centre(obs, q)
        colour = team_colour(cv["teams"][q])
        canvas.fill_style = colour
        canvas.fill_rect(cx - BOX_W / 2, cy - BOX_H / 2, BOX_W, 5)
        stack = cv["stacks"][q]
        sx, sy = strip_box(obs, q)
        if face_down:
            if stack:
                _card_back(canvas, sx, sy, BOX_W, TOP_H, colour)
            continue
        hot = bool(stack) and stack[-1]["id"] in targets
        note = _hit_note(stack[-1], preview) if hot else ""
        draw_stack(canvas, sx, sy, stack, colour, hot, note)
