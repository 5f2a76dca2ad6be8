"""A playtest seat for any game, from the protocol alone: the page of a game without a
playtest board of its own (the kit's example 暗标夺宝, a game just added).

:class:`ObservationBoard` shows its seat's ``observation(seat)`` as a table (the entries
changed by the last move highlighted) and, when the seat is to move, one button per legal
action (``legal_actions()``, named by the game's log text); a click sends it to the store
at the position this page has seen (:meth:`~.page.PlaytestPage.submit`). The other
pages' moves arrive through the page's polling. The status line names the seat to move
(``current_seat`` is public by the protocol) and the step, never what another seat did.
"""

from __future__ import annotations

import html
from collections.abc import Mapping
from typing import Any

import ipywidgets as W

from throne_lib.kit.playtest.page import PlaytestPage
from throne_lib.kit.registry import winning_seats
from throne_lib.kit.ui.observation_replay import observation_table

__all__ = ["ObservationBoard"]


class ObservationBoard:
    """The page of one seat of a playtest (``page.ok``; a spectator only where the game
    has a public view, which the page checks)."""

    def __init__(self, page: PlaytestPage) -> None:
        assert page.session is not None
        self.page = page
        self.session = page.session
        self.status = W.HTML()
        self.status.add_class("observation-status")
        self.actions = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.actions.add_class("observation-actions")
        self.view = W.HTML()
        self.view.add_class("observation-view")
        self._before: Mapping[str, Any] | None = None
        self._shown: Mapping[str, Any] | None = None
        self.widget = W.VBox([page.bar, self.status, self.actions, self.view])
        self.widget.add_class("observation-board")
        page.on_change = self.refresh
        self.refresh()

    @property
    def match(self) -> Any:
        return self.session.match

    def refresh(self) -> None:
        s, g = self.session, self.session.game
        obs = dict(s.observation())
        if obs != self._shown:  # a move happened: what changed is what it showed
            self._before, self._shown = self._shown, obs
        m = self.match
        if m.is_over:
            won = winning_seats(m.returns())
            text = "、".join(g.seat_label(w) for w in won) + "获胜" if won else "平局"
            line = f"对局结束：{text}"
        elif s.my_turn():
            line = "轮到你行动"
        else:
            line = f"等待{g.seat_label(m.current_seat)}行动"
        buttons = []
        for action in s.legal():
            button = W.Button(description=s.codec.action_text(m, action))
            button.add_class("observation-action")
            button.on_click(lambda _b, a=action: self.play(a))
            buttons.append(button)
        self.actions.children = buttons
        who = "旁观" if s.spectator else g.seat_label(s.seat)
        self.view.value = f"<b>{html.escape(who)} 看到的</b>" + observation_table(obs, self._before)
        # the state line last: a page (or a test) that reads step N there finds the view
        # and the buttons of step N drawn, as the widget updates arrive in order
        self.status.value = (
            f"<div class='observation-state' data-seq='{s.seq}' data-over='{int(m.is_over)}' "
            f"data-mine='{int(s.my_turn())}' style='padding:4px 0;font-size:15px'>"
            f"<b>{html.escape(line)}</b></div>"
        )

    def play(self, action: Any) -> None:
        self.page.submit(action)
        self.refresh()
