"""The match widget: an ipycanvas MultiCanvas board with ipywidgets around it.

Layers of the MultiCanvas: 0 the static board, 1 the pieces, 2 the tray and the hand,
3 highlights and the drag ghost (a layer is redrawn only when its ops changed). Clicks
and drags arrive as canvas-pixel coordinates and go to the
:class:`~throne_lib.games.throne.ui.controller.Controller`, which only ever applies legal actions.
The AI plays in an asyncio task, action by action, at the chosen tempo (R-AI-3).
"""

from __future__ import annotations

import asyncio
import html
import random
import time
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path

import ipywidgets as W
from ipycanvas import MultiCanvas

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import SIDE_NAMES_ZH
from throne_lib.games.throne.explain import explain_illegal
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.state import MAIN, OPENING, THRONE
from throne_lib.games.throne.ui.controller import Controller, View
from throne_lib.games.throne.ui.inspect import card_html, unit_html
from throne_lib.games.throne.ui.layout import DEFAULT_LAYOUT, Layout
from throne_lib.games.throne.ui.render import (
    Op,
    board_ops,
    overlay_ops,
    pieces_ops,
    tray_ops,
    units_ops,
)
from throne_lib.games.throne.ui.text import (
    END_REASONS_ZH,
    action_text,
    illegal_text,
    log_blocks,
    result_text,
)
from throne_lib.kit.agents import Agent
from throne_lib.kit.log import logs_dir
from throne_lib.kit.ui.ai import AiTurns
from throne_lib.kit.ui.canvas import run_ops, safe_hold
from throne_lib.kit.ui.inspector import InspectorPanel
from throne_lib.kit.ui.opponents import agent_thinking
from throne_lib.kit.ui.shell import LogPanel, ResultPanel, StatusLine, TopBar, frame

ROOT = Path(__file__).resolve().parents[4]
ENV_LOGS = "THRONE_LOGS"  # the folder match logs are written to (else the repository's logs/)
TEMPO_MS = {"standard": (120, 150), "fast": (50, 70)}  # R-AI-3
STEP = "step"  # 逐步: the AI waits for 「下一步」 before each action
DRAG_START_PX = 6  # a press that moves further than this is a drag, not a click
LOG_BLOCKS = 60  # newest turns shown in the 战报 widget (the whole log is saved)
AGENT_ZH = {
    "random": "随机",
    "standard": "标准 AI",
    "search": "搜索 AI",
    "ismcts": "信息集搜索 AI",
    "ai": "AI",
}
INSPECTOR_H = 230  # px: the inspector panel above the 战报
SIDE_COLOUR = ("#1d4796", "#962c25")
TOWER_HREF = "tower.ipynb"
TD = "padding:2px 14px 2px 0"
LAYERS = 4  # board, pieces, tray + hand, overlay
OVERLAY = LAYERS - 1


class MatchWidget(W.VBox):
    """One match against an agent. ``ai_mode``: "async" (a task, for the browser),
    "sync" (AI turns run at once; for tests and benchmarks) or "manual"."""

    def __init__(
        self,
        match: Match,
        agent: Agent,
        human: int = 0,
        tempo: str = "standard",
        ai_mode: str = "async",
        on_again: Callable[[], None] | None = None,
        agent_name: str = "",
        layout_px: Layout = DEFAULT_LAYOUT,
        log_dir: Path | None = None,
    ) -> None:
        self.match = match
        self.agent = agent
        name = str(getattr(agent, "name", "ai"))
        self.agent_name = agent_name or AGENT_ZH.get(name, name)
        self.human = human
        self.ai_mode = ai_mode
        self.on_again = on_again
        self.px = layout_px
        self.ctrl = self.make_controller(match, human)
        self.ctrl.on_events = self._on_events
        self.flash: tuple[int, ...] = ()
        self.ready = False  # the browser canvas is ready: drawing before is lost
        self.log_dir = log_dir if log_dir is not None else logs_dir(ENV_LOGS)
        self.saved_log: Path | None = None
        self._log_path: Path | None = None
        self.log_error = ""
        self._rng = random.Random(match.seed)
        self._chosen: Action | None = None  # the AI's next action, chosen off the loop
        self._press: tuple[float, float, int] | None = None  # x, y, hand index or -1
        self._dragging = False
        self._drag_cell = -1
        self._hover: tuple[str, int] | tuple[()] = ()
        self._step = asyncio.Event()  # 「下一步」 in step mode
        self._at_gate = False  # the AI waits for 「下一步」 (it is not thinking)
        self.ai_trail: list[int] = []  # cells the AI touched this turn (kept lit after it)
        self.ai_lines: list[str] = []  # its actions this turn, for the prompt line
        # Each throne's max HP as last seen: a fallen throne leaves the board, and the
        # result panel still shows 0/16, not the default rules' 0/40 (tower thrones).
        self.throne_max: dict[int, int] = {}
        self.draws = 0  # canvas redraws (for tests and the benchmark)
        self._drawn: dict[int, list[Op]] = {}  # the ops each layer shows now
        self.handled = 0  # clicks/releases/buttons handled: the page shows it (data-seq)
        self.ai = AiTurns(
            self._ai_to_move,
            self.ai_step,
            delay=self._delay,
            mode=ai_mode,
            think=self._think,
            gate=self._gate,
            finish=self._ai_done,
            on_error=self._ai_error,
        )
        self._build(tempo)
        self.refresh()
        super().__init__(
            frame(self.topbar, self.result_box, self.status, self.board, self.side),
            layout=W.Layout(width=f"{self.px.width + 400}px"),
        )
        self.add_class("tp-match")

    def make_controller(self, match: Match, human: int) -> Controller:
        """The clicks' state machine (a playtest's sends its actions to the store)."""
        return Controller(match, human)

    # --- widgets ---------------------------------------------------------------------

    def _build(self, tempo: str) -> None:
        px = self.px
        self.canvas = MultiCanvas(LAYERS, width=px.width, height=px.height)
        self.canvas.layout = W.Layout(
            width=f"{px.width}px", height=f"{px.height}px", min_width=f"{px.width}px"
        )
        self.canvas.on_client_ready(self._on_client_ready)
        self.canvas.on_mouse_down(self._guard(self._on_mouse_down))
        self.canvas.on_mouse_move(self._guard(self._on_mouse_move))
        self.canvas.on_mouse_up(self._guard(self._on_mouse_up))
        self.canvas.on_mouse_out(self._guard(self._on_mouse_out))
        self.end_btn = W.Button(description="结束回合", button_style="primary")
        self.end_btn.on_click(lambda _: self._run(self.ctrl.end_turn))
        self.shuffle_btn = W.Button(description="洗牌")
        self.shuffle_btn.on_click(lambda _: self._run(self.ctrl.shuffle))
        for b in (self.end_btn, self.shuffle_btn):
            b.layout = W.Layout(width="96px")
        self.end_btn.add_class("tp-end")
        self.shuffle_btn.add_class("tp-shuffle")
        self.tempo = W.ToggleButtons(
            options=[("标准", "standard"), ("快速", "fast"), ("逐步", STEP)],
            value=tempo,
            description="节奏",
            tooltips=["对手每步 120–150 ms", "对手每步 50–70 ms", "点「下一步」看对手的每一步"],
        )
        self.tempo.style.button_width = "56px"
        self.tempo.style.description_width = "36px"
        self.tempo.add_class("tp-tempo")
        self.tempo.observe(lambda _: self._update_step_btn(), "value")
        self.step_btn = W.Button(description="下一步", icon="step-forward")
        self.step_btn.layout = W.Layout(width="90px", display="none")
        self.step_btn.add_class("tp-step")
        self.step_btn.on_click(lambda _: self._step.set())
        # Relative to the page: right when Voilà serves the notebooks folder
        # (/voila/render/notebooks/play.ipynb on Binder, `voila notebooks/`).
        tower = ROOT / "notebooks" / "tower.ipynb"
        link = (
            f'<a class="tp-tower-link" href="{TOWER_HREF}" target="_blank"'
            ' style="font-weight:bold;margin-left:8px">爬塔 ›</a>'
            if tower.exists()
            else '<span style="color:#999" title="王座之塔即将开放">爬塔（即将开放）</span>'
        )
        self.tower = W.HTML(link)
        self.tower.add_class("tp-tower-entry")
        self.topbar = TopBar(
            [self.shuffle_btn, self.end_btn, self.tempo, self.step_btn, self.tower]
        )
        self.info, self.buttons = self.topbar.info, self.topbar.controls
        # The prompt line sits above the board: every prompt and refusal is in view.
        # A fixed height: a longer prompt never moves the board under the pointer.
        self.status = StatusLine("tp-status", "tp-state", width=px.width + 392)
        self.board = W.VBox(
            [self.canvas],
            layout=W.Layout(width=f"{px.width}px", min_width=f"{px.width}px"),
        )
        self.inspector = InspectorPanel(width=380, height=INSPECTOR_H)
        self.log_panel = LogPanel(
            width=380, height=px.height - INSPECTOR_H - 30, colours=SIDE_COLOUR
        )
        self.battle_log = self.log_panel.html
        self.side = [self.inspector, self.log_panel]
        self.again_btn = W.Button(description="再来一局", button_style="success")
        self.again_btn.add_class("tp-again")
        self.again_btn.on_click(lambda _: self.on_again() if self.on_again else None)
        self.result_box = ResultPanel("tp-result", [self.again_btn])
        self.result, self.result_buttons = self.result_box.html, self.result_box.buttons

    # --- drawing ---------------------------------------------------------------------

    def _draw(self, layer: int, ops: Sequence[Op]) -> None:
        self._draw_layers([(layer, ops)])

    def _draw_layers(self, layers: Sequence[tuple[int, Sequence[Op]]]) -> None:
        """Draw each ``(layer, ops)`` unless the layer already shows exactly these ops
        (a click that selects a unit changes the highlights, not the pieces: each
        canvas command costs the kernel and the browser), all in one batch: one
        message to the browser per click, not one per layer."""
        if not self.ready:
            return
        changed = [(layer, list(ops)) for layer, ops in layers]
        changed = [(layer, ops) for layer, ops in changed if self._drawn.get(layer) != ops]
        if not changed:
            return
        with safe_hold():
            for layer, ops in changed:
                run_ops(self.canvas[layer], ops)
        for layer, ops in changed:
            self._drawn[layer] = ops
            self.draws += 1

    def _on_client_ready(self) -> None:
        """A browser (re)connected: draw everything, then let the AI start."""
        self.ready = True
        self._drawn = {}  # a new page starts blank
        self._draw(0, board_ops(self.px))
        self.refresh()
        self._maybe_start_ai()

    def view_ops(self) -> tuple[list[Op], list[Op]]:
        """The ops of the units (pieces, tray and hand) and overlay for the current state."""
        view = self._view()
        return units_ops(self.match, view, self.px), overlay_ops(self.match, view, self.px)

    def _view(self) -> View:
        drag = self.drag_hand if self._dragging else -1
        return self.ctrl.view(self.flash, drag, self._drag_cell)

    def layer_ops(self) -> tuple[list[Op], list[Op], list[Op]]:
        """The ops of layers 1 (pieces), 2 (tray and hand) and 3 (overlay)."""
        view, m, px = self._view(), self.match, self.px
        return pieces_ops(m, view, px), tray_ops(m, view, px), overlay_ops(m, view, px)

    def refresh(self) -> None:
        self._draw_layers(list(enumerate(self.layer_ops(), start=1)))
        self._update_html()

    def _redraw_overlay(self) -> None:
        self._draw(OVERLAY, overlay_ops(self.match, self._view(), self.px))

    def _update_html(self) -> None:
        m, st = self.match, self.match.state
        rules = m.rules
        parts = []
        for side in (self.human, 1 - self.human):
            s = st.sides[side]
            t = st.throne(side)
            if t is not None:
                self.throne_max[side] = t.max_hp
            hp = f"{t.hp}/{t.max_hp}" if t is not None else f"0/{self._max_hp(side)}"
            who = "（你）" if side == self.viewer else f"（{html.escape(self.player_name(side))}）"
            parts.append(
                f'<span style="color:{SIDE_COLOUR[side]};font-weight:bold">'
                f"{SIDE_NAMES_ZH[side]}{who}</span> 王座 <b>{hp}</b> · 法力 <b>{s.mana}</b>"
                f" · 牌库 {len(s.deck)} · 手牌 {len(s.hand)} · 墓地 {len(s.grave)}"
            )
        if m.is_over:
            turn = "对局结束"
        elif m.phase in OPENING:
            turn = f"开局 · {SIDE_NAMES_ZH[m.turn]}{'（你）' if m.turn == self.viewer else ''}"
        else:
            turn = f"轮到 {SIDE_NAMES_ZH[m.turn]}{'（你）' if m.turn == self.viewer else ''}"
        rnd = (
            f"第 {m.round}/{rules.round_limit} 回合"
            if m.round
            else f"开局（共 {rules.round_limit} 回合）"
        )
        rows = "".join(f"<div>{part}</div>" for part in parts)
        self.info.value = (
            f'<div style="line-height:1.35"><div style="font-size:15px"><b>{rnd} · 打满按血量结算'
            f"</b> · {turn}</div>{rows}</div>"
        )
        s = st.sides[self.human]
        cost = rules.shuffle_cost(s.shuffles)
        self.shuffle_btn.description = f"洗牌 {cost}"
        legal = m.legal_actions() if self.ctrl.my_turn else ()
        self.shuffle_btn.disabled = Action("shuffle") not in legal
        self.end_btn.disabled = not (self.ctrl.my_turn and m.phase == MAIN)
        self._update_status()
        self._update_log()
        self._update_result()

    def _update_status(self) -> None:
        m = self.match
        text = self.ctrl.status or self.ctrl.hint()
        hl = self.ctrl.play_highlights(self.drag_hand) if self._dragging else self.ctrl.highlights()
        data = {
            "phase": m.phase,
            "turn": str(m.turn),
            "seq": str(self.handled),
            "round": str(m.round),
            "mine": " ".join(m.geo.name(c) for c in sorted(self.ctrl.can_act())),
            "hl": " ".join(f"{m.geo.name(c)}:{s}" for c, s in sorted(hl.items())),
            "hand": " ".join(self.ctrl.hand),
            "chips": " ".join(c.key or "act" for c in self.ctrl.chips()),
        }
        thinking = self.thinking
        if thinking:  # a click refused meanwhile keeps its reason in front
            text = f"{text} · {thinking}" if self.ctrl.status_error else thinking
        data["thinking"] = str(int(bool(thinking)))
        tone = None
        if not self.ctrl.my_turn and not m.is_over:
            tone = ("#eef2f8", SIDE_COLOUR[m.turn])  # the side to move: a spectator sees either
        ai = ""
        if self.ai_lines:
            who = f"{SIDE_NAMES_ZH[1 - self.human]}（{html.escape(self.agent_name)}）"
            shown = self.ai_lines[-6:]
            more = f"…（共 {len(self.ai_lines)} 步）" if len(self.ai_lines) > 6 else ""
            ai = (
                f'<div class="tp-ai-line" style="color:#5d6778;font-size:12px">{who}：'
                f"{html.escape(' · '.join(shown))}{more}</div>"
            )
        self.status.show(text, data, error=self.ctrl.status_error, tone=tone, extra=ai)

    def _update_log(self) -> None:
        """Newest turn first; inside a turn, its heading and then its lines in order
        (one line per attack, counter included)."""
        m = self.match
        blocks = log_blocks(self.ctrl.events, m.db, m.geo, viewer=self.human)
        self.log_panel.show(blocks[-LOG_BLOCKS:][::-1])

    def _update_result(self) -> None:
        m = self.match
        if not m.is_over:
            self.result_box.hide()
            return
        st = m.state
        rows = []
        for side in (0, 1):
            t = st.throne(side)
            hp, mx = (t.hp, t.max_hp) if t is not None else (0, self._max_hp(side))
            board = sum(u.attack + u.hp for u in st.units(side) if u.kind != THRONE)
            rows.append(
                f"<tr><td style='color:{SIDE_COLOUR[side]};{TD}'><b>{SIDE_NAMES_ZH[side]}</b></td>"
                f"<td style='{TD}'>王座 {hp}/{mx}</td><td style='{TD}'>比例 {hp / mx:.0%}</td>"
                f"<td style='{TD}'>场面（攻+血）{board}</td></tr>"
            )
        why = END_REASONS_ZH.get(m.end_reason, m.end_reason)
        shown = self.saved_log
        if shown is not None and shown.is_relative_to(ROOT):
            shown = shown.relative_to(ROOT)
        saved = (
            f"对局记录已保存：<code>{html.escape(str(shown))}</code>"
            if self.saved_log
            else html.escape(self.log_error)
        )
        self.result_box.show(
            f'<div style="font-size:20px;font-weight:bold">{result_text(m.winner, m.end_reason, self.viewer)}</div>'
            f"<div>第 {m.round} 回合结束 · {why}</div>"
            f'<table style="margin:6px 0">{"".join(rows)}</table><div>{saved}</div>'
        )

    @property
    def viewer(self) -> int | None:
        """The side of the person looking at this widget (None: a playtest's spectator)."""
        return self.human

    def player_name(self, side: int) -> str:
        """Who plays ``side`` when it is not the viewer's: the AI's name here."""
        return self.agent_name

    def _max_hp(self, side: int) -> int:
        return self.throne_max.get(side, self.match.rules.throne_hp)

    # --- events from the controller ----------------------------------------------------

    def _on_events(self, action: Action, events: list[Event]) -> None:
        if action.kind == "end" or self.match.is_over:
            self.save_log()  # unfinished matches too: the replay page can open them
        if action.kind != "end":
            self.ai_trail, self.ai_lines = [], []
        self.refresh()
        self._maybe_start_ai()

    @property
    def log_path(self) -> Path:
        """One file per match, rewritten as the match goes on."""
        if self._log_path is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
            self._log_path = self.log_dir / f"play-{stamp}-seed{self.match.seed}.jsonl"
        return self._log_path

    def save_log(self) -> Path | None:
        """Write the match's JSONL log into logs/ (throne_lib.log), finished or not:
        a temporary file replaces the last save atomically."""
        from throne_lib.kit.log import AgentInfo, write_log

        names = ["human", "human"]
        names[1 - self.human] = self.agent_name
        path = self.log_path
        tmp = path.with_suffix(".jsonl.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            write_log(self.match, tmp, [AgentInfo(n) for n in names])
            tmp.replace(path)
            self.saved_log, self.log_error = path, ""
        except OSError as error:
            self.log_error = f"（记录未能保存：{error}）"
        return self.saved_log

    # --- mouse -----------------------------------------------------------------------

    def _guard(self, handler: Callable[[float, float], None]) -> Callable[[float, float], None]:
        """A handler whose exception shows in the status line instead of vanishing."""

        def guarded(x: float, y: float) -> None:
            try:
                handler(x, y)
            except Exception as error:  # noqa: BLE001 - the UI must survive
                self._press, self._dragging = None, False
                self.ctrl._say(f"界面错误：{error!r}", error=True)
                self._update_status()

        return guarded

    def _run(self, fn: Callable[[], list[Event]]) -> None:
        self.flash = ()
        try:
            fn()
        finally:
            self.handled += 1
            self.refresh()

    @property
    def drag_hand(self) -> int:
        return self._press[2] if self._press is not None else -1

    def _on_mouse_down(self, x: float, y: float) -> None:
        hand = self.px.hand.at(x, y, len(self.ctrl.hand))
        self._press = (x, y, -1 if hand is None else hand)
        self._dragging = False
        self._drag_cell = -1

    def _on_mouse_move(self, x: float, y: float) -> None:
        if self._press is None:
            self.hover(x, y)  # the inspector follows the pointer (no canvas redraw)
            return
        if self._press[2] < 0:
            return  # only hand cards drag
        px, py, index = self._press
        if not self._dragging:
            if abs(x - px) + abs(y - py) < DRAG_START_PX:
                return
            if not self.ctrl.my_turn or self.match.phase != MAIN:
                return
            self._dragging = True
            hovered = self.px.cell_at(x, y)
            self._drag_cell = -1 if hovered is None else hovered
            self.ctrl.start_drag(index)
            self._redraw_overlay_and_hand()
            return
        cell = self.px.cell_at(x, y)
        cell = -1 if cell is None else cell
        if cell != self._drag_cell:  # coalesce: redraw only when the hovered cell changes
            self._drag_cell = cell
            self._redraw_overlay()

    def _redraw_overlay_and_hand(self) -> None:
        self._draw_layers(list(enumerate(self.layer_ops(), start=1)))
        self._update_status()

    def _on_mouse_up(self, x: float, y: float) -> None:
        self.handled += 1
        press, dragging = self._press, self._dragging
        self._press, self._dragging, self._drag_cell = None, False, -1
        if press is None:
            self._update_status()
            return
        if dragging:
            self.flash = ()
            self.ctrl.drop_hand(press[2], self.px.cell_at(x, y))
            self.refresh()
            return
        self.click(press[0], press[1])

    def _on_mouse_out(self, x: float, y: float) -> None:
        if self._dragging:
            self._press, self._dragging, self._drag_cell = None, False, -1
            self.ctrl._say("拖动已取消")
            self.refresh()
        self._press = None

    def click(self, x: float, y: float) -> None:
        """A click at canvas pixel (x, y): a board cell, a tray chip or a hand card.
        The inspector's new text goes to the browser after the board and the prompt
        (its HTML is the slowest to render, and the highlight is what the player waits
        for)."""
        with self.inspector.hold_sync():
            self._click(x, y)

    def _click(self, x: float, y: float) -> None:
        self.flash = ()
        target = self._thing_at(x, y)
        chips = self.ctrl.chips()
        played = len(self.match.history)
        if target and target[0] == "cell":
            self.inspect(target)  # before the click: an attack's prediction is of now
            self.ctrl.click_cell(target[1])
        elif target and target[0] == "chip":
            self.inspect(target)
            self.ctrl.click_chip(target[1])
        elif target and target[0] == "hand":
            self.inspect(target)
            self.ctrl.click_hand(target[1])
        if len(self.match.history) != played and target and target[0] == "cell":
            # The action happened: a prediction shown before it is history now.
            if self.match.state.board[target[1]] is None:
                self.inspector.show("")
            else:
                self.inspect(target)
        elif self.ctrl.chips() != chips and target and target[0] == "cell":
            self.inspect(target)  # e.g. a barracks' tray appeared: still inspect the cell
        self.refresh()

    # --- the inspector -----------------------------------------------------------------

    def _thing_at(self, x: float, y: float) -> tuple[str, int] | tuple[()]:
        cell = self.px.cell_at(x, y)
        if cell is not None:
            return ("cell", cell)
        chip = self.px.tray.at(x, y, len(self.ctrl.chips()))
        if chip is not None:
            return ("chip", chip)
        hand = self.px.hand.at(x, y, len(self.ctrl.hand))
        return ("hand", hand) if hand is not None else ()

    def hover(self, x: float, y: float) -> None:
        """The pointer rests on something: inspect it when it is a new thing."""
        thing = self._thing_at(x, y)
        if thing == self._hover:
            return
        self._hover = thing
        if thing and not (thing[0] == "cell" and self.match.state.board[thing[1]] is None):
            self.inspect(thing)

    def inspect(self, thing: tuple[str, int] | tuple[()]) -> None:
        """Show ``thing`` in full in the inspector: a unit, a hand card, a chip's card.
        An attack target of the selected unit gets the engine's predicted result."""
        m, db = self.match, self.match.db
        if not thing:
            return
        kind, index = thing
        if kind == "cell":
            u = m.state.board[index]
            if u is None:
                return
            note = ""
            pred = self.ctrl.prediction(index)
            if pred is not None:
                note = f"预计（按引擎推演）：{pred.line}"
            self.inspector.show(unit_html(m, u, note))
        elif kind == "hand" and 0 <= index < len(self.ctrl.hand):
            card = self.ctrl.hand[index]
            note = ""
            if self.ctrl.my_turn and m.phase == "main" and index not in self.ctrl.playable():
                target = -1 if db[card].play_target is None else m.geo.throne_cell(self.human)
                rule, reason = explain_illegal(m.eng, Action("play", -1, target, card))
                note = illegal_text(rule, reason)
            self.inspector.show(card_html(db[card], db, note))
        elif kind == "chip":
            chips = self.ctrl.chips()
            if not 0 <= index < len(chips):
                return
            chip = chips[index]
            key = chip.key.partition(":")[2]
            if key in db:
                self.inspector.show(card_html(db[key], db, chip.why))
            elif chip.key == "skill" and self.ctrl.selected_cell >= 0:
                u = m.state.board[self.ctrl.selected_cell]
                if u is not None:
                    self.inspector.show(unit_html(m, u, chip.why))

    # --- test/benchmark conveniences: clicks by name -------------------------------------

    def click_cell(self, cell: int | str) -> None:
        c = self.match.geo.parse(cell) if isinstance(cell, str) else cell
        x, y = self.px.cell_center(c)
        self._on_mouse_down(x, y)
        self._on_mouse_up(x, y)

    def click_chip(self, index: int) -> None:
        x, y = self.px.tray.center(index)
        self._on_mouse_down(x, y)
        self._on_mouse_up(x, y)

    def click_hand(self, index: int) -> None:
        x, y = self.px.hand.center(index)
        self._on_mouse_down(x, y)
        self._on_mouse_up(x, y)

    def drag_hand_to(self, index: int, cell: int | str) -> None:
        c = self.match.geo.parse(cell) if isinstance(cell, str) else cell
        x0, y0 = self.px.hand.center(index)
        x1, y1 = self.px.cell_center(c)
        self._on_mouse_down(x0, y0)
        for k in range(1, 6):
            self._on_mouse_move(x0 + (x1 - x0) * k / 5, y0 + (y1 - y0) * k / 5)
        self._on_mouse_up(x1, y1)

    # --- the AI ------------------------------------------------------------------------

    def _ai_to_move(self) -> bool:
        return not self.match.is_over and self.match.turn != self.human

    @property
    def thinking(self) -> str:
        """「AI 思考中…」 while a searching agent (ISMCTS) is to act and not waiting for
        「下一步」, else "": each of its actions is a search in the worker thread."""
        if not self._ai_to_move() or self._at_gate:
            return ""
        return agent_thinking(self.agent)

    def stop_ai(self) -> None:
        """Stop the AI's task (a new match replaces this one); a search already running
        in the worker thread ends within its think time and its action is dropped."""
        if self.ai.task is not None and not self.ai.task.done():
            self.ai.task.cancel()

    def _maybe_start_ai(self) -> None:
        if self.ai_mode == "async" and not self.ready:
            return  # drawing before the browser canvas is ready is lost
        self.ai.mode = self.ai_mode
        self.ai.start()

    def ai_step(self) -> Action:
        """The AI plays one action (chosen now, or already by the AI task's worker
        thread); its unit and target flash."""
        a, self._chosen = self._chosen, None
        if a is None or a not in self.match.legal_actions():
            a = self.agent.choose(self.match)
        self.flash = tuple(c for c in (a.cell, a.target) if c >= 0)
        if a.kind != "end":
            self.ai_trail += [c for c in self.flash if c not in self.ai_trail]
            hidden = a.kind == "replace"  # which card the AI swapped out stays hidden
            line = "替换 1 张手牌" if hidden else action_text(a, self.match.db, self.match.geo)
            self.ai_lines.append(line)
        self.ctrl.on_events = None
        try:
            self.ctrl.apply(a)
        finally:
            self.ctrl.on_events = self._on_events
        if self.match.is_over or a.kind == "end":
            self.save_log()
        self.refresh()
        return a

    def _update_step_btn(self) -> None:
        self.step_btn.layout.display = "" if self.tempo.value == STEP else "none"
        self.step_btn.disabled = not self._ai_to_move()
        if self.tempo.value != STEP:
            self._step.set()  # leaving step mode releases a waiting AI

    def _think(self) -> None:
        """The agent chooses in a worker thread (only reading the match: the human
        cannot act now), so clicks and the tempo toggle stay responsive."""
        self._chosen = self.agent.choose(self.match)

    def _delay(self) -> float:
        low, high = TEMPO_MS.get(self.tempo.value, TEMPO_MS["standard"])
        return self._rng.uniform(low, high) / 1000 if self.tempo.value != STEP else 0

    async def _gate(self) -> bool:
        """逐步: wait for 「下一步」 before each AI action."""
        if self.tempo.value == STEP:
            self._step.clear()
            self._update_step_btn()
            self.ctrl._say("对手（逐步）：点「下一步」看它的下一个行动")
            self._at_gate = True
            self._update_status()
            try:
                await self._step.wait()
            finally:
                self._at_gate = False
            self._update_status()  # it thinks now
            return self._ai_to_move()
        return True

    async def _ai_done(self) -> None:
        handled = self.handled
        await asyncio.sleep(0.2)
        # The cells the AI touched stay lit until the player's first click.
        self.flash = tuple(self.ai_trail)
        self._update_step_btn()
        if self.ctrl.my_turn and self.handled == handled and self.match.phase == MAIN:
            # (in the opening 换牌 the controller's own prompt says what to do)
            self.ctrl._say("轮到你了（橙色格是对手本回合动过的地方）")
        self.refresh()

    def _ai_error(self, error: Exception) -> None:
        self.ctrl._say(f"AI 出错：{error!r}", error=True)
        self._update_status()

    async def _ai_loop(self) -> None:
        await self.ai.run()

    def timed_click(self, cell: int | str) -> float:
        """Seconds the kernel spends on one click with its redraw (benchmark)."""
        t0 = time.perf_counter()
        self.click_cell(cell)
        return time.perf_counter() - t0
