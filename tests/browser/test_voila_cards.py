"""The card table editor, served by Voilà, in a real browser: edit one cell of the grid,
save, and the file on disk changes in exactly that cell (and nowhere else); then an
outside edit (broken, then fixed) shows in the error panel and clears by itself: the
watcher's task runs on the Voilà kernel's event loop."""

from __future__ import annotations

import csv
import io
import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from page_checks import ERROR_OUTPUT as ERROR_OUTPUTS
from playwright.sync_api import Page, expect

from throne_lib.games.throne.cards import DEFAULT_PATH
from throne_lib.games.throne.ui.cards_editor import COLUMN_WIDTHS, GRID_HEADER_H, GRID_ROW_H
from throne_lib.kit.textfile import write_atomic

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 90_000  # the first request starts a kernel and runs every cell
SAVE_TIMEOUT_S = 30.0  # an upper bound to wait for the file, not a timed assertion


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of cards.csv for the notebook to edit (via $THRONE_CARDS)."""
    path = tmp_path_factory.mktemp("cards") / "cards.csv"
    shutil.copy(DEFAULT_PATH, path)
    return path


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_edit_one_cell_and_save(
    voila_url: Callable[[str], str],
    page: Page,
    artifacts_dir: Path,
    table: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = table.read_bytes()
    monkeypatch.setenv("THRONE_CARDS", str(table))  # the Voilà server inherits it
    page.goto(voila_url("notebooks/cards.ipynb"))
    try:
        editor = page.locator(".throne-editor")
        errors = page.locator(ERROR_OUTPUTS)
        # The open race of issue 17 item 9 (「model not found」 in the gallery or diff
        # section on some loads) is tracked by tests/browser/test_cards_loads.py (xfail);
        # this test checks the editor itself, so it reloads (at most twice) past that race.
        gallery = page.locator(".throne-gallery canvas")
        broken = page.get_by_text("model not found")
        for attempt in range(3):
            expect(editor.or_(errors).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
            expect(errors).to_have_count(0)
            expect(gallery.or_(broken).first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
            if broken.count() == 0 or attempt == 2:
                break
            page.reload(timeout=RENDER_TIMEOUT_MS)
        expect(broken).to_have_count(0)
        expect(gallery).to_be_visible()
        # show one card only, then edit its hp cell
        page.get_by_placeholder("搜索 id / 名称").fill("militia_camp")
        page.get_by_placeholder("搜索 id / 名称").press("Enter")
        expect(editor.get_by_text("显示 1 张")).to_be_visible()
        grid = editor.locator(".lm-DataGrid, .p-DataGrid").first
        box = grid.bounding_box()
        assert box is not None
        columns = list(COLUMN_WIDTHS)
        x = sum(COLUMN_WIDTHS[c] for c in columns[: columns.index("hp")]) + COLUMN_WIDTHS["hp"] / 2
        y = GRID_HEADER_H + GRID_ROW_H / 2
        page.mouse.dblclick(box["x"] + x, box["y"] + y)
        page.keyboard.press("Control+A")
        page.keyboard.type("23")
        page.keyboard.press("Enter")
        expect(editor.get_by_text("有未保存的修改")).to_be_visible(timeout=10_000)
        expect(page.locator(".throne-diff").get_by_text("23")).to_be_visible()
        page.screenshot(path=str(artifacts_dir / "cards_editor_edited.png"))
        editor.locator(".throne-save").click()
        expect(editor.get_by_text("● 已保存", exact=True)).to_be_visible(timeout=10_000)
        deadline = time.monotonic() + SAVE_TIMEOUT_S
        while table.read_bytes() == before and time.monotonic() < deadline:
            time.sleep(0.2)
        saved = table.read_bytes()
        # the watcher runs on the Voilà kernel's loop: an outside edit shows up by itself
        write_atomic(table, "id,name\n")
        expect(page.locator(".throne-errors")).to_contain_text("仍使用上一个有效版本")
        write_atomic(table, saved.decode())
        expect(page.locator(".throne-errors")).to_have_count(0)
    finally:
        page.screenshot(path=str(artifacts_dir / "cards_editor.png"))

    old, new = _rows(before.decode()), _rows(saved.decode())
    assert len(old) == len(new)
    header = old[0]
    changed = [
        (i, header[j], a[j], b[j])
        for i, (a, b) in enumerate(zip(old, new, strict=True))
        for j in range(len(header))
        if a[j] != b[j]
    ]
    row = next(i for i, r in enumerate(old) if r[0] == "militia_camp")
    assert changed == [(row, "hp", old[row][header.index("hp")], "23")]
    # and byte for byte, only that line changed
    old_lines, new_lines = before.decode().splitlines(True), saved.decode().splitlines(True)
    assert [i for i, (a, b) in enumerate(zip(old_lines, new_lines, strict=True)) if a != b] == [row]
