"""Saved proposals re-measured on fresh seeds no search or holdout used (:func:`verify`)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from throne_lib.kit.balance.adapter import (
    BalanceGame,
)
from throne_lib.kit.balance.measure import (
    MAX_BLOCKS,
    Evaluator,
    Measure,
    block_seed,
    open_executor,
    tally,
)
from throne_lib.kit.balance.space import (
    Targets,
    normalise,
    search_space,
)

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
