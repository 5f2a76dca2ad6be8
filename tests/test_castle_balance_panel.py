"""城堡之心's balance panel (notebooks/castle_balance.ipynb) before and during a sweep
(issue 36, item 9): it opens on the newest saved sweep (its own last one, else the
repository's), says how long the sweep the widgets describe takes at the recorded
speed, and a running sweep shows the matches done, time used and time left."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from throne_lib.games.castle.cards import DEFAULT_PATH
from throne_lib.games.castle.ui.balance import SAVED, BalancePanel
from throne_lib.games.castle.ui.replay import ENV_LOGS
from throne_lib.kit.balance_saved import LOGS_ENV


@pytest.fixture(autouse=True)
def _no_local_speed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(LOGS_ENV, str(tmp_path / "no-local-record"))


def test_opens_on_the_repository_sweep_then_on_its_own(tmp_path: Path) -> None:
    latest = tmp_path / "castle-balance-latest.parquet"
    panel = BalancePanel(latest=latest)
    assert panel.path == SAVED and not panel.df.empty
    panel.players.value, panel.n.value = (4,), 1
    panel.run()
    assert latest.is_file()
    again = BalancePanel(latest=latest)  # the page opened again: its own last sweep
    assert again.path == latest and len(again.df) == 1
    assert str(latest) in again.source()


def test_its_own_sweep_goes_to_the_castle_logs_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """$CASTLE_LOGS (the replay page's folder) holds the page's last sweep, so a test or a
    demo server with its own folder leaves the repository's logs/ alone."""
    monkeypatch.setenv(ENV_LOGS, str(tmp_path))
    panel = BalancePanel()
    assert panel.latest == tmp_path / "castle-balance-latest.parquet" and panel.path == SAVED


def test_the_sweep_says_how_long_it_takes_and_how_far_it_is(tmp_path: Path) -> None:
    record = json.loads((DEFAULT_PATH.parent / "results/balance/speed.json").read_text())
    per_match = record["cards-castle.csv"]["seconds_per_match"]
    panel = BalancePanel(latest=tmp_path / "latest.parquet")
    panel.players.value, panel.n.value = (4, 5), 3
    n, seconds = panel.sweep_seconds()
    assert n == 6 and seconds == pytest.approx(6 * per_match)
    assert "这一轮 6 局，预计约" in panel.estimate.value  # follows the widgets
    seen: list[str] = []
    panel.status.observe(lambda ch: seen.append(str(ch["new"])), names="value")
    panel.players.value, panel.n.value = (4,), 2
    panel.run()
    assert seen[0].startswith("模拟中：0/2 局，预计约")
    assert any(s.startswith("模拟中：1/2 局 · 已用") and "预计还需约" in s for s in seen)
    assert seen[-1].startswith("完成：2 局")
