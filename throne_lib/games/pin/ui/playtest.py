"""PIN 架空战争 in a playtest (docs/playtests.md): the board joined to one seat.

The same board, hand, prompts and 战报 as :class:`~throne_lib.games.pin.ui.widget.PinBoard`,
but the match is the playtest's (:class:`~throne_lib.kit.playtest.page.PlaytestPage`): a
click sends the action to the store at the position this page has seen, the other seat's
moves arrive through the page's polling and redraw the board (seat 乙 sees the board from
its side), an AI seat is played by whichever page holds the playtest's lease. The 战报 is
built from the engine's events of every applied action, filtered as in a single-player
match (an event private to the other seat is not shown). A human seat's forced pass
(PIN-COUNTER-5: a counter window where it can only pass) is sent by that seat's own page
as soon as the page sees it, as the single-player board does. A spectator link is
refused: PIN has no public view. No 新对局: a playtest is one match.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from throne_lib.games.pin.actions import PinAction, PinEvent
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.state import parse_ref
from throne_lib.games.pin.ui.app import pin_app
from throne_lib.games.pin.ui.controller import PinController, Selection
from throne_lib.games.pin.ui.widget import PinBoard
from throne_lib.kit.playtest.page import PlaytestPage, seat_page
from throne_lib.kit.playtest.session import EventsBoard, MatchOf
from throne_lib.kit.playtest.store import PlaytestStore

FORCED_PASSES = 8  # at most this many forced passes in a row are sent at once


class PlaytestController(PinController):
    """The board's clicks, sent to the playtest instead of applied to a local match."""

    def __init__(self, board: PinPlaytestBoard) -> None:
        self.board = board
        super().__init__(board.match, board.human)

    match = MatchOf[PinMatch]("board")

    def apply(self, action: PinAction) -> list[PinEvent]:
        keep = self.sel.unit if action.kind in ("activate", "move", "attack", "special") else ""
        done = self.board.page.submit(action)
        self.sel = Selection(unit=keep if done and keep and self._alive(keep) else "")
        self.board.seen_now()
        self.board.auto_pass()
        return []  # the 战报 takes the events from the session (PinPlaytestBoard.refresh)

    def ai_step(self, agent: Any) -> list[PinEvent]:
        raise RuntimeError("a playtest's AI seats are played by the session (under the lease)")


class PinPlaytestBoard(EventsBoard, PinBoard):
    """The board of one seat of a playtest (``page.ok``, not a spectator)."""

    def __init__(self, page: PlaytestPage) -> None:
        self.join(page, "PIN")
        self._logged = 0  # session events already in the 战报
        super().__init__(self.session.match, human=self.session.seat, tempo="fast")
        self.add_class("pin-playtest")
        page.on_change = self.follow
        self.root = W.VBox([page.bar, self])
        self.follow()  # a reopened link may find its seat's forced pass waiting

    match = MatchOf[PinMatch]()

    def make_controller(self) -> PinController:
        return PlaytestController(self)

    # --- the page's polling and this seat's forced passes -----------------------------
    def follow(self) -> None:
        """The match moved (or the page opened): send this seat's forced pass, redraw."""
        self.auto_pass()
        self.refresh()

    def auto_pass(self) -> None:
        """PIN-COUNTER-5: a counter window where this seat can only pass is passed at once
        by its own page (stored as the person's action)."""
        for _ in range(FORCED_PASSES):
            act = self.match.forced_pass() if self.session.my_turn() else None
            if act is None:
                return
            self.page.submit(act)
            self.seen_now()

    def seen_now(self) -> None:
        self._seen = self.session.seq

    # --- no local AI: the session plays the AI seats ----------------------------------
    def _ai_to_move(self) -> bool:
        return False

    def _ai(self) -> None:
        pass

    # --- drawing -----------------------------------------------------------------------
    def refresh(self) -> None:
        s, ctrl = self.session, self.ctrl
        if s.seq != self._seen:  # another page moved: keep only a choice still possible
            self._seen = s.seq
            hand = self.match.observation(self.human)["hand"]
            unit = ctrl.sel.unit if ctrl.sel.unit and self._mine(ctrl.sel.unit) else ""
            card = ctrl.sel.card if ctrl.sel.card in hand and not unit else ""
            ctrl.sel = Selection(unit=unit, card=card)
        events = s.events or []
        for _, evs in events[self._logged :]:
            ctrl._record(evs)
        self._logged = len(events)
        super().refresh()

    def _mine(self, ref: str) -> bool:
        u = self.match.state.units.get(parse_ref(ref))
        return u is not None and u.side == self.human


def pin_page(
    store: PlaytestStore | None = None, query: str | None = None, **kwargs: Any
) -> W.Widget:
    """``notebooks/pin.ipynb``: a playtest seat's board when the page was opened from a
    playtest link (``?playtest=…``), the single-player dashboard otherwise (``kwargs``
    go to :func:`pin_app`)."""
    return seat_page(
        lambda page: PinPlaytestBoard(page).root,
        lambda: pin_app(**kwargs),
        store=store,
        query=query,
        keep_events=True,
    )
