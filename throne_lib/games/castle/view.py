"""What one seat may see (CH-UI-1, CH-UI-2) and the determinization behind it.

``observe(state, seat)`` is plain JSON-able data: public everything, private only the
seat's own identity, hand and what its 间谍工作 showed it. ``resample_state`` redraws
everything hidden from a seat (other identities not yet revealed, other hands, the deck
order, the RNG) consistently with that view.
"""

from __future__ import annotations

import random
from typing import Any

from throne_lib.games.castle.rules import ROLE_ZH
from throne_lib.games.castle.state import Player, State


def _status(p: Player) -> list[str]:
    # Each flag read as the typed attribute it is, not by ``getattr`` on its name: compiled,
    # the named lookups were ~5% of an ISMCTS decision at 7 seats (docs/speed.md). An
    # ``if`` per flag: a comprehension over (flag, label) pairs is ~7x slower compiled.
    out = []
    if p.stun:
        out.append("眩晕")
    if p.curse:
        out.append("诅咒")
    if p.frozen:
        out.append("定身")
    if p.poison:
        out.append(f"中毒{p.poison}")
    if p.mirror:
        out.append("镜影")
    if p.banner:
        out.append("黑暗旌旗")
    if p.aim:
        out.append("瞄准")
    if p.swift:
        out.append("疾风")
    return out


def observe(s: State, seat: int | None, log: list[str] | None = None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator, the public part only)."""
    players = []
    dist = s.distances(seat) if seat is not None else None
    for p in s.players:
        own = seat == p.seat
        known = own or p.revealed or not s.rules.hidden_identities
        players.append(
            {
                "seat": p.seat,
                "position": s.pos[p.seat],
                "hero": p.hero,
                "hero_name": s.cards[p.hero].name if p.hero else "",
                "hp": p.hp,
                "max_hp": p.max_hp,
                "hand_size": len(p.hand),
                "conjured": p.conjured,
                "equip": dict(p.equip),
                "soldiers": [
                    {
                        "ref": x.ref,
                        "card": x.card,
                        "hp": x.hp,
                        "max_hp": x.max_hp,
                        "poison": x.poison,
                        "cursed": bool(x.curse),
                        "coward": x.coward,
                    }
                    for x in p.soldiers
                ],  # fmt: skip
                "status": _status(p),
                "alive": p.alive,
                "dying": p.dying,
                "holding": bool(p.hold),
                "camp": p.camp if p.declared or p.camp_fixed and p.revealed else "",
                "role": p.role if known else "?",
                "role_zh": ROLE_ZH.get(p.role, "") if known else "?",
                "leadership": p.leadership,
                "mana": p.mana if s.stage == "prep" else 0,
                "distance": dist[p.seat] if dist is not None else None,
            }
        )
    me = s.players[seat] if seat is not None else None
    pr = s.prompt
    prompt: dict[str, Any] | None = None
    if pr is not None:  # CH-UI-3: an answer is asked of that seat alone
        if seat is not None and pr.seat == seat:
            prompt = {"kind": pr.kind, "mine": True, "detail": prompt_detail(s, pr)}
        elif pr.kind in ("play", "command_pick", "order", "discard") and pr.seat == s.turn_seat:
            prompt = {"kind": pr.kind, "mine": False, "seat": pr.seat}
        else:
            prompt = {"kind": "awaiting", "mine": False}
    return {
        "game": "castle",
        "seat": seat,
        "num_seats": s.n,
        "stage": s.stage,
        "round": s.round,
        "turn_seat": s.turn_seat,
        "step": s.step,
        "players": players,
        "hand": list(me.hand) if me else [],
        "role": me.role if me else "",
        "spied": {str(k): list(v) for k, v in me.spied.items()} if me else {},
        "deck_size": len(s.deck),
        "discard": list(s.discard) if s.rules.public_discard else [],
        "discard_size": len(s.discard),
        "fallen": list(s.fallen),
        "supply": list(s.supply),
        "harm": [list(r) for r in s.harm],
        "helped": [list(r) for r in s.helped],
        "prompt": prompt,
        "log": log if log is not None else log_for(s, seat, 0),
        "result": list(s.result) if s.result else None,
        "end_rule": s.end_rule,
    }


def log_for(s: State, seat: int | None, start: int) -> list[str]:
    """The 战报 lines ``seat`` reads from event ``start`` on (None: the public text)."""
    return [e.seen_by(seat) if seat is not None else e.text for e in s.log[start:]]


def prompt_detail(s: State, pr: Any) -> dict[str, Any]:
    """What the asked seat is told about its decision — public facts only (who attacks
    whom, which card it answers), never who else may answer."""
    d = pr.data
    if pr.kind in ("block", "abyss", "axe", "greatsword") and d:
        a = d[0]
        need = 2 if a.deadly and a.by_hero else 1
        return {"attacker": a.attacker, "target": a.target, "source": a.src, "need": need}
    if pr.kind == "counter":
        cid, targets, chain = d[0], d[1], d[2]
        top = cid if len(chain) == 1 else "counterspell"
        return {"card": top, "targets": list(targets), "caster": chain[-1], "original": cid,
                "original_caster": chain[0]}  # fmt: skip
    if pr.kind in ("ice", "roar", "fb_split"):
        return {"source": d[0]}
    if pr.kind == "throes":
        return {"target": d[0]}
    if pr.kind == "adopt":
        return {"dead": d[0]}
    if pr.kind == "discard":
        return {"purpose": d[0], "count": d[1]}
    if pr.kind == "pick_hero":
        return {"offer": list(d[0])}
    return {}


def reveal_all(s: State) -> dict[str, Any]:
    """CH-UI-5: a replay's view — every identity, every hand, the deck order."""
    view = observe(s, None)
    for p, d in zip(s.players, view["players"], strict=True):
        d["role"] = p.role
        d["role_zh"] = ROLE_ZH.get(p.role, "")
        d["hand"] = list(p.hand)
    view["deck"] = list(s.deck)
    view["log"] = [e.seen_by(None) for e in s.log]
    return view


def resample_state(s: State, seat: int, rng: random.Random) -> State:
    """A copy with all that ``seat`` can't see redrawn from ``rng``."""
    t = s.copy()
    hidden = [p for p in t.players if p.seat != seat and not p.revealed]
    roles = sorted(p.role for p in hidden)  # sorted first: the draw depends on the view only
    rng.shuffle(roles)
    for p, role in zip(hidden, roles, strict=True):
        deal_role(p, role)
    return redeal_shared_pile(t, seat, rng)


def deal_role(p: Player, role: str) -> None:
    """Give the hidden player ``p`` the identity ``role`` (and the camp it implies: a
    hidden 中立 has declared none)."""
    p.role = role
    p.camp = {"enemy": "enemy", "reinforcement": "castle"}.get(role, "")


def redeal_shared_pile(t: State, seat: int, rng: random.Random) -> State:
    """``t`` (a copy, changed in place) with the other players' hands and the one shared
    draw pile redealt from ``rng`` (conjured mana stays where it is), and a new RNG."""
    pool = list(t.deck)
    others = [p for p in t.players if p.seat != seat]
    for p in others:
        pool.extend(c for c in p.hand if c != "conjured_mana")
    pool.sort()
    rng.shuffle(pool)
    for p in others:
        keep = [c for c in p.hand if c == "conjured_mana"]
        k = len(p.hand) - len(keep)
        p.hand = keep + [pool.pop() for _ in range(k)]
        p.spied = {}
    t.deck = pool
    t.rng = random.Random(rng.getrandbits(64))
    return t
