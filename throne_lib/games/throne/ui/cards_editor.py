"""The card table editor of ``notebooks/cards.ipynb``: an editable grid over ``cards.csv``.

The grid (ipydatagrid, ``editable=True``) shows the rows that pass the race / kind /
search filters; a click selects a card and draws it in the preview like on the
board. Add / duplicate / delete work on the selected row. Save validates the whole
table first (every problem as ``cards.csv:ROW:COLUMN: message`` in the error panel,
nothing written) and then writes the file atomically, re-serializing only the rows
that changed (:class:`~throne_lib.carddiff.Sheet`), so the git diff shows only them.

All the editing logic is in plain methods (:meth:`CardsEditor.set_cell`,
:meth:`~CardsEditor.select`, :meth:`~CardsEditor.add_row`, :meth:`~CardsEditor.save` …)
that the widgets' callbacks call; tests drive them without a browser.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Any

import ipywidgets as w
import pandas as pd
from ipycanvas import Canvas, hold_canvas

from throne_lib.carddiff import (
    Sheet,
    SheetRow,
    TableDiff,
    diff_tables,
    read_table_text,
    write_atomic,
)
from throne_lib.games.throne.cards import (
    KIND_ZH,
    KINDS,
    RACE_ZH,
    RACES,
    CardTableError,
    parse_cards,
)
from throne_lib.games.throne.live import CardTableWatcher, TableUpdate, cards_path
from throne_lib.games.throne.ui.gallery import RACE_COLOURS, card_from_record, draw_card

PREVIEW_W, PREVIEW_H = 200, 280
GRID_HEADER_H, GRID_ROW_H, GRID_MAX_H = 20, 26, 480
COLUMN_WIDTHS = {
    "行": 44,
    "id": 130,
    "name": 96,
    "race": 70,
    "kind": 76,
    "cost": 58,
    "attack": 66,
    "hp": 50,
    "move": 62,
    "range": 66,
    "keywords": 130,
    "effects": 240,
    "tiers": 210,
    "captains": 230,
    "text": 200,
}
STYLE = """<style>
.throne-editor .throne-errors {background:#fdecea;border:1px solid #e0a19b;border-radius:6px;
  padding:8px 12px;color:#7a1f17;max-height:180px;overflow:auto}
.throne-editor .throne-errors code {color:#7a1f17;background:none;font-size:12px}
.throne-editor .throne-errors ul {margin:4px 0 0 0;padding-left:18px}
.throne-editor {gap:8px} .throne-editor .throne-tools {gap:6px}
.throne-editor .throne-head {font-size:13px;color:#444}
.throne-editor .throne-head b {font-size:18px;color:#1b1b1b;margin-right:10px}
.throne-diff table {border-collapse:collapse;font-size:13px}
.throne-diff td, .throne-diff th {border-bottom:1px solid #e4e4e4;padding:3px 10px;text-align:left;
  vertical-align:top}
.throne-diff .old {color:#a33;text-decoration:line-through} .throne-diff .new {color:#176c2e}
</style>"""


def diff_html(diff: TableDiff, title: str = "") -> str:
    """A diff of two tables as an HTML table (card, field, old → new)."""
    head = f"<b>{html.escape(title)}</b> " if title else ""
    if diff.empty:
        return f"<div class='throne-diff'>{head}<span style='color:#666'>没有差异</span></div>"
    rows = []
    for status, label in (("added", "新增"), ("removed", "删除")):
        cards = diff.of(status)
        if cards:
            names = "、".join(
                f"{html.escape(c.name)}（<code>{html.escape(c.id)}</code>）" for c in cards
            )
            rows.append(
                f"<tr><td><b>{label} {len(cards)} 张</b></td><td></td><td>{names}</td></tr>"
            )
    for c in diff.of("changed"):
        card = f"<code>{html.escape(c.id)}</code> {html.escape(c.name)}"
        for col, old, new in c.fields:
            rows.append(
                f"<tr><td>{card}</td><td>{html.escape(col)}</td><td><span class='old'>"
                f"{html.escape(old) or '∅'}</span> → <span class='new'>"
                f"{html.escape(new) or '∅'}</span></td></tr>"
            )
            card = ""
    summary = (
        f"{len(diff.of('changed'))} 张修改，{len(diff.of('added'))} 张新增，"
        f"{len(diff.of('removed'))} 张删除"
    )
    moved = f"<div>调整了顺序：{html.escape(' '.join(diff.moved))}</div>" if diff.moved else ""
    return (
        f"<div class='throne-diff'>{head}<span style='color:#555'>{summary}</span>"
        "<div style='max-height:420px;overflow:auto'>"
        f"<table><tr><th>卡牌</th><th>字段</th><th>旧 → 新</th></tr>{''.join(rows)}</table></div>"
        f"{moved}</div>"
    )


def diff_view(old: str, new: str | Path) -> Any:
    """An HTML widget with the diff of two tables (files or ``REV:PATH`` from git)."""
    try:
        diff = diff_tables(read_table_text(str(old)), read_table_text(str(new)))
        body = diff_html(diff, f"{old} → {Path(new).name}")
    except (OSError, UnicodeDecodeError) as exc:
        body = f"<span style='color:#a33'>无法比较：{html.escape(str(exc))}</span>"
    return w.HTML(STYLE + body)


class CardsEditor:
    """The editor widget (``.widget``) over the card table at ``path``."""

    def __init__(self, path: str | Path | None = None, watcher: CardTableWatcher | None = None):
        self.watcher = watcher
        self.path = Path(path) if path is not None else watcher.path if watcher else cards_path()
        self.saved_text = self.path.read_text(encoding="utf-8")
        self.sheet = Sheet.parse(self.saved_text)
        self.selected: SheetRow | None = None
        self.errors: list[str] = []  # problems found by the last Save
        self.disk_errors: list[str] = []  # problems of the file on disk (from the watcher)
        self.notice = ""
        self._view: list[SheetRow] = []
        self._build()
        self.selected = self.sheet.rows[0] if self.sheet.rows else None
        if watcher is not None:
            self.disk_errors = list(watcher.errors)
            watcher.subscribe(self.on_table_update)
        self.refresh()

    # --- widgets ---------------------------------------------------------------------------

    def _build(self) -> None:
        from ipydatagrid import DataGrid, TextRenderer

        any_ = [("全部", "")]
        dd = {"layout": w.Layout(width="170px"), "style": {"description_width": "36px"}}
        self.race = w.Dropdown(
            options=any_ + [(RACE_ZH[r], r) for r in RACES], description="种族", **dd
        )
        self.kind = w.Dropdown(
            options=any_ + [(KIND_ZH[k], k) for k in KINDS], description="类型", **dd
        )
        self.search = w.Text(placeholder="搜索 id / 名称", layout=w.Layout(width="170px"))
        for widget in (self.race, self.kind, self.search):
            widget.observe(lambda _: self.refresh(), "value")

        def button(text: str, icon: str, style: str, tip: str, action: Any) -> w.Button:
            b = w.Button(description=text, icon=icon, button_style=style, tooltip=tip)
            b.layout = w.Layout(width="auto")
            b.on_click(lambda _: action())
            return b

        self.b_add = button("新增", "plus", "", "在选中行后新增一张卡", self.add_row)
        self.b_dup = button("复制", "copy", "", "复制选中的卡", self.duplicate_row)
        self.b_del = button("删除", "trash", "danger", "删除选中的卡", self.delete_row)
        self.b_revert = button("放弃修改", "undo", "", "重新读取磁盘上的文件", self.revert)
        self.b_save = button("保存", "save", "primary", "校验并写入 cards.csv", self.save)
        self.b_save.add_class("throne-save")
        self.head = w.HTML()
        self.error_panel = w.HTML(layout=w.Layout(display="none"))
        self.error_panel.add_class("throne-error-panel")
        self.grid = DataGrid(
            pd.DataFrame({c: [] for c in self.sheet.header}),
            editable=True,
            selection_mode="cell",
            base_row_size=GRID_ROW_H,
            base_column_header_size=GRID_HEADER_H,
            base_column_size=80,
            header_visibility="all",
            column_widths=COLUMN_WIDTHS,
            default_renderer=TextRenderer(font="13px 'Noto Sans CJK SC', sans-serif"),
            layout=w.Layout(height=f"{GRID_MAX_H}px", flex="1 1 auto", width="auto"),
        )
        self.grid.on_cell_change(self._on_cell_change)
        self.grid.on_cell_click(self._on_cell_click)
        self.canvas = Canvas(width=PREVIEW_W, height=PREVIEW_H)
        self.canvas.layout = w.Layout(width=f"{PREVIEW_W}px", height=f"{PREVIEW_H}px")
        # a canvas keeps no picture: draw again whenever a browser connects (Voilà)
        self.canvas.on_client_ready(self.draw_preview)
        self.details = w.HTML(layout=w.Layout(width=f"{PREVIEW_W}px"))
        preview = w.VBox(
            [w.HTML("<b>预览</b>"), self.canvas, self.details],
            layout=w.Layout(width=f"{PREVIEW_W + 16}px", padding="0 0 0 12px"),
        )
        self.diff_panel = w.HTML()
        tools = w.HBox(
            [self.race, self.kind, self.search, self.b_add, self.b_dup, self.b_del]
            + [w.HTML(layout=w.Layout(flex="1 1 auto")), self.b_revert, self.b_save],
            layout=w.Layout(align_items="center", flex_flow="row wrap"),
        )
        tools.add_class("throne-tools")
        self.widget = w.VBox(
            [
                w.HTML(STYLE),
                self.head,
                tools,
                self.error_panel,
                w.HBox([self.grid, preview], layout=w.Layout(align_items="flex-start")),
                self.diff_panel,
            ],
        )
        self.widget.add_class("throne-editor")

    # --- state -----------------------------------------------------------------------------

    @property
    def text(self) -> str:
        """The table as it would be saved now."""
        return self.sheet.text()

    @property
    def dirty(self) -> bool:
        return self.text != self.saved_text

    def view_rows(self) -> list[SheetRow]:
        """The rows that pass the filters, in table order."""
        col = {c: i for i, c in enumerate(self.sheet.header)}
        race, kind = self.race.value, self.kind.value
        needle = self.search.value.strip().lower()

        def ok(row: SheetRow) -> bool:
            v = row.values
            if race and "race" in col and v[col["race"]].strip() != race:
                return False
            if kind and "kind" in col and v[col["kind"]].strip() != kind:
                return False
            if needle:
                hay = " ".join(v[col[c]] for c in ("id", "name") if c in col).lower()
                return needle in hay
            return True

        return [r for r in self.sheet.rows if ok(r)]

    def frame(self) -> pd.DataFrame:
        """The grid's data: the filtered rows, indexed by their row in the file."""
        self._view = self.view_rows()
        number = {id(r): i + 2 for i, r in enumerate(self.sheet.rows)}
        index = pd.Index([number[id(r)] for r in self._view], name="行")
        return pd.DataFrame(
            [r.values for r in self._view], columns=self.sheet.header, index=index, dtype=object
        )

    def refresh(self) -> None:
        """Rebuild the grid from the sheet and update every panel."""
        self.grid.data = self.frame()
        rows_h = GRID_HEADER_H + GRID_ROW_H * len(self._view) + 20  # + the scroll bar
        self.grid.layout.height = f"{min(GRID_MAX_H, max(120, rows_h))}px"
        if self.selected is not None and self.selected not in self.sheet.rows:
            self.selected = None
        self.update_panels()

    def update_panels(self) -> None:
        n = len(self.sheet.rows)
        state = (
            "<span style='color:#b35c00'>● 有未保存的修改</span>"
            if self.dirty
            else "<span style='color:#2e7d32'>● 已保存</span>"
        )
        notice = f" · <span style='color:#b35c00'>{html.escape(self.notice)}</span>"
        self.head.value = (
            f"<div class='throne-head'><b>卡牌表</b><code>{html.escape(str(self.path))}</code>"
            f" · {n} 张卡 · 显示 {len(self._view)} 张 · {state}{notice if self.notice else ''}"
            "</div>"
        )
        self.error_panel.value = self._errors_html()
        self.error_panel.layout.display = "" if (self.errors or self.disk_errors) else "none"
        diff = diff_tables(self.saved_text, self.sheet)
        self.diff_panel.value = STYLE + diff_html(diff, "未保存的修改：")
        self.draw_preview()

    def _errors_html(self) -> str:
        parts = []
        for title, problems in (
            ("保存失败：表格有 {n} 个问题，文件未写入", self.errors),
            ("磁盘上的文件有 {n} 个问题，仍使用上一个有效版本", self.disk_errors),
        ):
            if problems:
                items = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in problems)
                parts.append(f"<b>{title.format(n=len(problems))}</b><ul>{items}</ul>")
        return f"<div class='throne-errors'>{''.join(parts)}</div>" if parts else ""

    def draw_preview(self) -> None:
        row = self.selected
        with hold_canvas():
            self.canvas.clear()
            if row is None:
                self.canvas.fill_style = "#f4f4f4"
                self.canvas.fill_rect(0, 0, PREVIEW_W, PREVIEW_H)
                self.canvas.fill_style = "#888888"
                self.canvas.font = "14px 'Noto Sans CJK SC', sans-serif"
                self.canvas.text_align = "center"
                self.canvas.fill_text("点击表格中的一行", PREVIEW_W / 2, PREVIEW_H / 2)
                self.details.value = ""
                return
            rec = dict(zip(self.sheet.header, row.values, strict=False))
            card = card_from_record(rec)
            draw_card(self.canvas, card, 0, 0, PREVIEW_W, PREVIEW_H)
        band = RACE_COLOURS.get(card.race, ("#888", ""))[0]
        extra = [
            ("id", rec.get("id", "")),
            ("移动/射程", f"{rec.get('move', '') or '-'} / {rec.get('range', '') or '-'}"),
            ("关键词", rec.get("keywords", "")),
            ("效果", rec.get("effects", "")),
            ("兵种", self._names(rec.get("tiers", ""))),
            ("队长", self._names(rec.get("captains", ""))),
        ]
        self.details.value = (
            f"<div style='font-size:12px;border-left:3px solid {band};padding-left:6px'>"
            + "".join(
                f"<div><span style='color:#777'>{k}</span> {html.escape(v)}</div>"
                for k, v in extra
                if v
            )
            + "</div>"
        )

    def _names(self, ids: str) -> str:
        """``"militia spearman"`` -> ``"民兵 长枪兵"`` (ids not in the table stay as they are)."""
        header = self.sheet.header
        if "id" not in header or "name" not in header:
            return ids
        i, n = header.index("id"), header.index("name")
        names = {r.values[i].strip(): r.values[n].strip() for r in self.sheet.rows}
        return " ".join(names.get(x, x) for x in ids.split())

    # --- editing ---------------------------------------------------------------------------

    def set_cell(self, view_row: int, column: str, value: object) -> None:
        """Change one cell of the ``view_row``-th shown row."""
        row = self._view[view_row]
        row.values[self.sheet.header.index(column)] = "" if value is None else str(value)
        self.selected = row
        self.errors = []
        self.update_panels()

    def select(self, view_row: int | None) -> None:
        self.selected = None if view_row is None else self._view[view_row]
        self.draw_preview()

    def _on_cell_change(self, cell: dict[str, Any]) -> None:
        self.set_cell(int(cell["row"]), str(cell["column"]), cell["value"])

    def _on_cell_click(self, cell: dict[str, Any]) -> None:
        # primary_key_row: the row in the data, also when the grid's own sort is on
        row = cell.get("primary_key_row")
        row = cell.get("row") if row is None else row
        if cell.get("region") == "body" and row is not None:
            self.select(int(row))

    def _insert(self, row: SheetRow) -> None:
        rows = self.sheet.rows
        at = rows.index(self.selected) + 1 if self.selected in rows else len(rows)
        rows.insert(at, row)
        self.selected = row
        self.refresh()

    def _unique(self, col: str, base: str, sep: str) -> str:
        i = self.sheet.header.index(col)
        taken = {r.values[i] for r in self.sheet.rows}
        n = 1
        while f"{base}{sep}{n}" in taken:
            n += 1
        return f"{base}{sep}{n}"

    def add_row(self) -> None:
        """A new minion (of the filtered race / kind) after the selected row."""
        rec = {
            "id": self._unique("id", "new_card", "_"),
            "name": self._unique("name", "新卡", ""),
            "race": self.race.value or "neutral",
            "kind": self.kind.value or "minion",
            "cost": "1",
            "attack": "1",
            "hp": "1",
        }
        self._insert(self.sheet.new_row([rec.get(c, "") for c in self.sheet.header]))

    def duplicate_row(self) -> None:
        if self.selected is None:
            self.notice = "先选中一行"
            self.update_panels()
            return
        rec = dict(zip(self.sheet.header, self.selected.values, strict=False))
        rec["id"] = self._unique("id", rec.get("id", "card"), "_copy")
        rec["name"] = self._unique("name", rec.get("name", "卡") + "副本", "")
        self._insert(self.sheet.new_row([rec.get(c, "") for c in self.sheet.header]))

    def delete_row(self) -> None:
        if self.selected is None or self.selected not in self.sheet.rows:
            self.notice = "先选中一行"
            self.update_panels()
            return
        self.sheet.rows.remove(self.selected)
        self.selected = None
        self.refresh()

    def revert(self) -> None:
        """Drop unsaved edits: read the file again."""
        self.saved_text = self.path.read_text(encoding="utf-8")
        self.sheet = Sheet.parse(self.saved_text)
        self.selected, self.errors, self.notice = None, [], ""
        self.refresh()

    def save(self) -> bool:
        """Validate, then write atomically; False (nothing written) on problems."""
        text = self.text
        try:
            parse_cards(text, self.path.name, str(self.path))
        except CardTableError as exc:
            self.errors = list(exc.problems)
            self.notice = ""
            self.update_panels()
            return False
        if text != self.path.read_text(encoding="utf-8"):
            write_atomic(self.path, text)
        self.errors = []
        self.saved_text = text
        self.notice = "已写入 " + self.path.name
        keep = self.sheet.rows.index(self.selected) if self.selected in self.sheet.rows else None
        self.sheet = Sheet.parse(text)
        self.selected = self.sheet.rows[keep] if keep is not None else None
        if self.watcher is not None:
            self.watcher.saved()  # our save is whole and atomic: apply it at once
        self.refresh()
        return True

    def on_table_update(self, update: TableUpdate) -> None:
        """The watcher saw the file change: follow it unless there are unsaved edits."""
        self.disk_errors = list(update.errors)
        if update.changed and update.db.source != self.saved_text:
            if self.dirty:
                self.notice = "磁盘上的文件已被修改；保存将覆盖它，放弃修改将载入它"
            else:
                self.saved_text = update.db.source
                self.sheet = Sheet.parse(self.saved_text)
                self.selected = None
                self.notice = "已从磁盘重新载入"
                self.refresh()
                return
        self.update_panels()
