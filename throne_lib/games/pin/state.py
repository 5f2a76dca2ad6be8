"""The mutable state of a PIN match: plain slotted objects, cheap to copy.

HQs are stored like units (uid 0 for side 甲's, 1 for 乙's) so damage and slot counting
have one path; ``is_hq`` tells them apart where the rules do (PIN-HQ-*).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Unit:
    uid: int
    card: str
    side: int
    cell: int
    hp: int
    max_hp: int
    ads: int = 0  # charges left (PIN-DMG-7)
    shield: int = 0  # 护盾 pool (PIN-DMG-8)
    mshield: int = 0  # 魔法护盾 pool (PIN-DMG-9)
    ward: int = 0  # "魔法"护盾 charges (PIN-DMG-10)
    attack_bonus: int = 0  # 攻击±N (PIN-EFFECT-6)
    activated: bool = False  # PIN-ACT-1
    actions: int = 0  # actions left this turn (PIN-ACT-3)
    spent: int = 0  # actions spent since activation (PIN-CHAOS-4 hover)
    stopped: bool = False  # PIN-MOVE-3
    chaos_until: int = 0  # the turn whose end removes chaos; 0 = not in chaos
    deployed_turn: int = 0
    is_hq: bool = False

    def clone(self) -> Unit:
        return Unit(
            self.uid, self.card, self.side, self.cell, self.hp, self.max_hp, self.ads,
            self.shield, self.mshield, self.ward, self.attack_bonus, self.activated,
            self.actions, self.spent, self.stopped, self.chaos_until, self.deployed_turn,
            self.is_hq,
        )  # fmt: skip

    @property
    def in_chaos(self) -> bool:
        return self.chaos_until > 0

    def key(self) -> tuple[Any, ...]:
        return (
            self.uid, self.card, self.side, self.cell, self.hp, self.max_hp, self.ads,
            self.shield, self.mshield, self.ward, self.attack_bonus, self.activated,
            self.actions, self.spent, self.stopped, self.chaos_until, self.deployed_turn,
        )  # fmt: skip


def ref(uid: int) -> str:
    """Text name of a unit or HQ in actions: ``u7``, ``hq0``."""
    return f"hq{uid}" if uid < 2 else f"u{uid}"


def parse_ref(text: str) -> int:
    if text in ("hq0", "hq1"):
        return int(text[2])
    if text.startswith("u") and text[1:].isdigit() and int(text[1:]) >= 2:
        return int(text[1:])
    raise ValueError(f"expected a unit like u7 or an HQ hq0/hq1, got {text!r}")


@dataclass(slots=True)
class Decision:
    """What the match waits for besides the active side's free choice (PIN-TURN-8)."""

    kind: str  # mulligan | reveal | draw | window | retreat | target
    seat: int
    data: dict[str, Any] = field(default_factory=dict)

    def key(self) -> tuple[Any, ...]:
        return (self.kind, self.seat, tuple(sorted((k, repr(v)) for k, v in self.data.items())))


@dataclass(slots=True)
class State:
    rng: random.Random
    units: dict[int, Unit] = field(default_factory=dict)
    slots: dict[int, list[int]] = field(default_factory=dict)  # cell -> uids by arrival
    hands: list[list[str]] = field(default_factory=lambda: [[], []])
    decks: list[list[str]] = field(default_factory=lambda: [[], []])  # top = last
    graves: list[list[str]] = field(default_factory=lambda: [[], []])
    removed: list[list[str]] = field(default_factory=lambda: [[], []])
    known: list[list[str]] = field(default_factory=lambda: [[], []])  # hand cards all have seen
    cp: list[int] = field(default_factory=lambda: [0, 0])
    cp_max: list[int] = field(default_factory=lambda: [0, 0])
    turn: int = 0  # turns begun; turn 1 is the first player's first
    active: int = 0
    first: int = -1
    phase: str = "setup"  # setup | draw | action | over
    paid_draw_used: bool = False
    pending: Decision | None = None
    queue: list[tuple[Any, ...]] = field(default_factory=list)  # steps, top = last
    after: list[tuple[int, str, dict[str, Any]]] = field(default_factory=list)
    cancelled: set[int] = field(default_factory=set)
    next_uid: int = 2
    next_event: int = 1
    winner: int | None = None  # -1 = draw
    mulliganed: list[bool] = field(default_factory=lambda: [False, False])
    revealed: list[str] = field(default_factory=lambda: ["", ""])
    ties: int = 0
    last_drawn: list[str] = field(default_factory=lambda: ["", ""])
    end_reason: str = ""  # why the match ended (follows from winner and phase: not in key())

    def clone(self) -> State:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return State(
            rng=rng,
            units={k: u.clone() for k, u in self.units.items()},
            slots={k: list(v) for k, v in self.slots.items()},
            hands=[list(h) for h in self.hands],
            decks=[list(d) for d in self.decks],
            graves=[list(g) for g in self.graves],
            removed=[list(r) for r in self.removed],
            known=[list(k) for k in self.known],
            cp=list(self.cp),
            cp_max=list(self.cp_max),
            turn=self.turn,
            active=self.active,
            first=self.first,
            phase=self.phase,
            paid_draw_used=self.paid_draw_used,
            pending=None
            if self.pending is None
            else Decision(self.pending.kind, self.pending.seat, dict(self.pending.data)),
            queue=list(self.queue),
            after=[(s, t, dict(c)) for s, t, c in self.after],
            cancelled=set(self.cancelled),
            next_uid=self.next_uid,
            next_event=self.next_event,
            winner=self.winner,
            mulliganed=list(self.mulliganed),
            revealed=list(self.revealed),
            ties=self.ties,
            last_drawn=list(self.last_drawn),
            end_reason=self.end_reason,
        )

    def key(self) -> tuple[Any, ...]:
        return (
            tuple(u.key() for _, u in sorted(self.units.items())),
            tuple(sorted((k, tuple(v)) for k, v in self.slots.items())),
            tuple(map(tuple, self.hands)),
            tuple(map(tuple, self.decks)),
            tuple(map(tuple, self.graves)),
            tuple(map(tuple, self.removed)),
            tuple(self.cp),
            tuple(self.cp_max),
            self.turn,
            self.active,
            self.first,
            self.phase,
            self.paid_draw_used,
            None if self.pending is None else self.pending.key(),
            tuple(repr(s) for s in self.queue),
            self.winner,
            tuple(self.revealed),
            self.ties,
        )

    @property
    def round(self) -> int:
        return (self.turn + 1) // 2
