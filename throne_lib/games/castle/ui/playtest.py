"""城堡之心 in a playtest (docs/playtests.md): the play dashboard joined to one seat.

The same board, hand and buttons as :class:`~throne_lib.games.castle.ui.app.CastleApp`,
but the match is the playtest's (:class:`~throne_lib.kit.playtest.page.PlaytestPage`):
a click sends the action to the store at the position this page has seen, other
pages' moves arrive through the page's polling and redraw the board, the AI seats are
played by whichever page holds the playtest's lease. The page shows only its seat's
``observation(seat)``; a spectator's page the public view while the match runs and
everything after it. No 新对局: a playtest is one match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.castle.ui.app import CastleApp, castle_app
from throne_lib.kit.playtest.page import PlaytestPage, seat_page
from throne_lib.kit.playtest.session import MatchOf, PlaytestSession
from throne_lib.kit.playtest.store import SPECTATOR, PlaytestStore


class CastlePlaytestApp(CastleApp):
    """The dashboard of one seat (or the spectator) of a playtest; ``page.ok`` False:
    the link was refused and the widget is the reason alone."""

    def __init__(self, page: PlaytestPage) -> None:
        self.page = page
        assert page.session is not None
        self.session: PlaytestSession = page.session
        self._seen = -1
        super().__init__(players=self.session.match.num_seats, tempo=0.0, max_rounds=None)
        self.widget.children[0].layout.display = "none"  # no settings, no 新对局
        self.opponents.layout.display = "none"  # the session's AI seats are the store's
        self.widget.children = [page.bar, *self.widget.children]
        page.on_change = self.refresh

    match = MatchOf[CastleMatch]()

    def make_match(self, n: int, seed: int, rounds: int | None) -> tuple[CastleMatch, list[Any]]:
        return self.session.match, []

    def _record(self) -> None:
        pass  # the store is the record (throne playtest export)

    def human_seat(self) -> int:
        return self.session.seat

    def obs(self) -> dict[str, Any]:
        if self.session.spectator or (self.match.is_over and self.reveal.value):
            return dict(self.session.observation()) | (
                {} if self.session.spectator else {"seat": self.human}
            )
        return self.match.observation(self.human)

    def my_turn(self) -> bool:
        return self.session.my_turn()

    def _ai_to_move(self) -> bool:
        return False  # the page's polling plays the AI seats, under the lease

    def schedule_ai(self) -> None:
        pass

    def press(self, act: Act) -> None:
        if not self.my_turn() or act not in self.match.legal_actions():
            return
        self.page.submit(act)
        self.selected, self.focus = None, None
        self.refresh()

    def refresh(self) -> None:
        if self.session.seq != self._seen:  # the position moved: forget a half-made choice
            self._seen = self.session.seq
            self.selected, self.focus = None, None
        if self.session.spectator and self.match.is_over:
            self.reveal.value = True
        super().refresh()

    def show_status(self, obs: dict[str, Any], step: str, turn: str) -> None:
        if self.session.seat != SPECTATOR:
            super().show_status(obs, step, turn)
            return
        m = self.match
        text = (
            "旁观：对局结束，全部公开" if m.is_over else f"旁观 · 第{obs['round']}轮 · 阶段 {step}"
        )
        self.status.show(
            text, {"round": obs["round"], "seat": m.current_seat, "over": int(m.is_over)}
        )


def castle_page(
    store: PlaytestStore | None = None,
    query: str | None = None,
    *,
    playtest_app: type[CastlePlaytestApp] = CastlePlaytestApp,
    app: Callable[..., W.Widget] = castle_app,
    **kwargs: Any,
) -> W.Widget:
    """``notebooks/castle.ipynb``: a playtest seat's dashboard when the page was opened
    from a playtest link (``?playtest=…``), the single-player dashboard otherwise
    (``kwargs`` go to ``app``). A mode on the 城堡之心 table passes its own
    ``playtest_app`` and ``app`` (城池战's ``cities_page``)."""
    return seat_page(
        lambda page: playtest_app(page).widget,
        lambda: app(**kwargs),
        store=store,
        query=query,
    )
