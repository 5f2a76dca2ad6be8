"""Each change of a proposal measured on its own (:func:`change_effects`): the
proposal with the change against the proposal without it, on the same holdout matches.
A run keeps a change only when that effect has the sign the change was made for
(:data:`Budget.prune`); the report shows every effect with its 95% interval."""

from __future__ import annotations

import math
import statistics
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from throne_lib.kit.balance.adapter import Outcome
from throne_lib.kit.balance.measure import Evaluator
from throne_lib.kit.balance.space import FIRST, Changes, SearchSpace

Z95 = 1.96


@dataclass(frozen=True)
class ChangeEffect:
    """What one change did on the holdout: ``effect`` is the mean, over the matches
    where one of ``groups`` sits (the first seat for a rules lever), of those seats'
    score with the change minus without it (the other changes in place, same matches),
    with its 95% interval (``low``, ``high``; normal, over the ``matches`` paired
    differences). ``expected``: +1 when the change was made to raise their rate (a
    buff), -1 to lower it, 0 when the knob has no known direction. ``kept``: whether
    the proposal kept it (:data:`Budget.prune`)."""

    key: str
    old: int
    new: int
    groups: tuple[str, ...]
    expected: int
    effect: float
    low: float
    high: float
    matches: int
    kept: bool = True

    @property
    def confirmed(self) -> bool:
        """Did the change move its groups the way it was meant to (sign only)?"""
        return self.expected != 0 and self.effect * self.expected > 0


def _score(o: Outcome, groups: frozenset[str]) -> float | None:
    """The mean score of ``o``'s seats of ``groups`` (the first seat for FIRST)."""
    seats = [s.score for s in o.seats if (s.first if FIRST in groups else s.group in groups)]
    return statistics.fmean(seats) if seats else None


def change_effects(
    ev: Evaluator, space: SearchSpace, changes: Changes, items: Sequence[Hashable]
) -> list[ChangeEffect]:
    """Each of ``changes`` measured on ``items`` (:class:`ChangeEffect`), in order. A
    match that a change's cards do not touch comes from the evaluator's cache, so a
    card change replays only its own groups' matches."""
    with_all = ev.outcomes([(changes, items)])[0]
    without = ev.outcomes([(tuple(c for c in changes if c[0] != key), items) for key, _ in changes])
    out = []
    for (key, new), wo in zip(changes, without, strict=True):
        knob = space[key]
        diffs = []
        for a, b in zip(with_all, wo, strict=True):
            x, y = _score(a, knob.groups), _score(b, knob.groups)
            if x is not None and y is not None:
                diffs.append(x - y)
        mean = statistics.fmean(diffs) if diffs else 0.0
        half = Z95 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.inf
        direction = (new > knob.base) - (new < knob.base)
        out.append(
            ChangeEffect(
                key,
                knob.base,
                new,
                tuple(sorted(knob.groups)),
                direction * knob.sign,
                mean,
                mean - half,
                mean + half,
                len(diffs),
            )
        )
    return out
