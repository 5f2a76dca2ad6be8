"""The replay dashboard in a real browser: open the stored golden log, step through
it with the buttons and the round jump, and screenshot the board and the charts."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000  # the first request starts a kernel and replays the log


def test_replay_dashboard_steps_through_the_golden_log(
    voila_url: Callable[[str], str], page: Page, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1320, "height": 1500})
    page.goto(voila_url("notebooks/replay.ipynb"))
    picker = page.locator("select").first
    expect(picker).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    title = page.locator("b", has_text="match_seed7.jsonl")  # the replay's title line
    page.wait_for_timeout(1000)
    if not title.is_visible():  # the newest log of logs/ is open: open the golden one
        picker.select_option(label="match_seed7.jsonl")
        page.get_by_role("button", name="打开").click()
    # (on a fresh clone logs/ is empty and the golden log is already open)
    expect(title).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    expect(page.get_by_text("步 0/")).to_be_visible(timeout=30_000)
    for _ in range(3):
        page.get_by_role("button", name="下 ▶").click()
    expect(page.get_by_text("步 3/")).to_be_visible(timeout=30_000)
    page.get_by_role("spinbutton").fill("5")
    page.get_by_role("button", name="跳转").click()
    expect(page.get_by_text("第 5/40 回合")).to_be_visible(timeout=30_000)
    expect(page.locator("canvas").first).to_be_visible()
    expect(page.locator("img").first).to_be_visible()  # the charts
    page.wait_for_timeout(500)  # let the canvas paint
    page.screenshot(path=str(artifacts_dir / "replay_round5.png"), full_page=True)
    errors = page.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
    assert errors.count() == 0
