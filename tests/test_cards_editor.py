"""The card editor (notebooks/cards.ipynb) without a browser: edit, filter, add /
duplicate / delete, validate-then-save atomically with a minimal diff, follow the
file on disk; and the card faces of the gallery (pure drawing operations)."""

from __future__ import annotations

import shutil
from html import unescape
from pathlib import Path

import pytest

from throne_lib.games.throne.cards import DEFAULT_PATH, load_cards, parse_cards
from throne_lib.games.throne.live import CardTableWatcher
from throne_lib.games.throne.ui.cards_editor import CardsEditor, diff_html, diff_view
from throne_lib.games.throne.ui.gallery import (
    CardGallery,
    body_text,
    card_face_ops,
    card_from_record,
    draw_card,
    gallery_ops,
    groups,
    keyword_zh,
    wrap,
)
from throne_lib.kit.carddiff import Sheet, diff_tables
from throne_lib.kit.textfile import write_atomic


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, path)
    return path


def edit_text(text: str, card: str, **values: str) -> str:
    """``text`` with some cells of one card changed."""
    sheet = Sheet.parse(text)
    row = next(r for r in sheet.rows if r.values[0] == card)
    for col, value in values.items():
        row.values[sheet.header.index(col)] = value
    return sheet.text()


def changed_lines(before: str, after: str) -> list[int]:
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    assert len(a) == len(b)
    return [i for i, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]


def test_save_without_changes_leaves_the_file_byte_identical(table: Path) -> None:
    before = table.read_bytes()
    inode = table.stat().st_ino
    ed = CardsEditor(table)
    assert not ed.dirty
    assert ed.save() is True
    assert table.read_bytes() == before
    assert table.stat().st_ino == inode  # not even rewritten


def test_edit_one_cell_and_save_changes_exactly_that_cell(table: Path) -> None:
    before = table.read_text(encoding="utf-8")
    ed = CardsEditor(table)
    ed.search.value = "militia_camp"
    assert len(ed._view) == 1
    ed.set_cell(0, "hp", 12)  # what the grid's cell-changed callback does
    assert ed.dirty and "有未保存的修改" in ed.head.value
    assert "militia_camp" in ed.diff_panel.value and "12" in ed.diff_panel.value
    inode = table.stat().st_ino
    assert ed.save() is True
    after = table.read_text(encoding="utf-8")
    row = load_cards(DEFAULT_PATH)["militia_camp"].row
    assert changed_lines(before, after) == [row - 1]
    (change,) = diff_tables(before, after).changes
    assert change.id == "militia_camp" and [f[0] for f in change.fields] == ["hp"]
    assert table.stat().st_ino != inode  # written by rename (atomic)
    assert not ed.dirty and load_cards(table)["militia_camp"].hp == 12


def test_the_grid_callback_maps_filtered_rows(table: Path) -> None:
    ed = CardsEditor(table)
    ed.race.value, ed.kind.value = "beast", "general"
    assert ed._view and all(r.values[2] == "beast" and r.values[3] == "general" for r in ed._view)
    target = ed._view[1].values[0]
    ed._on_cell_change({"row": 1, "column": "cost", "column_index": 5, "value": "9"})
    ed._on_cell_click({"region": "body", "row": 1, "column": "cost"})
    assert ed.selected is not None and ed.selected.values[0] == target
    assert ed.save()
    assert load_cards(table)[target].cost == 9
    frame = ed.frame()
    assert frame.index.name == "行" and list(frame.columns)[:2] == ["id", "name"]


def test_an_invalid_edit_is_not_saved_and_names_row_and_column(table: Path) -> None:
    before = table.read_bytes()
    ed = CardsEditor(table)
    ed.search.value = "militia_camp"
    ed.set_cell(0, "hp", "lots")
    assert ed.save() is False
    row = load_cards(DEFAULT_PATH)["militia_camp"].row
    assert f"cards.csv:{row}:hp: expected a whole number, got 'lots'" in ed.errors
    assert ed.error_panel.layout.display == ""
    assert f"cards.csv:{row}:hp:" in ed.error_panel.value
    assert table.read_bytes() == before and ed.dirty
    ed.set_cell(0, "hp", "11")  # fixed: the next save applies
    assert ed.save() and ed.errors == [] and ed.error_panel.layout.display == "none"
    assert load_cards(table)["militia_camp"].hp == 11


def test_add_duplicate_delete_rows(table: Path) -> None:
    before = table.read_text(encoding="utf-8")
    ed = CardsEditor(table)
    ed.race.value = "elf"
    ed.select(0)
    first = ed.selected
    assert first is not None
    ed.duplicate_row()
    copy = ed.selected
    assert copy is not None and copy.values[0] == first.values[0] + "_copy1"
    assert ed.sheet.rows.index(copy) == ed.sheet.rows.index(first) + 1
    ed.kind.value = "minion"
    ed.add_row()
    new = ed.selected
    assert new is not None and new.values[:4] == ["new_card_1", "新卡1", "elf", "minion"]
    victim = next(r for r in ed.sheet.rows if r.values[0] == "militia")
    ed.selected = victim
    ed.delete_row()
    assert victim not in ed.sheet.rows and ed.selected is None
    ed.delete_row()  # nothing selected: a notice, no change
    assert "先选中一行" in ed.head.value
    # militia is used by a barracks: the table no longer validates, nothing written
    assert ed.save() is False and any(":tiers:" in e for e in ed.errors)
    ed.revert()
    assert not ed.dirty and ed.text == before
    ed.race.value, ed.kind.value = "elf", ""
    ed.select(0)
    ed.duplicate_row()
    ed.add_row()
    assert ed.save() is True
    db = parse_cards(table.read_text(encoding="utf-8"))
    assert "new_card_1" in db and db["new_card_1"].race == "elf"
    diff = diff_tables(before, table.read_text(encoding="utf-8"))
    assert sorted(c.status for c in diff.changes) == ["added", "added"]


def test_the_editor_follows_the_file_on_disk(table: Path) -> None:
    watcher = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    ed = CardsEditor(watcher=watcher)
    assert ed.path == table
    text = table.read_text(encoding="utf-8")
    # an outside edit, no unsaved edits here: the grid reloads
    write_atomic(table, edit_text(text, "militia_camp", cost="9"))
    watcher.check()
    assert ed.saved_text == watcher.db.source and "已从磁盘重新载入" in ed.head.value
    # a broken outside edit: the error panel shows it, the table in force stays
    write_atomic(table, "id,name\n")
    watcher.check()
    assert ed.disk_errors and "仍使用上一个有效版本" in ed.error_panel.value
    # unsaved edits here and a valid outside edit: keep the edits, say so
    ed.search.value = "militia_camp"
    ed.set_cell(0, "attack", "1")
    write_atomic(table, text)
    watcher.check()
    assert ed.disk_errors == [] and ed.dirty and "磁盘上的文件已被修改" in ed.head.value
    # saving from the editor applies to the watcher at once
    assert ed.save() and watcher.db["militia_camp"].attack == 1


def test_diff_html_and_diff_view(table: Path) -> None:
    text = table.read_text(encoding="utf-8")
    other = table.with_name("new.csv")
    other.write_text(edit_text(text, "militia", hp="37"), encoding="utf-8")
    html = diff_html(diff_tables(text, other.read_text(encoding="utf-8")))
    assert "militia" in html and "1 张修改" in html and "<span class='new'>37</span>" in html
    assert "没有差异" in diff_html(diff_tables(text, text))
    assert "militia" in diff_view(str(table), other).value
    assert "无法比较" in diff_view(str(table.with_name("nope.csv")), other).value


# --- card faces and the gallery --------------------------------------------------------------


class Recorder:
    """A stand-in canvas that records what is drawn."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, tuple[object, ...]]] = []

    def __getattr__(self, name: str) -> object:
        return lambda *args: self.calls.append((name, args))


def texts(ops: list[tuple[object, ...]]) -> list[str]:
    return [str(op[1]) for op in ops if op[0] == "fill_text"]


def test_card_face_shows_name_cost_kind_keywords_and_stats() -> None:
    db = load_cards(DEFAULT_PATH)
    knight = db["knight"]
    shown = texts(card_face_ops(knight, 0, 0, 132, 184))
    assert knight.name in shown and str(knight.cost) in shown
    assert "士兵 · 人族" in shown
    assert str(knight.attack) in shown and str(knight.hp) in shown
    assert any("骑兵" in t for t in shown)
    spell = next(c for c in db.values() if c.kind == "spell")
    spell_text = texts(card_face_ops(spell, 0, 0, 132, 184))
    assert spell.name in spell_text and str(spell.hp) not in spell_text[2:]  # no stats
    # any size works and everything stays inside the box
    for w, h in ((66, 96), (200, 280)):
        ops = card_face_ops(knight, 10, 20, w, h)
        xs = [float(op[2]) for op in ops if op[0] == "fill_text"]  # type: ignore[arg-type]
        ys = [float(op[3]) for op in ops if op[0] == "fill_text"]  # type: ignore[arg-type]
        assert all(10 <= x <= 10 + w for x in xs) and all(20 <= y <= 20 + h for y in ys)


def test_hand_size_face_is_compact_and_does_not_repeat_keywords() -> None:
    db = load_cards(DEFAULT_PATH)
    ballista = db["siege_ballista"]  # keywords 围攻2 射程2, text 射程2；围攻2
    assert body_text(ballista) == "" and body_text(db["holy_light"]) == db["holy_light"].text
    small = texts(card_face_ops(ballista, 0, 0, 66, 96))
    assert small[:3] == ["4", "随从", "破城弩"] and "围攻2 射程2" in small
    assert "射程2；围攻2" not in small and "随从 · 人族" not in small
    long_name = next(c for c in db.values() if len(c.name) == 6)
    assert texts(card_face_ops(long_name, 0, 0, 66, 96))[2:4] == [
        long_name.name[:3],
        long_name.name[3:],
    ]


def test_draw_card_runs_the_ops_on_a_canvas() -> None:
    canvas = Recorder()
    card = load_cards(DEFAULT_PATH)["lionheart"]
    draw_card(canvas, card, 0, 0, 132, 184)
    names = [n for n, _ in canvas.calls]
    assert "fill_rect" in names and "fill_text" in names and "stroke_rect" in names


def test_keywords_wrap_and_lenient_cards() -> None:
    assert keyword_zh("armor", 2) == "护甲2" and keyword_zh("taunt", 1) == "嘲讽"
    lines = wrap("一二三四五六七八九十" * 3, 10, 50, 2)
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert wrap("", 10, 50, 2) == [] and wrap("abc", 10, 50, 0) == []
    card = card_from_record(
        {"id": "x", "name": "", "race": "elf", "kind": "minion", "hp": "lots", "keywords": "taunt("}
    )
    assert card.hp == 0 and card.keywords == () and card.name == "（无名）"


def test_gallery_groups_by_race_and_kind() -> None:
    db = load_cards(DEFAULT_PATH)
    gs = groups(db)
    assert sum(len(cards) for _, _, cards in gs) == len(db)
    assert all(c.race == r and c.kind == k for r, k, cards in gs for c in cards)
    ops, height = gallery_ops(db, 1000, race="human")
    assert "人族 · 将领（" in " ".join(texts(ops)) and height > 184
    assert all(db[c].name in texts(ops) for c in db if db[c].race == "human")
    gallery = CardGallery(db, race="elf")
    assert "张卡" in gallery.count.value
    gallery.kind.value = "general"
    assert f"{len(db.of('general', 'elf'))} 张卡" in gallery.count.value


def test_preview_details_name_the_tiers(table: Path) -> None:
    ed = CardsEditor(table)
    ed.search.value = "militia_camp"
    ed.select(0)
    assert "民兵" in ed.details.value and "militia spearman" not in ed.details.value


def test_a_bad_cell_is_marked_named_in_chinese_and_jumped_to(table: Path) -> None:
    """Issue 17 item 10: attack = "abc" is refused; the cell is marked in the grid, the
    panel says so in Chinese with the loader's location, the grid jumps to the cell (also
    from a filter that hides it), and the preview does not quietly show attack 0."""
    ed = CardsEditor(table)
    row = load_cards(DEFAULT_PATH)["militia"].row
    ed.search.value = "militia"
    ed.set_cell(ed.frame().index.get_loc(row), "attack", "abc")
    assert "「攻击」'abc' 不是整数，预览按 0 显示" in unescape(ed.details.value)  # before saving
    ed.search.value = "knight"  # the bad row is filtered out when the save fails
    assert ed.save() is False
    assert [p.zh for p in ed.problems] == [f"第 {row} 行「攻击」：应为整数，现在是 'abc'"]
    assert ed.errors == [f"cards.csv:{row}:attack: expected a whole number, got 'abc'"]
    assert f"第 {row} 行「攻击」：应为整数，现在是 'abc'" in unescape(ed.error_panel.value)
    assert f"<code>cards.csv:{row}:attack:</code>" in ed.error_panel.value
    assert ed.marked_cells() == {"attack": ["militia"]}
    assert ed.search.value == "" and ed.selected is ed.sheet.rows[row - 2]  # jumped
    at, col = ed._view.index(ed.selected), ed.sheet.header.index("attack")
    assert ed.grid.selections == [{"r1": at, "c1": col, "r2": at, "c2": col}]
    assert "应为整数，现在是 'abc'" in unescape(ed.details.value)
    ed.set_cell(at, "attack", "1")
    assert ed.save() and ed.problems == [] and ed.marked_cells() == {}


def test_problem_messages_in_chinese() -> None:
    from throne_lib.games.throne.ui.cards_editor import problem_zh

    p = problem_zh("cards.csv:9:race: expected one of human, goblin, got 'orc'")
    assert (p.row, p.column, p.zh) == (
        9,
        "race",
        "第 9 行「种族」：应为 human, goblin 之一，现在是 'orc'",
    )
    p = problem_zh("cards.csv:4:tiers: only barracks list soldier tiers; this is a spell")
    assert p.zh == "第 4 行「兵种」：只有兵营有兵种；这是法术"
    p = problem_zh("cards.csv:3:-: a row of 5 cells, expected 14")  # no Chinese version yet
    assert (p.row, p.column, p.zh) == (3, None, "第 3 行：a row of 5 cells, expected 14")
