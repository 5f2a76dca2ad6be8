"""The 「调平建议」 section on the PIN and 城堡之心 balance pages in Chromium (issue 21,
items 3 and 4): the home page links the page, the section shows targets (PIN with the
first seat, 城堡之心 without: the 城主 always opens) and budget, and a tiny search runs
from 「开始搜索」 to the Pareto front and proposal detail (or the note that none
improved)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from widget_input import set_slider

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000
RUN_TIMEOUT_MS = 600_000


def _run_tiny_search(page: Page) -> None:
    for label, value in (("种群", 2), ("代数", 1), ("搜索区块", 2), ("留出区块", 1)):
        set_slider(page, label, value)
    page.get_by_role("button", name="开始搜索").click()
    expect(page.get_by_text("留出验证完成")).to_be_visible(timeout=RUN_TIMEOUT_MS)
    found = page.get_by_text("调整后 after").or_(page.get_by_text("没有找到比现状更平衡的方案"))
    expect(found.first).to_be_visible()


@pytest.mark.parametrize(
    ("link", "first_seat", "shot"),
    [("pin_balance", True, "pin_balance_suggest"), ("castle_balance", False, "castle_suggest")],
)
def test_balance_suggestions_from_home(
    voila_server: Any, page: Page, artifacts_dir: Path, link: str, first_seat: bool, shot: str
) -> None:
    server = voila_server("notebooks")
    try:
        server.wait_ready()
        page.set_viewport_size({"width": 1440, "height": 1000})
        page.goto(server.url + "voila/render/index.ipynb")
        home_link = page.locator(f"#tp-link-{link}")
        expect(home_link).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        home_link.click()
        expect(page.get_by_role("button", name="开始搜索")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.get_by_text("先手上限")).to_have_count(1 if first_seat else 0)
        _run_tiny_search(page)
        page.screenshot(path=str(artifacts_dir / f"{shot}.png"), full_page=True)
    finally:
        server.stop()
