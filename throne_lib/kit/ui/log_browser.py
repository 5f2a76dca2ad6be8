"""The replay pages' log browser, for any game: pick a match log and review it.

A game's replay page subclasses :class:`LogBrowser` with its ``game`` (the logs it lists:
``kit.log.log_files(folder, game)``), its logs folder's environment variable and
:meth:`LogBrowser.make_replay` (its replay viewer), and, to show something on an empty
folder, :meth:`LogBrowser.demo_log`. The browser brings the rest, the same on every page:

- a picker over the game's logs (newest first) plus any ``extra`` file, a path box for a
  log elsewhere, and 打开 (disabled, 载入中…, while a log is read and checked);
- a log that cannot be opened (a broken line, a hash that does not match, another game's
  log) shows its ``FILE:LINE`` error and keeps the replay on the page, never a traceback;
- the same log opened again (it grew: a match still being played) keeps its step, and a
  click on the old view while the new one loads moves the new one
  (:meth:`~throne_lib.kit.ui.stepper.Stepper.hand_over`);
- an empty folder says how to make a log, or shows the game's demo match.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar, Protocol

import ipywidgets as W

from throne_lib.kit import registry
from throne_lib.kit.log import LogError, LogFile, log_files, logs_dir
from throne_lib.kit.ui.stepper import Stepper

__all__ = ["LogBrowser", "ReplayView"]


class ReplayView(Protocol):
    """What the browser needs of a game's replay viewer."""

    @property
    def widget(self) -> W.Widget: ...

    @property
    def controls(self) -> Stepper: ...


class LogBrowser(W.VBox):
    """Pick a log of :attr:`game` from a folder and review it."""

    game: ClassVar[str] = ""
    env_logs: ClassVar[str] = ""  # the variable naming the logs folder (kit.log.logs_dir)

    def make_replay(self, log: LogFile | str) -> ReplayView:
        """The game's replay viewer of ``log`` (raises :class:`LogError` on a bad log)."""
        raise NotImplementedError

    def demo_log(self, folder: Path) -> Path | LogFile | None:
        """A match to show when ``folder`` holds no log of the game (``demo=True``): a file
        written there, or a log kept in memory when the folder cannot be written."""
        return None

    def __init__(
        self, folder: Path | None = None, extra: Sequence[Path] = (), demo: bool = False
    ) -> None:
        folder = folder if folder is not None else logs_dir(self.env_logs)
        self.folder = folder
        files = [*log_files(folder, self.game), *extra]
        made = self.demo_log(folder) if not files and demo else None
        if isinstance(made, Path):
            files = [made]
        self.picker = W.Dropdown(
            options=[(p.name, str(p)) for p in files], description="对局记录",
            layout=W.Layout(width="520px"),
        )  # fmt: skip
        self.path_box = W.Text(placeholder="或输入记录文件路径", layout=W.Layout(width="360px"))
        self.open_button = W.Button(description="打开", button_style="primary")
        self.open_button.on_click(
            lambda _: self.open_log(self.path_box.value.strip() or str(self.picker.value))
        )
        self.open_button.add_class("replay-open")
        self.error = W.HTML()
        self.error.add_class("replay-error")
        self.holder = W.VBox()
        self.replay: ReplayView | None = None
        self._path = ""
        super().__init__(
            [W.HBox([self.picker, self.path_box, self.open_button]), self.error, self.holder]
        )
        if files:
            self.open_log(str(files[0]))
        elif isinstance(made, LogFile):
            self.replay = self.make_replay(made)
            self.holder.children = [self.replay.widget]
        else:
            self.error.value = self.empty_message()

    @property
    def widget(self) -> W.VBox:
        """The page's widget (the browser itself)."""
        return self

    def empty_message(self) -> str:
        """What an empty folder shows: how to make a log of the game."""
        g = self.game
        return (
            f"<i>{html.escape(str(self.folder))} 里还没有「{registry.get(g).title}」的对局记录："
            f"先在对战页打一局，或运行 <code>throne play --game {g} --log logs/{g}.jsonl</code>。</i>"
        )

    def open_log(self, path: str) -> None:
        """Open a log; a bad one shows its error and keeps the view. The same log opened
        again keeps its step, and clicks on the old view while it loads move the new one."""
        old, old_path = self.replay, self._path
        self.open_button.disabled, self.open_button.description = True, "载入中…"
        try:
            replay = self.make_replay(path)
        except LogError as exc:
            self.error.value = (
                f"<div style='color:#b03a2e'><b>无法打开对局记录</b>：{html.escape(str(exc))}</div>"
            )
            return
        finally:
            self.open_button.disabled, self.open_button.description = False, "打开"
        self.error.value = ""
        if old is not None and old_path == path:
            replay.controls.go(old.controls.value)
            old.controls.hand_over(replay.controls)
        self.replay, self._path = replay, path
        self.holder.children = [replay.widget]
