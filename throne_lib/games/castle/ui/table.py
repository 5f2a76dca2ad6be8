"""Drawing the round table from one seat's observation (pure: observation in, canvas
commands out); ``seat_at`` maps a click back to a seat."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from typing import Any

from throne_lib.games.castle.cards import CastleCards

W, H = 820, 560
BOX_W, BOX_H = 176, 104
STATUS_COLOURS = {"current": "#f0b400", "target": "#2ea043", "dead": "#9aa0a6", "me": "#2d6cdf"}


def seat_centre(obs: Mapping[str, Any], seat: int) -> tuple[float, float]:
    """Seats in a circle by position, the viewer at the bottom, clockwise."""
    n = obs["num_seats"]
    me = obs["seat"] if obs["seat"] is not None else 0
    pos = obs["players"][seat]["position"]
    mine = obs["players"][me]["position"]
    angle = math.pi / 2 + 2 * math.pi * ((pos - mine) % n) / n
    return W / 2 + 300 * math.cos(angle), H / 2 - 14 + 200 * math.sin(angle)


def seat_at(obs: Mapping[str, Any], x: float, y: float) -> int | None:
    for p in obs["players"]:
        cx, cy = seat_centre(obs, p["seat"])
        if abs(x - cx) <= BOX_W / 2 and abs(y - cy) <= BOX_H / 2:
            return int(p["seat"])
    return None


def seat_lines(obs: Mapping[str, Any], p: Mapping[str, Any], cards: CastleCards) -> list[str]:
    """The text of one seat's box (CH-UI-1)."""
    title = cards[p["hero"]].title if p["hero"] else ""
    role = p["role_zh"] if p["role"] != "?" else "?"
    camp = {"enemy": "·宣布敌军", "castle": "·宣布援军"}.get(p["camp"], "")
    head = f"{p['hero_name'] or '未选'}（{title}）"
    state = (
        "阵亡" if not p["alive"] else ("濒死" if p["dying"] else ("坚持" if p["holding"] else ""))
    )
    hp = f"生命 {p['hp']}/{p['max_hp']}  手牌 {p['hand_size']}"
    dist = p["distance"]
    if dist not in (None, 0, 99):
        hp += f"  距离{dist}"
    equip = "、".join(cards[c].name for c in p["equip"].values()) or "无装备"
    soldiers = " ".join(f"{cards[x['card']].name}{x['hp']}" for x in p["soldiers"]) or "无士兵"
    status = " ".join(p["status"] + ([state] if state else []))
    return [head, f"身份 {role}{camp}", hp, equip, soldiers, status]


def draw_table(
    canvas: Any,
    obs: Mapping[str, Any],
    cards: CastleCards,
    targets: set[int] | frozenset[int] = frozenset(),
    lines: Callable[[Mapping[str, Any], Mapping[str, Any], CastleCards], list[str]] = seat_lines,
) -> None:
    """Draw every seat's box; ``targets`` (seats) are highlighted in green; ``lines``
    gives a box's text (a mode on this table shows its own)."""
    canvas.clear()
    canvas.fill_style = "#f6f1e4"
    canvas.fill_rect(0, 0, W, H)
    canvas.fill_style = "#d9ccb0"
    canvas.fill_circle(W / 2, H / 2 - 14, 120)
    canvas.fill_style = "#5b4a2f"
    canvas.font = "16px sans-serif"
    canvas.text_align = "center"
    canvas.fill_text(f"第{obs['round']}轮", W / 2, H / 2 - 30)
    canvas.font = "13px sans-serif"
    canvas.fill_text(f"牌组 {obs['deck_size']}  弃牌 {obs['discard_size']}", W / 2, H / 2 - 8)
    for p in obs["players"]:
        seat = p["seat"]
        cx, cy = seat_centre(obs, seat)
        x, y = cx - BOX_W / 2, cy - BOX_H / 2
        canvas.fill_style = "#ffffff" if p["alive"] else "#e4e4e4"
        canvas.fill_rect(x, y, BOX_W, BOX_H)
        border = "#8a7a5c"
        if not p["alive"]:
            border = STATUS_COLOURS["dead"]
        if seat == obs["turn_seat"]:
            border = STATUS_COLOURS["current"]
        if seat in targets:
            border = STATUS_COLOURS["target"]
        canvas.stroke_style = border
        canvas.line_width = 4 if seat in targets or seat == obs["turn_seat"] else 1.5
        canvas.stroke_rect(x, y, BOX_W, BOX_H)
        if p["role"] == "lord":
            canvas.fill_style = "#b8860b"
            canvas.fill_rect(x, y, BOX_W, 4)
        canvas.text_align = "left"
        for i, line in enumerate(lines(obs, p, cards)):
            canvas.font = "bold 13px sans-serif" if i == 0 else "12px sans-serif"
            canvas.fill_style = (
                "#c0392b" if i == 5 else ("#1d4796" if seat == obs["seat"] else "#222")
            )
            canvas.fill_text(line[:18], x + 6, y + 16 + i * 16)
