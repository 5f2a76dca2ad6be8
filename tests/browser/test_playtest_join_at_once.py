"""Five people open their seat links of one 城堡之心 playtest at the same moment (issue 37,
item 5; docs/playtests.md): each page gets a preheated kernel (voila.json's pool for
castle.ipynb, here six kernels), and each shows its own seat — a pool kernel reads its
link only once its visitor came (``throne_lib.kit.ui.preheat``). A sixth page opens
castle.ipynb without a query string at the same moment and gets the single-player
dashboard from a preheated kernel too. Then the seat on turn clicks and every other page
follows. Asserts that it works, not how fast: ``benchmarks/join_at_once.py`` times it."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.store import SqliteStore

pytestmark = pytest.mark.browser

PEOPLE = 5
RENDER_TIMEOUT_MS = 300_000  # six pages on CI's two cores
STEP_TIMEOUT_MS = 60_000
STDERR = '[data-mime-type="application/vnd.jupyter.stderr"]'


def open_page(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.goto(url, wait_until="commit", timeout=RENDER_TIMEOUT_MS)
    return page


def test_five_seat_links_opened_at_once_each_get_their_seat_from_the_pool(
    voila_server: Any, browser: Browser, artifacts_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("THRONE_PLAYTESTS", str(tmp_path))  # the server's kernels inherit it
    st = SqliteStore(tmp_path)
    c = manage.create(st, "castle", PEOPLE, PEOPLE, think=0.0, seed=3)
    pid = c.playtest.id
    server = voila_server("notebooks", pools={"castle.ipynb": PEOPLE + 1})
    server.wait_ready()
    server.wait_preheated(PEOPLE + 1)  # every pool kernel has run castle.ipynb up to its wait
    url = server.url + "voila/render/castle.ipynb"
    links = [url + "?" + urlencode({"playtest": pid, "seat": s, "token": c.tokens[s]})
             for s in range(PEOPLE)]  # fmt: skip
    pages = [open_page(browser, u) for u in [*links, url]]  # all navigations under way at once
    seats, single = pages[:PEOPLE], pages[PEOPLE]
    try:
        for s, page in enumerate(seats):
            state = page.locator(".playtest-state")
            expect(state).to_have_attribute("data-seat", str(s), timeout=RENDER_TIMEOUT_MS)
            expect(state).to_have_attribute("data-playtest", pid)
            expect(page.locator(".castle-status")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        # no query string: the single-player dashboard (its 新对局 settings), no playtest
        expect(single.locator(".castle-status")).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        expect(single.locator(".playtest-state")).to_have_count(0)
        expect(single.locator(".playtest-error")).to_have_count(0)
        for page in [*seats, single]:  # no stderr box (this server shows them)
            expect(page.locator(STDERR)).to_have_count(0)
        # every page was served by a preheated kernel (none started for a visitor)
        assert server.log_count("Using pre-heated kernel") == PEOPLE + 1, server.log_tail()
        # the seat on turn acts; every page follows (they are interactive, not only drawn)
        mover = next(
            (p for p in seats if "轮到你" in p.locator(".castle-status").inner_text()), None
        )
        assert mover is not None, [p.locator(".castle-status").inner_text() for p in seats]
        mover.locator(".castle-actions button").first.click(timeout=STEP_TIMEOUT_MS)
        for page in seats:
            expect(page.locator(".playtest-state")).not_to_have_attribute(
                "data-seq", "0", timeout=STEP_TIMEOUT_MS
            )
        assert st.count(pid) >= 1
        for s, page in enumerate(seats):
            page.screenshot(path=str(artifacts_dir / f"playtest_join_seat{s}.png"))
        single.screenshot(path=str(artifacts_dir / "playtest_join_single.png"))
    finally:
        for page in pages:
            page.context.close()
        server.stop()  # its seat kernels poll the store every 0.1 s until stopped


def test_a_pool_kernels_server_log_line_stays_off_the_page(
    voila_server: Any, browser: Browser, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The play page builds its board before it waits (play.ipynb), so the wait's
    "page built" line is written while that cell runs: ipykernel forwards what the
    kernel writes to its stderr (``sys.__stderr__`` too) into the cell's output, which a
    server showing tracebacks draws as a stderr box. The line goes to the server's log
    only (``throne_lib.kit.ui.preheat.server_log``)."""
    # ipykernel leaves file descriptors uncaptured under pytest (PYTEST_CURRENT_TEST,
    # which the kernels would inherit): capture them, as on a real server
    monkeypatch.delenv("PYTEST_CURRENT_TEST", raising=False)
    server = voila_server("notebooks/play.ipynb", pools={"play.ipynb": 1})
    server.wait_ready()
    server.wait_preheated(1)  # the line is in the server's log
    try:
        page = open_page(browser, server.url)
        expect(page.locator(".tp-match canvas").first).to_be_visible(timeout=RENDER_TIMEOUT_MS)
        assert server.log_count("Using pre-heated kernel") == 1, server.log_tail()
        page.wait_for_load_state("networkidle")  # every output of the notebook is drawn
        assert page.locator(STDERR).count() == 0
        assert "waiting for a visitor" not in page.inner_text("body")
    finally:
        server.stop()
