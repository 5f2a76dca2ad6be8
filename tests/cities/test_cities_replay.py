"""The 城池战 replay viewer (``notebooks/cities_replay.ipynb``), no browser: a log the play
page wrote opens, steps and shows each seat's view or everything (CW-UI-1, CW-UI-2 on the
table; CH-UI-2's hidden hands), the page's 复盘 button opens it after the end, and the
castle and 城池战 pages each list only their own game's logs.

Before, 复盘 on the 城池战 page raised ``a cities log, not a 城堡之心 (castle) log`` into the
kernel's log and showed nothing; 城池战 logs had no page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.castle.test_castle_ui import finish
from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.castle.ui.replay import REVEAL, CastleLogBrowser, CastleReplay
from throne_lib.games.cities.ui.app import CitiesApp
from throne_lib.games.cities.ui.replay import CitiesLogBrowser, CitiesReplay
from throne_lib.games.cities.ui.table import canvas_height
from throne_lib.kit.log import LogError, write_log


@pytest.fixture(scope="module")
def page_log(tmp_path_factory: pytest.TempPathFactory) -> tuple[CitiesApp, Path]:
    """A 3-player match played to the end on the play page, which logged it."""
    folder = tmp_path_factory.mktemp("logs")
    app = CitiesApp(players=3, seed=1, tempo=0, max_rounds=5, log_dir=folder)
    app.reveal_cities()
    finish(app)
    assert app.match.is_over and app.log_path is not None and app.recorder is not None
    app.recorder.close()
    return app, app.log_path


def test_the_page_log_replays_step_by_step(page_log: tuple[CitiesApp, Path]) -> None:
    app, path = page_log
    assert path.name.startswith("cities-")
    r = CitiesReplay(path, seat=0)
    assert len(r.steps) == len(app.match.actions) + 1
    assert r.steps[-1].match.hash() == app.match.hash()
    assert r.canvas.height == canvas_height()  # room for the seats' city stacks
    r.controls.buttons["末 »"].click()
    assert "游戏结束" in r.title.value and "CW-WIN" in r.title.value


def test_a_seat_sees_its_own_hand_and_everything_only_revealed(
    page_log: tuple[CitiesApp, Path],
) -> None:
    _app, path = page_log
    r = CitiesReplay(path, seat=1)
    r.go(len(r.steps) // 2)
    m = r.steps[r.index].match
    assert r.view() == m.observation(1)
    assert r.hands.value.count("replay-hand") == 1 and "1号座位" in r.hands.value
    assert "队伍" in r.hands.value  # a seat's team where the castle shows an identity
    r.seat_pick.value = REVEAL
    assert r.view() == m.reveal_all() | {"seat": None}
    assert r.hands.value.count("replay-hand") == m.num_seats


def test_the_play_pages_replay_button_opens_the_cities_viewer(
    page_log: tuple[CitiesApp, Path],
) -> None:
    app, _path = page_log
    assert not app.replay_btn.disabled
    app.replay_btn.click()
    assert isinstance(app.replay, CitiesReplay) and app.replay.seat == app.human
    assert app.replay.steps[-1].match.hash() == app.match.hash()
    assert app.replay_box.children == (app.replay.widget,)


def test_each_page_lists_its_own_games_logs(
    page_log: tuple[CitiesApp, Path], tmp_path: Path
) -> None:
    _app, path = page_log
    folder = path.parent
    castle = CastleMatch(players=4, seed=2)
    castle_log = write_log(castle, folder / "castle-x.jsonl")
    cities = CitiesLogBrowser(folder=folder)
    assert [o[1] for o in cities.picker.options] == [str(path)]
    assert isinstance(cities.replay, CitiesReplay)
    assert [o[1] for o in CastleLogBrowser(folder=folder).picker.options] == [str(castle_log)]
    with pytest.raises(LogError, match="not a 城池战"):
        CitiesReplay(castle_log)
    with pytest.raises(LogError, match="not a 城堡之心"):
        CastleReplay(path)
    cities.open_log(str(castle_log))  # typed into the path box: an error, the view kept
    assert "无法打开对局记录" in cities.error.value and isinstance(cities.replay, CitiesReplay)


def test_an_empty_folder_shows_a_demo_match(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    empty = CitiesLogBrowser(folder=folder)
    assert empty.replay is None and "还没有「城池战」的对局记录" in empty.error.value
    browser = CitiesLogBrowser(folder=folder, demo=True)
    assert browser.replay is not None and browser.replay.steps[-1].match.is_over
    assert browser.picker.value == str(folder / "cities-demo-seed3.jsonl")


def test_a_seats_view_is_unchanged_when_hidden_state_is_resampled(
    page_log: tuple[CitiesApp, Path],
) -> None:
    """What seat 2's view shows depends on nothing it cannot see: redraw every hidden
    part of every position (other hands, the piles) and the page is the same."""
    import random
    from dataclasses import replace

    _app, path = page_log
    r = CitiesReplay(path, seat=2)
    every = range(0, len(r.steps), 9)
    pages = []
    for i in every:
        r.go(i)
        pages.append((r.view(), r.title.value, r.hands.value, r.log_html.value))
    rng = random.Random(5)
    r.steps = [replace(s, match=s.match.resample(2, rng)) for s in r.steps]
    r._log_cache.clear()
    r._said.clear()
    assert r.steps[-1].match.reveal_all() != CitiesReplay(path).steps[-1].match.reveal_all()
    for k, i in enumerate(every):
        r.go(i)
        assert (r.view(), r.title.value, r.hands.value, r.log_html.value) == pages[k]
