"""The public match API: create, list legal actions, apply, copy, hash.

>>> from throne_lib import load_cards, Match, SideSetup
>>> db = load_cards()
>>> m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "beast"), seed=1)
>>> m.phase
'replace'
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from random import Random
from typing import Any

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import SIDE_NAMES, Geometry
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import SideSetup
from throne_lib.games.throne.engine import Engine, opening_pool
from throne_lib.games.throne.explain import explain_illegal
from throne_lib.games.throne.legal import legal_actions
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.games.throne.state import (
    BARRACKS,
    MAIN,
    OPEN_REPLACE,
    OVER,
    THRONE,
    SideState,
    State,
    Unit,
)
from throne_lib.kit.protocol import IllegalAction, check_seat

__all__ = ["IllegalAction", "LegalActions", "Match", "SideSetup"]


class LegalActions(Sequence[Action]):
    """The legal actions of a position: a sequence with fast membership.

    Membership first looks for the very object (agents choose from this list, and
    :func:`throne_lib.games.throne.legal.act` shares one object per action); an equal action made
    elsewhere is looked up in a set built on first need."""

    def __init__(self, actions: list[Action]) -> None:
        self._list = actions
        self._set: frozenset[Action] | None = None

    def __getitem__(self, i: int) -> Action:  # type: ignore[override]
        return self._list[i]

    def __len__(self) -> int:
        return len(self._list)

    def __iter__(self) -> Iterator[Action]:
        return iter(self._list)

    def __contains__(self, a: object) -> bool:
        if id(a) in map(id, self._list):  # the very object, compared in C
            return True
        if self._set is None:
            self._set = frozenset(self._list)
        return a in self._set

    def count(self, value: object = None) -> int:
        """Number of legal actions (like python-chess ``legal_moves.count()``)."""
        return len(self._list) if value is None else int(value in self)

    def of_kind(self, *kinds: str) -> list[Action]:
        return [a for a in self._list if a.kind in kinds]


class Match:
    """A match in progress. Mutable; :meth:`copy` is cheap.

    Implements the kit's :class:`~throne_lib.kit.protocol.GameMatch` for two seats (0
    blue, 1 red). Throne is perfect information except for the cards: what a seat may
    see (:meth:`observation`) is the board, both sides' public counters, both
    graveyards and removed cards, its own hand, the *size* of the opponent's hand and
    of both decks, and both setups (deck lists are public, as in a log header); hidden
    are the order of both decks, the opponent's hand and the match RNG's future draws
    (captain offers are announced by a public event, so they are seen).
    :meth:`resample` redraws exactly those.

    :meth:`legal_actions` and :meth:`hash` are computed once per position (until the
    next :meth:`apply` or :meth:`swap_cards`). Code that edits ``match.state`` directly
    (scenario set-up, determinization) does it before asking either, or calls
    :meth:`touch` afterwards.
    """

    game = "throne"  # the registry name (logs, the simulator and the CLI read it)
    num_seats = 2

    def __init__(self, eng: Engine, seed: int, setups: tuple[SideSetup, SideSetup]) -> None:
        self.eng = eng
        self.seed = seed
        self.setups = setups
        self.history: list[Action] = []
        self.setup_events: list[Event] = []
        self.scenario = ""  # the scenario text this match was built from, if any
        self.swaps: list[tuple[int, CardDB]] = []  # (len(history) at the swap, new table)
        self.initial_db: CardDB = eng.db  # the table before any swap (a log's header)
        self._legal: LegalActions | None = None
        self._hash: str | None = None

    # --- creation ---------------------------------------------------------------

    @classmethod
    def new(
        cls,
        db: CardDB,
        blue: SideSetup,
        red: SideSetup,
        seed: int,
        rules: Rules = DEFAULT_RULES,
    ) -> Match:
        """Set up a match: thrones placed, decks shuffled, opening hands dealt (R-OPEN-1)."""
        setups = (blue, red)
        for setup in setups:
            if setup.general not in db or db[setup.general].kind != "general":
                raise ValueError(f"{setup.general!r} is not a general in the card table")
            for c in setup.deck:
                if c not in db:
                    raise ValueError(f"deck card {c!r} is not in the card table")
        sides = [SideState(s.general, db[s.general].race) for s in setups]
        state = State(rules.cells, sides, seed)
        eng = Engine(db, rules, state)
        state.first = state.rng.randrange(2)  # R-TURN-12
        for side, setup in enumerate(setups):
            s = sides[side]
            s.deck = list(setup.deck)
            state.rng.shuffle(s.deck)
            s.opening_pool = opening_pool(db, s.race)
            cls._place_throne(eng, side)
        for side in (state.first, 1 - state.first):
            cls._deal_opening(eng, side)
        state.turn = state.first
        state.phase = OPEN_REPLACE
        m = cls(eng, seed, setups)
        m.setup_events = eng.events
        eng.events = []
        return m

    @staticmethod
    def _place_throne(eng: Engine, side: int) -> Unit:
        general = eng.db[eng.state.sides[side].general]
        t = Unit(eng.state.next_uid, general.id, side, eng.geo.throne_cell(side), THRONE)
        eng.state.next_uid += 1
        t.hp = t.max_hp = eng.rules.throne_hp
        t.move = 0
        t.range = general.range
        eng.state.board[t.cell] = t
        return t

    @staticmethod
    def _deal_opening(eng: Engine, side: int) -> None:
        """R-OPEN-1: 5 cards, at least 2 barracks while the deck has them."""
        s = eng.state.sides[side]
        rng = eng.state.rng
        eng.draw(side, eng.rules.opening_hand, reshuffle=False)
        is_b = [c for c in s.hand if eng.db[c].kind == BARRACKS]
        while len(is_b) < eng.rules.opening_min_barracks:
            deck_b = [i for i, c in enumerate(s.deck) if eng.db[c].kind == BARRACKS]
            others = [i for i, c in enumerate(s.hand) if eng.db[c].kind != BARRACKS]
            if not deck_b or not others:
                break
            got = s.deck.pop(rng.choice(deck_b))
            back = s.hand.pop(rng.choice(others))
            s.deck.append(back)
            rng.shuffle(s.deck)
            s.hand.append(got)
            is_b.append(got)
            eng.emit("opening_fill", side, actor=got, target=back)

    # --- the API ------------------------------------------------------------------

    @property
    def state(self) -> State:
        return self.eng.state

    @property
    def db(self) -> CardDB:
        return self.eng.db

    @property
    def rules(self) -> Rules:
        return self.eng.rules

    @property
    def geo(self) -> Geometry:
        return self.eng.geo

    @property
    def phase(self) -> str:
        return self.eng.state.phase

    @property
    def round(self) -> int:
        return self.eng.state.round

    @property
    def turn(self) -> int:
        """The side to act (0 blue, 1 red)."""
        return self.eng.state.turn

    @property
    def current_seat(self) -> int:
        """The protocol's name for :attr:`turn`."""
        return self.eng.state.turn

    @property
    def is_over(self) -> bool:
        return self.eng.state.phase == OVER

    @property
    def winner(self) -> int | None:
        return self.eng.state.winner

    @property
    def end_reason(self) -> str:
        return self.eng.state.end_reason

    def legal_actions(self) -> LegalActions:
        if self._legal is None:
            self._legal = LegalActions(legal_actions(self.eng))
        return self._legal

    def parse(self, text: str) -> Action:
        return Action.from_text(text, self.geo)

    def apply(self, action: object) -> list[Event]:
        """Carry out a legal action (an :class:`Action` or its text) and return its events;
        raise :class:`IllegalAction` (naming the rule) and leave the match unchanged
        otherwise. ``action`` is checked here, not by its annotation: compiled by mypyc,
        an annotated ``Action | str`` would be refused with mypyc's message instead."""
        a = self.parse(action) if isinstance(action, str) else action
        if not isinstance(a, Action):
            raise TypeError(f"apply() takes an Action or its text, got {type(a).__name__}")
        if a not in self.legal_actions():
            raise IllegalAction(a.text(self.geo), *self._why_illegal(a))
        self.eng.events = []
        self._legal = None
        self._hash = None
        self.eng.do(a)
        self.history.append(a)
        events = self.eng.events
        self.eng.events = []
        return events

    def _why_illegal(self, a: Action) -> tuple[str, str]:
        """The rule ``a`` breaks. Off-board cells are answered here, before the
        explanation indexes the board; the explanation never turns a refusal into a crash."""
        size = self.geo.size
        for cell in (a.cell, a.target):
            if not -1 <= cell < size:
                return "R-BOARD-6", f"cell {cell} is off the board (cells are 0..{size - 1})"
        try:
            return explain_illegal(self.eng, a)
        except Exception:  # a gap in the explanation must not hide the refusal
            return "R-TURN-12", "not legal in this position"

    def touch(self) -> None:
        """Forget the cached legal actions and hash after a direct edit of the state."""
        self._legal = None
        self._hash = None

    def start_turn(self) -> list[Event]:
        """Start the turn of the side to act, as the engine does after an ``end``: the
        royal march (R-THRONE-5), take-off (R-FLY-1), turn-start effects, mana reset
        with the peasant bonus (R-TURN-1..3), the throne skill's cooldown (R-THRONE-6)
        and the draw (R-TURN-4..6). For a position loaded mid-turn from a scenario:
        only before the first action, and recorded in :attr:`scenario` as a ``start``
        line so a log of this match replays it."""
        if self.history:
            raise ValueError("start_turn() begins a loaded position; in play, 'end' starts turns")
        if self.phase != MAIN:
            raise ValueError(f"start_turn() needs the main phase, not {self.phase!r}")
        if self.scenario and any(
            line.split("#", 1)[0].split() == ["start"] for line in self.scenario.splitlines()
        ):
            raise ValueError("this position's turn was already started by its 'start' line")
        marched = "yes" if self.eng.state.marched else "no"
        self.eng.events = []
        self.eng.start_turn(self.eng.state.turn)
        if self.scenario:  # 'marched' as it was before the start (its default follows 'start')
            self.scenario = self.scenario.rstrip("\n") + f"\nmarched {marched}\nstart\n"
        self.touch()
        events = self.eng.events
        self.eng.events = []
        return events

    def copy(self) -> Match:
        eng = Engine(self.eng.db, self.eng.rules, self.eng.state.copy())
        m = Match(eng, self.seed, self.setups)
        m.history = self.history[:]
        m.setup_events = self.setup_events
        m.scenario = self.scenario
        m.swaps = self.swaps[:]
        m.initial_db = self.initial_db
        return m

    def swap_cards(self, db: CardDB) -> Event:
        """Hot swap the card table in a running match.

        Cards in hand, deck and graveyard take the new definitions at their next
        use; units already on the board keep their current stats (their
        triggers and barracks data come from the new table). Refused with a
        ``ValueError`` naming the ids if the new table lacks a card in use.
        The swap is recorded so that a replay reproduces the match.
        """
        st = self.eng.state
        in_use = {u.card for u in st.board if u is not None}
        for s in st.sides:
            in_use.update(s.deck, s.hand, s.grave, s.removed, s.opening_pool, [s.general])
            for u in st.board:
                if u is not None:
                    in_use.update(u.offer)
        missing = sorted(c for c in in_use if c not in db)
        if missing:
            raise ValueError(f"the new card table lacks cards in use: {', '.join(missing)}")
        old = self.eng.db
        changed = sorted(c for c in db if c not in old or old[c] != db[c])
        self.eng.db = db
        self.swaps.append((len(self.history), db))
        self.touch()
        return Event(
            "cards_swap", st.round, st.turn, note=f"{db.hash} changed: {' '.join(changed)}"
        )

    def hash(self) -> str:
        """The position's hash (:meth:`State.hash`), computed once per position."""
        if self._hash is None:
            self._hash = self.eng.state.hash()
        return self._hash

    def returns(self) -> list[float]:
        """+1 for the winner, -1 for the loser; 0 each for a draw or while playing."""
        w = self.eng.state.winner
        if w is None:
            return [0.0, 0.0]
        return [1.0 if side == w else -1.0 for side in (0, 1)]

    def observation(self, seat: object) -> dict[str, Any]:
        """What ``seat`` may see (see the class docstring), as JSON-able data."""
        from throne_lib.games.throne.observe import observation

        return observation(self, seat)

    def public_view(self) -> dict[str, Any]:
        """What a spectator (at neither seat) may see: the observation without either hand."""
        from throne_lib.games.throne.observe import public_view

        return public_view(self)

    def resample(self, seat: object, rng: Random) -> Match:
        """A copy with what ``seat`` cannot know redrawn from ``rng``: the opponent's hand
        and deck shuffled together and re-dealt (hand size kept), ``seat``'s deck order
        and the match RNG redrawn. Public reveals of single opponent cards are not
        tracked: any unseen card may be in the opponent's hand. The unseen cards are sorted
        before they are shuffled, so the copy depends on ``observation(seat)`` and ``rng``
        only (positions that differ in what ``seat`` cannot see resample alike)."""
        me = check_seat(seat, 2, "throne")
        m = self.copy()
        st = m.state
        st.rng.seed(rng.getrandbits(64))
        opp = st.sides[1 - me]
        pool = sorted(opp.hand + opp.deck)  # sorted first: the draw depends on the view only
        rng.shuffle(pool)
        n = len(opp.hand)
        opp.hand, opp.deck = pool[:n], pool[n:]
        own = st.sides[me]
        own.deck = sorted(own.deck)
        rng.shuffle(own.deck)
        m.touch()  # the state was edited directly: no cached hash or legal actions
        return m

    def unit_at(self, cell: int | str) -> Unit | None:
        c = self.geo.parse(cell) if isinstance(cell, str) else cell
        return self.eng.state.board[c]

    def throne_hp(self, side: int) -> int:
        t = self.eng.state.throne(side)
        return t.hp if t is not None else 0

    def card_count(self, side: int) -> int:
        """Deck cards this side holds anywhere: deck + hand + graveyard + board + removed."""
        s = self.eng.state.sides[side]
        on_board = sum(1 for u in self.eng.state.units(side) if u.from_deck)
        return len(s.deck) + len(s.hand) + len(s.grave) + len(s.removed) + on_board

    def result_text(self) -> str:
        st = self.eng.state
        if st.phase != OVER:
            return f"round {st.round}, {SIDE_NAMES[st.turn]} to act"
        who = "draw" if st.winner is None else f"{SIDE_NAMES[st.winner]} wins"
        return f"{who} ({st.end_reason}) in round {st.round}"

    def __repr__(self) -> str:
        return f"<Match seed={self.seed} {self.result_text()}>"
