"""Plain, cheaply copied match state: seats (players), soldiers, zones, the op stack.

Units are named by short references: ``h3`` is the hero of seat 3, ``s12`` the soldier
with uid 12. The resolution of rules is a stack of small tuples (ops) run by
:mod:`.engine`; a decision a seat must take is a :class:`Prompt`.
"""

from __future__ import annotations

import copy
import random
from dataclasses import dataclass, field
from typing import Any

from throne_lib.compiled import reduce_dataclass
from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.events import Event
from throne_lib.games.castle.rules import CastleRules


@dataclass(slots=True)
class Soldier:
    uid: int
    card: str
    hp: int
    max_hp: int
    token: bool = False
    poison: int = 0
    poison_src: int = -1
    curse: int = 0  # 0 none, 1 for its commander's next command phase, 2 this phase
    thick_turn: int = -1  # turn number in which 厚皮 was used up
    attacks: int = 0  # attacks made this command phase
    coward: bool = False  # failed 怯懦 this turn

    @property
    def ref(self) -> str:
        return f"s{self.uid}"


def hero_seat(ref: object) -> int | None:
    """The seat of a hero's ref (``h3`` -> 3, see :attr:`Player.ref`); None for any other
    ref or target (a soldier's ``s12``, a city of 城池战)."""
    text = str(ref)
    return int(text[1:]) if text[:1] == "h" and text[1:].isdigit() else None


@dataclass(slots=True)
class Player:
    seat: int
    role: str
    hero: str = ""
    hp: int = 0
    max_hp: int = 0
    camp: str = ""  # "", "enemy" or "castle" (CH-ROLE-6)
    camp_fixed: bool = False
    declared: bool = False
    defected: bool = False  # chose 投靠 (CH-WIN-4)
    revealed: bool = False
    hand: list[str] = field(default_factory=list)
    equip: dict[str, str] = field(default_factory=dict)  # slot -> card id
    soldiers: list[Soldier] = field(default_factory=list)
    alive: bool = True
    dying: bool = False
    hold: int = 0  # 抗拒死亡: 0 none, 1 holding, 2 holding in his own (last) turn
    embrace: bool = False
    stun: int = 0  # 0 none, 1 pending (next own turn), 2 this turn
    curse: int = 0
    frozen: int = 0  # 1 frozen, 2 frozen during its own turn (ends at its end)
    poison: int = 0
    poison_src: int = -1
    mirror: bool = False
    banner: bool = False
    aim: bool = False
    swift: bool = False
    shield_turn: int = -1
    sword_attacks: int = 0
    used: set[str] = field(default_factory=set)  # abilities used this turn
    leadership: int = 0  # math: -1 = unlimited
    mana: int = 0  # preparation budget only
    conjured: int = 0  # 法力魔 given at the end of preparation (public)
    drafting: bool = True
    paid_mana: list[str] = field(default_factory=list)  # 魔 paid as costs this own turn
    paid_mana_prev: list[str] = field(default_factory=list)
    last_source: int = -1
    spied: dict[int, tuple[str, ...]] = field(default_factory=dict)  # private to this seat

    @property
    def ref(self) -> str:
        return f"h{self.seat}"

    def copy(self) -> Player:
        p = copy.copy(self)
        p.hand = list(self.hand)
        p.equip = dict(self.equip)
        p.soldiers = [copy.copy(s) for s in self.soldiers]
        p.used = set(self.used)
        p.paid_mana = list(self.paid_mana)
        p.paid_mana_prev = list(self.paid_mana_prev)
        p.spied = dict(self.spied)
        return p


@dataclass(frozen=True, slots=True)
class Prompt:
    """A decision seat ``seat`` must take now; ``kind`` selects the legal actions."""

    kind: str
    seat: int
    data: tuple[Any, ...] = ()

    def __init__(self, kind: str, seat: int, data: tuple[Any, ...] = ()) -> None:
        # written out so that mypyc compiles it (see ``Act.__init__``)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "data", data)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


@dataclass(slots=True)
class State:
    rules: CastleRules
    cards: CastleCards
    rng: random.Random
    seed: int
    players: list[Player]
    pos: list[int]  # seat -> position around the table (clockwise)
    # The positions when the battle was set up (CH-SETUP-3), for CH-TURN-1's "by_hero"
    # reading; fixed once set up, so not part of the canonical state.
    start_pos: tuple[int, ...] = ()
    deck: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    supply: list[str] = field(default_factory=list)
    set_aside: list[str] = field(default_factory=list)
    fallen: list[str] = field(default_factory=list)
    hero_pool: list[str] = field(default_factory=list)
    next_uid: int = 1
    stage: str = "setup"  # setup, prep, battle, over
    step: str = ""  # phase of the turn: start, draw, play, command, discard, end
    turn_seat: int = -1
    turn_pos: int = -1
    turn_no: int = 0
    round: int = 0
    stack: list[tuple[Any, ...]] = field(default_factory=list)
    prompt: Prompt | None = None
    log: list[Event] = field(default_factory=list)
    result: list[float] | None = None
    end_rule: str = ""
    winner: str = ""  # the winning side's label once over (end_game), "draw" for a draw
    fell_now: list[int] = field(default_factory=list)
    command_group: int = -1
    frenzy_uid: int = -1
    harm: list[list[int]] = field(default_factory=list)  # public tallies: harm[a][b]
    helped: list[list[int]] = field(default_factory=list)
    # A mode layered on this engine (城池战, throne_lib.games.cities): ``mode.ops`` replaces
    # ops by name, ``mode.draw`` draws, ``mode.seated(seat)`` keeps a seat in the circle
    # while its hero is dead, ``mode.copy()`` copies the mode's own state. None: 城堡之心.
    mode: Any = None
    # per-seat draw and discard piles (城池战's CW-DECK-1); None: the shared deck/discard
    decks: list[list[str]] | None = None
    discards: list[list[str]] | None = None

    @property
    def n(self) -> int:
        return len(self.players)

    def copy(self) -> State:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        s = copy.copy(self)
        s.rng = rng
        s.players = [p.copy() for p in self.players]
        s.pos = list(self.pos)
        for name in ("deck", "discard", "supply", "set_aside", "fallen", "hero_pool"):
            setattr(s, name, list(getattr(self, name)))
        s.stack = list(self.stack)
        s.log = list(self.log)
        s.fell_now = list(self.fell_now)
        s.harm = [list(r) for r in self.harm]
        s.helped = [list(r) for r in self.helped]
        if self.decks is not None:
            s.decks = [list(d) for d in self.decks]
        if self.discards is not None:
            s.discards = [list(d) for d in self.discards]
        if self.mode is not None:
            s.mode = self.mode.copy()
        return s

    # --- units -------------------------------------------------------------------
    def unit(self, ref: str) -> Player | Soldier | None:
        """The living unit named ``ref`` (``h3``/``s12``), or None."""
        if ref[0] == "h":
            p = self.players[int(ref[1:])]
            return p if p.alive else None
        uid = int(ref[1:])
        for p in self.players:
            for s in p.soldiers:
                if s.uid == uid:
                    return s
        return None

    def commander(self, ref: str) -> int:
        if ref[0] == "h":
            return int(ref[1:])
        uid = int(ref[1:])
        for p in self.players:
            for s in p.soldiers:
                if s.uid == uid:
                    return p.seat
        return -1

    def name(self, ref: str) -> str:
        """Chinese name of a unit for the 战报."""
        if ref[0] == "h":
            p = self.players[int(ref[1:])]
            return self.cards[p.hero].name if p.hero else f"座位{p.seat}"
        uid = int(ref[1:])
        for p in self.players:
            for s in p.soldiers:
                if s.uid == uid:
                    same = [x.uid for x in p.soldiers if x.card == s.card]
                    nth = f"{same.index(uid) + 1}" if len(same) > 1 else ""
                    return f"{self.hero_name(p.seat)}的{self.cards[s.card].name}{nth}"
        return f"士兵{uid}"

    def hero_name(self, seat: int) -> str:
        p = self.players[seat]
        return self.cards[p.hero].name if p.hero else f"座位{seat}"

    def has(self, seat: int, trait: str) -> bool:
        h = self.players[seat].hero
        return bool(h) and self.cards[h].has(trait)

    def _at(self) -> list[int]:
        """position -> seat (``pos`` is a permutation)."""
        at = [0] * len(self.pos)
        for seat, position in enumerate(self.pos):
            at[position] = seat
        return at

    def in_circle(self, seat: int) -> bool:
        """A living hero's seat, or one the mode keeps while its hero is dead."""
        return self.players[seat].alive or (self.mode is not None and self.mode.seated(seat))

    def living(self) -> list[int]:
        """Living seats in clockwise order of position (and seats a mode keeps)."""
        if self.mode is not None:
            return [s for s in self._at() if self.in_circle(s)]
        players = self.players
        return [s for s in self._at() if players[s].alive]

    def clockwise_from(self, seat: int, include: bool = False) -> list[int]:
        """Living seats clockwise starting after ``seat`` (or at it with ``include``)."""
        at = self._at()
        start = self.pos[seat]
        order = at[start:] + at[:start]
        if not include:
            order = order[1:]
        if self.mode is not None:
            return [s for s in order if self.in_circle(s)]
        players = self.players
        return [s for s in order if players[s].alive]

    def seat_distance(self, a: int, b: int) -> int:
        """CH-SEAT-2: steps between living heroes around the circle, the shorter way."""
        if a == b:
            return 0
        ring = self.living()
        if a not in ring or b not in ring:
            return 99
        return _ring_gap(ring.index(a), ring.index(b), len(ring))

    def distances(self, a: int) -> list[int]:
        """:meth:`seat_distance` from ``a`` to every seat, the ring computed once (a
        view's distance column: one ring, not one per seat)."""
        ring = self.living()
        if a not in ring:
            return [0 if b == a else 99 for b in range(self.n)]
        where = {q: k for k, q in enumerate(ring)}
        i, size = where[a], len(ring)
        out = []
        for b in range(self.n):
            j = where.get(b)
            out.append(0 if b == a else 99 if j is None else _ring_gap(i, j, size))
        return out

    def neighbours(self, seat: int) -> list[int]:
        """CH-SEAT-3: nearest living hero each way (one when only two are alive)."""
        ring = self.living()
        if seat not in ring or len(ring) < 2:
            return []
        i = ring.index(seat)
        left, right = ring[(i + 1) % len(ring)], ring[(i - 1) % len(ring)]
        return [left] if left == right else [left, right]


def _ring_gap(i: int, j: int, size: int) -> int:
    """Steps between places ``i`` and ``j`` of a ring of ``size``, the shorter way."""
    d = abs(i - j)
    return min(d, size - d)
