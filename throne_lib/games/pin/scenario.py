"""Scenario notation: a position as text, like a chess FEN spread over lines.

::

    # 甲's tanks next to 乙's templars
    seed 3
    turn 5                 # turns begun; round = (turn + 1) // 2
    active 甲
    first 甲
    cp 甲 6/8              # current/max
    cp 乙 4/6
    hq 甲 anv_hq hp=150 ads=0
    hq 乙 aur_hq
    unit u2 甲 anv_tanks 008 hp=40 activated act=1 stopped
    unit u3 乙 aur_templars 013 chaos=6
    hand 甲 anv_barrage anv_militia
    deck 甲 anv_rifles anv_rifles        # bottom first, top last
    grave 乙 aur_chaos
    known 乙 aur_templars               # hand cards both sides have seen

Units are listed by cell, then slot; missing lines mean empty. ``to_text`` writes every
field that differs from a fresh unit, so ``load(to_text(m))`` rebuilds the same state.
Only positions where the active side chooses freely (action phase, or its paid-draw
choice with ``pending draw``) are written: a match waiting inside a resolution is not.
"""

from __future__ import annotations

import random

from throne_lib.games.pin.cards import PinCardDB
from throne_lib.games.pin.core import fresh_unit
from throne_lib.games.pin.hexes import HQ_CELLS, SIDE_NAMES, label, parse_cell
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.rules import PIN_RULES, Rules
from throne_lib.games.pin.state import Decision, State, Unit, parse_ref, ref

_FIELDS = (
    "hp",
    "max_hp",
    "ads",
    "shield",
    "mshield",
    "ward",
    "atk",
    "act",
    "spent",
    "chaos",
    "deployed",
)
_FLAGS = ("activated", "stopped")


class ScenarioError(ValueError):
    """A line the notation cannot read; names the line number."""


def _side(text: str, n: int) -> int:
    if text in ("甲", "0"):
        return 0
    if text in ("乙", "1"):
        return 1
    raise ScenarioError(f"line {n}: expected a side 甲 or 乙, got {text!r}")


def load_scenario(text: str, db: PinCardDB, rules: Rules = PIN_RULES) -> PinMatch:
    seed = 0
    st = State(rng=random.Random(0))
    m = PinMatch(db, rules, st)
    hqs: dict[int, tuple[str, dict[str, str]]] = {}
    units: list[tuple[int, int, str, int, dict[str, str], set[str]]] = []
    st.phase = "action"
    pending = ""
    for n, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, *rest = line.split()
        try:
            if word == "seed":
                seed = int(rest[0])
            elif word == "turn":
                st.turn = int(rest[0])
            elif word == "active":
                st.active = _side(rest[0], n)
            elif word == "first":
                st.first = _side(rest[0], n)
            elif word == "phase":
                if rest[0] not in ("action", "draw", "over"):
                    raise ScenarioError(f"line {n}: phase is action, draw or over, got {rest[0]!r}")
                st.phase = rest[0]
            elif word == "pending":
                if rest != ["draw"]:
                    raise ScenarioError(f"line {n}: only 'pending draw' can be written")
                pending = "draw"
            elif word == "paid_draw_used":
                st.paid_draw_used = True
            elif word == "winner":
                st.winner = -1 if rest[0] == "draw" else _side(rest[0], n)
            elif word == "cp":
                cur, _, top = rest[1].partition("/")
                side = _side(rest[0], n)
                st.cp[side], st.cp_max[side] = int(cur), int(top)
            elif word == "hq":
                hqs[_side(rest[0], n)] = (rest[1], _kv(rest[2:], n))
            elif word == "unit":
                flags = {r for r in rest[4:] if "=" not in r}
                bad = flags - set(_FLAGS)
                if bad:
                    raise ScenarioError(
                        f"line {n}: unknown unit flag(s) {sorted(bad)}; known: {_FLAGS}"
                    )
                units.append(
                    (
                        parse_ref(rest[0]),
                        _side(rest[1], n),
                        rest[2],
                        parse_cell(rest[3]),
                        _kv(rest[4:], n),
                        flags,
                    )
                )
            elif word in ("hand", "deck", "grave", "removed", "known"):
                side = _side(rest[0], n)
                unknown = [c for c in rest[1:] if c not in db]
                if unknown:
                    raise ScenarioError(f"line {n}: unknown card id(s) {unknown}")
                getattr(st, {"hand": "hands", "deck": "decks", "grave": "graves"}.get(word, word))[
                    side
                ][:] = rest[1:]
            else:
                raise ScenarioError(f"line {n}: unknown line {word!r}")
        except (IndexError, ValueError) as exc:
            if isinstance(exc, ScenarioError):
                raise
            raise ScenarioError(f"line {n}: cannot read {raw.strip()!r} ({exc})") from None
    st.rng = random.Random(seed)
    for side in (0, 1):
        if side not in hqs:
            raise ScenarioError(f"missing 'hq {SIDE_NAMES[side]} CARD_ID' line")
        card, kv = hqs[side]
        if card not in db:
            raise ScenarioError(f"unknown HQ card {card!r}")
        _apply_kv(m.place_hq(side, card), kv)
    for uid, side, card, cell, kv, flags in units:
        if card not in db or db[card].kind != "单位":
            raise ScenarioError(f"unit {ref(uid)}: {card!r} is not a unit card")
        u = fresh_unit(db, uid, card, side, cell)
        u.activated, u.stopped = "activated" in flags, "stopped" in flags
        _apply_kv(u, kv)
        if uid in st.units:
            raise ScenarioError(f"unit {ref(uid)} appears twice")
        st.units[uid] = u
        st.slots.setdefault(cell, []).append(uid)
        st.next_uid = max(st.next_uid, uid + 1)
    if pending:
        st.pending = Decision("draw", st.active)
    st.mulliganed = [True, True]
    return m


def _kv(items: list[str], n: int) -> dict[str, str]:
    out = {}
    for item in items:
        if "=" in item:
            k, _, v = item.partition("=")
            if k not in _FIELDS:
                raise ScenarioError(f"line {n}: unknown field {k!r}; known: {', '.join(_FIELDS)}")
            out[k] = v
    return out


def _apply_kv(u: Unit, kv: dict[str, str]) -> None:
    names = {
        "atk": "attack_bonus",
        "act": "actions",
        "chaos": "chaos_until",
        "deployed": "deployed_turn",
    }
    for k, v in kv.items():
        setattr(u, names.get(k, k), int(v))
    if "max_hp" not in kv and "hp" in kv and int(kv["hp"]) > u.max_hp:
        u.max_hp = int(kv["hp"])


def to_text(m: PinMatch, seed: int = 0) -> str:
    """The position as notation (PIN scenario); raises ValueError mid-resolution."""
    st = m.state
    if (
        st.queue
        or (st.pending is not None and st.pending.kind != "draw")
        or st.phase not in ("action", "draw", "over")
    ):
        raise ValueError("only a position where the active side chooses freely can be written")
    out = [f"seed {seed}", f"turn {st.turn}", f"active {SIDE_NAMES[st.active]}"]
    if st.first >= 0:
        out.append(f"first {SIDE_NAMES[st.first]}")
    if st.phase != "action":
        out.append(f"phase {st.phase}")
    if st.pending is not None:
        out.append("pending draw")
    if st.paid_draw_used:
        out.append("paid_draw_used")
    if st.winner is not None:
        out.append(f"winner {'draw' if st.winner < 0 else SIDE_NAMES[st.winner]}")
    for side in (0, 1):
        out.append(f"cp {SIDE_NAMES[side]} {st.cp[side]}/{st.cp_max[side]}")
    for side in (0, 1):
        hq = st.units[side]
        out.append(" ".join([f"hq {SIDE_NAMES[side]} {hq.card}", *_fields(m, hq)]).rstrip())
        assert hq.cell == HQ_CELLS[side]
    for u in m.units():
        head = f"unit {ref(u.uid)} {SIDE_NAMES[u.side]} {u.card} {label(u.cell)}"
        out.append(" ".join([head, *_fields(m, u)]))
    for word, piles in (
        ("hand", st.hands),
        ("deck", st.decks),
        ("grave", st.graves),
        ("removed", st.removed),
        ("known", st.known),
    ):
        for side in (0, 1):
            if piles[side]:
                out.append(" ".join([word, SIDE_NAMES[side], *piles[side]]))
    return "\n".join(out) + "\n"


def _fields(m: PinMatch, u: Unit) -> list[str]:
    c = m.card(u)
    fresh = {
        "hp": c.hp if not u.is_hq else (c.hp or m.rules.hq_hp),
        "ads": c.kw("ads"),
        "shield": c.kw("shield"),
        "mshield": c.kw("mshield"),
        "ward": c.kw("ward"),
    }
    values = {
        "hp": u.hp,
        "max_hp": u.max_hp,
        "ads": u.ads,
        "shield": u.shield,
        "mshield": u.mshield,
        "ward": u.ward,
        "atk": u.attack_bonus,
        "act": u.actions,
        "spent": u.spent,
        "chaos": u.chaos_until,
        "deployed": u.deployed_turn,
    }
    fresh["max_hp"] = fresh["hp"]
    out = [f"{k}={v}" for k, v in values.items() if v != fresh.get(k, 0)]
    out += [f for f in _FLAGS if getattr(u, f)]
    return out
