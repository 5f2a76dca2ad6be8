"""The 城堡之心 replay viewer: step through a match log (the kit's JSONL format).

``CastleReplay(log)`` checks the log as ``throne replay --check`` does (hashes and events
of every action, :func:`throne_lib.kit.log.iter_replay`), keeps the position after every
action and shows it on the round table of the play dashboard (``ui/table.py``):

- step first / back / forward / last, a slider, play and pause at a chosen speed;
- jump to a turn (a hero's turn, CH-TURN) or step turn by turn;
- the seat whose view is shown: that seat's ``observation(seat)`` only — its own
  identity and hand, the 城主 and revealed identities, its own 战报 lines (another seat's
  drawn cards stay a count) — or 全部公开, the reviewer's view (``reveal_all()``,
  CH-UI-5) with every identity, hand and private line;
- the 战报 around the step, the current step highlighted.

Everything drawn comes from the view dict (:meth:`CastleReplay.view`), so a seat's view
shows exactly what that seat could see at that point of the match. The stepping
controls are the kit's :class:`~throne_lib.kit.ui.stepper.Stepper`.
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas

from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.castle.ui.table import H, draw_table
from throne_lib.games.castle.ui.table import W as WIDTH
from throne_lib.kit import registry
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

ENV_LOGS = "CASTLE_LOGS"  # overrides the folder the replay page lists


@dataclass(frozen=True)
class Step:
    """The position after action ``index`` of the log (0: after the setup); the events
    of that action are ``match.state.log[log_from:]``."""

    index: int
    action: str
    round: int
    turn_no: int
    turn_seat: int
    match: CastleMatch
    log_from: int


def load_steps(log: LogFile, game: str = "castle") -> list[Step]:
    """Replay a ``game`` log (checking every hash and event) and keep every position."""
    if log.game != game:
        title = registry.get(game).title
        raise LogError(log.path, 1, f"a {log.game} log, not a {title} ({game}) log")
    steps: list[Step] = []
    before = 0
    for rec, match in iter_replay(log, check=True):
        m: CastleMatch = match
        s = m.state
        steps.append(
            Step(
                rec.i if rec else 0,
                rec.action if rec else "开局",
                s.round,
                s.turn_no,
                s.turn_seat,
                m.copy(),
                before if rec else 0,
            )
        )
        before = len(s.log)
    return steps


class CastleReplay(SeatReplay):
    """A castle match log, step by step, from one seat's view or all revealed. A mode on
    the round table (城池战: :class:`~throne_lib.games.cities.ui.replay.CitiesReplay`) sets
    ``game``, ``height`` and :meth:`draw`."""

    game = "castle"
    height = H

    def __init__(self, log: LogFile | str | Path, seat: int = 0, reveal: bool = False) -> None:
        self.logfile = log if isinstance(log, LogFile) else read_log(log)
        self.steps = load_steps(self.logfile, self.game)
        last = self.steps[-1].match
        self.cards = last.state.cards
        self.num_seats = last.num_seats
        self._log_cache: dict[int, list[str]] = {}
        self._said: dict[int, str] = {}
        self.canvas = Canvas(width=WIDTH, height=self.height, layout=W.Layout(width=f"{WIDTH}px"))
        self.canvas.on_client_ready(self._client_ready)
        self.make_controls(len(self.steps) - 1, self.show)
        self.turns = self._turn_starts()
        self.turn_pick = W.Dropdown(
            options=[(self._turn_label(i), i) for i in self.turns], description="回合",
            layout=W.Layout(width="300px"),
        )  # fmt: skip
        self._syncing = False
        self.turn_pick.observe(self._on_turn_pick, names="value")
        prev_turn = W.Button(description="◀ 上一回合", layout=W.Layout(width="96px"))
        next_turn = W.Button(description="下一回合 ▶", layout=W.Layout(width="96px"))
        prev_turn.on_click(lambda _: self.step_turn(-1))
        next_turn.on_click(lambda _: self.step_turn(+1))
        self.seat_pick = W.Dropdown(
            options=self._seat_options(), value=REVEAL if reveal else seat, description="视角",
            layout=W.Layout(width="300px"),
        )  # fmt: skip
        self.seat_pick.observe(lambda _: self.show(self.index), names="value")
        self.title = W.HTML()
        self.hands = W.HTML(layout=W.Layout(width=f"{WIDTH}px"))
        self.log_html = W.HTML(
            layout=W.Layout(width="400px", height=f"{self.height}px", overflow="auto")
        )
        for widget, css in (
            (self.title, "replay-title"), (self.turn_pick, "replay-turn"),
            (self.seat_pick, "replay-seat"), (self.hands, "replay-hands"),
            (self.log_html, "replay-log"), (self.canvas, "replay-table"),
            (prev_turn, "replay-prev-turn"), (next_turn, "replay-next-turn"),
        ):  # fmt: skip
            widget.add_class(css)
        self.widget = W.VBox(
            [
                self.title,
                self.controls,
                W.HBox([self.seat_pick, self.turn_pick, prev_turn, next_turn]),
                W.HBox([W.VBox([self.canvas, self.hands]), self.log_html]),
            ]
        )
        self.widget.add_class("castle-replay")
        fit_to_window(self.widget, self.canvas)  # the whole round table at 1280×720
        self.show(0)

    # --- navigation ----------------------------------------------------------------------
    def _turn_starts(self) -> list[int]:
        """The first step of every turn (a new ``turn_no``), after the setup step."""
        out: list[int] = []
        seen = None
        for s in self.steps:
            if s.turn_no and s.turn_no != seen:
                out.append(s.index)
                seen = s.turn_no
        return out or [0]

    def _turn_label(self, index: int) -> str:
        s = self.steps[index]
        if not s.turn_no:
            return "开局"
        return f"第{s.turn_no}回合 · 第{s.round}轮 · {s.match.state.hero_name(s.turn_seat)}"

    def _on_turn_pick(self, change: dict[str, Any]) -> None:
        if not self._syncing:
            self.go(int(change["new"]))

    def jump_to_turn(self, turn_no: int) -> None:
        """Land on the first step of turn ``turn_no`` (or the last turn there is)."""
        for i in self.turns:
            if self.steps[i].turn_no >= turn_no:
                self.go(i)
                return
        self.go(self.turns[-1])

    def step_turn(self, delta: int) -> None:
        """To the start of the next (``+1``) or previous (``-1``) turn."""
        if delta > 0:
            later = [i for i in self.turns if i > self.index]
            self.go(later[0] if later else len(self.steps) - 1)
        else:
            earlier = [i for i in self.turns if i < self.index]
            self.go(earlier[-1] if earlier else 0)

    def _seat_options(self) -> list[tuple[str, int]]:
        final = self.steps[-1].match.state
        opts = [(f"{p.seat}号座位 · {final.hero_name(p.seat)}", p.seat) for p in final.players]
        return [*opts, ("全部公开（复盘者视角）", REVEAL)]

    # --- what is shown ---------------------------------------------------------------------
    def view(self, index: int | None = None) -> dict[str, Any]:
        """The view dict of a step: ``observation(seat)``, or everything (全部公开)."""
        m = self.steps[self.index if index is None else index].match
        seat = self.seat
        if seat is None:
            return m.reveal_all() | {"seat": None}
        return m.observation(seat)

    def _seat_log(self) -> list[str]:
        """The viewer's 战报 lines of the whole match (the log only grows, so a step's
        lines are a slice; the last step's view holds them all)."""
        key = REVEAL if self.seat is None else int(self.seat)
        if key not in self._log_cache:
            self._log_cache[key] = list(self.view(len(self.steps) - 1)["log"])
        return self._log_cache[key]

    def actor(self, index: int) -> int:
        """The seat that took the action of step ``index`` (-1: the setup)."""
        return self.steps[index - 1].match.current_seat if index > 0 else -1

    def said(self, index: int) -> str:
        """The action of step ``index`` in Chinese (as the play dashboard's buttons say).
        A seat's view names only its own decisions: another seat's answer can tell what
        it holds or is (a neutral's 保持 declaration, a declined rescue), so it shows
        only the 战报 lines the viewer reads."""
        if index == 0:
            return "开局"
        seat = self.seat
        if seat is not None and self.actor(index) != seat:
            lines = self.step_lines(index)
            return lines[0] if lines else "（其他座位的决定，不公开）"
        if index not in self._said:
            before = self.steps[index - 1].match
            try:
                self._said[index] = before.describe(before.parse(self.steps[index].action))
            except (ValueError, KeyError, IndexError):
                self._said[index] = self.steps[index].action
        return self._said[index]

    def step_lines(self, index: int) -> list[str]:
        """The viewer's lines of the events of step ``index``."""
        s = self.steps[index]
        end = self.steps[index + 1].log_from if index + 1 < len(self.steps) else None
        return self._seat_log()[s.log_from : end]

    def title_html(self, index: int) -> str:
        s, obs = self.steps[index], self.view(index)
        where = f"第{s.round}轮 · 第{s.turn_no}回合" if s.turn_no else "准备阶段"
        if index > 0 and self.seat in (None, self.actor(index)):  # who answered is private
            where += f" · {html.escape(s.match.state.hero_name(self.actor(index)))}行动"
        said = self.said(index)
        end = ""
        if index == len(self.steps) - 1 and s.match.is_over:
            res = obs.get("end_rule") or s.match.state.end_rule
            end = f" · 游戏结束（{html.escape(str(res))}）"
        who = "全部公开（复盘者视角）" if self.seat is None else f"{self.seat}号座位的视角"
        return (
            f"<b>{html.escape(self.logfile.path)}</b> · {where} · 步 {s.index}/{len(self.steps) - 1}"
            f" · <span class='replay-said'>{html.escape(said)}</span>{end} · {who}"
        )

    def seat_label(self, obs: dict[str, Any], p: dict[str, Any]) -> str:
        """What the view knows a seat to be, beside its hand: its identity."""
        return str(p["role_zh"])

    def hands_html(self, obs: dict[str, Any]) -> str:
        """The identities and hands the view knows: its own (a seat), or all (全部公开)."""
        rows = []
        for p in obs["players"]:
            hand = p.get("hand")
            if hand is None and p["seat"] == obs["seat"]:
                hand = obs["hand"]
            if hand is None:
                continue
            names = "、".join(self.cards[c].name for c in hand) or "（无手牌）"
            rows.append(
                f"<div class='replay-hand'><b>{p['seat']}号座位 {html.escape(p['hero_name'] or '')}</b>"
                f"（{html.escape(self.seat_label(obs, p))}）：{html.escape(names)}</div>"
            )
        return "<div style='font-size:13px'>手牌 · " + "".join(rows) + "</div>"

    def log_html_of(self, index: int) -> str:
        """The 战报 around the step (the viewer's lines), the current step highlighted."""
        lo, hi = max(0, index - 3), min(len(self.steps), index + 12)  # the step near the top
        parts = []
        for i in range(lo, hi):
            lines = self.step_lines(i)
            said = self.said(i)
            body = "<br>".join(
                html.escape(t) for t in ([said] if said not in lines else []) + lines
            )
            style = (
                "background:#fff3c4;border-left:4px solid #d4a017;" if i == index else "color:#555;"
            )
            cls = " replay-current" if i == index else ""
            notes = "".join(  # a playtest's notes (docs/playtests.md) at their step
                f"<div class='replay-note' style='color:#8a4b08'>📝 {html.escape(n.seat)}："
                f"{html.escape(n.text)}</div>"
                for n in self.logfile.notes
                if n.after == i
            )
            parts.append(
                f"<div class='replay-entry{cls}' style='{style}padding:2px 6px;margin:2px 0'>"
                f"<b>#{i}</b> {body}{notes}</div>"
            )
        return "<div style='font-size:12px'>" + "".join(parts) + "</div>"

    def draw(self, obs: dict[str, Any]) -> None:
        """The round table of a view (inside one canvas batch)."""
        draw_table(self.canvas, obs, self.cards)

    def show(self, index: int) -> None:
        obs = self.view(index)
        with safe_hold():
            self.draw(obs)
        self.title.value = self.title_html(index)
        self.hands.value = self.hands_html(obs)
        self.log_html.value = self.log_html_of(index)
        current = max((i for i in self.turns if i <= index), default=self.turns[0])
        if self.turn_pick.value != current:  # follow the step without jumping back
            self._syncing = True
            try:
                self.turn_pick.value = current
            finally:
                self._syncing = False

    def _client_ready(self) -> None:
        """A view appeared: draw again (see CastleApp._client_ready)."""
        self.show(self.index)


def logs_dir() -> Path:
    """The folder of castle (and 城池战) logs: ``$CASTLE_LOGS`` or the repository's ``logs/``."""
    return kit_logs_dir(ENV_LOGS)


def demo_log(folder: Path, players: int = 5, seed: int = 3) -> Path | LogFile:
    """A scripted-AI match to look at when ``folder`` holds no castle log yet: written
    to ``folder/castle-demo-seed{seed}.jsonl`` (kept in memory if it cannot be)."""
    from throne_lib.games.castle.agents import ScriptedAgent, play_match

    m = CastleMatch(players=players, seed=seed)
    play_match(m, [ScriptedAgent(seed, s) for s in range(players)])
    path = folder / f"castle-demo-seed{seed}.jsonl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_log(m, path, [AgentInfo("scripted", seed)] * players)
    except OSError:
        return match_log(m)
    return path


class CastleLogBrowser(LogBrowser):
    """Pick a castle log and review it (``notebooks/castle_replay.ipynb``); 城池战's page
    sets ``game``, ``replay_class`` and :meth:`demo_log`."""

    game = "castle"
    env_logs = ENV_LOGS
    replay_class: type[CastleReplay] = CastleReplay

    def make_replay(self, log: LogFile | str) -> CastleReplay:
        return self.replay_class(log)

    def demo_log(self, folder: Path) -> Path | LogFile:
        return demo_log(folder)


def castle_replay(log: LogFile | str | Path, **kwargs: Any) -> W.VBox:
    """The replay widget of a castle log."""
    return CastleReplay(log, **kwargs).widget
