"""What the inspector shows for 城堡之心 (and 城池战): a card in full from
``cards-castle.csv`` (kind, figures, traits' text), a seat as it is now from the viewer's
observation (hero and its traits, HP, hand size, equipment, soldiers with their HP and
text, statuses), and a city's 守城/破城 effects (:func:`city_html`). Pure: an
observation and the card table in, HTML out; nothing hidden from the viewer is read."""

from __future__ import annotations

import html
import math
from collections.abc import Mapping
from typing import Any

from throne_lib.games.castle.cards import KIND_ZH, CastleCard, CastleCards
from throne_lib.kit.ui.inspector import para, row, title

SOLDIER_STATUS = (("poison", "中毒"), ("cursed", "诅咒"), ("coward", "怯战"))


def card_html(card: CastleCard, note: str = "") -> str:
    """A card in full: name, title, kind, figures, its text from the table."""
    figures = []
    if card.kind == "hero" or card.is_soldier:
        figures.append(row("生命", str(card.hp)))
    if card.value:
        figures.append(row("价值", str(card.value)))
    if card.range and card.kind in ("hero", "equipment") or card.is_soldier:
        figures.append(row("射程", "无限" if math.isinf(card.range) else f"{card.range:g}"))
    if card.count and card.kind != "hero":  # how many of it the box holds
        figures.append(row("张数", str(card.count)))
    kind = KIND_ZH.get(card.kind, card.kind)
    sub = f"{card.title} · {kind}" if card.title else kind
    parts = [title(card.name, sub), "　".join(figures), para(card.text)]
    if note:
        parts.insert(
            0, f"<div style='background:#fff3cd;padding:2px 6px'>{html.escape(note)}</div>"
        )
    return "".join(f"<div>{p}</div>" for p in parts if p)


def seat_html(obs: Mapping[str, Any], seat: int, cards: CastleCards) -> str:
    """A seat as the viewer sees it now: its hero card (traits), then HP, hand,
    identity, equipment (each with its text), soldiers (HP, statuses, text)."""
    p = obs["players"][seat]
    state = "阵亡" if not p["alive"] else ("濒死" if p["dying"] else "")
    now = [row("座位", f"{seat}号")] if p["hero"] else []
    now += [row("生命", f"{p['hp']}/{p['max_hp']}"),
           row("手牌", str(p["hand_size"]))]  # fmt: skip
    if p.get("role_zh"):  # 城池战 has teams, no identities
        now.append(row("身份", p["role_zh"] if p["role"] != "?" else "未知"))
    if p.get("leadership") is not None:
        lead = int(p["leadership"])
        now.append(row("统率", "无限" if lead < 0 else str(lead)))  # 庞然大军: -1
    if p.get("distance") not in (None, 0, 99):
        now.append(row("距离", str(p["distance"])))
    status = [*p["status"], *([state] if state else []), *(["坚持"] if p["holding"] else [])]
    if status:
        now.append(row("状态", "、".join(status)))
    head = card_html(cards[p["hero"]]) if p["hero"] else title("未选英雄", f"{seat}号座位")
    parts = [head, "<div>" + "　".join(now) + "</div>"]
    for _slot, cid in p["equip"].items():
        c = cards[cid]
        parts.append(
            f"<div>{row('装备', c.name)} <span style='color:#444'>{html.escape(c.text)}</span></div>"
        )
    for x in p["soldiers"]:
        c = cards[x["card"]]
        marks = "、".join(word for key, word in SOLDIER_STATUS if x.get(key))
        tail = f"（{marks}）" if marks else ""
        figure = f"{c.name} {x['hp']}/{x['max_hp']}{tail}"
        parts.append(
            f"<div>{row('士兵', figure)} "
            f"<span style='color:#444'>{html.escape(c.text)}</span></div>"
        )
    if not p["soldiers"]:
        parts.append(f"<div>{row('士兵', '无')}</div>")
    return "".join(parts)


def city_html(city: Mapping[str, Any], note: str = "") -> str:
    """A city of 城池战 (an observation's city entry): grain, 守城 and 破城 effects."""
    parts = [
        title(str(city["name"]), "城池"),
        row("粮草", f"{city['grain']}/{city['full']}"),
        row("守城效果", str(city.get("defence_text", ""))),
        row("破城效果", str(city.get("capture_text", ""))),
    ]
    if note:
        parts.append(f"<span style='color:#5d6778'>{html.escape(note)}</span>")
    return "".join(f"<div>{p}</div>" for p in parts)


def name_refs(obs: Mapping[str, Any], cards: CastleCards) -> dict[str, str]:
    """The names a 战报 line may hold, each to its inspector ref: heroes to their seat
    (``seat:N``), card names to the card (``card:ID``)."""
    refs: dict[str, str] = {}
    for cid in cards:
        c = cards[cid]
        refs.setdefault(c.name, f"card:{c.id}")
        if c.kind == "hero" and c.title:  # 「洛夏爵士（魔化骑士）」: not 魔 + 骑士
            refs.setdefault(c.title, f"card:{c.id}")
    for p in obs["players"]:
        if p["hero_name"]:
            refs[p["hero_name"]] = f"seat:{p['seat']}"
    return refs
