"""城池战 in a playtest (docs/playtests.md): the 城池战 dashboard joined to one seat.

:class:`~throne_lib.games.cities.ui.app.CitiesApp` (the round table with cities) over
the 城堡之心 playtest page (:class:`~throne_lib.games.castle.ui.playtest.CastlePlaytestApp`):
a click or 认输 is sent to the store at the position this page has seen, the other pages'
moves arrive by polling, the AI seats are played under the playtest's lease; the page
shows its seat's ``observation(seat)``, a spectator's the public view while the match
runs and everything after it. 认输 (CW-WIN-4) may be sent out of turn (the match's
``anytime_actions``). The starting cities are face up from the start: the engine deals
them all at once, and a playtest's pages have no common moment to turn them together.
"""

from __future__ import annotations

from typing import Any

import ipywidgets as W

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.ui.playtest import CastlePlaytestApp, castle_page
from throne_lib.games.cities.ui.app import CitiesApp, cities_app
from throne_lib.kit.playtest.page import PlaytestPage
from throne_lib.kit.playtest.store import SPECTATOR, PlaytestStore


# CastlePlaytestApp.match (the session's, a CitiesMatch here) against CitiesApp's annotation
class CitiesPlaytestApp(CastlePlaytestApp, CitiesApp):  # type: ignore[misc]
    """The 城池战 dashboard of one seat (or the spectator) of a playtest."""

    def __init__(self, page: PlaytestPage) -> None:
        super().__init__(page)
        self.revealed = True  # see the module doc
        if self.session.seat == SPECTATOR:  # a spectator has no seat to concede
            self.concede_b.layout.display = "none"
        self.refresh()

    def press(self, act: Act) -> None:
        self.city_focus = None
        CastlePlaytestApp.press(self, act)

    def concede(self) -> None:
        act = Act("concede", (self.human,))
        if self.session.seat != SPECTATOR and act in self.session.anytime():
            self.page.submit(act)
            self.refresh()


def cities_page(
    store: PlaytestStore | None = None, query: str | None = None, **kwargs: Any
) -> W.Widget:
    """``notebooks/cities.ipynb``: :func:`castle_page` with the 城池战 dashboards
    (``kwargs`` go to :func:`cities_app`)."""
    return castle_page(store, query, playtest_app=CitiesPlaytestApp, app=cities_app, **kwargs)
