"""Log review over the registry (issue 13): ``throne log`` and ``events_frame`` describe
any game's events, Throne's through its own hooks (its output unchanged)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from throne_lib.cli import main
from throne_lib.games.throne.review import EVENT_COLUMNS
from throne_lib.games.throne.review import events_frame as throne_events_frame
from throne_lib.kit import registry
from throne_lib.kit.log import read_log, write_log
from throne_lib.kit.review import GENERIC, events_frame

GOLDEN = Path(__file__).resolve().parent / "golden" / "match_seed7.jsonl"


@pytest.fixture(scope="module")
def castle_log(tmp_path_factory: pytest.TempPathFactory) -> Path:
    m = registry.get("castle").new(seed=3)
    for _ in range(40):
        if m.is_over:
            break
        m.apply(m.legal_actions()[0])
    return write_log(m, tmp_path_factory.mktemp("review") / "castle.jsonl")


def test_a_game_without_hooks_gets_the_kits_rows(castle_log: Path) -> None:
    log = read_log(castle_log)
    frame = events_frame(log)
    assert list(frame.columns) == list(GENERIC.columns)
    assert len(frame) == sum(len(r.events) for r in log.records) > 0
    assert frame["step"].tolist() == sorted(frame["step"].tolist())
    assert frame["text"].str.len().gt(0).all()  # castle events carry their own words


def test_throne_logs_are_described_by_thrones_hooks() -> None:
    frame = events_frame(GOLDEN)
    assert list(frame.columns) == list(EVENT_COLUMNS)
    pd.testing.assert_frame_equal(frame, throne_events_frame(GOLDEN))
    assert set(frame["side"].cat.categories) == {"blue", "red"}


def test_throne_log_cli_reads_any_game(
    castle_log: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["log", str(castle_log)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{castle_log}: ") and " events in " in out
    assert main(["log", str(castle_log), "--csv", "-"]) == 0
    assert capsys.readouterr().out.startswith("step,round,seat,action,kind,text,detail")
