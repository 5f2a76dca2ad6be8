"""The NSGA-II search (:mod:`throne_lib.kit.nsga`) over sparse edits: candidates, racing
on common random numbers, guided variation, the first seat's lever ladder, the generations
and their Pareto set. The repair stage that follows them is :mod:`.repair`."""

from __future__ import annotations

import math
import random
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from throne_lib.kit import nsga
from throne_lib.kit.balance.adapter import (
    BalanceGame,
)
from throne_lib.kit.balance.budget import (
    LEVER_DROP_Z,
    LEVER_HEADROOM,
    MIN_PULL,
    Budget,
)
from throne_lib.kit.balance.measure import (
    Evaluator,
    Tally,
    block_seed,
    tally,
)
from throne_lib.kit.balance.space import (
    FIRST,
    Changes,
    Knob,
    SearchSpace,
    Targets,
    change_size,
    normalise,
)


@dataclass
class Candidate:
    changes: Changes
    block_scores: list[float] = field(default_factory=list)  # imbalance per block played
    tally: Tally | None = None  # over every block, once fully evaluated
    dropped_at: int | None = None  # block after which racing dropped it
    fixes: str | None = None  # the group a repair try was made for
    direction: int = 0  # and which way it was to move it (+1 stronger, -1 weaker)
    confirm: Tally | None = None  # on the confirm blocks, once measured there
    pooled: Tally | None = None  # on the search and confirm blocks together, likewise
    rejected: bool = False  # improved on the search blocks, not kept after the confirm check

    def objectives(
        self, space: SearchSpace, targets: Targets, groups: Sequence[str]
    ) -> tuple[float, float, float]:
        assert self.tally is not None
        return (
            round(self.tally.imbalance(targets, groups), 12),
            float(len(self.changes)),
            change_size(self.changes, space),
        )


Progress = Callable[[dict[str, Any]], None]


class _Generations:
    """The generations of the search; :class:`throne_lib.kit.balance.repair._Search` adds
    the repair stage."""

    def __init__(
        self,
        game: BalanceGame,
        space: SearchSpace,
        targets: Targets,
        budget: Budget,
        seed: int,
        evaluator: Evaluator,
        progress: Progress | None,
    ) -> None:
        self.game = game
        self.space = space
        self.stated = targets
        self.targets = targets.aimed(budget.aim)  # what the search works towards
        self.budget = budget
        self.rng = random.Random(seed)
        self.seed = seed
        self.ev = evaluator
        self.progress = progress
        self.groups = list(game.groups())
        block_rng = random.Random(f"blocks:{seed}")
        self.blocks = [game.block(block_rng, block_seed(seed, k)) for k in range(budget.blocks)]
        # after the search blocks in the same stream and seed range: never a holdout seed
        self.confirm_blocks = [
            game.block(block_rng, block_seed(seed, budget.blocks + k))
            for k in range(budget.confirm)
        ]
        self.by_group: dict[str, list[Knob]] = {}
        for k in space.knobs:
            for g in k.groups:
                self.by_group.setdefault(g, []).append(k)
        self.archive: dict[Changes, Candidate] = {}
        self.ladder: list[Candidate] = []
        self.start: Candidate | None = None
        self.repaired: Candidate | None = None  # where the repair stage ended
        self.history: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self.stalled = 0  # repair steps in a row that kept nothing (halves the slot price)
        # what one step of a knob did (Budget.repair_memory): (key, +1/-1 in value) ->
        # each measured try's change of every group's rate on the search blocks; None
        # for a try racing dropped (clearly worse than where it started)
        self.memory: dict[tuple[str, int], list[dict[str, float] | None]] = {}

    def _out_of_time(self, last_generation: float, reserve: bool = False) -> bool:
        """Would one more generation (as long as the last) and the end of the run (the
        holdout, the changes' effects on it, the touch-up and the verification) pass the budget's time
        limit? The end is estimated at the run's time per match so far for the unchanged
        table and every proposal replaying all its matches. ``reserve``:
        leave the repair its share of the limit too."""
        limit = self.budget.time_limit
        if limit is None:
            return False
        if reserve and self.budget.repair:
            limit *= 1 - self.budget.repair_share
        spent = time.monotonic() - self.started
        per_match = spent / max(1, self.ev.played)
        items = sum(len(b) for b in self.blocks) / len(self.blocks)
        b = self.budget
        # the holdout, each change's effect on it (about once more), the verification
        shown = 1 + b.proposals + (b.holdout_repair > 0)  # the touch-up adds one
        end = per_match * items * (2 * b.holdout_blocks + b.verify_blocks) * shown
        # the touch-up: each try replays about the matches of the groups one card touches
        share = min(1.0, 3 / max(1, len(self.groups)))
        tries = b.holdout_repair * b.repair_groups * b.repair_tries
        end += per_match * items * b.holdout_blocks * tries * share
        return spent + last_generation + end > limit

    # --- evaluation -----------------------------------------------------------------------

    def _block_tally(self, changes: Changes, k: int) -> Tally:
        return tally(self.ev.outcomes([(changes, self.blocks[k])])[0])

    def evaluate(
        self, cands: list[Candidate], incumbents: list[Candidate], first_above: float | None = None
    ) -> None:
        """Measure ``cands`` block by block, racing them against ``incumbents``; with
        ``first_above``, also drop one whose first seat is clearly above it
        (:meth:`_first_clearly_above`)."""
        alive = [c for c in cands if c.tally is None]
        firsts = {id(c): Tally() for c in alive}  # the first seat's results so far
        for k in range(self.budget.blocks):
            if not alive:
                break
            got = self.ev.outcomes([(c.changes, self.blocks[k]) for c in alive])
            for c, outs in zip(alive, got, strict=True):
                t = tally(outs)
                c.block_scores.append(t.imbalance(self.targets, self.groups))
                firsts[id(c)].first_score += t.first_score
                firsts[id(c)].first_count += t.first_count
            if k + 1 >= self.budget.min_blocks and k + 1 < self.budget.blocks:
                for c in alive:
                    if self._beaten(c, incumbents, k + 1) or (
                        first_above is not None
                        and self._first_clearly_above(firsts[id(c)], first_above)
                    ):
                        c.dropped_at = k + 1
                alive = [c for c in alive if c.dropped_at is None]
        for c in alive:
            per_block = self.ev.outcomes([(c.changes, b) for b in self.blocks])
            c.tally = tally([o for block in per_block for o in block])
            self.archive[c.changes] = c

    @staticmethod
    def _first_clearly_above(t: Tally, bound: float) -> bool:
        """Is the first seat of ``t`` over ``bound`` by more than
        :data:`LEVER_DROP_Z` standard errors? The lever ladder's racing: a rules rung
        replays every match with new dice, so it is never paired with a candidate under
        other rules (:meth:`_beaten`), but a rung whose first seat is clearly too high
        cannot be the start. On the acceptance runs, second-seat mana 1 and the extra
        draws sat at 65–70% against 52.5%, and measuring them on every search block cost
        each run about 5,000 matches (1.5 minutes)."""
        if not t.first_count:
            return False
        p = t.first_rate
        se = math.sqrt(max(p * (1 - p), 1e-9) / t.first_count)
        return p - LEVER_DROP_Z * se > bound

    def _rules_of(self, changes: Changes) -> Changes:
        return tuple((k, v) for k, v in changes if self.space[k].is_rules)

    def _beaten(self, c: Candidate, incumbents: list[Candidate], n: int) -> bool:
        """Is ``c`` clearly worse (paired test over its first ``n`` blocks) than an
        incumbent with no more and no bigger changes *under the same rules*? Only then
        are the two paired: matches neither's cards touch have the same outcome for
        both. Under other rules every match is replayed with new dice, and a block's
        imbalance (5 matches per general) is noise enough to drop the first seat's lever
        (the 27-minute acceptance run dropped second-seat mana 3 and 4 this way)."""
        size = change_size(c.changes, self.space)
        rules = self._rules_of(c.changes)
        for d in incumbents:
            if d.changes == c.changes or len(d.changes) > len(c.changes):
                continue
            if self._rules_of(d.changes) != rules:
                continue
            if change_size(d.changes, self.space) > size:
                continue
            diffs = [a - b for a, b in zip(c.block_scores[:n], d.block_scores[:n], strict=True)]
            mean = statistics.fmean(diffs)
            sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
            if mean > 0 and mean - self.budget.z * sd / math.sqrt(len(diffs)) > 0:
                return True
        return False

    # --- variation ------------------------------------------------------------------------

    def _clip(self, knob: Knob, value: int) -> int:
        return max(knob.low, min(knob.high, value))

    def _guided_add(self, changes: dict[str, int], parent: Candidate | None) -> bool:
        complaints = (
            parent.tally.complaints(self.targets, self.groups)
            if parent is not None and parent.tally is not None
            else []
        )
        complaints = [c for c in complaints if self.by_group.get(c[0])]
        if complaints and self.rng.random() < 0.85:
            group, direction, _ = self.rng.choices(complaints, [w for _, _, w in complaints])[0]
            knobs = [k for k in self.by_group[group] if k.key not in changes]
            if group == FIRST:
                knobs = [k for k in knobs if k.sign != 0]
            if not knobs:
                return False
            if group == FIRST:
                weights = [1.0 / len(k.groups) for k in knobs]
            else:
                assert parent is not None and parent.tally is not None
                weights = [self._pull(k, direction, parent.tally) for k in knobs]
            knob = self.rng.choices(knobs, weights)[0]
            if group == FIRST:  # one rules knob carries the whole edge: any size to its bound
                up = direction * knob.sign > 0
                room = (knob.high - knob.base if up else knob.base - knob.low) // knob.step
                steps = self.rng.randint(1, max(1, room))
            else:
                steps = self.rng.choice((1, 1, 2))
            value = self._clip(knob, knob.base + direction * knob.sign * steps * knob.step)
        else:
            free = [k for k in self.space.knobs if k.key not in changes]
            if not free:
                return False
            knob = self.rng.choice(free)
            value = self._clip(knob, knob.base + self.rng.choice((-1, 1)) * knob.step)
        if value == knob.base:
            return False
        changes[knob.key] = value
        return True

    def _pull(self, knob: Knob, direction: int, t: Tally) -> float:
        """How much moving ``knob`` in ``direction`` (+1 stronger) helps every group it
        touches at once: the sum over its groups of how far each lies from the centre of
        the band on the side the move corrects (negative where it pushes a group away).
        A card shared by three weak generals of one race outweighs one general's own card;
        a card every general plays moves them all alike and sums to about nothing. Never
        below :data:`MIN_PULL`, so any knob of the group can still be drawn."""
        lo, hi = self.targets.band
        centre = (lo + hi) / 2
        pull = 0.0
        for g in knob.groups:
            if g == FIRST:
                continue
            r = t.rate(g)
            if not math.isnan(r):
                pull += (centre - r) * direction
        return max(MIN_PULL, pull)

    def mutate(self, changes: dict[str, int], parent: Candidate | None) -> dict[str, int]:
        out = dict(changes)
        for _ in range(10):
            r = self.rng.random()
            if len(out) < self.budget.max_changes and (not out or r < 0.55):
                if self._guided_add(out, parent):
                    return out
            elif out and r < 0.8:
                key = self.rng.choice(sorted(out))
                knob = self.space[key]
                value = self._clip(knob, out[key] + self.rng.choice((-1, 1)) * knob.step)
                if value == knob.base:
                    del out[key]
                else:
                    out[key] = value
                return out
            elif out:
                del out[self.rng.choice(sorted(out))]
                return out
        return out

    def crossover(self, a: Changes, b: Changes) -> dict[str, int]:
        da, db = dict(a), dict(b)
        out: dict[str, int] = {}
        for key in sorted(set(da) | set(db)):
            if key in da and key in db:
                out[key] = da[key] if self.rng.random() < 0.5 else db[key]
            elif self.rng.random() < 0.5:
                out[key] = da.get(key, db.get(key, 0))
        keys = sorted(out)
        while len(keys) > self.budget.max_changes:
            keys.remove(self.rng.choice(keys))
        return {k: out[k] for k in keys}

    # --- the loop --------------------------------------------------------------------------

    def _points(self, pop: list[Candidate]) -> list[tuple[float, float, float]]:
        return [c.objectives(self.space, self.targets, self.groups) for c in pop]

    def _new(self, changes: Mapping[str, int], taken: set[Changes]) -> Candidate | None:
        ch = normalise(changes, self.space)
        if ch in taken:
            return None
        taken.add(ch)
        return Candidate(ch)

    def lever_rungs(self, base: Candidate) -> list[list[dict[str, int]]]:
        """The first seat's levers, each alone at every value on the helpful side of its
        base (R-TURN-12's second-seat mana 1, 2, 3, 4 …), grouped by steps from the base:
        ``[[mana 1, draw 1], [mana 2, draw 2], [mana 3], [mana 4]]``. Empty unless the
        unchanged table misses the first-seat bound and ``budget.rules_first`` is on."""
        if not self.budget.rules_first or base.tally is None:
            return []
        if not any(g == FIRST for g, _, _ in base.tally.complaints(self.targets, self.groups)):
            return []
        levels: list[list[dict[str, int]]] = []
        for knob in self.space.knobs:
            if FIRST not in knob.groups or knob.sign == 0:
                continue
            value = knob.base - knob.sign * knob.step  # -1: the first seat should weaken
            steps = 0
            while knob.low <= value <= knob.high:
                if steps == len(levels):
                    levels.append([])
                levels[steps].append({knob.key: value})
                value -= knob.sign * knob.step
                steps += 1
        return levels

    def lever_ladder(self, base: Candidate, taken: set[Changes]) -> list[Candidate]:
        """Measure the rungs of :meth:`lever_rungs` one step at a time, every lever of a
        step together, and stop after the first step at which some lever meets the
        first-seat bound less :data:`LEVER_HEADROOM`: the start is the fewest steps that
        do, and each rung replays every search match, so the steps past it are not
        measured (their settings stay open to the search's mutations). Below the last
        step, a rung whose first seat is clearly over the bound is dropped as soon as
        that is clear (:meth:`_first_clearly_above`)."""
        out: list[Candidate] = []
        bound = self.stated.first_seat_max - LEVER_HEADROOM
        levels = self.lever_rungs(base)
        for n, level in enumerate(levels, start=1):
            cands = [c for ch in level if (c := self._new(ch, taken)) is not None]
            # a rung clearly over the bound is dropped early, except on the last step:
            # when no rung meets the bound, the start is the lowest first seat measured
            self.evaluate(cands, [base], first_above=bound if n < len(levels) else None)
            out += cands
            if any(c.tally is not None and c.tally.first_rate <= bound for c in cands):
                break
        return out

    def lever(self, ladder: list[Candidate]) -> Candidate | None:
        """The rules setting the card search starts from: the fewest steps whose first
        seat is under the bound less :data:`LEVER_HEADROOM` on the search blocks (else
        the lowest first seat); None when every rung was dropped by racing."""
        done = [c for c in ladder if c.tally is not None]
        if not done:
            return None
        bound = self.stated.first_seat_max - LEVER_HEADROOM

        def rank(c: Candidate) -> tuple[float, float, float]:
            assert c.tally is not None
            excess = max(0.0, c.tally.first_rate - bound)
            return (round(excess, 12), change_size(c.changes, self.space), c.tally.first_rate)

        return min(done, key=rank)

    def run(self) -> list[Candidate]:
        b = self.budget
        base = Candidate(())
        self.evaluate([base], [])
        taken: set[Changes] = {()}
        ladder = self.lever_ladder(base, taken)
        start = self.lever(ladder) or base
        self.ladder = ladder
        self.start = start
        pop = [base] if start is base else [base, start]
        first: list[Candidate] = []
        for _ in range(20 * b.population):
            if len(pop) + len(first) >= b.population:
                break
            c = self._new(self.mutate(dict(start.changes), start), taken)
            if c is not None:
                first.append(c)
        self.evaluate(first, pop)
        pop += [c for c in first if c.tally is not None]
        if len(ladder) > 1:  # the other rungs compete for a place like any candidate
            merged = pop + [c for c in ladder if c is not start and c.tally is not None]
            pop = [merged[i] for i in nsga.select(self._points(merged), b.population)]
        self._report(0, pop, dropped=sum(c.dropped_at is not None for c in ladder + first))
        last = time.monotonic() - self.started
        for gen in range(1, b.generations + 1):
            if self._out_of_time(last, reserve=True):
                break
            t0 = time.monotonic()
            rank, crowd = nsga.ranks(self._points(pop))
            kids: list[Candidate] = []
            for _ in range(20 * b.population):
                if len(kids) >= b.population:
                    break
                i = nsga.tournament(rank, crowd, self.rng)
                if self.rng.random() < 0.5:
                    j = nsga.tournament(rank, crowd, self.rng)
                    child = self.crossover(pop[i].changes, pop[j].changes)
                    if self.rng.random() < 0.5:
                        child = self.mutate(child, pop[i])
                else:
                    child = self.mutate(dict(pop[i].changes), pop[i])
                c = self._new(child, taken)
                if c is not None:
                    kids.append(c)
            self.evaluate(kids, pop)
            merged = pop + [c for c in kids if c.tally is not None]
            keep = nsga.select(self._points(merged), b.population)
            pop = [merged[i] for i in keep]
            self._report(gen, pop, dropped=sum(c.dropped_at is not None for c in kids))
            last = time.monotonic() - t0
        if b.repair:
            self.repair(taken)
        return pop

    def _best(self, where: Callable[[Candidate], bool] | None = None) -> Candidate | None:
        """The fully measured candidate with the least imbalance (then fewest, smallest
        changes), among those ``where`` accepts; None if there is none."""
        cands = sorted(
            (c for c in self.archive.values() if not c.rejected and (where is None or where(c))),
            key=lambda c: c.changes,
        )
        return min(cands, key=self._obj, default=None)

    def _obj(self, c: Candidate) -> tuple[float, float, float]:
        return c.objectives(self.space, self.targets, self.groups)

    def repair(self, taken: set[Changes]) -> None:
        """The repair stage after the generations (:data:`Budget.repair`):
        :class:`throne_lib.kit.balance.repair._Search` provides it."""
        raise NotImplementedError

    def _report(
        self,
        gen: int,
        pop: list[Candidate],
        dropped: int = 0,
        repair: int | None = None,
        moved: bool = False,
        rejected: int = 0,
        step: Mapping[str, Any] | None = None,
    ) -> None:
        """Append a generation's (or repair step's) entry to the history and tell the
        progress callback. ``step``: more fields (what a repair step worked on and kept
        (``worked_on``: [group, direction, rate before]; ``kept``: [knob, old, new]; the
        aimed imbalance before and after, on search and confirm blocks when there are; a
        screened repair's refresh of its blocks)."""
        pts = self._points(pop)
        best = min(pts)
        extra = (
            {}
            if repair is None
            else {"repair": repair, "moved": moved}
            | ({"rejected": rejected} if self.confirm_blocks else {})
        ) | dict(step or {})
        self.history.append(
            {
                **extra,
                "generation": gen,
                "generations": self.budget.generations,
                "best_imbalance": best[0],
                "best_changes": int(best[1]),
                "dropped": dropped,
                "matches_played": self.ev.played,
                "front": [
                    {"imbalance": p[0], "changes": int(p[1]), "size": p[2]} for p in sorted(pts)
                ],
            }
        )
        if self.progress is not None:
            self.progress(self.history[-1])

    def pareto(self) -> list[Candidate]:
        """The non-dominated set of every fully measured candidate."""
        cands = sorted(
            (c for c in self.archive.values() if not c.rejected), key=lambda c: c.changes
        )
        pts = self._points(cands)
        front = nsga.non_dominated_fronts(pts)[0] if cands else []
        return sorted((cands[i] for i in front), key=lambda c: (len(c.changes), c.changes))
