"""城堡之心 · 平衡分析 in Chromium: the home page links it, it opens from the saved results
(role table with n and intervals, hero table), says how long a sweep of the chosen size
takes, and a small sweep runs from the button."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_castle_balance_from_home(
    voila_server: Any,
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CASTLE_LOGS", str(tmp_path))  # the sweep below is written there
    server = voila_server("notebooks")
    try:
        server.wait_ready()
        page.set_viewport_size({"width": 1440, "height": 900})
        page.goto(server.url + "voila/render/index.ipynb")
        link = page.locator("#tp-link-castle_balance")
        expect(link).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        link.click()
        expect(page.get_by_text("身份胜率")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.locator("table").first).to_contain_text("城主")
        expect(page.locator("table").first).to_contain_text("n=")
        expect(page.get_by_text("英雄胜率")).to_be_visible()
        page.screenshot(path=str(artifacts_dir / "castle_balance.png"))
        page.locator(".widget-text input").first.fill("2")  # 每档局数
        page.locator(".widget-text input").first.press("Tab")  # the value reaches the kernel
        # how long the sweep takes, before it runs (issue 36, item 9)
        expect(page.locator(".tp-balance-estimate").first).to_contain_text("这一轮 10 局，预计约")
        page.get_by_role("button", name="运行新模拟").click()
        expect(page.get_by_text("完成：10 局")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.get_by_text("新模拟（种子自 10000 起）")).to_be_visible()
        assert (tmp_path / "castle-balance-latest.parquet").is_file()
        expect(page.locator("table").first).to_contain_text("n=2")
        page.screenshot(path=str(artifacts_dir / "castle_balance_sweep.png"))
    finally:
        server.stop()
