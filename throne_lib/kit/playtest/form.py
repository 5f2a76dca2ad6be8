"""The home page's 新建牌局 form: a playtest of any registered game, from the browser.

Game, number of seats, which seats are human, the AI's agent and think time, the seed
and (optional) a card table file; 创建 stores the playtest and lists one link per human
seat and the spectator's. The links are relative to the home page (the browser makes
them absolute: right-click to copy one and send it to a player). Bad parameters are
said in red next to the button; nothing is created.
"""

from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as W

from throne_lib.kit import registry
from throne_lib.kit.agents import agent_names
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.store import SPECTATOR, PlaytestStore, StoreError, open_store


class PlaytestForm:
    """The form (``widget``); testable without a browser: set the fields, ``create()``."""

    def __init__(self, store: PlaytestStore | None = None) -> None:
        self._store = store
        games = registry.games()
        self.game = W.Dropdown(
            options=[(f"{g.title} ({g.name})", g.name) for g in games], description="游戏"
        )
        self.players = W.BoundedIntText(
            value=2, min=1, max=8, description="座位数", layout=W.Layout(width="160px")
        )
        self.humans = W.Text(value="0", description="真人座位", layout=W.Layout(width="220px"))
        self.humans.placeholder = "0,1,2"
        self.agent = W.Dropdown(description="AI")
        self.think = W.BoundedFloatText(
            value=0.5, min=0.0, max=10.0, step=0.1, description="AI 思考(秒)"
        )
        self.seed = W.IntText(value=1, description="种子", layout=W.Layout(width="160px"))
        self.cards = W.Text(value="", description="卡牌表", placeholder="留空：游戏自带的表")
        self.button = W.Button(description="创建牌局", button_style="primary", icon="users")
        self.button.on_click(lambda _: self.create())
        self.out = W.HTML()
        for w, css in ((self.game, "pt-game"), (self.players, "pt-players"), (self.humans, "pt-humans"),
                       (self.agent, "pt-agent"), (self.think, "pt-think"), (self.seed, "pt-seed"),
                       (self.cards, "pt-cards"), (self.button, "pt-create"), (self.out, "pt-links")):  # fmt: skip
            w.add_class(css)
        self.game.observe(lambda _: self.on_game(), names="value")
        self.on_game()
        self.widget = W.VBox(
            [
                W.HTML(
                    "<h2 id='tp-playtest'>新建牌局 · New playtest</h2><div class='sub'>"
                    "几位玩家各用自己的浏览器打开自己座位的链接，空座位由 AI 扮演；"
                    "每人只看到自己座位能看到的内容。</div>"
                ),  # fmt: skip
                W.HBox([self.game, self.players, self.humans]),
                W.HBox([self.agent, self.think, self.seed]),
                W.HBox([self.cards, self.button]),
                self.out,
            ]
        )
        self.widget.add_class("pt-form")

    def on_game(self) -> None:
        g = registry.get(self.game.value)
        lo, hi = g.seats
        self.players.max = max(hi, self.players.min)  # never min > max in between
        self.players.min = lo
        self.players.max = hi
        self.players.value = max(lo, min(hi, self.players.value))
        names = agent_names(g.name)
        self.agent.options = list(names)
        self.agent.value = g.default_agent if g.default_agent in names else names[0]

    def create(self) -> manage.Created | None:
        try:
            store = self._store or open_store()
            cards = self.cards.value.strip()
            if cards and not Path(cards).is_file():
                raise ValueError(f"卡牌表 {cards} 不存在")
            created = manage.create(
                store, self.game.value, int(self.players.value), self.humans.value,
                self.agent.value, float(self.think.value), int(self.seed.value), cards or None,
            )  # fmt: skip
        except (ValueError, OSError, StoreError) as exc:
            self.out.value = (
                f"<div style='color:#9f3a38'>无法创建牌局：{html.escape(str(exc))}</div>"
            )
            return None
        page = manage.dashboard(created.playtest.game)
        g = registry.get(created.playtest.game)
        rows = []
        for link in manage.links(created, base="."):
            who = "旁观" if link.seat == SPECTATOR else g.seat_label(link.seat)
            href = html.escape(page + "?" + link.url.split("?", 1)[1])
            rows.append(
                f"<li>{who}：<a class='pt-link' data-seat='{link.seat}' href='{href}' target='_blank'>{href}</a></li>"
            )
        self.out.value = (
            f"<div style='color:#1e8449'>牌局 <b>{html.escape(created.playtest.id)}</b> 已创建："
            "把每个链接发给对应的玩家（右键复制链接）。链接中的令牌只显示这一次。</div>"
            f"<ul class='pt-link-list'>{''.join(rows)}</ul>"
        )
        return created
