"""城堡之心 in Chromium: the dashboard follows cards-castle.csv live, and the replay page
steps through a log from a seat's view and with everything revealed.

The table is a temporary copy ($CASTLE_CARDS) and the logs a temporary folder
($CASTLE_LOGS), so the repository's files are never touched.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from page_checks import assert_no_error_output
from playwright.sync_api import Page, expect

from throne_lib.games.castle.cards import DEFAULT_PATH

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_castle_dashboard_reloads_the_table_live(
    open_notebook: Any,
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
) -> None:
    table = tmp_path / "cards-castle.csv"
    shutil.copy(DEFAULT_PATH, table)
    text = table.read_text(encoding="utf-8")
    good = "tang_na,唐纳,咆哮之熊,hero,5,"
    assert good in text
    open_notebook(
        "notebooks/castle.ipynb",
        env={"CASTLE_CARDS": str(table), "CASTLE_LOGS": str(tmp_path / "logs")},
        viewport=(1300, 1000),
    )
    status = page.locator(".castle-status")
    expect(status).to_contain_text("你的身份", timeout=RENDER_TIMEOUT_MS)
    panel = page.locator(".castle-table-panel")
    table.write_text(text.replace(good, "tang_na,唐纳,咆哮之熊,hero,x,"), encoding="utf-8")
    expect(panel).to_contain_text("cards-castle.csv:6:hp", timeout=30_000)
    expect(panel).to_contain_text("仍使用上一个有效版本")
    expect(status).to_contain_text("你的身份")  # the match is still there
    page.screenshot(path=str(artifacts_dir / "castle_live_error.png"))
    table.write_text(text.replace(good, "tang_na,唐纳,咆哮之熊,hero,6,"), encoding="utf-8")
    expect(panel).to_contain_text("已重新载入", timeout=30_000)
    expect(panel).not_to_contain_text("有错误")
    page.screenshot(path=str(artifacts_dir / "castle_live_fixed.png"))


def test_castle_replay_page_steps_and_switches_view(
    open_notebook: Any,
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
) -> None:
    open_notebook(
        "notebooks/castle_replay.ipynb",
        env={"CASTLE_LOGS": str(tmp_path / "logs")},
        viewport=(1300, 1100),
    )
    title = page.locator(".replay-title")
    expect(title).to_contain_text("castle-demo-seed3.jsonl", timeout=RENDER_TIMEOUT_MS)
    expect(title).to_contain_text("步 0/")
    for _ in range(3):
        page.locator(".replay-forward").click()
    expect(title).to_contain_text("步 3/")
    page.locator(".replay-back").click()
    expect(title).to_contain_text("步 2/")
    page.locator(".replay-turn select").select_option(index=3)
    expect(title).to_contain_text("第4回合")
    expect(title).to_contain_text("0号座位的视角")
    hands = page.locator(".replay-hands")
    expect(hands.locator(".replay-hand")).to_have_count(1)  # only seat 0's own hand
    page.wait_for_timeout(500)  # let the canvas paint
    page.screenshot(path=str(artifacts_dir / "castle_replay_seat0.png"), full_page=True)
    page.locator(".replay-seat select").select_option(label="全部公开（复盘者视角）")
    expect(title).to_contain_text("全部公开")
    expect(hands.locator(".replay-hand")).to_have_count(5)
    page.locator(".replay-last").click()
    expect(title).to_contain_text("游戏结束")
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts_dir / "castle_replay_reveal.png"), full_page=True)
    assert_no_error_output(page)
