"""What a seat may see (PIN-TURN-8), determinization for search, and Chinese text for
actions — the API a UI or an agent reads."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any, TypeVar

from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.core import PinCore
from throne_lib.games.pin.hexes import SIDE_NAMES, label
from throne_lib.games.pin.state import Unit, parse_ref, ref

M = TypeVar("M", bound=PinCore)  # resample returns a copy of the match it is given


def unit_view(m: PinCore, u: Unit) -> dict[str, Any]:
    c = m.card(u)
    return {
        "ref": ref(u.uid),
        "card": u.card,
        "name": c.name,
        "side": u.side,
        "cell": u.cell,
        "hp": u.hp,
        "max_hp": u.max_hp,
        "attack": m.attack(u),
        "ads": u.ads,
        "shield": u.shield,
        "mshield": u.mshield,
        "ward": u.ward,
        "activated": u.activated,
        "actions": u.actions,
        "stopped": u.stopped,
        "chaos_until": u.chaos_until,
        "is_hq": u.is_hq,
    }


def observation(m: PinCore, seat: int) -> dict[str, Any]:
    """Everything public plus the seat's own hand; hands and deck order hidden."""
    st = m.state
    other = 1 - seat
    d = st.pending
    pending: dict[str, Any] | None = None
    if d is not None:
        pending = {"kind": d.kind, "seat": d.seat}
        if d.seat == seat and d.kind in ("retreat", "target"):
            pending.update(
                {k: v for k, v in d.data.items() if k in ("uid", "cells", "hand", "options")}
            )
        if d.kind == "window":
            pending["trigger"] = d.data["trigger"]
    revealed = (
        list(st.revealed)
        if all(st.revealed)
        else [st.revealed[seat] if i == seat else "" for i in (0, 1)]
    )
    return {
        "seat": seat,
        "turn": st.turn,
        "round": st.round,
        "phase": st.phase,
        "active": st.active,
        "first": st.first,
        "winner": st.winner,
        "cp": list(st.cp),
        "cp_max": list(st.cp_max),
        "hand": sorted(st.hands[seat]),
        "hand_counts": [len(h) for h in st.hands],
        "deck_counts": [len(dk) for dk in st.decks],
        "known_hand": sorted(st.known[other]),
        "graves": [list(g) for g in st.graves],
        "removed": [list(r) for r in st.removed],
        "hqs": [unit_view(m, st.units[s]) for s in (0, 1)],
        "units": [unit_view(m, u) for u in m.units()],
        "slots": {label(c): [ref(i) for i in ids] for c, ids in sorted(st.slots.items())},
        "pending": pending,
        "revealed": revealed,
        "mulliganed": list(st.mulliganed),
        "paid_draw_used": st.paid_draw_used,
    }


def resample(m: M, seat: int, rng: random.Random) -> M:
    """A copy with the opponent's unknown hand cards and both deck orders redrawn.

    The opponent's hand keeps its size and the cards everyone has seen enter it (a kept
    reveal, a retreat to hand, a generated card); the rest is drawn from the pool of its
    unseen cards (hand + deck). The seat's own deck is reshuffled (its order is hidden
    from the seat too). Pools are sorted before they are shuffled, so the copy depends on
    ``observation(seat)`` and ``rng`` only."""
    out = m.copy()
    st = out.state
    other = 1 - seat
    known = Counter(st.known[other])
    hand = Counter(st.hands[other])
    kept = sorted((hand & known).elements())
    pool = sorted(list((hand - known).elements()) + st.decks[other])  # the view only
    rng.shuffle(pool)
    n = len(st.hands[other]) - len(kept)
    st.hands[other] = kept + pool[:n]
    st.decks[other] = pool[n:]
    st.decks[seat] = sorted(st.decks[seat])
    rng.shuffle(st.decks[seat])
    picked = st.revealed[other]
    if picked and not all(st.revealed) and picked not in st.hands[other]:
        st.revealed[other] = rng.choice(st.hands[other])  # its secret pick is redrawn too
    st.rng = random.Random(rng.getrandbits(64))
    return out


def describe(m: PinCore, a: PinAction) -> str:
    """Chinese text of an action for buttons and logs."""
    db, args = m.db, a.args

    def who(t: str) -> str:
        if t == "-":
            return ""
        if t[0].isdigit():
            return f"格{t}"
        return m.name(parse_ref(t))

    def to(t: str) -> str:  # an optional target ("-": none) after an arrow
        return f" → {who(t)}" if t != "-" else ""

    k = a.kind
    if k == "mulligan":
        return (
            "不换牌"
            if args[0] == "-"
            else "换牌：" + "、".join(db[c].name for c in args[0].split("+"))
        )
    if k == "reveal":
        return f"展示 {db[args[0]].name}（{db[args[0]].cost}）"
    if k == "draw":
        return f"花费{m.rules.paid_draw_cost}抽牌"
    if k == "skip":
        return "不额外抽牌"
    if k == "deploy":
        return f"部署 {db[args[0]].name} → {args[1]}（{db[args[0]].cost}）"
    if k == "play":
        return f"指令 {db[args[0]].name}{to(args[1])}（{db[args[0]].cost}）"
    if k == "activate":
        u = m.state.units[parse_ref(args[0])]
        return f"激活 {m.name(u.uid)}（{m.card(u).action_cost}）"
    if k == "move":
        return f"{who(args[0])} 移动 → {args[1]}"
    if k == "attack":
        return f"{who(args[0])} 攻击 {who(args[1])}（{args[2]}）"
    if k == "special":
        return f"{who(args[0])} 特殊动作{to(args[1])}"
    if k == "end":
        return "结束回合"
    if k == "counter":
        return f"反制 {db[args[0]].name}{to(args[1])}（{db[args[0]].cost}）"
    if k == "pass":
        return "放弃"
    if k == "retreat":
        return f"{who(args[0])} {'返回手牌' if args[1] == 'hand' else '撤退 → ' + args[1]}"
    if k == "target":
        return f"目标 {who(args[0])}"
    return a.text()


def side_name(side: int) -> str:
    return SIDE_NAMES[side]
