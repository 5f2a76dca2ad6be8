"""The PIN play dashboard (``notebooks/pin.ipynb``): start a match against the AI on the
card table in force, follow ``cards-pin.csv`` live, log every match and open it in the
replay viewer after the end. The board itself is :class:`~.widget.PinBoard`.
"""

from __future__ import annotations

import dataclasses
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import ipywidgets as W

from throne_lib.games.pin.live import PinTableWatcher
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.rules import PIN_RULES
from throne_lib.games.pin.ui.replay import PinReplay
from throne_lib.games.pin.ui.widget import PinBoard
from throne_lib.kit.live import problems_html
from throne_lib.kit.log import AgentInfo, MatchRecorder, match_log
from throne_lib.kit.tables import TableError
from throne_lib.kit.ui.live_tables import LiveTablesPanel
from throne_lib.kit.ui.opponents import OpponentPicker


class PinApp:
    """The dashboard: choose 快速对局 (3 rounds) or a full match, then play as 甲.

    With a ``watcher`` (:class:`~throne_lib.games.pin.live.PinTableWatcher`) it follows
    ``cards-pin.csv``: a valid new table (a card designed on the card page) is the one
    the next match uses; a broken one is listed (file, row, column, what was expected)
    while the last valid table stays in force. Without one, each match reads the file;
    a broken table is listed the same way instead of starting nothing in silence."""

    def __init__(
        self, ai_mode: str = "async", watcher: PinTableWatcher | None = None,
        log_dir: str | Path | None = None,
    ) -> None:  # fmt: skip
        self.ai_mode = ai_mode
        self.watcher = watcher
        self.log_dir = Path(log_dir) if log_dir is not None else None
        self.recorder: MatchRecorder | None = None
        self.log_path: Path | None = None
        self.quick = W.Checkbox(value=False, description="快速对局（3轮）")
        self.seed = W.BoundedIntText(value=3, min=0, max=10**6, description="种子")
        self.seed.add_class("pin-seed")
        self.start = W.Button(description="开始对局", button_style="primary")
        self.start.add_class("pin-start")
        self.start.on_click(lambda _b: self.begin())
        self.opponents = OpponentPicker("pin")
        self.tables = LiveTablesPanel("开始对局", running=self._running)
        self.tables.widget.add_class("pin-table-panel")
        self.holder = W.VBox()
        self.board: PinBoard | None = None
        if watcher is not None:
            self.tables.follow(watcher, lambda _db: None)  # begin() reads watcher.db
        self.widget = W.VBox(
            [W.HBox([self.quick, self.seed, self.start]), self.opponents, self.tables.widget,
             self.holder]
        )  # fmt: skip

    def _running(self) -> bool:
        return self.board is not None and not self.board.match.is_over

    def begin(self) -> None:
        """A new match on the table in force (the watcher's, else ``cards-pin.csv`` now)."""
        from throne_lib.kit import registry

        rules = dataclasses.replace(PIN_RULES, round_limit=3) if self.quick.value else PIN_RULES
        options: dict[str, Any] = {"rules": rules}
        if self.watcher is not None:
            options["cards"] = self.watcher.db
        try:
            match = registry.get("pin").new(seed=self.seed.value, **options)
        except TableError as error:  # no watcher: the file as it reads now is broken
            self.tables.widget.value = problems_html(
                "cards-pin.csv 有错误，无法开始对局：", error.problems
            )
            return
        assert isinstance(match, PinMatch)
        tempo = "fast" if self.quick.value else "standard"
        self.tables.started()
        if self.recorder is not None:
            self.recorder.close()
        self.recorder, self.log_path = None, None
        self.board = PinBoard(match, 0, self.ai_mode, tempo, self.opponents)
        self.board.ctrl.on_applied = self._log_action
        review = W.Button(description="复盘", icon="history", layout=W.Layout(width="auto"))
        review.add_class("pin-replay-btn")
        review.on_click(lambda _b: self.open_replay())
        self.board.result_box.buttons.children = (*self.board.result_box.buttons.children, review)
        self.replay: Any = None
        self.holder.children = [self.board]

    def open_replay(self) -> None:
        """After the end: the replay viewer on this match below the board, from 甲's view
        (its 视角 menu offers 乙 and 全部公开)."""
        if self.board is None or not self.board.match.is_over:
            return
        self.replay = PinReplay(match_log(self.board.match), seat=self.board.human)
        self.holder.children = [self.board, self.replay.widget]

    def _log_action(self, events: list[Any]) -> None:
        """With ``log_dir``: the match's log, opened at its first action (a page opened
        and left writes nothing), one flushed line per action; a folder that cannot be
        written leaves the match unrecorded, never stopped."""
        if self.log_dir is None or self.board is None:
            return
        match = self.board.match
        if self.recorder is None:
            stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S-%f")
            path = self.log_dir / f"pin-{stamp}-seed{match.seed}.jsonl"
            agents = [AgentInfo("human", match.seed), AgentInfo(self.opponents.name, 7)]
            try:
                self.log_dir.mkdir(parents=True, exist_ok=True)
                self.recorder = MatchRecorder(match, path, agents)  # writes what was played
            except OSError:
                self.log_dir = None
                return
            self.log_path = path
            return
        self.recorder.record(match.history[-1], events)


def pin_app(
    ai_mode: str = "async",
    watcher: PinTableWatcher | None = None,
    log_dir: str | Path | None = None,
) -> W.VBox:
    """The dashboard widget (``notebooks/pin.ipynb``): :class:`PinApp`."""
    return PinApp(ai_mode, watcher, log_dir).widget
