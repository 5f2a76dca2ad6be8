"""Measurement: the seeds of the common-random-number blocks (:func:`block_seed`), the
:class:`Tally` of a set of outcomes, the :class:`Evaluator` that plays (candidate, block)
pairs on a pool with a result cache, and a table's holdout figures (:class:`Measure`)."""

from __future__ import annotations

import contextlib
import math
from collections.abc import Hashable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Protocol

import pandas as pd

from throne_lib.kit.analytics import wilson
from throne_lib.kit.balance.adapter import (
    BalanceGame,
    Outcome,
    PlayTask,
)
from throne_lib.kit.balance.space import (
    FIRST,
    Changes,
    SearchSpace,
    Targets,
    _outside,
    variant,
)
from throne_lib.kit.cluster import dask_client

SEED_STRIDE = 10_000  # seeds per block (a block plays fewer matches than this)
MAX_BLOCKS = 1_000


# Verification blocks (:func:`verify`) take their seeds from here up: above every search
# and holdout seed of a run seed below MAX_SEED.
VERIFY_BASE = 2**40
MAX_SEED = VERIFY_BASE // (2 * MAX_BLOCKS * SEED_STRIDE)
# A run's own verification blocks (:data:`Budget.verify_blocks`) from here up: above
# every search, holdout and ``verify`` seed, so no step of any run (and no later
# ``throne balance verify``) plays them.
CHECK_BASE = VERIFY_BASE + MAX_SEED * MAX_BLOCKS * SEED_STRIDE


def block_seed(
    seed: int, k: int, holdout: bool = False, verify: bool = False, check: bool = False
) -> int:
    """The first match seed of block ``k`` of the run with ``seed``: search, holdout,
    verification (``verify``: :func:`verify`'s) and the run's own verification blocks
    (``check``) of every run seed in ``0 <= seed < MAX_SEED`` take disjoint seed ranges
    (each block's seeds below the next block's first: :data:`SEED_STRIDE`), so holdout
    seeds are never searched and verification seeds never seen by any search or
    holdout."""
    if not 0 <= seed < MAX_SEED:
        raise ValueError(f"balance seed {seed}: expected 0 <= seed < {MAX_SEED}")
    if not 0 <= k < MAX_BLOCKS:
        raise ValueError(f"block {k}: expected 0 <= block < {MAX_BLOCKS}")
    if check:
        return CHECK_BASE + (seed * MAX_BLOCKS + k) * SEED_STRIDE
    if verify:
        return VERIFY_BASE + (seed * MAX_BLOCKS + k) * SEED_STRIDE
    return ((2 * seed + holdout) * MAX_BLOCKS + k) * SEED_STRIDE


# --- statistics -----------------------------------------------------------------------------


@dataclass
class Tally:
    """Score sums per group, of the first seat, and match lengths."""

    score: dict[str, float] = field(default_factory=dict)
    count: dict[str, int] = field(default_factory=dict)
    first_score: float = 0.0
    first_count: int = 0
    length_sum: float = 0.0
    matches: int = 0
    pairs: dict[tuple[str, str], list[float]] = field(default_factory=dict)  # (g, opp): [score, n]

    def add(self, o: Outcome) -> None:
        for s in o.seats:
            self.score[s.group] = self.score.get(s.group, 0.0) + s.score
            self.count[s.group] = self.count.get(s.group, 0) + 1
            if s.first:
                self.first_score += s.score
                self.first_count += 1
            for other in o.seats:
                if other is not s:
                    cell = self.pairs.setdefault((s.group, other.group), [0.0, 0])
                    cell[0] += s.score
                    cell[1] += 1
        self.length_sum += o.length
        self.matches += 1

    def matchups(self) -> dict[tuple[str, str], float]:
        """Score rate of a group against each group it met (row against column)."""
        return {k: v[0] / v[1] for k, v in self.pairs.items() if v[1]}

    def rate(self, group: str) -> float:
        n = self.count.get(group, 0)
        return self.score.get(group, 0.0) / n if n else math.nan

    @property
    def first_rate(self) -> float:
        return self.first_score / self.first_count if self.first_count else math.nan

    @property
    def mean_length(self) -> float:
        return self.length_sum / self.matches if self.matches else math.nan

    def imbalance(self, targets: Targets, groups: Sequence[str]) -> float:
        lo, hi = targets.band
        total = 0.0
        for g in groups:
            r = self.rate(g)
            if not math.isnan(r):
                total += _outside(r, lo, hi)
        f = self.first_rate
        if not math.isnan(f):
            total += targets.first_seat_weight * max(0.0, f - targets.first_seat_max)
        if targets.length is not None and self.matches:
            a, b = targets.length
            total += _outside(self.mean_length, a, b) / max(b, 1.0)
        return total

    def complaints(self, targets: Targets, groups: Sequence[str]) -> list[tuple[str, int, float]]:
        """(group, direction wanted (+1 stronger, -1 weaker), distance) of every target
        missed; the first seat as :data:`FIRST`."""
        lo, hi = targets.band
        out = []
        for g in groups:
            r = self.rate(g)
            if math.isnan(r):
                continue
            if r > hi:
                out.append((g, -1, r - hi))
            elif r < lo:
                out.append((g, +1, lo - r))
        f = self.first_rate
        if not math.isnan(f) and f > targets.first_seat_max:
            out.append((FIRST, -1, f - targets.first_seat_max))
        return out


def tally(outcomes: Sequence[Outcome]) -> Tally:
    t = Tally()
    for o in outcomes:
        t.add(o)
    return t


# --- evaluation: CRN blocks, cache, parallel runner --------------------------------------------


@contextlib.contextmanager
def open_executor(
    backend: str = "process", workers: int | None = None, scheduler: str | None = None
) -> Iterator[Executor | None]:
    """A pool for the whole search: ``process`` (a ``ProcessPoolExecutor``; one worker
    plays here), ``dask`` (the cluster at ``scheduler`` or a local one on 127.0.0.1) or
    ``serial`` (None: play here)."""
    import os

    n = workers or os.cpu_count() or 1
    if backend == "serial" or (backend == "process" and n == 1):
        yield None
    elif backend == "process":
        with ProcessPoolExecutor(max_workers=n) as pool:
            yield pool
    elif backend == "dask":
        with dask_client(n, scheduler) as client:
            yield client.get_executor(pure=False)
    else:
        raise ValueError(f"unknown backend {backend!r}: process, dask or serial")


class OutcomeMemo(Protocol):
    """Outcomes kept beyond one process (a stopped run's journal, :mod:`.memo`), by the
    ``repr`` of their (match, changes) key."""

    def get(self, key: str) -> Outcome | None: ...

    def put(self, key: str, outcome: Outcome) -> None: ...


class Evaluator:
    """Plays (candidate, block) pairs with common random numbers and a result cache.
    ``memo``: outcomes a stopped run already played (taken, not played: ``reused``)
    and where every newly played one is kept."""

    def __init__(
        self,
        game: BalanceGame,
        space: SearchSpace,
        executor: Executor | None,
        chunk: int = 4,
        memo: OutcomeMemo | None = None,
    ) -> None:
        self.game = game
        self.space = space
        self.executor = executor
        self.chunk = chunk
        self.memo = memo
        self.base = game.table_text()
        self.cache: dict[tuple[Hashable, Changes], Outcome] = {}
        self.played = 0
        self.reused = 0
        self._item_cards: dict[Hashable, frozenset[str] | None] = {}

    def _key(self, item: Hashable, changes: Changes) -> tuple[Hashable, Changes]:
        if item not in self._item_cards:
            self._item_cards[item] = self.game.item_cards(item)
        cards = self._item_cards[item]
        if cards is None:
            return (item, changes)
        kept = tuple(
            (k, v) for k, v in changes if self.space[k].is_rules or self.space[k].card in cards
        )
        return (item, kept)

    def outcomes(self, jobs: Sequence[tuple[Changes, Sequence[Hashable]]]) -> list[list[Outcome]]:
        """The outcomes of each (changes, items) job, playing only what is not cached."""
        todo: dict[Changes, list[Hashable]] = {}
        seen: set[tuple[Hashable, Changes]] = set()
        for changes, items in jobs:
            for item in items:
                key = self._key(item, changes)
                if key in self.cache or key in seen:
                    continue
                kept = self.memo.get(repr(key)) if self.memo is not None else None
                if kept is not None:
                    self.cache[key] = kept
                    self.reused += 1
                    continue
                seen.add(key)
                todo.setdefault(key[1], []).append(item)
        tasks: list[tuple[Changes, PlayTask]] = []
        for changes, items in todo.items():
            base = variant(self.game, self.base, changes, self.space)
            for i in range(0, len(items), self.chunk):
                tasks.append((changes, replace(base, items=tuple(items[i : i + self.chunk]))))
        if tasks:
            ts = [t for _, t in tasks]
            # taken as each task ends (in order), so a memo keeps what a stop interrupts
            results: Iterable[list[Outcome]] = (
                (self.game.play(t) for t in ts)
                if self.executor is None
                else self.executor.map(self.game.play, ts)
            )
            for (changes, task), got in zip(tasks, results, strict=True):
                for item, o in zip(task.items, got, strict=True):
                    self.cache[(item, changes)] = o
                    self.played += 1
                    if self.memo is not None:
                        self.memo.put(repr((item, changes)), o)
        return [[self.cache[self._key(i, c)] for i in items] for c, items in jobs]

    def whole(self, jobs: Sequence[tuple[Changes, Sequence[Hashable]]]) -> list[list[Outcome]]:
        """The outcomes of each (changes, items) job, each job played as one task on its
        whole variant (unless all its outcomes are cached or in the memo). For many
        variants of a few matches each (screening): :meth:`outcomes` would split a job by
        the changes each match's cards can see, a task of one match each. Kept under the
        same keys as :meth:`outcomes` keeps them."""
        out: list[list[Outcome] | None] = []
        todo: list[int] = []
        for n, (changes, items) in enumerate(jobs):
            keys = [self._key(item, changes) for item in items]
            got = [
                self.cache.get(k) or (self.memo.get(repr(k)) if self.memo is not None else None)
                for k in keys
            ]
            if all(o is not None for o in got):
                for k, o in zip(keys, got, strict=True):
                    if k not in self.cache:
                        self.reused += 1
                        self.cache[k] = o  # type: ignore[assignment]
                out.append(got)  # type: ignore[arg-type]
            else:
                out.append(None)
                todo.append(n)
        tasks = [
            replace(variant(self.game, self.base, jobs[n][0], self.space), items=tuple(jobs[n][1]))
            for n in todo
        ]
        results: Iterable[list[Outcome]] = (
            (self.game.play(t) for t in tasks)
            if self.executor is None
            else self.executor.map(self.game.play, tasks)
        )
        for n, task, got_ in zip(todo, tasks, results, strict=True):
            for item, o in zip(task.items, got_, strict=True):
                key = self._key(item, jobs[n][0])
                self.cache[key] = o
                self.played += 1
                if self.memo is not None:
                    self.memo.put(repr(key), o)
            out[n] = got_
        return [o for o in out if o is not None]


@dataclass(frozen=True)
class GroupRate:
    key: str
    matches: int
    win_rate: float
    ci_low: float
    ci_high: float


def _rates(t: Tally, groups: Sequence[str]) -> dict[str, GroupRate]:
    out = {}
    for g in groups:
        n = t.count.get(g, 0)
        lo, hi = wilson(t.score.get(g, 0.0), n)
        out[g] = GroupRate(g, n, t.rate(g), lo, hi)
    lo, hi = wilson(t.first_score, t.first_count)
    out[FIRST] = GroupRate(FIRST, t.first_count, t.first_rate, lo, hi)
    return out


@dataclass(frozen=True)
class Measure:
    """A table's figures on the holdout blocks: per-group and first-seat win rates with
    95% intervals, mean length, imbalance and whether every target is met (point
    estimates)."""

    rates: dict[str, GroupRate]
    mean_length: float
    imbalance: float
    meets: bool
    matchups: dict[tuple[str, str], float] = field(default_factory=dict)

    @classmethod
    def of(cls, t: Tally, targets: Targets, groups: Sequence[str]) -> Measure:
        imb = t.imbalance(targets, groups)
        return cls(_rates(t, groups), t.mean_length, imb, imb == 0, t.matchups())

    def matrix(self, groups: Sequence[str]) -> pd.DataFrame:
        """The matchup matrix (row's score rate against the column; NaN: never met)."""
        return pd.DataFrame(
            [[self.matchups.get((a, b), math.nan) for b in groups] for a in groups],
            index=list(groups),
            columns=list(groups),
        )
