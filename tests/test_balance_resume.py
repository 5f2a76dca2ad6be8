"""A stopped balance run goes on with ``--resume`` (``throne_lib/kit/balance/memo.py``):
the resumed run takes every outcome the stopped one played from its journal, plays only
the rest, and ends with the proposals of a run that was never stopped."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_balance import ToyGame  # noqa: E402

from throne_lib.cli import main as throne_main  # noqa: E402
from throne_lib.games.throne.cards import DEFAULT_PATH  # noqa: E402
from throne_lib.kit.balance import Budget, Targets, search_space, suggest  # noqa: E402
from throne_lib.kit.balance.memo import RunMemo  # noqa: E402
from throne_lib.kit.journal import JournalError, journal_path  # noqa: E402

SMALL = Budget(population=6, generations=4, blocks=4, holdout_blocks=6, proposals=3,
               verify_blocks=2)  # fmt: skip


def stop_at_generation(n: int) -> Any:
    def progress(st: dict[str, Any]) -> None:
        if st.get("generation") == n and not st.get("holdout"):
            raise KeyboardInterrupt

    return progress


def test_a_resumed_search_ends_with_the_unstopped_runs_proposals(tmp_path: Path) -> None:
    game = ToyGame()
    space = search_space(game)
    whole = suggest(game, space, Targets(), SMALL, seed=3, backend="serial")
    book = tmp_path / "run.journal.jsonl"
    memo = RunMemo(book, "run-3")
    with pytest.raises(KeyboardInterrupt):
        suggest(game, space, Targets(), SMALL, seed=3, backend="serial",
                progress=stop_at_generation(2), memo=memo)  # fmt: skip
    memo.close()
    kept = len(RunMemo(book, "run-3", resume=True).known)
    assert 0 < kept < whole.matches_played
    with pytest.raises(JournalError, match="--resume"):  # never overwritten
        RunMemo(book, "run-3")
    with pytest.raises(JournalError, match="another run"):
        RunMemo(book, "run-4", resume=True)
    again = RunMemo(book, "run-3", resume=True)
    res = suggest(game, space, Targets(), SMALL, seed=3, backend="serial", memo=again)
    again.close()
    assert [p.changes for p in res.proposals] == [p.changes for p in whole.proposals]
    assert [p.after for p in res.proposals] == [p.after for p in whole.proposals]
    assert [p.verified for p in res.proposals] == [p.verified for p in whole.proposals]
    assert res.front == whole.front

    def steps(r: Any) -> list[dict[str, Any]]:  # what each step found (not what it cost)
        return [{k: v for k, v in h.items() if k != "matches_played"} for h in r.history]

    assert steps(res) == steps(whole)
    assert res.matches_reused == kept  # every kept outcome is asked again, and taken
    assert res.matches_played + res.matches_reused == whole.matches_played


def test_the_command_line_resumes_a_stopped_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``throne balance suggest``: Ctrl-C in the middle says where the matches are kept;
    the same command refuses to start over on them; with ``--resume`` it writes the
    proposals an unstopped run writes, and deletes the journal."""
    cards = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, cards)
    argv = ["balance", "suggest", "--cards", str(cards), "--agent", "random", "--seed", "4"]
    argv += ["--generals", "lionheart,pain_lord,saint_marshal,beast_king"]
    argv += ["--population", "4", "--generations", "2", "--blocks", "2", "--holdout-blocks", "2"]
    argv += ["--verify-blocks", "1", "--workers", "1", "--no-progress"]
    whole_out = tmp_path / "whole.parquet"
    assert throne_main([*argv, "--out", str(whole_out)]) == 0
    out = tmp_path / "b.parquet"
    real = RunMemo.put
    calls: list[str] = []

    def ctrl_c(self: RunMemo, key: str, outcome: Any) -> None:
        calls.append(key)
        if len(calls) == 40:
            raise KeyboardInterrupt
        real(self, key, outcome)

    monkeypatch.setattr(RunMemo, "put", ctrl_c)
    capsys.readouterr()
    assert throne_main([*argv, "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert f"39 finished matches are kept in {journal_path(out)}" in err and not out.exists()
    monkeypatch.setattr(RunMemo, "put", real)
    assert throne_main([*argv, "--out", str(out)]) == 1
    assert "--resume" in capsys.readouterr().err
    assert throne_main([*argv, "--out", str(out), "--workers", "2", "--resume"]) == 0
    printed = capsys.readouterr().out
    assert "(and 39 taken from the stopped run's journal)" in printed
    assert not journal_path(out).exists()
    cols = ["proposal", "group", "changes_json", "after", "before", "verify"]
    got, want = pd.read_parquet(out), pd.read_parquet(whole_out)
    pd.testing.assert_frame_equal(got[cols], want[cols])
