"""The PIN board on ipycanvas (PIN-UI-1…7): hexes, two slots per cell, HQ HP bars, the
top bar, the hand as buttons, decision prompts and the 战报. Clicks go to the
:class:`~throne_lib.games.pin.ui.controller.PinController`; the AI (the other seat) plays
one action at a time at the chosen tempo (PIN-AI-1). The kit's inspector shows the unit
under the pointer (or clicked), a clicked hand card, and any name clicked in the 战报
(:mod:`.inspect`). A unit's texts are laid out by :func:`item_texts` so that they fit
its box (a browser test measures them).
"""

from __future__ import annotations

import html
import json
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas

from throne_lib.games.pin import ui_model as ui
from throne_lib.games.pin.agents import ScriptedAgent
from throne_lib.games.pin.hexes import CELLS, SIDE_NAMES, label
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.ui.controller import PinController
from throne_lib.games.pin.ui.inspect import PHASE_ZH, card_html, unit_html, unit_prompt
from throne_lib.kit.ui.ai import AiTurns
from throne_lib.kit.ui.canvas import safe_hold
from throne_lib.kit.ui.inspector import InspectBridge, InspectorPanel
from throne_lib.kit.ui.opponents import OpponentPicker
from throne_lib.kit.ui.shell import (
    LogPanel,
    ResultPanel,
    StatusLine,
    TopBar,
    fit_to_window,
    frame,
)

S = 70.0  # hex radius in pixels: the board takes the width beside the side column
MARGIN = S + 12
WIDTH = int(11 * 3**0.5 / 2 * S + 2 * MARGIN)
HEIGHT = int(4.5 * S + 2 * MARGIN)
HIGHLIGHT = {
    "move": "#2e9e4f",
    "target": "#d23c3c",
    "deploy": "#d9a400",
    "full": "#e67e22",  # a deploy cell that is full: the unit would 立即撤退 (PIN-STACK)
    "retreat": "#7b4fd6",
}
TEMPO_S = {"standard": 0.35, "fast": 0.02}
ITEM = S * 0.8  # a unit's box (two side by side in a hex)
FONT = 11  # px, the unit labels; a CJK glyph is about FONT wide
NAME_CHARS = int((ITEM - 4) // FONT)  # the name's first characters that fit the box


def item_texts(item: dict[str, Any], x: float, y: float) -> list[tuple[str, float, float, str]]:
    """What a unit's box says, as (text, centre x, baseline y, font): the name (cut to
    what fits), type and size, attack/HP. Pure, so tests can measure the boxes."""
    font = f"{FONT}px sans-serif"
    return [
        (item["name"][:NAME_CHARS], x, y - ITEM / 2 + FONT + 3, font),
        (f"{item['icon']}{item['size']}", x, y + 4, font),
        (f"{item['attack']}/{item['hp'].split('/')[0]}", x, y + ITEM / 2 - 5, f"bold {font}"),
    ]


def slot_x(cx: float, slot: int) -> float:
    """The centre of slot 0 / 1 of a hex whose centre is ``cx``."""
    return cx + (slot - 0.5) * (ITEM + 4)


def centre(cell: int, viewer: int) -> tuple[float, float]:
    x, y = ui.hex_centre(cell, S, viewer)
    return x + MARGIN, y + MARGIN


def draw_board(
    c: Any,
    match: PinMatch,
    seat: int,
    obs: dict[str, Any],
    marks: dict[str, list[str]] | None = None,
    selected: str = "",
) -> None:
    """The 22 hexes from ``seat``'s side with what ``obs`` (its observation) shows on
    them; ``marks`` outline cells (legal targets: kind -> cell labels), ``selected`` is
    the chosen unit's ref. The play board and the replay draw with it."""
    marks = marks or {}
    c.clear()
    c.fill_style = "#f6f3ec"
    c.fill_rect(0, 0, WIDTH, HEIGHT)
    stacks = ui.cell_stacks(match, obs)
    for cell in CELLS:
        name = label(cell)
        corners = [(x + MARGIN, y + MARGIN) for x, y in ui.hex_corners(cell, S, seat)]
        c.fill_style = ui.cell_tint(cell)
        c.global_alpha = 0.25
        c.fill_polygon(corners)
        c.global_alpha = 1.0
        c.stroke_style = "#777"
        c.line_width = 1
        dashed = False
        for kind, cells in marks.items():
            if name in cells:
                c.stroke_style, c.line_width = HIGHLIGHT[kind], 4
                dashed = kind == "full"
        if dashed:
            c.set_line_dash([7, 5])
        c.stroke_polygon(corners)
        if dashed:
            c.set_line_dash([])
        cx, cy = centre(cell, seat)
        c.fill_style = "#555"
        c.font = "10px sans-serif"
        c.text_align = "center"
        c.fill_text(name, cx, cy - S * 0.66)
        if dashed:
            c.fill_style = HIGHLIGHT["full"]
            c.font = "bold 10px sans-serif"
            c.fill_text("满·将撤退", cx, cy + S * 0.74)
        for slot, item in enumerate(stacks.get(name, [])):
            _draw_item(c, match, obs, item, slot_x(cx, slot), cy + 2, selected)


def _draw_item(
    c: Any, match: PinMatch, obs: dict[str, Any], item: dict[str, Any], x: float, y: float,
    selected: str,
) -> None:  # fmt: skip
    w, h = ITEM, ITEM
    if "hq" in item:
        badge = ui.hq_badge(obs, item["hq"], match.rules.hq_hp)
        side = item["hq"]
        c.fill_style = ui.SIDE_COLOURS[side]
        c.fill_rect(x - w / 2, y - h / 2, w, h)
        c.fill_style = "#fff"
        c.font = "bold 11px sans-serif"
        c.fill_text("总部", x, y - 8)
        c.font = "10px sans-serif"
        c.fill_text(str(badge["hp"]), x, y + 6)
        c.fill_style = "#222"
        c.fill_rect(x - w / 2 + 3, y + h / 2 - 8, w - 6, 5)
        c.fill_style = "#3fbf5f"
        c.fill_rect(x - w / 2 + 3, y + h / 2 - 8, (w - 6) * badge["bar"], 5)
        return
    side = item["side"]
    c.fill_style = "#fffdf7" if item["ref"] != selected else "#fff2b3"
    c.fill_rect(x - w / 2, y - h / 2, w, h)
    c.stroke_style = ui.SIDE_COLOURS[side]
    c.line_width = 2
    c.stroke_rect(x - w / 2, y - h / 2, w, h)
    c.fill_style = "#222"
    for text, tx, ty, font in item_texts(item, x, y):
        c.font = font
        c.fill_text(text, tx, ty)
    c.font = "9px sans-serif"
    if item["actions"] is not None:  # badges on the box's lower corners
        c.fill_style = "#2e9e4f"
        c.fill_text(f"行{item['actions']}", x + w / 2 - 8, y + 15)
    if item["markers"]:
        c.fill_style = "#b0306a"
        c.fill_text(item["markers"][0][:2], x - w / 2 + 10, y + 15)


class PinBoard(W.VBox):
    """One match, the human on ``human`` against the scripted AI."""

    def __init__(
        self, match: PinMatch, human: int = 0, ai_mode: str = "async", tempo: str = "standard",
        opponents: OpponentPicker | None = None,
    ) -> None:  # fmt: skip
        self.match = match
        self.human = human
        self.ctrl = self.make_controller()
        self.opponents = opponents  # 对手: the scripted AI, or ISMCTS with a think time
        searching = opponents is not None and opponents.searching
        self.agent: Any = (
            opponents.agent(7, 1 - human, lambda s, _seat: ScriptedAgent(seed=s))
            if opponents is not None and searching
            else ScriptedAgent(seed=7)
        )
        self.ai_mode = ai_mode
        self.tempo = tempo
        self.seq = 0  # inputs handled (the page shows it for browser tests)
        self.canvas = Canvas(
            width=WIDTH, height=HEIGHT, layout=W.Layout(width=f"{WIDTH}px", height=f"{HEIGHT}px")
        )
        self.canvas.on_mouse_down(self._on_click)
        self.canvas.on_mouse_move(self._on_move)
        self.canvas.on_client_ready(self._client_ready)
        self.canvas.add_class("pin-canvas")
        self.canvas.add_class("tp-hover")  # the page helpers coalesce its moves
        self.prompt = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.hand = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.topbar = TopBar()
        self.top = self.topbar.info
        # The status line: the prompt, a refusal or the result, and the state for tests.
        self.status = StatusLine("pin-status", "pin-info pin-state", width=WIDTH)
        self.info = self.status
        self.result_box = ResultPanel("pin-result")
        self.log_panel = LogPanel(
            width=340,
            height=HEIGHT - 120,
            title="<b>战报</b>（最新在上，点击名字查看）",
            css="pin-log",
        )
        self.inspector = InspectorPanel(width=340, height=210)
        self.inspector.add_class("pin-inspector")
        self.bridge = InspectBridge()
        self.bridge.on_ref(self.inspect_ref)
        self._hover = ""
        board = W.VBox([self.canvas, self.prompt, self.hand], layout=W.Layout(width=f"{WIDTH}px"))
        side = [self.inspector, self.log_panel, self.bridge]
        super().__init__(frame(self.topbar, self.result_box, self.status, board, side))
        self.add_class("pin-board")
        fit_to_window(self, self.hand)  # the board, its prompt and the hand at 1280×720
        self.ai = AiTurns(
            self._ai_to_move,
            self._ai_step,
            after=self.refresh,
            delay=lambda: TEMPO_S[self.tempo],
            mode=ai_mode,
            think=self._think if searching else None,
        )
        self.refresh()
        self._ai()

    def _client_ready(self) -> None:
        """A view appeared (a page that drew the board before the browser connected, as
        a playtest seat's does): draw again (see CastleApp._client_ready)."""
        self.refresh()

    def make_controller(self) -> PinController:
        """What clicks mean (a playtest's board sends the actions to its store)."""
        return PinController(self.match, self.human)

    # --- input ---------------------------------------------------------------------
    def ref_at(self, x: float, y: float) -> str:
        """The unit or HQ drawn at (x, y) ("" for none)."""
        cell = ui.cell_at(x - MARGIN, y - MARGIN, S, self.human)
        if cell is None:
            return ""
        refs = self.match.observation(self.human)["slots"].get(label(cell), [])
        cx, _ = centre(cell, self.human)
        slot = 0 if x < cx else 1
        return refs[slot] if slot < len(refs) else (refs[0] if refs else "")

    def _on_move(self, x: float, y: float) -> None:
        ref = self.ref_at(x, y)
        if ref != self._hover:
            self._hover = ref
            if ref:
                self.inspect_ref(ref)

    def inspect_ref(self, ref: str) -> None:
        """Show a unit or HQ (``u3``, ``hq0``) or a card (``card:ID``) in full."""
        if ref.startswith("card:"):
            cid = ref[5:]
            if cid in self.match.db:
                self.inspector.show(card_html(self.match.db[cid], self.match.db))
            return
        body = unit_html(self.match, self.match.observation(self.human), ref)
        if body:
            self.inspector.show(body)

    def _on_click(self, x: float, y: float) -> None:
        cell = ui.cell_at(x - MARGIN, y - MARGIN, S, self.human)
        ref = self.ref_at(x, y)
        if cell is not None and self.ctrl.my_turn:
            cx, _ = centre(cell, self.human)
            self._guard(lambda: self.ctrl.click_cell(cell, 0 if x < cx else 1))
        self.seq += 1
        self.refresh()
        if ref:
            self.inspect_ref(ref)
        self._ai()

    def _press(self, choice: Any) -> None:
        self._guard(lambda: self.ctrl.press(choice))
        self.seq += 1
        self.refresh()
        self._ai()

    def _card(self, card: str) -> None:
        self.ctrl.click_card(card)
        self.seq += 1
        self.refresh()
        self.inspect_ref(f"card:{card}")

    def _guard(self, fn: Any) -> None:
        try:
            fn()
            self.ctrl.message = ""
        except ValueError as exc:  # IllegalAction: shown, nothing changed
            self.ctrl.message = str(exc)

    # --- the AI --------------------------------------------------------------------
    def _think(self) -> Any:
        """The AI's next action, searched on a copy in the worker thread (ISMCTS); the
        human seat's forced pass needs no search."""
        if self.match.current_seat == self.human:
            return self.match.forced_pass()
        sim = self.match.copy()
        return self.agent.choose(sim)

    def _ai_step(self) -> list[Any]:
        chosen, self.ai.chosen = self.ai.chosen, None
        if self.match.current_seat == self.human:  # its forced pass (PIN-COUNTER-5)
            act = self.match.forced_pass()
            return self.ctrl.apply(act) if act is not None else []
        if self.opponents is None:
            return self.ctrl.ai_step(self.agent)
        return self.ctrl.ai_step(self.opponents.step_agent(chosen, self.match, self.agent))

    def _ai_to_move(self) -> bool:
        """The AI seat is to act, or the human seat's only answer is a pass (PIN-COUNTER-5:
        a window with nothing to play is passed at once; the AI sees the same wait
        either way)."""
        m = self.match
        if m.is_over:
            return False
        return m.current_seat != self.human or m.forced_pass() is not None

    def _ai(self) -> None:
        self.ai.mode = self.ai_mode
        self.ai.start()

    # --- drawing ---------------------------------------------------------------------
    def refresh(self) -> None:
        m, seat = self.match, self.human
        obs = dict(m.observation(seat))
        marks = self.ctrl.highlights()
        with safe_hold():
            self._draw_board(obs, marks)
        bar = ui.top_bar(m, seat)
        cp = " ".join(f"{SIDE_NAMES[s]} {bar['cp'][s]}" for s in (0, 1))
        self.top.value = (
            f"<b>PIN 架空战争</b> 第{bar['round']}轮 · 回合{bar['turn']} · "
            f"{PHASE_ZH.get(bar['phase'], bar['phase'])}阶段 · 指挥点 {cp} · "
            f"手牌 {bar['hands'][0]}/{bar['hands'][1]} 牌库 {bar['decks'][0]}/{bar['decks'][1]} "
            f"坟场 {bar['graves'][0]}/{bar['graves'][1]}"
        )
        self._draw_prompt()
        self._draw_hand()
        info = self.ctrl.message
        if m.is_over:
            w = m.state.winner
            info = "对局结束：" + ("平局" if w is None or w < 0 else f"{SIDE_NAMES[w]}获胜")
            hqs = " · ".join(
                f"{SIDE_NAMES[side]}总部 {ui.hq_badge(obs, side, m.rules.hq_hp)['hp']}"
                for side in (0, 1)
            )
            self.result_box.show(
                f"<div style='font-size:20px;font-weight:bold'>{html.escape(info)}</div>"
                f"<div>第 {m.state.round} 轮 · {html.escape(hqs)}</div>"
            )
        elif not info:
            p = ui.prompt(m) if self.ctrl.my_turn else None
            if p:
                info = p["title"]
            elif self.ctrl.my_turn and self.ctrl.sel.unit:
                info = unit_prompt(m, self.ctrl.sel.unit)
            elif self.ctrl.my_turn and self.ctrl.sel.card:
                info = self._card_prompt(self.ctrl.sel.card)
            elif self.ctrl.my_turn:
                info = (
                    "轮到你：选择己方单位（激活、移动、攻击）或一张手牌（部署、指令），或结束回合"
                )
            else:
                info = "对手行动中……"
                if self.opponents is not None and self.opponents.searching:
                    info += " " + self.opponents.thinking()
        self.log_panel.show_lines(self.ctrl.log[-300:][::-1], self._refs())
        d = m.state.pending
        data = {
            "seq": self.seq,
            "seat": m.current_seat,
            "phase": m.state.phase,
            "pending": d.kind if d else "",
            "over": int(m.is_over),
            "mine": int(self.ctrl.my_turn),
            "marks": json.dumps(marks),
            "selected": self.ctrl.sel.unit or self.ctrl.sel.card,
        }
        self.status.show(info, data, error=bool(self.ctrl.message))

    def _refs(self) -> dict[str, str]:
        """Card names of the 战报 -> the inspector."""
        db = self.match.db
        return {db[cid].name: f"card:{cid}" for cid in db}

    def _card_prompt(self, cid: str) -> str:
        """After choosing a hand card: where it may go and what it costs."""
        view = ui.hand_view(self.match, self.human)
        card = next((c for c in view["cards"] if c["card"] == cid), None)
        if card is None:
            return "轮到你"
        name = f"{card['name']}（{card['cost']}指挥点）"
        full = [d["cell"] for d in card["deploy"] if d["note"]]
        if card["deploy"]:
            tail = "；橙色虚线格已满，部署后将立即撤退" if full else ""
            return f"已选择 {name}：点击黄框格部署{tail}"
        if card["targets"] or card["actions"]:
            return f"已选择 {name}：点击红框目标，或按下方按钮使用"
        return f"已选择 {name}：现在不能使用" + ("（指挥点不足）" if card["dimmed"] else "")

    def _draw_board(self, obs: dict[str, Any], marks: dict[str, list[str]]) -> None:
        draw_board(self.canvas, self.match, self.human, obs, marks, self.ctrl.sel.unit)

    def _draw_prompt(self) -> None:
        buttons = []
        p = ui.prompt(self.match) if self.ctrl.my_turn else None
        if p is not None:
            buttons.append(W.HTML(f"<b>{html.escape(p['title'])}</b>"))
        for text, choice in self.ctrl.buttons():
            b = W.Button(description=text, layout=W.Layout(width="auto"))
            b.add_class("pin-btn")
            b.on_click(lambda _, ch=choice: self._press(ch))
            buttons.append(b)
        self.prompt.children = buttons

    def _draw_hand(self) -> None:
        view = ui.hand_view(self.match, self.human)
        picked = self.ctrl.sel.mulligan
        d = self.match.state.pending  # 换牌 / 展示: every card is a choice, none greyed
        deciding = d is not None and d.kind in ("mulligan", "reveal")
        out: list[W.Widget] = []
        for card in view["cards"]:
            chosen = card["card"] == self.ctrl.sel.card or card["card"] in picked
            b = W.Button(
                description=f"{card['name']}（{card['cost']}）",
                tooltip=card["text"],
                button_style="warning" if chosen else "",
                layout=W.Layout(width="auto"),
            )
            b.add_class("pin-card")
            if card["dimmed"] and not chosen and not deciding:
                # cannot be paid now: greyed (still clickable: the inspector shows it)
                b.style.text_color = "#9aa0a6"
                b.style.button_color = "#f1f1f1"
                b.add_class("pin-card-dimmed")
            b.on_click(lambda _, cid=card["card"]: self._card(cid))
            out.append(b)
        out.append(W.HTML(f"对手手牌 {view['opponent_backs']} 张（背面）"))
        self.hand.children = out
