"""The 暗标夺宝 dashboard: you bid as 甲 (seat 0) against the kit's random agent (乙).

Every button is a legal action of the match (``legal_actions()``); what the page shows
comes from ``observation(0)`` — your view — so 乙's bid stays hidden until both bid.
Each match is logged from its first bid (``$GOOFSPIEL_LOGS`` or ``logs/``) and reviewed
on the kit's replay page for any game (:class:`GoofLogBrowser`,
``notebooks/goofspiel_replay.ipynb``): the game brings no viewer of its own."""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import ipywidgets as W

from throne_lib.games.goofspiel.game import GoofMatch
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.log import AgentInfo, MatchRecorder, logs_dir, match_log
from throne_lib.kit.playtest.observation_board import ObservationBoard
from throne_lib.kit.playtest.page import seat_page
from throne_lib.kit.playtest.store import PlaytestStore
from throne_lib.kit.ui.observation_replay import (
    ObservationLogBrowser,
    ObservationReplay,
    log_path,
)

ENV_LOGS = "GOOFSPIEL_LOGS"  # the folder the page writes and the replay page lists

SEATS = ("甲（你）", "乙（AI）")
CSS = "font-family:'Noto Sans CJK SC','Noto Sans SC',sans-serif"


class GoofApp(W.VBox):
    """One match against the AI; 「新对局」 starts the next seed."""

    def __init__(self, seed: int = 1, cards: int = 8, log_dir: Path | None = None) -> None:
        self.seed, self.cards = seed, cards
        self.log_dir = log_dir
        self.recorder: MatchRecorder | None = None
        self.log_path: Path | None = None
        self.status = W.HTML()
        self.hand = W.HBox(layout=W.Layout(flex_flow="row wrap"))
        self.rounds = W.HTML()
        again = W.Button(description="新对局 new match", layout=W.Layout(width="170px"))
        again.on_click(lambda _b: self.new_match(self.seed + 1))
        self.review = W.Button(description="复盘本局", layout=W.Layout(width="110px"))
        self.review.add_class("goof-review")
        self.review.on_click(lambda _b: self.open_replay())
        self.replay: ObservationReplay | None = None
        self.replay_box = W.VBox()
        buttons = W.HBox([again, self.review])
        super().__init__([self.status, self.hand, self.rounds, buttons, self.replay_box])
        self.new_match(seed)

    def new_match(self, seed: int) -> None:
        self.seed = seed
        if self.recorder is not None:
            self.recorder.close()
        self.recorder, self.log_path = None, None
        self.match = GoofMatch(["player", "player"], seed, {"cards": self.cards})
        self.ai = RandomAgent(seed)
        self.replay, self.replay_box.children = None, ()
        self.show()

    def open_replay(self) -> None:
        """After the end: the kit's replay of this match, from your seat (甲)."""
        if self.match.is_over:
            log = match_log(self.match, self.agents())
            self.replay = ObservationReplay(log, "goofspiel", seat=0)
            self.replay_box.children = [self.replay.widget]

    def agents(self) -> list[AgentInfo]:
        """Who plays, as the log names them: you (甲) and the seeded random agent (乙)."""
        return [AgentInfo("human"), AgentInfo("random", self.seed)]

    def _apply(self, action: Any) -> None:
        if self.log_dir is not None and self.recorder is None:  # logged from its first bid
            self.log_dir.mkdir(parents=True, exist_ok=True)
            self.log_path = log_path(self.log_dir, self.match)
            self.recorder = MatchRecorder(self.match, self.log_path, self.agents())
        if self.recorder is not None:
            self.recorder.apply(action)
        else:
            self.match.apply(action)

    def bid(self, action: Any) -> None:
        self._apply(action)  # a legal action: the buttons are legal_actions()
        if not self.match.is_over and self.match.current_seat == 1:
            self._apply(self.ai.choose(self.match))
        if self.match.is_over and self.recorder is not None:
            self.recorder.close()
        self.show()

    def show(self) -> None:
        obs = self.match.observation(0)
        a, b = obs["scores"]
        if obs["prize"] is None:
            w = self.match.winner
            head = "平局 draw" if w < 0 else f"{SEATS[w]} 获胜 wins"
        else:
            head = f"奖牌 prize <b style='font-size:150%'>{obs['prize']}</b> · 出一张牌暗标"
        left = "、".join(str(p) for p in obs["prizes_left"]) or "无"
        self.status.value = (
            f'<div style="{CSS}"><h3>暗标夺宝 · seed {self.seed}</h3>{head}<br>'
            f"得分 score: {SEATS[0]} {a} · {SEATS[1]} {b} · 剩余奖牌 {left}</div>"
        )
        buttons = []
        for action in self.match.legal_actions() if self.match.current_seat == 0 else []:
            btn = W.Button(description=str(action.card), layout=W.Layout(width="44px"))
            btn.add_class("goof-bid")
            btn.on_click(lambda _b, act=action: self.bid(act))
            buttons.append(btn)
        self.hand.children = buttons
        self.review.layout.display = None if self.match.is_over else "none"
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


def goofspiel_page(
    seed: int = 1, store: PlaytestStore | None = None, query: str | None = None
) -> W.Widget:
    """``notebooks/goofspiel.ipynb``: a playtest seat (the kit's board for any game,
    :class:`~throne_lib.kit.playtest.observation_board.ObservationBoard`) when the page
    was opened from a playtest link, the match against the AI otherwise."""
    return seat_page(
        lambda page: ObservationBoard(page).widget,
        lambda: goofspiel_app(seed),
        store=store,
        query=query,
    )


def goofspiel_app(seed: int = 1, cards: int = 8, log: bool = True) -> GoofApp:
    """The page: its matches logged to ``$GOOFSPIEL_LOGS`` (else ``logs/``) unless ``log``
    is false."""
    return GoofApp(seed, cards, logs_dir(ENV_LOGS) if log else None)


class GoofLogBrowser(ObservationLogBrowser):
    """Pick a 暗标夺宝 log and review it, from a seat's view or all revealed."""

    game = "goofspiel"
    env_logs = ENV_LOGS
