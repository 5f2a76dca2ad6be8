"""城堡之心 through the kit: the CLI plays with a log, the log replays with --check,
simulate writes Parquet rows with identities and heroes, report prints win rates per
identity and per hero. (CH-RNG-1: a match replays exactly from its log.)"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from throne_lib.cli import main


def test_play_replay_simulate_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = tmp_path / "game.jsonl"
    assert main(["play", "--game", "castle", "--seats", "5", "--seed", "3", "--agents",
                 "scripted,scripted,scripted,scripted,scripted", "--log", str(log)]) == 0  # fmt: skip
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["game"] == "castle" and header["seed"] == 3 and len(header["setups"]) == 5
    assert main(["replay", str(log), "--check"]) == 0
    assert "every state hash matches" in capsys.readouterr().out
    lines = log.read_text(encoding="utf-8").splitlines()
    rec = json.loads(lines[3])
    rec["hash"] = "0" * 16
    lines[3] = json.dumps(rec)
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(bad), "--check"]) != 0
    assert "bad.jsonl:4" in capsys.readouterr().err
    out = tmp_path / "c.parquet"
    assert main(["simulate", "--game", "castle", "--players", "5", "-n", "6", "--out", str(out),
                 "--backend", "serial", "--no-progress"]) == 0  # fmt: skip
    df = pd.read_parquet(out)
    assert len(df) == 6 and set(df["seat0_role"]) <= {"lord", "enemy", "reinforcement"}
    assert df["end_rule"].isin(["CH-WIN-2", "CH-WIN-3", "CH-TURN-11"]).all()
    capsys.readouterr()
    assert main(["report", str(out)]) == 0
    text = capsys.readouterr().out
    assert "win rate by identity" in text and "win rate by hero" in text and "lord" in text
