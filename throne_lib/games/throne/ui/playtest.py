"""Throne & Phalanx in a playtest (docs/playtests.md): the play board joined to one seat.

The same board, hand, tray, inspector and 战报 as
:class:`~throne_lib.games.throne.ui.widget.MatchWidget`, but the match is the playtest's
(:class:`~throne_lib.kit.playtest.page.PlaytestPage`): a click sends the action to the
store at the position this page has seen, the other seat's moves arrive through the
page's polling, redraw the board and stay lit (with their lines above the board, as the
AI's turn does in a single-player match); an AI seat is played by whichever page holds
the playtest's lease. Red's page shows the board turned (its rows at the bottom). The page
draws its own seat's hand only; the 战报 hides the other
seat's drawn and replaced cards (its ``viewer``). A spectator's page (Throne's public
view: the board and both sides' counts, no hand) sees no hand and names no hidden card
while the match runs; once it is over its 战报 shows everything. No 再来一局, no local
AI, no tempo: a playtest is one match, recorded in the store (``throne playtest export``).
"""

from __future__ import annotations

from itertools import chain
from typing import Any

import ipywidgets as W

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import SIDE_NAMES_ZH
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.ui.controller import Controller
from throne_lib.games.throne.ui.layout import Layout
from throne_lib.games.throne.ui.render import Op, chip_ops, overlay_ops, pieces_ops, tray_ops
from throne_lib.games.throne.ui.text import action_text, log_blocks
from throne_lib.games.throne.ui.widget import LOG_BLOCKS, MatchWidget
from throne_lib.kit.playtest.page import PlaytestPage, seat_page
from throne_lib.kit.playtest.session import EventsBoard, MatchOf
from throne_lib.kit.playtest.store import SPECTATOR, PlaytestStore


class SessionPlays:
    """The widget's agent slot: a playtest's AI seats are played by its session (under
    the lease), never by the page's own AI task."""

    name = "playtest"

    def choose(self, match: Any) -> Any:
        raise RuntimeError("a playtest's AI seats are played by the session (under the lease)")


class PlaytestController(Controller):
    """The board's clicks, sent to the playtest instead of applied to a local match."""

    def __init__(self, board: ThronePlaytestBoard) -> None:
        self.board = board
        super().__init__(board.match, board.human)

    match = MatchOf[Match]("board")

    @property
    def spectator(self) -> bool:
        return self.board.session.spectator

    @property
    def my_turn(self) -> bool:
        return not self.spectator and super().my_turn

    @property
    def hand(self) -> list[str]:
        return [] if self.spectator else super().hand

    def hint(self) -> str:
        m = self.match
        if self.spectator and not m.is_over:
            return f"旁观中：轮到{SIDE_NAMES_ZH[m.turn]}"
        return super().hint()

    def _not_now(self) -> bool:
        if self.spectator:
            self._say("旁观者不能行动", error=True)
            return True
        return super()._not_now()

    def _commit(self, action: Action) -> list[Event] | None:
        done = self.board.page.submit(action)
        self.board.seen_now()
        if not done:
            self.clear()
            self._say(
                "未执行：另一页面先行动了，或牌局拒绝了它（见上方）。请按新的局面重新选择", True
            )
            return None
        events = self.board.session.events or []
        return list(events[-1][1]) if events else []


class ThronePlaytestBoard(EventsBoard, MatchWidget):
    """The board of one seat (or the spectator) of a playtest (``page.ok``)."""

    def __init__(self, page: PlaytestPage) -> None:
        self.join(page, "Throne")
        seats = self.session.playtest.seats
        self.kinds = [sp.kind for sp in seats]
        seat = self.session.seat
        other = 1 - seat if seat in (0, 1) else 1
        super().__init__(
            self.session.match,
            SessionPlays(),
            human=max(seat, 0),
            tempo="fast",
            ai_mode="manual",
            agent_name=self._player(other),
            layout_px=Layout.of(self.session.match.geo, turned=seat == 1),  # red's way up
        )
        for w in (self.tempo, self.step_btn, self.tower, self.again_btn):
            w.layout.display = "none"
        if self.session.spectator:
            self.shuffle_btn.layout.display = self.end_btn.layout.display = "none"
        pid = self.session.pid
        self.log_error = f"对局记录保存在牌局 {pid} 中：throne playtest export {pid} --log 文件名"
        self.add_class("tp-playtest")
        page.on_change = self.follow
        self.root = W.VBox([page.bar, self])
        self.refresh()

    def make_controller(self, match: Match, human: int) -> Controller:
        return PlaytestController(self)

    match = MatchOf[Match]()

    @property
    def viewer(self) -> int | None:
        return None if self.session.spectator else self.human

    def _player(self, side: int) -> str:
        return "AI" if self.kinds[side] != "human" else "对手"

    def player_name(self, side: int) -> str:
        if self.session.spectator:
            return "AI" if self.kinds[side] != "human" else "玩家"
        return self._player(side)

    # --- following the store ------------------------------------------------------------
    def seen_now(self) -> None:
        self._seen = self.session.seq

    def follow(self) -> None:
        """The page's polling found new moves: the other seat's stay lit, with their lines
        above the board (a replaced card stays hidden); a selection is dropped."""
        s, m = self.session, self.match
        if s.seq == self._seen:
            self.refresh()
            return
        stored = s.store.actions(s.pid, self._seen)
        self._seen = s.seq
        self.ctrl.clear()
        for a in stored:
            if a.seat == self.viewer or self.viewer is None or a.seq > len(m.history):
                continue
            act = m.history[a.seq - 1]
            if act.kind == "end":
                continue
            cells = [c for c in (act.cell, act.target) if c >= 0]
            self.ai_trail += [c for c in cells if c not in self.ai_trail]
            hidden = act.kind == "replace"  # which card the other side swapped stays hidden
            self.ai_lines.append("替换 1 张手牌" if hidden else action_text(act, m.db, m.geo))
        self.flash = tuple(self.ai_trail)
        if self.ctrl.my_turn:
            self.ctrl._say("轮到你了（橙色格是对手本回合动过的地方）")
        self.refresh()

    # --- no local AI, no local log: the session plays the AI seats, the store records --
    def _ai_to_move(self) -> bool:
        return False

    def save_log(self) -> None:
        return None

    # --- drawing ------------------------------------------------------------------------
    def layer_ops(self) -> tuple[list[Op], list[Op], list[Op]]:
        """The spectator's tray has no hand (the widget's ``human`` is only its side of
        the board); a seat's layers are the single-player widget's."""
        view, m, px = self._view(), self.match, self.px
        if self.session.spectator:
            tray: list[Op] = [
                ("clear",),
                ("set", "text_align", "center"),
                ("set", "text_baseline", "middle"),
                *chip_ops(view, px),
            ]
        else:
            tray = tray_ops(m, view, px)
        return pieces_ops(m, view, px), tray, overlay_ops(m, view, px)

    def _update_log(self) -> None:
        """Every applied action's events, as its seat may see them: the other seat's
        drawn and replaced cards hidden; a spectator sees neither side's until the end."""
        m, s = self.match, self.session
        self.ctrl.events = [*m.setup_events, *chain.from_iterable(e for _, e in s.events or [])]
        viewer: int | None = s.seat
        if s.spectator and m.is_over:
            viewer = None
        elif s.spectator:
            viewer = SPECTATOR  # a side no event belongs to: every private card hidden
        blocks = log_blocks(self.ctrl.events, m.db, m.geo, viewer=viewer)
        self.log_panel.show(blocks[-LOG_BLOCKS:][::-1])


def throne_page(
    app: W.Widget | None = None,
    watcher: Any = None,
    store: PlaytestStore | None = None,
    query: str | None = None,
) -> W.Widget:
    """``notebooks/play.ipynb``: a playtest seat's board when the page was opened from a
    playtest link (``?playtest=…``), else the single-player dashboard — ``app`` (built
    before its visitor came, see :func:`throne_lib.ui.demo.wait_for_visitor`: brought up
    to date, ``watcher`` started) or a new one. A playtest's card table is its log
    header's: the watcher is not started for it."""

    def single() -> W.Widget:
        if app is None:
            from throne_lib.games.throne.ui import play_app

            widget: W.Widget = play_app()
            return widget
        on_visit = getattr(app, "on_visit", None)
        if on_visit is not None:
            on_visit()
        if watcher is not None:
            watcher.start()
        return app

    def joined(page: PlaytestPage) -> W.Widget:
        if app is not None:  # built for a visitor who came with a playtest link: unused
            close_tree(app)  # (Voilà's page would load every open widget model)
        return ThronePlaytestBoard(page).root

    return seat_page(
        joined,
        single,
        store=store,
        query=query,
        keep_events=True,
    )


def close_tree(widget: W.Widget) -> None:
    """Close ``widget`` and every widget under it (their models leave the kernel)."""
    for child in getattr(widget, "children", ()):
        close_tree(child)
    widget.close()
