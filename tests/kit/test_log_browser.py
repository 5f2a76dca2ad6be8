"""The replay pages' log browser (``kit/ui/log_browser.py``), once over every game with
a replay page: it lists that game's logs only, a bad log shows its ``FILE:LINE`` and keeps
the replay on the page, the same log opened again keeps its step (and a click on the old
view while it loads moves the new one), an empty folder says how to make a log."""

from __future__ import annotations

import importlib
import shutil
from pathlib import Path

import pytest

from throne_lib.kit import registry
from throne_lib.kit.ui.log_browser import LogBrowser

GOLDEN = Path(__file__).resolve().parents[1] / "golden"

# each replay page's browser ("module:class"); a game given a replay page must be added
BROWSERS = {
    "throne": "throne_lib.games.throne.ui.replay:LogBrowser",
    "castle": "throne_lib.games.castle.ui.replay:CastleLogBrowser",
    "cities": "throne_lib.games.cities.ui.replay:CitiesLogBrowser",
    "pin": "throne_lib.games.pin.ui.replay:PinLogBrowser",
    "goofspiel": "throne_lib.games.goofspiel.ui:GoofLogBrowser",  # the kit's viewer
}


def browser_class(game: str) -> type[LogBrowser]:
    module, name = BROWSERS[game].split(":")
    cls = getattr(importlib.import_module(module), name)
    assert issubclass(cls, LogBrowser) and cls.game == game
    return cls


def golden(game: str) -> Path:
    return GOLDEN / game / "random_seed3.jsonl"


def test_every_game_with_a_replay_page_is_checked_here() -> None:
    with_replay = {
        g.name for g in registry.games() if any("replay" in d.notebook for d in g.dashboards)
    }
    assert with_replay == set(BROWSERS)


@pytest.mark.parametrize("game", sorted(BROWSERS))
def test_the_browser_lists_its_games_logs_only(game: str, tmp_path: Path) -> None:
    for other in BROWSERS:  # every game's golden log in one folder, as logs/ holds them
        shutil.copy(golden(other), tmp_path / f"{other}-1.jsonl")
    (tmp_path / "notes.jsonl").write_text('{"not": "a log"}\n', encoding="utf-8")
    browser = browser_class(game)(folder=tmp_path)
    assert [v for _, v in browser.picker.options] == [str(tmp_path / f"{game}-1.jsonl")]
    assert browser.replay is not None and browser.error.value == ""
    assert browser.holder.children == (browser.replay.widget,)


@pytest.mark.parametrize("game", sorted(BROWSERS))
def test_a_bad_log_names_file_and_line_and_keeps_the_replay(game: str, tmp_path: Path) -> None:
    good = shutil.copy(golden(game), tmp_path / f"{game}-1.jsonl")
    browser = browser_class(game)(folder=tmp_path)
    shown = browser.replay
    assert shown is not None
    lines = Path(good).read_text(encoding="utf-8").splitlines(keepends=True)
    broken = tmp_path / "broken.jsonl"
    broken.write_text("".join(lines[:2]) + "{oops\n" + "".join(lines[3:]), encoding="utf-8")
    browser.path_box.value = str(broken)
    browser.open_button.click()
    assert "无法打开对局记录" in browser.error.value and f"{broken}:3" in browser.error.value
    assert browser.replay is shown and browser.holder.children == (shown.widget,)
    assert not browser.open_button.disabled and browser.open_button.description == "打开"
    other = next(g for g in BROWSERS if g != game)  # another game's log: refused, named
    browser.open_log(str(golden(other)))
    assert f"a {other} log" in browser.error.value and browser.replay is shown


@pytest.mark.parametrize("game", sorted(BROWSERS))
def test_the_same_log_opened_again_keeps_its_step(game: str, tmp_path: Path) -> None:
    path = shutil.copy(golden(game), tmp_path / f"{game}-1.jsonl")
    browser = browser_class(game)(folder=tmp_path)
    first = browser.replay
    assert first is not None
    first.controls.go(5)
    browser.open_button.click()  # the picker's log again (it may have grown)
    second = browser.replay
    assert second is not None and second is not first and second.controls.value == 5
    first.controls.buttons["下 ▶"].click()  # a click that reached the old view meanwhile
    assert second.controls.value == 6
    browser.open_log(str(golden(game)))  # another file: starts at the beginning
    assert browser.replay is not None and browser.replay.controls.value == 0
    assert Path(path).exists()


@pytest.mark.parametrize("game", sorted(BROWSERS))
def test_an_empty_folder_says_how_to_make_a_log(game: str, tmp_path: Path) -> None:
    browser = browser_class(game)(folder=tmp_path)
    title = registry.get(game).title
    assert browser.replay is None and browser.holder.children == ()
    assert f"还没有「{title}」的对局记录" in browser.error.value
    assert f"throne play --game {game} --log logs/{game}.jsonl" in browser.error.value
