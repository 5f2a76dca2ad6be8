"""The repair stage after the generations (:data:`Budget.repair`): greedy single-knob
steps from the best candidate for the groups still out of band, with optional confirm
blocks, slot price and move memory."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from throne_lib.kit.balance.budget import (
    CONFIRM_TOP,
    LEVER_HEADROOM,
    USELESS_WEIGHT,
)
from throne_lib.kit.balance.measure import (
    Tally,
    tally,
)
from throne_lib.kit.balance.screening import _Screening
from throne_lib.kit.balance.search import Candidate
from throne_lib.kit.balance.space import (
    FIRST,
    Changes,
    Knob,
    _outside,
)


class _Search(_Screening):
    """The whole search: the generations (:class:`_Generations`) and the repair stage."""

    def repair_start(self) -> Candidate:
        """Where the repair starts: the best candidate (:meth:`_best`) among those whose
        first seat meets its bound on the search blocks, less :data:`LEVER_HEADROOM` when
        the lever ladder ran; the best of all when none does (or the game has no first
        seat). The repair moves cards for the groups out of band and leaves the first
        seat to the ladder, so a start over the bound stays over it: in one acceptance
        run (seed 5) the best candidate was the lever a step short (first seat 57.6% on
        the search blocks, better elsewhere), and its repaired proposal had the first
        seat at 59% on the holdout."""
        bound = self.stated.first_seat_max - (LEVER_HEADROOM if self.ladder else 0.0)
        best = self._best(lambda c: c.tally is not None and not c.tally.first_rate > bound)
        best = best or self._best()
        assert best is not None  # the unchanged table is always measured
        return best

    def repair_moves(
        self, cur: Candidate, taken: set[Changes], t: Tally | None = None
    ) -> list[Candidate]:
        """One repair step's tries: for each of the ``repair_groups`` groups furthest
        out of (the aimed) band, up to ``repair_tries`` of its knobs, drawn without
        replacement by :meth:`_pull`, each moved one step from ``cur`` in the direction
        that helps the group (further, back towards its base, or a new change). When
        ``cur`` has ``max_changes`` already, a new change is a swap: it replaces one of
        ``cur``'s card changes that touches none of the group's cards, drawn by
        :meth:`_drop` (the rules lever stays). A group's first try goes to one of its
        knobs ``cur`` has changed already, when there is one: pushing further a change
        that moved the group the right way (or taking back one that moved it the wrong
        way) costs no change, and a one-step try of a fresh knob rarely drew it again (a
        group has dozens of knobs). With :data:`Budget.repair_memory` the first try is
        rather the move measured before that :meth:`predicted` says helps most, when one
        is predicted to help. The first seat is left to the lever ladder.
        ``t``: the tally that says which groups are out (default ``cur``'s on the
        search blocks)."""
        assert cur.tally is not None
        t = t if t is not None else cur.tally
        complaints = [
            c
            for c in t.complaints(self.targets, self.groups)
            if c[0] != FIRST and self.by_group.get(c[0])
        ]
        complaints.sort(key=lambda c: (-c[2], c[0]))
        current = dict(cur.changes)
        full = len(current) >= self.budget.max_changes
        tries: list[Candidate] = []
        for group, direction, _ in complaints[: self.budget.repair_groups]:
            knobs: list[Knob] = []
            for k in self.by_group[group]:
                now = current.get(k.key, k.base)
                if self._clip(k, now + direction * k.sign * k.step) != now:
                    knobs.append(k)
            weights = [self._pull(k, direction, t) for k in knobs]
            gains: list[float | None] = [None] * len(knobs)
            if self.budget.repair_memory:
                gains = [self.predicted(k.key, direction * k.sign, t) for k in knobs]
                weights = [
                    w * (USELESS_WEIGHT if p is not None and p >= 0 else 1.0)
                    for w, p in zip(weights, gains, strict=True)
                ]
            droppable = sorted(
                key
                for key in current
                if not self.space[key].is_rules and group not in self.space[key].groups
            )
            mine = 0
            while knobs and mine < self.budget.repair_tries:
                # the first try of a group goes to a knob the candidate changed already,
                # if one of the group's is: one more step, or one back (free either way)
                changed = [i for i, k in enumerate(knobs) if k.key in current]
                best = min(
                    (i for i, p in enumerate(gains) if p is not None and p < 0),
                    key=lambda i: (gains[i], knobs[i].key),
                    default=None,
                )
                if mine == 0 and best is not None:
                    i = best  # the move measured to help most from here
                elif mine == 0 and changed:
                    i = changed[
                        self.rng.choices(range(len(changed)), [weights[i] for i in changed])[0]
                    ]
                else:
                    i = self.rng.choices(range(len(knobs)), weights)[0]
                k = knobs.pop(i)
                weights.pop(i)
                gains.pop(i)
                now = current.get(k.key, k.base)
                moved = {**current, k.key: self._clip(k, now + direction * k.sign * k.step)}
                if full and k.key not in current:
                    if not droppable:
                        continue
                    del moved[self._drop(droppable, current, t)]
                c = self._new(moved, taken)
                if c is not None:  # None: measured before (by the search or a step)
                    c.fixes = group
                    c.direction = direction
                    tries.append(c)
                    mine += 1
        return tries

    def remember(self, cur: Candidate, tries: Sequence[Candidate]) -> None:
        """Keep what each of ``tries`` that moves one knob of ``cur`` (not a swap) did to
        every group's rate on the search blocks (:data:`Budget.repair_memory`)."""
        assert cur.tally is not None
        here = dict(cur.changes)
        for c in tries:
            now = dict(c.changes)
            moved = [k for k in set(here) | set(now) if here.get(k) != now.get(k)]
            if len(moved) != 1:
                continue
            k = self.space[moved[0]]
            v = 1 if now.get(k.key, k.base) > here.get(k.key, k.base) else -1
            if c.tally is None and c.dropped_at is None:
                continue  # not measured
            seen = self.memory.setdefault((k.key, v), [])
            if c.tally is None:
                seen.append(None)  # dropped by racing
                continue
            seen.append({g: c.tally.rate(g) - cur.tally.rate(g) for g in self.groups})

    def predicted(self, key: str, v: int, t: Tally) -> float | None:
        """The change in aimed imbalance (groups only) that moving knob ``key`` one step
        (``v``: +1 up, -1 down) is predicted to make from the rates of ``t``: each
        group's mean measured change added to its rate. None when never measured; +inf
        when racing dropped every try of it."""
        seen = self.memory.get((key, v))
        if not seen:
            return None
        done = [d for d in seen if d is not None]
        if not done:
            return math.inf
        lo, hi = self.targets.band
        out = 0.0
        for g in self.groups:
            r = t.rate(g)
            if math.isnan(r):
                continue
            e = statistics.fmean(d.get(g, 0.0) for d in done)
            out += _outside(r + e, lo, hi) - _outside(r, lo, hi)
        return out

    def _drop(self, keys: Sequence[str], current: Mapping[str, int], t: Tally) -> str:
        """Which of ``keys`` (card changes of the current candidate) a swap drops: drawn
        with the weight :meth:`_pull` gives undoing it, so a change whose generals are
        now past the band's centre on the side it pushed them (a buff of generals now
        strong) is dropped first, and one that its generals still need is rarely. A
        uniform draw stalled run H (seed 6) at 12 changes for its last 4 of 10 steps:
        most swaps undid a move that was still needed."""
        weights = []
        for key in keys:
            k = self.space[key]
            undo = (k.base - current[key]) * k.sign  # > 0: dropping it makes them stronger
            weights.append(self._pull(k, 1 if undo > 0 else -1, t))
        return self.rng.choices(list(keys), weights)[0]

    def combine(self, cur: Candidate, tries: list[Candidate]) -> dict[str, int] | None:
        """The moves of the best try of each group that beats ``cur``, made together (each
        a difference from ``cur``); None unless two or more combine without touching the
        same knob or passing ``max_changes``. The groups' moves were each measured from
        ``cur``, and a match only one of them concerns is cached already, so the combined
        candidate replays only the matches that two of them touch."""
        here = cur.objectives(self.space, self.targets, self.groups)
        best: dict[str, Candidate] = {}
        for c in tries:
            if c.tally is None or c.fixes is None:
                continue
            obj = c.objectives(self.space, self.targets, self.groups)
            if obj < here and (
                c.fixes not in best
                or obj < best[c.fixes].objectives(self.space, self.targets, self.groups)
            ):
                best[c.fixes] = c
        winners = sorted(
            best.values(), key=lambda c: c.objectives(self.space, self.targets, self.groups)
        )
        base = dict(cur.changes)
        merged = dict(base)
        touched: set[str] = set()
        used = 0
        for w in winners:
            mine = dict(w.changes)
            delta = {k for k in set(base) | set(mine) if base.get(k) != mine.get(k)}
            if delta & touched:
                continue
            trial = dict(merged)
            for k in delta:
                if k in mine:
                    trial[k] = mine[k]
                else:
                    del trial[k]
            if len(trial) > self.budget.max_changes:
                continue
            merged, used = trial, used + 1
            touched |= delta
        return merged if used >= 2 else None

    # --- confirm blocks (Budget.confirm) -------------------------------------------------

    def confirmed(self, c: Candidate, cur: Candidate) -> bool:
        """Does the repair try ``c`` hold up on the confirm blocks against ``cur``: its
        group moves the way it was meant to there, and on search and confirm blocks
        together the imbalance falls? (Not: "the imbalance on the confirm blocks does
        not rise". The group's opponents move too, and on the toy game of the tests that
        rejected a nerf that took the too-strong hero down 8 points on them.)"""
        self._measure_confirm([c, cur])
        assert c.confirm is not None and cur.confirm is not None
        if c.fixes is not None and c.fixes in self.groups:
            moved = c.confirm.rate(c.fixes) - cur.confirm.rate(c.fixes)
            if not moved * c.direction > 0:
                return False
        return self.pooled(c).imbalance(self.targets, self.groups) < self.pooled(cur).imbalance(
            self.targets, self.groups
        )

    def earns(self, c: Candidate, cur: Candidate) -> bool:
        """Does the move from ``cur`` to ``c`` earn the changes it adds
        (:data:`Budget.slot_price`, halved for each step in a row that kept nothing), on
        search and confirm blocks together?"""
        added = len(c.changes) - len(cur.changes)
        if self.budget.slot_price <= 0 or added <= 0:
            return True
        now = self.pooled(cur).imbalance(self.targets, self.groups)
        gain = now - self.pooled(c).imbalance(self.targets, self.groups)
        free = max(1, self.budget.max_changes - len(cur.changes))
        price = self.budget.slot_price * 0.5**self.stalled
        return gain >= price * now / free * added

    def confirm_step(
        self, cur: Candidate, done: list[Candidate], taken: set[Changes]
    ) -> tuple[Candidate, int, int]:
        """Where a repair step with confirm blocks moves from ``cur``, given its measured
        tries ``done``; how many tries the confirm blocks turned down; and how many
        confirmed moves did not earn the changes they add (:meth:`earns`).

        The tries that beat ``cur`` on the search blocks are checked best first with
        :meth:`confirmed`, at most :data:`CONFIRM_TOP` of them, and the step keeps the
        first that holds up. With ``repair_combine`` every group's tries are checked so
        (at most :data:`CONFIRM_TOP` each) and the confirmed move of each group is made
        together (:meth:`combine`): the step keeps the combination if, on search and
        confirm blocks together, it beats the best confirmed move alone. A combination
        stacks only moves each confirmed on their own, not the luck of each group's best
        try. The improving tries it does not keep, and a combination that did not beat
        the best move, leave the Pareto set; a confirmed move left out stays in it. With
        a ``slot_price`` only moves (and a combination) that earn their changes count."""

        obj = self._obj
        better = sorted((c for c in done if obj(c) < obj(cur)), key=obj)
        combine = self.budget.repair_combine
        kept: dict[str | None, Candidate] = {}  # each group's confirmed move
        checks: dict[str | None, int] = {}
        rejected = 0
        for c in better:
            g = c.fixes if combine else None
            if g not in kept and checks.get(g, 0) < CONFIRM_TOP:
                checks[g] = checks.get(g, 0) + 1
                if self.confirmed(c, cur):
                    kept[g] = c
                    continue
                rejected += 1
            c.rejected = True  # unconfirmed: no proposal rests on it
        worth = {g: c for g, c in kept.items() if self.earns(c, cur)}
        priced = len(kept) - len(worth)
        kept = worth
        if not kept:
            return cur, rejected, priced
        moves = sorted(
            kept.values(), key=lambda c: self.pooled(c).imbalance(self.targets, self.groups)
        )
        best = moves[0]
        together = self.combine(cur, moves) if len(moves) > 1 else None
        if together is not None and (both := self._new(together, taken)) is not None:
            self.evaluate([both], [])
            if (
                both.tally is not None
                and self.pooled(both).imbalance(self.targets, self.groups)
                < self.pooled(best).imbalance(self.targets, self.groups)
                and self.earns(both, cur)
            ):
                return both, rejected, priced
            both.rejected = True
        return best, rejected, priced

    def repair(self, taken: set[Changes]) -> None:
        """The repair stage: greedy steps from :meth:`repair_start` (see
        :data:`Budget.repair`). Each step measures its tries on every search block, racing
        them against the current candidate, then (``repair_combine``) the best improving
        try of each group made together (:meth:`combine`), and moves to the best of these
        if it lowers the imbalance; every try measured joins the archive (and so the
        Pareto set). With confirm blocks (:data:`Budget.confirm`) :meth:`confirm_step`
        says where a step moves: its best confirmed try, or (``repair_combine``) every
        group's confirmed move made together."""
        cur = self.repair_start()
        if self.budget.screen:
            self.screened_repair(taken, cur)
            return
        gen = max((int(h["generation"]) for h in self.history), default=0)
        last = 0.0
        stop = "budget"
        confirm = bool(self.confirm_blocks)
        obj = self._obj

        for step in range(1, self.budget.repair + 1):
            here = self.pooled(cur) if confirm else cur.tally
            assert here is not None
            if here.imbalance(self.targets, self.groups) == 0:
                stop = "in band"
                break
            if self._out_of_time(last):
                stop = "time"
                break
            t0 = time.monotonic()
            before = here.imbalance(self.targets, self.groups)
            tries = self.repair_moves(cur, taken, here)
            self.evaluate(tries, [cur])
            if self.budget.repair_memory:
                self.remember(cur, tries)
            done = [c for c in tries if c.tally is not None]
            rejected = priced = 0  # tries the confirm blocks turned down; moves too dear
            if confirm:
                best, rejected, priced = self.confirm_step(cur, done, taken)
            else:
                together = self.combine(cur, done) if self.budget.repair_combine else None
                if together is not None and (c := self._new(together, taken)) is not None:
                    self.evaluate([c], [])
                    done.append(c)
                best = min([cur, *done], key=obj)
            moved = best is not cur
            self.stalled = 0 if moved else self.stalled + 1
            was, cur = dict(cur.changes), best
            now = dict(cur.changes)
            after = self.pooled(cur) if confirm else cur.tally
            assert after is not None
            worked: dict[str, int] = {}
            for c in tries:
                if c.fixes is not None:
                    worked.setdefault(c.fixes, c.direction)
            self._report(
                gen,
                [cur],
                dropped=len(tries) - len(done),
                repair=step,
                moved=moved,
                rejected=rejected,
                step={
                    **({"priced": priced} if self.budget.slot_price > 0 else {}),
                    "worked_on": [[g, d, here.rate(g)] for g, d in worked.items()],
                    "kept": [
                        [k, was.get(k, self.space[k].base), now.get(k, self.space[k].base)]
                        for k in sorted(set(was) | set(now))
                        if was.get(k) != now.get(k)
                    ],
                    "imbalance_before": before,
                    "imbalance_after": after.imbalance(self.targets, self.groups),
                },
            )
            last = time.monotonic() - t0
            if not tries:
                stop = "no move"
                break
        self.repaired = cur
        self.history[-1]["repair_stop"] = stop

    # --- the touch-up on the holdout (Budget.holdout_repair) -----------------------------

    def touch_up(
        self, start: Changes, items: Sequence[Hashable]
    ) -> tuple[Changes, list[dict[str, Any]]]:
        """``start`` touched up on the holdout's ``items`` (:data:`Budget.holdout_repair`):
        at most that many steps, each trying :meth:`repair_moves` for the groups out of
        the aimed band *on the holdout* (with ``repair_memory``, a group's first try is
        the move the search measured to help most). A try counts when, on the holdout,
        it moves its group the way it was made for and lowers the aimed imbalance; the
        step keeps the best such try, or (``repair_combine``) every group's best made
        together when that is better still. Two steps in a row that keep nothing end it.
        Returns the changes and one record per step ("worked_on", "kept", the imbalance
        before and after). A try replays only the holdout matches its knob concerns (the
        rest are cached), so a step costs a few of the worked-on groups' matches."""
        taken: set[Changes] = {start}
        cur = Candidate(start)
        cur.tally = tally(self.ev.outcomes([(start, list(items))])[0])
        steps: list[dict[str, Any]] = []
        idle = 0
        for step in range(1, self.budget.holdout_repair + 1):
            here = cur.tally
            before = here.imbalance(self.targets, self.groups)
            if before == 0:
                break
            tries = self.repair_moves(cur, taken, here)
            if not tries:
                break
            got = self.ev.outcomes([(c.changes, list(items)) for c in tries])
            good: dict[str, Candidate] = {}  # each group's best try that counts
            for c, outs in zip(tries, got, strict=True):
                c.tally = tally(outs)
                assert c.fixes is not None
                moved = c.tally.rate(c.fixes) - here.rate(c.fixes)
                counts = moved * c.direction > 0 and self._obj(c) < self._obj(cur)
                if counts and (c.fixes not in good or self._obj(c) < self._obj(good[c.fixes])):
                    good[c.fixes] = c
            best = min(good.values(), key=self._obj, default=None)
            if best is not None and self.budget.repair_combine and len(good) > 1:
                together = self.combine(cur, list(good.values()))
                if together is not None and (both := self._new(together, taken)) is not None:
                    both.tally = tally(self.ev.outcomes([(both.changes, list(items))])[0])
                    if self._obj(both) < self._obj(best):
                        best = both
            was = dict(cur.changes)
            if best is not None:
                cur, idle = best, 0
            else:
                idle += 1
            now = dict(cur.changes)
            assert cur.tally is not None
            worked: dict[str, int] = {}
            for c in tries:
                if c.fixes is not None:
                    worked.setdefault(c.fixes, c.direction)
            steps.append(
                {
                    "step": step,
                    "worked_on": [[g, d, here.rate(g)] for g, d in worked.items()],
                    "tries": len(tries),
                    "kept": [
                        [k, was.get(k, self.space[k].base), now.get(k, self.space[k].base)]
                        for k in sorted(set(was) | set(now))
                        if was.get(k) != now.get(k)
                    ],
                    "imbalance_before": before,
                    "imbalance_after": cur.tally.imbalance(self.targets, self.groups),
                    "matches_played": self.ev.played,
                }
            )
            if idle >= 2:
                break
        return cur.changes, steps
