"""The PIN card designer: an editable grid over ``cards-pin.csv`` and a gallery.

Reuses the kit's table machinery (:class:`~throne_lib.kit.carddiff.Sheet` keeps untouched
rows byte-identical, :func:`~throne_lib.kit.carddiff.write_atomic` never leaves half a
file). Save validates the whole table with :func:`parse_pin_cards` first: every problem
is listed as ``cards-pin.csv:ROW:COLUMN: message`` and nothing is written. The editing
logic is in plain methods the widgets call, so tests drive it without a browser.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import ipywidgets as W
import pandas as pd

from throne_lib.games.pin.cards import PinCardDB, parse_pin_cards
from throne_lib.games.pin.live import pin_cards_path
from throne_lib.kit.carddiff import SheetEdit, diff_tables
from throne_lib.kit.tables import TableError as CardTableError
from throne_lib.kit.textfile import write_atomic


class PinCardDesigner(SheetEdit, W.VBox):
    def __init__(self, path: str | Path | None = None) -> None:
        # the table the play page follows too: $PIN_CARDS, else cards-pin.csv
        self.path = Path(path) if path is not None else pin_cards_path()
        self.adopt(self.path.read_text(encoding="utf-8"))
        self.errors: list[str] = []
        self.notice = ""
        self.selected = 0
        self.db: PinCardDB | None = parse_pin_cards(self.saved_text, self.path.name)
        from ipydatagrid import DataGrid

        self.grid = DataGrid(
            self._frame(), editable=True, base_column_size=90, layout=W.Layout(height="360px")
        )
        self.grid.on_cell_change(self._on_cell_change)
        self.save_btn = W.Button(description="保存", button_style="primary")
        self.save_btn.on_click(lambda _: self.save())
        self.copy_btn = W.Button(description="复制选中行为新卡")
        self.copy_btn.on_click(lambda _: self.duplicate(self.selected))
        self.row_pick = W.BoundedIntText(value=2, min=2, max=10_000, description="行号")
        self.row_pick.observe(lambda ch: setattr(self, "selected", int(ch["new"]) - 2), "value")
        self.panel = W.HTML()
        self.gallery = W.HTML()
        super().__init__(
            [
                W.HBox([self.save_btn, self.row_pick, self.copy_btn]),
                self.grid,
                self.panel,
                self.gallery,
            ]
        )
        self.refresh()

    # --- editing -------------------------------------------------------------------
    def set_cell(self, row: int, column: str, value: object) -> None:
        """Change one cell (``row`` 0-based over the data rows)."""
        self.sheet.rows[row].values[self.sheet.header.index(column)] = (
            "" if value is None else str(value)
        )
        self.notice = ""
        self.refresh_panels()

    def duplicate(self, row: int) -> None:
        """A new row copied from ``row`` with a fresh id and name, ready to edit."""
        values = list(self.sheet.rows[row].values)
        ids = {r.values[0] for r in self.sheet.rows}
        names = {r.values[1] for r in self.sheet.rows}
        n = 2
        while f"{values[0]}_{n}" in ids or f"{values[1]}{n}" in names:
            n += 1
        values[0], values[1] = f"{values[0]}_{n}", f"{values[1]}{n}"
        self.sheet.rows.insert(row + 1, self.sheet.new_row(values))
        self.refresh()

    def save(self) -> bool:
        """Validate, then write atomically; False (nothing written) on problems."""
        text = self.text
        try:
            self.db = parse_pin_cards(text, self.path.name, str(self.path))
        except CardTableError as exc:
            self.errors = list(exc.problems)
            self.refresh_panels()
            return False
        changes = diff_tables(self.saved_text, text)
        write_atomic(self.path, text)
        self.adopt(text)
        self.errors = []
        self.notice = f"已写入 {self.path.name}：{changes.summary()}"
        self.refresh()
        return True

    def _on_cell_change(self, cell: dict[str, Any]) -> None:
        self.set_cell(int(cell["row"]), str(cell["column"]), cell["value"])

    # --- views ---------------------------------------------------------------------
    def _frame(self) -> pd.DataFrame:
        return pd.DataFrame([r.values for r in self.sheet.rows], columns=self.sheet.header)

    def refresh(self) -> None:
        self.grid.data = self._frame()
        self.refresh_panels()

    def refresh_panels(self) -> None:
        lines = "".join(f"<li><code>{html.escape(e)}</code></li>" for e in self.errors)
        state = "有未保存的修改" if self.dirty else "已保存"
        self.panel.value = (
            f"<div class='pin-designer-status'>{html.escape(self.notice or state)}</div>"
            + (f"<ul class='pin-designer-errors'>{lines}</ul>" if lines else "")
        )
        self.gallery.value = gallery_html(self.db) if self.db is not None else ""


def gallery_html(db: PinCardDB) -> str:
    """Every card as a small face: name, nation, kind, numbers and its Chinese text."""
    faces = []
    for cid, c in db.items():
        stats = ""
        if c.kind == "单位":
            stats = (
                f"{'/'.join(c.types)} {c.size} · 费{c.cost} 行{c.action_cost} · {c.attack}/{c.hp}"
            )
        elif c.kind != "总部":
            stats = f"费{c.cost}"
        faces.append(
            "<div class='pin-face' style='display:inline-block;width:190px;vertical-align:top;"
            "border:1px solid #ccc;border-radius:6px;margin:4px;padding:6px;font-size:12px'>"
            f"<b>{html.escape(c.name)}</b> <i>{html.escape(c.rarity or c.kind)}</i><br>"
            f"{html.escape(c.nation)} · {html.escape(c.kind)}<br>{html.escape(stats)}<br>"
            f"<span>{html.escape(db.text(cid))}</span></div>"
        )
    return "<div class='pin-gallery'>" + "".join(faces) + "</div>"
