"""Saved proposals re-measured on fresh seeds no search or holdout used (:func:`verify`)."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from throne_lib.kit.balance.adapter import (
    BalanceGame,
)
from throne_lib.kit.balance.budget import Budget
from throne_lib.kit.balance.measure import (
    MAX_BLOCKS,
    Evaluator,
    Measure,
    block_seed,
    open_executor,
    tally,
)
from throne_lib.kit.balance.space import (
    FIRST,
    SearchSpace,
    Targets,
    normalise,
    search_space,
)

# --- what a sample can tell -------------------------------------------------------------------

Z95 = 1.96


def half_width(matches: int, rate: float = 0.5) -> float:
    """The 95% interval's half-width of a win rate over ``matches`` (normal
    approximation; at 50%, the widest): ±5 points takes 385 matches."""
    if matches <= 0:
        return math.inf
    return Z95 * math.sqrt(rate * (1 - rate) / matches)


@dataclass(frozen=True)
class Tell:
    """Can a verification of ``matches`` per group (the fewest any group plays) tell
    whether a rate is in the band? Only if the 95% interval of a rate at the band's
    centre is no wider than the band: its half-width (at 50%, :func:`half_width`) at
    most the band's half-width. A wider interval can hold a rate inside the band and
    one outside it at once, whatever the point estimate says. ``needed``: matches per
    group that would tell; ``planned``: True when estimated before the run."""

    matches: int
    half_width: float
    band_half: float
    needed: int
    planned: bool

    @property
    def can_tell(self) -> bool:
        return self.half_width <= self.band_half

    def text(self, blocks: int | None = None, per_block: float | None = None) -> str:
        """One line for the report: what the sample can tell, and (``blocks`` and
        ``per_block``: the verification's blocks and matches per group and block) how
        many blocks would tell."""
        what = "the verification will play" if self.planned else "the verification played"
        head = (
            f"{what} {self.matches} matches per group (the fewest): 95% intervals "
            f"±{100 * self.half_width:.1f} points against the band's ±{100 * self.band_half:.1f}"
        )
        if self.can_tell:
            return head + ": enough to tell in from out for a rate at the band's centre"
        more = ""
        if blocks is not None and per_block:
            more = f"; --verify-blocks {math.ceil(self.needed / per_block)} would tell"
        return (
            head + f": BUDGET CANNOT TELL whether a group meets the band (needs "
            f"{self.needed} matches per group{more})"
        )


def tell(matches: int, targets: Targets, planned: bool = False) -> Tell:
    """What ``matches`` per group can tell against ``targets``' band (:class:`Tell`)."""
    lo, hi = targets.band
    band_half = (hi - lo) / 2
    needed = math.ceil(0.25 * (Z95 / band_half) ** 2) if band_half > 0 else 0
    return Tell(matches, half_width(matches), band_half, needed, planned)


def fewest(measure: Measure, groups: Sequence[str]) -> int:
    """The fewest matches any of ``groups`` played in ``measure`` (0 if none)."""
    return min((measure.rates[g].matches for g in groups if g != FIRST), default=0)


def per_block(game: BalanceGame, seed: int, evaluator: Evaluator | None = None) -> dict[str, int]:
    """Each group's seats in one block: the unchanged table played on the run's first
    search block (which the search plays first anyway: with the run's ``evaluator`` it
    is not played twice). No verification seed is played to count."""
    block_rng = random.Random(f"blocks:{seed}")
    block = game.block(block_rng, block_seed(seed, 0))
    ev = evaluator or Evaluator(game, SearchSpace(()), None)
    t = tally(ev.outcomes([((), block)])[0])
    return {g: t.count.get(g, 0) for g in game.groups()}


def plan_verification(
    game: BalanceGame,
    budget: Budget,
    targets: Targets,
    seed: int = 0,
    evaluator: Evaluator | None = None,
) -> tuple[Tell, float]:
    """Before a run: what its verification (``budget.verify_blocks`` blocks) can tell,
    from the matches each group plays per block (:func:`per_block`); and the fewest
    matches per group and block (for :meth:`Tell.text`)."""
    counts = per_block(game, seed, evaluator)
    least = min(counts.values(), default=0)
    return tell(least * budget.verify_blocks, targets, planned=True), float(least)


# --- verification on fresh seeds -----------------------------------------------------------


@dataclass(frozen=True)
class Verification:
    """The unchanged table and saved proposals re-measured on verification blocks: seeds
    that no search or holdout of any run seed below :data:`MAX_SEED` plays."""

    seed: int
    blocks: int
    groups: list[str]
    targets: Targets
    before: Measure
    after: dict[int, Measure]  # by proposal number
    matches_played: int


def verify(
    game: BalanceGame,
    proposals: Mapping[int, Mapping[str, int]],
    targets: Targets = Targets(),
    seed: int = 0,
    blocks: int = 8,
    backend: str = "process",
    workers: int | None = None,
    scheduler: str | None = None,
    chunk: int = 4,
    base: Mapping[str, int] | None = None,
) -> Verification:
    """Re-measure ``proposals`` (number -> changes, keys as in a search: ``card.field``
    or ``rules.name``) and the unchanged table on ``blocks`` verification blocks of
    ``seed`` (every candidate plays the same matches). ``base``: the value each key had
    when the proposals were made; a table that has moved on since is an error, since the
    changes would no longer say what was measured."""
    if blocks < 1 or blocks > MAX_BLOCKS:
        raise ValueError(f"verify blocks {blocks}: expected 1 to {MAX_BLOCKS}")
    keys = {k for ch in proposals.values() for k in ch}
    rules = sorted(k.split(".", 1)[1] for k in keys if k.startswith("rules."))
    space = search_space(game, rules=rules, bounds=None)
    for n, ch in sorted(proposals.items()):
        for k in ch:
            if k not in space:
                raise ValueError(f"proposal {n} changes {k!r}, which this table has no knob for")
    for k, was in sorted((base or {}).items()):
        if k in space and space[k].base != was:
            raise ValueError(
                f"{k} is {space[k].base} in the table, but the proposals were made from {was}: "
                "the table has changed since the run"
            )
    rng = random.Random(f"verify:{seed}")
    items = [i for k in range(blocks) for i in game.block(rng, block_seed(seed, k, verify=True))]
    groups = list(game.groups())
    with open_executor(backend, workers, scheduler) as executor:
        ev = Evaluator(game, space, executor, chunk)
        numbers = sorted(proposals)
        got = ev.outcomes(
            [((), items)] + [(normalise(proposals[n], space), items) for n in numbers]
        )
    return Verification(
        seed,
        blocks,
        groups,
        targets,
        Measure.of(tally(got[0]), targets, groups),
        {n: Measure.of(tally(o), targets, groups) for n, o in zip(numbers, got[1:], strict=True)},
        ev.played,
    )
