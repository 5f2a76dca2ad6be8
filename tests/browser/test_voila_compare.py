"""The 「对比两个版本」 section of PIN's balance page in Chromium (issue 38, item 6): a rule
line typed into the box and 「对比」 give the table of paired deltas with intervals."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 120_000
RUN_TIMEOUT_MS = 300_000


def test_compare_two_variants_on_the_pin_balance_page(
    voila_url: Any, page: Page, artifacts_dir: Path
) -> None:
    page.set_viewport_size({"width": 1440, "height": 1000})
    page.goto(voila_url("notebooks/pin_balance.ipynb"))
    button = page.get_by_role("button", name="对比")  # the icon stands before the text
    expect(button).to_be_visible(timeout=RENDER_TIMEOUT_MS)
    box = page.get_by_placeholder("每行一条规则改动", exact=False)
    box.fill("cp_rise=3")
    seeds = page.locator(".widget-inline-hbox", has=page.get_by_text("种子数", exact=True))
    seeds.locator("input").fill("8")
    seeds.locator("input").press("Enter")
    button.click()
    expect(page.get_by_text("完成：基准与变体各 8 局", exact=False)).to_be_visible(
        timeout=RUN_TIMEOUT_MS
    )
    table = page.locator("table.tp-cmp")
    expect(table).to_be_visible()
    for text in ("胜率 · 座位", "胜率 · 卡组/设置", "先手", "对局长度", "结束方式", "95% 区间"):
        expect(table.get_by_text(text, exact=True).first).to_be_visible()
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts_dir / "pin_compare.png"), full_page=True)

    box.fill("cp_rise=lots")
    button.click()
    expect(page.get_by_text("无法对比", exact=False)).to_be_visible(timeout=RUN_TIMEOUT_MS)
    expect(table).to_be_visible()  # the last result stays
