"""The castle dashboard follows cards-castle.csv live (kit TableWatcher), no browser.

A broken row: the panel names file, row, column and what was expected; the table in
force and the running match are untouched. A fixed row reloads: the next match uses the
new table, the running match keeps its own. Logs written by the dashboard carry the
table, so they replay after the file changed again (CH-DECK-1, CH-UI-2).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.castle.test_castle_ui import finish
from throne_lib.games.castle.cards import DEFAULT_PATH, CardTableError
from throne_lib.games.castle.live import CastleTableWatcher
from throne_lib.games.castle.ui.app import CastleApp
from throne_lib.kit.log import read_log, replay

HERO_ROW = "tang_na,唐纳,咆哮之熊,hero,5,"
LINE = 6  # the file line of tang_na (header = line 1)


@pytest.fixture
def table(tmp_path: Path) -> Path:
    p = tmp_path / "cards-castle.csv"
    shutil.copy(DEFAULT_PATH, p)
    assert p.read_text(encoding="utf-8").splitlines()[LINE - 1].startswith(HERO_ROW)
    return p


def edit(path: Path, new_row_start: str) -> None:
    text = path.read_text(encoding="utf-8")
    current = next(
        line for line in text.splitlines() if line.startswith("tang_na,")
    )  # the row as it is now
    head = ",".join(current.split(",")[:5]) + ","
    path.write_text(text.replace(head, new_row_start, 1), encoding="utf-8")


def test_broken_row_is_listed_and_nothing_changes(table: Path, tmp_path: Path) -> None:
    watcher = CastleTableWatcher(table, settle=0)
    app = CastleApp(players=4, seed=3, tempo=0, watcher=watcher, log_dir=tmp_path / "logs")
    for _ in range(12):  # into the match a little
        if app.my_turn():
            app.press(app.legal()[0])
        else:
            app.ai_step()
    cards, before = app.cards, app.match.hash()
    actions = len(app.match.actions)
    edit(table, "tang_na,唐纳,咆哮之熊,hero,x,")
    assert watcher.check()
    panel = app.table_panel.value
    assert "cards-castle.csv:6:hp: expected a whole number 0..99, got &#x27;x&#x27;" in panel
    assert "仍使用上一个有效版本" in panel
    assert app.cards is cards and watcher.db is cards
    assert app.match.hash() == before and len(app.match.actions) == actions
    assert app.match.state.cards is cards
    app.run_ai()  # the running match goes on with its table
    app.new_match()  # and a new one starts from the last valid table
    assert app.match.state.cards is cards


def test_fixed_row_reloads_for_the_next_match(table: Path, tmp_path: Path) -> None:
    watcher = CastleTableWatcher(table, settle=0)
    app = CastleApp(players=4, seed=3, tempo=0, watcher=watcher, log_dir=tmp_path / "logs")
    old = app.cards
    edit(table, "tang_na,唐纳,咆哮之熊,hero,x,")
    watcher.check()
    assert "有错误" in app.table_panel.value
    edit(table, "tang_na,唐纳,咆哮之熊,hero,6,")  # fixed, and the hero made stronger
    assert watcher.check()
    assert "已重新载入" in app.table_panel.value and "有错误" not in app.table_panel.value
    assert "当前对局继续使用开局时的卡牌表" in app.table_panel.value
    assert app.cards["tang_na"].hp == 6 and app.cards.hash == watcher.db.hash
    assert app.match.state.cards is old and old["tang_na"].hp == 5
    app.new_match()
    assert app.match.state.cards["tang_na"].hp == 6
    assert app.match.options["cards_csv"] == app.cards.source


def test_broken_table_at_start_raises_with_the_row(table: Path) -> None:
    edit(table, "tang_na,唐纳,咆哮之熊,hero,-2,")
    with pytest.raises(CardTableError) as err:
        CastleTableWatcher(table)
    assert "cards-castle.csv:6:hp:" in str(err.value)


def test_dashboard_log_replays_with_its_own_table(table: Path, tmp_path: Path) -> None:
    """A match played on an edited table is logged with that table: it replays with
    identical hashes although the file has changed again since."""
    watcher = CastleTableWatcher(table, settle=0)
    edit(table, "tang_na,唐纳,咆哮之熊,hero,7,")
    watcher.check()
    app = CastleApp(
        players=4, seed=8, tempo=0, watcher=watcher, log_dir=tmp_path / "logs", max_rounds=4
    )
    assert app.match.state.cards["tang_na"].hp == 7
    finish(app)
    assert app.match.is_over and app.log_path is not None
    assert app.recorder is not None
    app.recorder.close()
    edit(table, "tang_na,唐纳,咆哮之熊,hero,5,")
    log = read_log(app.log_path)
    assert log.game == "castle" and len(log.records) == len(app.match.actions)
    assert replay(log, check=True).hash() == app.match.hash()


def test_a_log_is_written_from_the_first_action_on(tmp_path: Path) -> None:
    """Opening the page writes nothing; the first action opens the match's log."""
    logs = tmp_path / "logs"
    app = CastleApp(players=4, seed=3, tempo=0, log_dir=logs)
    assert app.log_path is None and not logs.exists()
    if app.my_turn():
        app.press(app.legal()[0])
    else:
        app.run_ai()
    assert app.log_path is not None and app.log_path.parent == logs
    app.new_match()  # the next match gets its own file, again from its first action
    assert app.log_path is None
