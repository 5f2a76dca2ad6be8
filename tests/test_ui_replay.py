"""The replay viewer, driven without a browser: buttons, slider, jump to round."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.review import round_axes
from throne_lib.games.throne.ui.replay import LogBrowser, ReplayWidget, load_steps
from throne_lib.kit.agents import RandomAgent, play_match
from throne_lib.kit.log import write_log


@pytest.fixture(scope="module")
def log_path(tmp_path_factory: pytest.TempPathFactory, db: CardDB) -> Path:
    m = Match.new(db, signature_deck(db, "goblin"), signature_deck(db, "undead"), seed=5)
    play_match(m, RandomAgent(3), RandomAgent(4))
    return write_log(m, tmp_path_factory.mktemp("replay") / "20261129-000000-seed5.jsonl")


@pytest.fixture(scope="module")
def widget(log_path: Path) -> ReplayWidget:
    w = ReplayWidget(log_path, charts=False)
    w._on_client_ready()  # as if a browser had connected
    return w


def test_steps_cover_setup_and_every_action(log_path: Path, widget: ReplayWidget) -> None:
    assert widget.steps[0].index == 0
    assert [s.index for s in widget.steps[1:]] == list(range(1, len(widget.steps)))
    assert widget.slider.max == len(widget.steps) - 1
    assert widget.steps[-1].match.is_over


def test_buttons_and_slider_change_the_drawn_board(widget: ReplayWidget) -> None:
    widget.go(0)
    draws = widget.draws
    widget.buttons["末 »"].click()
    assert widget.step == len(widget.steps) - 1
    last_ops = widget.ops_for(widget.step)
    widget.buttons["« 首"].click()
    assert widget.step == 0
    first_ops = widget.ops_for(widget.step)
    assert first_ops[0] != last_ops[0]  # the units layer differs between start and end
    widget.buttons["下 ▶"].click()
    assert widget.step == 1
    widget.buttons["◀ 上"].click()
    assert widget.step == 0
    widget.slider.value = 40
    assert widget.step == 40 and widget.draws > draws
    assert "#40" in widget.log_html.value and "fff3c4" in widget.log_html.value
    # the current step is the 4th entry of the 战报 box: in view without scrolling
    before_current = widget.log_html.value.split("fff3c4")[0]
    assert before_current.count("<b>#") == 3 and "<b>#37</b>" in before_current


def test_board_state_follows_the_step(widget: ReplayWidget) -> None:
    """The renderer's input is the replayed match at that step."""
    for i in (10, 100, len(widget.steps) - 1):
        widget.go(i)
        s = widget.steps[widget.step]
        assert s.index == i
        hp = (s.match.throne_hp(0), s.match.throne_hp(1))
        assert f"蓝 {hp[0]} / 红 {hp[1]}" in widget.title.value


def test_jump_to_round_lands_on_its_first_action(widget: ReplayWidget) -> None:
    widget.jump_to_round(5)
    s = widget.steps[widget.step]
    assert s.round == 5
    before = widget.steps[widget.step - 1]
    assert before.round < 5  # nothing of round 5 comes earlier


def test_load_steps_flashes_the_acting_cell(widget: ReplayWidget) -> None:
    attacks = [s for s in widget.steps if s.action.startswith("attack")]
    assert attacks
    s = attacks[0]
    src, dst = s.action.split()[1:3]
    names = {s.match.geo.name(c) for c in s.flash}
    assert {src, dst} <= names


def test_log_browser_reports_a_corrupt_log_with_its_line(tmp_path: Path, log_path: Path) -> None:
    lines = log_path.read_text(encoding="utf-8").splitlines()
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines[:5]) + "\n{oops\n", encoding="utf-8")
    browser = LogBrowser(folder=tmp_path)
    browser.open_log(str(bad))
    assert "bad.jsonl:6" in browser.error.value
    browser.open_log(str(log_path))
    assert browser.error.value == "" and browser.replay is not None


def test_load_steps_checks_hashes(log_path: Path) -> None:
    from throne_lib.kit.log import LogError, read_log

    lf = read_log(log_path)
    rec = lf.records[3]
    object.__setattr__(rec, "hash", "0" * 16)
    with pytest.raises(LogError, match=":5:"):
        load_steps(lf)


def test_header_reads_the_step_in_the_battle_log_words(widget: ReplayWidget) -> None:
    """Issue 17: the header says what happened in Chinese (not 「attack f3 f2」) and
    whose hand the board shows."""
    step = next(s for s in widget.steps if s.action.startswith("attack"))
    widget.go(step.index)
    assert "attack" not in widget.title.value and " 攻击" in widget.title.value
    assert "下方手牌：" in widget.title.value


def test_charts_mark_the_current_round_with_whole_round_ticks(log_path: Path) -> None:
    """Issue 17 item 11: the charts under the replay mark the round on screen (redrawn
    when the round changes) and their round axes tick whole rounds only."""
    w = ReplayWidget(log_path, charts=True)
    assert w.chart_round == 1 and w.chart.value  # 开局 shows round 1
    first_png = w.chart.value
    w.jump_to_round(3)
    assert w.steps[w.step].round == 3 and w.chart_round == 3
    assert all(list(line.get_xdata()) == [3, 3] for line in w._round_lines)
    assert w.chart.value != first_png
    for ax in round_axes(w._fig):
        ticks = [t for t in ax.get_xticks() if ax.get_xlim()[0] <= t <= ax.get_xlim()[1]]
        assert ticks and all(float(t).is_integer() for t in ticks)


def test_log_browser_lists_only_throne_logs(tmp_path: Path, log_path: Path) -> None:
    """The castle replay page writes its demo match into the shared logs/ folder: the
    Throne replay page opened it as its newest log and showed an AttributeError panel
    instead of the board (issue 17 item 11)."""
    from throne_lib.games.castle.ui.replay import demo_log
    from throne_lib.kit.log import LogError, read_log

    mine = tmp_path / "2026-01-01-throne.jsonl"
    shutil.copy(log_path, mine)
    castle = tmp_path / "castle-demo-seed3.jsonl"  # sorts after mine: newest first
    castle.write_text(
        json.dumps({"format": "throne-log", "version": 1, "game": "castle"}) + "\n",
        encoding="utf-8",
    )
    browser = LogBrowser(folder=tmp_path)
    assert [label for label, _ in browser.picker.options] == [mine.name]
    assert browser.error.value == "" and browser.replay is not None
    made = demo_log(tmp_path, seed=3)
    assert made == castle
    with pytest.raises(LogError, match="not a 王座与方阵"):
        load_steps(read_log(castle))
    browser.open_log(str(castle))
    assert "无法打开对局记录" in browser.error.value and "castle" in browser.error.value


def test_opening_the_same_log_again_keeps_the_step_and_late_clicks(
    tmp_path: Path, log_path: Path
) -> None:
    """Issue 36, item 7: 打开 on the log shown keeps its step; a click that reached the
    old view while the log loaded moves the new one."""
    browser = LogBrowser(folder=tmp_path, extra=[log_path])
    old = browser.replay
    assert old is not None
    old.go(7)
    browser.open_log(str(log_path))
    new = browser.replay
    assert new is not old and new.step == 7 and not browser.open_button.disabled
    old.stepper.buttons["下 ▶"].click()  # queued on the old view during the reload
    assert new.step == 8
