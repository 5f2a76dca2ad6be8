"""Rule parameters of Throne & Phalanx in one frozen value.

Every number a designer may want to vary lives here, so a variant is one
``Rules(...)`` call in a notebook cell (``dataclasses.replace(DEFAULT_RULES,
round_limit=30)``), never a code edit. Rule IDs refer to ``RULES.md``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, TypeVar

from throne_lib.compiled import reduce_dataclass

LIMIT = 1_000_000  # the largest count any rule parameter may take (sanity, not design)

# Bounds of the integer rule parameters; unnamed ones are 0..LIMIT. The board needs room
# for the thrones and letter-named columns (R-BOARD-1, R-BOARD-6).
_RULE_BOUNDS: dict[str, tuple[int, int]] = {
    "columns": (1, 26),
    "rows": (2, 98),
    "throne_hp": (1, LIMIT),
    "hand_limit": (1, 1000),
    "round_limit": (1, 100_000),
    "opening_hand": (0, 1000),
    "draw_per_turn": (0, 1000),
    "draw_late": (0, 1000),
    "captain_offer_size": (0, 1000),
    "max_barracks_level": (1, 1000),
    "repair_fraction_percent": (0, 100),
}


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
    second_first_turn_mana: int = 0  # R-TURN-12 Reading: extra mana on the second side's first turn
    second_first_turn_draw: int = 0  # R-TURN-12 Reading: extra cards drawn on that turn
    extra: tuple[tuple[str, int], ...] = field(default=())  # room for variants

    def __post_init__(self) -> None:
        problems = [
            f"{name}={getattr(self, name)!r} (expected {lo}..{hi})"
            for name, (lo, hi) in _RULE_BOUNDS.items()
            if not lo <= getattr(self, name) <= hi
        ]
        if not self.shuffle_costs or not all(0 <= c <= LIMIT for c in self.shuffle_costs):
            problems.append(f"shuffle_costs={list(self.shuffle_costs)!r} (one or more 0..{LIMIT})")
        if self.opening_hand > self.hand_limit:
            problems.append("opening_hand exceeds hand_limit")
        if problems:
            raise ValueError("bad rule parameters: " + "; ".join(problems))

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

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


P = TypeVar("P")


def params_to_dict(params: Any) -> dict[str, Any]:
    """A frozen parameter dataclass as JSON-ready data (tuples become lists)."""
    data: dict[str, Any] = _json_ready(dataclasses.asdict(params))
    return data


def params_from_dict(cls: type[P], data: dict[str, Any], what: str) -> P:
    """The inverse of :func:`params_to_dict`; unknown names are an error, not ignored.

    Every value must have the shape of the field's default (an ``int`` where the default
    is one — not a bool, a float or a string —, a list of rows like the default's rows),
    so ``{"columns": "7"}`` or ``{"shuffle_costs": null}`` is a ``ValueError`` naming the
    field rather than a crash later in the engine. Ranges are the class's own check."""
    if not isinstance(data, dict):
        raise ValueError(f"{what}: expected an object of name: value, got {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(cls)}  # type: ignore[arg-type]
    unknown = sorted(str(k) for k in set(data) - set(fields))
    if unknown:
        raise ValueError(f"unknown {what}: {', '.join(unknown)}")
    values: dict[str, Any] = {}
    for k, v in data.items():
        f = fields[k]
        like: Any = None  # a field without a default is checked by the class alone
        if f.default is not dataclasses.MISSING:
            like = f.default
        elif f.default_factory is not dataclasses.MISSING:
            like = f.default_factory()
        if like == ():  # no model item to compare with: the annotation says which
            like = ("",) if str(f.type).replace(" ", "") == "tuple[str,...]" else (("", 0),)
        values[k] = _tuplify(v)
        problem = _shape_problem(values[k], like)
        if problem:
            raise ValueError(f"{what}: {k}: {problem}")
    try:
        return cls(**values)
    except TypeError as exc:  # a field without a default that the data lacks
        raise ValueError(f"{what}: {exc}") from None


def _shape_problem(value: Any, like: Any, depth: int = 0) -> str:
    """Why ``value`` does not have the shape of ``like`` (a default value), or ``""``."""
    if depth > 8:
        return "nested too deeply"
    if isinstance(like, int | str):  # bool too: type(like) keeps it apart
        want = type(like)
        if type(value) is not want:
            return f"expected {want.__name__}, got {type(value).__name__} {value!r:.40}"
        if isinstance(value, int) and not -LIMIT <= value <= LIMIT:
            return f"{value:.3g} is out of range (at most {LIMIT} in size)"
        return ""
    if isinstance(like, tuple):
        if not isinstance(value, tuple):
            return f"expected a list, got {type(value).__name__} {value!r:.40}"
        rows = len({type(x) for x in like}) > 1 and not isinstance(like[0], tuple)
        if rows:  # a fixed row such as ("battle", 16, 6): item by item
            if len(value) != len(like):
                return f"expected {len(like)} items like {list(like)!r}, got {len(value)}"
            pairs = list(zip(value, like, strict=True))
        else:  # a list of items of one shape, any length
            pairs = [(x, like[0]) for x in value]
        for i, (x, model) in enumerate(pairs):
            problem = _shape_problem(x, model, depth + 1)
            if problem:
                return f"item {i + 1}: {problem}"
        return ""
    return ""


def _json_ready(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _json_ready(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_json_ready(v) for v in value]
    return value


def _tuplify(value: Any, depth: int = 0) -> Any:
    if not isinstance(value, list):
        return value
    if depth > 8:
        raise ValueError("rule parameters nested too deeply")
    return tuple(_tuplify(v, depth + 1) for v in value)


DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class CardLimits:
    """Sane bounds of a card table's numbers, checked when the table loads.

    Not design values (today's cards stay far below), but a table with a cost, attack or
    HP of 10^20 is a typo, and would overflow later (``throne log --csv``). A designer
    who wants bigger numbers widens them: ``load_cards(path, CardLimits(hp=5000))``.
    """

    cost: int = 99
    attack: int = 999
    hp: int = 999
    move: int = 20
    range: int = 20
    effect_number: int = 999  # any number inside the keywords and effects cells
    cell_chars: int = 2000  # the longest keywords or effects cell

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            if not 1 <= getattr(self, f.name) <= LIMIT:
                raise ValueError(f"bad CardLimits: {f.name} must be 1..{LIMIT}")

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


DEFAULT_CARD_LIMITS = CardLimits()
