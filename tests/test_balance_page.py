"""The balance dashboard (issue 17): opens on the last saved sweep without simulating,
shows n and the 95% interval in every matchup cell, Chinese names, and a new sweep is
saved (atomically) and shown."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from throne_lib.games.throne.ui import balance_page
from throne_lib.games.throne.ui.balance_page import BalancePage, latest_results
from throne_lib.kit.analytics import wilson


def small_page(tmp_path: Path) -> BalancePage:
    page = BalancePage(backend="serial", results_dir=tmp_path)
    page.generals.value = page.generals.value[:2]
    page.matches.value = 1
    page.agent.value = "random"
    return page


def test_opens_without_simulating_and_says_how(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_sim(*args: object, **kw: object) -> None:
        raise AssertionError("a visit must not simulate")

    monkeypatch.setattr("throne_lib.kit.sim.simulate", no_sim)
    page = BalancePage(backend="serial", results_dir=tmp_path)
    assert "还没有保存的模拟结果" in page.view.value and page.results is None


def test_a_sweep_is_saved_and_the_next_visit_shows_it(tmp_path: Path) -> None:
    page = small_page(tmp_path)
    df = page.run()
    saved = latest_results(tmp_path)
    assert saved is not None and not list(tmp_path.glob("*.tmp"))
    assert page.progress.value == len(df) == page.progress.max
    # the next visit: the saved results at once, nothing simulated
    again = BalancePage(backend="serial", results_dir=tmp_path)
    assert again.source == saved and again.results is not None
    assert len(again.results) == len(df)
    view = again.view.value
    names = [page.db[g].name for g in page.generals.value]
    assert all(name in view for name in names)
    cells = re.findall(r"n=(\d+) · (\d\.\d\d)–(\d\.\d\d)", view)
    assert cells, view
    # a cell's interval is the Wilson interval of its n
    for n, lo, hi in cells:
        assert 0 <= float(lo) <= float(hi) <= 1 and int(n) >= 1
    general = page.generals.value[0]
    mine = balance_page.matchup_cells(df)
    row = mine[(mine.general == general) & (mine.opponent == general)].iloc[0]
    assert (row.lo, row.hi) == wilson(row.rate * row.n, row.n)
    assert "df.head" not in view and "win_rate" not in view  # Chinese headers only


def test_a_corrupt_results_file_is_reported_and_kept(tmp_path: Path) -> None:
    bad = tmp_path / "sweep-29990101-000000-1.parquet"
    bad.write_bytes(b"not parquet")
    page = BalancePage(backend="serial", results_dir=tmp_path)
    assert "读不出来" in page.view.value and bad.read_bytes() == b"not parquet"


def test_the_sweep_says_how_long_it_takes_before_and_while_it_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 36, item 9: with no saved sweep the page says how long the first one takes
    (its matches at the repository's recorded speed, results/balance/speed.json), the
    estimate follows the widgets, and a run shows time used and left."""
    import json

    from throne_lib.games.throne.cards import DEFAULT_PATH
    from throne_lib.kit.balance_saved import LOGS_ENV

    monkeypatch.setenv(LOGS_ENV, str(tmp_path / "no-local-record"))
    record = json.loads((DEFAULT_PATH.parent / "results/balance/speed.json").read_text())
    per_match = record["cards.csv"]["seconds_per_match"]
    page = small_page(tmp_path)
    n, seconds = page.sweep_seconds()
    assert n == len(page.specs()) and seconds == pytest.approx(per_match * n)
    assert f"这一轮 {n} 局，预计约" in page.estimate.value
    page.matches.value = 3
    assert f"这一轮 {3 * n} 局" in page.estimate.value  # follows the slider
    fresh = BalancePage(backend="serial", results_dir=tmp_path / "empty")
    assert "还没有保存的模拟结果" in fresh.view.value and "按记录的速度约需" in fresh.view.value
    page.matches.value = 1
    seen: list[str] = []
    page.status.observe(lambda ch: seen.append(str(ch["new"])), names="value")
    page.run()
    assert seen[0].startswith(f"模拟中：0/{n} 局，预计约")
    assert any("已用" in s and "预计还需约" in s for s in seen)
