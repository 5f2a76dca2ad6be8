"""PIN through the kit: registry, CLI play/replay/deck check, logs, simulate, the kit's
search agent (PIN-AI-1, PIN-DECK-6, PIN-TURN-7)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from throne_lib.cli import main
from throne_lib.games.pin.match import PinMatch
from throne_lib.kit import registry
from throne_lib.kit.agents import agent_names, make_agent
from throne_lib.kit.log import LogError, read_log, replay

ROOT = Path(__file__).resolve().parents[2]


def test_registered_with_starter_setups() -> None:
    game = registry.get("pin")
    assert game.rule_prefix == "PIN-" and game.card_tables[0].name == "cards-pin.csv"
    m = game.new(seed=2)
    assert isinstance(m, PinMatch) and m.setups[0]["main"] == "铁砧联邦"
    assert "pin" in registry.names()
    assert {"random", "standard", "search"} <= set(agent_names("pin"))


def test_cli_play_log_replay_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`throne play --game pin --seed 3 --log FILE` then `throne replay FILE --check`;
    a tampered hash is reported with FILE:LINE."""
    log = tmp_path / "game.jsonl"
    assert main(["play", "--game", "pin", "--seed", "3", "--log", str(log)]) == 0
    out = capsys.readouterr().out
    assert "final hash" in out and log.is_file()
    assert main(["replay", str(log), "--check"]) == 0
    assert "every state hash matches" in capsys.readouterr().out
    lf = read_log(log)
    assert lf.game == "pin" and len(lf.records) > 10
    assert replay(lf).hash() == lf.records[-1].hash
    lines = log.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[5])
    rec["hash"] = "0" * 16
    lines[5] = json.dumps(rec, ensure_ascii=False)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with pytest.raises(LogError, match=r"bad.jsonl:6:"):
        replay(read_log(bad))


def test_cli_deck_and_cards_check(capsys: pytest.CaptureFixture[str]) -> None:
    """PIN-DECK-6: `throne --game pin deck check FILE`."""
    assert main(["--game", "pin", "deck", "check", str(ROOT / "decks" / "pin" / "anvil.deck")]) == 0
    assert "OK, 50 cards" in capsys.readouterr().out
    assert main(["--game", "pin", "cards", "check"]) == 0


def test_simulate_rows_and_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`throne simulate --game pin -n 2 --out FILE` writes one row per match;
    `throne report --game pin FILE` prints win rates with intervals."""
    import pandas as pd

    out = tmp_path / "p.parquet"
    assert main(["simulate", "--game", "pin", "-n", "2", "--out", str(out)]) == 0
    df = pd.read_parquet(out)
    assert len(df) == 2 and set(df["game"]) == {"pin"} and set(df["甲_setup"]) == {"anvil"}
    capsys.readouterr()
    assert main(["report", "--game", "pin", str(out)]) == 0
    text = capsys.readouterr().out
    assert "win rate per seat" in text and "anvil" in text


def test_kit_search_agent_plays_pin(new_match) -> None:  # type: ignore[no-untyped-def]
    """PIN-AI-1: the kit's search agent (resample + legal actions only) picks legal
    actions, the same for the same seed."""
    m = new_match(seed=4)
    for _ in range(6):
        a = make_agent("search", 1, "pin", iterations=4, depth=30).choose(m)
        b = make_agent("search", 1, "pin", iterations=4, depth=30).choose(m)
        assert a == b and a in m.legal_actions()
        m.apply(a)
