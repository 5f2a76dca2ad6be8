"""The search space: the designer's :class:`Targets`, the :class:`Knob` s a search may
move (:func:`search_space`), and a candidate's changes (:data:`Changes`) written into a
card table (:func:`variant`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace

from throne_lib.kit.balance.adapter import (
    BalanceGame,
    PlayTask,
)
from throne_lib.kit.carddiff import Sheet

FIRST = "@first"  # the pseudo-group of the first seat (for knobs that move its edge)
# How far one proposal may move a card number on the command line and the dashboard by
# default (``search_space(max_step=…)``, ``--max-step``): half of today's value, at least
# one step. The dashboard-sized run of #38 proposed 树妖队长 attack 2 -> 4.
MAX_STEP = 0.5


# --- targets and the search space ---------------------------------------------------------


@dataclass(frozen=True)
class Targets:
    """What the designer asks for. Imbalance is the sum over groups of how far each
    win rate lies outside ``band``, plus ``first_seat_weight`` times the first seat's
    win rate above ``first_seat_max``, plus (relative) mean match length outside
    ``length``.

    The first seat weighs more than one group: it is one number against a dozen or more
    groups' noise, and its lever (a rules change) replays every match with new dice. At
    weight 1 the search blocks' noise on eighteen generals outweighed the 17-point edge
    the second-seat mana removes, and the search kept the unchanged first seat."""

    band: tuple[float, float] = (0.45, 0.55)
    first_seat_max: float = 0.55
    length: tuple[float, float] | None = None
    first_seat_weight: float = 5.0

    def __post_init__(self) -> None:
        lo, hi = self.band
        if not 0 <= lo <= hi <= 1:
            raise ValueError(f"band {self.band}: expected 0 <= low <= high <= 1")
        if not 0 < self.first_seat_max <= 1:
            raise ValueError(f"first_seat_max {self.first_seat_max}: expected in (0, 1]")
        if not self.first_seat_weight >= 0:
            raise ValueError(f"first_seat_weight {self.first_seat_weight}: expected >= 0")
        if self.length is not None and not 0 <= self.length[0] <= self.length[1]:
            raise ValueError(f"length {self.length}: expected 0 <= low <= high")

    def aimed(self, margin: float) -> Targets:
        """The targets the search works towards: the band narrowed by ``margin`` on each
        side (:attr:`Budget.aim`), at most to its centre. The first seat's bound is left
        as stated: its lever is chosen with :data:`LEVER_HEADROOM` under it already."""
        lo, hi = self.band
        margin = min(margin, (hi - lo) / 2)
        if margin <= 0:
            return self
        return replace(self, band=(lo + margin, hi - margin))


def _outside(x: float, lo: float, hi: float) -> float:
    return max(0.0, lo - x, x - hi)


@dataclass(frozen=True)
class Knob:
    """One number the search may move. ``key`` is ``card.field`` or ``rules.name``."""

    key: str
    card: str  # "" for a rules parameter
    field: str
    base: int
    low: int
    high: int
    sign: int  # +1: higher is stronger for ``groups``
    groups: frozenset[str]
    step: int = 1
    label: str = ""  # a rules parameter's name for players (RulesField.label)

    @property
    def is_rules(self) -> bool:
        return self.card == ""


@dataclass(frozen=True)
class SearchSpace:
    knobs: tuple[Knob, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_key", {k.key: k for k in self.knobs})

    def __getitem__(self, key: str) -> Knob:
        by_key: dict[str, Knob] = self._by_key  # type: ignore[attr-defined]
        return by_key[key]

    def __contains__(self, key: object) -> bool:
        return key in self._by_key  # type: ignore[attr-defined]

    def __len__(self) -> int:
        return len(self.knobs)


def parse_bounds(text: str) -> tuple[int, int]:
    """``"-2:+3"`` -> (2, 3): how far down and up a field may move."""
    try:
        lo, hi = text.split(":")
        return abs(int(lo)), abs(int(hi))
    except ValueError:
        raise ValueError(f"bounds {text!r}: expected DOWN:UP, e.g. -2:+2") from None


def step_bound(value: int, max_step: float, step: int = 1) -> int:
    """How far a card number at ``value`` may move (:func:`search_space`'s
    ``max_step``): ``max_step`` x |value| rounded down to whole ``step`` s, at least one
    step."""
    if not max_step > 0:
        raise ValueError(f"max_step {max_step}: expected a fraction > 0, e.g. 0.5")
    return max(step, int(max_step * abs(value) // step) * step)


def is_cost(field: str) -> bool:
    """Is card field ``field`` a price (``cost``, ``action_cost`` …): one that a search
    may not bring to 0 unless it is allowed (:func:`search_space`'s ``zero_cost``)?"""
    return field == "cost" or field.endswith("_cost")


def search_space(
    game: BalanceGame,
    fields: Sequence[str] | None = None,
    rules: Sequence[str] | None = None,
    bounds: Mapping[str, tuple[int, int]] | None = None,
    freeze: Sequence[str] = (),
    cards: Sequence[str] | None = None,
    max_step: float | None = None,
    zero_cost: bool = True,
) -> SearchSpace:
    """The knobs: every card (of ``cards``, default all) x field (of ``fields``, default
    all the game's numeric fields) the card has, and the rules parameters ``rules``
    (default all the game offers). ``bounds`` overrides a field's (down, up).
    ``freeze`` entries are a card id (all its fields), a field name (on every card),
    ``card.field``, or ``rules.name``: frozen knobs are not in the space at all. A game
    may say per card which way a field makes it stronger (``field_sign``, as
    :class:`CardTableAdapter` does; 0 leaves it out) and which groups it moves
    (``field_groups``, as Throne's adapter does); otherwise the field's sign and the
    card's groups hold.

    ``max_step`` (a fraction, None: no bound) bounds how far a proposal may move a card
    number from today's value: at most ``max_step`` of it, rounded down to whole steps,
    and at least one step (:func:`step_bound`: with 0.5, attack 2 may become 1 or 3,
    never 4; hp 6 may become 3 to 9). Rules parameters keep the range they were offered
    with. ``zero_cost`` False: a cost field (:func:`is_cost`) never goes below 1 (a
    card that costs 0 already keeps its 0)."""
    specs = game.card_fields()
    names = list(fields) if fields is not None else list(specs)
    for n in names:
        if n not in specs:
            raise ValueError(f"unknown card field {n!r}; known: {', '.join(specs)}")
    rspecs = game.rules_fields()
    rnames = list(rules) if rules is not None else list(rspecs)
    for n in rnames:
        if n not in rspecs:
            raise ValueError(f"unknown rules parameter {n!r}; known: {', '.join(rspecs)}")
    frozen = set(freeze)
    sheet = Sheet.parse(game.table_text())
    records = {r["id"].strip(): r for r in sheet.records() if r.get("id", "").strip()}
    for entry in frozen:
        head = entry.split(".", 1)[0]
        if entry not in specs and head != "rules" and head not in records:
            raise ValueError(f"freeze {entry!r}: not a card id, a field, card.field or rules.X")
    wanted = list(cards) if cards is not None else list(records)
    for c in wanted:
        if c not in records:
            raise ValueError(f"unknown card {c!r}")
    knobs: list[Knob] = []
    sign_of: Callable[[Mapping[str, str], str], int] | None = getattr(game, "field_sign", None)
    groups_of: Callable[[str, str], frozenset[str]] | None = getattr(game, "field_groups", None)
    for cid in wanted:
        if cid in frozen:
            continue
        card_groups = game.card_groups(cid)
        if not card_groups:
            continue  # a card no group plays cannot move a win rate
        for name in names:
            if name in frozen or f"{cid}.{name}" in frozen:
                continue
            value = game.get_field(records[cid], name)
            if value is None:
                continue
            sign = specs[name].sign if sign_of is None else sign_of(records[cid], name)
            groups = card_groups if groups_of is None else groups_of(cid, name)
            if not sign or not groups:
                continue  # no known direction, or no group it moves
            spec = specs[name]
            down, up = (bounds or {}).get(name, (spec.down, spec.up))
            low, high = max(spec.minimum, value - down), value + up
            if max_step is not None:
                reach = step_bound(value, max_step, spec.step)
                low, high = max(low, value - reach), min(high, value + reach)
            if not zero_cost and is_cost(name) and value >= 1:
                low = max(low, 1)
            if low == high:
                continue
            knobs.append(
                Knob(f"{cid}.{name}", cid, name, value, low, high, sign, groups, spec.step)
            )
    for name in rnames:
        if f"rules.{name}" in frozen:
            continue
        r = rspecs[name]
        # a parameter that helps known groups is guided like a card's field (sign +1:
        # higher helps them); otherwise it is a first-seat lever (or unguided)
        sign, groups = (1, r.groups) if r.groups else (r.first_sign, frozenset({FIRST}))
        knobs.append(
            Knob(f"rules.{name}", "", name, r.base, r.low, r.high, sign, groups, r.step, r.label)
        )
    return SearchSpace(tuple(knobs))


# --- candidates -----------------------------------------------------------------------------

Changes = tuple[tuple[str, int], ...]  # (knob key, new value), sorted, only knobs moved


def normalise(changes: Mapping[str, int], space: SearchSpace) -> Changes:
    return tuple(sorted((k, v) for k, v in changes.items() if v != space[k].base))


def base_values(changes: Changes, space: SearchSpace) -> dict[str, int]:
    """The value each changed knob had before."""
    return {k: space[k].base for k, _ in changes}


def change_size(changes: Changes, space: SearchSpace) -> float:
    """Total steps moved."""
    return float(sum(abs(v - space[k].base) / space[k].step for k, v in changes))


def variant(game: BalanceGame, base: str, changes: Changes, space: SearchSpace) -> PlayTask:
    """The card table text and rules overrides of a candidate (no items yet)."""
    card = [(space[k], v) for k, v in changes if not space[k].is_rules]
    rules = tuple((space[k].field, v) for k, v in changes if space[k].is_rules)
    return PlayTask(
        apply_card_changes(game, base, [(k.card, k.field, v) for k, v in card]), rules, ()
    )


def apply_card_changes(
    game: BalanceGame, text: str, changes: Sequence[tuple[str, str, int]]
) -> str:
    """``text`` with each (card, field, value) written; untouched rows keep their bytes."""
    if not changes:
        return text
    sheet = Sheet.parse(text)
    index = {r.values[sheet.header.index("id")].strip(): r for r in sheet.rows}
    for cid, name, value in changes:
        if cid not in index:
            raise ValueError(f"card {cid!r} is not in the table")
        row = index[cid]
        rec = dict(zip(sheet.header, row.values, strict=False))
        game.set_field(rec, name, value)
        row.values = [rec.get(h, "") for h in sheet.header]
    return sheet.text()
