"""benchmarks/balance_acceptance.py: issue #38's first target read from saved runs — the
verdict's edges (first seat ≤ 55%, at most one general out of 40–60% by ≤ 2 points, at
least 360 matches a general) and the stored screened runs judged as docs/balance.md says."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "balance_acceptance", ROOT / "benchmarks" / "balance_acceptance.py"
    )
    assert spec is not None and spec.loader is not None
    mod = sys.modules["balance_acceptance"] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _verdict(bench: ModuleType, first: float = 0.52, out: Any = (), matches: int = 360) -> Any:
    return bench.Verdict("run.parquet", 2, 11, False, first, tuple(out), 0.01, matches)


def test_the_verdict_at_its_edges(bench: ModuleType) -> None:
    assert _verdict(bench).met
    assert _verdict(bench, out=[("狮心王", 0.38)]).met  # 2 points out: allowed
    assert _verdict(bench, out=[("百兽之王", 0.62)]).met
    assert not _verdict(bench, out=[("狮心王", 0.379)]).met  # 2.1 points out
    assert not _verdict(bench, out=[("狮心王", 0.39), ("齿轮大王", 0.39)]).met  # two out
    assert not _verdict(bench, first=0.551).met
    assert not _verdict(bench, matches=359).met  # too few matches to judge
    assert "target MET" in _verdict(bench).line()


def test_the_stored_screened_runs_are_three_of_five(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/balance.md's table of run seeds 60–64: met on 60, 62, 63 (the last proposal)."""
    paths = [str(ROOT / f"results/balance/screened/screened-s{s}.parquet") for s in range(60, 65)]
    assert bench.judge(paths) == 3
    met = [bench.verdicts(p)[-1].met for p in paths]
    assert met == [True, False, True, True, False]
    assert [v.met for v in bench.verdicts(paths[0])] == [False, True]  # the lever alone misses
    assert "met by 3 of 5" in capsys.readouterr().out


def test_the_learned_runs_meet_four_of_four_as_docs_balance_md_says(
    bench: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    """docs/balance.md's table of run seeds 77-80 (the recommended command since stop
    56): each run's last proposal meets the target, with 0, 1, 1 and 1 general out."""
    paths = [str(ROOT / f"results/balance/screened/learned-s{s}.parquet") for s in range(77, 81)]
    assert bench.judge(paths) == 4
    last = [bench.verdicts(p)[-1] for p in paths]
    assert [v.met for v in last] == [True] * 4
    assert [len(v.out) for v in last] == [0, 1, 1, 1]
    assert [v.changes for v in last] == [16] * 4
    assert "met by 4 of 4" in capsys.readouterr().out


def test_it_runs_each_seed_with_the_script_then_judges(
    bench: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[tuple[list[str], str]] = []
    judged: list[list[str]] = []
    monkeypatch.setattr(
        bench.subprocess, "run", lambda cmd, check, env: calls.append((cmd, env["PREFIX"]))
    )
    monkeypatch.setattr(bench, "judge", lambda paths: judged.append(paths) or 0)
    assert bench.main(["--seeds", "65,66", "--prefix", "confirmed", "--", "--confirm", "30"]) == 0
    assert calls == [
        (["sh", str(bench.SCRIPT), "65", "--confirm", "30"], "confirmed"),
        (["sh", str(bench.SCRIPT), "66", "--confirm", "30"], "confirmed"),
    ]
    assert judged == [[str(bench.SCRIPT.parent / f"confirmed-s{s}.parquet") for s in (65, 66)]]
    with pytest.raises(SystemExit):
        bench.main([])
