"""The search's result: :func:`suggest` runs it, re-measures the proposals it shows on
holdout blocks, then on the run's own verification blocks, and says from the latter
alone whether each meets the targets (:class:`Proposal`, :class:`BalanceResult`)."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from throne_lib.kit.balance.adapter import (
    BalanceGame,
)
from throne_lib.kit.balance.budget import (
    Budget,
)
from throne_lib.kit.balance.effects import ChangeEffect, change_effects
from throne_lib.kit.balance.measure import (
    SEED_STRIDE,
    Evaluator,
    Measure,
    OutcomeMemo,
    block_seed,
    open_executor,
    tally,
)
from throne_lib.kit.balance.repair import _Search
from throne_lib.kit.balance.search import Candidate, Progress
from throne_lib.kit.balance.space import (
    Changes,
    SearchSpace,
    Targets,
    change_size,
    variant,
)
from throne_lib.kit.balance.verification import Tell, fewest, plan_verification, tell
from throne_lib.kit.carddiff import diff_tables


@dataclass(frozen=True)
class Proposal:
    number: int
    changes: Changes
    search_imbalance: float
    size: float
    diff_text: str
    rules_changes: tuple[tuple[str, int, int], ...]  # (name, old, new)
    after: Measure  # on the holdout blocks
    table: str  # the proposed card table
    verified: Measure | None = None  # on the run's verification blocks
    # each change's effect on the holdout, the ones pruned (kept=False) included
    effects: tuple[ChangeEffect, ...] = ()
    # made by the touch-up on the holdout (Budget.holdout_repair): its holdout figures
    # helped choose its last moves, so they are in-sample
    touched_up: bool = False
    # the table the repair stage ended at (every move it kept): the one a run recommends
    # (docs/balance.md reads a run by it); False when the run had no repair
    repaired: bool = False

    @property
    def n_changes(self) -> int:
        return len(self.changes)

    @property
    def meets(self) -> bool | None:
        """Does the proposal meet every target on the run's verification blocks (None:
        not verified)? The holdout helped choose it, so its figures there do not count."""
        return None if self.verified is None else self.verified.meets


@dataclass
class BalanceResult:
    targets: Targets
    budget: Budget
    seed: int
    groups: list[str]
    space: SearchSpace
    before: Measure
    before_search: float  # imbalance of the unchanged table on the search blocks
    proposals: list[Proposal]
    front: list[tuple[Changes, tuple[float, float, float]]]  # the whole search Pareto set
    matches_played: int
    history: list[dict[str, Any]] = field(default_factory=list)
    # the first-seat lever ladder measured before the card search (search blocks): one
    # {"changes", "first_rate", "imbalance", "dropped_at", "start"} per rung
    levers: list[dict[str, Any]] = field(default_factory=list)
    # the unchanged table on the run's verification blocks, what those could tell
    # (planned before the run and as played), and their first and last match seeds
    before_verified: Measure | None = None
    planned: Tell | None = None
    verified_tell: Tell | None = None
    per_block: float = 0.0  # the fewest matches of a group per block
    verify_seeds: tuple[int, int] = (0, 0)
    # the touch-up's steps on the holdout (Budget.holdout_repair), one record each
    touch_up: list[dict[str, Any]] = field(default_factory=list)
    # outcomes a resumed run took from the stopped run's journal instead of playing them
    matches_reused: int = 0

    def proposal(self, number: int) -> Proposal:
        for p in self.proposals:
            if p.number == number:
                return p
        raise ValueError(f"no proposal {number}; there are {len(self.proposals)}")

    @property
    def generations_run(self) -> int:
        """Generations of offspring the search ran: fewer than the budget's when its
        time limit stopped it."""
        return max((int(h["generation"]) for h in self.history), default=0)

    @property
    def repairs_run(self) -> int:
        """Repair steps the search ran (fewer than ``budget.repair`` when it ran out of
        time, or when every group was in band or no step helped)."""
        return max((int(h.get("repair", 0)) for h in self.history), default=0)

    @property
    def repair_moves(self) -> int:
        """Repair steps that moved to a new candidate."""
        return sum(bool(h.get("moved")) for h in self.history if "repair" in h)

    @property
    def repair_rejected(self) -> int:
        """Repair tries that improved on the search blocks and that the confirm blocks
        turned down (:meth:`_Search.confirmed`, :data:`Budget.confirm`)."""
        return sum(int(h.get("rejected", 0)) for h in self.history)

    @property
    def repair_priced(self) -> int:
        """Confirmed repair moves not kept because they did not earn the changes they add
        (:data:`Budget.slot_price`)."""
        return sum(int(h.get("priced", 0)) for h in self.history)

    @property
    def repair_stop(self) -> str | None:
        """Why the repair stopped before its budget: "time", "in band" or "no move"."""
        for h in reversed(self.history):
            if "repair_stop" in h:
                return str(h["repair_stop"])
        return None


def _shown(
    front: list[Candidate], space: SearchSpace, targets: Targets, groups: Sequence[str], n: int
) -> list[Candidate]:
    """The imbalance-vs-number-of-changes front: for each number of changes the best
    candidate, kept only if it beats every candidate with fewer changes (at most ``n``,
    spread from fewest to most changes)."""
    best: list[Candidate] = []
    for c in sorted(
        front, key=lambda c: (len(c.changes), *c.objectives(space, targets, groups)[::2])
    ):
        if not c.changes:
            continue
        imb = c.objectives(space, targets, groups)[0]
        if best and len(best[-1].changes) == len(c.changes):
            continue
        if any(imb >= b.objectives(space, targets, groups)[0] for b in best):
            continue
        best.append(c)
    if len(best) > n:
        idx = (
            sorted({round(i * (len(best) - 1) / (n - 1)) for i in range(n)})
            if n > 1
            else [len(best) - 1]
        )
        best = [best[i] for i in idx]
    return best


def _with_repaired(shown: list[Candidate], repaired: Candidate | None, n: int) -> list[Candidate]:
    """``shown`` with the repair's final candidate in it, when the repair had confirm
    blocks: it replaces the shown candidate with as many changes, else it is added (and
    if that makes more than ``n``, the shown candidates with the most changes other than
    the first go). The proposals are chosen on the search blocks, while the repair
    chose each move on the search and confirm blocks together (twice the matches). In
    one acceptance run (seed 12) the proposal shown was one general's confirmed move of
    the last step (12 changes), better on the search blocks than the combination that
    step kept (10 changes: it also took back two changes other generals no longer
    needed), which was not shown."""
    if repaired is None or not repaired.changes or repaired in shown:
        return shown
    out = [c for c in shown if len(c.changes) != len(repaired.changes)]
    out = sorted([*out, repaired], key=lambda c: (len(c.changes), c.changes))
    while len(out) > max(n, 1):
        out.remove(next(c for c in reversed(out[1:]) if c is not repaired))
    return out


def _pruned(
    shown: list[Candidate], effects: list[list[ChangeEffect]], search: _Search
) -> tuple[list[Candidate], list[list[ChangeEffect]]]:
    """``shown`` with every change whose effect on the holdout has the wrong sign (or
    none) taken out (:data:`Budget.prune`; a knob with no known direction stays), each
    effect marked kept or not; a candidate left with no change, or the same as an
    earlier one, goes. A pruned candidate the search measured keeps its search figures;
    one it never measured has none (its search imbalance shows as NaN)."""
    out: list[Candidate] = []
    out_fx: list[list[ChangeEffect]] = []
    seen: set[Changes] = set()
    for c, fx in zip(shown, effects, strict=True):
        marked = [replace(e, kept=e.confirmed or e.expected == 0) for e in fx]
        changes = tuple((e.key, e.new) for e in marked if e.kept)
        if not changes or changes in seen:
            continue
        seen.add(changes)
        if changes != c.changes:
            c = search.archive.get(changes) or Candidate(changes)
        out.append(c)
        out_fx.append(marked)
    return out, out_fx


def suggest(
    game: BalanceGame,
    space: SearchSpace,
    targets: Targets = Targets(),
    budget: Budget = Budget(),
    seed: int = 0,
    backend: str = "process",
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    chunk: int = 4,
    memo: OutcomeMemo | None = None,
) -> BalanceResult:
    """Search for proposals and re-measure them on holdout blocks (see the module doc).
    ``chunk``: matches per worker task (more amortises a worker's table parse and the
    backend's per-task cost; fewer spreads a small step over more workers). ``memo``:
    the outcomes a stopped run of the same options played (:mod:`.memo`), taken instead
    of played, and where this run keeps its own."""
    if not space.knobs:
        raise ValueError("the search space is empty (everything frozen?)")
    with open_executor(backend, workers, scheduler) as executor:
        ev = Evaluator(game, space, executor, chunk, memo)
        search = _Search(game, space, targets, budget, seed, ev, progress)
        planned, least = plan_verification(game, budget, targets, seed, ev)
        if progress is not None:
            progress({"plan": planned, "per_block": least, "matches_played": ev.played})
        search.run()
        front = search.pareto()
        base_c = search.archive[()]
        # which to show is the search's choice (the aimed band); every figure shown is
        # under the stated band, so search and holdout imbalances compare
        shown = _shown(front, space, search.targets, search.groups, budget.proposals)
        if search.confirm_blocks or budget.screen:
            shown = _with_repaired(shown, search.repaired, budget.proposals)
        hold_rng = random.Random(f"holdout:{seed}")
        holdout = [
            game.block(hold_rng, block_seed(seed, k, holdout=True))
            for k in range(budget.holdout_blocks)
        ]
        items = [i for blk in holdout for i in blk]
        effects = [change_effects(ev, space, c.changes, items) for c in shown]
        if budget.prune:
            shown, effects = _pruned(shown, effects, search)
        touched: Changes | None = None
        touch_steps: list[dict[str, Any]] = []
        if budget.holdout_repair and shown:
            touched, touch_steps = search.touch_up(shown[-1].changes, items)
            if touched in {c.changes for c in shown}:
                touched = None  # nothing kept: the last proposal as it was
            else:
                fx = change_effects(ev, space, touched, items)
                shown.append(search.archive.get(touched) or Candidate(touched))
                effects.append(fx)  # not pruned: the holdout chose these moves
        got = ev.outcomes([((), items)] + [(c.changes, items) for c in shown])
        if progress is not None:
            progress(
                {"generation": budget.generations, "holdout": True, "matches_played": ev.played}
            )
        groups = search.groups
        before = Measure.of(tally(got[0]), targets, groups)
        base_text = game.table_text()
        proposals = []
        for n, (c, outs, fx) in enumerate(zip(shown, got[1:], effects, strict=True), start=1):
            task = variant(game, base_text, c.changes, space)
            diff = diff_tables(base_text, task.table)
            rules = tuple(
                (space[k].field, space[k].base, v) for k, v in c.changes if space[k].is_rules
            )
            obj = (
                c.objectives(space, targets, groups)
                if c.tally is not None  # a pruned set the search never measured: none
                else (math.nan, float(len(c.changes)), change_size(c.changes, space))
            )
            proposals.append(
                Proposal(
                    n,
                    c.changes,
                    obj[0],
                    obj[2],
                    diff.text() if not diff.empty else "no card changes",
                    rules,
                    Measure.of(tally(outs), targets, groups),
                    task.table,
                    effects=tuple(fx),
                    touched_up=c.changes == touched,
                    repaired=bool(c.changes)
                    and search.repaired is not None
                    and c.changes == search.repaired.changes,
                )
            )
        # the run's own verification: seeds no step of it saw; the verdict is from here
        check_rng = random.Random(f"check:{seed}")
        check = [
            game.block(check_rng, block_seed(seed, k, check=True))
            for k in range(budget.verify_blocks)
        ]
        seeds = [block_seed(seed, k, check=True) for k in range(budget.verify_blocks)]
        v_items = [i for blk in check for i in blk]
        got_v = ev.outcomes([((), v_items)] + [(p.changes, v_items) for p in proposals])
        v_before = Measure.of(tally(got_v[0]), targets, groups)
        proposals = [
            replace(p, verified=Measure.of(tally(o), targets, groups))
            for p, o in zip(proposals, got_v[1:], strict=True)
        ]
        if progress is not None:
            progress({"verified": True, "matches_played": ev.played})
        return BalanceResult(
            targets,
            budget,
            seed,
            groups,
            space,
            before,
            base_c.objectives(space, targets, groups)[0],
            proposals,
            [(c.changes, c.objectives(space, targets, groups)) for c in front],
            ev.played,
            search.history,
            [
                {
                    "changes": c.changes,
                    "first_rate": c.tally.first_rate if c.tally is not None else math.nan,
                    "imbalance": (
                        c.tally.imbalance(targets, groups) if c.tally is not None else math.nan
                    ),
                    "dropped_at": c.dropped_at,
                    "start": c is search.start,
                }
                for c in search.ladder
            ],
            v_before,
            planned,
            tell(fewest(v_before, groups), targets),
            least,
            (seeds[0], seeds[-1] + SEED_STRIDE - 1),
            touch_steps,
            ev.reused,
        )
