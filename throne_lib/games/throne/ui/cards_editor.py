"""The card table editor of ``notebooks/cards.ipynb``: an editable grid over ``cards.csv``.

The grid (ipydatagrid, ``editable=True``) shows the rows that pass the race / kind /
search filters; a click selects a card and draws it in the preview like on the
board. Add / duplicate / delete work on the selected row. Save validates the whole
table first (every problem as ``cards.csv:ROW:COLUMN: message`` in the error panel,
nothing written) and then writes the file atomically, re-serializing only the rows
that changed (:class:`~throne_lib.kit.carddiff.Sheet`), so the git diff shows only them.

All the editing logic is in plain methods (:meth:`CardsEditor.set_cell`,
:meth:`~CardsEditor.select`, :meth:`~CardsEditor.add_row`, :meth:`~CardsEditor.save` …)
that the widgets' callbacks call; tests drive them without a browser.
"""

from __future__ import annotations

import html
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ipywidgets as w
import pandas as pd
from ipycanvas import Canvas

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
from throne_lib.kit.carddiff import (
    Sheet,
    SheetEdit,
    SheetRow,
    TableDiff,
    diff_tables,
    read_table_text,
)
from throne_lib.kit.textfile import write_atomic
from throne_lib.kit.ui.canvas import safe_hold

PREVIEW_W, PREVIEW_H = 200, 280
GRID_FONT = "13px 'Noto Sans CJK SC', sans-serif"
NUMBER_COLUMNS = ("cost", "attack", "hp", "move", "range")
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


COLUMN_ZH = {
    "id": "编号",
    "name": "名称",
    "race": "种族",
    "kind": "类型",
    "cost": "费用",
    "attack": "攻击",
    "hp": "生命",
    "move": "移动",
    "range": "射程",
    "keywords": "关键词",
    "effects": "效果",
    "tiers": "兵种",
    "captains": "队长",
    "text": "说明",
}
BAD_CELL = "#f4b6b0"  # a cell named by a problem of the last save
_PROBLEM = re.compile(r"^(?P<file>[^:]*):(?P<row>\d+):(?P<col>[^:]+): (?P<msg>.*)$", re.S)
# The table loader's messages (English, as the CLI and the logs show them) -> Chinese.
_MESSAGES_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern + "$", re.S), zh)
    for pattern, zh in (
        (r"expected a whole number, got (?P<got>.*)", "应为整数，现在是 {got}"),
        (
            r"expected a whole number ≥ (?P<n>\d+), got (?P<got>.*)",
            "应为 ≥ {n} 的整数，现在是 {got}",
        ),
        (
            r"expected a whole number ≤ (?P<n>\d+) \(CardLimits\.\w+\), got (?P<got>.*)",
            "应为 ≤ {n} 的整数，现在是 {got}",
        ),
        (
            r"expected a whole number ≥ 1 for a unit's HP, got an empty cell",
            "单位的生命应为 ≥ 1 的整数，现在是空的",
        ),
        (r"expected the card's name, got an empty cell", "卡名不能为空"),
        (r"expected one of (?P<opts>.*), got (?P<got>.*)", "应为 {opts} 之一，现在是 {got}"),
        (
            r"expected an ASCII id like shield_wall \(a-z, 0-9, _\), got (?P<got>.*)",
            "编号只能用小写字母、数字和 _（如 shield_wall），现在是 {got}",
        ),
        (
            r"a barracks lists its 3 soldier ids \(levels 1, 2, 3\), got (?P<n>\d+)",
            "兵营要列出 3 个兵种（1、2、3 级），现在有 {n} 个",
        ),
        (
            r"only barracks list soldier tiers; this is a (?P<kind>\w+)",
            "只有兵营有兵种；这是{kind}",
        ),
        (
            r"only barracks have a captain pool; this is a (?P<kind>\w+)",
            "只有兵营有队长；这是{kind}",
        ),
        (r"a spell needs a 'play: \.\.\.' clause", "法术需要一条 play: … 效果"),
        (
            r"a general needs a 'skill\(mana=N\): \.\.\.' clause",
            "将领需要一条 skill(mana=N): … 技能",
        ),
        (r"only generals have a skill clause", "只有将领有技能"),
        (
            r"level (?P<n>\d) soldier (?P<got>.*) is not a soldier \(or minion\) id",
            "{n} 级兵种 {got} 不是士兵（或随从）的编号",
        ),
        (r"(?P<got>.*) is not a captain \(or worker\) id", "{got} 不是队长（或工人）的编号"),
    )
)


@dataclass(frozen=True)
class Problem:
    """One problem of the table: where (file row, column name or ``None`` for the whole
    row) and what, in Chinese; ``line`` is the loader's own ``FILE:ROW:COLUMN: message``."""

    line: str
    row: int | None
    column: str | None
    zh: str


def problem_zh(line: str) -> Problem:
    """``"cards.csv:8:attack: expected a whole number, got 'abc'"`` -> row 8, column
    ``attack``, 「第 8 行「攻击」：应为整数，现在是 'abc'」. A message with no Chinese
    version keeps its English text after the Chinese location."""
    m = _PROBLEM.match(line)
    if m is None:
        return Problem(line, None, None, line)
    row, col, msg = int(m["row"]), m["col"], m["msg"]
    column = None if col == "-" else col
    text = msg
    for pattern, zh in _MESSAGES_ZH:
        hit = pattern.match(msg)
        if hit:
            values = {
                k: KIND_ZH.get(v, v) if k == "kind" else v for k, v in hit.groupdict().items()
            }
            text = zh.format(**values)
            break
    where = f"第 {row} 行" + (f"「{COLUMN_ZH.get(col, col)}」" if column else "")
    return Problem(line, row, column, f"{where}：{text}")


def _problem_html(p: Problem) -> str:
    """One problem in the error panel: the Chinese text, then the loader's location."""
    m = _PROBLEM.match(p.line)
    where = f"{m['file']}:{m['row']}:{m['col']}:" if m else ""
    code = f" <code>{html.escape(where)}</code>" if where else ""
    return f"<li>{html.escape(p.zh)}{code}</li>"


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


class CardsEditor(SheetEdit):
    """The editor widget (``.widget``) over the card table at ``path``."""

    def __init__(self, path: str | Path | None = None, watcher: CardTableWatcher | None = None):
        self.watcher = watcher
        self.path = Path(path) if path is not None else watcher.path if watcher else cards_path()
        self.adopt(self.path.read_text(encoding="utf-8"))
        self.selected: SheetRow | None = None
        self.errors: list[str] = []  # problems found by the last Save
        self.problems: list[Problem] = []  # the same, located and in Chinese
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
            default_renderer=TextRenderer(font=GRID_FONT),
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
            ("保存失败：表格有 {n} 个问题，文件未写入（已标红并跳到第一个）", self.errors),
            ("磁盘上的文件有 {n} 个问题，仍使用上一个有效版本", self.disk_errors),
        ):
            if problems:
                items = "".join(_problem_html(problem_zh(p)) for p in problems)
                parts.append(f"<b>{title.format(n=len(problems))}</b><ul>{items}</ul>")
        return f"<div class='throne-errors'>{''.join(parts)}</div>" if parts else ""

    def draw_preview(self) -> None:
        row = self.selected
        with safe_hold():
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
        warnings = [
            f"「{COLUMN_ZH[c]}」{rec.get(c, '')!r} 不是整数，预览按 {getattr(card, c)} 显示"
            for c in NUMBER_COLUMNS
            if rec.get(c, "").strip() and not rec.get(c, "").strip().isdigit()
        ]
        number = self.sheet.rows.index(row) + 2 if row in self.sheet.rows else None
        warnings += [p.zh for p in self.problems if p.row == number and p.row is not None]
        self.details.value = (
            "".join(
                f"<div class='throne-bad' style='font-size:12px;color:#a3261b'>⚠ {html.escape(t)}</div>"
                for t in dict.fromkeys(warnings)
            )
            + f"<div style='font-size:12px;border-left:3px solid {band};padding-left:6px'>"
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
        self.adopt(self.path.read_text(encoding="utf-8"))
        self.selected, self.errors, self.notice = None, [], ""
        self.problems = []
        self._mark_problems()
        self.refresh()

    def save(self) -> bool:
        """Validate, then write atomically; False (nothing written) on problems."""
        text = self.text
        try:
            parse_cards(text, self.path.name, str(self.path))
        except CardTableError as exc:
            self.errors = list(exc.problems)
            self.problems = [problem_zh(p) for p in exc.problems]
            self.notice = ""
            self._mark_problems()
            self.jump_to(self.problems[0])
            self.update_panels()
            return False
        if text != self.path.read_text(encoding="utf-8"):
            write_atomic(self.path, text)
        self.errors, self.problems = [], []
        self._mark_problems()
        self.saved_text = text
        self.notice = "已写入 " + self.path.name
        keep = self.sheet.rows.index(self.selected) if self.selected in self.sheet.rows else None
        self.sheet = Sheet.parse(text)
        self.selected = self.sheet.rows[keep] if keep is not None else None
        if self.watcher is not None:
            self.watcher.saved()  # our save is whole and atomic: apply it at once
        self.refresh()
        return True

    def _mark_problems(self) -> None:
        """Colour the cells the last save's problems name. A cell is found by its row's
        card id (a column the grid's expressions can read), so filtering or sorting the
        grid keeps the mark on its cell."""
        from ipydatagrid import TextRenderer, VegaExpr

        bad: dict[str, list[str]] = {}
        id_col = self.sheet.header.index("id") if "id" in self.sheet.header else None
        for p in self.problems:
            if p.row is None or p.column not in self.sheet.header or id_col is None:
                continue
            if 2 <= p.row < len(self.sheet.rows) + 2:
                bad.setdefault(p.column, []).append(self.sheet.rows[p.row - 2].values[id_col])
        self.grid.renderers = {
            col: TextRenderer(
                font=GRID_FONT,
                background_color=VegaExpr(
                    f"indexof({json.dumps(sorted(set(ids)), ensure_ascii=False)},"
                    f" cell.metadata.data['id']) >= 0 ? '{BAD_CELL}' : 'white'"
                ),
            )
            for col, ids in bad.items()
        }

    def marked_cells(self) -> dict[str, list[str]]:
        """The card ids whose cell is marked, per column (read back from the renderers)."""
        out = {}
        for col, renderer in self.grid.renderers.items():
            m = re.match(r"indexof\((\[.*?\]),", renderer.background_color.value)
            out[col] = json.loads(m.group(1)) if m else []
        return out

    def jump_to(self, problem: Problem) -> None:
        """Show and select the row (and cell) a problem names: filters that hide it are
        cleared, the preview shows it with the problem."""
        if problem.row is None or not 2 <= problem.row < len(self.sheet.rows) + 2:
            return
        row = self.sheet.rows[problem.row - 2]
        if row not in self._view:
            self.race.value = self.kind.value = self.search.value = ""  # each refreshes
        self.selected = row
        at = self._view.index(row)
        if problem.column in self.sheet.header:
            col = self.sheet.header.index(problem.column)
            self.grid.select(at, col, at, col, clear_mode="all")

    def on_table_update(self, update: TableUpdate) -> None:
        """The watcher saw the file change: follow it unless there are unsaved edits."""
        self.disk_errors = list(update.errors)
        if update.changed and update.db.source != self.saved_text:
            if self.dirty:
                self.notice = "磁盘上的文件已被修改；保存将覆盖它，放弃修改将载入它"
            else:
                self.adopt(update.db.source)
                self.selected = None
                self.notice = "已从磁盘重新载入"
                self.refresh()
                return
        self.update_panels()
