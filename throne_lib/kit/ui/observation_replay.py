"""A replay page for any registered game, from the protocol alone: a game without a
viewer of its own (the kit's example 暗标夺宝, a game just added) still gets its logs
reviewed step by step.

:class:`ObservationReplay` checks a log as ``throne replay --check`` does and shows, at
every step, a seat's ``observation(seat)`` — what that seat could see at that point, as a
table, the entries that changed since the previous step marked — or every seat's view at
once (全部公开, the reviewer's). Another seat's action is named only as 「座位 0（甲）行动」 in a
seat's view: the kit cannot know which actions a game shows (a secret bid is one), so
it shows none; what the action made visible is in the observation. The logged events
are the reviewer's only, for the same reason. :class:`ObservationLogBrowser` is the kit's
log browser over it, with a random-agent demo match for an empty folder.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ipywidgets as W

from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent
from throne_lib.kit.log import (
    AgentInfo,
    LogError,
    LogFile,
    iter_replay,
    log_lines,
    parse_log,
    read_log,
    write_log,
)
from throne_lib.kit.registry import winning_seats
from throne_lib.kit.ui.log_browser import LogBrowser
from throne_lib.kit.ui.stepper import REVEAL, SeatReplay

__all__ = [
    "REVEAL",
    "ObservationLogBrowser",
    "ObservationReplay",
    "demo_log",
    "log_path",
    "observation_table",
]


def _cell(value: Any) -> str:
    if isinstance(value, Mapping):
        rows = "".join(
            f"<tr><td style='color:#666;padding-right:8px'>{html.escape(str(k))}</td>"
            f"<td>{_cell(v)}</td></tr>"
            for k, v in value.items()
        )
        return f"<table>{rows}</table>"
    if isinstance(value, list | tuple):
        if not value:
            return "（无）"
        if any(isinstance(v, list | tuple | Mapping) for v in value):  # one line per item
            return "".join(
                f"<div><span style='color:#999'>{i}：</span>{_cell(v)}</div>"
                for i, v in enumerate(value)
            )
        return "、".join(_cell(v) for v in value)
    return html.escape("—" if value is None else str(value))


def observation_table(obs: Mapping[str, Any], before: Mapping[str, Any] | None = None) -> str:
    """A seat's view as an HTML table, one row per entry; with ``before`` (the view one
    step earlier) the entries that changed are highlighted (class ``replay-changed``)."""
    rows = []
    for key, value in obs.items():
        changed = before is not None and before.get(key) != value
        style = "background:#fff3c4;" if changed else ""
        cls = " class='replay-changed'" if changed else ""
        rows.append(
            f"<tr{cls} style='{style}'><td style='color:#555;padding:2px 8px'>"
            f"{html.escape(str(key))}</td><td style='padding:2px 8px'>{_cell(value)}</td></tr>"
        )
    return f"<table style='font-size:13px;border-collapse:collapse'>{''.join(rows)}</table>"


class ObservationReplay(SeatReplay):
    """A log of ``game`` (any registered game), step by step, from one seat's view or all."""

    def __init__(
        self, log: LogFile | str | Path, game: str, seat: int = 0, reveal: bool = False
    ) -> None:
        self.logfile = log if isinstance(log, LogFile) else read_log(log)
        self.game = registry.get(game)
        if self.logfile.game != game:
            raise LogError(
                self.logfile.path, 1, f"a {self.logfile.game} log, not a {self.game.title} log"
            )
        self.steps = [(rec, m.copy()) for rec, m in iter_replay(self.logfile, check=True)]
        self.num_seats = self.steps[0][1].num_seats
        self.make_controls(len(self.steps) - 1, self.show)
        options = [(self.game.seat_label(s), s) for s in range(self.num_seats)]
        self.seat_pick = W.Dropdown(
            options=[*options, ("全部公开（复盘者视角）", REVEAL)],
            value=REVEAL if reveal else seat, description="视角", layout=W.Layout(width="300px"),
        )  # fmt: skip
        self.seat_pick.observe(lambda _: self.show(self.index), names="value")
        self.title = W.HTML()
        self.body = W.HTML()
        for widget, css in (
            (self.title, "replay-title"), (self.seat_pick, "replay-seat"),
            (self.body, "replay-view"),
        ):  # fmt: skip
            widget.add_class(css)
        self.widget = W.VBox([self.title, self.controls, self.seat_pick, self.body])
        self.widget.add_class("observation-replay")
        self.show(0)

    def said(self, index: int) -> str:
        """Step ``index``'s action: named to its own seat and to the reviewer only."""
        if index == 0:
            return "开局"
        actor = self.steps[index - 1][1].current_seat
        who = self.game.seat_label(actor)
        if self.seat is not None and self.seat != actor:
            return f"{who}行动"
        rec = self.steps[index][0]
        return f"{who}：{rec.action if rec else ''}"

    def seat_html(self, index: int, seat: int) -> str:
        """``observation(seat)`` at step ``index``, the entries changed since the step
        before highlighted."""
        obs = self.steps[index][1].observation(seat)
        before = self.steps[index - 1][1].observation(seat) if index else None
        return (
            f"<div class='replay-seat-view' style='margin:6px 12px 6px 0'><b>"
            f"{html.escape(self.game.seat_label(seat))} 看到的</b>"
            f"{observation_table(obs, before)}</div>"
        )

    def events_html(self, index: int) -> str:
        """The step's logged events (the reviewer's view only: which a seat saw is the game's)."""
        rec = self.steps[index][0]
        if self.seat is not None or rec is None or not rec.events:
            return ""
        items = "".join(
            f"<li><code>{html.escape(json.dumps(e, ensure_ascii=False))}</code></li>"
            for e in rec.events
        )
        return f"<div class='replay-events'><b>事件</b><ul>{items}</ul></div>"

    def show(self, index: int) -> None:
        m = self.steps[index][1]
        end = ""
        if m.is_over:
            won = winning_seats(m.returns())
            text = "、".join(self.game.seat_label(s) for s in won) + "获胜" if won else "平局"
            end = f" · 对局结束：{html.escape(text)}"
        who = "全部公开（复盘者视角）" if self.seat is None else self.game.seat_label(self.seat)
        self.title.value = (
            f"<b>{html.escape(self.logfile.path)}</b> · 步 {index}/{len(self.steps) - 1}"
            f" · <span class='replay-said'>{html.escape(self.said(index))}</span>{end} · {who}"
        )
        seats = range(self.num_seats) if self.seat is None else [self.seat]
        views = "".join(self.seat_html(index, s) for s in seats)
        self.body.value = (
            f"<div style='display:flex;flex-wrap:wrap'>{views}</div>{self.events_html(index)}"
        )


def log_path(folder: Path, match: Any) -> Path:
    """Where a page writes a match's log: ``folder/GAME-YYYYmmdd-HHMMSS-ffffff-seedN.jsonl``."""
    stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
    return folder / f"{match.game}-{stamp}-seed{match.seed}.jsonl"


def demo_log(game: str, folder: Path, seed: int = 3) -> Path | LogFile:
    """A match of ``game``'s default agents to look at when ``folder`` holds no log of it:
    written to ``folder/GAME-demo-seed{seed}.jsonl`` (kept in memory if it cannot be)."""
    g = registry.get(game)
    m = g.new(seed=seed)
    agents = [make_agent(g.default_agent, seed * m.num_seats + s, game) for s in range(m.num_seats)]
    while not m.is_over:
        m.apply(agents[m.current_seat].choose(m))
    infos = [AgentInfo(g.default_agent, seed * m.num_seats + s) for s in range(m.num_seats)]
    path = folder / f"{game}-demo-seed{seed}.jsonl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_log(m, path, infos)
    except OSError:
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in log_lines(m, infos))
        return parse_log(text, "demo")
    return path


class ObservationLogBrowser(LogBrowser):
    """The log browser of a game without a replay viewer of its own: subclass with
    ``game`` and ``env_logs`` (the page's folder variable)."""

    def make_replay(self, log: LogFile | str) -> ObservationReplay:
        return ObservationReplay(log, self.game)

    def demo_log(self, folder: Path) -> Path | LogFile:
        return demo_log(self.game, folder)
