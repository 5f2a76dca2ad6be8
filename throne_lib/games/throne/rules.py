"""Rule parameters of Throne & Phalanx in one frozen value.

Every number a designer may want to vary lives here, so a variant is one
``Rules(...)`` call in a notebook cell (``dataclasses.replace(DEFAULT_RULES,
round_limit=30)``), never a code edit. Rule IDs refer to ``RULES.md``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeVar


@dataclass(frozen=True, slots=True)
class Rules:
    """The parameters of a match. Immutable; hashable; JSON-serialisable."""

    columns: int = 7  # R-BOARD-1
    rows: int = 6  # R-BOARD-1 (half = rows // 2 per side)
    throne_hp: int = 40  # R-THRONE-1
    base_mana: int = 5  # R-TURN-2
    hand_limit: int = 8  # R-TURN-5
    round_limit: int = 40  # R-END-1
    opening_hand: int = 5  # R-TURN-4, R-OPEN-1
    opening_min_barracks: int = 2  # R-OPEN-1
    opening_max_replace: int = 3  # R-OPEN-2
    opening_barracks: int = 3  # R-OPEN-3
    draw_per_turn: int = 2  # R-TURN-4
    draw_late: int = 3  # R-TURN-4
    draw_late_from_round: int = 7  # R-TURN-4
    siege_bonus: int = 2  # R-SIEGE-1
    shuffle_costs: tuple[int, ...] = (2, 4, 6, 8, 10)  # R-TURN-7 (last repeats)
    name_uses_per_turn: int = 6  # R-TURN-9
    march_round: int = 15  # R-THRONE-5
    march_attack_bonus: int = 5  # R-THRONE-5
    march_move_bonus: int = 1  # R-THRONE-5
    skill_cost_from_throne: int = 1  # R-THRONE-6
    skill_cooldown_turns: int = 1  # R-THRONE-6
    late_summon_round: int = 10  # R-BARRACKS-2
    captain_round: int = 3  # R-BARRACKS-9
    big_captain_round: int = 7  # R-BARRACKS-9
    captain_offer_size: int = 3  # R-BARRACKS-9
    extra_summon_cost: int = 2  # R-BARRACKS-10
    repair_fraction_percent: int = 50  # R-BARRACKS-6
    repair_max_bonus: int = 4  # R-BARRACKS-6
    max_barracks_level: int = 3  # R-BARRACKS-3
    fortified_reduction: int = 1  # R-COMBAT-7
    formation_armor: int = 1  # R-COMBAT-8
    extra: tuple[tuple[str, int], ...] = field(default=())  # room for variants

    @property
    def half_rows(self) -> int:
        return self.rows // 2

    @property
    def cells(self) -> int:
        return self.columns * self.rows

    def shuffle_cost(self, shuffles_done: int) -> int:
        """Mana for the next manual shuffle after ``shuffles_done`` (R-TURN-7)."""
        costs = self.shuffle_costs
        return costs[min(shuffles_done, len(costs) - 1)]

    def draws_for_round(self, round_no: int) -> int:
        """Cards drawn in the draw phase of ``round_no`` (R-TURN-4)."""
        if round_no <= 1:
            return 0
        return self.draw_late if round_no >= self.draw_late_from_round else self.draw_per_turn

    def to_dict(self) -> dict[str, Any]:
        return params_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        return params_from_dict(cls, data, "rule parameters")


P = TypeVar("P")


def params_to_dict(params: Any) -> dict[str, Any]:
    """A frozen parameter dataclass as JSON-ready data (tuples become lists)."""
    data: dict[str, Any] = _json_ready(dataclasses.asdict(params))
    return data


def params_from_dict(cls: type[P], data: dict[str, Any], what: str) -> P:
    """The inverse of :func:`params_to_dict`; unknown names are an error, not ignored."""
    known = {f.name for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(set(data) - known)
    if unknown:
        raise ValueError(f"unknown {what}: {', '.join(unknown)}")
    return cls(**{k: _tuplify(v) for k, v in data.items()})


def _json_ready(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_json_ready(v) for v in value]
    return value


def _tuplify(value: Any) -> Any:
    return tuple(_tuplify(v) for v in value) if isinstance(value, list) else value


DEFAULT_RULES = Rules()
