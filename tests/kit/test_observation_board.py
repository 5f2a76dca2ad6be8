"""The kit's playtest seat for any game (``kit/playtest/observation_board.py``) on 暗标夺宝,
which has no board of its own: two seat pages play one match through the store by their
buttons and agree; a page shows buttons only on its turn; a page never holds the other
seat's secret bid (every widget state it would send is the same when what the seat cannot
see is redrawn with ``resample``); the AI seat plays under the lease; the export replays.
Before, the home page's 新建牌局 offered 暗标夺宝 and its links opened a solo match."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import ipywidgets as W
import pytest
from playtest_helpers import create, export_replays, refused, seat_page

from throne_lib.games.goofspiel.ui import goofspiel_page
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.observation_board import ObservationBoard
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore


def setup(tmp_path: Path, humans: int = 2) -> tuple[SqliteStore, manage.Created]:
    return create(tmp_path, "goofspiel", {}, humans, seed=7)


def states(root: W.Widget) -> list[Any]:
    """Every widget state under ``root`` (what the page sends the browser), ids blanked."""
    out: list[Any] = []

    def walk(w: Any) -> None:
        state = {
            k: "IPY_MODEL" if isinstance(v, str) and v.startswith("IPY_MODEL_") else v
            for k, v in w.get_state().items()
            if k != "children"
        }
        out.append(state)
        for child in getattr(w, "children", ()):
            walk(child)

    walk(root)
    return out


def test_two_seat_pages_play_to_the_end_and_agree(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    boards = [ObservationBoard(seat_page(st, c, s)) for s in (0, 1)]
    rng = random.Random(3)
    for _ in range(100):
        if all(b.match.is_over for b in boards):
            break
        for b in boards:
            b.page.poll()
            mine = [x for x in b.actions.children if "observation-action" in x._dom_classes]
            assert bool(mine) == b.session.my_turn()  # buttons only on its turn
            if mine:
                rng.choice(mine).click()
    assert all(b.match.is_over for b in boards)
    assert len({b.match.hash() for b in boards}) == 1
    assert all("对局结束" in b.status.value and "data-over='1'" in b.status.value for b in boards)
    export_replays(st, c.playtest.id, tmp_path / "export.jsonl")


def test_a_page_never_holds_the_other_seats_secret_bid(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GS-BID-1: after 甲 bids, 乙's page is the same whichever card 甲 put down."""
    st, c = setup(tmp_path)
    first, second = (ObservationBoard(seat_page(st, c, s)) for s in (0, 1))
    first.actions.children[3].click()  # 甲 bids its fourth card
    second.page.poll()
    assert second.session.my_turn() and second.session.seq == 1
    shown = states(second.widget)
    assert "my_bid" in second.view.value and "bid_placed" in second.view.value
    truth = second.session.match
    rng = random.Random(1)
    redrawn = 0
    for _ in range(5):
        other = truth.resample(1, rng)  # 甲's face-down card redrawn among its cards
        redrawn += other.hash() != truth.hash()
        second.session.match = other
        second.refresh()
        assert states(second.widget) == shown
    second.session.match = truth
    assert redrawn > 0  # the bid was redrawn at least once: the pages compared differ inside


def test_the_ai_seat_plays_under_the_lease(tmp_path: Path) -> None:
    st, c = setup(tmp_path, humans=1)
    board = ObservationBoard(seat_page(st, c, 0))
    for _ in range(200):
        if board.match.is_over:
            break
        board.page.poll()
        if board.session.my_turn():
            board.actions.children[0].click()
    board.page.poll()
    assert board.match.is_over
    assert {(a.seat, a.by) for a in st.actions(c.playtest.id)} == {(0, "human"), (1, "ai")}


def test_the_notebooks_page_joins_a_link_and_refuses_a_bad_one(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    pid = c.playtest.id
    w = goofspiel_page(store=st, query=f"playtest={pid}&seat=1&token={c.tokens[1]}")
    assert isinstance(w, W.VBox) and "observation-board" in w._dom_classes
    assert isinstance(goofspiel_page(store=st, query=""), W.VBox)  # no link: the solo page
    refused(
        goofspiel_page,
        st,
        [
            (f"playtest={pid}&seat=1&token=wrong", "令牌不对"),
            (f"playtest={pid}&seat=-1&token={c.tokens[SPECTATOR]}", "没有旁观视角"),
        ],
    )
