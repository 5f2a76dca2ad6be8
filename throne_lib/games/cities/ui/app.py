"""The 城池战 play dashboard: the 城堡之心 dashboard (:class:`CastleApp`) with cities.

A human plays one seat against scripted AIs (:class:`CitiesAgent`). Everything offered
comes from ``legal_actions()`` (and 认输 from ``concede_actions()``); the widget reads
only ``observation(seat)`` of the human seat while the game runs. The top bar shows each
team's cities against the victory count and the round (CW-UI-3); cities are drawn and
highlighted by :mod:`.table`; the 战报 names every city event (CW-UI-6).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as W

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.live import CastleTableWatcher
from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.castle.ui.app import PROMPT_ZH, CastleApp, source_of
from throne_lib.games.castle.ui.inspect import city_html, name_refs
from throne_lib.games.castle.ui.table import draw_table
from throne_lib.games.cities.agents import CitiesAgent
from throne_lib.games.cities.engine import CITY
from throne_lib.games.cities.match import CitiesMatch, default_table
from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.table import CityTable
from throne_lib.games.cities.ui.table import (
    canvas_height,
    city_at,
    city_seat_lines,
    draw_cities,
    team_colour,
)
from throne_lib.kit.live import TableWatcher
from throne_lib.kit.ui.canvas import safe_hold

CITY_PROMPT_ZH = {
    "cw_prep": "准备流程：是否弃守当前城池？",
    "cw_retrieve": "长安破城效果：从墓地选1张牌",
    "cw_deploy": "南皮破城效果：选择免费部署的士兵",
    "cw_strike": "合肥破城效果：选择造成1点伤害的目标",
    "play": "出牌阶段：选择手牌或技能，再点击目标（城池在圆桌中央与座位下方）",
    "command_pick": "指挥阶段：选择进攻的一组（某玩家一组连同其城池，或一座空城）",
    "cw_order": "同时击破多座城池：选择破城效果的结算顺序",
}


def city_args(act: Act) -> set[str]:
    return {str(a).removeprefix(CITY) for a in act.args if str(a).startswith(CITY)}


class CitiesApp(CastleApp):
    game_name = "cities"

    def __init__(
        self,
        players: int = 3,
        seed: int = 1,
        human: int | None = None,
        tempo: float = 0.6,
        max_rounds: int | None = 40,
        teams: str = "",
        deck_mode: str = "personal",
        watcher: CastleTableWatcher | None = None,
        city_watcher: TableWatcher | None = None,
        log_dir: str | Path | None = None,
    ) -> None:
        self.city_watcher = city_watcher
        self.city_table: CityTable = (
            city_watcher.db if city_watcher is not None else default_table()
        )
        self.teams_w = W.Text(value=teams, description="队伍", placeholder="如 a,b,a,b；空=各自为战",
                              layout=W.Layout(width="260px"))  # fmt: skip
        self.deck_w = W.Dropdown(options=[("各自牌组", "personal"), ("公共牌组", "shared")],
                                 value=deck_mode, description="牌组",
                                 layout=W.Layout(width="200px"))  # fmt: skip
        self.deck_w.add_class("cities-deck-mode")  # CW-DECK-1's two readings
        self.city_focus: str | None = None
        self.concede_b = W.Button(
            description="认输", button_style="danger", layout=W.Layout(flex="0 0 auto")
        )
        self.concede_b.on_click(lambda _b: self.concede())
        # CW-SETUP-5 / CW-UI-5: the drawn starting cities stay face down until all have
        # drawn (the engine deals them all at once), then turn together on this button
        self.revealed = False
        self.reveal_b = W.Button(
            description="翻开城池", button_style="warning", icon="eye",
            layout=W.Layout(flex="0 0 auto"),
        )  # fmt: skip
        self.reveal_b.on_click(lambda _b: self.reveal_cities())
        self.reveal_b.add_class("cities-reveal")
        super().__init__(
            players=players, seed=seed, human=human, tempo=tempo, max_rounds=max_rounds,
            watcher=watcher, log_dir=log_dir,
        )  # fmt: skip
        if city_watcher is not None:
            self.tables.follow(city_watcher, self._adopt_cities)
        self.canvas.height = canvas_height()  # room for the bottom seat's stack
        settings = self.widget.children[0]
        settings.children = (
            *settings.children[:-1],
            self.teams_w,
            self.deck_w,
            settings.children[-1],
        )
        self.reveal.description = "显示全部手牌"
        self.refresh()  # the canvas grew (and was cleared)
        self.teams_w.add_class("cities-teams")
        self.concede_b.add_class("cities-concede")
        self.widget.add_class("cities-app")

    match: CitiesMatch

    # --- match control -----------------------------------------------------------------
    def new_match(self) -> None:
        self.revealed = False
        super().new_match()

    def reveal_cities(self) -> None:
        """All players have drawn: every starting city turns face up together, the cities
        nobody drew go face up into the empty area; the set-up (heroes) goes on."""
        if self.revealed:
            return
        self.revealed = True
        self.refresh()
        self.schedule_ai()

    def schedule_ai(self) -> None:
        if self.revealed:
            super().schedule_ai()

    def run_ai(self) -> None:
        if self.revealed:
            super().run_ai()

    def make_match(self, n: int, seed: int, rounds: int | None) -> tuple[CastleMatch, list[Any]]:
        labels = [t.strip() for t in self.teams_w.value.split(",") if t.strip()]
        if len(labels) != n or len(set(labels)) < 2:
            labels = [f"t{i}" for i in range(n)]
        match = CitiesMatch(
            players=n,
            seed=seed,
            rules=CitiesRules(max_rounds=rounds, deck_mode=str(self.deck_w.value)),
            cards=self.cards,
            table=self.city_table,
            teams=labels,
        )
        return match, [self.opponents.agent(seed, s, CitiesAgent) for s in range(n)]

    def embed_tables(self) -> None:
        super().embed_tables()
        if self.city_watcher is not None:
            self.match.options["cities_csv"] = self.city_table.text

    def replay_class(self) -> type[Any]:
        from throne_lib.games.cities.ui.replay import CitiesReplay

        return CitiesReplay

    def _adopt_cities(self, table: CityTable) -> None:
        """A valid new ``cities.csv``: the next match uses it (CW-SETUP-1's cities); the
        running match keeps the cities it dealt."""
        self.city_table = table

    def concede(self) -> None:
        act = Act("concede", (self.human,))
        if act in self.match.concede_actions():
            self.match.apply(act)
            self.refresh()
            self.schedule_ai()

    # --- input -------------------------------------------------------------------------
    def legal(self) -> list[Act]:
        return super().legal() if self.revealed else []

    def shown(self) -> list[Act]:
        acts = super().shown()
        if self.city_focus is not None:
            acts = [a for a in acts if self.city_focus in city_args(a)]
        return acts

    def select(self, source: str | None) -> None:
        """Choose a hand card or skill; one the current question does not offer (a click
        that arrived after the game moved on) is ignored."""
        self.city_focus = None
        if source is not None and source not in self._sources():
            source = self.selected
        super().select(source)

    def _sources(self) -> set[str]:
        return {k for k in (source_of(a) for a in self.legal()) if k is not None}

    def click_xy(self, x: float, y: float) -> None:
        city = city_at(self.obs(), x, y)
        if city is not None:
            self.click_city(city)
            return
        super().click_xy(x, y)

    def ref_at(self, x: float, y: float) -> str | None:
        city = city_at(self.obs(), x, y)
        return f"city:{city}" if city is not None else super().ref_at(x, y)

    def inspect_ref(self, ref: str) -> None:
        """A city (``city:ID``) shows its grain and its 守城/破城 effects — once the
        cities are face up (CW-SETUP-5); anything else as on the castle table."""
        kind, _, key = ref.partition(":")
        if kind != "city":
            super().inspect_ref(ref)
            return
        cv = self.obs()["cities"]
        for city in [*cv["empty"], *(c for stack in cv["stacks"] for c in stack)]:
            if city["id"] == key:
                if not self.revealed:
                    self.inspector.show("<b>城池背面朝上</b>：全部玩家抽取后同时翻开。")
                else:
                    self.inspector.show(city_html(city))
                return

    def click_city(self, city: str) -> None:
        self.inspect_ref(f"city:{city}")
        acts = [a for a in super().shown() if city in city_args(a)]
        if not self.press_only(acts):
            self.city_focus = city if acts else None
            self.refresh()

    def press(self, act: Act) -> None:
        self.city_focus = None
        super().press(act)

    # --- drawing -----------------------------------------------------------------------
    def draw(self, obs: dict[str, Any], targets: set[int]) -> None:
        hot: set[str] = set()
        if self.selected is not None or self.match.prompt_kind in ("command_pick", "order"):
            for a in self.shown():
                hot |= city_args(a)
        with safe_hold():
            draw_table(self.canvas, obs, self.match.state.cards, targets, city_seat_lines)
            draw_cities(self.canvas, obs, hot, face_down=not self.revealed)

    def show_status(self, obs: dict[str, Any], step: str, turn: str) -> None:
        """CW-UI-3: whose turn, the round against the limit, each team's cities against
        the victory count (in the team's colour, under the prompt)."""
        cv = obs["cities"]
        me = obs["players"][self.human]
        m = self.match
        if not self.revealed:
            turn = "各玩家已抽取起始城池（背面朝上）：点击「翻开城池」同时翻开"
        elif self.my_turn():
            kind = m.prompt_kind
            turn = "轮到你：" + CITY_PROMPT_ZH.get(kind, PROMPT_ZH.get(kind, kind))
        elif not m.is_over and obs["turn_seat"] >= 0:
            turn = f"{obs['players'][obs['turn_seat']]['hero_name'] or '座位'}的回合 · {turn}"
        goal = cv["victory_count"]  # per team (CW-SETUP-3)
        teams = " ".join(
            f"<span style='color:{team_colour(int(t))}'>队伍{int(t) + 1} 城池 {k}/{goal[t]}</span>"
            for t, k in cv["team_cities"].items()
        )
        limit = cv["max_rounds"] or "∞"
        mine = cv["teams"][self.human] + 1
        thinking = self.revealed and self._ai_to_move() and self.opponents.searching
        self.status.show(
            f"你：队伍{mine} · {me['hero_name'] or '未选英雄'} · 第 {obs['round']}/{limit} 轮 · "
            f"阶段 {step} · {turn}" + (f" · {self.opponents.thinking()}" if thinking else ""),
            {
                "round": obs["round"],
                "seat": m.current_seat,
                "over": int(m.is_over),
                "thinking": int(thinking),
            },  # fmt: skip
            extra=f"<div class='cities-teams-bar' style='font-size:14px'>{teams}</div>",
        )

    def refresh(self) -> None:
        if self.selected is not None and self.selected not in self._sources():
            self.selected = None  # the question changed: drop a stale choice
        super().refresh()
        self.concede_b.disabled = Act("concede", (self.human,)) not in self.match.concede_actions()
        obs = self.obs()
        refs = name_refs(obs, self.match.state.cards)
        if not self.revealed:
            self.buttons.children = (self.reveal_b, self.concede_b)
            lines = obs["log"][-40:][::-1]  # the 战报 names them after the reveal
            self.log_panel.show_lines([x for x in lines if not x.startswith("起始城池翻开")], refs)
            return
        refs |= {name: f"city:{cid}" for cid, name in obs["cities"]["names"].items()}
        self.log_panel.show_lines(obs["log"][-40:][::-1], refs)
        if self.my_turn() and self.match.prompt_kind == "cw_order":  # CW-CAPTURE-6, CW-UI-5
            self.buttons.children = (self.order_dialog(), self.concede_b)
            return
        self.buttons.children = (*self.buttons.children, self.concede_b)

    def order_dialog(self) -> W.VBox:
        """CW-UI-5: simultaneous captures ordered in a dialog; one button per city still
        to order, from ``legal_actions()``; the last one left ends on top."""
        obs = self.obs()
        names = obs["cities"]["names"]
        left = ((obs.get("prompt") or {}).get("detail") or {}).get("cities", [])
        head = W.HTML(
            "<b>同时击破多座城池</b><br>依次选择破城效果的结算顺序；"
            "按此顺序叠放，最后一座成为当前城池。<br>待排序："
            + "、".join(str(names.get(c, c)) for c in left)
        )
        rows: list[W.Widget] = [head]
        for a in self.legal():
            b = W.Button(description=self.match.describe(a), layout=W.Layout(width="320px"))
            b.on_click(self._presser(a))
            b.add_class("cities-order-choice")
            rows.append(b)
        box = W.VBox(
            rows, layout=W.Layout(border="2px solid #d68910", padding="6px", flex="0 0 auto")
        )
        box.add_class("cities-order-dialog")
        return box


def cities_app(**kwargs: Any) -> W.VBox:
    """The dashboard widget (``notebooks/cities.ipynb``)."""
    return CitiesApp(**kwargs).widget
