"""The kit's replay viewer for any game (``kit/ui/observation_replay.py``), over every
registered game's golden log: it replays the log with every hash checked, a seat's page
shows only that seat's ``observation`` (unchanged when everything hidden from the seat is
redrawn with ``resample``), another seat's action is never named to a seat, and the
reviewer (全部公开) sees every seat's view and the events. 暗标夺宝, which has no viewer of
its own, logs its page's matches and reviews them here."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from throne_lib.games.goofspiel.ui import GoofApp, GoofLogBrowser
from throne_lib.kit import registry
from throne_lib.kit.log import LogError, log_files, read_log, replay
from throne_lib.kit.ui.observation_replay import ObservationReplay, demo_log

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
GAMES = [g.name for g in registry.games() if g.module.startswith("throne_lib.games.")]


def golden(game: str) -> Path:
    return GOLDEN / game / "random_seed3.jsonl"


@pytest.mark.parametrize("game", GAMES)
def test_the_viewer_replays_any_games_log(game: str) -> None:
    log = read_log(golden(game))
    viewer = ObservationReplay(log, game)
    assert len(viewer.steps) == len(log.records) + 1
    assert viewer.steps[-1][1].hash() == replay(log, check=True).hash()
    viewer.go(len(viewer.steps) - 1)
    assert f"步 {len(viewer.steps) - 1}/" in viewer.title.value
    if viewer.steps[-1][1].is_over:
        assert "对局结束" in viewer.title.value
    other = next(g for g in GAMES if g != game)
    with pytest.raises(LogError, match=f"a {other} log"):
        ObservationReplay(golden(other), game)


@pytest.mark.parametrize("game", GAMES)
def test_a_seats_page_is_its_observation_only(game: str) -> None:
    """At every fourth step, for every seat: the page is the same when both positions it
    reads (this step's and the one before) have everything hidden from the seat redrawn."""
    viewer = ObservationReplay(golden(game), game)
    rng = random.Random(5)
    for index in range(1, len(viewer.steps), 4):
        for seat in range(viewer.num_seats):
            viewer.seat_pick.value = seat
            viewer.go(index)
            viewer.show(index)
            page = (viewer.title.value, viewer.body.value)
            kept = viewer.steps[index - 1 : index + 1]
            viewer.steps[index - 1 : index + 1] = [(rec, m.resample(seat, rng)) for rec, m in kept]
            viewer.show(index)
            assert (viewer.title.value, viewer.body.value) == page, (game, index, seat)
            viewer.steps[index - 1 : index + 1] = kept
            actor = kept[0][1].current_seat
            rec = kept[1][0]
            assert rec is not None
            if actor != seat:  # another seat's action is never named to this one
                assert rec.action not in viewer.said(index)


@pytest.mark.parametrize("game", GAMES)
def test_the_reviewer_sees_every_seat_and_the_events(game: str) -> None:
    viewer = ObservationReplay(golden(game), game, reveal=True)
    assert viewer.seat is None
    index = next(i for i in range(1, len(viewer.steps)) if viewer.steps[i][0].events)  # type: ignore[union-attr]
    viewer.go(index)
    assert viewer.body.value.count("replay-seat-view") == viewer.num_seats
    assert "replay-events" in viewer.body.value
    rec = viewer.steps[index][0]
    assert rec is not None and rec.action in viewer.said(index)
    viewer.seat_pick.value = 0
    assert "replay-events" not in viewer.body.value  # which events a seat saw: the game's


def test_a_secret_bid_stays_hidden_from_the_other_seat() -> None:
    """暗标夺宝 (GS-BID-1): 乙 sees that 甲 bid, not the card, until both have bid."""
    viewer = ObservationReplay(golden("goofspiel"), "goofspiel", seat=1)
    viewer.go(1)  # 甲's first bid
    rec = viewer.steps[1][0]
    assert rec is not None and rec.action.startswith("bid ")
    assert rec.action not in viewer.title.value and "行动" in viewer.title.value
    assert "replay-changed" in viewer.body.value  # what 乙 saw change: a bid was placed


def test_the_goofspiel_page_logs_its_match_and_the_replay_page_opens_it(tmp_path: Path) -> None:
    app = GoofApp(seed=4, cards=4, log_dir=tmp_path)
    assert app.log_path is None  # nothing written before the first bid
    while not app.match.is_over:
        app.bid(app.match.legal_actions()[0])
    assert app.log_path is not None and log_files(tmp_path, "goofspiel") == [app.log_path]
    assert replay(read_log(app.log_path), check=True).hash() == app.match.hash()
    browser = GoofLogBrowser(folder=tmp_path)
    assert browser.replay is not None and browser.error.value == ""
    assert browser.replay.steps[-1][1].hash() == app.match.hash()
    assert app.review.layout.display is None  # 复盘本局, shown once the match is over
    app.review.click()
    assert app.replay is not None and app.replay.seat == 0
    assert app.replay.steps[-1][1].hash() == app.match.hash()
    assert app.replay_box.children == (app.replay.widget,)
    app.new_match(5)
    assert app.replay is None and app.review.layout.display == "none"


def test_an_empty_folder_shows_a_demo_of_the_default_agents(tmp_path: Path) -> None:
    made = demo_log("goofspiel", tmp_path)
    assert made == tmp_path / "goofspiel-demo-seed3.jsonl"
    assert replay(read_log(made), check=True).is_over
    folder = tmp_path / "logs"
    browser = GoofLogBrowser(folder=folder, demo=True)
    assert browser.replay is not None and browser.picker.value == str(
        folder / "goofspiel-demo-seed3.jsonl"
    )
    assert browser.replay.controls.value == 0 and "全部公开" not in browser.replay.title.value
