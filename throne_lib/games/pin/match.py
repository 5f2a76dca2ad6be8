"""A PIN match: the protocol of :mod:`throne_lib.kit.protocol` over the PIN state.

``PinMatch`` owns the state, the card table, the rules and the seeded RNG. Legality is
in :mod:`.legal`, resolution in :mod:`.engine` and :mod:`.effects`; this module holds the
protocol methods and the small queries every part asks (attack, keywords, neighbours).
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from throne_lib.games.pin.actions import PinAction, PinEvent, parse_action
from throne_lib.games.pin.cards import PinCard, PinCardDB
from throne_lib.games.pin.hexes import BOARD, HQ_CELLS, MIRROR_BOARD, HexBoard, label
from throne_lib.games.pin.rules import PIN_RULES, Rules
from throne_lib.games.pin.state import Decision, State, Unit, ref
from throne_lib.kit.protocol import IllegalAction, check_seat


class PinMatch:
    """One match of PIN 架空战争 for two seats: 0 = side 甲 (HQ 003), 1 = side 乙 (HQ 020)."""

    game = "pin"  # the registry name (logs and the simulator read it)

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

    # --- construction -------------------------------------------------------------
    @classmethod
    def new(
        cls,
        db: PinCardDB,
        hqs: tuple[str, str],
        decks: tuple[Sequence[str], Sequence[str]],
        seed: int,
        rules: Rules = PIN_RULES,
    ) -> PinMatch:
        """Set up a match (PIN-SETUP-1, -2): HQs placed, decks shuffled, 6 cards each,
        then the mulligan of seat 0 is awaited."""
        from throne_lib.games.pin import engine

        st = State(rng=random.Random(seed))
        m = cls(db, rules, st)
        for side in (0, 1):
            m.place_hq(side, hqs[side])
            deck = list(decks[side])
            st.rng.shuffle(deck)
            st.decks[side] = deck
        for side in (0, 1):
            for _ in range(rules.opening_hand):
                engine.draw(m, side)
        st.pending = Decision("mulligan", 0)
        m._events.clear()
        m.seed = seed
        return m

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

    # --- protocol -----------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return 2

    @property
    def current_seat(self) -> int:
        st = self.state
        return st.pending.seat if st.pending is not None else st.active

    @property
    def is_over(self) -> bool:
        return self.state.phase == "over"

    def legal_actions(self) -> list[PinAction]:
        return list(self._legal())

    def apply(self, action: PinAction | str) -> list[PinEvent]:
        from throne_lib.games.pin import engine

        if isinstance(action, str):
            try:
                action = parse_action(action)
            except ValueError as exc:
                raise IllegalAction(str(action), "PIN-TURN-8", str(exc)) from None
        if not isinstance(action, PinAction):
            raise TypeError(f"apply() takes an action or its text, not {type(action).__name__}")
        if action not in self._legal():
            raise IllegalAction(action.text(), *self.why_illegal(action))
        self._events = []
        self._cache = None
        engine.perform(self, action)  # legal, so nothing below raises by design
        engine.run(self)
        self.history.append(action)
        out, self._events = self._events, []
        return out

    def _legal(self) -> list[PinAction]:
        """Legal actions, computed once per state reached through ``apply``. Code that
        edits ``state`` by hand (scenario setup, tests) calls :meth:`touch` afterwards."""
        if self._cache is None:
            from throne_lib.games.pin.legal import legal_actions

            self._cache = legal_actions(self)
        return self._cache

    def touch(self) -> None:
        """Forget cached legality after editing ``state`` directly."""
        self._cache = None

    def why_illegal(self, action: PinAction) -> tuple[str, str]:
        from throne_lib.games.pin.legal import why_illegal

        return why_illegal(self, action)

    def parse(self, text: str) -> PinAction:
        return parse_action(text)

    def copy(self) -> PinMatch:
        out = PinMatch(self.db, self.rules, self.state.clone())
        out.seed, out.setups, out.options = self.seed, self.setups, self.options
        out.history = list(self.history)
        return out

    def hash(self) -> str:
        st = self.state
        key: tuple[Any, ...] = (st.key(), hash(st.rng.getstate()[1]), self.db.hash)
        if self.rules != PIN_RULES:  # other rules hash too: an edited log header fails at line 1
            key = (*key, repr(self.rules))
        blob = repr(key).encode()  # int hashing is stable
        return hashlib.sha256(blob).hexdigest()[:16]

    @property
    def end_reason(self) -> str:
        """Why the match ended (``hq``, ``round_limit``); empty while it runs."""
        return self.state.end_reason

    def returns(self) -> list[float]:
        w = self.state.winner
        if w is None or w < 0:
            return [0.0, 0.0]
        return [1.0 if s == w else -1.0 for s in (0, 1)]

    def observation(self, seat: int) -> Mapping[str, Any]:
        from throne_lib.games.pin.view import observation

        return observation(self, check_seat(seat, 2, self.game))

    def resample(self, seat: int, rng: random.Random) -> PinMatch:
        from throne_lib.games.pin.view import resample

        return resample(self, check_seat(seat, 2, self.game), rng)

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

    def describe(self, action: PinAction) -> str:
        from throne_lib.games.pin.view import describe

        return describe(self, action)

    def __repr__(self) -> str:
        st = self.state
        return (
            f"<PinMatch turn {st.turn} round {st.round} phase {st.phase} seat {self.current_seat}>"
        )
