"""The replay viewer: step through a match log like a chess game.

``show_replay(log)`` returns a widget: the board (the play UI's renderer), first /
previous / next / last, a slider over every action, jump to round N, play/pause at
a chosen speed, the 战报 of the current step highlighted, and the review charts
(:mod:`throne_lib.games.throne.review`) under it. Works inline in any notebook and in Voilà.
"""

from __future__ import annotations

import html
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as W
from ipycanvas import MultiCanvas

from throne_lib.games.throne.actions import Event
from throne_lib.games.throne.board import SIDE_NAMES_ZH
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.ui.controller import View
from throne_lib.games.throne.ui.layout import Layout
from throne_lib.games.throne.ui.render import board_ops, overlay_ops, units_ops
from throne_lib.games.throne.ui.text import event_text, log_blocks, result_text
from throne_lib.kit.log import LogError, LogFile, iter_replay, logs_dir, read_log
from throne_lib.kit.log import log_files as game_log_files
from throne_lib.kit.ui.canvas import run_ops, safe_hold
from throne_lib.kit.ui.log_browser import LogBrowser as KitLogBrowser
from throne_lib.kit.ui.shell import fit_to_window
from throne_lib.kit.ui.stepper import Stepper

ENV_LOGS = "THRONE_LOGS"  # the folder the play page writes and this page lists (else logs/)


@dataclass(frozen=True)
class Step:
    """The position after one action of the log (step 0 = after the setup)."""

    index: int
    action: str
    round: int
    side: int
    match: Match
    events: tuple[Event, ...]
    flash: tuple[int, ...]


def load_steps(log: LogFile) -> list[Step]:
    """Replay a log (checking its hashes) and keep a copy of every position."""
    if log.game != "throne":
        raise LogError(log.path, 1, f"a {log.game} log, not a 王座与方阵 (throne) log")
    steps: list[Step] = []
    for rec, match in iter_replay(log, check=True):
        if rec is None:
            steps.append(
                Step(0, "开局", 0, match.turn, match.copy(), tuple(match.setup_events), ())
            )
            continue
        events = tuple(Event.from_dict(e) for e in rec.events)
        acting = [
            e
            for e in events
            if e.kind in ("move", "attack", "summon", "play", "skill", "build", "found")
        ]
        flash: tuple[int, ...] = ()
        if acting:
            e = acting[0]
            flash = tuple(c for c in (e.cell, e.target_cell) if c >= 0)
        side = events[0].side if events else match.turn
        rnd = events[0].round if events else match.round
        steps.append(Step(rec.i, rec.action, rnd, side, match.copy(), events, flash))
    return steps


class ReplayWidget(W.VBox):
    """A log, step by step. ``step`` is the current index into ``steps``."""

    def __init__(self, log: LogFile | str | Path, charts: bool = True) -> None:
        self.logfile = log if isinstance(log, LogFile) else read_log(log)
        self.steps = load_steps(self.logfile)
        first = self.steps[0].match
        self.px = Layout.of(first.geo)
        self.ready = False
        self.draws = 0
        self.step = 0
        self.canvas = MultiCanvas(3, width=self.px.width, height=self.px.height)
        self.canvas.layout = W.Layout(width=f"{self.px.width}px", height=f"{self.px.height}px")
        self.canvas.on_client_ready(self._on_client_ready)
        self.stepper = Stepper(len(self.steps) - 1, self.show, [s.round for s in self.steps])
        self.slider, self.buttons = self.stepper.slider, self.stepper.buttons
        self.round_box, self.play, self.speed = (
            self.stepper.round_box,
            self.stepper.play,
            self.stepper.speed,
        )
        self.title = W.HTML()
        self.log_html = W.HTML(
            layout=W.Layout(width="380px", height=f"{self.px.height}px", overflow="auto")
        )
        board = W.HBox([self.canvas, self.log_html])
        kids: list[W.Widget] = [self.title, self.stepper, board]
        if charts:
            kids.append(self._charts())
        super().__init__(kids)
        fit_to_window(self, self.canvas)  # the stepper and the whole board in view (1280×720)
        self.show(0)

    @property
    def widget(self) -> W.VBox:
        """The viewer's widget (itself), as the kit's log browser expects."""
        return self

    @property
    def controls(self) -> Stepper:
        return self.stepper

    # --- navigation ----------------------------------------------------------------------

    def go(self, index: int) -> None:
        self.stepper.go(index)

    def jump_to_round(self, round_no: int) -> None:
        """Land on the first action of round ``round_no``."""
        self.stepper.jump_to_round(round_no)

    def show(self, index: int) -> None:
        self.step = index
        s = self.steps[index]
        self._draw(s)
        m = s.match
        where = f"第 {s.round}/{m.rules.round_limit} 回合" if s.round else "开局"
        end = ""
        if index == len(self.steps) - 1 and m.is_over:
            end = " · " + html.escape(result_text(m.winner, m.end_reason))
        # The step in the 战报's words (an attack with its counter on one line), not the
        # log's notation; and whose hand the board shows under it.
        lines = [t for _, ls in log_blocks(list(s.events), m.db, m.geo) for _, t in ls]
        said = lines[0] if lines else ("开局" if s.index == 0 else s.action)
        hand = self.view_for(s).human
        self.title.value = (
            f"<b>{html.escape(self.logfile.path)}</b> · {where} · 步 {s.index}/{len(self.steps) - 1}"
            f" · <span class='tp-replay-said'>{html.escape(said)}</span>"
            f" · 王座 蓝 {m.throne_hp(0)} / 红 {m.throne_hp(1)}{end}"
            f" · 下方手牌：{SIDE_NAMES_ZH[hand]}"
        )
        self.log_html.value = self._log_html(index)
        self._mark_round(max(1, s.round))

    def _log_html(self, index: int) -> str:
        """The 战报 from three steps before the current one, the current step highlighted:
        it sits near the top of the box, in view without scrolling (a step can take
        several lines; twelve steps before it pushed it below the box's fold)."""
        lo, hi = max(0, index - 3), min(len(self.steps), index + 22)
        parts = []
        for s in self.steps[lo:hi]:
            texts = [event_text(e, s.match.db, s.match.geo) for e in s.events]
            body = "<br>".join(html.escape(t) for t in texts if t) or html.escape(s.action)
            style = (
                "background:#fff3c4;border-left:4px solid #d4a017;"
                if s.index == index
                else "color:#555;"
            )
            parts.append(
                f"<div style='{style}padding:2px 6px;margin:2px 0'><b>#{s.index}</b> {body}</div>"
            )
        return "<div style='font-size:12px'>" + "".join(parts) + "</div>"

    # --- drawing ---------------------------------------------------------------------------

    def view_for(self, s: Step) -> View:
        return View(human=s.match.turn if s.match.turn in (0, 1) else 0, flash=s.flash)

    def ops_for(self, index: int) -> tuple[list[Any], list[Any]]:
        s = self.steps[index]
        view = self.view_for(s)
        return units_ops(s.match, view, self.px), overlay_ops(s.match, view, self.px)

    def _draw(self, s: Step) -> None:
        if not self.ready:
            return
        units, overlay = self.ops_for(s.index)
        with safe_hold():
            run_ops(self.canvas[1], units)
            run_ops(self.canvas[2], overlay)
        self.draws += 1

    def _on_client_ready(self) -> None:
        self.ready = True
        with safe_hold():
            run_ops(self.canvas[0], board_ops(self.px))
        self.show(self.step)

    # --- charts ----------------------------------------------------------------------------

    def _charts(self) -> W.Widget:
        from throne_lib.games.throne.review import plot_review, round_axes

        fig = plot_review(self.logfile)
        self._fig = fig
        self._round_lines = [
            ax.axvline(1, color="#d4a017", linewidth=2, alpha=0.8) for ax in round_axes(fig)
        ]
        self.chart = W.Image(format="png", layout=W.Layout(width="880px"))
        self.chart_round = 0
        self._mark_round(max(1, self.steps[self.step].round))
        return self.chart

    def _mark_round(self, round_no: int) -> None:
        """Move the charts' marker to ``round_no`` (redrawn only when the round changes)."""
        if getattr(self, "_fig", None) is None or round_no == self.chart_round:
            return
        for line in self._round_lines:
            line.set_xdata([round_no, round_no])
        buf = io.BytesIO()
        self._fig.savefig(buf, format="png", dpi=80)
        self.chart.value = buf.getvalue()
        self.chart_round = round_no


def show_replay(log: LogFile | str | Path, charts: bool = True) -> ReplayWidget:
    """Display a match log inline: ``show_replay("logs/….jsonl")``."""
    return ReplayWidget(log, charts=charts)


def log_files(folder: Path | None = None) -> list[Path]:
    """The Throne logs in ``folder``, newest first: the other games' logs share the
    folder (the castle replay page writes its demo match there) and open on their own
    replay pages."""
    return game_log_files(folder if folder is not None else logs_dir(ENV_LOGS), "throne")


class LogBrowser(KitLogBrowser):
    """Pick a log from the folder and review it (``notebooks/replay.ipynb``)."""

    game = "throne"
    env_logs = ENV_LOGS

    def make_replay(self, log: LogFile | str) -> ReplayWidget:
        return ReplayWidget(log)
