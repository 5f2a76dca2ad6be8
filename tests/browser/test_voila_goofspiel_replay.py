"""The kit's replay page for any game, in Chromium, on 暗标夺宝 (which has no viewer of
its own): the page opens a demo match when the logs folder ($GOOFSPIEL_LOGS, temporary)
has none, steps, and switches from 乙's view (甲's bid not named) to 全部公开."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from page_checks import assert_no_error_output
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000


def test_goofspiel_replay_page_steps_and_switches_view(
    open_notebook: Any, page: Page, artifacts_dir: Path, tmp_path: Path
) -> None:
    env = {"GOOFSPIEL_LOGS": str(tmp_path / "logs")}
    open_notebook("notebooks/goofspiel_replay.ipynb", env=env, viewport=(1300, 900))
    title = page.locator(".replay-title")
    expect(title).to_contain_text("goofspiel-demo-seed3.jsonl", timeout=RENDER_TIMEOUT_MS)
    expect(title).to_contain_text("步 0/")
    page.locator(".replay-seat select").select_option(index=1)  # 乙's view
    page.locator(".replay-forward").click()
    expect(title).to_contain_text("步 1/")
    expect(title.locator(".replay-said")).to_have_text("座位 0（甲）行动")  # the card not named
    expect(page.locator(".replay-seat-view")).to_have_count(1)
    page.screenshot(path=str(artifacts_dir / "goofspiel_replay_seat1.png"), full_page=True)
    page.locator(".replay-seat select").select_option(label="全部公开（复盘者视角）")
    expect(title.locator(".replay-said")).to_contain_text("bid ")
    expect(page.locator(".replay-seat-view")).to_have_count(2)
    page.locator(".replay-last").click()
    expect(title).to_contain_text("对局结束")
    page.screenshot(path=str(artifacts_dir / "goofspiel_replay_reveal.png"), full_page=True)
    assert_no_error_output(page)


def test_goofspiel_match_by_mouse_then_its_replay(
    open_notebook: Any, page: Page, artifacts_dir: Path, tmp_path: Path
) -> None:
    """The play page: bid by mouse to the end; the match was logged from the first bid, and
    复盘本局 opens it in the kit's viewer from 甲's seat."""
    logs = tmp_path / "logs"
    open_notebook("notebooks/goofspiel.ipynb", env={"GOOFSPIEL_LOGS": str(logs)})
    bids = page.locator(".goof-bid")
    review = page.locator(".goof-review")
    expect(bids.first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    for left in range(8, 0, -1):  # 8 cards: one bid a round, the AI answers at once
        expect(bids).to_have_count(left)
        bids.first.click()
    expect(review).to_be_visible()
    assert [p.name.startswith("goofspiel-") for p in logs.glob("*.jsonl")] == [True]
    review.click()
    title = page.locator(".replay-title")
    expect(title).to_contain_text("本局 · 步 0/16")
    page.locator(".replay-last").click()
    expect(title).to_contain_text("对局结束")
    page.screenshot(path=str(artifacts_dir / "goofspiel_review.png"), full_page=True)
    assert_no_error_output(page)
