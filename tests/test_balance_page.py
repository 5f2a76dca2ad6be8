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
