"""A stopped batch goes on where it was: the journal of ``throne simulate`` and ``throne
ladder`` (``--resume``), for every registered game — the resumed results equal a run
that was never stopped, a journal is never resumed into another run nor overwritten,
damage is reported with its line, and a ``kill -9`` in the middle loses only the match
being played."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from throne_lib.kit import registry, sim
from throne_lib.kit.analytics import report_main
from throne_lib.kit.journal import JournalError, journal_path
from throne_lib.kit.ladder import ladder_main
from throne_lib.kit.sim import MatchSpec, load_results, save_results, seat_specs, simulate


def game_specs(name: str, n: int = 6, seed: int = 300) -> list[MatchSpec]:
    game = registry.get(name)
    assert game.default_setups is not None
    setups = game.default_setups(game.seats[0])
    return seat_specs(name, setups, ["random"] * len(setups), n, seed, True)


class Stop(KeyboardInterrupt):
    """Ctrl-C after some matches."""


def stop_after(k: int) -> Any:
    seen: list[int] = []

    def on_row(row: dict[str, Any]) -> None:
        seen.append(row["match"])
        if len(seen) == k:
            raise Stop

    return on_row


def roundtrip(df: pd.DataFrame, path: Path) -> pd.DataFrame:
    return load_results(save_results(df, path))


@pytest.mark.parametrize("name", registry.names())
def test_a_resumed_run_writes_what_an_unstopped_run_writes(name: str, tmp_path: Path) -> None:
    specs = game_specs(name)
    whole = roundtrip(simulate(specs, backend="serial", progress=False), tmp_path / "whole.pq")
    book = tmp_path / "run.journal.jsonl"
    with pytest.raises(Stop):
        simulate(specs, backend="serial", progress=False, journal=book, on_row=stop_after(2))
    lines = book.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 2  # the header and the two finished matches
    played: list[int] = []
    resumed = simulate(
        specs, backend="serial", progress=False, journal=book, resume=True,
        on_row=lambda r: played.append(r["match"]),
    )  # fmt: skip
    assert sorted(played) == [s.index for s in specs][2:]  # only the missing matches
    pd.testing.assert_frame_equal(roundtrip(resumed, tmp_path / "resumed.pq"), whole)


def test_a_journal_is_not_overwritten_without_resume(tmp_path: Path) -> None:
    specs = game_specs("castle")
    book = tmp_path / "run.journal.jsonl"
    with pytest.raises(Stop):
        simulate(specs, backend="serial", progress=False, journal=book, on_row=stop_after(3))
    before = book.read_bytes()
    with pytest.raises(JournalError, match=r"3 matches played.*--resume.*delete the file"):
        simulate(specs, backend="serial", progress=False, journal=book)
    assert book.read_bytes() == before


def test_a_journal_is_only_resumed_into_its_own_run(tmp_path: Path) -> None:
    book = tmp_path / "run.journal.jsonl"
    with pytest.raises(Stop):
        simulate(game_specs("pin"), backend="serial", progress=False, journal=book,
                 on_row=stop_after(2))  # fmt: skip
    before = book.read_bytes()
    for other in (game_specs("pin", seed=301), game_specs("pin", n=7)):
        with pytest.raises(JournalError, match="another run"):
            simulate(other, backend="serial", progress=False, journal=book, resume=True)
    other_agent = [
        MatchSpec(s.index, s.seed, s.setups, ("standard", "random"), game="pin")
        for s in game_specs("pin")
    ]
    with pytest.raises(JournalError, match="another run"):
        simulate(other_agent, backend="serial", progress=False, journal=book, resume=True)
    assert book.read_bytes() == before


def test_a_line_cut_by_a_kill_is_played_again(tmp_path: Path) -> None:
    specs = game_specs("castle")
    whole = roundtrip(simulate(specs, backend="serial", progress=False), tmp_path / "w.pq")
    book = tmp_path / "run.journal.jsonl"
    with pytest.raises(Stop):
        simulate(specs, backend="serial", progress=False, journal=book, on_row=stop_after(3))
    with book.open("a", encoding="utf-8") as f:
        f.write('{"match": 3, "winner": "城')  # the writer died mid-line
    played: list[int] = []
    resumed = simulate(specs, backend="serial", progress=False, journal=book, resume=True,
                       on_row=lambda r: played.append(r["match"]))  # fmt: skip
    assert sorted(played) == [3, 4, 5]
    pd.testing.assert_frame_equal(roundtrip(resumed, tmp_path / "r.pq"), whole)
    assert all(line.endswith("}") for line in book.read_text(encoding="utf-8").splitlines())


def test_a_damaged_journal_names_its_line_and_is_kept(tmp_path: Path) -> None:
    specs = game_specs("cities")
    book = tmp_path / "run.journal.jsonl"
    with pytest.raises(Stop):
        simulate(specs, backend="serial", progress=False, journal=book, on_row=stop_after(3))
    lines = book.read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][:-9] + "garbage}"
    book.write_text("\n".join(lines) + "\n", encoding="utf-8")
    before = book.read_bytes()
    with pytest.raises(JournalError, match=r"run\.journal\.jsonl:3: not a result row"):
        simulate(specs, backend="serial", progress=False, journal=book, resume=True)
    book.write_text("not json\n", encoding="utf-8")
    with pytest.raises(JournalError, match=r":1: not a journal header"):
        simulate(specs, backend="serial", progress=False, journal=book, resume=True)
    book.write_bytes(before[:20] + b"\xff" + before[21:])
    with pytest.raises(ValueError, match=r"run\.journal\.jsonl:1:21: not UTF-8"):
        simulate(specs, backend="serial", progress=False, journal=book, resume=True)


def test_resume_without_a_journal_plays_everything(tmp_path: Path) -> None:
    specs = game_specs("goofspiel")
    df = simulate(specs, backend="serial", progress=False, journal=tmp_path / "j", resume=True)
    assert list(df["match"]) == [s.index for s in specs]


def test_a_stopped_ladder_goes_on_with_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--game", "pin", "--agents", "random,standard", "-n", "3", "--seed", "5",
            "--backend", "serial", "--no-progress"]  # fmt: skip
    assert ladder_main([*argv, "--out", str(tmp_path / "whole.parquet")]) == 0
    whole = load_results(tmp_path / "whole.parquet")
    out = tmp_path / "ladder.parquet"
    real = sim.play_spec
    calls: list[int] = []

    def ctrl_c_at_the_fourth(spec: MatchSpec, table: Any = None) -> Any:
        calls.append(spec.index)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return real(spec, table)

    monkeypatch.setattr(sim, "play_spec", ctrl_c_at_the_fourth)
    assert ladder_main([*argv, "--out", str(out)]) == 130
    err = capsys.readouterr().err
    assert f"3 finished matches are kept in {journal_path(out)}" in err
    assert "--resume" in err and not out.exists()
    monkeypatch.setattr(sim, "play_spec", real)
    assert ladder_main([*argv, "--out", str(out)]) == 1  # without --resume: refused, kept
    assert "--resume" in capsys.readouterr().err and journal_path(out).exists()
    # a stopped run's figures so far: the ladder of the three matches it finished
    assert report_main([str(journal_path(out))]) == 0
    text = capsys.readouterr().out
    assert "the journal of a run not finished: 3 matches so far" in text
    assert "== ladder: pin, 3 matches, 2 seeds ==" in text
    assert ladder_main([*argv, "--out", str(out), "--resume"]) == 0
    pd.testing.assert_frame_equal(load_results(out), whole)
    assert not journal_path(out).exists()  # its rows are in the results now


def test_kill_9_in_the_middle_of_simulate_loses_nothing(tmp_path: Path) -> None:
    args = ["simulate", "--game", "castle", "--seats", "5", "--agent", "scripted",
            "-n", "150", "--seed", "77", "--workers", "1", "--no-progress"]  # fmt: skip
    out = tmp_path / "castle.parquet"
    book = journal_path(out)
    cmd = [sys.executable, "-m", "throne_lib.cli", *args, "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if book.exists() and book.read_bytes().count(b"\n") > 5:
                break
            time.sleep(0.02)
        assert proc.poll() is None, "the run ended before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL and not out.exists()
    kept = book.read_bytes().count(b"\n") - 1
    assert 5 <= kept < 150
    resumed = subprocess.run([*cmd, "--resume"], env=env, capture_output=True, text=True)
    assert resumed.returncode == 0, resumed.stderr
    assert not book.exists()
    subprocess.run(
        [sys.executable, "-m", "throne_lib.cli", *args, "--out", str(tmp_path / "whole.parquet")],
        env=env, check=True, capture_output=True,
    )  # fmt: skip
    pd.testing.assert_frame_equal(load_results(out), load_results(tmp_path / "whole.parquet"))


def test_report_reads_a_running_simulate_journal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``throne report OUT.journal.jsonl``: the figures of the matches played so far,
    the same report a results file of those matches gives; the journal left as it is."""
    specs = game_specs("castle", n=8)
    book = tmp_path / "run.journal.jsonl"
    with pytest.raises(Stop):
        simulate(specs, backend="serial", progress=False, journal=book, on_row=stop_after(5))
    with book.open("a", encoding="utf-8") as f:
        f.write('{"match": 5, "win')  # being written at this moment
    before = book.read_bytes()
    assert report_main([str(book)]) == 0
    text = capsys.readouterr().out
    assert f"{book}: the journal of a run not finished: 5 matches so far" in text
    done = simulate(specs[:5], backend="serial", progress=False)
    assert report_main([str(save_results(done, tmp_path / "five.parquet"))]) == 0
    assert text.split("\n", 1)[1] == capsys.readouterr().out
    assert book.read_bytes() == before


FINGERPRINTS = """
from throne_lib.kit import registry
from throne_lib.kit.journal import fingerprint
from throne_lib.kit.sim import _table, build_parser, specs_from_args, table_text
for name in registry.names():
    g = registry.get(name)
    text = table_text(g, None)
    specs = specs_from_args(g, build_parser(g).parse_args(["-n", "3"]),
                            _table(name, text) if text is not None else None)
    print(name, fingerprint(specs, text))
"""


def test_a_runs_fingerprint_is_the_same_in_every_process() -> None:
    """A journal is resumed by a new process: every game's ``simulate`` specs (rules
    and card table in them) must give the same fingerprint there, never one that
    holds an object's address."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    runs = [
        subprocess.run(
            [sys.executable, "-c", FINGERPRINTS],
            env=env,
            check=True,
            capture_output=True,
            text=True,
        ).stdout  # fmt: skip
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert sorted(line.split()[0] for line in runs[0].splitlines()) == sorted(registry.names())
