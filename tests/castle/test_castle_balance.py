"""The balance look (issue 18 item 6): role and hero win rates with Wilson intervals from
``throne simulate --game castle`` results, and the dashboard panel's sweep.
CH-WIN-2, CH-WIN-3: the identities that win are the ones the end rules name."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from throne_lib.games.castle.ui import balance as bal
from throne_lib.kit.analytics import wilson
from throne_lib.kit.registry import get
from throne_lib.kit.sim import save_results


@pytest.fixture(scope="module")
def frame() -> pd.DataFrame:
    return bal.sweep([4, 5], 3, seed=7)


def test_role_rates_count_every_seat_and_use_wilson(frame: pd.DataFrame) -> None:
    r = bal.role_rates(frame)
    for p in (4, 5):
        assert r[r["players"] == p]["matches"].sum() == 3 * p  # every seat of 3 matches
        assert (r[r["players"] == p]["role"] == "lord").any()
    for _, row in r.iterrows():
        assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson(row["wins"], row["matches"]))
        assert row["win_rate"] == pytest.approx(row["wins"] / row["matches"])


def test_lord_wins_exactly_when_castle_end_rule(frame: pd.DataFrame) -> None:
    rows = bal.seat_rows(frame)
    lords = rows[rows["role"] == "lord"]
    assert ((lords["score"] == 1) == (lords["end_rule"] == "CH-WIN-3")).all()


def test_grids_are_chinese_and_carry_n(frame: pd.DataFrame) -> None:
    grid = bal.role_grid(frame)
    assert list(grid.index) == [4, 5]
    assert "城主" in grid.columns and "敌军" in grid.columns
    assert grid.loc[4, "对局数"] == 3
    assert "n=3" in grid.loc[4, "城主"]
    heroes = bal.hero_grid(frame)
    assert heroes["出场席位"].sum() == 3 * 4 + 3 * 5
    assert set(heroes["英雄"]) <= set(bal.hero_names().values())


def test_panel_loads_saved_results_and_runs_a_sweep(frame: pd.DataFrame, tmp_path: Path) -> None:
    saved = save_results(frame, tmp_path / "r.parquet")
    panel = bal.BalancePanel(saved, latest=tmp_path / "latest.parquet")
    assert "4 人 3 局" in panel.source()
    panel.players.value = (4,)
    panel.n.value = 2
    df = panel.run()
    assert len(df) == 2 and set(df["players"]) == {4}
    assert panel.bar.value == panel.bar.max == 2
    assert not panel.button.disabled
    assert len(pd.read_parquet(tmp_path / "latest.parquet")) == 2


def test_merge_cli_writes_the_saved_file(
    frame: pd.DataFrame, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = save_results(frame[frame["players"] == 4], tmp_path / "a.parquet")
    b = save_results(frame[frame["players"] == 5], tmp_path / "b.parquet")
    monkeypatch.setattr(bal, "SAVED", tmp_path / "out.parquet")
    assert bal.main([str(a), str(b)]) == 0
    assert len(pd.read_parquet(tmp_path / "out.parquet")) == 6


def test_balance_dashboard_registered_and_saved_results_committed() -> None:
    assert "castle_balance.ipynb" in [d.notebook for d in get("castle").dashboards]
    assert (Path(bal.ROOT) / "notebooks" / "castle_balance.ipynb").exists()
    saved = pd.read_parquet(bal.SAVED)
    assert set(saved["players"]) == {4, 5, 6, 7, 8}
