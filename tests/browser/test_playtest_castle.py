"""A 城堡之心 playtest in Chromium (docs/playtests.md): three browser contexts, each
opened from its seat link, play with the mouse against two AI seats to the end (quick
rules: 1 round); one page is reloaded in the middle and rejoins its seat; no page ever
receives (websocket frames) the role word of a seat its own view never learnt."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from throne_lib.games.castle.rules import ROLE_ZH
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import PlaytestSession, new_match_of
from throne_lib.kit.playtest.store import SqliteStore

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 180_000


def open_seat(browser: Browser, url: str, frames: list[tuple[float, str]]) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
    page = context.new_page()
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda payload: frames.append(
                (
                    time.time(),
                    payload if isinstance(payload, str) else payload.decode("utf-8", "replace"),
                )
            ),
        ),
    )
    page.goto(url, wait_until="commit", timeout=RENDER_TIMEOUT_MS)
    return page


def test_three_people_play_a_castle_playtest_to_the_end(
    voila_server: Any, browser: Browser, artifacts_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("THRONE_PLAYTESTS", str(tmp_path))  # the server's kernels inherit it
    st = SqliteStore(tmp_path)
    c = manage.create(st, "castle", 5, 3, think=0.0, seed=2, options={"rules": {"max_rounds": 1}})
    pid = c.playtest.id
    # a preheated kernel for each seat page (and none for the other dashboards)
    server = voila_server("notebooks", pools={"castle.ipynb": 3})
    server.wait_ready()
    url = server.url + "voila/render/castle.ipynb?"
    frames: list[list[tuple[float, str]]] = [[], [], []]
    pages = [
        open_seat(
            browser, url + urlencode({"playtest": pid, "seat": s, "token": c.tokens[s]}), frames[s]
        )
        for s in range(3)
    ]
    try:
        for s, page in enumerate(pages):
            state = page.locator(".playtest-state")
            expect(state).to_have_attribute("data-seat", str(s), timeout=RENDER_TIMEOUT_MS)
        reloaded = False
        clicks = 0
        for _ in range(1500):
            statuses = [p.locator(".castle-status").inner_text() for p in pages]
            if all("游戏结束" in t for t in statuses):
                break
            acted = False
            for p, text in zip(pages, statuses, strict=True):
                buttons = p.locator(".castle-actions button")
                if "轮到你" in text and buttons.count() > 0:
                    try:  # rebuilt after every move: a stale button is retried
                        buttons.first.click(timeout=5_000)
                    except PlaywrightTimeoutError:
                        continue
                    clicks += 1
                    acted = True
            if clicks >= 8 and not reloaded:  # a reload in the middle rejoins the seat
                seq = st.count(pid)
                pages[1].reload(timeout=RENDER_TIMEOUT_MS)
                expect(pages[1].locator(".playtest-state")).to_have_attribute(
                    "data-seat", "1", timeout=RENDER_TIMEOUT_MS
                )
                assert (
                    int(pages[1].locator(".playtest-state").get_attribute("data-seq") or 0) >= seq
                )
                reloaded = True
            if not acted:
                pages[0].wait_for_timeout(200)
        for p in pages:
            expect(p.locator(".castle-status")).to_contain_text("游戏结束", timeout=60_000)
        assert reloaded and clicks >= 8
        for s, p in enumerate(pages):
            p.screenshot(path=str(artifacts_dir / f"playtest_castle_seat{s}.png"))
        final = PlaytestSession(st, pid, c.tokens[0])
        assert final.is_over
        by = {a.by for a in st.actions(pid)}
        assert by == {"human", "ai"}
        # While the match ran, no page received the role word of a seat its own view
        # had not revealed by then (at the end every role is shown to everyone).
        acts = st.actions(pid)
        replayed = new_match_of(c.playtest)
        known: list[set[str]] = [set(), set(), set()]
        for a in acts[:-1]:
            replayed.apply(replayed.parse(a.action))
            for s in range(3):
                players = replayed.observation(s)["players"]
                known[s] |= {p["role_zh"] for p in players if p["role_zh"] != "?"}
        held = {ROLE_ZH[p.role] for p in replayed.state.players}  # the roles dealt
        secret = [held - k for k in known]
        assert any(secret)  # a dealt role stayed hidden from some seat: the check bites
        for s in range(3):
            text = json.dumps([f for t, f in frames[s] if t < acts[-1].time], ensure_ascii=False)
            assert frames[s] and not [w for w in secret[s] if w in text], (s, secret[s])
    finally:
        for p in pages:
            p.context.close()
        server.stop()  # its seat kernels poll the store every 0.1 s until stopped
