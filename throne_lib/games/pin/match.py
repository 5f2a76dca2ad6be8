"""A PIN match: the protocol of :mod:`throne_lib.kit.protocol` over the PIN state.

``PinMatch`` is a :class:`~throne_lib.games.pin.core.PinCore` (the state, the card table,
the rules and the seeded RNG, and the small queries every part asks) with the protocol
methods. Legality is in :mod:`.legal`, resolution in :mod:`.engine` and :mod:`.effects`,
what a seat sees in :mod:`.view`: they take the core, so they never import this module.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from throne_lib.games.pin import engine
from throne_lib.games.pin.actions import PinAction, PinEvent, parse_action
from throne_lib.games.pin.cards import PinCardDB
from throne_lib.games.pin.core import PinCore, draw
from throne_lib.games.pin.legal import PASS, legal_actions, why_illegal
from throne_lib.games.pin.rules import PIN_RULES, Rules
from throne_lib.games.pin.state import Decision, State
from throne_lib.games.pin.view import describe, observation, resample
from throne_lib.kit.protocol import IllegalAction, check_seat


class PinMatch(PinCore):
    """One match of PIN 架空战争 for two seats: 0 = side 甲 (HQ 003), 1 = side 乙 (HQ 020)."""

    game = "pin"  # the registry name (logs and the simulator read it)

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
        st = State(rng=random.Random(seed))
        m = cls(db, rules, st)
        for side in (0, 1):
            m.place_hq(side, hqs[side])
            deck = list(decks[side])
            st.rng.shuffle(deck)
            st.decks[side] = deck
        for side in (0, 1):
            for _ in range(rules.opening_hand):
                draw(m, side)
        st.pending = Decision("mulligan", 0)
        m._events.clear()
        m.seed = seed
        return m

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

    def forced_pass(self) -> PinAction | None:
        """The pass, when passing is all ``current_seat`` may do: a counter window
        (PIN-COUNTER-5) with no counter card it can play there. Its UI or agent may give it
        at once; the opponent sees the same wait either way, since every window asks its
        side whatever the side holds."""
        d = self.state.pending
        if d is None or d.kind != "window" or self.is_over:
            return None
        legal = self._legal()
        return legal[0] if len(legal) == 1 and legal[0] == PASS else None

    def _legal(self) -> list[PinAction]:
        """Legal actions, computed once per state reached through ``apply``. Code that
        edits ``state`` by hand (scenario setup, tests) calls :meth:`touch` afterwards."""
        if self._cache is None:
            self._cache = legal_actions(self)
        return self._cache

    def touch(self) -> None:
        """Forget cached legality after editing ``state`` directly."""
        self._cache = None

    def why_illegal(self, action: PinAction) -> tuple[str, str]:
        return why_illegal(self, action)

    def parse(self, text: str) -> PinAction:
        return parse_action(text)

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
        return observation(self, check_seat(seat, 2, self.game))

    def resample(self, seat: int, rng: random.Random) -> PinMatch:
        return resample(self, check_seat(seat, 2, self.game), rng)

    def describe(self, action: PinAction) -> str:
        return describe(self, action)

    def __repr__(self) -> str:
        st = self.state
        return (
            f"<PinMatch turn {st.turn} round {st.round} phase {st.phase} seat {self.current_seat}>"
        )
