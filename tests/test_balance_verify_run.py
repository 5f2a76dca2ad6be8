"""Sturdier balance runs (issue #38, items 2 and 3): proposals bounded per change (no
100% jump, no cost 0 unless allowed), each change's effect measured on the holdout,
verification on seeds no step of the run has seen, the verdict from those figures
alone, and the warning when the budget is too small to tell. On the toy game of
test_balance.py (seconds each)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_balance import TABLE, ToyGame  # noqa: E402

from throne_lib.kit.balance import (  # noqa: E402
    MAX_STEP,
    Budget,
    Targets,
    is_cost,
    search_space,
    step_bound,
    suggest,
)

# --- bounds on a change (item 3) -----------------------------------------------------------


def test_a_bounded_space_refuses_a_100_percent_jump() -> None:
    # attack 2 may become 1 or 3 (half of 2 is 1), never 4; hp 6 may move by 3
    assert step_bound(2, MAX_STEP) == 1
    assert step_bound(6, MAX_STEP) == 3
    assert step_bound(1, MAX_STEP) == 1  # at least one step: a small integer may still move
    assert step_bound(20, MAX_STEP, step=5) == 10  # whole steps of 5
    table = TABLE.replace("monk,僧侣,5,3,", "monk,僧侣,2,1,")
    space = search_space(ToyGame(table), max_step=MAX_STEP)
    assert (space["monk.power"].low, space["monk.power"].high) == (1, 3)  # not 0..5
    assert (space["giant.power"].low, space["giant.power"].high) == (5, 11)  # ±3 by its spec
    unbounded = search_space(ToyGame(table))
    assert unbounded["monk.power"].high == 5  # the library's default: the field's own bounds
    with pytest.raises(ValueError, match="max_step"):
        step_bound(2, 0)


def test_a_cost_does_not_fall_to_zero_unless_allowed() -> None:
    table = TABLE.replace("monk,僧侣,5,3,", "monk,僧侣,5,1,")
    strict = search_space(ToyGame(table), max_step=MAX_STEP, zero_cost=False)
    assert strict["monk.cost"].low == 1 and strict["knight.cost"].low == 2
    allowed = search_space(ToyGame(table), max_step=MAX_STEP, zero_cost=True)
    assert allowed["monk.cost"].low == 0
    assert is_cost("cost") and is_cost("action_cost") and not is_cost("power")


def test_no_proposal_of_a_bounded_run_jumps_or_zeroes_a_cost() -> None:
    game = ToyGame()
    space = search_space(game, max_step=MAX_STEP, zero_cost=False)
    res = suggest(game, space, Targets(), Budget(population=4, generations=2, blocks=2,
                  holdout_blocks=4, proposals=3), seed=1, backend="serial")  # fmt: skip
    for p in res.proposals:
        for key, new in p.changes:
            k = space[key]
            if not k.is_rules:
                assert abs(new - k.base) <= step_bound(k.base, MAX_STEP, k.step)
                assert not (k.field == "cost" and new == 0)
