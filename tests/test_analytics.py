"""Balance analytics on a hand-made results frame whose figures are known."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from throne_lib.games.throne import analytics as an
from throne_lib.kit.analytics import report_main
from throne_lib.kit.sim import save_results


def row(
    match: int,
    blue: str,
    red: str,
    winner: str,
    first: str = "blue",
    rounds: int = 10,
    reason: str = "throne",
    lead: int = 0,
    blue_cards: tuple[list[str], list[str]] = ([], []),
    red_cards: tuple[list[str], list[str]] = ([], []),
) -> dict[str, Any]:
    d: dict[str, Any] = {
        "match": match,
        "seed": match,
        "first": first,
        "winner": winner,
        "end_reason": reason,
        "rounds": rounds,
        "lead_changes": lead,
    }
    for name, gen, cards in (("blue", blue, blue_cards), ("red", red, red_cards)):
        d[f"{name}_general"] = gen
        d[f"{name}_race"] = gen + "_race"
        d[f"{name}_agent"] = "standard"
        d[f"{name}_throne_hp"] = 0 if winner not in (name, "draw") else 20
        d[f"{name}_drawn"] = cards[0]
        d[f"{name}_played"] = cards[1]
    return d


@pytest.fixture
def df() -> pd.DataFrame:
    rows = [
        row(0, "a", "b", "blue", rounds=8, blue_cards=(["x", "y"], ["x"]), red_cards=(["x"], [])),
        row(1, "b", "a", "red", first="red", rounds=12, lead=2, blue_cards=(["y"], ["y"])),
        row(2, "a", "b", "blue", rounds=12, blue_cards=(["x"], ["x"])),
        row(3, "b", "a", "draw", first="red", rounds=40, reason="round_limit:draw"),
    ]
    return pd.DataFrame(rows)


def test_wilson_interval() -> None:
    lo, hi = an.wilson(5, 10)
    assert lo == pytest.approx(0.2366, abs=1e-3) and hi == pytest.approx(0.7634, abs=1e-3)
    assert an.wilson(0, 10)[0] == pytest.approx(0.0) and an.wilson(10, 10)[1] == pytest.approx(1.0)
    assert all(math.isnan(v) for v in an.wilson(0, 0))


def test_win_rate_per_general_counts_draws_as_half(df: pd.DataFrame) -> None:
    wr = an.win_rates(df).set_index("general")
    # a: won 0, 1, 2 and drew 3 -> 3.5 / 4; b: 0.5 / 4
    assert wr.loc["a", "win_rate"] == pytest.approx(0.875)
    assert wr.loc["b", "win_rate"] == pytest.approx(0.125)
    assert wr.loc["a", "wins"] == 3 and wr.loc["a", "draws"] == 1 and wr.loc["a", "matches"] == 4
    assert wr.loc["a", "ci_low"] < 0.875 < wr.loc["a", "ci_high"]
    assert list(an.win_rates(df).general) == ["a", "b"]


def test_matchup_matrix_is_complementary(df: pd.DataFrame) -> None:
    m = an.matchup_matrix(df)
    assert m.loc["a", "b"] == pytest.approx(0.875)
    assert m.loc["a", "b"] + m.loc["b", "a"] == pytest.approx(1.0)


def test_first_player_advantage_and_endings(df: pd.DataFrame) -> None:
    f = an.first_player_advantage(df)
    # first mover won matches 0, 1, 2 and drew 3 -> 3.5 / 4
    assert f["first_win_rate"] == pytest.approx(0.875)
    e = an.endings(df)
    assert e["draw_rate"] == pytest.approx(0.25)
    assert e["round_limit_rate"] == pytest.approx(0.25)
    assert e["throne_rate"] == pytest.approx(0.75)


def test_lengths_and_lead_changes(df: pd.DataFrame) -> None:
    assert an.length_distribution(df).to_dict() == {8: 1, 12: 2, 40: 1}
    assert an.lead_changes(df).to_dict() == {0: 3, 2: 1}
    assert an.summary(df)["mean_rounds"] == pytest.approx(18.0)


def test_card_win_rates_drawn_vs_played(df: pd.DataFrame) -> None:
    t = an.card_win_rates(df).set_index("card")
    # x drawn by: m0 blue (won), m0 red (lost), m2 blue (won); played in m0 and m2 (won)
    assert t.loc["x", "drawn"] == 3 and t.loc["x", "played"] == 2
    assert t.loc["x", "win_rate_drawn"] == pytest.approx(2 / 3)
    assert t.loc["x", "win_rate_played"] == pytest.approx(1.0)
    assert t.loc["x", "play_rate"] == pytest.approx(2 / 3)
    # y: drawn m0 blue (won) and m1 blue (lost), played only in m1
    assert t.loc["y", "win_rate_drawn"] == pytest.approx(0.5)
    assert t.loc["y", "win_rate_played"] == pytest.approx(0.0)


def test_report_cli_prints_every_section(
    df: pd.DataFrame, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = save_results(df, tmp_path / "r.parquet")
    assert report_main([str(path)]) == 0
    out = capsys.readouterr().out
    for title in ("summary", "win rate per general", "general vs general", "endings"):
        assert title in out
    assert "match length" in out and "lead changes" in out and "drawn vs played" in out
    assert report_main([str(tmp_path / "missing.parquet")]) == 1


def test_charts_draw(df: pd.DataFrame) -> None:
    import matplotlib

    matplotlib.use("Agg")
    ax = an.plot_matrix(df)
    assert ax.get_title().startswith("win rate")
    ax2 = an.plot_lengths(df)
    assert ax2.get_xlabel() == "rounds"


def test_balance_panel_runs_a_sweep_without_a_browser() -> None:
    """The notebook's panel: pick two generals and agents, run, get one row per match."""
    import matplotlib

    matplotlib.use("Agg")
    panel = an.BalancePanel(backend="serial")
    gens = [g.id for g in panel.db.of("general")][:2]
    panel.generals.value = gens
    panel.agent.value, panel.opponent.value = "standard", "random"
    panel.matches.value = 1
    df = panel.run()
    assert len(df) == 3  # two generals: a-a, a-b, b-b
    assert set(df["blue_general"]) | set(df["red_general"]) == set(gens)
    assert panel.results is df
