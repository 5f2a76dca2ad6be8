"""A PIN playtest in Chromium (docs/playtests.md): two browser contexts open the two seat
links of one playtest (quick rules: 1 round, PIN-TURN-7) and play it to the end with the
mouse — each own turn a hand card, then the first highlighted deploy hex (PIN-UI-6), then
the last prompt button (换牌, 展示, 不额外抽牌, 结束回合 …, PIN-UI-7). The counter windows
the deployments open are passed by the page of the seat that can only pass
(PIN-COUNTER-5), stored as that person's action. Both pages end on the same step and
result, and the export replays with ``throne replay --check``.
Screenshots: playtest_pin_seat0.png, playtest_pin_seat1.png in tests/artifacts/."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, Page, expect

from throne_lib.cli import main
from throne_lib.games.pin.hexes import parse_cell
from throne_lib.games.pin.ui.widget import HEIGHT, WIDTH, centre
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import PlaytestSession, new_match_of
from throne_lib.kit.playtest.store import SqliteStore

pytestmark = pytest.mark.browser

RENDER_TIMEOUT_MS = 300_000  # a kernel start at this machine's load
STEP_TIMEOUT_MS = 60_000
# the board's pixel at the canvas centre has been painted (the board's background at least)
PAINTED = """(() => {
  const e = document.querySelector('.pin-canvas');
  const c = e && (e.tagName === 'CANVAS' ? e : e.querySelector('canvas'));
  if (!c || !c.width) return false;
  const p = c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data;
  return p[3] > 0;
})()"""
STATE = "const e = document.querySelector('.pin-state'); const s = e ? {...e.dataset} : null;"


class Seat:
    """One person's page: the status line's data-* (``seq`` counts handled inputs)."""

    def __init__(self, browser: Browser, url: str, seat: int) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
        self.page: Page = context.new_page()
        self.seat = seat
        self.deployed = 0
        self.page.goto(url, wait_until="commit", timeout=RENDER_TIMEOUT_MS)

    def state(self) -> dict[str, str]:
        data = self.page.evaluate(f"(() => {{ {STATE} return s; }})()")
        return dict(data or {})

    def handled(self, click: Any) -> dict[str, str]:
        seq = int(self.state()["seq"])
        click()
        self.page.wait_for_function(
            f"(() => {{ {STATE} return s && +s.seq > {seq}; }})()", timeout=STEP_TIMEOUT_MS
        )
        return self.state()

    def click_cell(self, name: str) -> dict[str, str]:
        box = self.page.locator(".pin-canvas").first.bounding_box()
        assert box is not None
        x, y = centre(parse_cell(name), self.seat)  # 乙 sees the board turned
        kx, ky = box["width"] / WIDTH, box["height"] / HEIGHT
        return self.handled(lambda: self.page.mouse.click(box["x"] + x * kx, box["y"] + y * ky))

    def act(self, s: dict[str, str]) -> None:
        """One move of this seat (it is its turn)."""
        if s["pending"] == "" and s["phase"] == "action" and not self.deployed:
            cards = self.page.locator("button.pin-card")
            for i in range(cards.count()):
                s = self.handled(lambda i=i: cards.nth(i).click())
                marks = json.loads(s["marks"])
                if marks["deploy"]:
                    self.click_cell(marks["deploy"][0])
                    self.deployed += 1
                    return
                self.handled(lambda i=i: cards.nth(i).click())  # unselect
        if s["pending"] == "retreat" and json.loads(s["marks"])["retreat"]:
            self.click_cell(json.loads(s["marks"])["retreat"][0])
            return
        self.handled(lambda: self.page.locator("button.pin-btn").last.click())


def test_two_people_play_a_pin_playtest_to_the_end(
    voila_server: Any, browser: Browser, artifacts_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("THRONE_PLAYTESTS", str(tmp_path))  # the server's kernels inherit it
    st = SqliteStore(tmp_path)
    rules = {"rules": {"round_limit": 1}}
    c = manage.create(st, "pin", 2, 2, think=0.0, seed=2, options=rules)
    pid = c.playtest.id
    # a preheated kernel for each seat page (and none for the other dashboards)
    server = voila_server("notebooks", pools={"pin.ipynb": 2})
    server.wait_ready()
    url = server.url + "voila/render/pin.ipynb?"
    seats = [
        Seat(browser, url + urlencode({"playtest": pid, "seat": s, "token": c.tokens[s]}), s)
        for s in (0, 1)
    ]
    try:
        for s, seat in enumerate(seats):
            expect(seat.page.locator(".playtest-state")).to_have_attribute(
                "data-seat", str(s), timeout=RENDER_TIMEOUT_MS
            )
            expect(seat.page.locator(".pin-state")).to_have_count(1, timeout=RENDER_TIMEOUT_MS)
            # drawn before the browser connected: redrawn when its view appears
            seat.page.wait_for_function(PAINTED, timeout=STEP_TIMEOUT_MS)
        for _ in range(300):
            states = [seat.state() for seat in seats]
            if all(s.get("over") == "1" for s in states):
                break
            mine = [(seat, s) for seat, s in zip(seats, states, strict=True) if s["mine"] == "1"]
            for seat, s in mine:
                seat.act(s)
            if not mine:  # the other page has not drawn the last move yet
                seats[0].page.wait_for_timeout(200)
        for seat in seats:
            expect(seat.page.locator(".pin-state")).to_have_attribute(
                "data-over", "1", timeout=STEP_TIMEOUT_MS
            )
            expect(seat.page.locator(".pin-result")).to_contain_text("对局结束")
        n = st.count(pid)
        for seat in seats:  # both pages end on the last stored step, with one result
            expect(seat.page.locator(".playtest-state")).to_have_attribute("data-seq", str(n))
        results = [seat.page.locator(".pin-result").inner_text() for seat in seats]
        assert results[0] == results[1]
        for s, seat in enumerate(seats):
            assert seat.page.evaluate(PAINTED)
            seat.page.screenshot(path=str(artifacts_dir / f"playtest_pin_seat{s}.png"))
        assert all(seat.deployed for seat in seats)
        final = PlaytestSession(st, pid, c.tokens[0])
        assert final.is_over and final.seq == n
        # the counter windows (PIN-COUNTER-5) were passed by the pages of their seats
        m = new_match_of(c.playtest)
        forced = []
        for a in st.actions(pid):
            if m.forced_pass() is not None:
                forced.append((a.action, a.seat, a.by))
            m.apply(m.parse(a.action))
        assert forced and all(f[0] == "pass" and f[2] == "human" for f in forced)
        assert {f[1] for f in forced} == {0, 1}
        log = manage.export(st, pid, tmp_path / "pin-playtest.jsonl")
        assert main(["replay", str(log), "--check"]) == 0
        for seat in seats:
            errors = seat.page.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
            assert errors.count() == 0
    finally:
        for seat in seats:
            seat.page.context.close()
