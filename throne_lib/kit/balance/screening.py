"""Screening (:data:`Budget.screen`): every candidate knob's effect on every group at once,
then a repair whose every move is chosen from those effects.

The repair stage (:mod:`.repair`) learns one knob step per try from the ~200 matches a
try replays, and keeps the best of a dozen tries: the winner's curse, and most steps
keep nothing. Screening (a random-balance design, as in design of experiments) instead
plays ``screen`` rounds (every group once, in a random pairing), each on its own variant
of the starting table in which every candidate knob is moved one step up or one step down
with chance ``screen_p`` each way. Every match then informs the effect of every knob its
two groups' cards carry, and a linear model of each match's score,

    score(A vs B) - 1/2 = phi * first(A) + s_A - s_B + sum_k x_k * (b_kA - b_kB)

(``x_k`` = +1 a step up, -1 down, 0 at rest), fitted by ridge least squares over all the
matches, estimates each knob's effect ``b_kg`` on each of its groups from thousands of
matches. The repair then (:meth:`_Screening.screened_repair`) tries at each step the one
move — a new change, one more step or one back of a changed knob, or at ``max_changes``
a swap — whose predicted rates (the current table's measured rates plus the effects,
shrunk by their standard errors; only knobs with an effect at ``|t| >= SCREEN_MIN_T``)
lower the miss of the aimed band most, measures it on the search blocks, and keeps it
when the measured miss falls. A knob step once measured (alone, or in a swap with a
card of other groups: :func:`learn`) is predicted from then on by its measurement,
either way (taking a kept move back is predicted to undo what it was measured to do),
not by the screening, whose effects are averages around the start
(:func:`predicted_rates`); of moves predicted alike the smaller is tried first
(:func:`ranked`). The effects only choose what to try; every kept move was
measured. With confirm blocks (:data:`Budget.confirm`) the predictions start from the
search and confirm blocks' rates together, and a move is kept only if the miss falls on
the search blocks and on the confirm blocks, each alone.

The prototype (``results/balance/screening/screen.py``, five pilots and four runs of
its command, docs/balance.md) is where this was worked out. For two-seat games whose
groups meet in pairings (:class:`~throne_lib.kit.balance.adapter.PairingAdapter`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from throne_lib.kit.balance.adapter import Outcome, pairing_block
from throne_lib.kit.balance.budget import SCREEN_FIRST_BLOCK, SCREEN_RANGES
from throne_lib.kit.balance.measure import SEED_STRIDE, Tally, block_seed, tally
from throne_lib.kit.balance.search import Candidate, _Generations
from throne_lib.kit.balance.space import Changes, SearchSpace, _outside, normalise

# An effect is used when it is at least this many standard errors from 0 for one of the
# knob's groups (the pilots: 2).
SCREEN_MIN_T = 2.0
# The ridge penalty of the least squares (scores are 0, 1/2, 1; effects ~0.01-0.1).
SCREEN_RIDGE = 1.0
# A knob is a candidate when its groups, together, are this far from 50% at the start
# (the pilots: 0.02); and only knobs of 1 to SCREEN_MAX_GROUPS groups (a card every
# general can draw moves them all and tells little).
SCREEN_MIN_NEED = 0.02
SCREEN_MAX_GROUPS = 3
# Rounds played per progress report.
SCREEN_BATCH = 500


@dataclass(frozen=True)
class Effect:
    """Knob ``knob``'s estimated effect on group ``group``'s score per step up of its
    value (``per_step``, e.g. +0.03: three points), with its standard error."""

    knob: str
    group: str
    per_step: float
    se: float

    @property
    def shrunk(self) -> float:
        """The estimate shrunk towards 0 by its noise: ``b * max(0, 1 - (se/b)^2)``."""
        b = self.per_step
        return b * max(0.0, 1.0 - (self.se / b) ** 2) if b else 0.0

    @property
    def t(self) -> float:
        return abs(self.per_step) / self.se if self.se > 0 else math.inf


@dataclass(frozen=True)
class Screened:
    """What screening estimated: the candidate knobs, every (knob, group) effect, the
    first seat's term ``phi`` of the model, its residual variance, and what was played."""

    knobs: tuple[str, ...]
    effects: tuple[Effect, ...]
    first_seat: float
    residual: float
    rounds: int
    matches: int
    fewest: tuple[str, int]  # the group with the fewest candidate knobs, and how many

    def usable(self) -> dict[str, dict[str, float]]:
        """Knob -> {group: shrunk effect per step up}, for the knobs with an effect at
        ``|t| >= SCREEN_MIN_T`` on one of their groups."""
        by: dict[str, list[Effect]] = {}
        for e in self.effects:
            by.setdefault(e.knob, []).append(e)
        return {
            k: {e.group: e.shrunk for e in es}
            for k, es in sorted(by.items())
            if any(e.t >= SCREEN_MIN_T for e in es)
        }

    def as_dict(self) -> dict[str, Any]:
        """For the run's history (and so its Parquet file): every estimate."""
        return {
            "knobs": list(self.knobs),
            "first_seat": self.first_seat,
            "residual": self.residual,
            "rounds": self.rounds,
            "matches": self.matches,
            "fewest": list(self.fewest),
            "usable": len(self.usable()),
            "effects": [[e.knob, e.group, e.per_step, e.se] for e in self.effects],
        }


def candidate_knobs(
    space: Any,
    start: Mapping[str, int],
    rates: Mapping[str, float],
    groups: Sequence[str],
    most: int,
    per_group: int,
) -> list[str]:
    """The knobs screening moves: card knobs of 1 to :data:`SCREEN_MAX_GROUPS` groups
    that are :data:`SCREEN_MIN_NEED` or more from 50% together and can move a step either
    way from ``start``, most needed first; each group's ``per_group`` most needed first
    of all (so no group is left without a knob), then the rest up to ``most``."""
    cands: list[tuple[float, str]] = []
    for k in space.knobs:
        if k.is_rules or not 0 < len(k.groups) <= SCREEN_MAX_GROUPS:
            continue
        need = sum(0.5 - rates[g] for g in k.groups if not math.isnan(rates[g]))
        now = start.get(k.key, k.base)
        if abs(need) < SCREEN_MIN_NEED or not k.low <= now - k.step <= now + k.step <= k.high:
            continue
        cands.append((abs(need), k.key))
    cands.sort(key=lambda c: (-c[0], c[1]))
    first: dict[str, tuple[float, str]] = {}
    for g in groups:
        mine = [c for c in cands if g in space[c[1]].groups]
        for c in mine[:per_group]:
            first.setdefault(c[1], c)
    picked = sorted(first.values(), key=lambda c: (-c[0], c[1]))
    rest = [c for c in cands if c[1] not in first]
    return [c[1] for c in picked + rest[: max(0, most - len(picked))]]


def fit_effects(
    rows: Sequence[tuple[Sequence[int], Outcome]],
    knobs: Sequence[str],
    knob_groups: Mapping[str, frozenset[str]],
    groups: Sequence[str],
) -> tuple[list[Effect], float, float, dict[str, float]]:
    """The ridge least-squares fit of the module's model to ``rows`` (each a match's
    design — knob ``j`` a step up as ``j``, down as ``-1 - j`` — and its two-seat
    outcome): every (knob, group) effect, the first-seat term, the residual variance
    and each group's strength ``s_g`` (its score above 1/2 against an average group,
    every knob at rest)."""
    gi = {g: i for i, g in enumerate(groups)}
    cols: dict[tuple[int, str], int] = {}
    for j, key in enumerate(knobs):
        for g in sorted(knob_groups[key]):
            cols[(j, g)] = 1 + len(groups) + len(cols)
    n = 1 + len(groups) + len(cols)
    xtx = np.zeros((n, n))
    xty = np.zeros(n)
    yy = 0.0
    for start in range(0, len(rows), 4000):
        part = rows[start : start + 4000]
        x = np.zeros((len(part), n))
        y = np.zeros(len(part))
        for i, (on, o) in enumerate(part):
            if len(o.seats) != 2:
                raise ValueError(f"screening needs two-seat matches; one had {len(o.seats)}")
            a, b = o.seats
            x[i, 0] = 1.0 if a.first else -1.0
            x[i, 1 + gi[a.group]] += 1.0
            x[i, 1 + gi[b.group]] -= 1.0
            for jj in on:
                j, xv = (jj, 1.0) if jj >= 0 else (-1 - jj, -1.0)
                if (j, a.group) in cols:
                    x[i, cols[(j, a.group)]] += xv
                if (j, b.group) in cols:
                    x[i, cols[(j, b.group)]] -= xv
            y[i] = a.score - 0.5
        xtx += x.T @ x
        xty += x.T @ y
        yy += float(y @ y)
    inv = np.linalg.inv(xtx + SCREEN_RIDGE * np.eye(n))
    theta = inv @ xty
    resid = float((yy - 2 * theta @ xty + theta @ xtx @ theta) / max(1, len(rows) - n))
    se = np.sqrt(np.maximum(resid * np.diag(inv), 0.0))
    effects = [Effect(knobs[j], g, float(theta[c]), float(se[c])) for (j, g), c in cols.items()]
    strengths = {g: float(theta[1 + i]) for g, i in gi.items()}
    return effects, float(theta[0]), resid, strengths


Learned = dict[tuple[str, int, int], dict[str, float]]


def predicted_rates(
    space: SearchSpace,
    new: Changes,
    cur: Mapping[str, int],
    now: Mapping[str, float],
    per_step: Mapping[str, Mapping[str, float]],
    learned: Learned | None = None,
) -> tuple[dict[str, float], list[tuple[str, int, int]]]:
    """The groups' rates after moving from ``cur`` (measured: ``now``) to ``new``: each
    knob's steps one at a time, a step a repair step measured (``learned``: (knob, from,
    to) -> each of its groups' measured change, either way) by that measurement, any
    other by the screened effect (``per_step``, linear in the steps). Also returns the
    steps taken from ``learned``. The screened effects are averages around the start
    (a 3 -> 2 cost can move a general 30 points where screening said 10); a measured
    step is the move itself."""
    r = dict(now)
    used: list[tuple[str, int, int]] = []
    to = dict(new)
    got = learned or {}
    for key in sorted(set(to) | set(cur)):
        k = space[key]
        a, z = cur.get(key, k.base), to.get(key, k.base)
        n, rest = divmod(abs(z - a), k.step)
        d = k.step if z > a else -k.step
        for i in range(n if not rest else 0):
            v = a + i * d
            fwd, back = got.get((key, v, v + d)), got.get((key, v + d, v))
            if fwd is not None or back is not None:
                used.append((key, v, v + d))
                delta = fwd if fwd is not None else {g: -x for g, x in (back or {}).items()}
                for g, x in delta.items():
                    r[g] += x
            else:
                for g, e in per_step.get(key, {}).items():
                    r[g] += e if d > 0 else -e
        if rest:  # off the step grid (never from this module's moves): linear
            for g, e in per_step.get(key, {}).items():
                r[g] += (z - a) / k.step * e
    return r, used


def learn(
    space: SearchSpace,
    move: Sequence[Sequence[Any]],
    now: Mapping[str, float],
    seen: Tally,
    learned: Learned,
) -> None:
    """Record in ``learned`` what a measured move (``[knob, from, to]`` each; the groups'
    rates were ``now`` before it and are ``seen`` after, on the same blocks) says of
    each of its one-step knobs whose groups no other knob of the move reaches: those
    groups' change is that step's alone. (A swap that takes back a change of another
    faction's card teaches both steps; knobs sharing a group, a change taken back by
    several steps at once, or a step whose groups have no rate teach nothing.)"""
    for key, v0, v1 in move:
        k = space[key]
        others = {g for o, _, _ in move if o != key for g in space[o].groups}
        if abs(v1 - v0) != k.step or k.groups & others:
            continue
        got = {
            g: seen.rate(g) - now[g]
            for g in k.groups
            if not math.isnan(seen.rate(g) - now.get(g, math.nan))
        }
        if got:
            learned[(key, v0, v1)] = got


def ranked(
    options: Sequence[Changes], guess: Callable[[Changes], float]
) -> list[tuple[float, Changes]]:
    """``options`` with their predicted miss, best first; of equal predictions (to 1e-9)
    the one with fewer changes first: a swap whose new change does nothing for the miss
    is no better than taking the old change back alone (run learned16-s75 tried
    旗手队长's cost back beside 17 such partners, in their names' order)."""
    got = [(guess(o), o) for o in options]
    return sorted(got, key=lambda t: (round(t[0], 9), len(t[1]), t[1]))


def screenable(game: object) -> bool:
    """Can screening run on ``game``: a two-seat game whose groups meet in pairings (a
    :class:`~throne_lib.kit.balance.adapter.PairingAdapter`, whose ``closure`` it reads)?"""
    return hasattr(game, "closure")


class _Screening(_Generations):
    """Screening and the repair it guides; :class:`throne_lib.kit.balance.repair._Search`
    calls :meth:`screened_repair` as its repair stage when :data:`Budget.screen` is on."""

    def _measure_confirm(self, cands: Sequence[Candidate]) -> None:
        """Give each of ``cands`` its tallies on the confirm blocks and on search and
        confirm blocks together (the search blocks' outcomes come from the cache)."""
        todo = [c for c in cands if c.confirm is None]
        search = [i for blk in self.blocks for i in blk]
        extra = [i for blk in self.confirm_blocks for i in blk]
        for c, outs in zip(
            todo, self.ev.outcomes([(c.changes, search + extra) for c in todo]), strict=True
        ):
            c.confirm = tally(outs[len(search) :])
            c.pooled = tally(outs)

    def pooled(self, c: Candidate) -> Tally:
        """``c``'s tally on the search and confirm blocks together."""
        self._measure_confirm([c])
        assert c.pooled is not None
        return c.pooled

    def _miss(self, t: Tally) -> float:
        """How far the groups' rates are outside the aimed band, summed (the first seat
        is the lever ladder's: screening moves no rules)."""
        lo, hi = self.targets.band
        return sum(_outside(t.rate(g), lo, hi) for g in self.groups if not math.isnan(t.rate(g)))

    def screen(self, start: Candidate) -> Screened:
        """Play :data:`Budget.screen` rounds around ``start`` (its search-block matches
        join them, every knob at rest) and fit the effects."""
        if not screenable(self.game):
            raise ValueError(
                "screening needs a two-seat game whose groups meet in pairings "
                f"(a PairingAdapter); {type(self.game).__name__} is not one"
            )
        assert start.tally is not None
        b = self.budget
        rng = random.Random(f"screen:{self.seed}")
        rates = {g: start.tally.rate(g) for g in self.groups}
        base = dict(start.changes)
        keys = candidate_knobs(
            self.space, base, rates, self.groups, b.screen_knobs, b.screen_per_group
        )
        if not keys:
            raise ValueError("screening: no card knob can move a step either way from the start")
        cover = {g: sum(g in self.space[k].groups for k in keys) for g in self.groups}
        least = min(cover, key=lambda g: (cover[g], g))
        per_round = max(1, len(self.groups) // 2)
        per_range = SEED_STRIDE // per_round
        if b.screen > SCREEN_RANGES * per_range:
            raise ValueError(
                f"budget screen {b.screen}: at most {SCREEN_RANGES * per_range} rounds "
                f"for {len(self.groups)} groups"
            )
        jobs: list[tuple[Changes, list[Hashable]]] = []
        designs: list[list[int]] = []
        for r in range(b.screen):
            on: list[int] = []
            for j in range(len(keys)):
                u = rng.random()
                if u < 2 * b.screen_p:
                    on.append(j if u < b.screen_p else -1 - j)
            ch = dict(base)
            for j in on:
                k = self.space[keys[j if j >= 0 else -1 - j]]
                ch[k.key] = base.get(k.key, k.base) + (k.step if j >= 0 else -k.step)
            seed0 = block_seed(self.seed, SCREEN_FIRST_BLOCK + r // per_range)
            seed0 += per_round * (r % per_range)
            jobs.append((normalise(ch, self.space), pairing_block(self.groups, 1, rng, seed0)))
            designs.append(on)
        rows: list[tuple[Sequence[int], Outcome]] = []
        for blk in self.blocks:  # the start's matches: every knob at rest
            rows += [((), o) for o in self.ev.outcomes([(start.changes, blk)])[0]]
        for i in range(0, len(jobs), SCREEN_BATCH):
            got = self.ev.whole(jobs[i : i + SCREEN_BATCH])
            for on, outs in zip(designs[i : i + SCREEN_BATCH], got, strict=True):
                rows += [(on, o) for o in outs]
            if self.progress is not None:
                self.progress(
                    {
                        "screening": min(len(jobs), i + SCREEN_BATCH),
                        "rounds": len(jobs),
                        "matches_played": self.ev.played,
                    }
                )
        groups_of = {k: self.space[k].groups for k in keys}
        effects, phi, resid, _ = fit_effects(rows, keys, groups_of, self.groups)
        return Screened(
            tuple(keys), tuple(effects), phi, resid, b.screen, len(rows), (least, cover[least])
        )

    def _options(self, cur: Mapping[str, int], per_step: Mapping[str, Any]) -> list[Changes]:
        """Every table one move from ``cur``: each screened knob one step up or down
        (a new change, one more step, or one back), within its bounds; at
        ``max_changes`` a new change is a swap, one of ``cur``'s card changes taken back."""
        full = len(cur) >= self.budget.max_changes
        out: list[Changes] = []
        for key in sorted(per_step):
            k = self.space[key]
            for d in (1, -1):
                v = cur.get(key, k.base) + d * k.step
                if not k.low <= v <= k.high:
                    continue
                new = normalise({**cur, key: v}, self.space)
                if len(new) <= self.budget.max_changes:
                    out.append(new)
                elif full:
                    for drop in sorted(c for c in cur if not self.space[c].is_rules):
                        if drop != key:
                            out.append(tuple((kk, vv) for kk, vv in new if kk != drop))
        return out

    def _table_seconds(self) -> float:
        """About how long one table takes on every search and confirm block, at the
        run's time per match so far (a refresh measures one; the end of a refreshed
        repair two more: :meth:`_refresh`)."""
        per_match = (time.monotonic() - self.started) / max(1, self.ev.played)
        items = sum(len(b) for b in self.blocks + self.confirm_blocks)
        return per_match * items

    def _refresh(
        self, r: int, cur: Candidate, gen: int, why: str, miss: float, steps: int
    ) -> Candidate:
        """Fresh search (and confirm) blocks, set ``r`` of :data:`Budget.refresh`: the
        next block indices of the run seed's search range, below screening's. ``cur``
        is measured on them and is the archive from now on (the old blocks' figures do
        not compare with the new ones; the unchanged table and the lever join it when
        the repair ends, :meth:`_measure_ends`); returns ``cur`` measured there.
        ``why``: "in band", "no move" (where the repair would have stopped) or "every"
        (``steps`` steps on the last blocks, :data:`Budget.refresh_every`)."""
        b = self.budget
        first = r * (b.blocks + b.confirm)
        rng = random.Random(f"blocks:{self.seed}:refresh{r}")
        self.blocks = [self.game.block(rng, block_seed(self.seed, first + k)) for k in range(b.blocks)]  # fmt: skip
        self.confirm_blocks = [
            self.game.block(rng, block_seed(self.seed, first + b.blocks + k))
            for k in range(b.confirm)
        ]
        self.archive = {}
        now = Candidate(cur.changes)
        self.evaluate([now], [])
        if self.confirm_blocks:
            self._measure_confirm([now])
        here = self.pooled(now) if self.confirm_blocks else now.tally
        assert here is not None and now.tally is not None
        lo, hi = self.targets.band
        self._report(
            gen,
            [now],
            step={
                "refresh": r,
                "why": why,
                "steps": steps,
                "first_block": first,
                "seeds": [
                    block_seed(self.seed, first),
                    block_seed(self.seed, first + b.blocks + b.confirm - 1) + SEED_STRIDE - 1,
                ],
                "miss_before": miss,
                "miss_after": self._miss(here),
                "out": [
                    [g, here.rate(g)]
                    for g in self.groups
                    if not math.isnan(here.rate(g)) and not lo <= here.rate(g) <= hi
                ],
                "imbalance_after": here.imbalance(self.targets, self.groups),
            },
        )
        return now

    def _measure_ends(self) -> None:
        """After a refreshed repair: the unchanged table and the lever on the last
        blocks, so that the proposals' search figures all come from the same blocks."""
        keep = {()} | ({self.start.changes} if self.start is not None else set())
        todo = [Candidate(ch) for ch in sorted(keep) if ch not in self.archive]
        self.evaluate(todo, [])

    def screened_repair(self, taken: set[Changes], start: Candidate) -> None:
        """Screen around ``start``, then at most :data:`Budget.repair` steps, each
        measuring the move predicted to lower the miss most and keeping it when the
        measured miss falls (see the module doc). Stops when no move is predicted to
        help (after :data:`Budget.refresh` fresh block sets, :meth:`_refresh`), or on
        the time limit."""
        t0 = time.monotonic()
        s = self.screen(start)
        per_step = s.usable()
        gen = max((int(h["generation"]) for h in self.history), default=0)
        cur = start
        assert cur.tally is not None
        self._report(gen, [cur], step={"screening": s.as_dict(), "seconds": time.monotonic() - t0})
        lo, hi = self.targets.band
        tried: set[Changes] = set()
        # each knob step measured so far, kept or not (alone, or beside knobs of other
        # groups: learn): its groups' measured change, which predicts that step (either
        # way) from then on in place of the screening
        learned: Learned = {}
        stop = "budget"
        last = 0.0
        confirm = bool(self.confirm_blocks)
        refreshed = 0
        step = since = 0  # steps in all, and on the blocks drawn last
        every = self.budget.refresh_every
        while step < self.budget.repair:
            assert cur.tally is not None
            # with confirm blocks, the rates predicted from are the search and confirm
            # blocks' together, and a move is kept only if the miss falls on each alone
            here = self.pooled(cur) if confirm else cur.tally
            miss = self._miss(here)
            ends: str | None = "in band" if miss == 0 else None
            # after a refresh, the end of the repair measures two more tables
            if ends is None and self._out_of_time(
                last + 2 * bool(refreshed) * self._table_seconds()
            ):
                stop = "time"
                break
            t1 = time.monotonic()
            now = {g: here.rate(g) for g in self.groups}
            was = dict(cur.changes)

            def guess(o: Changes, was: dict[str, int] = was, now: dict[str, float] = now) -> float:
                r, _ = predicted_rates(self.space, o, was, now, per_step, learned)
                return sum(_outside(v, lo, hi) for v in r.values() if not math.isnan(v))

            scored = (
                ranked([o for o in self._options(was, per_step) if o not in tried], guess)
                if ends is None
                else []
            )
            if ends is None and (not scored or scored[0][0] >= miss - 1e-9):
                ends = "no move"
            why = ends or ("every" if every and since >= every else None)
            # fresh blocks can only help when some knob has an effect to aim with; the
            # time kept: this refresh and the two tables measured when the repair ends
            if (
                why is not None
                and per_step
                and refreshed < self.budget.refresh
                and not self._out_of_time(3 * self._table_seconds())
            ):
                refreshed += 1
                cur = self._refresh(refreshed, cur, gen, why, miss, since)
                tried.clear()
                since = 0
                continue
            if ends is not None:
                stop = ends
                break
            step += 1
            since += 1
            predicted, new = scored[0]
            tried.add(new)
            c = self.archive.get(new) or self._new(dict(new), taken) or Candidate(new)
            self.evaluate([c], [])
            assert c.tally is not None
            measured = self._miss(c.tally)
            checked: dict[str, float] = {}
            if confirm:
                self._measure_confirm([c, cur])
                assert c.confirm is not None and cur.confirm is not None and cur.tally
                checked["confirm_miss"] = self._miss(c.confirm)
                checked["confirm_miss_before"] = self._miss(cur.confirm)
                checked["search_miss_before"] = self._miss(cur.tally)
                moved = measured < checked["search_miss_before"] and (
                    checked["confirm_miss"] < checked["confirm_miss_before"]
                )
            else:
                moved = measured < miss
            touched = sorted(set(new) ^ set(cur.changes))
            keys = sorted({k for k, _ in touched})
            worked = sorted(
                {
                    (g, 1 if now[g] < lo else -1, now[g])
                    for k in keys
                    for g in self.space[k].groups
                    if not lo <= now[g] <= hi
                }
            )
            move = [[k, was.get(k, self.space[k].base), dict(new).get(k, self.space[k].base)] for k in keys]  # fmt: skip
            _, from_measured = predicted_rates(self.space, new, was, now, per_step, learned)
            seen = self.pooled(c) if confirm else c.tally
            assert seen is not None
            learn(self.space, move, now, seen, learned)
            if moved:
                cur = c
            after = self.pooled(cur) if confirm else cur.tally
            assert after is not None
            self._report(
                gen,
                [cur],
                repair=step,
                moved=moved,
                # a move better on the search blocks that the confirm blocks turned down
                rejected=int(confirm and not moved and measured < checked["search_miss_before"]),
                step={
                    "worked_on": [list(w) for w in worked],
                    "tried": move,
                    "kept": move if moved else [],
                    "predicted_miss": predicted,
                    "learned": [list(u) for u in from_measured],
                    "measured_miss": measured,
                    **checked,
                    "imbalance_before": here.imbalance(self.targets, self.groups),
                    "imbalance_after": after.imbalance(self.targets, self.groups),
                },
            )
            last = time.monotonic() - t1
        if refreshed:
            self._measure_ends()
        self.repaired = cur
        self.history[-1]["repair_stop"] = stop
