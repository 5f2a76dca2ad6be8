"""Drawing the cities on the 城堡之心 round table (pure: observation in, canvas out).

Each seat's box (the castle's) gets its team colour and, beneath it, its city stack:
the current city with a grain bar, the number of rear cities, 起始 on the starting
city (CW-UI-1). The empty cities lie in the middle with their grain bars; a city the
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
CARD_W, CARD_H = 112, 38
STRIP_H = 32


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


def empty_slots(obs: Mapping[str, Any]) -> list[tuple[str, float, float]]:
    """(city id, x, y) of each empty city's card in the middle, 3 per row."""
    empty = obs["cities"]["empty"]
    cols = 3
    rows = max(1, (len(empty) + cols - 1) // cols)
    x0 = W / 2 - (cols * CARD_W + (cols - 1) * 6) / 2
    y0 = H / 2 - 14 - (rows * CARD_H + (rows - 1) * 6) / 2 + 10
    return [
        (c["id"], x0 + (i % cols) * (CARD_W + 6), y0 + (i // cols) * (CARD_H + 6))
        for i, c in enumerate(empty)
    ]


def strip_box(obs: Mapping[str, Any], seat: int) -> tuple[float, float]:
    cx, cy = seat_centre(obs, seat)
    return cx - BOX_W / 2, cy + BOX_H / 2 + 2


def city_at(obs: Mapping[str, Any], x: float, y: float) -> str | None:
    """The city under a click: an empty city's card or a seat's current-city strip."""
    for cid, cx, cy in empty_slots(obs):
        if cx <= x <= cx + CARD_W and cy <= y <= cy + CARD_H:
            return cid
    for seat, stack in enumerate(obs["cities"]["stacks"]):
        if not stack:
            continue
        sx, sy = strip_box(obs, seat)
        if sx <= x <= sx + BOX_W and sy <= y <= sy + STRIP_H:
            return str(stack[-1]["id"])
    return None


def _bar(canvas: Any, x: float, y: float, w: float, grain: int, full: int) -> None:
    canvas.fill_style = "#e8e1cf"
    canvas.fill_rect(x, y, w, 5)
    canvas.fill_style = "#d4a017" if grain * 3 > full else "#c0392b"
    canvas.fill_rect(x, y, w * max(0, min(grain, full)) / max(full, 1), 5)


def _hit_note(c: Mapping[str, Any], preview: Mapping[str, int]) -> str:
    dmg = preview.get(str(c["id"]))
    if dmg is None:
        return ""
    return "破城" if dmg >= c["grain"] else f"−{dmg}→{c['grain'] - dmg}"


def draw_cities(
    canvas: Any, obs: Mapping[str, Any], targets: set[str] | frozenset[str] = frozenset()
) -> None:
    cv = obs["cities"]
    preview = cv.get("preview", {})
    # the empty area in the middle (CW-UI-2)
    canvas.fill_style = "#efe6cf"
    canvas.fill_rect(W / 2 - 186, H / 2 - 104, 372, 188)
    canvas.fill_style = "#5b4a2f"
    canvas.font = "12px sans-serif"
    canvas.text_align = "center"
    canvas.fill_text("空城区域", W / 2, H / 2 - 90)
    for cid, x, y in empty_slots(obs):
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
        canvas.font = "10px sans-serif"
        note = _hit_note(c, preview) if hot else ""
        canvas.fill_style = "#c0392b" if note else "#666"
        canvas.fill_text(note or c["capture_text"][:10], x + 5, y + 27)
        _bar(canvas, x + 5, y + 31, CARD_W - 10, c["grain"], c["full"])
    # each seat: team colour and its city stack (CW-UI-1)
    for p in obs["players"]:
        q = p["seat"]
        cx, cy = seat_centre(obs, q)
        canvas.fill_style = team_colour(cv["teams"][q])
        canvas.fill_rect(cx - BOX_W / 2, cy - BOX_H / 2, BOX_W, 5)
        stack = cv["stacks"][q]
        sx, sy = strip_box(obs, q)
        if not stack:
            continue
        top = stack[-1]
        hot = top["id"] in targets
        canvas.fill_style = "#fffaf0"
        canvas.fill_rect(sx, sy, BOX_W, STRIP_H)
        canvas.stroke_style = "#2ea043" if hot else team_colour(cv["teams"][q])
        canvas.line_width = 3 if hot else 1.5
        canvas.stroke_rect(sx, sy, BOX_W, STRIP_H)
        canvas.text_align = "left"
        canvas.font = "bold 11px sans-serif"
        canvas.fill_style = "#222"
        start = "起始·" if top.get("start") else ""
        note = _hit_note(top, preview) if hot else ""
        head = f"{start}{top['name']} {top['grain']}/{top['full']} {note}"
        canvas.fill_text(head, sx + 4, sy + 12)
        _bar(canvas, sx + 4, sy + 15, BOX_W - 8, top["grain"], top["full"])
        rear = stack[:-1][::-1]  # newest first; the starting city last (rear: always full)
        canvas.font = "9px sans-serif"
        canvas.fill_style = "#555"
        names = "、".join(
            f"{'起始·' if c.get('start') else ''}{c['name']}{c['grain']}/{c['full']}" for c in rear
        )
        canvas.fill_text(f"后方 {names}" if rear else "无后方城池", sx + 4, sy + 29)
