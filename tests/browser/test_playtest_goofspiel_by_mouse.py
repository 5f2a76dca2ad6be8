"""A playtest of a game without a board of its own, in Chromium: two browser contexts open
the two seat links of one 暗标夺宝 playtest and bid by mouse to the end on the kit's board
for any game (``kit/playtest/observation_board.py``: the seat's observation, one button
per legal action on its turn). Both pages end on the same step and result, neither ever
names the other's face-down card, and the export replays with ``throne replay --check``.
Screenshots: playtest_goofspiel_seat0.png, playtest_goofspiel_seat1.png."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playtest_helpers import (
    RENDER_TIMEOUT_MS,
    STEP_TIMEOUT_MS,
    MouseSeat,
    close,
    create,
    export_replays,
    no_errors,
    on_step,
    open_seats,
)
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.browser


class Seat(MouseSeat):
    STATE = ".observation-state"

    def act(self) -> None:
        self.handled(lambda: self.page.locator("button.observation-action").first.click())


def test_two_people_play_a_goofspiel_playtest_to_the_end(
    voila_server: Any, browser: Browser, artifacts_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("THRONE_PLAYTESTS", str(tmp_path))  # the server's kernels inherit it
    st, c = create(tmp_path, "goofspiel", {}, seed=4)
    pid = c.playtest.id
    seats: list[Seat] = open_seats(voila_server, browser, "goofspiel.ipynb", c, Seat)
    try:
        for s, seat in enumerate(seats):
            expect(seat.page.locator(".playtest-state")).to_have_attribute(
                "data-seat", str(s), timeout=RENDER_TIMEOUT_MS
            )
            expect(seat.page.locator(Seat.STATE)).to_have_count(1, timeout=RENDER_TIMEOUT_MS)
        for _ in range(100):
            states = [seat.state() for seat in seats]
            if all(s.get("over") == "1" for s in states):
                break
            mine = [seat for seat, s in zip(seats, states, strict=True) if s["mine"] == "1"]
            for seat in mine:
                view = seat.page.locator(".observation-view").inner_text()
                if seat.seat == 1:  # 甲 has bid: 乙 sees that a bid lies there, not which
                    assert "bid_placed\tTrue" in view and "my_bid\t—" in view
                seat.act()
            if not mine:  # the other page has not drawn the last move yet
                seats[0].page.wait_for_timeout(200)
        for seat in seats:
            expect(seat.page.locator(Seat.STATE)).to_have_attribute(
                "data-over", "1", timeout=STEP_TIMEOUT_MS
            )
        on_step(seats, st.count(pid))
        results = [seat.page.locator(Seat.STATE).inner_text() for seat in seats]
        assert results[0] == results[1] and "对局结束" in results[0]
        for seat in seats:
            path = artifacts_dir / f"playtest_goofspiel_seat{seat.seat}.png"
            seat.page.screenshot(path=str(path), full_page=True)
        export_replays(st, pid, tmp_path / "goofspiel-playtest.jsonl")
        no_errors(seats)
    finally:
        close(seats)
