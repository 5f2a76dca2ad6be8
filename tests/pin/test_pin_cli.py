"""PIN's command-line hooks: deck check lists every PIN-DECK violation; cards check."""

from __future__ import annotations

from pathlib import Path

import pytest

from throne_lib.games.pin.cli import main


def test_deck_check_ok_and_every_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """PIN-DECK-6: OK for a starter deck; each violated rule on its own line otherwise."""
    root = Path(__file__).resolve().parents[2]
    assert main(["deck", str(root / "decks" / "pin" / "anvil.deck")]) == 0
    assert "OK, 50 cards" in capsys.readouterr().out
    bad = tmp_path / "bad.deck"
    bad.write_text(
        "main: 铁砧联邦\nhq: aur_hq\n3 anv_1starm\n1 anv_drone\n1 aur_mend\n", encoding="utf-8"
    )
    assert main(["deck", str(bad)]) == 1
    out = capsys.readouterr().out
    for rule in ("PIN-DECK-1", "PIN-DECK-2", "PIN-DECK-4", "PIN-DECK-5"):
        assert rule in out
    syntax = tmp_path / "syntax.deck"
    syntax.write_text("main: 铁砧联邦\nx y z\n", encoding="utf-8")
    assert main(["deck", str(syntax)]) == 1
    assert "syntax.deck:2:" in capsys.readouterr().out


def test_cards_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """PIN-CARD-1: the table checks OK; a broken copy names file:row:column."""
    assert main(["cards"]) == 0
    assert "OK, 52 cards" in capsys.readouterr().out
    root = Path(__file__).resolve().parents[2]
    broken = tmp_path / "cards-pin.csv"
    broken.write_text(
        (root / "cards-pin.csv")
        .read_text(encoding="utf-8")
        .replace(
            "anv_militia,边防民兵连,铁砧联邦,单位,普通,步兵,连,1",
            "anv_militia,边防民兵连,铁砧联邦,单位,普通,步兵,军,1",
        ),
        encoding="utf-8",
    )
    assert main(["cards", str(broken)]) == 1
    assert "cards-pin.csv:3:size:" in capsys.readouterr().out
