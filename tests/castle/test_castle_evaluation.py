"""城堡之心's fitted cut-off evaluation for ISMCTS (issue 32; ``ismcts:evaluation=fitted``):
the castle camp's chance to win from the position (CH-WIN-2/3), a logistic model whose
weights benchmarks/castle_eval_fit.py fitted to how scripted matches end."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

from tests.test_ismcts import midgame
from throne_lib.games.castle.ismcts import (
    CASTLE,
    EVAL_FEATURES,
    EVAL_WEIGHTS,
    eval_features,
    evaluate,
    evaluate_fitted,
)

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> Any:
    path = ROOT / "benchmarks" / "castle_eval_fit.py"
    spec = importlib.util.spec_from_file_location("castle_eval_fit", path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_weights_are_the_ones_the_saved_fit_printed() -> None:
    """The weights in the code are those of the data file the docs quote, in its order."""
    saved = json.loads((ROOT / "results/ismcts/castle_eval_fit_20261208.json").read_text())
    assert saved["features"] == list(EVAL_FEATURES)
    assert saved["weights"] == list(EVAL_WEIGHTS.values())


def test_the_camps_share_one_value_and_the_enemy_has_its_opposite_CH_WIN_3() -> None:
    m = midgame("castle", 5, actions=30, seats=7)
    values = evaluate_fitted(m)
    players = m.state.players
    castle = {values[p.seat] for p in players if p.role in CASTLE}
    enemy = {values[p.seat] for p in players if p.role == "enemy"}
    assert len(castle) == 1 and len(enemy) == 1
    (v,) = castle
    assert -1.0 < v < 1.0 and enemy == {-v}
    hand_made = evaluate(m)  # a 中立 scores as the hand-made evaluation has it
    assert all(values[p.seat] == hand_made[p.seat] for p in players if p.role == "neutral")
    assert len(eval_features(m)) == len(EVAL_FEATURES)


def test_a_wounded_lord_or_a_fallen_enemy_moves_the_castles_value_its_way() -> None:
    m = midgame("castle", 5, actions=30, seats=7)
    lord = next(p for p in m.state.players if p.role == "lord")
    v = evaluate_fitted(m)[lord.seat]
    hurt = m.copy()
    hurt.state.players[lord.seat].hp = 1
    assert lord.hp > 1 and evaluate_fitted(hurt)[lord.seat] < v
    felled = m.copy()
    foe = next(p for p in felled.state.players if p.role == "enemy" and p.alive)
    foe.hp, foe.alive, foe.soldiers = 0, False, []
    assert evaluate_fitted(felled)[lord.seat] > v


def test_the_fit_runs_end_to_end_and_beats_the_prior_on_its_own_seeds(tmp_path: Path) -> None:
    """benchmarks/castle_eval_fit.py at a toy size writes its figures and weights (6-seat
    seeds 8–13: the castle wins seed 11 of them with the scripted agents)."""
    out = tmp_path / "fit.json"
    assert (
        _bench().main(["--train", "8:6", "--test", "8:6", "--seats", "6", "--out", str(out)]) == 0
    )
    data = json.loads(out.read_text())
    assert data["features"] == list(EVAL_FEATURES) and len(data["weights"]) == len(EVAL_FEATURES)
    row = data["results"]["6 seats"]
    assert row["positions"] > 0
    assert 0 < row["castle_won"] < 1  # both outcomes among the positions
    assert row["loglik_fitted"] > row["loglik_prior"]
