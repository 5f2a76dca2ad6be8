"""The tower's tuning parameters in one frozen value (like :class:`throne_lib.games.throne.rules.Rules`).

A designer tries a variant with ``dataclasses.replace(DEFAULT_TOWER, start_gold=200)``
and measures it with the autopilot (``throne tower simulate``). Per-kind tables are
tuples of ``(kind, …)`` rows so the value stays hashable and JSON-friendly.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, ClassVar, Self

from throne_lib.games.throne.rules import LIMIT, params_from_dict, params_to_dict


class Params:
    """JSON for the tower's frozen parameter dataclasses (:class:`TowerRules`, the map's
    ``MapRules``, a battle's ``SideMods``): :func:`~throne_lib.games.throne.rules.params_to_dict`
    and its checked inverse; ``WHAT`` names the value in errors."""

    WHAT: ClassVar[str] = "parameters"

    def to_dict(self) -> dict[str, Any]:
        return params_to_dict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        return params_from_dict(cls, data, cls.WHAT)


@dataclass(frozen=True)
class TowerRules(Params):
    WHAT = "tower rule parameters"
    start_hp: int = 40  # R-TOWER-3: the run's throne HP (= R-THRONE-1's 40)
    start_gold: int = 99
    deck_min: int = 10  # R-TOWER-4
    deck_max: int = 40  # R-TOWER-4
    # enemy throne HP: (kind, base, per floor) (R-TOWER-7: enemy strength from the tower)
    enemy_hp: tuple[tuple[str, int, int], ...] = (
        ("battle", 16, 6),
        ("elite", 24, 8),
        ("boss", 34, 8),
    )
    # the AI of each kind of enemy, by floor (the last entry repeats): random,
    # standard, or standard-N = standard with N % random actions (the difficulty dial;
    # measured vs the standard player on the floor-1 boss: standard 35 % player wins,
    # standard-5 45 %, standard-10 60 %, standard-20 85 %)
    enemy_agents: tuple[tuple[str, tuple[str, ...]], ...] = (
        ("battle", ("random", "standard-25", "standard-15")),
        ("elite", ("standard-20", "standard-15", "standard-10")),
        ("boss", ("standard-15", "standard-10", "standard-5")),
    )
    # enemy relics: (kind, base count, per floor); elites and bosses carry relics
    enemy_relics: tuple[tuple[str, int, int], ...] = (
        ("battle", 0, 0),
        ("elite", 1, 0),
        ("boss", 1, 1),
    )
    # battle gold: (kind, low, high, per floor) (R-TOWER-6)
    gold: tuple[tuple[str, int, int, int], ...] = (
        ("battle", 15, 25, 5),
        ("elite", 30, 45, 8),
        ("boss", 70, 90, 10),
    )
    card_choices: int = 3  # R-TOWER-4: pick 1 of 3
    campfire_heal_percent: int = 30
    campfire_max_hp: int = 6
    chest_relic_percent: int = 40
    chest_gold: tuple[int, int] = (40, 75)
    shop_cards: int = 5
    shop_relics: int = 2
    shop_card_base: int = 30
    shop_card_per_cost: int = 12
    shop_remove_base: int = 50  # removing a card costs more each time
    shop_remove_step: int = 25
    shop_heal: int = 15  # HP bought for shop_heal_price gold
    shop_heal_price: int = 45
    weak_first_enemy_hp: int = 0  # designer cheat: > 0 gives the first enemy this HP

    def __post_init__(self) -> None:
        problems: list[str] = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if type(value) is int and not 0 <= value <= LIMIT:
                problems.append(f"{f.name}={value} (expected 0..{LIMIT})")
        if self.start_hp < 1 or self.deck_min > self.deck_max:
            problems.append("start_hp ≥ 1 and deck_min ≤ deck_max")
        for table in ("enemy_hp", "enemy_relics", "gold"):
            kinds = [r[0] for r in getattr(self, table)]
            lacking = [k for k in ("battle", "elite", "boss") if k not in kinds]
            if lacking:
                problems.append(f"{table} lacks a row for {', '.join(lacking)}")
        if not self.enemy_agents or any(not names for _, names in self.enemy_agents):
            problems.append("every enemy_agents row names at least one agent")
        if len(self.chest_gold) != 2 or self.chest_gold[0] > self.chest_gold[1]:
            problems.append("chest_gold is (low, high) with low ≤ high")
        if any(lo > hi for _, lo, hi, _ in self.gold):
            problems.append("gold rows are (kind, low, high, per floor) with low ≤ high")
        if problems:
            raise ValueError("bad TowerRules: " + "; ".join(problems))

    def row(self, table: str, kind: str) -> tuple[Any, ...]:
        for r in getattr(self, table):
            if r[0] == kind:
                return tuple(r[1:])
        raise KeyError(f"TowerRules.{table} has no row for {kind!r}")

    def enemy_hp_for(self, kind: str, floor: int) -> int:
        base, step = self.row("enemy_hp", kind)
        return int(base + step * floor)

    def enemy_agent_for(self, kind: str, floor: int) -> str:
        (names,) = self.row("enemy_agents", kind)
        return str(names[min(floor, len(names) - 1)])

    def enemy_relic_count(self, kind: str, floor: int) -> int:
        base, step = self.row("enemy_relics", kind)
        return int(base + step * floor)


DEFAULT_TOWER = TowerRules()
