"""One panel for the card tables a play page follows live (kit :class:`TableWatcher`\\ s).

A page follows each of its tables with :meth:`LiveTablesPanel.follow`: a valid new
version is handed to the page (``adopt``) for its next match and announced; a broken one
keeps the last valid table in force and lists its ``FILE:ROW:COLUMN`` problems, for as
long as the file stays broken. 城池战 follows two tables (``cities.csv`` and the 城堡之心
cards), PIN and 城堡之心 one: the panel shows every file's state at once, so fixing one
table never hides another's problems.

>>> import tempfile, shutil, pathlib
>>> from throne_lib.games.castle.live import DEFAULT_PATH, CastleTableWatcher
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = shutil.copy(DEFAULT_PATH, d / "cards-castle.csv")
>>> w = CastleTableWatcher(d / "cards-castle.csv", settle=0)
>>> adopted = []
>>> panel = LiveTablesPanel("新对局")
>>> panel.follow(w, adopted.append)
>>> _ = (d / "cards-castle.csv").write_text("id,name\\n", encoding="utf-8")
>>> w.reload(), "cards-castle.csv:1:" in panel.widget.value, adopted
(True, True, [])
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import ipywidgets as W

from throne_lib.kit.live import TableUpdate, TableWatcher, problems_html

__all__ = ["LiveTablesPanel"]


class LiveTablesPanel:
    """The live-table panel of a play page (``widget``, an HTML line or a red box).

    ``start_label`` names the button that starts a match on the new table; ``running()``
    says whether a match is under way (it keeps the table it started with). A page whose
    running match takes a new table too (the tower's run) says so with ``reload_note``:
    the announcement of a valid reload of the file it is given the name of."""

    def __init__(
        self,
        start_label: str,
        running: Callable[[], bool] = lambda: False,
        reload_note: Callable[[str], str] | None = None,
    ) -> None:
        self.widget = W.HTML()
        self.widget.add_class("table-panel")
        self.start_label = start_label
        self.running = running
        self.reload_note = reload_note
        self._followed: list[TableWatcher] = []
        self._reloaded: dict[str, str] = {}  # file name -> hash of its new table

    def follow(self, watcher: TableWatcher, adopt: Callable[[Any], None]) -> None:
        """Show ``watcher``'s state here and hand ``adopt`` every valid new table."""
        self._followed.append(watcher)

        def on_update(update: TableUpdate) -> None:
            if update.changed and not update.errors:
                adopt(update.db)
                self._reloaded[watcher.path.name] = str(update.db.hash)
            self.render()

        watcher.subscribe(on_update)
        self.render()

    def started(self) -> None:
        """A match started on the tables in force: their reload notes are old news."""
        self._reloaded.clear()
        self.render()

    def render(self) -> None:
        parts = []
        for w in self._followed:
            name = html.escape(w.path.name)
            note = self._reloaded.get(w.path.name)
            if w.errors:
                kept = html.escape(str(w.db.hash)[:8])
                head = f"{name} 有错误，仍使用上一个有效版本（{kept}），当前对局不受影响："
                parts.append(problems_html(head, w.errors))
            elif note is not None and self.reload_note is not None:
                parts.append(
                    f"<div style='color:#1e8449;padding:4px 0'>{name} 已重新载入"
                    f"（{html.escape(note[:8])}）：{html.escape(self.reload_note(w.path.name))}</div>"
                )
            elif note is not None:
                running = "；当前对局继续使用开局时的卡牌表" if self.running() else ""
                parts.append(
                    f"<div style='color:#1e8449;padding:4px 0'>{name} 已重新载入"
                    f"（{html.escape(note[:8])}）："
                    f"点击「{html.escape(self.start_label)}」使用新表{running}。</div>"
                )
        self.widget.value = "".join(parts)
