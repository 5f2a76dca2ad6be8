"""What every part of a PIN match reads and writes: :class:`PinCore` holds the state,
the card table, the rules and the board, and answers the small queries every part asks
(attack, keywords, neighbours, names); it emits the 战报's events.

The rules modules (:mod:`.legal`, :mod:`.engine`, :mod:`.effects`, :mod:`.combat`) and
:mod:`.view` take a :class:`PinCore`; :class:`~throne_lib.games.pin.match.PinMatch` adds
the kit's protocol on top of it and calls them. So the match imports the rules and no
rules module imports the match.
"""

from __future__ import annotations

from typing import Any, Self

from throne_lib.games.pin.actions import PinAction, PinEvent
from throne_lib.games.pin.cards import PinCard, PinCardDB
from throne_lib.games.pin.hexes import BOARD, HQ_CELLS, MIRROR_BOARD, SIDE_NAMES, HexBoard, label
from throne_lib.games.pin.rules import Rules
from throne_lib.games.pin.state import State, Unit, ref


class PinCore:
    """A PIN match's data and queries (the protocol is :class:`PinMatch`'s)."""

    def __init__(self, db: PinCardDB, rules: Rules, state: State) -> None:
        self.db = db
        self.rules = rules
        self.state = state
        self.seed = 0
        self.setups: list[dict[str, Any]] = []  # JSON-able decks (logs rebuild from them)
        self.options: dict[str, Any] = {}  # JSON-able options (rule overrides)
        self.history: list[PinAction] = []
        self.board: HexBoard = MIRROR_BOARD if rules.mirror_board else BOARD
        self._events: list[PinEvent] = []
        self._cache: list[PinAction] | None = None

    def copy(self) -> Self:
        out = type(self)(self.db, self.rules, self.state.clone())
        out.seed, out.setups, out.options = self.seed, self.setups, self.options
        out.history = list(self.history)
        return out

    def place_hq(self, side: int, card_id: str) -> Unit:
        card = self.db[card_id]
        hp = card.hp or self.rules.hq_hp
        hq = Unit(side, card_id, side, HQ_CELLS[side], hp, hp, is_hq=True)
        hq.ads, hq.shield, hq.mshield, hq.ward = (
            card.kw(k) for k in ("ads", "shield", "mshield", "ward")
        )
        self.state.units[side] = hq
        self.state.slots.setdefault(hq.cell, []).insert(0, side)  # PIN-STACK-5: slot 1
        return hq

    # --- queries ------------------------------------------------------------------
    def card(self, u: Unit) -> PinCard:
        return self.db[u.card]

    def unit(self, uid: int) -> Unit | None:
        return self.state.units.get(uid)

    def types(self, u: Unit) -> tuple[str, ...]:
        return () if u.is_hq else self.db[u.card].types

    def attack(self, u: Unit) -> int:
        """Attack now: 0 in chaos whatever the buffs (PIN-CHAOS-1, PIN-EFFECT-6)."""
        if u.is_hq or u.in_chaos:
            return 0
        return max(0, self.db[u.card].attack + u.attack_bonus)

    def has(self, u: Unit, keyword: str) -> bool:
        """A keyword that works now: chaos switches keywords off (PIN-CHAOS-1)."""
        return not u.chaos_until and keyword in self.db.keywords[u.card]

    def is_air(self, u: Unit) -> bool:
        return not u.is_hq and self.db[u.card].is_air

    def units(self) -> list[Unit]:
        """Units on the board (HQs excluded) by cell number, then slot (PIN-STACK-5)."""
        st = self.state
        slots = st.slots
        return [st.units[i] for c in sorted(slots) for i in slots[c] if i > 1]

    def in_cell(self, cell: int) -> list[Unit]:
        return [self.state.units[i] for i in self.state.slots.get(cell, ()) if i > 1]

    def free_slot(self, cell: int) -> bool:
        return len(self.state.slots.get(cell, ())) < self.rules.slots_per_cell

    def enemy_in(self, side: int, cell: int) -> bool:
        return any(u.side != side for u in self.in_cell(cell))

    def enemy_near(self, side: int, cell: int, radius: int = 1) -> bool:
        return any(
            u.side != side and self.board.distance(u.cell, cell) <= radius for u in self.units()
        )

    def name(self, uid: int) -> str:
        """``铁砧装甲旅(u7@008)`` — how the 战报 names a unit or an HQ."""
        u = self.state.units.get(uid)
        if u is None:
            return ref(uid)
        return f"{self.db[u.card].name}({ref(uid)}@{label(u.cell)})"

    def emit(self, kind: str, text: str, private: int | None = None, **data: Any) -> PinEvent:
        ev = PinEvent(kind, text, data, private)
        self._events.append(ev)
        return ev


def fresh_unit(db: PinCardDB, uid: int, card: str, side: int, cell: int) -> Unit:
    """Unit ``uid`` of ``card`` as it enters the board: full HP, its keywords' charges
    and pools (ADS, shields, ward), unactivated (PIN-DEPLOY-3)."""
    c = db[card]
    return Unit(
        uid,
        card,
        side,
        cell,
        c.hp,
        c.hp,
        c.kw("ads"),
        c.kw("shield"),
        c.kw("mshield"),
        c.kw("ward"),
    )


# --- the step queue and the cards in hand (the engine's and the effects' primitives) ------


def push(m: PinCore, *steps: tuple[Any, ...]) -> None:
    """Queue steps to run in the order given (before anything queued earlier)."""
    m.state.queue.extend(reversed(steps))


def to_hand(m: PinCore, side: int, card: str, public: bool = False) -> bool:
    """A card joins a hand unless it would be the 11th (PIN-TURN-6)."""
    st = m.state
    if len(st.hands[side]) >= m.rules.hand_limit:
        to_grave(m, side, card)
        m.emit(
            "overflow",
            f"{SIDE_NAMES[side]}手牌已满，{m.db[card].name}弃入坟场",
            side=side,
            card=card,
        )
        return False
    st.hands[side].append(card)
    if public:
        st.known[side].append(card)
    return True


def from_hand(m: PinCore, side: int, card: str) -> None:
    st = m.state
    st.hands[side].remove(card)
    if card in st.known[side]:
        st.known[side].remove(card)


def draw(m: PinCore, side: int) -> None:
    """Draw the top card; an empty deck draws nothing (PIN-TURN-3 Reading)."""
    st = m.state
    if not st.decks[side]:
        m.emit("draw_empty", f"{SIDE_NAMES[side]}牌库已空，未抽到牌", side=side)
        return
    card = st.decks[side].pop()
    st.last_drawn[side] = card
    m.emit("draw", f"{SIDE_NAMES[side]}抽1张牌", side=side)
    m.emit("drew", f"{SIDE_NAMES[side]}抽到{m.db[card].name}", private=side, side=side, card=card)
    to_hand(m, side, card)


def to_grave(m: PinCore, side: int, card: str) -> None:
    """To the graveyard; a 衍生 card is removed from the game (PIN-EFFECT-5)."""
    (m.state.removed if m.db[card].derived else m.state.graves)[side].append(card)
