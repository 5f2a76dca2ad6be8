"""PIN's playtest page without a browser (throne_lib/games/pin/ui/playtest.py): two seat
pages play one match through the store and agree; a seat's forced pass (PIN-COUNTER-5)
is sent by its own page; the 战报 keeps the other seat's private events out; the AI seat
plays under the lease; a spectator link is refused (PIN has no public view); and — the
hidden-information proof — every byte a seat's page sends (widget states and canvas
commands) is the same when what that seat cannot see is redrawn (``resample``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import ipywidgets as W
import pytest
from playtest_helpers import (
    create,
    export_replays,
    play_pages,
    play_under_the_lease,
    refused,
    seat_page,
    sends_the_same,
)

from throne_lib.games.pin.ui.playtest import PinPlaytestBoard, pin_page
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import PlaytestSession, new_match_of
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore


def setup(
    tmp_path: Path, humans: int = 2, seed: int = 5, rounds: int = 2
) -> tuple[SqliteStore, manage.Created]:
    rules = {"round_limit": rounds}  # PIN-TURN-7: the match ends after it
    return create(tmp_path, "pin", rules, humans, seed)


def board(st: SqliteStore, c: manage.Created, seat: int) -> PinPlaytestBoard:
    return PinPlaytestBoard(seat_page(st, c, seat))


def move(b: PinPlaytestBoard, rng: random.Random) -> None:
    """The seat to move picks a legal action through its controller (as a click does).
    A forced pass never reaches the person: their page sent it."""
    assert b.match.forced_pass() is None, "the page should have passed"
    act = rng.choice(b.ctrl.legal())
    b._guard(lambda: b.ctrl.apply(act))


def play(boards: list[PinPlaytestBoard], rng: random.Random) -> None:
    def one(b: PinPlaytestBoard) -> None:
        move(b, rng)
        b.refresh()

    play_pages(boards, one)


def test_two_seat_pages_play_pin_to_the_end_and_agree(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    pid = c.playtest.id
    boards = [board(st, c, s) for s in (0, 1)]
    play(boards, random.Random(1))
    for b in boards:
        b.page.poll()
    assert len({b.match.hash() for b in boards}) == 1
    assert all('data-over="1"' in b.status.value and "对局结束" in b.status.value for b in boards)
    # every forced pass (PIN-COUNTER-5) is stored, by the human seat's page
    m = new_match_of(c.playtest)
    forced = []
    for a in st.actions(pid):
        if m.forced_pass() is not None:
            forced.append(a)
            assert a.action == "pass" and a.by == "human" and a.seat == m.current_seat
        m.apply(m.parse(a.action))
    assert forced and {a.by for a in st.actions(pid)} == {"human"}
    export_replays(st, pid, tmp_path / "pin.jsonl")


def test_the_battle_report_shows_a_seat_only_its_own_private_events(tmp_path: Path) -> None:
    st, c = setup(tmp_path, seed=8)
    boards = [board(st, c, s) for s in (0, 1)]
    play(boards, random.Random(2))
    events = [e for _, evs in boards[0].session.events or [] for e in evs]
    for s, b in enumerate(boards):
        mine = {e.text for e in events if e.private == s}
        theirs = {e.text for e in events if e.private == 1 - s} - {
            e.text for e in events if e.private != 1 - s
        }
        assert mine and theirs  # each seat drew cards only it may name
        assert mine <= set(b.ctrl.log) and not theirs & set(b.ctrl.log)
        assert b.ctrl.log[-1] in b.log_panel.html.value


def test_a_seat_against_the_ai_seat_under_the_lease(tmp_path: Path) -> None:
    st, c = setup(tmp_path, humans=1, seed=3)
    b = board(st, c, 0)
    rng = random.Random(3)
    by = play_under_the_lease(
        b, lambda b: b._guard(lambda: b.ctrl.apply(rng.choice(b.ctrl.legal()))), st, c.playtest.id
    )
    assert by == {(0, "human"), (1, "ai")}


def test_links_the_pin_page_refuses_and_the_page_without_a_link(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    pid = c.playtest.id
    refused(
        pin_page,
        st,
        [
            (f"playtest={pid}&seat=-1&token={c.tokens[SPECTATOR]}", "没有旁观视角"),
            (f"playtest={pid}&seat=0&token=wrong", "令牌不对"),
            (f"playtest=nope&seat=0&token={c.tokens[0]}", "没有编号为 nope 的牌局"),
        ],
    )
    joined = pin_page(store=st, query=f"playtest={pid}&seat=1&token={c.tokens[1]}")
    assert isinstance(joined, W.VBox) and "playtest-bar" in joined.children[0]._dom_classes
    single = pin_page(query="")
    assert "开始对局" in {getattr(w, "description", "") for w in walk(single)}


def walk(w: Any) -> list[Any]:
    return [w, *(x for c in getattr(w, "children", ()) for x in walk(c))]


def test_a_pin_page_sends_nothing_that_depends_on_what_its_seat_cannot_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st, c = setup(tmp_path, seed=9, rounds=8)
    drivers = [PlaytestSession(st, c.playtest.id, c.tokens[s]) for s in (0, 1)]
    rng = random.Random(4)
    checked = 0
    for step in range(1000):
        for d in drivers:
            d.tick()
            if d.my_turn():
                d.submit(rng.choice(d.legal()))
        if drivers[0].is_over or checked >= 24:
            break
        if step % 4 != 2:
            continue
        for seat in (0, 1):
            b = board(st, c, seat)
            if b.ctrl.my_turn and b.match.state.pending is None:
                hand = b.match.observation(seat)["hand"]
                if hand:  # a chosen card: its cells and prompt are drawn too
                    b._card(hand[step % len(hand)])
            other = b.session.match.resample(seat, random.Random(step))
            sends_the_same(b, b.refresh, monkeypatch, other)
            checked += 1
    assert checked >= 12
