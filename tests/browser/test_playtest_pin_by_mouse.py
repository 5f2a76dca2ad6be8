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

import pytest
from playtest_helpers import (
    STEP_TIMEOUT_MS,
    MouseSeat,
    close,
    create,
    export_replays,
    no_errors,
    on_step,
    open_seats,
    screenshots,
    wait_joined,
)
from playwright.sync_api import Browser, expect

from throne_lib.games.pin.hexes import parse_cell
from throne_lib.games.pin.ui.widget import HEIGHT, WIDTH, centre
from throne_lib.kit.playtest.session import PlaytestSession, new_match_of

pytestmark = pytest.mark.browser

CANVAS = ".pin-canvas"


class Seat(MouseSeat):
    """One person's page: the status line's data-* (``seq`` counts handled inputs)."""

    STATE = ".pin-state"

    def setup(self) -> None:
        self.deployed = 0

    def click_cell(self, name: str) -> dict[str, str]:
        box = self.page.locator(CANVAS).first.bounding_box()
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
    st, c = create(tmp_path, "pin", {"round_limit": 1}, seed=2)
    pid = c.playtest.id
    seats: list[Seat] = open_seats(voila_server, browser, "pin.ipynb", c, Seat)
    try:
        for s, seat in enumerate(seats):
            wait_joined(seat.page, s, Seat.STATE, CANVAS)
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
        on_step(seats, n)  # both pages end on the last stored step, with one result
        results = [seat.page.locator(".pin-result").inner_text() for seat in seats]
        assert results[0] == results[1]
        screenshots(seats, CANVAS, artifacts_dir, "pin")
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
        export_replays(st, pid, tmp_path / "pin-playtest.jsonl")
        no_errors(seats)
    finally:
        close(seats)
