"""PIN replay in Chromium: the page opens the logs folder's newest PIN log (a demo match
when there is none), steps, jumps to a turn, and switches between a side's view (its own
hand, the other as a count) and 全部公开. The logs are a temporary folder ($PIN_LOGS).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from page_checks import assert_no_error_output
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_pin_replay_page_steps_and_switches_view(
    open_notebook: Any,
    page: Page,
    artifacts_dir: Path,
    tmp_path: Path,
) -> None:
    open_notebook(
        "notebooks/pin_replay.ipynb",
        env={"PIN_LOGS": str(tmp_path / "logs")},
        viewport=(1300, 1100),
    )
    title = page.locator(".replay-title")
    expect(title).to_contain_text("pin-demo-seed3.jsonl", timeout=RENDER_TIMEOUT_MS)
    expect(title).to_contain_text("步 0/")
    for _ in range(3):
        page.locator(".replay-forward").click()
    expect(title).to_contain_text("步 3/")
    page.locator(".replay-turn select").select_option(index=6)
    expect(page.locator(".replay-top")).to_contain_text("回合6")  # the set-up, then turns 1 to 6
    hands = page.locator(".replay-hands")
    expect(hands.locator(".replay-hand")).to_have_count(1)  # 甲's own hand …
    expect(hands.locator(".replay-hand-back")).to_contain_text("张（背面）")  # … 乙's a count
    page.wait_for_timeout(500)  # let the canvas paint
    page.screenshot(path=str(artifacts_dir / "pin_replay_side0.png"), full_page=True)
    page.locator(".replay-seat select").select_option(label="全部公开（复盘者视角）")
    expect(title).to_contain_text("全部公开")
    expect(hands.locator(".replay-hand")).to_have_count(2)
    page.locator(".replay-last").click()
    expect(title).to_contain_text("对局结束")
    page.wait_for_timeout(500)
    page.screenshot(path=str(artifacts_dir / "pin_replay_reveal.png"), full_page=True)
    assert_no_error_output(page)
