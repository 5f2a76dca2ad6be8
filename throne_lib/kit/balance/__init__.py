"""Balance assistant: the smallest card-table (and rules) changes that even out win rates.

Game-agnostic. A game plugs in through a small adapter (:class:`BalanceGame`): which
numeric fields its card table has and how to read/write them, which rules parameters
may move, which groups (decks, generals, roles …) the win rates are taken over, how to
draw a block of matches and how to play a batch of them. The search itself:

- **Search space** (:func:`search_space`): every numeric card field within declared
  bounds, plus chosen rules parameters; frozen cards and fields are left out entirely,
  so no candidate can ever touch them.
- **Objectives** (minimised): *imbalance* (how far the group win rates fall outside the
  target band, plus the first seat's excess over its bound, plus match length outside
  its bounds), the *number* of changed fields and their *size* (steps moved).
- **NSGA-II** (:mod:`throne_lib.kit.nsga`) with operators made for sparse edits: add a
  change (guided: a knob of a group that is out of band, moved in the direction that
  helps), resize one, drop one; uniform crossover of two parents' changes.
- **Common random numbers**: every candidate plays the same blocks of matches (same
  pairings, same seeds). A match whose cards and rules a candidate does not touch has
  the outcome it had for the table it was first played with, so it is not replayed:
  results are cached by (match, the changes that concern it).
- **Racing**: offspring are measured block by block and dropped as soon as a paired
  test over the blocks played shows a candidate with no more (and no bigger) changes
  is clearly better (F-Race style; ``z`` sets how sure).
- **Repair** (optional, ``Budget.repair``): after the generations, a greedy local search
  from the best candidate: each step tries single steps of a few knobs of each group
  still out of band (weighted like guided changes), and keeps the best if it lowers the
  imbalance. A knob of one general's card replays only that general's matches, so a
  step costs a fraction of a generation and goes deeper than a population can.
- **Holdout**: every proposal shown is re-measured, with the unchanged table beside
  it, on fresh blocks whose seeds the search never used; win rates carry 95% Wilson
  intervals.
- **Verification** (:data:`Budget.verify_blocks`): then on blocks whose seeds no step of
  the run used; whether a proposal meets the targets is said from these alone, with
  what the sample can tell (:func:`plan_verification`, before the run).

Parallel on a process pool or a Dask cluster; the rows come back in submission order,
so the same seed gives the same proposals on every backe

The package, by responsibility: :mod:`.adapter` (what a game provides), :mod:`.space`
(targets, knobs, changes), :mod:`.effects` (each change's own effect), :mod:`.measure` (seeds, tallies, the evaluator), :mod:`.budget`
(the budget and tuning constants), :mod:`.search` (NSGA-II generations and the lever
ladder), :mod:`.repair` (the repair stage), :mod:`.proposals` (:func:`suggest` and its
result) and :mod:`.verification` (:func:`verify`). Everything is imported from here.
"""

from __future__ import annotations

from throne_lib.kit.balance.adapter import (
    EFFECT_PREFIX,
    BalanceGame,
    CardTableAdapter,
    FieldSpec,
    Outcome,
    PairingAdapter,
    PlayTask,
    RulesField,
    SeatResult,
    effect_numbers,
    int_field,
    keyword_amount,
    pairing_block,
    with_keyword_amount,
)
from throne_lib.kit.balance.budget import (
    CONFIRM_TOP,
    LEVER_DROP_Z,
    LEVER_HEADROOM,
    MIN_PULL,
    REPAIR_GROUPS,
    REPAIR_TRIES,
    USELESS_WEIGHT,
    Budget,
)
from throne_lib.kit.balance.effects import (
    ChangeEffect,
    change_effects,
)
from throne_lib.kit.balance.measure import (
    CHECK_BASE,
    MAX_BLOCKS,
    MAX_SEED,
    SEED_STRIDE,
    VERIFY_BASE,
    Evaluator,
    GroupRate,
    Measure,
    Tally,
    _rates,
    block_seed,
    open_executor,
    tally,
)
from throne_lib.kit.balance.proposals import (
    BalanceResult,
    Proposal,
    _shown,
    _with_repaired,
    suggest,
)
from throne_lib.kit.balance.repair import (
    _Search,
)
from throne_lib.kit.balance.search import (
    Candidate,
    Progress,
)
from throne_lib.kit.balance.space import (
    FIRST,
    MAX_STEP,
    Changes,
    Knob,
    SearchSpace,
    Targets,
    _outside,
    apply_card_changes,
    base_values,
    change_size,
    is_cost,
    normalise,
    parse_bounds,
    search_space,
    step_bound,
    variant,
)
from throne_lib.kit.balance.verification import (
    Tell,
    Verification,
    half_width,
    plan_verification,
    tell,
    verify,
)

__all__ = [
    "BalanceGame",
    "BalanceResult",
    "Budget",
    "CHECK_BASE",
    "CONFIRM_TOP",
    "Candidate",
    "CardTableAdapter",
    "ChangeEffect",
    "Changes",
    "EFFECT_PREFIX",
    "Evaluator",
    "FIRST",
    "FieldSpec",
    "GroupRate",
    "Knob",
    "LEVER_DROP_Z",
    "LEVER_HEADROOM",
    "MAX_BLOCKS",
    "MAX_SEED",
    "MAX_STEP",
    "MIN_PULL",
    "Measure",
    "Outcome",
    "PairingAdapter",
    "PlayTask",
    "Progress",
    "Proposal",
    "REPAIR_GROUPS",
    "REPAIR_TRIES",
    "RulesField",
    "SEED_STRIDE",
    "SearchSpace",
    "SeatResult",
    "Tally",
    "Tell",
    "Targets",
    "USELESS_WEIGHT",
    "VERIFY_BASE",
    "Verification",
    "_Search",
    "_outside",
    "_rates",
    "_shown",
    "_with_repaired",
    "apply_card_changes",
    "base_values",
    "block_seed",
    "change_effects",
    "change_size",
    "is_cost",
    "effect_numbers",
    "half_width",
    "int_field",
    "keyword_amount",
    "normalise",
    "open_executor",
    "pairing_block",
    "parse_bounds",
    "plan_verification",
    "search_space",
    "step_bound",
    "suggest",
    "tally",
    "tell",
    "variant",
    "verify",
    "with_keyword_amount",
]
