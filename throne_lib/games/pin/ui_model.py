"""What a PIN board UI draws, as plain data (PIN-UI-1…7). No widgets here: a renderer
(ipycanvas, SVG, a browser) turns these into pixels. Everything clickable comes from
``legal_actions()``; everything shown comes from ``observation(seat)``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from throne_lib.games.pin import combat
from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.hexes import BOARD, CELLS, HexBoard, label, rotate, side_of_line
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.state import parse_ref

SIDE_COLOURS = ("#3b6fb6", "#b63b3b")  # 甲 blue, 乙 red
NEUTRAL = "#d8d2c4"
TYPE_ICONS = {"步兵": "步", "装甲": "甲", "炮兵": "炮", "悬停": "浮", "战机": "机", "轰炸机": "轰"}


def hex_centre(
    cell: int, s: float, viewer: int = 0, board: HexBoard = BOARD
) -> tuple[float, float]:
    """PIN-UI-1: centre = (x·√3/2·s, (3 − r)·1.5·s) in 甲's view; 乙 sees the half turn."""
    x, r = board.coords[rotate(cell) if viewer == 1 else cell]
    return (x * math.sqrt(3) / 2 * s, (3 - r) * 1.5 * s)


def hex_corners(
    cell: int, s: float, viewer: int = 0, board: HexBoard = BOARD
) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex of radius ``s``."""
    cx, cy = hex_centre(cell, s, viewer, board)
    return [
        (cx + s * math.cos(math.radians(60 * i - 30)), cy + s * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def cell_at(px: float, py: float, s: float, viewer: int = 0, board: HexBoard = BOARD) -> int | None:
    """The cell under a click, or None outside the board."""
    best = min(CELLS, key=lambda c: math.dist((px, py), hex_centre(c, s, viewer, board)))
    return best if math.dist((px, py), hex_centre(best, s, viewer, board)) <= s * 0.95 else None


# the defences a unit or an HQ counts (keyword -> its name on the board)
DEFENCES = (("ads", "ADS"), ("shield", "护盾"), ("mshield", "魔法护盾"), ("ward", '"魔法"护盾'))


def cell_tint(cell: int) -> str:
    """PIN-UI-2: support lines in their side's colour, the front neutral."""
    side = side_of_line(cell)
    return NEUTRAL if side is None else SIDE_COLOURS[side]


def hq_badge(obs: Mapping[str, Any], side: int, max_hp: int = 160) -> dict[str, Any]:
    """PIN-UI-2: HP bar (HP/160) and keywords (ADS charges, shield pools)."""
    hq = obs["hqs"][side]
    marks = []
    for key, word in DEFENCES:
        if hq[key]:
            marks.append(f"{word} {hq[key]}")
    return {
        "name": hq["name"],
        "hp": hq["hp"],
        "bar": max(0.0, hq["hp"] / max_hp),
        "keywords": marks,
    }


def unit_card(m: PinMatch, u: dict[str, Any]) -> dict[str, Any]:
    """PIN-UI-3: name, type icon, size, attack/HP, defence badges, actions, markers."""
    c = m.db[u["card"]]
    badges = []
    for key, word in DEFENCES:
        top = c.kw(key)
        if top:
            badges.append(f"{word} {u[key]}/{top}")
    if c.kw("reactive"):
        badges.append("反应")
    if c.kw("armor"):
        badges.append(f"装甲 {c.kw('armor')}")
    markers = []
    if u["chaos_until"]:
        markers.append(f"混乱至第{u['chaos_until']}回合")
    if u["stopped"]:
        markers.append("停止移动")
    if c.kw("guard"):
        markers.append("守护")
    if c.kw("air_superiority"):
        markers.append("制空")
    return {
        "ref": u["ref"],
        "name": c.name,
        "icon": "".join(TYPE_ICONS[t] for t in c.types),
        "size": c.size,
        "attack": u["attack"],
        "hp": f"{u['hp']}/{u['max_hp']}",
        "badges": badges,
        "actions": u["actions"] if u["activated"] else None,
        "markers": markers,
        "side": u["side"],
    }


def cell_stacks(m: PinMatch, obs: dict[str, Any]) -> dict[str, list[dict[str, Any]]]:
    """PIN-UI-3: each cell's two slots in arrival order (an HQ holds slot 1)."""
    units = {u["ref"]: u for u in obs["units"]}
    out: dict[str, list[dict[str, Any]]] = {}
    for cell, refs in obs["slots"].items():
        out[cell] = [
            {"hq": int(r[2])} if r.startswith("hq") else unit_card(m, units[r]) for r in refs
        ]
    return out


def top_bar(m: PinMatch, seat: int) -> dict[str, Any]:
    """PIN-UI-4: turn, round, phase, both sides' CP, hand/deck/graveyard counts, buttons."""
    obs = m.observation(seat)
    legal = m.legal_actions() if m.current_seat == seat else []
    return {
        "turn": obs["turn"],
        "round": obs["round"],
        "phase": obs["phase"],
        "cp": [f"{obs['cp'][s]}/{obs['cp_max'][s]}" for s in (0, 1)],
        "hands": obs["hand_counts"],
        "decks": obs["deck_counts"],
        "graves": [len(g) for g in obs["graves"]],
        "buttons": {
            "花费2抽牌": PinAction("draw") in legal,
            "结束回合": PinAction("end") in legal,
        },
    }


def unit_menu(m: PinMatch, ref: str) -> dict[str, Any]:
    """PIN-UI-5: clicking an own unit: 激活 with its cost, then its highlighted moves and
    targets, all read from ``legal_actions()``."""
    legal = [a for a in m.legal_actions() if a.args and a.args[0] == ref]
    u = m.state.units[parse_ref(ref)]
    activate = next((a for a in legal if a.kind == "activate"), None)
    return {
        "activate": None
        if activate is None
        else {"action": activate, "label": f"激活（{m.card(u).action_cost}）"},
        "moves": sorted(a.args[1] for a in legal if a.kind == "move"),
        "targets": sorted({a.args[1] for a in legal if a.kind == "attack"}),
        "attacks": [a for a in legal if a.kind == "attack"],
        "specials": [a for a in legal if a.kind == "special"],
    }


def attack_preview(m: PinMatch, action: PinAction) -> dict[str, Any]:
    """PIN-UI-5: base, S, each layer and the HP left on both sides, in Chinese."""
    uid, tid = parse_ref(action.args[0]), parse_ref(action.args[1])
    p = combat.preview(m, uid, tid, action.args[2])
    a, t = m.state.units[uid], m.state.units[tid]
    lines = [f"攻击：{p['main'].zh()}" if p["main"] is not None else "攻击：伤害为0"]
    if p["counter"] is not None:
        lines.append(f"反击：{p['counter'].zh()}")
    for o, h in p["splash"]:
        lines.append(f"溅射 {m.name(o)}：{h.zh()}")
    t_left = t.hp - (p["main"].hp_loss if p["main"] is not None else 0)
    a_left = a.hp - (p["counter"].hp_loss if p["counter"] is not None else 0)
    return {"lines": lines, "target_hp_left": t_left, "attacker_hp_left": a_left}


def hand_view(m: PinMatch, seat: int) -> dict[str, Any]:
    """PIN-UI-6: each own card with its legal deploy cells (full ones marked 将撤退) or
    command targets; cards that cannot be paid are dimmed; the opponent shows backs."""
    obs = m.observation(seat)
    legal = m.legal_actions() if m.current_seat == seat else []
    cards = []
    for cid in obs["hand"]:
        c = m.db[cid]
        mine = [a for a in legal if a.args and a.args[0] == cid and a.kind in ("deploy", "play")]
        cells = []
        for a in mine:
            if a.kind == "deploy":
                full = len(obs["slots"].get(a.args[1], [])) >= m.rules.slots_per_cell
                cells.append({"cell": a.args[1], "note": "将撤退" if full else ""})
        cards.append(
            {
                "card": cid,
                "name": c.name,
                "cost": c.cost,
                "text": m.db.text(cid),
                "dimmed": c.cost > obs["cp"][seat],
                "deploy": cells,
                "targets": [a.args[1] for a in mine if a.kind == "play"],
                "actions": mine,
            }
        )
    return {"cards": cards, "opponent_backs": obs["hand_counts"][1 - seat]}


PROMPTS = {
    "mulligan": "换牌：选择要换掉的手牌",
    "reveal": "决定先手：选择一张手牌展示",
    "draw": "摸牌阶段：是否花费2指挥点再抽1张？",
    "window": "反制时机：打出反制牌或放弃",
    "retreat": "撤退：选择终点格，或返回手牌",
    "target": "选择效果目标",
}


def prompt(m: PinMatch) -> dict[str, Any] | None:
    """PIN-UI-7: the pending decision with exactly the legal choices, in Chinese."""
    d = m.state.pending
    if d is None:
        return None
    acts = m.legal_actions()
    return {
        "seat": d.seat,
        "kind": d.kind,
        "title": PROMPTS[d.kind],
        "options": [{"action": a, "label": m.describe(a)} for a in acts],
        "cells": sorted(a.args[1] for a in acts if a.kind == "retreat" and a.args[1] != "hand"),
    }


def board_cells(viewer: int, s: float) -> list[dict[str, Any]]:
    """Every hex with its label, tint and centre for one viewer (PIN-UI-1, -2)."""
    return [
        {"cell": label(c), "tint": cell_tint(c), "centre": hex_centre(c, s, viewer)} for c in CELLS
    ]
