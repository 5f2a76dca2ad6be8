"""The 城堡之心 play dashboard (ipywidgets + ipycanvas).

A human plays one seat against scripted AIs. Everything offered comes from
``legal_actions()``: pick a card or skill in the hand row, the legal targets light up
on the table, click one (or a button) to act; answers (the 剑 defence, rescues, counters
…) appear as buttons when asked. The widget reads only ``observation(seat)`` of the
human seat while the game runs (CH-UI-2); after the end a toggle reveals everything
(CH-UI-5) and 复盘 opens the replay viewer on the match (``ui/replay.py``).

The inspector (the kit's, :mod:`.inspect` fills it) shows a hand card in full when it
is chosen, a seat (hero, traits, HP, equipment, soldiers, statuses) when the pointer
rests on it or it is clicked, and whatever name of the 战报 is clicked or pointed at.

With a ``watcher`` (:class:`~throne_lib.games.castle.live.CastleTableWatcher`) the app
follows ``cards-castle.csv``: a broken row is listed (file, row, column, what was
expected) while the last valid table stays in force; a valid new table is the one the
next match (新对局) uses. The running match keeps the table it started with (its 140
cards are dealt: CH-DECK-8). With ``log_dir`` every match is written there as a kit
log (``castle-….jsonl``, the table embedded when it is not the repository's).
Testable without a browser: call ``select``, ``click_seat``, ``press``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.agents import ScriptedAgent
from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.live import CastleTableWatcher
from throne_lib.games.castle.match import CastleMatch, default_cards
from throne_lib.games.castle.rules import CastleRules
from throne_lib.games.castle.skills import SKILL_ZH
from throne_lib.games.castle.state import hero_seat
from throne_lib.games.castle.ui.inspect import card_html, name_refs, seat_html
from throne_lib.games.castle.ui.table import H, draw_table, seat_at
from throne_lib.games.castle.ui.table import W as WIDTH
from throne_lib.kit.log import AgentInfo, MatchRecorder, match_log
from throne_lib.kit.ui.ai import AiTurns
from throne_lib.kit.ui.canvas import safe_hold
from throne_lib.kit.ui.inspector import InspectBridge, InspectorPanel
from throne_lib.kit.ui.live_tables import LiveTablesPanel
from throne_lib.kit.ui.opponents import OpponentPicker
from throne_lib.kit.ui.shell import LogPanel, StatusLine, fit_to_window

PROMPT_ZH = {
    "pick_hero": "选择你的英雄", "draft": "部署士兵（消耗法力值）", "declare": "回合开始（中立可宣布阵营）",
    "play": "出牌阶段：选择手牌或技能，再点击目标", "command_pick": "指挥阶段：选择进攻的一组",
    "order": "命令士兵攻击", "discard": "弃牌", "block": "你被攻击了，是否打出剑抵挡？",
    "rescue": "有英雄濒死，是否使用愈救援？", "counter": "是否打出魔法抵消？",
    "roar": "熊之咆哮：弃1张魔，否则眩晕", "ice": "冰风暴雨：弃1张魔，否则受到1点伤害",
    "abyss": "深渊之剑：弃1张手牌，否则额外受到1点伤害", "fb_split": "爆裂火球：选择如何承受",
    "hold": "是否发动抗拒死亡？", "throes": "是否发动临死挣扎？", "banner": "是否发动黑暗旌旗？",
    "axe": "攻击被抵消，是否发动斧的效果？", "greatsword": "是否追击？",
    "ring_upkeep": "是否消耗3张魔保留飞弹戒指？", "adopt": "是否收编阵亡英雄的士兵？",
    "defect": "所有敌军已被消灭：是否投靠？",
}  # fmt: skip


def source_of(act: Act) -> str | None:
    """Which hand card or skill an action is played from (None: a plain button)."""
    if act.kind == "attack":
        return "attack"
    if act.kind in ("heal", "equip", "magic"):
        return str(act.args[1]) if act.kind == "heal" else str(act.args[0])
    if act.kind == "skill":
        return "skill:" + str(act.args[0])
    return None


def target_seats(obs: dict[str, Any], act: Act) -> set[int]:
    seats: set[int] = set()
    owner = {x["ref"]: p["seat"] for p in obs["players"] for x in p["soldiers"]}
    for a in act.args:
        q = hero_seat(a)
        if q is not None:
            seats.add(q)
        elif str(a) in owner:
            seats.add(owner[str(a)])
    return seats


class CastleApp:
    game_name = "castle"  # the registry's name (the ISMCTS opponents read its hooks)

    def __init__(
        self, players: int = 4, seed: int = 1, human: int | None = None, tempo: float = 0.6,
        max_rounds: int | None = 60, watcher: CastleTableWatcher | None = None,
        cards: CastleCards | None = None, log_dir: str | Path | None = None,
    ) -> None:  # fmt: skip
        self.tempo = tempo
        self.watcher = watcher
        self.cards = cards or (watcher.db if watcher is not None else default_cards())
        self.log_dir = Path(log_dir) if log_dir is not None else None
        self.recorder: MatchRecorder | None = None
        self.log_path: Path | None = None
        # the live card tables: errors and reloads (城池战 follows cities.csv too)
        self.tables = LiveTablesPanel("新对局", running=lambda: not self.match.is_over)
        self.table_panel = self.tables.widget
        self.table_panel.add_class("castle-table-panel")
        self.canvas = Canvas(width=WIDTH, height=H, layout=W.Layout(width=f"{WIDTH}px"))
        self.canvas.on_mouse_down(lambda x, y: self.click_xy(x, y))
        self.canvas.on_mouse_move(lambda x, y: self.hover_xy(x, y))
        self.canvas.add_class("tp-hover")  # the page helpers coalesce its moves
        self.canvas.on_client_ready(self._client_ready)
        self.status = StatusLine("castle-status", "castle-state")
        self.hand = W.HBox(layout=W.Layout(flex_flow="row wrap", width="360px"))
        # a long list of answers (备战: every soldier) scrolls in its own box (its buttons
        # keep their height: ``flex: 0 0 auto``, or the column would squeeze them)
        self.buttons = W.VBox(layout=W.Layout(max_height="250px", overflow="hidden auto"))
        self.log_panel = LogPanel(
            width=360, height=200, title="<b>战报</b>（最新在上，点击名字查看）", css="castle-log"
        )
        self.inspector = InspectorPanel(width=360, height=190)
        self.inspector.add_class("castle-inspector")
        self.bridge = InspectBridge()  # the 战报's names -> the inspector
        self.bridge.on_ref(self.inspect_ref)
        self._hover: str | None = None
        self.log = self.log_panel.html
        self.reveal = W.ToggleButton(
            description="显示全部身份", disabled=True, layout=W.Layout(width="120px")
        )
        self.reveal.observe(lambda _: self.refresh(), names="value")
        self.replay_btn = W.Button(
            description="复盘", icon="history", disabled=True, layout=W.Layout(width="90px")
        )
        self.replay_btn.on_click(lambda _: self.open_replay())
        self.replay_box = W.VBox()
        self.replay: Any = None
        self.players_w = W.Dropdown(options=list(range(3, 9)), value=players, description="人数")
        self.seed_w = W.IntText(value=seed, description="种子", layout=W.Layout(width="160px"))
        self.rounds_w = W.IntText(
            value=max_rounds or 0, description="轮数上限", layout=W.Layout(width="180px")
        )
        self.tempo_w = W.FloatSlider(value=tempo, min=0.0, max=2.0, step=0.1, description="AI 节奏")
        new = W.Button(description="新对局", button_style="primary")
        new.on_click(lambda _: self.new_match())
        self.opponents = OpponentPicker(self.game_name)  # 对手: scripted or ISMCTS (next match)
        settings = W.HBox([self.players_w, self.seed_w, self.rounds_w, self.tempo_w, new])
        for widget, css in (
            (self.status, "castle-status"), (self.buttons, "castle-actions"),
            (self.hand, "castle-hand"), (self.canvas, "castle-table"),
            (self.rounds_w, "castle-rounds"), (self.seed_w, "castle-seed"), (self.tempo_w, "castle-tempo"), (new, "castle-new"),
            (self.reveal, "castle-reveal"), (self.replay_btn, "castle-replay-btn"),
        ):  # fmt: skip
            widget.add_class(css)
        # the hand, the answers, the inspector and the 战报 beside the table: the whole
        # match in view at 1440×900 (ismcts' opponent chooser goes in ``settings``)
        side = W.VBox(
            [W.HTML("<b>手牌与行动</b>（选择手牌或技能，合法目标在圆桌上高亮）"), self.hand,
             W.HBox([self.reveal, self.replay_btn]), self.buttons, self.inspector,
             self.log_panel, self.bridge],
            layout=W.Layout(margin="0 0 0 8px", width="372px", flex="0 0 auto"),
        )  # fmt: skip
        self.widget = W.VBox(
            [settings, self.opponents, self.table_panel, self.status,  # 城池战 extends settings
             W.HBox([self.canvas, side], layout=W.Layout(align_items="flex-start")),
             self.replay_box],
        )  # fmt: skip
        fit_to_window(self.widget, self.canvas)  # the round table in view at 1280×720
        self.selected: str | None = None
        self.focus: int | None = None
        self.ai = AiTurns(
            self._ai_to_move, self.ai_step, after=self.refresh, delay=lambda: self.tempo
        )
        self.human_choice = human
        self.new_match()
        if watcher is not None:
            self.tables.follow(watcher, self._adopt_cards)

    def _client_ready(self) -> None:
        """A view appeared (the page loaded): draw again (what the kernel drew before the
        browser connected never reached it; every batch names its canvas: ``safe_hold``)."""
        self.refresh()

    # --- match control --------------------------------------------------------------
    def new_match(self) -> None:
        rounds = self.rounds_w.value or None
        n = int(self.players_w.value)
        self.match, self.agents = self.make_match(n, int(self.seed_w.value), rounds)
        self.ai.think = self._think if self.opponents.searching else None
        self.ai.chosen = None
        self.embed_tables()
        self.tables.started()
        self._record()
        self.human = self.human_seat()
        self.selected, self.focus = None, None
        self.reveal.value = False
        self.reveal.disabled = True
        self.replay_btn.disabled = True
        self.replay_box.children = []
        self.replay = None
        self.tempo = float(self.tempo_w.value)
        self.refresh()
        self.schedule_ai()

    def _record(self) -> None:
        """Forget the last match's log; the new one is written to ``log_dir`` from its
        first action on (a page opened and left writes nothing)."""
        if self.recorder is not None:
            self.recorder.close()
        self.recorder = None
        self.log_path = None

    def _start_log(self) -> None:
        """Open the match's log (a log that cannot be written leaves the match
        unrecorded, never stopped)."""
        if self.log_dir is None:
            return
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
        path = self.log_dir / f"{self.game_name}-{stamp}-seed{self.match.seed}.jsonl"
        agents = [AgentInfo("human" if s == self.human_seat() else self.opponents.name, int(self.seed_w.value))
                  for s in range(self.match.num_seats)]  # fmt: skip
        try:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            self.recorder = MatchRecorder(self.match, path, agents)
        except OSError:
            self.log_dir = None  # read-only: stop trying
            return
        self.log_path = path

    def human_seat(self) -> int:
        return self.human_choice if self.human_choice is not None else 0

    def _apply(self, act: Act) -> None:
        """Every action goes through here: the match, and its log when recorded."""
        if self.recorder is None and not self.match.actions:
            self._start_log()
        if self.recorder is not None:
            self.recorder.apply(act)
        else:
            self.match.apply(act)

    # --- the live card table ------------------------------------------------------------
    def embed_tables(self) -> None:
        """A page following its table writes it into every match's log header, even when
        it is the repository's as read now: the file may change before the log is read."""
        if self.watcher is not None:
            self.match.options["cards_csv"] = self.cards.source

    def _adopt_cards(self, cards: CastleCards) -> None:
        """A valid new ``cards-castle.csv``: the next match uses it; the running match
        keeps its own (a broken one changes nothing: the panel lists its problems)."""
        self.cards = cards

    def make_match(self, n: int, seed: int, rounds: int | None) -> tuple[CastleMatch, list[Any]]:
        """The match and one agent per seat (a mode on this table overrides it)."""
        rules = CastleRules(max_rounds=rounds)
        match = CastleMatch(players=n, seed=seed, rules=rules, cards=self.cards)
        return match, [self.opponents.agent(seed, s, ScriptedAgent) for s in range(n)]

    def obs(self) -> dict[str, Any]:
        if self.match.is_over and self.reveal.value:
            return self.match.reveal_all() | {"seat": self.human}
        return self.match.observation(self.human)

    def my_turn(self) -> bool:
        return not self.match.is_over and self.match.current_seat == self.human

    def legal(self) -> list[Act]:
        return self.match.legal_actions() if self.my_turn() else []

    def shown(self) -> list[Act]:
        acts = self.legal()
        if self.selected is not None:
            acts = [a for a in acts if source_of(a) == self.selected]
        else:
            acts = [a for a in acts if source_of(a) is None]
        if self.focus is not None:
            obs = self.obs()
            acts = [a for a in acts if self.focus in target_seats(obs, a)]
        return acts

    # --- input ------------------------------------------------------------------------
    def select(self, source: str | None) -> None:
        self.selected = None if source == self.selected else source
        self.focus = None
        self.refresh()
        if source is not None:
            self.inspect_source(source)

    def ref_at(self, x: float, y: float) -> str | None:
        """What is drawn at (x, y), as an inspector ref (``seat:N``)."""
        seat = seat_at(self.obs(), x, y)
        return None if seat is None else f"seat:{seat}"

    def hover_xy(self, x: float, y: float) -> None:
        """The pointer rests on the table: inspect what it is on, once per new thing."""
        ref = self.ref_at(x, y)
        if ref != self._hover:
            self._hover = ref
            if ref is not None:
                self.inspect_ref(ref)

    # --- the inspector ------------------------------------------------------------------
    def inspect_source(self, source: str) -> None:
        """A chosen hand card (``attack``: the 剑) or skill (its hero) in full."""
        cards = self.match.state.cards
        if source.startswith("skill:"):
            self.inspect_ref(f"seat:{self.human}")
        elif source == "attack":
            self.inspector.show(card_html(cards["sword"]))
        elif source in cards:
            self.inspector.show(card_html(cards[source]))

    def inspect_ref(self, ref: str) -> None:
        """Show ``ref`` (``card:ID``, ``seat:N``) in the inspector; an unknown ref
        (a stale one from an old page) is ignored."""
        kind, _, key = ref.partition(":")
        cards = self.match.state.cards
        if kind == "card" and key in cards:
            self.inspector.show(card_html(cards[key]))
        elif kind == "seat" and key.isdigit() and int(key) < self.match.num_seats:
            self.inspector.show(seat_html(self.obs(), int(key), cards))

    def click_xy(self, x: float, y: float) -> None:
        seat = seat_at(self.obs(), x, y)
        if seat is not None:
            self.click_seat(seat)

    def click_seat(self, seat: int) -> None:
        self.inspect_ref(f"seat:{seat}")
        acts = [a for a in self.shown() if seat in target_seats(self.obs(), a)]
        if not self.press_only(acts):
            self.focus = seat if acts else None
            self.refresh()

    def press_only(self, acts: list[Act]) -> bool:
        """A click that means one action presses it (True); otherwise (False) the caller
        focuses what was clicked, narrowing the buttons to ``acts``, and redraws."""
        if len(acts) != 1:
            return False
        self.press(acts[0])
        return True

    def press(self, act: Act) -> None:
        if not self.my_turn() or act not in self.match.legal_actions():
            return
        self._apply(act)
        self.selected, self.focus = None, None
        self.refresh()
        self.schedule_ai()

    # --- AI seats -----------------------------------------------------------------------
    def _ai_to_move(self) -> bool:
        """An AI seat is to act, or the human seat's only answer is a pass (CH-UI-3: a
        seat with nothing to answer passes at once; the others wait alike either way)."""
        m = self.match
        if m.is_over:
            return False
        return m.current_seat != self.human or m.forced_pass() is not None

    def _think(self) -> Any:
        """The next AI action, searched in a worker thread (ISMCTS opponents); the human
        seat's forced pass needs no search."""
        if self.match.current_seat == self.human:
            return self.match.forced_pass()
        return self.opponents.think(self.match, self.agents)

    def ai_step(self) -> bool:
        m = self.match
        if not self._ai_to_move():
            return False
        if m.current_seat == self.human:  # its forced pass (CH-UI-3), given at once
            self.ai.chosen = None
            act = m.forced_pass()
            if act is None:
                return False
            self._apply(act)
            return True
        act, self.ai.chosen = self.ai.chosen, None
        if act is None or act not in m.legal_actions():
            act = self.agents[m.current_seat].choose(m)
        self._apply(act)
        return True

    def run_ai(self) -> None:
        """Let the AIs play until the human is asked or the game ends (no waiting)."""
        self.ai.run_now()

    def schedule_ai(self) -> None:
        self.ai.mode = "sync" if self.tempo <= 0 else "async"
        self.ai.start()

    # --- drawing ------------------------------------------------------------------------
    def refresh(self) -> None:
        obs = self.obs()
        m = self.match
        cards = m.state.cards
        targets: set[int] = set()
        if self.selected is not None:
            for a in self.shown():
                targets |= target_seats(obs, a)
        self.draw(obs, targets)
        step = {"start": "回合开始", "draw": "摸牌", "play": "出牌", "command": "指挥",
                "discard": "弃牌", "end": "回合结束", "": "准备"}.get(obs["step"], obs["step"])  # fmt: skip
        if m.is_over:
            res = m.returns()[self.human]
            word = "胜利" if res > 0 else ("平局" if res == 0 else "失败")
            turn = f"游戏结束：你{word}（{m.state.end_rule}）"
            self.reveal.disabled = False
            self.replay_btn.disabled = False
        elif self.my_turn():
            turn = "轮到你：" + PROMPT_ZH.get(m.prompt_kind, m.prompt_kind)
        else:
            turn = "等待其他玩家……"
        self.show_status(obs, step, turn)
        counts = Counter(obs["hand"])
        sources = {k for k in (source_of(a) for a in self.legal()) if k is not None}
        hand_buttons = []
        for cid, k in sorted(counts.items()):
            b = W.Button(
                description=f"{cards[cid].name}×{k}",
                tooltip=cards[cid].text,
                layout=W.Layout(width="auto"),
            )
            key = "attack" if cid == "sword" else str(cid)
            b.disabled = key not in sources
            b.button_style = "info" if self.selected == key else ""
            b.on_click(self._chooser(key))
            hand_buttons.append(b)
        if "attack" in sources and "sword" not in counts:  # 银杉木长弓: any 2 cards
            b = W.Button(description="攻击（任意2张）", layout=W.Layout(width="auto"))
            b.on_click(self._chooser("attack"))
            hand_buttons.append(b)
        for key in sorted(k for k in sources if k.startswith("skill:")):
            b = W.Button(
                description="技能 " + SKILL_ZH.get(key[6:], key[6:]), layout=W.Layout(width="auto")
            )
            b.button_style = "info" if self.selected == key else "warning"
            b.on_click(self._chooser(key))
            hand_buttons.append(b)
        self.hand.children = hand_buttons
        rows = []
        for a in self.shown()[:40]:
            named = next((cards[str(x)] for x in a.args if str(x) in cards), None)
            b = W.Button(
                description=m.describe(a),
                tooltip=f"{named.name}：{named.text}" if named is not None else "",
                layout=W.Layout(width="340px", flex="0 0 auto"),
            )
            b.on_click(self._presser(a))
            rows.append(b)
        self.buttons.children = rows
        self.log_panel.show_lines(obs["log"][-40:][::-1], name_refs(obs, cards))

    def open_replay(self) -> None:
        """After the end: the replay viewer on this match, from the human seat's view
        (its 视角 menu offers every seat and 全部公开)."""
        if not self.match.is_over:
            return
        self.replay = self.replay_class()(match_log(self.match), seat=self.human)
        self.replay_box.children = [self.replay.widget]

    def replay_class(self) -> type[Any]:
        """The replay viewer of this table's game (城池战 shows its cities)."""
        from throne_lib.games.castle.ui.replay import CastleReplay

        return CastleReplay

    def draw(self, obs: dict[str, Any], targets: set[int]) -> None:
        with safe_hold():
            draw_table(self.canvas, obs, self.match.state.cards, targets)

    def show_status(self, obs: dict[str, Any], step: str, turn: str) -> None:
        me = obs["players"][self.human]
        m = self.match
        thinking = self._ai_to_move() and self.opponents.searching
        self.status.show(
            f"你的身份：{me['role_zh']} · 英雄 {me['hero_name'] or '未选'} · "
            f"第{obs['round']}轮 · 阶段 {step} · {turn}"
            + (f" · {self.opponents.thinking()}" if thinking else ""),
            {"round": obs["round"], "seat": m.current_seat, "over": int(m.is_over),
             "thinking": int(thinking)},
        )  # fmt: skip

    def _chooser(self, key: str) -> Callable[[Any], None]:
        return lambda _b: self.select(key)

    def _presser(self, act: Act) -> Callable[[Any], None]:
        return lambda _b: self.press(act)


def castle_app(**kwargs: Any) -> W.VBox:
    """The dashboard widget (``notebooks/castle.ipynb``)."""
    return CastleApp(**kwargs).widget
