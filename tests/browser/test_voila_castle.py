"""城堡之心 in Chromium: from the home page into the castle dashboard, then a 4-seat
match played with the mouse to the end (quick settings: 2 rounds, fast AI tempo), then
its replay opened with 复盘."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_castle_match_by_mouse_from_home(
    voila_server: Any, page: Page, artifacts_dir: Path
) -> None:
    server = voila_server("notebooks")
    console: list[str] = []
    page.on("console", lambda msg: console.append(f"{msg.type}: {msg.text}"))
    try:
        server.wait_ready()
        page.set_viewport_size({"width": 1300, "height": 1100})
        page.goto(server.url + "voila/render/index.ipynb")
        link = page.locator("#tp-link-castle")
        expect(link).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        link.click()
        status = page.locator(".castle-status")
        expect(status).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.locator(".castle-table").first).to_be_visible()
        page.locator(".castle-rounds input").fill("2")
        page.locator(".castle-rounds input").press("Enter")
        page.locator(".castle-new").click()
        expect(status).to_contain_text("你的身份")
        page.screenshot(path=str(artifacts_dir / "castle_start.png"))
        clicks = 0
        for _ in range(600):
            if "游戏结束" in status.inner_text():
                break
            buttons = page.locator(".castle-actions button")
            if "轮到你" in status.inner_text() and buttons.count() > 0:
                try:  # the panel is rebuilt after every action: a stale button is retried
                    buttons.first.click(timeout=5_000)
                except PlaywrightTimeoutError:
                    continue
                clicks += 1
                if clicks == 6:
                    page.screenshot(path=str(artifacts_dir / "castle_midgame.png"))
            else:
                page.wait_for_timeout(250)
        expect(status).to_contain_text("游戏结束", timeout=60_000)
        assert clicks >= 3
        page.locator(".castle-reveal").click()
        expect(page.locator(".castle-log")).to_contain_text("游戏结束")
        page.screenshot(path=str(artifacts_dir / "castle_end.png"))
        page.locator(".castle-replay-btn").click()  # the replay viewer on this match
        replay_title = page.locator(".replay-title")
        expect(replay_title).to_contain_text("步 0/", timeout=60_000)
        page.locator(".replay-last").click()
        expect(replay_title).to_contain_text("游戏结束")
        page.screenshot(path=str(artifacts_dir / "castle_end_replay.png"), full_page=True)
    finally:
        (artifacts_dir / "castle_console.txt").write_text("\n".join(console), encoding="utf-8")
        page.screenshot(path=str(artifacts_dir / "castle_last.png"))
        server.stop()
