"""The designers' autopilot and ``throne tower simulate`` (R-TOWER-1..7 end to end)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from throne_lib.games.throne.tower.autopilot import play_run, simulate, summary, tower_main
from throne_lib.games.throne.tower.config import TowerRules
from throne_lib.games.throne.tower.run import Tables
from throne_lib.games.throne.tower.save import load_run

WEAK = TowerRules(
    enemy_hp=(("battle", 1, 0), ("elite", 1, 0), ("boss", 1, 0)),
    enemy_agents=(("battle", ("random",)), ("elite", ("random",)), ("boss", ("random",))),
)


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables.load()


def test_autopilot_climbs_all_three_floors_against_weak_enemies(
    tables: Tables, tmp_path: Path
) -> None:
    """R-TOWER-1: one node per row up to each floor's boss; R-TOWER-6: bosses open floors."""
    save = tmp_path / "run.json"
    run, report = play_run(2, tables=tables, rules=WEAK, save=str(save))
    assert report.won and report.floor == 3 and run.status == "won"
    rows = [(s["floor"], s["row"]) for s in report.steps]
    assert rows == [(f, r) for f in range(3) for r in range(8)]  # 24 nodes, one per row
    assert [s["kind"] for s in report.steps if s["row"] == 7] == ["boss"] * 3
    assert len(run.relics) >= 3  # every boss drops one
    assert load_run(save, tables).status == "won"  # saved after every step (R-TOWER-8)


def test_simulation_report_counts_deaths_and_hp(tables: Tables) -> None:
    reports = simulate(2, seed=40, tables=tables, agent="random")
    text = summary(reports)
    assert text.startswith("2 runs · ")
    assert "deaths by node" in text and "HP curve" in text and "floor 1:" in text
    for r in reports:
        assert r.hp_curve == [s["hp_after"] for s in r.steps]
        assert r.won or r.death.split()[1] in ("battle", "elite", "boss")


def test_tower_main_simulate(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    out_json = tmp_path / "runs.json"
    assert (
        tower_main(
            ["simulate", "--runs", "1", "--seed", "3", "--agent", "random", "--json", str(out_json)]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert out.startswith("1 runs · ") and "HP curve" in out
    data = json.loads(out_json.read_text(encoding="utf-8"))
    assert data[0]["seed"] == 3
    assert tower_main(["simulate", "--runs", "0"]) == 2
    assert tower_main(["explode"]) == 2
