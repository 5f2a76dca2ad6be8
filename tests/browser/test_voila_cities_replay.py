"""城池战 replay in Chromium: the page opens the logs folder's newest 城池战 log (a demo
match when there is none), steps, and switches between a seat's view and 全部公开; the
table shows the cities (CW-UI-1, CW-UI-2). The logs are a temporary folder ($CASTLE_LOGS).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from page_checks import assert_no_error_output
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_cities_replay_page_steps_and_switches_view(
    open_notebook: Any,
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
) -> None:
    open_notebook(
        "notebooks/cities_replay.ipynb",
        env={"CASTLE_LOGS": str(tmp_path / "logs")},
        viewport=(1300, 1100),
    )
    title = page.locator(".replay-title")
    expect(title).to_contain_text("cities-demo-seed3.jsonl", timeout=RENDER_TIMEOUT_MS)
    expect(title).to_contain_text("步 0/")
    for _ in range(3):
        page.locator(".replay-forward").click()
    expect(title).to_contain_text("步 3/")
    page.locator(".replay-turn select").select_option(index=3)
    expect(title).to_contain_text("0号座位的视角")
    hands = page.locator(".replay-hands")
    expect(hands.locator(".replay-hand")).to_have_count(1)  # only seat 0's own hand
    expect(hands).to_contain_text("队伍")
    page.wait_for_timeout(500)  # let the canvas paint
    page.screenshot(path=str(artifacts_dir / "cities_replay_seat0.png"), full_page=True)
    page.locator(".replay-seat select").select_option(label="全部公开（复盘者视角）")
    expect(title).to_contain_text("全部公开")
    expect(hands.locator(".replay-hand")).to_have_count(4)
    page.locator(".replay-last").click()
    expect(title).to_contain_text("游戏结束")
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts_dir / "cities_replay_reveal.png"), full_page=True)
    assert_no_error_output(page)
