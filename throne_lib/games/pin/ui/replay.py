"""The PIN replay viewer: step through a PIN match log (the kit's JSONL format).

``PinReplay(log)`` checks the log as ``throne replay --check`` does (hashes and events of
every action, :func:`throne_lib.kit.log.iter_replay`), keeps the position after every
action and draws it on the play page's board (:func:`~.widget.draw_board`):

- step first / back / forward / last, a slider, play and pause (the kit's
  :class:`~throne_lib.kit.ui.stepper.Stepper`), or jump to a turn;
- the side whose view is shown, 甲 or 乙: the board from that side, its own hand, the
  other hand as a count, and the 战报 lines that side may read (a draw, a secret pick
  stay the other side's) — everything from ``observation(seat)`` and the logged events'
  ``private`` field — or 全部公开, the reviewer's view with both hands and every line.

``PinLogBrowser`` lists the PIN logs of ``logs/`` (``$PIN_LOGS``), which the play page
writes (``notebooks/pin_replay.ipynb``); an empty folder gets a scripted demo match.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas

from throne_lib.games.pin import ui_model as ui
from throne_lib.games.pin.hexes import SIDE_NAMES
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.ui.inspect import PHASE_ZH
from throne_lib.games.pin.ui.widget import HEIGHT, WIDTH, draw_board
from throne_lib.kit.log import (
    AgentInfo,
    LogError,
    LogFile,
    iter_replay,
    match_log,
    read_log,
    write_log,
)
from throne_lib.kit.log import logs_dir as kit_logs_dir
from throne_lib.kit.ui.canvas import safe_hold
from throne_lib.kit.ui.log_browser import LogBrowser
from throne_lib.kit.ui.shell import fit_to_window
from throne_lib.kit.ui.stepper import REVEAL, SeatReplay

ENV_LOGS = "PIN_LOGS"  # overrides the folder the play page writes and the replay lists


def logs_dir() -> Path:
    """The folder of PIN logs: ``$PIN_LOGS`` or the repository's ``logs/``."""
    return kit_logs_dir(ENV_LOGS)


@dataclass(frozen=True)
class Step:
    """The position after action ``index`` of the log (0: the setup) and that action's
    events as logged (dicts with ``text`` and, for one side's eyes only, ``private``)."""

    index: int
    action: str
    match: PinMatch
    events: tuple[dict[str, Any], ...]


def load_steps(log: LogFile) -> list[Step]:
    """Replay a PIN log (checking every hash and event) and keep every position."""
    if log.game != "pin":
        raise LogError(log.path, 1, f"a {log.game} log, not a PIN (pin) log")
    return [
        Step(
            rec.i if rec else 0, rec.action if rec else "开局", m.copy(), rec.events if rec else ()
        )
        for rec, m in iter_replay(log, check=True)
    ]


class PinReplay(SeatReplay):
    """A PIN match log, step by step, from one side's view or all revealed."""

    def __init__(self, log: LogFile | str | Path, seat: int = 0, reveal: bool = False) -> None:
        self.logfile = log if isinstance(log, LogFile) else read_log(log)
        self.steps = load_steps(self.logfile)
        self.canvas = Canvas(
            width=WIDTH, height=HEIGHT, layout=W.Layout(width=f"{WIDTH}px", height=f"{HEIGHT}px")
        )
        self.canvas.on_client_ready(lambda: self.show(self.index))
        self.make_controls(len(self.steps) - 1, self.show)
        self.turns = self._turn_starts()
        self.turn_pick = W.Dropdown(
            options=[(self._turn_label(i), i) for i in self.turns], description="回合",
            layout=W.Layout(width="260px"),
        )  # fmt: skip
        self.turn_pick.observe(self._on_turn_pick, names="value")
        self._syncing = False
        self.seat_pick = W.Dropdown(
            options=[("甲方视角", 0), ("乙方视角", 1), ("全部公开（复盘者视角）", REVEAL)],
            value=REVEAL if reveal else seat, description="视角", layout=W.Layout(width="260px"),
        )  # fmt: skip
        self.seat_pick.observe(lambda _: self.show(self.index), names="value")
        self.title = W.HTML()
        self.top = W.HTML()
        self.hands = W.HTML(layout=W.Layout(width=f"{WIDTH}px"))
        self.log_html = W.HTML(
            layout=W.Layout(width="380px", height=f"{HEIGHT}px", overflow="auto")
        )
        for widget, css in (
            (self.title, "replay-title"), (self.turn_pick, "replay-turn"),
            (self.seat_pick, "replay-seat"), (self.hands, "replay-hands"),
            (self.log_html, "replay-log"), (self.canvas, "replay-board"), (self.top, "replay-top"),
        ):  # fmt: skip
            widget.add_class(css)
        self.widget = W.VBox(
            [
                self.title,
                self.controls,
                W.HBox([self.seat_pick, self.turn_pick]),
                self.top,
                W.HBox([W.VBox([self.canvas, self.hands]), self.log_html]),
            ]
        )
        self.widget.add_class("pin-replay")
        fit_to_window(self.widget, self.canvas)
        self.show(0)

    # --- navigation ----------------------------------------------------------------------
    def _turn_starts(self) -> list[int]:
        """The first step of each turn (the setup is step 0)."""
        out, last = [0], (0, 0)
        for i, s in enumerate(self.steps):
            key = (s.match.state.round, s.match.state.turn)
            if i and key != last and s.match.state.turn:
                out.append(i)
            last = key
        return out

    def _turn_label(self, index: int) -> str:
        st = self.steps[index].match.state
        if not st.turn:
            return "开局（换牌、展示）"
        return f"第{st.round}轮 · 回合{st.turn} · {SIDE_NAMES[st.active]}"

    def _on_turn_pick(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self.go(int(change["new"]))

    # --- what is shown ---------------------------------------------------------------------
    def visible(self, event: dict[str, Any]) -> bool:
        """An event the viewer may read: public, its own, or everything (全部公开)."""
        private = event.get("private")
        return self.seat is None or private is None or private == self.seat

    def step_lines(self, index: int) -> list[str]:
        return [str(e["text"]) for e in self.steps[index].events if self.visible(e)]

    def said(self, index: int) -> str:
        """The action of step ``index`` in Chinese. A side's view names only its own
        decisions; the other side's (a secret pick, a mulligan) only by the lines it reads."""
        if index == 0:
            return "开局"
        before = self.steps[index - 1].match
        if self.seat is not None and before.current_seat != self.seat:
            lines = self.step_lines(index)
            return lines[0] if lines else "（对方的决定，不公开）"
        side = SIDE_NAMES[before.current_seat]
        try:
            return f"{side}：{before.describe(before.parse(self.steps[index].action))}"
        except (ValueError, KeyError, IndexError):
            return f"{side}：{self.steps[index].action}"

    def title_html(self, index: int) -> str:
        s = self.steps[index]
        said = self.said(index)
        end = ""
        if index == len(self.steps) - 1 and s.match.is_over:
            w = s.match.state.winner
            end = " · 对局结束：" + ("平局" if w is None or w < 0 else f"{SIDE_NAMES[w]}获胜")
        who = "全部公开（复盘者视角）" if self.seat is None else f"{SIDE_NAMES[self.seat]}方视角"
        return (
            f"<b>{html.escape(self.logfile.path)}</b> · 步 {s.index}/{len(self.steps) - 1}"
            f" · <span class='replay-said'>{html.escape(said)}</span>{end} · {who}"
        )

    def top_html(self, m: PinMatch, viewer: int) -> str:
        bar = ui.top_bar(m, viewer)
        cp = " ".join(f"{SIDE_NAMES[s]} {bar['cp'][s]}" for s in (0, 1))
        return (
            f"第{bar['round']}轮 · 回合{bar['turn']} · {PHASE_ZH.get(bar['phase'], bar['phase'])}阶段"
            f" · 指挥点 {cp} · 手牌 {bar['hands'][0]}/{bar['hands'][1]}"
            f" · 牌库 {bar['decks'][0]}/{bar['decks'][1]} · 坟场 {bar['graves'][0]}/{bar['graves'][1]}"
        )

    def hands_html(self, m: PinMatch) -> str:
        """The hands the view knows: its own (a side's view; the other as a count), or both."""
        rows, seat = [], self.seat
        for side in (0, 1):
            if seat is None:
                cards: list[str] | None = list(m.state.hands[side])
            elif side == seat:
                cards = list(m.observation(side)["hand"])
            else:
                cards = None
            if cards is None:
                count = m.observation(1 - side)["hand_counts"][side]
                text = f"{count} 张（背面）"
            else:
                text = "、".join(m.db[c].name for c in cards) or "（无手牌）"
            cls = "replay-hand" if cards is not None else "replay-hand-back"
            rows.append(
                f"<div class='{cls}'><b>{SIDE_NAMES[side]}方手牌</b>：{html.escape(text)}</div>"
            )
        return "<div style='font-size:13px'>" + "".join(rows) + "</div>"

    def log_html_of(self, index: int) -> str:
        """The 战报 around the step (the viewer's lines), the current step highlighted."""
        lo, hi = max(0, index - 3), min(len(self.steps), index + 12)
        parts = []
        for i in range(lo, hi):
            body = (
                "<br>".join(html.escape(t) for t in self.step_lines(i)) or "<i>（无公开战报）</i>"
            )
            current = i == index
            style = (
                "background:#fff3c4;border-left:4px solid #d4a017;" if current else "color:#555;"
            )
            cls = " replay-current" if current else ""
            parts.append(
                f"<div class='replay-entry{cls}' style='{style}padding:2px 6px;margin:2px 0'>"
                f"<b>#{i}</b> {body}</div>"
            )
        return "<div style='font-size:12px'>" + "".join(parts) + "</div>"

    def show(self, index: int) -> None:
        m = self.steps[index].match
        viewer = 0 if self.seat is None else self.seat
        obs = dict(m.observation(viewer))  # the board is public; hands are shown below
        with safe_hold():
            draw_board(self.canvas, m, viewer, obs)
        self.title.value = self.title_html(index)
        self.top.value = self.top_html(m, viewer)
        self.hands.value = self.hands_html(m)
        self.log_html.value = self.log_html_of(index)
        current = max((i for i in self.turns if i <= index), default=0)
        if self.turn_pick.value != current:  # follow the step without jumping back
            self._syncing = True
            try:
                self.turn_pick.value = current
            finally:
                self._syncing = False


def demo_log(folder: Path, seed: int = 3) -> Path | LogFile:
    """A scripted match to look at when ``folder`` holds no PIN log yet: written to
    ``folder/pin-demo-seed{seed}.jsonl`` (kept in memory if it cannot be)."""
    from throne_lib.games.pin.agents import ScriptedAgent
    from throne_lib.kit import registry

    m = registry.get("pin").new(seed=seed)
    assert isinstance(m, PinMatch)
    agents = [ScriptedAgent(seed=seed), ScriptedAgent(seed=seed + 1)]
    while not m.is_over:
        m.apply(agents[m.current_seat].choose(m))
    path = folder / f"pin-demo-seed{seed}.jsonl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_log(m, path, [AgentInfo("standard", seed), AgentInfo("standard", seed + 1)])
    except OSError:
        return match_log(m)
    return path


class PinLogBrowser(LogBrowser):
    """Pick a PIN log and review it (``notebooks/pin_replay.ipynb``)."""

    game = "pin"
    env_logs = ENV_LOGS

    def make_replay(self, log: LogFile | str) -> PinReplay:
        return PinReplay(log)

    def demo_log(self, folder: Path) -> Path | LogFile:
        return demo_log(folder)
