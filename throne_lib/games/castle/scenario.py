"""Scenario notation: a compact text form of a battle position, with a round trip.

Example (one ``seat`` line per seat; unknown keys are an error naming the line)::

    castle players=4 seed=7 round=1 turn=0 at=play
    seat 0 lord li_wei hp=4/4 hand=sword,heal equip=abyss_sword soldiers=archer,goblin:1
    seat 1 enemy tang_na hp=5/5 hand=mana flags=mirror stun=1
    seat 2 enemy bai_pa hp=2/5 pos=3
    seat 3 enemy di_shi hp=3/3 poison=1
    deck=sword,sword,heal
    discard=

``at=play`` starts in the 出牌阶段 of ``turn`` (no draw); ``at=turn`` at its turn start.
The deck's top card is its last.
"""

from __future__ import annotations

import random

from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.core import push, run
from throne_lib.games.castle.rules import ROLES, CastleRules
from throne_lib.games.castle.state import Player, Soldier, State
from throne_lib.games.castle.turn import push_turn

FLAGS = ("dying", "mirror", "banner", "aim", "swift", "embrace", "declared", "camp_fixed",
         "revealed", "defected")  # fmt: skip
INTS = ("stun", "curse", "frozen", "poison", "hold", "leadership", "last_source", "pos",
        "sword_attacks", "conjured")  # fmt: skip


class ScenarioError(ValueError):
    """A scenario text that can't be read; the message names the line."""


def _split(v: str) -> list[str]:
    return [x for x in v.split(",") if x]


def from_text(text: str, cards: CastleCards, rules: CastleRules | None = None) -> State:
    rules = rules or CastleRules()
    lines = [ln.strip() for ln in text.strip().splitlines() if ln.strip()]
    if not lines or not lines[0].startswith("castle"):
        raise ScenarioError("line 1: expected 'castle players=N seed=S round=R turn=T'")
    head = dict(kv.split("=", 1) for kv in lines[0].split()[1:])
    n = int(head["players"])
    seed = int(head.get("seed", 0))
    players: list[Player] = []
    pos = list(range(n))
    s = State(
        rules=rules, cards=cards, rng=random.Random(seed), seed=seed, players=players, pos=pos
    )
    s.harm = [[0] * n for _ in range(n)]
    s.helped = [[0] * n for _ in range(n)]
    for no, ln in enumerate(lines[1:], start=2):
        parts = ln.split()
        if parts[0] == "seat":
            _seat(s, parts, no)
        elif "=" in parts[0]:
            key, val = ln.split("=", 1)
            if key not in ("deck", "discard", "fallen", "set_aside"):
                raise ScenarioError(f"line {no}: unknown zone {key!r}")
            for cid in _split(val):
                if cid not in cards:
                    raise ScenarioError(f"line {no}: unknown card {cid!r}")
            setattr(s, key, _split(val))
        else:
            raise ScenarioError(f"line {no}: expected 'seat …' or 'zone=cards', got {ln!r}")
    if len(players) != n:
        raise ScenarioError(f"line 1: players={n} but {len(players)} seat lines")
    s.stage = "battle"
    s.start_pos = tuple(s.pos)  # the scenario's seating is its start (CH-TURN-1 by_hero)
    s.round = int(head.get("round", 1))
    seat = int(head.get("turn", 0))
    at = head.get("at", "play")
    if at == "turn":
        s.turn_pos = (s.pos[seat] - 1) % n
        s.turn_seat = seat
        push(s, ("turn", seat))
    else:
        s.turn_seat, s.turn_pos, s.turn_no, s.step = seat, s.pos[seat], 1, "play"
        push_turn(s, seat, "play_phase")
    run(s)
    return s


def _seat(s: State, parts: list[str], no: int) -> None:
    try:
        i, role, hero = int(parts[1]), parts[2], parts[3]
    except (IndexError, ValueError):
        raise ScenarioError(f"line {no}: expected 'seat N ROLE HERO key=value…'") from None
    if role not in ROLES or hero not in s.cards or s.cards[hero].kind != "hero":
        raise ScenarioError(f"line {no}: unknown role {role!r} or hero {hero!r}")
    if i != len(s.players):
        raise ScenarioError(f"line {no}: seats must be listed 0, 1, 2 … in order")
    c = s.cards[hero]
    lord = role == "lord"
    p = Player(seat=i, role=role, hero=hero, hp=c.hp, max_hp=c.hp)
    p.camp = {"lord": "castle", "reinforcement": "castle", "enemy": "enemy"}.get(role, "")
    p.revealed = lord
    p.leadership = -1 if c.has("unlimited_leadership") else (
        s.rules.lord_leadership if lord else s.rules.leadership
    )  # fmt: skip
    p.drafting = False
    for kv in parts[4:]:
        if "=" not in kv:
            if kv in FLAGS:
                setattr(p, kv, True)
                continue
            raise ScenarioError(f"line {no}: expected key=value, got {kv!r}")
        key, val = kv.split("=", 1)
        if key == "hp":
            hp, _, mx = val.partition("/")
            p.hp, p.max_hp = int(hp), int(mx or c.hp)
        elif key == "hand":
            p.hand = _split(val)
        elif key == "equip":
            for cid in _split(val):
                p.equip[s.cards[cid].slot] = cid
        elif key == "soldiers":
            for item in _split(val):
                cid, _, hp = item.partition(":")
                sc = s.cards[cid]
                p.soldiers.append(
                    Soldier(s.next_uid, cid, int(hp or sc.hp), sc.hp, sc.kind.startswith("token"))
                )
                s.next_uid += 1
        elif key == "camp":
            p.camp = "" if val == "none" else val
        elif key == "flags":
            for f in _split(val):
                if f not in FLAGS:
                    raise ScenarioError(f"line {no}: unknown flag {f!r}; known: {', '.join(FLAGS)}")
                setattr(p, f, True)
        elif key in INTS:
            if key == "pos":
                s.pos[i] = int(val)
            else:
                setattr(p, key, int(val))
        else:
            raise ScenarioError(f"line {no}: unknown key {key!r}")
        for cid in p.hand + list(p.equip.values()):
            if cid not in s.cards:
                raise ScenarioError(f"line {no}: unknown card {cid!r}")
    s.players.append(p)


def to_text(s: State) -> str:
    """The position as scenario text (the turn's seat and round, zones, every seat)."""
    lines = [f"castle players={s.n} seed={s.seed} round={s.round} turn={s.turn_seat} at=play"]
    for p in s.players:
        c = s.cards[p.hero]
        bits = [f"seat {p.seat} {p.role} {p.hero} hp={p.hp}/{p.max_hp}"]
        if p.hand:
            bits.append("hand=" + ",".join(p.hand))
        if p.equip:
            bits.append("equip=" + ",".join(p.equip[k] for k in s.rules.slots if k in p.equip))
        if p.soldiers:
            bits.append("soldiers=" + ",".join(f"{x.card}:{x.hp}" for x in p.soldiers))
        default_camp = {"lord": "castle", "reinforcement": "castle", "enemy": "enemy"}.get(
            p.role, ""
        )
        if p.camp != default_camp:
            bits.append(f"camp={p.camp or 'none'}")
        flags = [f for f in FLAGS if getattr(p, f) and not (f == "revealed" and p.role == "lord")]
        if flags:
            bits.append("flags=" + ",".join(flags))
        default_lead = -1 if c.has("unlimited_leadership") else (
            s.rules.lord_leadership if p.role == "lord" else s.rules.leadership
        )  # fmt: skip
        for key in INTS:
            val = s.pos[p.seat] if key == "pos" else getattr(p, key)
            default = {"pos": p.seat, "leadership": default_lead, "last_source": -1}.get(key, 0)
            if val != default:
                bits.append(f"{key}={val}")
        lines.append(" ".join(bits))
    for zone in ("deck", "discard", "fallen", "set_aside"):
        lines.append(f"{zone}=" + ",".join(getattr(s, zone)))
    return "\n".join(lines)
