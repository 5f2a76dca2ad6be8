"""PIN and 城池战 in Chromium: each play page follows its card tables live, as the
城堡之心 page does (test_voila_castle_live.py): a broken row is listed on the page with
its file, row and column, a fixed one is announced and the next match uses it.

The tables are temporary copies ($PIN_CARDS, $CITIES_TABLE, $CASTLE_CARDS): the
repository's files are never touched.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from page_checks import assert_no_error_output
from playwright.sync_api import Page, expect

from tests.kit.test_live_pages import COLUMNS, ROOT, _edit

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def _copy(tmp_path: Path, name: str) -> tuple[Path, str]:
    path = tmp_path / name
    shutil.copy(ROOT / name, path)
    return path, path.read_text(encoding="utf-8")


def test_pin_page_follows_its_card_table(
    open_notebook: Any,
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
) -> None:
    table, text = _copy(tmp_path, "cards-pin.csv")
    column, when = COLUMNS["cards-pin.csv"]
    broken, line = _edit(text, column, when, "x")
    open_notebook("notebooks/pin.ipynb", env={"PIN_CARDS": str(table)}, viewport=(1300, 1000))
    start = page.locator(".pin-start")
    start.wait_for(timeout=RENDER_TIMEOUT_MS)
    panel = page.locator(".pin-table-panel")
    table.write_text(broken, encoding="utf-8")
    expect(panel).to_contain_text(f"cards-pin.csv:{line}:{column}", timeout=30_000)
    expect(panel).to_contain_text("仍使用上一个有效版本")
    start.click()  # the last valid table: the match starts
    expect(page.locator(".pin-canvas")).to_be_visible(timeout=60_000)
    page.screenshot(path=str(artifacts_dir / "pin_live_error.png"))
    table.write_text(_edit(text, column, when, "{n}")[0], encoding="utf-8")
    expect(panel).to_contain_text("已重新载入", timeout=30_000)
    expect(panel).to_contain_text("当前对局继续使用开局时的卡牌表")
    expect(panel).not_to_contain_text("有错误")
    page.screenshot(path=str(artifacts_dir / "pin_live_fixed.png"))
    assert_no_error_output(page)


def test_cities_page_follows_both_its_tables(
    open_notebook: Any,
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
) -> None:
    cities, cities_text = _copy(tmp_path, "cities.csv")
    cards, cards_text = _copy(tmp_path, "cards-castle.csv")
    open_notebook(
        "notebooks/cities.ipynb",
        env={
            "CITIES_TABLE": str(cities),
            "CASTLE_CARDS": str(cards),
            "CASTLE_LOGS": str(tmp_path / "logs"),
        },
        viewport=(1300, 1000),
    )
    status = page.locator(".castle-status")
    expect(status).to_contain_text("城池", timeout=RENDER_TIMEOUT_MS)
    panel = page.locator(".castle-table-panel")
    col_cities, when_cities = COLUMNS["cities.csv"]
    broken, line = _edit(cities_text, col_cities, when_cities, "x")
    cities.write_text(broken, encoding="utf-8")
    col_cards, when_cards = COLUMNS["cards-castle.csv"]
    broken_cards, line_cards = _edit(cards_text, col_cards, when_cards, "x")
    cards.write_text(broken_cards, encoding="utf-8")
    expect(panel).to_contain_text(f"cities.csv:{line}:{col_cities}", timeout=30_000)
    expect(panel).to_contain_text(f"cards-castle.csv:{line_cards}:{col_cards}", timeout=30_000)
    expect(status).to_contain_text("城池")  # the match is still there
    page.screenshot(path=str(artifacts_dir / "cities_live_error.png"))
    cities.write_text(_edit(cities_text, col_cities, when_cities, "{n}")[0], encoding="utf-8")
    expect(panel).to_contain_text("cities.csv 已重新载入", timeout=30_000)
    expect(panel).to_contain_text("cards-castle.csv 有错误")  # still broken: still listed
    page.screenshot(path=str(artifacts_dir / "cities_live_fixed.png"))
    assert_no_error_output(page)


def test_tower_page_follows_its_relic_table(
    open_notebook: Any, page: Page, artifacts_dir: Path, tmp_path: Path
) -> None:
    """The tower page (cards, relics, events; tests/test_tower_live.py): a broken relic row
    is listed while the run goes on; the fixed table reaches the run under way."""
    relics, text = _copy(tmp_path, "relics.csv")
    env = {"TOWER_RELICS": str(relics), "THRONE_TOWER_SAVE": str(tmp_path / "tower.json")}
    open_notebook("notebooks/tower.ipynb", env=env, viewport=(1300, 1000))
    start = page.locator(".tp-tower-start")
    start.wait_for(timeout=RENDER_TIMEOUT_MS)
    start.click()
    expect(page.locator(".tp-tower-header")).to_contain_text("遗物", timeout=60_000)
    panel = page.locator(".tp-tower-tables")
    relics.write_text(text.replace(",common,120,", ",common,x,", 1), encoding="utf-8")
    expect(panel).to_contain_text("relics.csv:2:price", timeout=30_000)
    expect(panel).to_contain_text("仍使用上一个有效版本")
    page.screenshot(path=str(artifacts_dir / "tower_live_error.png"))
    relics.write_text(text.replace(",common,120,", ",common,130,", 1), encoding="utf-8")
    expect(panel).to_contain_text("本次爬塔从下一步起使用新表", timeout=30_000)
    expect(panel).not_to_contain_text("有错误")
    page.screenshot(path=str(artifacts_dir / "tower_live_fixed.png"))
    assert_no_error_output(page)
