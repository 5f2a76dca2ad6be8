"""The 「调平建议」 section on the PIN and 城堡之心 balance pages in Chromium (issue 21,
items 3 and 4): the home page links the page, the section shows targets (PIN with the
first seat, 城堡之心 without: the 城主 always opens) and budget, and a tiny search runs
from 「开始搜索」 to the Pareto front and proposal detail (or the note that none
improved).

Issue 36, item 9: before any run the section says how long a search of its budget takes
(the repository's speed record), 应用此方案 is disabled, and a run is saved and shown when
the page opens again; Throne's page opens on the repository's saved run
(``results/balance/verified.parquet``) with 应用此方案 enabled. Runs go to a folder of the
test's own (``$THRONE_BALANCE_LOGS``), not the checkout's ``logs/``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from widget_input import set_slider

from throne_lib.kit.balance_run import load_run
from throne_lib.kit.balance_saved import shipped_runs

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.browser


@pytest.fixture(autouse=True)
def _own_balance_logs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The panel's runs and speed records in a folder of this test's (the server and its
    kernels inherit the environment)."""
    monkeypatch.setenv("THRONE_BALANCE_LOGS", str(tmp_path / "balance-logs"))


RENDER_TIMEOUT_MS = 120_000
RUN_TIMEOUT_MS = 600_000


def _run_tiny_search(page: Page) -> None:
    for label, value in (("种群", 2), ("代数", 1), ("搜索区块", 2), ("留出区块", 1)):
        set_slider(page, label, value)
    page.get_by_role("button", name="开始搜索").click()
    expect(page.get_by_text("留出验证完成")).to_be_visible(timeout=RUN_TIMEOUT_MS)
    found = page.get_by_text("调整后 after").or_(page.get_by_text("没有找到比现状更平衡的方案"))
    expect(found.first).to_be_visible(timeout=RUN_TIMEOUT_MS)  # after the verification


@pytest.mark.parametrize(
    ("link", "first_seat", "shot"),
    [("pin_balance", True, "pin_balance_suggest"), ("castle_balance", False, "castle_suggest")],
)
def test_balance_suggestions_from_home(
    voila_server: Any, page: Page, artifacts_dir: Path, link: str, first_seat: bool, shot: str
) -> None:
    server = voila_server("notebooks", pools={})  # no preheated kernels
    try:
        server.wait_ready()
        page.set_viewport_size({"width": 1440, "height": 1000})
        page.goto(server.url + "voila/render/index.ipynb")
        home_link = page.locator(f"#tp-link-{link}")
        expect(home_link).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        home_link.click()
        expect(page.get_by_role("button", name="开始搜索")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(page.get_by_text("先手上限")).to_have_count(1 if first_seat else 0)
        # before any run of the page: the repository's run on the table, if it keeps one
        # (apply on when it has a proposal), else nothing to apply; how long a run takes
        table = ROOT / ("cards-pin.csv" if first_seat else "cards-castle.csv")
        kept = shipped_runs(table)
        head, apply = page.locator(".tp-suggest-run").last, page.locator(".tp-suggest-apply").last
        if kept:
            expect(head).to_contain_text(f"上次的搜索结果（results/balance/{kept[0].name}）")
            has = bool(load_run(kept[0]).numbers)
            expect(apply).to_be_enabled() if has else expect(apply).to_be_disabled()
        else:
            expect(head).to_contain_text("还没有这张卡表的搜索结果")
            expect(apply).to_be_disabled()
        expect(page.locator(".tp-suggest-estimate").last).to_contain_text("一次搜索预计最多约")
        expect(page.locator(".tp-suggest-estimate").last).to_contain_text("仓库记录")
        _run_tiny_search(page)
        expect(page.locator(".tp-suggest-run").last).to_contain_text("本次搜索")
        page.screenshot(path=str(artifacts_dir / f"{shot}.png"), full_page=True)
        proposals = page.get_by_role("button", name="方案 1", exact=True).count()
        page.reload(timeout=RENDER_TIMEOUT_MS)  # opened again: the run just saved, at once
        run = page.locator(".tp-suggest-run").last
        expect(run).to_contain_text("上次的搜索结果", timeout=RENDER_TIMEOUT_MS)
        expect(run).to_contain_text(f"suggest-{'cards-pin' if first_seat else 'cards-castle'}")
        expect(page.locator(".tp-suggest-estimate").last).to_contain_text("本机")
        apply = page.locator(".tp-suggest-apply").last
        if proposals:
            expect(apply).to_be_enabled()
        else:
            expect(apply).to_be_disabled()
            expect(page.get_by_text("没有找到比现状更平衡的方案").first).to_be_visible()
        page.screenshot(path=str(artifacts_dir / f"{shot}_saved.png"), full_page=True)
    finally:
        server.stop()


def test_throne_balance_page_opens_on_the_saved_run(
    voila_server: Any, page: Page, artifacts_dir: Path
) -> None:
    server = voila_server("notebooks/balance.ipynb", pools={})
    try:
        server.wait_ready()
        page.set_viewport_size({"width": 1440, "height": 1000})
        page.goto(server.url, timeout=RENDER_TIMEOUT_MS)
        run = page.locator(".tp-suggest-run").first
        expect(run).to_contain_text("上次的搜索结果", timeout=RENDER_TIMEOUT_MS)
        expect(run).to_contain_text("results/balance/verified.parquet")
        expect(page.get_by_text("方案 1：").first).to_be_visible()
        expect(page.locator(".tp-suggest-apply").first).to_be_enabled()
        expect(page.locator(".tp-suggest-estimate").first).to_contain_text("一次搜索预计最多约")
        page.locator(".tp-suggest-run").first.scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts_dir / "balance_suggest_saved.png"))
    finally:
        server.stop()
