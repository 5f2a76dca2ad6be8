"""What the inspector shows for PIN: a card in full from ``cards-pin.csv`` (nation,
kind, types, size, cost, action cost, attack/HP, range, actions, damage, the rules text
with its keywords) and a unit or HQ as it is now (HP, defences, actions left, markers)
from the viewer's observation. Pure: the match's table and an observation in, HTML out."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from throne_lib.games.pin import ui_model as ui
from throne_lib.games.pin.cards import PinCard, PinCardDB
from throne_lib.games.pin.hexes import SIDE_NAMES, label
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.state import parse_ref
from throne_lib.kit.ui.inspector import para, row, title

PHASE_ZH = {"setup": "开局", "draw": "摸牌", "action": "行动", "end": "结束", "over": "终局"}


def card_html(card: PinCard, db: PinCardDB) -> str:
    """A card in full: the table's figures and its Chinese text."""
    sub = " · ".join(x for x in (card.nation, card.kind, card.rarity) if x)
    figures = []
    if card.kind == "单位":
        types = "、".join(card.types)
        figures = [
            row("类型", f"{types} {card.size}".strip()),
            row("费用", f"{card.cost}指挥点"),
            row("行动费", f"{card.action_cost}"),
            row("攻", str(card.attack)),
            row("血", str(card.hp)),
            row("射程", str(card.range)),
            row("行动", str(card.actions)),
            row("伤害", "、".join(card.damage)),
        ]
    elif card.cost:
        figures = [row("费用", f"{card.cost}指挥点")]
    parts = [title(card.name, sub), "　".join(figures), para(db.text(card.id))]
    return "".join(f"<div>{p}</div>" for p in parts if p)


def unit_html(m: PinMatch, obs: Mapping[str, Any], ref: str) -> str:
    """A unit or HQ on the board as the viewer sees it now, over its card."""
    units = {u["ref"]: u for u in [*obs["units"], *obs["hqs"]]}
    u = units.get(ref)
    if u is None:
        return ""
    card = m.db[u["card"]]
    now = [
        row("现在", f"{SIDE_NAMES[u['side']]}方 {label(u['cell'])}"),
        row("攻", str(u["attack"])),
        row("血", f"{u['hp']}/{u['max_hp']}"),
    ]
    if u.get("is_hq"):
        badge = ui.hq_badge(obs, u["side"], u["max_hp"])
        now += [row("防御", "、".join(badge["keywords"]))] if badge["keywords"] else []
    else:
        face = ui.unit_card(m, dict(u))
        if face["badges"]:
            now.append(row("防御", "、".join(face["badges"])))
        now.append(
            row("已激活", f"剩余行动 {u['actions']}") if u["activated"] else row("未激活", "")
        )
        if face["markers"]:
            now.append(row("状态", "、".join(face["markers"])))
    return card_html(card, m.db) + "<div>" + "　".join(now) + "</div>"


def unit_prompt(m: PinMatch, ref: str) -> str:
    """After selecting an own unit: what it may do now and what it costs (PIN-UI-5),
    from ``legal_actions()`` via :func:`ui_model.unit_menu`."""
    menu = ui.unit_menu(m, ref)
    u = m.state.units[parse_ref(ref)]
    name = m.db[u.card].name
    can = []
    if menu["activate"] is not None:
        can.append(f"激活（花费{m.card(u).action_cost}指挥点）后可移动、攻击")
    if menu["moves"]:
        can.append(f"移动到 {len(menu['moves'])} 格（绿框）")
    if menu["targets"]:
        can.append(f"攻击 {len(menu['targets'])} 个目标（红框）")
    if menu["specials"]:
        can.append(f"特殊行动 {len(menu['specials'])} 项")
    if not can:
        return f"已选择 {name}：现在不能行动"
    return f"已选择 {name}：" + "；".join(can)
