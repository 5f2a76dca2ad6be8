"""The deck-choice panel before a match, and 再来一局 / 换将领 after it."""

from __future__ import annotations

from pathlib import Path

import pytest

from throne_lib import CardDB
from throne_lib.games.throne.decks import deck_text, signature_deck
from throne_lib.games.throne.ui.app import PlayApp, agent_names


def test_agents_offered_are_buildable() -> None:
    names = agent_names()
    assert "random" in names


def test_start_uses_the_choices(db: CardDB) -> None:
    app = PlayApp(db, ai_mode="manual", rules="quick")
    app.blue.value, app.red.value, app.agent.value = "beast_king", "lich_lord", "random"
    w = app.start(seed=11)
    assert w is not None and app.children == (w,)
    m = w.match
    assert m.seed == 11 and m.rules.round_limit == 5
    assert m.state.sides[0].general == "beast_king" and m.state.sides[1].general == "lich_lord"
    assert "开局（共 5 回合）" in w.info.value
    app.again()
    assert app.match_widget is not None and app.match_widget.match.seed == 12
    app.show_setup()
    assert app.children == (app.setup,)


def test_deck_file_for_blue(db: CardDB, tmp_path: Path) -> None:
    path = tmp_path / "mine.deck"
    path.write_text(deck_text(db, signature_deck(db, "elf")), encoding="utf-8")
    app = PlayApp(db, ai_mode="manual")
    app.deck_file.value = str(path)
    w = app.start()
    assert w is not None and w.match.state.sides[0].general == "elf_queen"
    app.red_deck_file.value = str(path)
    w = app.start()
    assert w is not None and w.match.state.sides[1].general == "elf_queen"


def test_bad_deck_file_is_reported_not_raised(db: CardDB, tmp_path: Path) -> None:
    app = PlayApp(db, ai_mode="manual")
    app.deck_file.value = str(tmp_path / "missing.deck")
    assert app.start() is None
    assert "missing.deck" in app.message.value and app.children == (app.setup,)
    bad = tmp_path / "bad.deck"
    bad.write_text("general: lionheart\n3 militia\n", encoding="utf-8")  # soldiers: illegal
    app.deck_file.value = str(bad)
    assert app.start() is None and "R-" in app.message.value


def test_autostart_shows_the_board_with_the_last_settings(db: CardDB, tmp_path: Path) -> None:
    """The play page opens on a board at once (no setup panel first), with the choices
    of the last match started there; 换将领/牌组 in the top bar opens the panel."""
    settings = tmp_path / "play_settings.json"
    app = PlayApp(db, ai_mode="manual", autostart=True, settings=settings)
    assert app.match_widget is not None and app.children == (app.match_widget,)
    app.show_setup()
    app.blue.value, app.rules.value, app.seed.value = "elf_queen", "quick", 42
    app.start()
    again = PlayApp(db, ai_mode="manual", autostart=True, settings=settings)
    w = again.match_widget
    assert w is not None and again.setup_btn in w.buttons.children
    # the same choices, a new match: the seed after the last one (issue 36, item 6)
    assert w.match.state.sides[0].general == "elf_queen" and w.match.seed == 43
    assert again.next_seed.value == 44 and "本局种子 43" in str(
        [getattr(c, "value", "") for c in w.buttons.children]
    )
    again.next_seed.value = 7  # a seed typed next to 新对局
    again.new_btn.click()
    assert again.match_widget is not None and again.match_widget.match.seed == 7
    assert w.match.rules.round_limit == 5
    settings.write_text("{broken", encoding="utf-8")  # an unreadable file: defaults
    third = PlayApp(db, ai_mode="manual", autostart=True, settings=settings)
    assert third.match_widget is not None and third.match_widget.match.seed == 1


def test_autostart_keeps_its_settings_beside_the_logs(
    db: CardDB, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An autostarting page (the dashboard, a preheated kernel) keeps its last settings in
    the folder its match logs go to: ``$THRONE_LOGS`` when set (a test's, a deployment's),
    not the repository's ``logs/`` regardless."""
    monkeypatch.setenv("THRONE_LOGS", str(tmp_path / "elsewhere"))
    app = PlayApp(db, ai_mode="manual", autostart=True)
    assert app.settings_path == tmp_path / "elsewhere" / "play_settings.json"
    app.show_setup()
    app.start()
    assert app.settings_path.exists()
    assert app.match_widget is not None and app.match_widget.log_dir == tmp_path / "elsewhere"


def test_without_autostart_nothing_is_remembered(db: CardDB) -> None:
    app = PlayApp(db, ai_mode="manual")
    assert app.settings_path is None and app.children[-1] is app.setup
