"""A Throne & Phalanx playtest in Chromium (docs/playtests.md): two browser contexts open
the two seat links of one playtest (a 1-round limit, R-END-1) on play.ipynb and play it
to the end with the mouse — the opening by clicks (blue replaces a hand card by clicking
it, then both 确定手牌, R-OPEN-2; three barracks each on highlighted cells, R-OPEN-3),
then each turn a summon from a barracks onto a highlighted cell (R-BARRACKS-5; red
clicks the cells where its turned board draws them) and
结束回合; red's page is reloaded after the opening and rejoins its seat at the current
position. Each page shows its own seat (data-seat), the other's moves arrive without a
reload, both pages end on the same step with complementary results, and the export
replays with ``throne replay --check``. No page receives (websocket frames: widget
states and canvas commands) the name or id of a card the other seat held that never
became public and that its own deck does not hold.
Screenshots: playtest_throne_seat0.png, playtest_throne_seat1.png in tests/artifacts/."""

from __future__ import annotations

import dataclasses
import json
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
    painted,
    screenshots,
    wait_joined,
)
from playwright.sync_api import Browser, expect

from throne_lib import load_cards
from throne_lib.games.throne.rules import DEFAULT_RULES
from throne_lib.games.throne.ui.layout import DEFAULT_LAYOUT as L
from throne_lib.games.throne.ui.layout import Layout
from throne_lib.kit.playtest.session import PlaytestSession, new_match_of

pytestmark = pytest.mark.browser

DB = load_cards()
CANVAS = ".tp-match canvas"  # the board layer (its pixel at the canvas centre)
PAINTED = painted(CANVAS)


def cell_index(name: str) -> int:
    return (int(name[1:]) - 1) * 7 + (ord(name[0]) - ord("a"))


class Seat(MouseSeat):
    """One person's page, synchronised on the status line's data (``seq`` counts the
    clicks and buttons its kernel has handled) and text."""

    STATE = ".tp-state"
    TEXT = True

    def setup(self) -> None:
        self.replaced = self.summoned = 0
        self.barracks: list[str] = []  # where this seat founded its barracks
        self.layout = Layout(turned=self.seat == 1)  # red's page shows the board turned
        self.frames: list[str] = []  # every websocket frame the page received
        self.page.on(
            "websocket",
            lambda ws: ws.on(
                "framereceived",
                lambda data: self.frames.append(
                    data if isinstance(data, str) else data.decode("utf-8", "replace")
                ),
            ),
        )

    def click_xy(self, x: float, y: float) -> dict[str, str]:
        box = self.page.locator(".tp-match canvas").first.bounding_box()
        assert box is not None
        kx, ky = box["width"] / L.width, box["height"] / L.height
        return self.handled(lambda: self.page.mouse.click(box["x"] + x * kx, box["y"] + y * ky))

    def click_cell(self, name: str) -> dict[str, str]:
        return self.click_xy(*self.layout.cell_center(cell_index(name)))

    def highlights(self, s: dict[str, str], style: str) -> list[str]:
        items = (item.split(":") for item in s["hl"].split())
        return [cell for cell, st in items if st == style]

    def act(self, s: dict[str, str]) -> None:
        """This seat's next move (it is its turn)."""
        if s["phase"] == "replace":
            hand = s["hand"].split()
            swap = [i for i, c in enumerate(hand) if DB[c].kind != "barracks"]
            if self.seat == 0 and not self.replaced and swap:  # a hand card, clicked
                s = self.click_xy(*L.hand.center(swap[0]))
                assert s["text"].startswith("已执行：换掉"), s
                self.replaced += 1
                return
            self.click_xy(*L.tray.center(0))  # 确定手牌
            return
        if s["phase"] == "found":  # the barracks chip is chosen: a highlighted cell
            cell = self.highlights(s, "place")[0]
            self.click_cell(cell)
            self.barracks.append(cell)
            return
        barracks = [c for c in s["mine"].split() if c in self.barracks]
        if s["phase"] == "main" and not self.summoned and barracks:
            s = self.click_cell(barracks[0])
            summon = self.highlights(s, "summon")
            if summon:
                s = self.click_cell(summon[0])
                assert s["text"].startswith("已执行：召唤"), s
                self.summoned += 1
                return
        self.handled(lambda: self.page.locator("button.tp-end").click())


def test_two_people_play_a_throne_playtest_to_the_end(
    voila_server: Any, browser: Browser, artifacts_dir: Path, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:  # fmt: skip
    monkeypatch.setenv("THRONE_PLAYTESTS", str(tmp_path))  # the server's kernels inherit it
    st, c = create(tmp_path, "throne", dataclasses.replace(DEFAULT_RULES, round_limit=1), seed=2)
    pid = c.playtest.id
    seats: list[Seat] = open_seats(voila_server, browser, "play.ipynb", c, Seat)
    try:
        for s, seat in enumerate(seats):
            wait_joined(seat.page, s, Seat.STATE, CANVAS)
        reloaded = False
        for _ in range(120):
            if not reloaded and st.count(pid) >= 8:  # after the opening: red reopens its link
                seq = st.count(pid)
                seats[1].page.reload(wait_until="commit", timeout=RENDER_TIMEOUT_MS)
                state = seats[1].page.locator(".playtest-state")
                expect(state).to_have_attribute("data-seat", "1", timeout=RENDER_TIMEOUT_MS)
                assert int(state.get_attribute("data-seq") or 0) >= seq  # the current position
                expect(seats[1].page.locator(".tp-state")).to_have_count(1)
                seats[1].page.wait_for_function(PAINTED, timeout=STEP_TIMEOUT_MS)
                reloaded = True
            states = [seat.state() for seat in seats]
            if all(s.get("phase") == "over" for s in states):
                break
            mine = [
                (seat, s)
                for seat, s in zip(seats, states, strict=True)
                if s["phase"] != "over" and s["turn"] == str(seat.seat)
            ]
            for seat, s in mine[:1]:
                seat.act(s)
            if not mine:  # the other page has not drawn the last move yet
                seats[0].page.wait_for_timeout(200)
        n = st.count(pid)
        for seat in seats:
            expect(seat.page.locator(".tp-state")).to_have_attribute(
                "data-phase", "over", timeout=STEP_TIMEOUT_MS
            )
        on_step(seats, n)  # both pages end on the last stored step
        results = [seat.page.locator(".tp-result").inner_text() for seat in seats]
        final = PlaytestSession(st, pid, c.tokens[0])
        assert final.is_over and final.seq == n
        winner = final.match.winner
        if winner is not None:
            assert "你赢了" in results[winner] and "你输了" in results[1 - winner]
        assert all("第 1 回合结束" in r for r in results)
        assert reloaded and seats[0].replaced and all(seat.summoned for seat in seats)
        assert {a.by for a in st.actions(pid)} == {"human"}
        screenshots(seats, CANVAS, artifacts_dir, "throne")
        for s, words in enumerate(secrets(c.playtest, st.actions(pid))):
            assert words, "the check bites: the other seat held cards never shown"
            text = json.dumps(seats[s].frames, ensure_ascii=False)
            assert seats[s].frames and not [w for w in words if w in text], (s, words)
        export_replays(st, pid, tmp_path / "throne-playtest.jsonl")
        no_errors(seats)
    finally:
        close(seats)


def secrets(playtest: Any, actions: list[Any]) -> list[set[str]]:
    """For each seat: the names and ids of the cards the other seat held at some moment
    that were never public (on the board, an offer, a graveyard, removed, played) and
    that are not in the seat's own deck list."""
    m = new_match_of(playtest)
    held: list[set[str]] = [set(), set()]
    public: set[str] = set()

    def look() -> None:
        st = m.state
        for side in (0, 1):
            held[side] |= set(st.sides[side].hand)
            public.update(st.sides[side].grave, st.sides[side].removed)
        for u in st.board:
            if u is not None:
                public.add(u.card)
                public.update(u.offer)

    look()
    for a in actions:
        act = m.parse(a.action)
        if act.kind == "play":
            public.add(act.card)
        m.apply(act)
        look()
    out = []
    for seat in (0, 1):
        own = set(m.setups[seat].deck) | {m.setups[seat].general}
        hidden = held[1 - seat] - public - own
        names = {DB[c].name for c in hidden} - {DB[c].name for c in public | own}
        out.append(hidden | names)
    return out
