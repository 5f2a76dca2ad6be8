"""The play dashboard follows cards.csv live: a valid edit swaps into the running
match (and new matches), a broken edit keeps the old table and lists every problem."""

from __future__ import annotations

import shutil
from pathlib import Path

from throne_lib.games.throne.cards import DEFAULT_PATH
from throne_lib.games.throne.live import CardTableWatcher
from throne_lib.games.throne.ui.app import PlayApp


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_play_app_hot_swaps_a_valid_edit_and_survives_a_broken_one(tmp_path: Path) -> None:
    table = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, table)
    watcher = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    app = PlayApp(ai_mode="manual", rules="quick", watcher=watcher)
    widget = app.start(7)
    assert widget is not None
    match = widget.match
    old_cost = match.db["holy_light"].cost
    # a valid edit: 圣光术 costs one more
    row = next(
        line
        for line in table.read_text(encoding="utf-8").splitlines()
        if line.startswith("holy_light,")
    )
    fields = row.split(",")
    fields[4] = str(old_cost + 1)
    _edit(table, row, ",".join(fields))
    assert watcher.check()
    assert app.db["holy_light"].cost == old_cost + 1  # new matches use the new table
    assert match.db["holy_light"].cost == old_cost + 1  # the running match swapped it
    assert len(match.swaps) == 1
    assert "卡牌表已更新" in app.table_panel.value and "holy_light" in app.table_panel.value
    # a broken edit: the last valid table stays in force, the problems are listed
    _edit(table, ",".join(fields), ",".join(fields).replace(f",{old_cost + 1},", ",lots,", 1))
    watcher.check()
    assert "cards.csv:" in app.table_panel.value and ":cost:" in app.table_panel.value
    assert match.db["holy_light"].cost == old_cost + 1 and not match.is_over
    match.apply(match.legal_actions()[0])  # the match goes on
