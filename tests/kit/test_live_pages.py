"""Every game's play page follows its card tables live, no browser (CH-UI-2, CW-UI-1).

For every registered game with a card table and every table its play page follows: a
broken edit is listed in the page's panel as ``FILE:ROW:COLUMN``, the running match is
untouched and a new match starts on the last valid table; a valid edit is the table the
next match plays on. 城池战 follows two files (``cities.csv`` and the 城堡之心 cards):
fixing one never hides the other's problems.

Before, the PIN page read ``cards-pin.csv`` at each 开始对局 and a broken row made the
button do nothing at all (the error went to the kernel's log), and the 城池战 page read
both tables once per kernel: an edit reached it only after a restart.
"""

from __future__ import annotations

import csv
import io
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from throne_lib.kit import registry
from throne_lib.kit.live import TableWatcher
from throne_lib.kit.log import read_log, replay, write_log

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Page:
    """A game's play page on watched copies of its tables, seen the same way for all."""

    app: Any
    panel: Callable[[], str]  # the live-table panel's HTML
    new_match: Callable[[], None]  # the page's 新对局 / 开始对局
    match: Callable[[], Any]  # the match on the page
    table_hash: Callable[[Any, str], str]  # (match, file name) -> hash of its table


def _throne(w: dict[str, TableWatcher]) -> Page:
    from throne_lib.games.throne.ui.app import PlayApp

    app = PlayApp(ai_mode="manual", rules="quick", watcher=w["cards.csv"])
    app.start(7)
    return Page(
        app,
        lambda: app.table_panel.value,
        lambda: app.start(8),
        lambda: app.match_widget.match,
        lambda m, _name: m.db.hash,
    )


def _castle(w: dict[str, TableWatcher]) -> Page:
    from throne_lib.games.castle.ui.app import CastleApp

    app = CastleApp(players=4, seed=3, tempo=0, watcher=w["cards-castle.csv"])
    return Page(
        app,
        lambda: app.table_panel.value,
        app.new_match,
        lambda: app.match,
        lambda m, _name: m.state.cards.hash,
    )


def _pin(w: dict[str, TableWatcher]) -> Page:
    from throne_lib.games.pin.ui.app import PinApp

    app = PinApp(ai_mode="manual", watcher=w["cards-pin.csv"])
    app.begin()
    return Page(
        app,
        lambda: app.tables.widget.value,
        app.begin,
        lambda: app.board.match,
        lambda m, _name: m.db.hash,
    )


def _cities(w: dict[str, TableWatcher]) -> Page:
    from throne_lib.games.cities.engine import war_of
    from throne_lib.games.cities.ui.app import CitiesApp

    app = CitiesApp(
        players=3, seed=1, tempo=0, city_watcher=w["cities.csv"], watcher=w["cards-castle.csv"]
    )

    def table_hash(m: Any, name: str) -> str:
        return str(war_of(m.state).table.hash if name == "cities.csv" else m.state.cards.hash)

    return Page(app, lambda: app.table_panel.value, app.new_match, lambda: app.match, table_hash)


def _watchers() -> dict[str, Callable[[Path], TableWatcher]]:
    from throne_lib.games.castle.live import CastleTableWatcher
    from throne_lib.games.cities.live import CityTableWatcher
    from throne_lib.games.pin.live import PinTableWatcher
    from throne_lib.games.throne.live import CardTableWatcher

    return {
        "cards.csv": lambda p: CardTableWatcher(p, settle=0),
        "cards-castle.csv": lambda p: CastleTableWatcher(p, settle=0),
        "cards-pin.csv": lambda p: PinTableWatcher(p, settle=0),
        "cities.csv": lambda p: CityTableWatcher(p, settle=0),
    }


# game -> (its play page, the tables it follows)
PAGES: dict[str, tuple[Callable[[dict[str, TableWatcher]], Page], tuple[str, ...]]] = {
    "throne": (_throne, ("cards.csv",)),
    "castle": (_castle, ("cards-castle.csv",)),
    "pin": (_pin, ("cards-pin.csv",)),
    "cities": (_cities, ("cities.csv", "cards-castle.csv")),
}
# a table -> the numeric column edited: on the first row where the test says so
COLUMNS: dict[str, tuple[str, Callable[[dict[str, str]], bool]]] = {
    "cards.csv": ("cost", lambda r: r["kind"] == "general"),
    "cards-castle.csv": ("hp", lambda r: r["kind"] == "hero"),
    "cards-pin.csv": ("hp", lambda r: r["kind"] == "单位"),
    "cities.csv": ("ai_weight", lambda r: True),
}


def _edit(
    text: str, column: str, when: Callable[[dict[str, str]], bool], value: str
) -> tuple[str, int]:
    """``text`` with ``column`` of the first row ``when`` accepts set to ``value`` (with
    ``{n}`` the old number), and that row's line in the file."""
    reader = csv.DictReader(io.StringIO(text))
    rows = list(reader)
    fields = list(rows[0])
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=fields, lineterminator="\n")
    writer.writeheader()
    line = 0
    for row in rows:
        if not line and row[column].isdigit() and when(row):
            row[column] = value.format(n=int(row[column]) + 1)
            writer.writerow(row)
            line = out.getvalue().count("\n")  # rows of one line each in these tables
        else:
            writer.writerow(row)
    assert line, f"no row to edit in {column}"
    return out.getvalue(), line


def test_every_game_with_a_table_has_its_page_here() -> None:
    """A game registered with a card table must show here that its page follows it."""
    with_tables = {g.name: g.card_tables[0].name for g in registry.games() if g.card_tables}
    assert set(with_tables) <= set(PAGES)
    for game, main in with_tables.items():
        assert main in PAGES[game][1], f"{game}'s page does not follow {main}"


# tables a game registers that a page other than its play page follows
ELSEWHERE = {"relics.csv": "tests/test_tower_live.py", "events.csv": "tests/test_tower_live.py"}


def test_every_registered_table_is_followed_by_a_page() -> None:
    followed = {n for _page, names in PAGES.values() for n in names} | set(ELSEWHERE)
    for game in registry.games():
        for table in game.card_tables:
            assert table.name in followed, f"no page follows {game.name}'s {table.name}"


@pytest.fixture
def copies(tmp_path: Path) -> Callable[[tuple[str, ...]], dict[str, TableWatcher]]:
    def make(names: tuple[str, ...]) -> dict[str, TableWatcher]:
        makers = _watchers()
        for name in names:
            shutil.copy(ROOT / name, tmp_path / name)
        return {name: makers[name](tmp_path / name) for name in names}

    return make


@pytest.mark.parametrize(
    ("game", "name"), [(g, n) for g, (_page, names) in sorted(PAGES.items()) for n in names]
)
def test_a_page_lists_a_broken_table_and_plays_on_the_last_valid_one(
    game: str, name: str, copies: Any
) -> None:
    make, names = PAGES[game]
    watchers = copies(names)
    page = make(watchers)
    match = page.match()
    before, kept = match.hash(), page.table_hash(match, name)
    path = watchers[name].path
    column, when = COLUMNS[name]
    broken, line = _edit(path.read_text(encoding="utf-8"), column, when, "x")
    path.write_text(broken, encoding="utf-8")
    assert watchers[name].check()
    panel = page.panel()
    assert f"{name}:{line}:{column}:" in panel, panel
    assert "仍使用上一个有效版本" in panel
    assert page.match() is match and match.hash() == before  # the running match untouched
    page.new_match()
    assert page.match() is not match
    assert page.table_hash(page.match(), name) == kept  # a new match: the last valid table


@pytest.mark.parametrize(
    ("game", "name"), [(g, n) for g, (_page, names) in sorted(PAGES.items()) for n in names]
)
def test_a_valid_edit_is_the_table_of_the_next_match(
    game: str, name: str, copies: Any, tmp_path: Path
) -> None:
    make, names = PAGES[game]
    watchers = copies(names)
    page = make(watchers)
    old = page.table_hash(page.match(), name)
    path = watchers[name].path
    column, when = COLUMNS[name]
    edited, _line = _edit(path.read_text(encoding="utf-8"), column, when, "{n}")
    path.write_text(edited, encoding="utf-8")
    assert watchers[name].check()
    assert "有错误" not in page.panel()
    page.new_match()
    new = page.table_hash(page.match(), name)
    assert new == watchers[name].db.hash != old
    # its log rebuilds it on that table (the header carries a table not the repository's)
    again = replay(read_log(write_log(page.match(), tmp_path / "m.jsonl")), check=True)
    assert page.table_hash(again, name) == new


def test_cities_page_lists_both_tables_problems_until_each_is_fixed(copies: Any) -> None:
    watchers = copies(PAGES["cities"][1])
    page = _cities(watchers)
    texts = {n: w.path.read_text(encoding="utf-8") for n, w in watchers.items()}
    for name, w in watchers.items():
        column, when = COLUMNS[name]
        w.path.write_text(_edit(texts[name], column, when, "x")[0], encoding="utf-8")
        w.check()
    assert page.panel().count("有错误") == 2
    watchers["cities.csv"].path.write_text(texts["cities.csv"], encoding="utf-8")
    watchers["cities.csv"].check()
    panel = page.panel()
    assert panel.count("有错误") == 1 and "cards-castle.csv 有错误" in panel


def test_pin_page_without_a_watcher_says_why_no_match_starts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each 开始对局 reads ``cards-pin.csv`` as it is: a broken row is listed on the page
    (before, the click did nothing and the error went to the kernel's log)."""
    import throne_lib.games.pin.cards as pin_cards
    from throne_lib.games.pin.ui.app import PinApp

    path = tmp_path / "cards-pin.csv"
    column, when = COLUMNS["cards-pin.csv"]
    text = (ROOT / "cards-pin.csv").read_text(encoding="utf-8")
    broken, line = _edit(text, column, when, "x")
    path.write_text(broken, encoding="utf-8")
    monkeypatch.setattr(pin_cards, "DEFAULT_PATH", path)
    app = PinApp(ai_mode="manual")
    app.start.click()
    assert app.board is None and not app.holder.children
    assert f"cards-pin.csv:{line}:{column}:" in app.tables.widget.value
    path.write_text(text, encoding="utf-8")  # fixed: the next click starts the match
    app.start.click()
    assert app.board is not None and "有错误" not in app.tables.widget.value


@pytest.mark.parametrize("game", ["castle", "cities"])
def test_a_logging_page_embeds_the_tables_it_follows(game: str, copies: Any) -> None:
    """The 城堡之心 and 城池战 pages log their matches (``log_dir``): the header carries
    every table the page follows, even one equal to the repository's, since the file may
    change before the log is read."""
    make, names = PAGES[game]
    page = make(copies(names))
    keys = {"cards-castle.csv": "cards_csv", "cities.csv": "cities_csv"}
    for name in names:
        assert page.match().options[keys[name]] == (ROOT / name).read_text(encoding="utf-8")
