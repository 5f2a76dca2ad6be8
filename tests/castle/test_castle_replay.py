"""The 城堡之心 replay viewer (kit log format), driven through its methods, no browser.

Stepping, jumping to a turn, the seat whose view is shown: a seat's view is exactly
its ``observation(seat)`` (hidden information hidden: other seats' hands, identities,
private 战报 lines and the decisions that would tell them), 全部公开 is the reviewer's
``reveal_all()`` (CH-UI-2, CH-UI-5). Bad logs give FILE:LINE errors.
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from throne_lib.games.castle.agents import ScriptedAgent, play_match
from throne_lib.games.castle.match import CastleMatch
from throne_lib.games.castle.rules import ROLE_ZH
from throne_lib.games.castle.ui.app import CastleApp
from throne_lib.games.castle.ui.replay import (
    REVEAL,
    CastleLogBrowser,
    CastleReplay,
)
from throne_lib.kit.log import LogError, log_files, match_log, write_log


@pytest.fixture(scope="module")
def played() -> CastleMatch:
    m = CastleMatch(players=5, seed=3)
    play_match(m, [ScriptedAgent(3, s) for s in range(5)])
    assert m.is_over
    return m


@pytest.fixture(scope="module")
def log_path(played: CastleMatch, tmp_path_factory: pytest.TempPathFactory) -> Path:
    p = tmp_path_factory.mktemp("logs") / "castle-seed3.jsonl"
    write_log(played, p)
    return p


def test_steps_forward_back_and_last_match_the_log(played: CastleMatch, log_path: Path) -> None:
    r = CastleReplay(log_path, seat=0)
    assert len(r.steps) == len(played.actions) + 1
    assert r.steps[-1].match.hash() == played.hash()
    r.controls.buttons["下 ▶"].click()
    r.controls.buttons["下 ▶"].click()
    assert r.index == 2 and "步 2/" in r.title.value
    r.controls.buttons["◀ 上"].click()
    assert r.index == 1
    r.controls.buttons["末 »"].click()
    assert r.index == len(played.actions) and "游戏结束" in r.title.value
    r.controls.buttons["◀ 上"].click()
    assert "游戏结束" not in r.title.value
    r.controls.buttons["« 首"].click()
    assert r.index == 0 and "开局" in r.title.value
    r.go(10**6)  # clamped
    assert r.index == len(r.steps) - 1
    # Each step's position is the replayed one: the state after action i.
    m = CastleMatch(players=5, seed=3)
    for a in played.actions[:17]:
        m.apply(a)
    assert r.steps[17].match.hash() == m.hash()


def test_jump_to_turn_and_turn_by_turn(log_path: Path) -> None:
    r = CastleReplay(log_path)
    assert len(r.turns) > 3
    r.jump_to_turn(3)
    s = r.steps[r.index]
    assert s.turn_no == 3 and r.steps[r.index - 1].turn_no == 2
    assert "第3回合" in r.title.value and r.turn_pick.value == r.index
    r.step_turn(+1)
    assert r.steps[r.index].turn_no == 4 and r.steps[r.index - 1].turn_no == 3
    r.step_turn(-1)
    assert r.steps[r.index].turn_no == 3
    r.turn_pick.value = r.turns[-1]  # the dropdown jumps too
    assert r.index == r.turns[-1]
    r.go(r.turns[1] + 1)  # inside turn 2: the dropdown follows without jumping back
    assert r.turn_pick.value == r.turns[1] and r.index == r.turns[1] + 1


def test_seat_view_is_that_seats_observation(played: CastleMatch, log_path: Path) -> None:
    r = CastleReplay(log_path, seat=1)
    r.go(40)
    m = r.steps[40].match
    assert r.view() == m.observation(1)
    assert r.seat_pick.value == 1
    mine = "、".join(m.state.cards[c].name for c in m.state.players[1].hand)
    assert mine in r.hands.value
    hidden = [p for p in m.state.players if p.seat != 1 and not p.revealed and p.role != "lord"]
    assert hidden  # someone's identity is hidden from seat 1 at this point
    assert all(f"{p.seat}号座位 " not in r.hands.value for p in hidden)
    r.seat_pick.value = REVEAL
    assert r.view() == m.reveal_all() | {"seat": None}
    assert "全部公开" in r.title.value
    for p in m.state.players:
        names = "、".join(m.state.cards[c].name for c in p.hand) or "（无手牌）"
        assert f"（{ROLE_ZH[p.role]}）" in r.hands.value
        assert names in r.hands.value


def test_seat_view_hides_private_lines_and_others_decisions(log_path: Path) -> None:
    """Another seat's drawn cards stay a count in seat 2's 战报, and another seat's
    decision is named only by the lines seat 2 reads; 全部公开 shows everything."""
    r = CastleReplay(log_path, seat=2)
    final = r.steps[-1].match.state
    own = set(r.steps[-1].match.log_lines(2))  # e.g. its own "你的身份：敌军"
    private = [e for e in final.log if e.private_to not in (-1, 2) and e.private_text not in own]
    assert private
    r.seat_pick.value = REVEAL
    shown_all = "".join(r.log_html_of(i) for i in range(len(r.steps)))
    r.seat_pick.value = 2
    shown_seat = "".join(r.log_html_of(i) for i in range(len(r.steps)))
    for e in private:
        assert e.private_text in shown_all and e.private_text not in shown_seat
    others = [i for i in range(1, len(r.steps)) if r.actor(i) != 2]
    mine = [i for i in range(1, len(r.steps)) if r.actor(i) == 2]
    assert others and mine
    seat_lines = set().union(*(r.step_lines(i) for i in others))
    assert all(r.said(i) in seat_lines or r.said(i).startswith("（其他座位") for i in others)
    before = r.steps[mine[0] - 1].match
    assert r.said(mine[0]) == before.describe(before.parse(r.steps[mine[0]].action))


def test_seat_view_is_unchanged_when_hidden_state_is_resampled(log_path: Path) -> None:
    """What a seat's view shows depends on nothing it cannot see: redraw every hidden
    part of every position (identities, other hands, deck) and the page is the same."""
    seat = 3
    r = CastleReplay(log_path, seat=seat)
    pages = []
    for i in range(0, len(r.steps), 7):
        r.go(i)
        pages.append((r.view(), r.title.value, r.hands.value, r.log_html.value))
    rng = random.Random(11)
    r.steps = [replace(s, match=s.match.resample(seat, rng)) for s in r.steps]
    r._log_cache.clear()
    r._said.clear()
    assert r.steps[-1].match.reveal_all() != CastleReplay(log_path).steps[-1].match.reveal_all()
    for k, i in enumerate(range(0, len(r.steps), 7)):
        r.go(i)
        assert (r.view(), r.title.value, r.hands.value, r.log_html.value) == pages[k]


def test_bad_logs_are_reported_not_shown(log_path: Path, tmp_path: Path) -> None:
    lines = log_path.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[5])
    rec["hash"] = "0" * 16
    bad = tmp_path / "castle-bad.jsonl"
    bad.write_text("\n".join([*lines[:5], json.dumps(rec), *lines[6:]]) + "\n", encoding="utf-8")
    with pytest.raises(LogError) as err:
        CastleReplay(bad)
    assert err.value.line == 6 and "state hash mismatch" in str(err.value)
    browser = CastleLogBrowser(folder=tmp_path)
    assert log_files(tmp_path, "castle") == [bad]
    assert "无法打开对局记录" in browser.error.value and "castle-bad.jsonl:6" in browser.error.value
    assert browser.replay is None
    browser.open_log(str(log_path))
    assert browser.error.value == "" and browser.replay is not None
    throne = tmp_path / "throne.jsonl"
    throne.write_text(
        json.dumps({"format": "throne-log", "version": 1, "game": "throne"}) + "\n",
        encoding="utf-8",
    )
    assert log_files(tmp_path, "castle") == [bad]


def test_dashboard_replay_after_the_end(tmp_path: Path) -> None:
    """The play dashboard records its match and opens the viewer on it after the end."""
    from tests.castle.test_castle_ui import finish

    app = CastleApp(players=4, seed=5, tempo=0, max_rounds=6, log_dir=tmp_path)
    assert app.replay_btn.disabled
    finish(app)
    assert not app.replay_btn.disabled
    app.replay_btn.click()
    assert app.replay is not None and app.replay.seat == app.human
    assert app.replay.steps[-1].match.hash() == app.match.hash()
    assert app.replay_box.children == (app.replay.widget,)
    assert app.log_path is not None and log_files(tmp_path, "castle") == [app.log_path]
    r = CastleReplay(app.log_path)
    assert r.steps[-1].match.hash() == app.match.hash()
    assert match_log(app.match).records[-1].hash == app.match.hash()


def test_browser_shows_a_demo_match_when_the_folder_has_no_castle_log(tmp_path: Path) -> None:
    folder = tmp_path / "logs"
    empty = CastleLogBrowser(folder=folder)
    assert empty.replay is None and "还没有「城堡之心」的对局记录" in empty.error.value
    browser = CastleLogBrowser(folder=folder, demo=True)
    assert log_files(folder, "castle") == [folder / "castle-demo-seed3.jsonl"]
    assert browser.replay is not None and browser.replay.steps[-1].match.is_over
    assert browser.picker.value == str(folder / "castle-demo-seed3.jsonl")


def test_opening_the_same_log_again_keeps_the_step(tmp_path: Path) -> None:
    """Issue 36, item 7, on the castle's replay page."""
    from throne_lib.games.castle.ui.replay import CastleLogBrowser

    browser = CastleLogBrowser(folder=tmp_path, demo=True)  # writes the demo log there
    assert browser.replay is not None
    path = str(browser.picker.value)
    old = browser.replay
    old.controls.go(5)
    browser.open_log(path)
    assert browser.replay is not old and browser.replay.controls.value == 5
    old.controls.buttons["下 ▶"].click()
    assert browser.replay.controls.value == 6
