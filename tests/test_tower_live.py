"""The tower page follows cards.csv, relics.csv and events.csv live (R-TOWER-8), as the
play pages follow their tables (tests/kit/test_live_pages.py).

Policy (throne_lib/games/throne/tower/live.py): a broken edit is listed as
``FILE:ROW:COLUMN`` and changes nothing; a valid edit is the next run's table and the run
under way takes it too (it would on resuming anyway: the save keeps ids, not tables),
unless the new table lacks something the run holds: then the run keeps its tables and
the page names what is missing. Before, the page read the three files once per kernel.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.kit.test_live_pages import ROOT
from throne_lib.games.throne.live import CardTableWatcher
from throne_lib.games.throne.tower.live import (
    EventTableWatcher,
    RelicTableWatcher,
    TowerTables,
    missing_from,
)
from throne_lib.games.throne.tower.save import load_run
from throne_lib.games.throne.ui.tower_widget import TowerApp

NAMES = ("cards.csv", "relics.csv", "events.csv")
# a value the parser refuses, in a column of the second line of each table
BREAK = {
    "cards.csv": ("cost", lambda line: line.replace(",general,6,", ",general,x,", 1)),
    "relics.csv": ("price", lambda line: line.replace(",common,120,", ",common,x,", 1)),
    "events.csv": ("option", lambda line: line.replace(",1,花60金币", ",x,花60金币", 1)),
}


@pytest.fixture
def live(tmp_path: Path) -> TowerTables:
    for name in NAMES:
        shutil.copy(ROOT / name, tmp_path / name)
    return TowerTables(
        CardTableWatcher(tmp_path / "cards.csv", settle=0),
        RelicTableWatcher(tmp_path / "relics.csv", settle=0),
        EventTableWatcher(tmp_path / "events.csv", settle=0),
    )


def _app(live: TowerTables, tmp_path: Path) -> TowerApp:
    app = TowerApp(tmp_path / "tower.json", live=live, ai_mode="sync")
    app.start(5, "lionheart", ())
    assert app.run is not None and app.run.screen == "map"
    return app


def _edit(live: TowerTables, name: str, old: str, new: str) -> None:
    watcher = {"cards.csv": live.cards, "relics.csv": live.relics, "events.csv": live.events}[name]
    text = watcher.path.read_text(encoding="utf-8")
    assert old in text
    watcher.path.write_text(text.replace(old, new, 1), encoding="utf-8")
    assert watcher.check()


@pytest.mark.parametrize("name", NAMES)
def test_a_broken_table_is_listed_and_changes_nothing(
    name: str, live: TowerTables, tmp_path: Path
) -> None:
    app = _app(live, tmp_path)
    run = app.run
    assert run is not None
    before = run.tables
    column, breaks = BREAK[name]
    watcher = {"cards.csv": live.cards, "relics.csv": live.relics, "events.csv": live.events}[name]
    lines = watcher.path.read_text(encoding="utf-8").splitlines(keepends=True)
    broken = breaks(lines[1])
    assert broken != lines[1]
    watcher.path.write_text(lines[0] + broken + "".join(lines[2:]), encoding="utf-8")
    assert watcher.check()
    panel = app.table_panel.widget.value
    assert f"{name}:2:{column}:" in panel and "仍使用上一个有效版本" in panel
    assert app.run is run and run.tables is before  # the run goes on on its tables
    app.new_run()
    app.start(6, "lionheart", ())
    assert app.run is not None and app.run.tables == before  # the last valid tables


def test_a_valid_edit_reaches_the_run_under_way_and_its_save(
    live: TowerTables, tmp_path: Path
) -> None:
    app = _app(live, tmp_path)
    run = app.run
    assert run is not None
    run.relics.append("iron_crown")
    _edit(
        live,
        "relics.csv",
        "iron_crown,铁王冠,common,120,max_hp(8)",
        "iron_crown,铁王冠,common,120,max_hp(9)",
    )
    assert run.tables.relics["iron_crown"].value("max_hp") == 9
    assert run.tables.relics.hash == live.relics.db.hash
    assert "本次爬塔从下一步起使用新表" in app.table_panel.widget.value
    saved = load_run(tmp_path / "tower.json", live.current())
    assert saved.relics == run.relics  # saved at once, and it resumes on the new table


def test_a_table_lacking_what_the_run_holds_waits_for_the_next_run(
    live: TowerTables, tmp_path: Path
) -> None:
    app = _app(live, tmp_path)
    run = app.run
    assert run is not None
    run.relics.append("iron_crown")
    before = run.tables
    _edit(live, "relics.csv", "iron_crown,铁王冠", "iron_crown2,铁王冠")
    assert missing_from(run, live.current()) == ["relics.csv: iron_crown"]
    assert run.tables is before  # kept: a run cannot lose a relic it holds
    panel = app.table_panel.widget.value
    assert "relics.csv: iron_crown" in panel and "新的爬塔将使用新表" in panel
    app.new_run()
    app.start(6, "lionheart", ())
    assert app.run is not None and "iron_crown2" in app.run.tables.relics
    assert "已重新载入" not in app.table_panel.widget.value  # old news once a run started


def test_the_start_screen_lists_the_new_tables_generals(live: TowerTables, tmp_path: Path) -> None:
    app = TowerApp(tmp_path / "tower.json", live=live, ai_mode="sync")
    assert app.run is None
    _edit(live, "cards.csv", "lionheart,狮心王,", "lionheart,新狮心王,")
    options = [label for box in app.body.children for label, _ in getattr(box, "options", ())]
    assert any(label.startswith("新狮心王") for label in options)
    assert "新的爬塔将使用新表" in app.table_panel.widget.value
