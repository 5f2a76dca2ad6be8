"""A 城池战 playtest in Chromium (docs/playtests.md): two browser contexts open the seat
links of a 3-seat playtest (2 people + 1 AI seat, 1 round: CW-TURN-1's limit) and play it
to the end with the mouse — on their turn, the first offered action button (the hero
draft, deployments, 出牌 / 结束出牌, 抵挡 or not …); a third context follows it from the
spectator link. The AI seat is played under the lease by one of the open pages; every page
ends on the last stored step, the spectator's then shows everything (全部公开), and the
export replays with ``throne replay --check``.
Screenshots: playtest_cities_seat0.png, playtest_cities_seat1.png,
playtest_cities_spectator.png in tests/artifacts/."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from throne_lib.cli import main
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import PlaytestSession
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 300_000  # a kernel start at this machine's load
BUTTONS = ".castle-actions button:not(.cities-concede)"


def open_page(browser: Browser, url: str) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.goto(url, wait_until="commit", timeout=RENDER_TIMEOUT_MS)
    return page


def test_two_people_play_a_cities_playtest_to_the_end(
    voila_server: Any, browser: Browser, artifacts_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("THRONE_PLAYTESTS", str(tmp_path))  # the server's kernels inherit it
    st = SqliteStore(tmp_path)
    c = manage.create(st, "cities", 3, 2, think=0.0, seed=1, options={"rules": {"max_rounds": 1}})
    pid = c.playtest.id
    # a preheated kernel for each page (and none for the other dashboards)
    server = voila_server("notebooks", pools={"cities.ipynb": 3})
    server.wait_ready()
    url = server.url + "voila/render/cities.ipynb?"
    who = (0, 1, SPECTATOR)
    pages = [
        open_page(browser, url + urlencode({"playtest": pid, "seat": s, "token": c.tokens[s]}))
        for s in who
    ]
    try:
        for s, page in zip(who, pages, strict=True):
            state = page.locator(".playtest-state")
            expect(state).to_have_attribute("data-seat", str(s), timeout=RENDER_TIMEOUT_MS)
            expect(page.locator(".castle-status")).to_have_count(1, timeout=RENDER_TIMEOUT_MS)
        clicks = [0, 0]
        for _ in range(1500):
            statuses = [p.locator(".castle-status").inner_text() for p in pages]
            if all("游戏结束" in t for t in statuses[:2]):
                break
            acted = False
            for s, (p, text) in enumerate(zip(pages[:2], statuses, strict=False)):
                buttons = p.locator(BUTTONS)
                if "轮到你" in text and buttons.count() > 0:
                    try:  # rebuilt after every move: a stale button is retried
                        buttons.first.click(timeout=5_000)
                    except PlaywrightTimeoutError:
                        continue
                    clicks[s] += 1
                    acted = True
            if not acted:
                pages[0].wait_for_timeout(200)
        n = st.count(pid)
        ends = ("游戏结束", "游戏结束", "对局结束，全部公开")  # the spectator sees everything
        for p, end in zip(pages, ends, strict=True):
            expect(p.locator(".castle-status")).to_contain_text(end, timeout=60_000)
            expect(p.locator(".playtest-state")).to_have_attribute("data-seq", str(n))
        assert min(clicks) >= 3
        for name, p in zip(("seat0", "seat1", "spectator"), pages, strict=True):
            p.screenshot(path=str(artifacts_dir / f"playtest_cities_{name}.png"))
        final = PlaytestSession(st, pid, c.tokens[0])
        assert final.is_over and final.seq == n
        by = {(a.seat, a.by) for a in st.actions(pid)}
        assert by == {(0, "human"), (1, "human"), (2, "ai")}
        log = manage.export(st, pid, tmp_path / "cities-playtest.jsonl")
        assert main(["replay", str(log), "--check"]) == 0
        for p in pages:
            errors = p.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
            assert errors.count() == 0
    finally:
        for p in pages:
            p.context.close()
        server.stop()  # its seat kernels poll the store every 0.1 s until stopped
