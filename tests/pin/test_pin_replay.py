"""The PIN replay viewer (``notebooks/pin_replay.ipynb``) and the play page's log, no browser.

The play page writes each match to ``logs/`` from its first action; the viewer replays a
log (every hash checked), steps through it, and shows a side's view — its own hand, the
other as a count, the 战报 lines that side may read — or 全部公开 (PIN-UI; hidden hands as
the play page hides them). Before, PIN matches on the page were not logged and PIN logs
had no page.
"""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.rules import PIN_RULES
from throne_lib.games.pin.ui.app import PinApp
from throne_lib.games.pin.ui.replay import REVEAL, PinLogBrowser, PinReplay, demo_log
from throne_lib.kit.log import LogError, log_files, read_log, replay, write_log


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = demo_log(tmp_path_factory.mktemp("logs"))
    assert isinstance(path, Path)
    return path


def _play_page(app: PinApp, actions: int, seed: int = 5) -> None:
    """The human presses random offered actions; the AI answers (manual mode)."""
    rng = random.Random(seed)
    board = app.board
    assert board is not None
    for _ in range(actions):
        m = board.match
        if m.is_over:
            return
        if m.current_seat == board.human:
            board.ctrl.apply(rng.choice(m.legal_actions()))
        else:
            board._ai_step()


def test_the_play_page_logs_its_match_from_the_first_action(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    app = PinApp(ai_mode="manual", log_dir=folder)
    app.quick.value = True
    app.start.click()
    assert app.log_path is None and not folder.exists()  # opened and left: nothing
    _play_page(app, 400)
    assert app.board is not None and app.board.match.is_over
    assert app.log_path is not None and log_files(folder, "pin") == [app.log_path]
    log = read_log(app.log_path)
    assert len(log.records) == len(app.board.match.history)
    assert replay(log, check=True).hash() == app.board.match.hash()
    assert log.result is not None
    app.start.click()  # the next match gets its own file, again from its first action
    assert app.log_path is None


def test_the_replay_steps_through_the_log(demo: Path) -> None:
    r = PinReplay(demo)
    final = read_log(demo)
    assert len(r.steps) == len(final.records) + 1
    assert r.steps[-1].match.hash() == final.records[-1].hash
    r.controls.buttons["下 ▶"].click()
    r.controls.buttons["下 ▶"].click()
    assert r.index == 2 and "步 2/" in r.title.value
    r.controls.buttons["末 »"].click()
    assert "对局结束" in r.title.value
    turn = r.turns[3]
    r.turn_pick.value = turn
    assert r.index == turn and r.steps[turn].match.state.turn == 3  # setup, turns 1, 2, 3


def test_a_side_sees_its_own_hand_and_lines_only(demo: Path) -> None:
    r = PinReplay(demo, seat=1)
    r.go(len(r.steps) // 2)
    m = r.steps[r.index].match
    own = "、".join(m.db[c].name for c in m.observation(1)["hand"])
    assert own in r.hands.value and "甲方手牌</b>：" in r.hands.value
    assert f"{len(m.state.hands[0])} 张（背面）" in r.hands.value
    private = [
        (i, e["text"]) for i, s in enumerate(r.steps) for e in s.events if e.get("private") == 0
    ]
    assert private  # 甲's draws and secret picks
    shown = "".join(r.log_html_of(i) for i in range(len(r.steps)))
    assert all(text not in shown for i, text in private if text not in r.step_lines(i))
    r.seat_pick.value = REVEAL
    everything = "".join(r.log_html_of(i) for i, _t in private)
    assert all(text in everything for _i, text in private)
    assert r.hands.value.count("class='replay-hand'") == 2


def test_a_sides_view_is_unchanged_when_hidden_state_is_resampled(demo: Path) -> None:
    """What 乙's view shows depends on nothing 乙 cannot see: redraw 甲's hand and both
    decks in every position and the page is the same."""
    r = PinReplay(demo, seat=1)
    every = range(0, len(r.steps), 23)
    pages = []
    for i in every:
        r.go(i)
        pages.append((r.title.value, r.top.value, r.hands.value, r.log_html.value))
    rng = random.Random(3)
    r.steps = [dataclasses.replace(s, match=s.match.resample(1, rng)) for s in r.steps]
    assert any(
        a.match.state.hands[0] != b.match.state.hands[0]
        for a, b in zip(r.steps, PinReplay(demo).steps, strict=True)
    )
    for k, i in enumerate(every):
        r.go(i)
        assert (r.title.value, r.top.value, r.hands.value, r.log_html.value) == pages[k]


def test_the_browser_lists_pin_logs_and_reports_a_bad_one(demo: Path, tmp_path: Path) -> None:
    lines = demo.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[5])
    rec["hash"] = "0" * 16
    bad = tmp_path / "pin-bad.jsonl"
    bad.write_text("\n".join([*lines[:5], json.dumps(rec), *lines[6:]]) + "\n", encoding="utf-8")
    browser = PinLogBrowser(folder=tmp_path)
    assert [o[1] for o in browser.picker.options] == [str(bad)]
    assert "无法打开对局记录" in browser.error.value and "pin-bad.jsonl:6" in browser.error.value
    browser.open_log(str(demo))
    assert browser.error.value == "" and browser.replay is not None
    castle = write_log(CastleMatch(players=4, seed=2), tmp_path / "castle.jsonl")
    assert log_files(tmp_path, "pin") == [bad]  # a castle log is not listed …
    with pytest.raises(LogError, match="not a PIN"):  # … nor opened
        PinReplay(castle)


def test_an_empty_folder_shows_a_demo_match(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    empty = PinLogBrowser(folder=folder)
    assert empty.replay is None and "还没有「PIN 架空战争」的对局记录" in empty.error.value
    browser = PinLogBrowser(folder=folder, demo=True)
    assert browser.replay is not None and browser.replay.steps[-1].match.is_over
    assert browser.picker.value == str(folder / "pin-demo-seed3.jsonl")
    assert isinstance(browser.replay.steps[0].match, PinMatch)
    assert PIN_RULES.round_limit >= browser.replay.steps[-1].match.state.round


def test_the_play_pages_replay_button_opens_the_match_after_the_end(tmp_path: Path) -> None:
    app = PinApp(ai_mode="manual")
    app.quick.value = True
    app.start.click()
    assert app.board is not None
    app.open_replay()  # not over yet: nothing
    assert app.replay is None
    _play_page(app, 400)
    app.board.refresh()  # the page redraws after each action; here once at the end
    assert app.board.match.is_over and app.board.result_box.shown
    button = next(b for b in app.board.result_box.buttons.children if b.description == "复盘")
    button.click()
    assert isinstance(app.replay, PinReplay) and app.replay.seat == 0
    assert app.replay.steps[-1].match.hash() == app.board.match.hash()
    assert app.holder.children == (app.board, app.replay.widget)
