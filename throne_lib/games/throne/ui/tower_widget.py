"""The tower dashboard (王座之塔, R-TOWER-1..8): map on ipycanvas, node screens,
battles in the play widget; the run is saved after every step and resumed on load.

Thin on purpose: the rules live in :mod:`throne_lib.games.throne.tower`; this module only
draws (:mod:`throne_lib.games.throne.tower.mapview`) and turns clicks into run choices.
Environment (for designers and the browser test): ``THRONE_TOWER_SAVE`` the save
path, ``THRONE_TOWER_WEAK_FIRST=N`` the first enemy's throne HP (a cheat).
"""

from __future__ import annotations

import asyncio
import dataclasses
import html
import os
import random
from pathlib import Path
from typing import Any

import ipywidgets as W
from ipycanvas import Canvas

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.cards import KIND_ZH, RACE_ZH
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.tower.battle import decide, mix
from throne_lib.games.throne.tower.config import DEFAULT_TOWER, TowerRules
from throne_lib.games.throne.tower.live import TowerTables, missing_from
from throne_lib.games.throne.tower.map import KIND_ZH as NODE_ZH
from throne_lib.games.throne.tower.mapview import map_ops, node_at, node_tip, node_under, size
from throne_lib.games.throne.tower.run import Battle, Run, Tables
from throne_lib.games.throne.tower.save import (
    SaveError,
    default_save_path,
    load_run,
    quarantine,
    save_run,
)
from throne_lib.games.throne.ui.card_row import CardRow
from throne_lib.games.throne.ui.widget import MatchWidget
from throne_lib.kit.ui.canvas import run_ops, safe_hold
from throne_lib.kit.ui.live_tables import LiveTablesPanel
from throne_lib.kit.ui.shell import fit_to_window

AUTO_AGENT = "standard"  # plays the player's side when 自动战斗 is on
TEMPO_S = {"standard": 0.135, "fast": 0.06}  # R-AI-3
SHOP_W, SHOP_H = 132, 184  # the shop's cards: the gallery's size (5 in a row)


class TowerEnemy:
    """The battle's enemy AI as a play-widget agent (the same decisions as a resumed run)."""

    def __init__(self, battle: Battle) -> None:
        self.battle = battle
        self.name = battle.setup.enemy_agent

    def choose(self, match: Match) -> Action:
        return decide(match, self.battle.setup.enemy_agent, self.battle.setup.seed)


class TowerMatchWidget(MatchWidget):
    """The play widget, saving the run after every action of either side (R-TOWER-8)."""

    def __init__(self, *args: Any, on_step: Any = None, **kwargs: Any) -> None:
        self.on_step = on_step
        super().__init__(*args, **kwargs)
        self.tower.layout.display = "none"  # 「爬塔 ›」 would link the tower to itself

    def _on_events(self, action: Action, events: list[Event]) -> None:
        super()._on_events(action, events)
        if self.on_step is not None:
            self.on_step()

    def ai_step(self) -> Action:
        a = super().ai_step()
        if self.on_step is not None:
            self.on_step()
        return a


def _button(text: str, cls: str, on: Any, style: str = "") -> W.Button:
    b = W.Button(description=text, button_style=style, layout=W.Layout(width="auto"))
    b.add_class(cls)
    b.on_click(lambda _: on())
    return b


class TowerApp(W.VBox):
    """Start or resume a run; one screen per run screen."""

    def __init__(
        self,
        save_path: str | Path | None = None,
        tables: Tables | None = None,
        rules: TowerRules = DEFAULT_TOWER,
        tempo: str = "fast",
        ai_mode: str = "async",
        live: TowerTables | None = None,
    ) -> None:
        """``live``: the tables followed (tower/live.py); a new run starts on their last
        valid versions, and the run under way takes a valid edit from its next screen."""
        self.path = Path(save_path) if save_path is not None else default_save_path()
        self.live = live
        self.tables = live.current() if live is not None else tables or Tables.load()
        self.table_panel = LiveTablesPanel(
            "新的爬塔", running=lambda: self.run is not None, reload_note=self._reload_note
        )
        self.table_panel.widget.add_class("tp-tower-tables")
        self._kept: list[str] = []  # what the run holds that the new tables lack
        self.rules = rules
        self.tempo = tempo
        self.ai_mode = ai_mode
        self.run: Run | None = None
        self.match_widget: TowerMatchWidget | None = None
        self.canvas: Canvas | None = None
        self.map_tip: W.HTML | None = None
        self.reward_row: CardRow | None = None
        self.shop_row: CardRow | None = None
        self._auto_task: asyncio.Task[None] | None = None
        self.header = W.HTML()
        self.header.add_class("tp-tower-header")
        self.message = W.HTML()
        self.message.add_class("tp-tower-message")
        self.body = W.VBox()
        # A canvas built while the notebook runs stays blank in Voilà, so once the
        # browser is connected (this 1-pixel probe reports it) the screen is rebuilt.
        self.connected = False
        probe = Canvas(width=1, height=1, layout=W.Layout(width="1px", height="1px"))
        probe.on_client_ready(self._on_connect)
        super().__init__([self.header, self.table_panel.widget, self.message, self.body, probe])
        self.add_class("tp-tower")
        self.resume()
        if live is not None:
            for watcher in live.watchers:
                self.table_panel.follow(watcher, lambda _db: self.adopt_tables())

    # --- live tables -------------------------------------------------------------------

    def adopt_tables(self) -> None:
        """A valid new table: the next run starts on it, and the run under way takes it
        from its next screen when it still finds everything it holds (tower/live.py)."""
        assert self.live is not None
        new = self.live.current()
        self._kept = missing_from(self.run, new) if self.run is not None else []
        if self.run is None:
            self.tables = new
            self.show()  # the start screen lists the new table's generals
        elif not self._kept:
            self.tables = self.run.tables = new
            self.save()

    def _reload_note(self, name: str) -> str:
        if self.run is None:
            return "新的爬塔将使用新表。"
        if self._kept:
            return (
                f"本次爬塔仍持有新表中没有的 {'、'.join(self._kept)}，继续使用原来的表；"
                "新的爬塔将使用新表。"
            )
        battle = "（进行中的战斗沿用开战时的卡牌表）" if self.run.battle is not None else ""
        return f"本次爬塔从下一步起使用新表{battle}，新的爬塔也是。"

    def _on_connect(self) -> None:
        if self.connected:
            return
        self.connected = True
        if self.match_widget is not None:
            self.match_widget.ai_mode = "manual"  # the rebuilt screen has its own widget
        if self.run is not None:
            self.show()

    # --- run lifecycle ---------------------------------------------------------------

    def resume(self) -> None:
        """Load the save (R-TOWER-8); a corrupt one is reported, never overwritten."""
        try:
            self.run = load_run(self.path, self.tables)
        except FileNotFoundError:
            self.run = None
        except SaveError as error:
            self.run = None
            self.show_error(error)
            return
        self.show()

    def start(self, seed: int, general: str, vices: tuple[str, ...]) -> None:
        self.run = Run.new(seed, general, vices, tables=self.tables, rules=self.rules)
        self.save()
        self.show()

    def save(self) -> None:
        if self.run is not None:
            save_run(self.run, self.path)

    def choose(self, choice: str) -> None:
        assert self.run is not None
        self.run.apply(choice)
        self.save()
        self.show()

    # --- screens ----------------------------------------------------------------------

    def show(self) -> None:
        run = self.run
        if run is None:
            self.header.value = "<h2>王座之塔</h2>"
            self.show_start()
            return
        self._update_header()
        notes = "<br>".join(html.escape(n) for n in run.notes[-3:])
        self.message.value = f'<div style="color:#5d4a2a">{notes}</div>'
        screen = getattr(self, f"show_{run.screen}")
        screen()

    def _update_header(self) -> None:
        run = self.run
        assert run is not None
        relics = "、".join(run.tables.relics[r].name for r in run.relics) or "无"
        self.header.value = (
            f'<div style="font-size:16px"><b>王座之塔</b> · 第 {run.floor + 1} 层 · '
            f"王座 <b>{run.hp}/{run.max_hp}</b> · 金币 <b>{run.gold}</b> · "
            f"牌组 {len(run.deck)} 张 · 遗物：{html.escape(relics)}</div>"
        )

    def show_error(self, error: SaveError) -> None:
        self.header.value = "<h2>王座之塔</h2>"
        self.message.value = f'<div style="color:#b03a2e">存档无法读取，文件保持原样：<code>{html.escape(str(error))}</code></div>'

        def aside() -> None:
            moved = quarantine(self.path)
            self.message.value = f"已将损坏的存档移到 <code>{html.escape(str(moved))}</code>"
            self.run = None
            self.show_start()

        self.body.children = [
            _button("把损坏的存档移到一边，重新开始", "tp-tower-quarantine", aside, "danger")
        ]

    def show_start(self) -> None:
        db = self.tables.cards
        generals = [(f"{c.name}（{RACE_ZH.get(c.race, c.race)}）", c.id) for c in db.of("general")]
        main = W.Dropdown(options=generals, description="主将")
        vices = [
            W.Dropdown(options=[("（无）", "")] + generals, description=f"副将{i}") for i in (1, 2)
        ]
        seed = W.IntText(value=random.randrange(1, 10_000), description="种子")

        def go() -> None:
            picked = tuple(v.value for v in vices if v.value and v.value != main.value)
            self.start(int(seed.value), str(main.value), tuple(dict.fromkeys(picked)))

        self.body.children = [
            main,
            *vices,
            seed,
            _button("开始爬塔", "tp-tower-start", go, "success"),
        ]

    def show_map(self) -> None:
        run = self.run
        assert run is not None
        w, h = size(run)
        canvas = Canvas(width=w, height=h, layout=W.Layout(width=f"{w}px", height=f"{h}px"))
        canvas.on_client_ready(self.draw_map)
        canvas.on_mouse_down(self.click_map)
        canvas.on_mouse_move(self.hover_map)
        self.canvas = canvas
        buttons = [
            _button(
                f"前往：{NODE_ZH[n.kind]}（第{n.row + 1}行·{'abcdefghij'[n.col]}列）",
                "tp-tower-go",
                lambda nid=n.id: self.choose(f"go {nid}"),
                "primary",
            )
            for n in run.reachable()
        ]
        # The node under the pointer, described on a line under the map (a title attribute
        # is no option: ipycanvas's view and ipywidgets' Box view both ignore `tooltip`).
        self.map_tip = W.HTML("<span style='color:#777'>把鼠标移到节点上查看说明</span>")
        self.map_tip.add_class("tp-tower-tip")
        go = W.HBox(buttons)
        fit_to_window(self, go)  # at 1280×720 the map and its 前往 buttons stay in view
        self.body.children = [canvas, self.map_tip, go]
        self.draw_map()

    def draw_map(self) -> None:
        if self.canvas is not None and self.run is not None:
            with safe_hold():
                run_ops(self.canvas, map_ops(self.run))

    def hover_map(self, x: float, y: float) -> None:
        """Describe the node under the pointer on the line under the map."""
        if self.map_tip is None or self.run is None or self.run.screen != "map":
            return
        node = node_under(self.run, x, y)
        tip = f"<b>{html.escape(node_tip(self.run, node))}</b>" if node is not None else ""
        if tip and self.map_tip.value != tip:
            self.map_tip.value = tip

    def click_map(self, x: float, y: float) -> None:
        if self.run is not None and self.run.screen == "map":
            nid = node_at(self.run, x, y)
            if nid is not None:
                self.choose(f"go {nid}")

    def show_battle(self) -> None:
        run = self.run
        assert run is not None and run.battle is not None
        battle = run.battle
        mw = TowerMatchWidget(
            battle.match,
            TowerEnemy(battle),
            human=0,
            tempo=self.tempo,
            ai_mode=self.ai_mode,
            on_again=lambda: self.choose("finish"),
            on_step=self._battle_step,
            log_dir=self.path.parent / "tower-logs",
        )
        mw.again_btn.description = "继续爬塔"
        mw.again_btn.add_class("tp-tower-finish")
        self.match_widget = mw
        auto = W.ToggleButton(value=False, description="自动战斗（AI 代打）")
        auto.add_class("tp-tower-auto")
        auto.observe(lambda ch: self.autoplay() if ch["new"] else None, names="value")
        self.auto = auto
        kind = NODE_ZH[battle.setup.kind]
        enemy = run.tables.cards[battle.setup.enemy.general].name
        relics = "、".join(run.tables.relics[r].name for r in battle.setup.enemy_relics) or "无"
        info = W.HTML(f"<b>{kind}</b>：对手 {html.escape(enemy)} · 敌方遗物：{html.escape(relics)}")
        self.body.children = [W.HBox([info, auto]), mw]

    def _battle_step(self) -> None:
        """After every action of a battle: save the run; once the battle is over,
        自动战斗 has nothing left to do."""
        self.save()
        mw = self.match_widget
        if mw is not None and mw.match.is_over and getattr(self, "auto", None) is not None:
            self.auto.value = False
            self.auto.disabled = True

    def _auto_action(self) -> None:
        mw, run = self.match_widget, self.run
        assert mw is not None and run is not None and run.battle is not None
        m = mw.match
        a = decide(m, AUTO_AGENT, mix(0, run.battle.setup.seed, "player"))
        mw.ctrl.apply(a)
        mw.refresh()

    def autoplay(self) -> None:
        """Let the AI play the player's side (a designer's aid; fast with the tempo)."""
        mw = self.match_widget
        if mw is None:
            return
        if self.ai_mode == "sync":
            while not mw.match.is_over and self.auto.value:
                self._auto_action()
            return
        if self._auto_task is None or self._auto_task.done():
            self._auto_task = asyncio.get_event_loop().create_task(self._auto_loop())

    async def _auto_loop(self) -> None:
        mw = self.match_widget
        assert mw is not None
        while not mw.match.is_over and self.auto.value and mw is self.match_widget:
            await asyncio.sleep(TEMPO_S.get(mw.tempo.value, 0.06))
            if mw.match.turn == 0 and not mw.match.is_over and self.auto.value:
                self._auto_action()

    def show_reward(self) -> None:
        run = self.run
        assert run is not None
        db = run.tables.cards
        buttons = []
        for c in run.offer:
            card = db[c]
            label = f"选择：{card.name}（{RACE_ZH[card.race]}·{KIND_ZH[card.kind]}·{card.cost}费）"
            b = _button(label, "tp-tower-pick", lambda c=c: self.choose(f"pick {c}"), "success")
            b.disabled = f"pick {c}" not in run.choices()
            b.tooltip = card.text
            buttons.append(b)
        buttons.append(_button("跳过", "tp-tower-skip", lambda: self.choose("skip")))
        offer = list(run.offer)
        self.reward_row = CardRow(
            [db[c] for c in offer],
            lambda i: self.choose(f"pick {offer[i]}"),
            enabled=[not b.disabled for b in buttons[:-1]],
            css_class="tp-tower-reward-cards",
        )
        hint = W.HTML(
            '<span style="color:#7a6a50">点击一张卡牌把它加入牌组，或用下面的按钮。</span>'
        )
        self.body.children = [
            W.HTML("<h3>战利品：三选一</h3>"),
            hint,
            self.reward_row.widget,
            W.HBox(buttons),
        ]

    def show_campfire(self) -> None:
        r = self.rules
        self.body.children = [
            W.HTML("<h3>篝火</h3>"),
            W.HBox([
                _button(f"休息（回复 {r.campfire_heal_percent}% 生命）", "tp-tower-rest", lambda: self.choose("rest"), "success"),
                _button(f"锻炼（生命上限 +{r.campfire_max_hp}）", "tp-tower-fortify", lambda: self.choose("fortify")),
            ]),
        ]  # fmt: skip

    def show_shop(self) -> None:
        run = self.run
        assert run is not None
        db, relics, s = run.tables.cards, run.tables.relics, run.shop
        legal = set(run.choices())
        rows = []
        for c, p in s["cards"].items():
            rows.append((f"买卡：{db[c].name}（{p} 金）", f"buy {c}"))
        for x, p in s["relics"].items():
            rows.append((f"买遗物：{relics[x].name}（{p} 金）— {relics[x].text}", f"relic {x}"))
        if "heal" in s:
            rows.append((f"治疗 {run.rules.shop_heal} 点（{s['heal']} 金）", "heal"))
        buttons = []
        for label, choice in rows:
            b = _button(label, "tp-tower-buy", lambda ch=choice: self.choose(ch))
            b.disabled = choice not in legal
            buttons.append(b)
        cards = list(s["cards"])
        self.shop_row = CardRow(
            [db[c] for c in cards],
            lambda i: self.choose(f"buy {cards[i]}"),
            enabled=[f"buy {c}" in legal for c in cards],
            captions=[f"{s['cards'][c]} 金" for c in cards],
            w=SHOP_W,
            h=SHOP_H,
            css_class="tp-tower-shop-cards",
        )
        removable = sorted({c[7:] for c in legal if c.startswith("remove ")})
        remove = W.Dropdown(options=[(db[c].name, c) for c in removable], description="删牌")
        rm = _button(
            f"删除（{s.get('remove', '-')} 金）",
            "tp-tower-remove",
            lambda: self.choose(f"remove {remove.value}"),
        )
        rm.disabled = not removable
        leave = _button("离开商店", "tp-tower-leave", lambda: self.choose("leave"), "primary")
        self.body.children = [
            W.HTML("<h3>商店</h3>"),
            self.shop_row.widget,
            W.VBox(buttons),
            W.HBox([remove, rm]),
            leave,
        ]

    def show_event(self) -> None:
        run = self.run
        assert run is not None
        ev = run.tables.events[run.event]
        legal = set(run.choices())
        buttons = []
        for i, opt in enumerate(ev.options):
            b = _button(opt.label, "tp-tower-option", lambda i=i: self.choose(f"option {i + 1}"))
            b.disabled = f"option {i + 1}" not in legal
            buttons.append(b)
        self.body.children = [
            W.HTML(f"<h3>{html.escape(ev.name)}</h3><p>{html.escape(ev.text)}</p>"),
            W.VBox(buttons),
        ]

    def show_over(self) -> None:
        run = self.run
        assert run is not None
        title = "王座之塔已被征服！" if run.status == "won" else "爬塔结束"
        rows = "".join(
            f"<tr><td>{s.floor + 1}.{s.row + 1}</td><td>{NODE_ZH[s.kind]}</td><td>{s.hp_after}/{s.max_hp}</td></tr>"
            for s in run.steps
        )
        self.body.children = [
            W.HTML(f"<h3>{title}</h3><table>{rows}</table>"),
            _button("新的爬塔", "tp-tower-new", self.new_run, "success"),
        ]

    def new_run(self) -> None:
        self.run = None
        if self.live is not None:
            self.tables = self.live.current()
            self._kept = []
        self.table_panel.started()
        self.show()


def tower_app(**kwargs: Any) -> TowerApp:
    """The dashboard with the environment's save path and designer cheat."""
    weak = int(os.environ.get("THRONE_TOWER_WEAK_FIRST", "0") or 0)
    if weak > 0:
        kwargs.setdefault("rules", dataclasses.replace(DEFAULT_TOWER, weak_first_enemy_hp=weak))
    return TowerApp(**kwargs)
