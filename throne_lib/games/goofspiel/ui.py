"""The 暗标夺宝 dashboard: you bid as 甲 (seat 0) against the kit's random agent (乙).

Every button is a legal action of the match (``legal_actions()``); what the page shows
comes from ``observation(0)`` — your view — so 乙's bid stays hidden until both bid."""

from __future__ import annotations

import html
from typing import Any

import ipywidgets as W

from throne_lib.games.goofspiel.game import GoofMatch
from throne_lib.kit.agents import RandomAgent

SEATS = ("甲（你）", "乙（AI）")
CSS = "font-family:'Noto Sans CJK SC','Noto Sans SC',sans-serif"


class GoofApp(W.VBox):
    """One match against the AI; 「新对局」 starts the next seed."""

    def __init__(self, seed: int = 1, cards: int = 8) -> None:
        self.seed, self.cards = seed, cards
        self.status = W.HTML()
        self.hand = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.rounds = W.HTML()
        again = W.Button(description="新对局 new match", layout=W.Layout(width="170px"))
        again.on_click(lambda _b: self.new_match(self.seed + 1))
        super().__init__([self.status, self.hand, self.rounds, again])
        self.new_match(seed)

    def new_match(self, seed: int) -> None:
        self.seed = seed
        self.match = GoofMatch(["player", "player"], seed, {"cards": self.cards})
        self.ai = RandomAgent(seed)
        self.show()

    def bid(self, action: Any) -> None:
        self.match.apply(action)  # a legal action: the buttons are legal_actions()
        if not self.match.is_over and self.match.current_seat == 1:
            self.match.apply(self.ai.choose(self.match))
        self.show()

    def show(self) -> None:
        obs = self.match.observation(0)
        a, b = obs["scores"]
        if obs["prize"] is None:
            w = self.match.winner
            head = "平局 draw" if w < 0 else f"{SEATS[w]} 获胜 wins"
        else:
            head = f"奖牌 prize <b style='font-size:150%'>{obs['prize']}</b> · 出一张牌暗标"
        self.status.value = (
            f'<div style="{CSS}"><h3>暗标夺宝 · seed {self.seed}</h3>{head}<br>'
            f"得分 score: {SEATS[0]} {a} · {SEATS[1]} {b} · 剩余奖牌 {obs['prizes_left']}</div>"
        )
        buttons = []
        for action in self.match.legal_actions() if self.match.current_seat == 0 else []:
            btn = W.Button(description=str(action.card), layout=W.Layout(width="44px"))
            btn.on_click(lambda _b, act=action: self.bid(act))
            buttons.append(btn)
        self.hand.children = buttons
        rows = "".join(
            f"<tr><td>{p}</td><td>{x}</td><td>{y}</td><td>{self.winner_of(x, y)}</td></tr>"
            for p, x, y in reversed(obs["rounds"])
        )
        self.rounds.value = (
            f'<table style="{CSS}"><tr><th>奖牌</th><th>{html.escape(SEATS[0])}</th>'
            f"<th>{html.escape(SEATS[1])}</th><th>得主</th></tr>{rows}</table>"
        )

    @staticmethod
    def winner_of(x: int, y: int) -> str:
        return "—" if x == y else SEATS[0 if x > y else 1]


def goofspiel_app(seed: int = 1, cards: int = 8) -> GoofApp:
    return GoofApp(seed, cards)
