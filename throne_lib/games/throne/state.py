"""Plain, slotted match state: cheap to copy, easy to hash.

Nothing here knows a rule; the engine (:mod:`throne_lib.games.throne.engine`) changes the
state, :mod:`throne_lib.games.throne.legal` reads it.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

# Unit kinds. "throne" is the main general's seat (R-THRONE-*).
THRONE = "throne"
BARRACKS = "barracks"
STRUCTURES = frozenset({THRONE, BARRACKS})
CARD_UNITS = frozenset({"minion", "general", "barracks"})  # go to the graveyard (R-TURN-11)


# Every attribute of a :class:`Unit`, in order: the copy, the position key, observations
# and scenarios are written from it. (Read it here, not from ``Unit.__slots__``: the class
# compiled by mypyc does not expose its fields that way.) ``tests/test_state.py`` checks
# that ``Unit.__init__``, ``Unit.copy`` and ``Unit.key`` cover exactly these.
UNIT_FIELDS: tuple[str, ...] = (
    "uid",
    "card",
    "side",
    "cell",
    "kind",
    "attack",
    "hp",
    "max_hp",
    "armor",
    "shield",
    "move",
    "range",
    "siege",
    "taunt",
    "flying",
    "airborne",
    "pierce",
    "lifesteal",
    "formation",
    "fortified",
    "reborn",
    "grow",
    "artisan",
    "aura_load",
    "aura_summon",
    "heal_aura",
    "regen",
    "peasant",
    "moved",
    "attacked",
    "acted",
    "from_deck",
    "level",
    "summons_used",
    "summons_bought",
    "loaded",
    "offer",
    "uses",
)


class Unit:
    """Anything with HP on a cell (R-BOARD, R-UNIT)."""

    __slots__ = UNIT_FIELDS

    # Every argument has a default so that ``Unit.__new__(Unit)`` works compiled too: a
    # mypyc class runs ``__init__`` from ``__new__`` (a plain class does not; either way
    # ``_copy_unit`` then sets every field).
    def __init__(
        self, uid: int = 0, card: str = "", side: int = 0, cell: int = 0, kind: str = ""
    ) -> None:
        self.uid = uid
        self.card = card
        self.side = side
        self.cell = cell
        self.kind = kind
        self.attack = 0
        self.hp = 1
        self.max_hp = 1
        self.armor = 0
        self.shield = False
        self.move = 1
        self.range = 1
        self.siege = 0
        self.taunt = False
        self.flying = False
        self.airborne = False
        self.pierce = False
        self.lifesteal = False
        self.formation = False
        self.fortified = False
        self.reborn = False
        self.grow = 0
        self.artisan = False
        self.aura_load = False
        self.aura_summon = 0
        self.heal_aura = 0
        self.regen = 0
        self.peasant = 0
        self.moved = False
        self.attacked = False
        self.acted = False  # used its hero skill this turn (R-HERO-2)
        self.from_deck = False  # a deck card: goes to the graveyard on death (R-TURN-11)
        self.level = 0  # barracks level 1-3, building level
        self.summons_used = 0
        self.summons_bought = 0
        self.loaded = False
        self.offer: tuple[str, ...] = ()  # this turn's captain offer (R-BARRACKS-9)
        self.uses = 0  # building uses this turn

    def copy(self) -> Unit:
        return _copy_unit(self)

    def key(self) -> tuple[Any, ...]:
        """Everything that matters to the rules (not the uid, an identity only)."""
        return _unit_key(self)

    @property
    def is_structure(self) -> bool:
        return self.kind in STRUCTURES

    def __repr__(self) -> str:
        return f"Unit({self.card}@{self.cell} s{self.side} {self.attack}/{self.hp})"


def _copy_unit(u: Unit) -> Unit:
    """A shallow copy of every field of :data:`UNIT_FIELDS`, written out (about 10x faster
    than a getattr/setattr loop, and compiled to plain field copies by mypyc; the AI and the
    simulator copy states often)."""
    n = Unit.__new__(Unit)
    n.uid = u.uid
    n.card = u.card
    n.side = u.side
    n.cell = u.cell
    n.kind = u.kind
    n.attack = u.attack
    n.hp = u.hp
    n.max_hp = u.max_hp
    n.armor = u.armor
    n.shield = u.shield
    n.move = u.move
    n.range = u.range
    n.siege = u.siege
    n.taunt = u.taunt
    n.flying = u.flying
    n.airborne = u.airborne
    n.pierce = u.pierce
    n.lifesteal = u.lifesteal
    n.formation = u.formation
    n.fortified = u.fortified
    n.reborn = u.reborn
    n.grow = u.grow
    n.artisan = u.artisan
    n.aura_load = u.aura_load
    n.aura_summon = u.aura_summon
    n.heal_aura = u.heal_aura
    n.regen = u.regen
    n.peasant = u.peasant
    n.moved = u.moved
    n.attacked = u.attacked
    n.acted = u.acted
    n.from_deck = u.from_deck
    n.level = u.level
    n.summons_used = u.summons_used
    n.summons_bought = u.summons_bought
    n.loaded = u.loaded
    n.offer = u.offer
    n.uses = u.uses
    return n


def _unit_key(u: Unit) -> tuple[Any, ...]:
    """``Unit.key``: every field of :data:`UNIT_FIELDS` but the uid, in order."""
    return (
        u.card,
        u.side,
        u.cell,
        u.kind,
        u.attack,
        u.hp,
        u.max_hp,
        u.armor,
        u.shield,
        u.move,
        u.range,
        u.siege,
        u.taunt,
        u.flying,
        u.airborne,
        u.pierce,
        u.lifesteal,
        u.formation,
        u.fortified,
        u.reborn,
        u.grow,
        u.artisan,
        u.aura_load,
        u.aura_summon,
        u.heal_aura,
        u.regen,
        u.peasant,
        u.moved,
        u.attacked,
        u.acted,
        u.from_deck,
        u.level,
        u.summons_used,
        u.summons_bought,
        u.loaded,
        u.offer,
        u.uses,
    )


class SideState:
    """One side's cards and per-turn counters."""

    __slots__ = (
        "general",
        "race",
        "deck",
        "hand",
        "grave",
        "removed",
        "mana",
        "shuffles",
        "name_uses",
        "skill_cooldown",
        "replaced",
        "founded",
        "opening_pool",
        "stats",
    )

    def __init__(self, general: str = "", race: str = "") -> None:  # defaults: see Unit
        self.general = general
        self.race = race
        self.deck: list[str] = []
        self.hand: list[str] = []
        self.grave: list[str] = []
        self.removed: list[str] = []  # cards out of the game: destroyed barracks (R-TURN-11)
        self.mana = 0
        self.shuffles = 0  # manual shuffles this match (R-TURN-7)
        self.name_uses: dict[str, int] = {}  # R-TURN-9
        self.skill_cooldown = 0  # own turns left before the throne skill is ready (R-THRONE-6)
        self.replaced = 0  # opening replacements made (R-OPEN-2)
        self.founded: list[str] = []  # opening barracks built (R-OPEN-3)
        self.opening_pool: tuple[str, ...] = ()
        self.stats: dict[str, int] = {}  # counters for analytics (mana spent, cards played …)

    def copy(self) -> SideState:
        new = SideState.__new__(SideState)
        new.general = self.general
        new.race = self.race
        new.deck = self.deck[:]
        new.hand = self.hand[:]
        new.grave = self.grave[:]
        new.removed = self.removed[:]
        new.mana = self.mana
        new.shuffles = self.shuffles
        new.name_uses = dict(self.name_uses)
        new.skill_cooldown = self.skill_cooldown
        new.replaced = self.replaced
        new.founded = self.founded[:]
        new.opening_pool = self.opening_pool
        new.stats = dict(self.stats)
        return new

    def key(self) -> tuple[Any, ...]:
        return (
            self.general,
            self.race,
            tuple(self.deck),
            tuple(self.hand),
            tuple(self.grave),
            tuple(self.removed),
            self.mana,
            self.shuffles,
            tuple(sorted(self.name_uses.items())),
            self.skill_cooldown,
            self.replaced,
            tuple(self.founded),
            self.opening_pool,
        )

    def bump(self, stat: str, n: int = 1) -> None:
        self.stats[stat] = self.stats.get(stat, 0) + n


# Phases of a match.
OPEN_REPLACE = "replace"  # R-OPEN-2
OPEN_FOUND = "found"  # R-OPEN-3
MAIN = "main"
CAPTAIN = "captain"  # a pending captain offer (R-BARRACKS-9)
OVER = "over"
PHASES_ALL = (OPEN_REPLACE, OPEN_FOUND, MAIN, CAPTAIN, OVER)
OPENING = (OPEN_REPLACE, OPEN_FOUND)  # the opening's phases: round 0 (R-OPEN-*)


# The RNG of a blank ``State()``: shared, so never drawn from (see ``State.rng``).
_BLANK_RNG = random.Random(0)


class State:
    """The whole position: board, sides, round, phase and the match RNG.

    A copy shares the RNG with its original until either of them uses it (copy on
    use): most copies an agent makes never draw a random number."""

    __slots__ = (
        "board",
        "sides",
        "round",
        "turn",
        "first",
        "phase",
        "pending",
        "next_uid",
        "_rng",
        "_rng_shared",
        "winner",
        "end_reason",
        "marched",
    )

    def __init__(
        self, size: int = 0, sides: list[SideState] | None = None, seed: int | None = None
    ) -> None:
        """``State()`` with no arguments is the blank :meth:`copy` fills in (see
        :class:`Unit`): no board, no sides, and the shared unseeded placeholder RNG, which
        is copied before any use."""
        self.board: list[Unit | None] = [None] * size
        self.sides = sides if sides is not None else []
        self.round = 0
        self.turn = 0  # the side to act
        self.first = 0  # the side that moves first in each round (R-TURN-12)
        self.phase = OPEN_REPLACE
        self.pending = -1  # barracks cell of a pending captain offer
        self.next_uid = 1
        self._rng = random.Random(seed) if seed is not None else _BLANK_RNG
        self._rng_shared = seed is None
        self.winner: int | None = None  # None while playing or for a draw
        self.end_reason = ""
        self.marched = False

    def copy(self) -> State:
        new = State.__new__(State)
        copy_unit = _copy_unit
        new.board = [copy_unit(u) if u is not None else None for u in self.board]
        new.sides = [s.copy() for s in self.sides]
        new.round = self.round
        new.turn = self.turn
        new.first = self.first
        new.phase = self.phase
        new.pending = self.pending
        new.next_uid = self.next_uid
        new._rng = self._rng  # shared until one of the two uses it (see ``rng``)
        new._rng_shared = self._rng_shared = True
        new.winner = self.winner
        new.end_reason = self.end_reason
        new.marched = self.marched
        return new

    @property
    def rng(self) -> random.Random:
        """The match RNG: every random choice of the rules draws from it."""
        if self._rng_shared:  # another state may hold this object: use a private copy
            own = random.Random.__new__(random.Random)
            own.setstate(self._rng.getstate())
            self._rng = own
            self._rng_shared = False
        return self._rng

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_shared = False

    def units(self, side: int | None = None) -> list[Unit]:
        return [u for u in self.board if u is not None and (side is None or u.side == side)]

    def throne(self, side: int) -> Unit | None:
        for u in self.board:
            if u is not None and u.side == side and u.kind == THRONE:
                return u
        return None

    def hash(self) -> str:
        """A stable hash of everything that decides the rest of the match."""
        h = hashlib.sha256()
        h.update(repr(tuple(_unit_key(u) if u else None for u in self.board)).encode())
        h.update(repr(tuple(s.key() for s in self.sides)).encode())
        h.update(
            repr(
                (
                    self.round,
                    self.turn,
                    self.first,
                    self.phase,
                    self.pending,
                    self.next_uid,
                    self.winner,
                    self.end_reason,
                    self.marched,
                )
            ).encode()
        )
        h.update(_rng_bytes(self._rng))  # read only: no private copy needed
        return h.hexdigest()[:16]


def _rng_bytes(rng: random.Random) -> bytes:
    """``repr(rng.getstate()).encode()``, remembered on the RNG for its current state
    (formatting its 625 words is most of a hash; the comparison is cheap)."""
    state = rng.getstate()
    cached: tuple[object, bytes] | None = getattr(rng, "_throne_repr", None)
    if cached is not None and cached[0] == state:
        return cached[1]
    data = repr(state).encode()
    rng._throne_repr = (state, data)  # type: ignore[attr-defined]
    return data
