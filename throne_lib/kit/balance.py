"""Balance assistant: the smallest card-table (and rules) changes that even out win rates.

Game-agnostic. A game plugs in through a small adapter (:class:`BalanceGame`): which
numeric fields its card table has and how to read/write them, which rules parameters
may move, which groups (decks, generals, roles …) the win rates are taken over, how to
draw a block of matches and how to play a batch of them. The search itself:

- **Search space** (:func:`search_space`): every numeric card field within declared
  bounds, plus chosen rules parameters; frozen cards and fields are left out entirely,
  so no candidate can ever touch them.
- **Objectives** (minimised): *imbalance* (how far the group win rates fall outside the
  target band, plus the first seat's excess over its bound, plus match length outside
  its bounds), the *number* of changed fields and their *size* (steps moved).
- **NSGA-II** (:mod:`throne_lib.kit.nsga`) with operators made for sparse edits: add a
  change (guided: a knob of a group that is out of band, moved in the direction that
  helps), resize one, drop one; uniform crossover of two parents' changes.
- **Common random numbers**: every candidate plays the same blocks of matches (same
  pairings, same seeds). A match whose cards and rules a candidate does not touch has
  the outcome it had for the table it was first played with, so it is not replayed:
  results are cached by (match, the changes that concern it).
- **Racing**: offspring are measured block by block and dropped as soon as a paired
  test over the blocks played shows a candidate with no more (and no bigger) changes
  is clearly better (F-Race style; ``z`` sets how sure).
- **Repair** (optional, ``Budget.repair``): after the generations, a greedy local search
  from the best candidate: each step tries single steps of a few knobs of each group
  still out of band (weighted like guided changes), and keeps the best if it lowers the
  imbalance. A knob of one general's card replays only that general's matches, so a
  step costs a fraction of a generation and goes deeper than a population can.
- **Holdout**: every proposal shown is re-measured, with the unchanged table beside
  it, on fresh blocks whose seeds the search never used; win rates carry 95% Wilson
  intervals.

Parallel on a process pool or a Dask cluster; the rows come back in submission order,
so the same seed gives the same proposals on every backend.
"""

from __future__ import annotations

import contextlib
import math
import random
import re
import statistics
import time
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

import pandas as pd

from throne_lib.kit import nsga
from throne_lib.kit.analytics import wilson
from throne_lib.kit.carddiff import Sheet, diff_tables
from throne_lib.kit.effectlang import Number, numbers

FIRST = "@first"  # the pseudo-group of the first seat (for knobs that move its edge)
SEED_STRIDE = 10_000  # seeds per block (a block plays fewer matches than this)
MAX_BLOCKS = 1_000
# The first-seat lever is chosen this far under the bound on the search blocks, so that it
# still meets the bound on the holdout: 360 search matches put ±2.6 points of sampling
# noise on the first seat's rate.
LEVER_HEADROOM = 0.025
# How many standard errors over its bound a lever rung's first seat must be before the
# ladder stops measuring it (:meth:`_Search._first_clearly_above`). Strict, because it is
# tested after every block: a rung truly at the bound is almost never dropped.
LEVER_DROP_Z = 3.0
# The least weight a guided change gives a knob of a group that misses its band (one
# general's own card, 10 points out of the band, weighs about 0.15).
MIN_PULL = 0.01
# The repair stage (:meth:`_Search.repair`), by default: knobs tried per out-of-band
# group and step, and how many of the worst groups one step works on
# (:attr:`Budget.repair_tries`, :attr:`Budget.repair_groups`).
REPAIR_TRIES = 4
REPAIR_GROUPS = 3
# With Budget.repair_memory: how much less often a repair draws a knob move it measured
# and predicts to help no one (:meth:`_Search.predicted`).
USELESS_WEIGHT = 0.2
# With confirm blocks (:data:`Budget.confirm`): how many of a repair step's improving
# tries, best first, are re-measured on them before the step gives up.
CONFIRM_TOP = 3


# Verification blocks (:func:`verify`) take their seeds from here up: above every search
# and holdout seed of a run seed below MAX_SEED.
VERIFY_BASE = 2**40
MAX_SEED = VERIFY_BASE // (2 * MAX_BLOCKS * SEED_STRIDE)


def block_seed(seed: int, k: int, holdout: bool = False, verify: bool = False) -> int:
    """The first match seed of block ``k`` of the run with ``seed``: search, holdout and
    verification blocks of every run seed in ``0 <= seed < MAX_SEED`` take disjoint seed
    ranges, so holdout seeds are never searched and verification seeds never seen by
    any search or holdout."""
    if not 0 <= seed < MAX_SEED:
        raise ValueError(f"balance seed {seed}: expected 0 <= seed < {MAX_SEED}")
    if verify:
        return VERIFY_BASE + (seed * MAX_BLOCKS + k) * SEED_STRIDE
    return ((2 * seed + holdout) * MAX_BLOCKS + k) * SEED_STRIDE


# --- what a game provides ------------------------------------------------------------------


@dataclass(frozen=True)
class FieldSpec:
    """A numeric card field the search may move: ``sign`` +1 when a higher value makes
    the card stronger (attack), -1 when weaker (cost); ``down``/``up`` the default
    bounds relative to the card's value; ``minimum`` the lowest legal value."""

    sign: int
    down: int = 2
    up: int = 2
    minimum: int = 0
    step: int = 1


@dataclass(frozen=True)
class RulesField:
    """A rules parameter the search may move, within ``[low, high]``. ``groups`` whom a
    higher value helps (empty: everyone alike), ``first_sign`` +1 when a higher value
    helps the first seat, -1 when it helps the others, 0 unknown. ``label``: its name for
    the game's players (Chinese; the dashboard shows it beside the field's name)."""

    base: int
    low: int
    high: int
    first_sign: int = 0
    step: int = 1
    label: str = ""


@dataclass(frozen=True)
class SeatResult:
    """One seat of one match: its group (deck, general, role …), whether it moved first
    and its score (1 win, 0.5 draw, 0 loss; a team's seats all score)."""

    group: str
    first: bool
    score: float


@dataclass(frozen=True)
class Outcome:
    seats: tuple[SeatResult, ...]
    length: float  # rounds, turns … (whatever the game calls match length)


@dataclass(frozen=True)
class PlayTask:
    """What a worker plays: one variant (card table text + rules overrides) and a few
    matches (the game's items)."""

    table: str
    rules: tuple[tuple[str, int], ...]
    items: tuple[Hashable, ...]


class BalanceGame(Protocol):
    """The adapter between the balance search and one game. ``play`` must be picklable
    (a method of a module-level class is) since it runs on pool or Dask workers."""

    def table_text(self) -> str:
        """The card table (CSV text with an ``id`` column) the search starts from."""
        ...

    def card_fields(self) -> Mapping[str, FieldSpec]:
        """The numeric fields a card may have, by the name the search uses."""
        ...

    def get_field(self, record: Mapping[str, str], name: str) -> int | None:
        """A card's value of field ``name``, or None when the card has no such field."""
        ...

    def set_field(self, record: dict[str, str], name: str, value: int) -> None:
        """Write ``value`` into the CSV record (text values by column)."""
        ...

    def rules_fields(self) -> Mapping[str, RulesField]:
        """The rules parameters the search may move (by name)."""
        ...

    def groups(self) -> Sequence[str]:
        """The groups whose win rates are balanced."""
        ...

    def card_groups(self, card_id: str) -> frozenset[str]:
        """The groups whose matches a card can take part in."""
        ...

    def block(self, rng: random.Random, seed0: int) -> list[Hashable]:
        """One block of matches (hashable, picklable items), seeds from ``seed0`` on
        (fewer than :data:`SEED_STRIDE`); every group should appear about equally."""
        ...

    def item_cards(self, item: Hashable) -> frozenset[str] | None:
        """Every card id that can influence this match (None: any card may)."""
        ...

    def play(self, task: PlayTask) -> list[Outcome]:
        """Play the task's items on its variant; one outcome per item, in order."""
        ...


# --- helpers for adapters -------------------------------------------------------------------


def keyword_amount(text: str, keyword: str) -> int | None:
    """The N of ``keyword(N)`` in a card's keyword text, None when it has none."""
    m = re.search(rf"\b{re.escape(keyword)}\((\d+)\)", text)
    return int(m.group(1)) if m else None


def with_keyword_amount(text: str, keyword: str, value: int, card: str = "") -> str:
    """``text`` with ``keyword(N)`` rewritten to ``keyword(value)``."""
    out, n = re.subn(rf"\b{re.escape(keyword)}\(\d+\)", f"{keyword}({value})", text)
    if n != 1:
        raise ValueError(f"card {card!r} has no keyword {keyword}(N)")
    return out


EFFECT_PREFIX = "fx."


def effect_numbers(text: str) -> dict[str, Number]:
    """The whole numbers of an effects cell by their field name (:func:`numbers`):
    ``fx.TRIGGER.CALL`` for the first number of the first call of that name in the
    first clause with that trigger, ``fx.TRIGGER(PARAM)`` for a trigger's own number
    (``fx.skill(mana)`` of ``skill(mana=2): …``). The k-th clause of a trigger, the k-th
    call of a name and its k-th number add ``#k``, ``#k`` and ``[k]``:
    ``fx.play.buff[2]`` is the HP of ``play: buff(2, 3, ally)``."""
    out: dict[str, Number] = {}
    clauses: dict[int, str] = {}
    per_trigger: dict[str, int] = {}
    ints: dict[tuple[int, str, int], int] = {}
    for n in numbers(text):
        if n.clause not in clauses:
            k = per_trigger[n.trigger] = per_trigger.get(n.trigger, 0) + 1
            clauses[n.clause] = EFFECT_PREFIX + n.trigger + (f"#{k}" if k > 1 else "")
        head = clauses[n.clause]
        if n.param is not None:
            out[f"{head}({n.param})"] = n
            continue
        assert n.call is not None
        i = ints[(n.clause, n.call, n.occurrence)] = (
            ints.get((n.clause, n.call, n.occurrence), 0) + 1
        )
        name = f"{head}.{n.call}" + (f"#{n.occurrence}" if n.occurrence > 1 else "")
        out[name + (f"[{i}]" if i > 1 else "")] = n
    return out


def int_field(record: Mapping[str, str], name: str) -> int | None:
    """A whole-number CSV field, None when blank or not a whole number (e.g. ``∞``)."""
    text = record.get(name, "").strip()
    return int(text) if text.lstrip("-").isdigit() else None


class CardTableAdapter:
    """The field part of a :class:`BalanceGame` for a CSV card table whose knobs are
    whole-number columns, keyword amounts and (optionally) the numbers of the effects
    column: a base class for adapters.

    ``table`` is the card table's text, ``fields`` its searchable fields (``kw.NAME`` for
    the N of a ``NAME(N)`` keyword), ``rules`` the game's rules object and ``knobs`` the
    rules parameters offered (their ``base`` is read from ``rules``). ``parse_keywords``
    is the game's keyword parser: a rewritten keyword cell must still parse (it raises on
    a bad one); None when the game has no keyword fields. ``parse_effects``, likewise for
    the effects column: when given, every number the table's effects cells hold becomes
    a field (:func:`effect_numbers`), with ``effect_spec`` for a trigger's own numbers
    (a skill's mana) and ``amount_spec`` for a call's; which way a number makes its card
    stronger is the subclass's :meth:`effect_sign` (the default, 0, leaves them out). A
    subclass adds the groups and the matches; it must stay picklable (a module-level
    parser is)."""

    def __init__(
        self,
        table: str,
        fields: Mapping[str, FieldSpec],
        rules: Any,
        knobs: Mapping[str, RulesField],
        parse_keywords: Callable[[str], object] | None = None,
        parse_effects: Callable[[str], object] | None = None,
        effect_spec: FieldSpec = FieldSpec(-1, 1, 1, 0),
        amount_spec: FieldSpec = FieldSpec(+1, 1, 2, 1),
    ) -> None:
        self.table = table
        self.fields = dict(fields)
        self.rules = rules
        self.knobs = dict(knobs)
        self.parse_keywords = parse_keywords
        self.parse_effects = parse_effects
        if parse_effects is not None:
            for record in Sheet.parse(table).records():
                for name, n in effect_numbers(record.get("effects", "")).items():
                    self.fields.setdefault(name, effect_spec if n.param else amount_spec)

    def effect_sign(self, record: Mapping[str, str], number: Number) -> int:
        """+1 when a higher ``number`` (of ``record``'s effects) makes the card stronger,
        -1 when weaker, 0 when it depends (then the number is not a knob)."""
        return 0

    def field_sign(self, record: Mapping[str, str], name: str) -> int:
        """Which way field ``name`` of this card makes it stronger (0: not a knob here)."""
        if name.startswith(EFFECT_PREFIX):
            n = effect_numbers(record.get("effects", "")).get(name)
            return 0 if n is None else self.effect_sign(record, n)
        return self.fields[name].sign

    def table_text(self) -> str:
        return self.table

    def card_fields(self) -> Mapping[str, FieldSpec]:
        return self.fields

    def get_field(self, record: Mapping[str, str], name: str) -> int | None:
        if name.startswith("kw."):
            return keyword_amount(record.get("keywords", ""), name[3:])
        if name.startswith(EFFECT_PREFIX):
            n = effect_numbers(record.get("effects", "")).get(name)
            return None if n is None else n.value
        return int_field(record, name)  # blank and non-numbers (∞, 全) are not knobs

    def set_field(self, record: dict[str, str], name: str, value: int) -> None:
        if name.startswith(EFFECT_PREFIX):
            text = record.get("effects", "")
            n = effect_numbers(text).get(name)
            if n is None or self.parse_effects is None:
                raise ValueError(f"card {record.get('id', '')!r} has no effect number {name}")
            text = text[: n.start] + str(value) + text[n.end :]
            self.parse_effects(text)  # still valid
            record["effects"] = text
            return
        if name.startswith("kw."):
            if self.parse_keywords is None:
                raise ValueError(f"no keyword fields in this game: {name}")
            text = with_keyword_amount(record["keywords"], name[3:], value, record.get("id", ""))
            self.parse_keywords(text)  # still valid
            record["keywords"] = text
            return
        record[name] = str(value)

    def rules_fields(self) -> Mapping[str, RulesField]:
        return {n: replace(f, base=getattr(self.rules, n)) for n, f in self.knobs.items()}


def pairing_block(
    groups: Sequence[str], rounds: int, rng: random.Random, seed0: int
) -> list[Hashable]:
    """``rounds`` random pairings of all ``groups`` (one sits out when their number is
    odd), the first of a pair in seat 0: items ``(a, b, seed)``, seeds from ``seed0``."""
    items: list[Hashable] = []
    for _ in range(rounds):
        order = list(groups)
        rng.shuffle(order)
        for a, b in zip(order[::2], order[1::2], strict=False):
            items.append((a, b, seed0 + len(items)))
    return items


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


def search_space(
    game: BalanceGame,
    fields: Sequence[str] | None = None,
    rules: Sequence[str] | None = None,
    bounds: Mapping[str, tuple[int, int]] | None = None,
    freeze: Sequence[str] = (),
    cards: Sequence[str] | None = None,
) -> SearchSpace:
    """The knobs: every card (of ``cards``, default all) x field (of ``fields``, default
    all the game's numeric fields) the card has, and the rules parameters ``rules``
    (default all the game offers). ``bounds`` overrides a field's (down, up).
    ``freeze`` entries are a card id (all its fields), a field name (on every card),
    ``card.field``, or ``rules.name``: frozen knobs are not in the space at all. A game
    may say per card which way a field makes it stronger (``field_sign``, as
    :class:`CardTableAdapter` does; 0 leaves it out) and which groups it moves
    (``field_groups``, as Throne's adapter does); otherwise the field's sign and the
    card's groups hold."""
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
            if low == high:
                continue
            knobs.append(
                Knob(f"{cid}.{name}", cid, name, value, low, high, sign, groups, spec.step)
            )
    for name in rnames:
        if f"rules.{name}" in frozen:
            continue
        r = rspecs[name]
        knobs.append(
            Knob(
                f"rules.{name}",
                "",
                name,
                r.base,
                r.low,
                r.high,
                r.first_sign,
                frozenset({FIRST}),
                r.step,
                r.label,
            )
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
        from distributed import Client, LocalCluster

        cluster = None
        if scheduler is None:
            cluster = LocalCluster(
                n_workers=n,
                threads_per_worker=1,
                host="127.0.0.1",
                protocol="tcp",
                dashboard_address=None,
                processes=n > 1,
            )
        client = Client(cluster if cluster is not None else scheduler)
        try:
            yield client.get_executor(pure=False)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()
    else:
        raise ValueError(f"unknown backend {backend!r}: process, dask or serial")


class Evaluator:
    """Plays (candidate, block) pairs with common random numbers and a result cache."""

    def __init__(
        self,
        game: BalanceGame,
        space: SearchSpace,
        executor: Executor | None,
        chunk: int = 4,
    ) -> None:
        self.game = game
        self.space = space
        self.executor = executor
        self.chunk = chunk
        self.base = game.table_text()
        self.cache: dict[tuple[Hashable, Changes], Outcome] = {}
        self.played = 0
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
                seen.add(key)
                todo.setdefault(key[1], []).append(item)
        tasks: list[tuple[Changes, PlayTask]] = []
        for changes, items in todo.items():
            base = variant(self.game, self.base, changes, self.space)
            for i in range(0, len(items), self.chunk):
                tasks.append((changes, replace(base, items=tuple(items[i : i + self.chunk]))))
        if tasks:
            ts = [t for _, t in tasks]
            if self.executor is None:
                results = [self.game.play(t) for t in ts]
            else:
                results = list(self.executor.map(self.game.play, ts))
            for (changes, task), got in zip(tasks, results, strict=True):
                for item, o in zip(task.items, got, strict=True):
                    self.cache[(item, changes)] = o
                    self.played += 1
        return [[self.cache[self._key(i, c)] for i in items] for c, items in jobs]


# --- the search ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Budget:
    """How much simulation the search may spend.

    ``population`` candidates per generation, ``generations`` rounds of offspring,
    ``blocks`` CRN blocks in the search schedule (each from :meth:`BalanceGame.block`),
    ``holdout_blocks`` fresh blocks for the final measurement, ``max_changes`` per
    proposal, ``min_blocks`` before racing may drop a candidate, ``z`` the racing test's
    one-sided z (1.64 ≈ 95%), ``proposals`` how many to re-measure and show.

    ``rules_first``: when the unchanged table misses the first-seat bound, measure every
    first-seat rules lever alone at each step first and start the card search from the
    fewest steps that meet the bound (:meth:`_Search.lever_ladder`).

    ``aim`` narrows the band the search works towards by this much on each side (the
    report still judges every rate by the stated band): a search that stops as soon as a
    rate is inside the band on its own blocks leaves it near the band's edge, where the
    holdout's fresh dice put it outside about half the time. Off by default: on the toy
    game of the tests (4 heroes, one too strong) aiming 2 points inside did not find the
    fix more often (7 of 16 seeds against 9), so it is a knob for many-group tables.

    ``repair`` (steps, 0: off) runs :meth:`_Search.repair` after the generations: at
    most this many greedy steps from the best candidate, each trying a few single-knob
    moves for the groups still out of band. With a time limit the generations leave
    ``repair_share`` of it to the repair. ``repair_combine``: each step also tries the
    best improving move of every group made together (:meth:`_Search.combine`); off by
    default: in the one acceptance run that compared it (seed 0, 27 minutes), it went
    further on the search blocks (0.028 against 0.062) and worse on the holdout (0.083
    against 0.042): each group's best try is the luckiest of its few, and the combined
    move stacked the luck of three. With ``confirm`` blocks it combines only moves each
    confirmed on their own, and keeps the combination only if it beats the best of them
    on search and confirm blocks together (:meth:`_Search.confirm_step`).

    ``confirm`` (blocks, 0: off) gives the repair blocks of its own, played after the
    search blocks in the same seed range (never a holdout seed). A step still chooses
    its tries on the search blocks, but keeps one only if, on the confirm blocks, it
    moves its group the way it was meant to, and if it lowers the imbalance of search
    and confirm blocks together; the groups a step works on are those out of band on
    both together. Choosing the best of a dozen tries
    on one sample keeps the tries that were lucky on it (the winner's curse); a second
    sample the choice never saw tells a real move from a lucky one.

    ``repair_groups`` and ``repair_tries``: a repair step works on the ``repair_groups``
    groups furthest out of band, trying at most ``repair_tries`` knobs of each. The
    tries are what a step costs; more groups with fewer tries each move more groups per
    step (with ``repair_combine``), more tries per group find a better move for each.

    ``slot_price`` (0: off) makes a repair move that adds changes earn them, when there
    are confirm blocks: on search and confirm blocks together, it must lower the aimed
    imbalance by at least ``slot_price`` x (imbalance now / changes still free) for each
    change it adds (a move of a knob already changed, or a swap, adds none). Without it
    a step keeps any confirmed gain: the acceptance runs reached ``max_changes`` by
    their fifth to tenth step, about half their changes each bought 0.01-0.06 of
    imbalance, and every later new knob had to be a swap. A confirmed move that does
    not earn its changes is not kept, and stays in the Pareto set. The price halves
    with each step in a row that kept nothing (and is whole again after one that kept
    a move): in run S, at 0.432 with four changes free, six steps in a row turned down
    every confirmed move, 19 in all.

    ``repair_memory``: a repair step's first try for a group is the knob move the
    repair has already measured (from an earlier candidate, on the search blocks) that
    is predicted to lower the aimed imbalance most from here: each general's measured
    change added to today's rates (:meth:`_Search.predicted`). The other tries are
    drawn as before; a move measured to help no one is drawn a fifth as often
    (:data:`USELESS_WEIGHT`). One step
    of one knob moved a general anywhere from 0 to 26 points in the probes of
    ``docs/balance.md`` (a human minion's attack against the human camp's soldier's
    cost), and the draw among a general's hundred knobs knows none of it; a measured
    move that lost to another, or was held back by the confirm blocks' noise, is
    otherwise rarely drawn again.

    ``time_limit`` (seconds, None: none) bounds the whole run's wall time: a generation
    (or repair step) is not started when the time spent, one more as long as the last
    one and the holdout (estimated from the time per match so far) would pass it. A run
    stopped early says so (:attr:`BalanceResult.generations_run`,
    :attr:`BalanceResult.repairs_run`); it is reproducible with ``generations`` and
    ``repair`` set to the numbers it ran (the seeds do not depend on the clock)."""

    population: int = 8
    generations: int = 6
    blocks: int = 4
    holdout_blocks: int = 8
    max_changes: int = 12
    min_blocks: int = 2
    z: float = 1.64
    proposals: int = 6
    time_limit: float | None = None
    rules_first: bool = True
    aim: float = 0.0
    repair: int = 0
    repair_share: float = 0.25
    repair_combine: bool = False
    confirm: int = 0
    repair_groups: int = REPAIR_GROUPS
    repair_tries: int = REPAIR_TRIES
    slot_price: float = 0.0
    repair_memory: bool = False

    def __post_init__(self) -> None:
        if self.time_limit is not None and not self.time_limit > 0:
            raise ValueError("budget time_limit must be positive (seconds)")
        for name in ("population", "blocks", "holdout_blocks", "max_changes"):
            if getattr(self, name) < 1:
                raise ValueError(f"budget {name} must be at least 1")
        if self.generations < 0:  # 0: the first population only
            raise ValueError("budget generations must be at least 0")
        if max(self.blocks, self.holdout_blocks) > MAX_BLOCKS:
            raise ValueError(f"budget: at most {MAX_BLOCKS} blocks")
        if self.population < 2:
            raise ValueError("budget population must be at least 2")
        if not 0 <= self.aim < 0.5:
            raise ValueError(f"budget aim {self.aim}: expected 0 <= aim < 0.5")
        if self.repair < 0:
            raise ValueError("budget repair must be at least 0 (steps)")
        if self.confirm < 0:
            raise ValueError("budget confirm must be at least 0 (blocks)")
        if not self.slot_price >= 0:
            raise ValueError(f"budget slot_price {self.slot_price}: expected >= 0")
        for name in ("repair_groups", "repair_tries"):
            if getattr(self, name) < 1:
                raise ValueError(f"budget {name} must be at least 1")
        if self.blocks + self.confirm > MAX_BLOCKS:
            raise ValueError(f"budget: at most {MAX_BLOCKS} search and confirm blocks together")
        if not 0 <= self.repair_share < 1:
            raise ValueError(f"budget repair_share {self.repair_share}: expected 0 <= share < 1")


@dataclass
class Candidate:
    changes: Changes
    block_scores: list[float] = field(default_factory=list)  # imbalance per block played
    tally: Tally | None = None  # over every block, once fully evaluated
    dropped_at: int | None = None  # block after which racing dropped it
    fixes: str | None = None  # the group a repair try was made for
    direction: int = 0  # and which way it was to move it (+1 stronger, -1 weaker)
    confirm: Tally | None = None  # on the confirm blocks, once measured there
    pooled: Tally | None = None  # on the search and confirm blocks together, likewise
    rejected: bool = False  # improved on the search blocks, not kept after the confirm check

    def objectives(
        self, space: SearchSpace, targets: Targets, groups: Sequence[str]
    ) -> tuple[float, float, float]:
        assert self.tally is not None
        return (
            round(self.tally.imbalance(targets, groups), 12),
            float(len(self.changes)),
            change_size(self.changes, space),
        )


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


@dataclass(frozen=True)
class Proposal:
    number: int
    changes: Changes
    search_imbalance: float
    size: float
    diff_text: str
    rules_changes: tuple[tuple[str, int, int], ...]  # (name, old, new)
    after: Measure
    table: str  # the proposed card table

    @property
    def n_changes(self) -> int:
        return len(self.changes)


@dataclass
class BalanceResult:
    targets: Targets
    budget: Budget
    seed: int
    groups: list[str]
    space: SearchSpace
    before: Measure
    before_search: float  # imbalance of the unchanged table on the search blocks
    proposals: list[Proposal]
    front: list[tuple[Changes, tuple[float, float, float]]]  # the whole search Pareto set
    matches_played: int
    history: list[dict[str, Any]] = field(default_factory=list)
    # the first-seat lever ladder measured before the card search (search blocks): one
    # {"changes", "first_rate", "imbalance", "dropped_at", "start"} per rung
    levers: list[dict[str, Any]] = field(default_factory=list)

    def proposal(self, number: int) -> Proposal:
        for p in self.proposals:
            if p.number == number:
                return p
        raise ValueError(f"no proposal {number}; there are {len(self.proposals)}")

    @property
    def generations_run(self) -> int:
        """Generations of offspring the search ran: fewer than the budget's when its
        time limit stopped it."""
        return max((int(h["generation"]) for h in self.history), default=0)

    @property
    def repairs_run(self) -> int:
        """Repair steps the search ran (fewer than ``budget.repair`` when it ran out of
        time, or when every group was in band or no step helped)."""
        return max((int(h.get("repair", 0)) for h in self.history), default=0)

    @property
    def repair_moves(self) -> int:
        """Repair steps that moved to a new candidate."""
        return sum(bool(h.get("moved")) for h in self.history if "repair" in h)

    @property
    def repair_rejected(self) -> int:
        """Repair tries that improved on the search blocks and that the confirm blocks
        turned down (:meth:`_Search.confirmed`, :data:`Budget.confirm`)."""
        return sum(int(h.get("rejected", 0)) for h in self.history)

    @property
    def repair_priced(self) -> int:
        """Confirmed repair moves not kept because they did not earn the changes they add
        (:data:`Budget.slot_price`)."""
        return sum(int(h.get("priced", 0)) for h in self.history)

    @property
    def repair_stop(self) -> str | None:
        """Why the repair stopped before its budget: "time", "in band" or "no move"."""
        for h in reversed(self.history):
            if "repair_stop" in h:
                return str(h["repair_stop"])
        return None


Progress = Callable[[dict[str, Any]], None]


class _Search:
    def __init__(
        self,
        game: BalanceGame,
        space: SearchSpace,
        targets: Targets,
        budget: Budget,
        seed: int,
        evaluator: Evaluator,
        progress: Progress | None,
    ) -> None:
        self.game = game
        self.space = space
        self.stated = targets
        self.targets = targets.aimed(budget.aim)  # what the search works towards
        self.budget = budget
        self.rng = random.Random(seed)
        self.seed = seed
        self.ev = evaluator
        self.progress = progress
        self.groups = list(game.groups())
        block_rng = random.Random(f"blocks:{seed}")
        self.blocks = [game.block(block_rng, block_seed(seed, k)) for k in range(budget.blocks)]
        # after the search blocks in the same stream and seed range: never a holdout seed
        self.confirm_blocks = [
            game.block(block_rng, block_seed(seed, budget.blocks + k))
            for k in range(budget.confirm)
        ]
        self.by_group: dict[str, list[Knob]] = {}
        for k in space.knobs:
            for g in k.groups:
                self.by_group.setdefault(g, []).append(k)
        self.archive: dict[Changes, Candidate] = {}
        self.ladder: list[Candidate] = []
        self.start: Candidate | None = None
        self.repaired: Candidate | None = None  # where the repair stage ended
        self.history: list[dict[str, Any]] = []
        self.started = time.monotonic()
        self.stalled = 0  # repair steps in a row that kept nothing (halves the slot price)
        # what one step of a knob did (Budget.repair_memory): (key, +1/-1 in value) ->
        # each measured try's change of every group's rate on the search blocks; None
        # for a try racing dropped (clearly worse than where it started)
        self.memory: dict[tuple[str, int], list[dict[str, float] | None]] = {}

    def _out_of_time(self, last_generation: float, reserve: bool = False) -> bool:
        """Would one more generation (as long as the last) and the holdout pass the
        budget's time limit? The holdout is estimated at the run's time per match so far
        for the unchanged table and every proposal replaying all its matches. ``reserve``:
        leave the repair its share of the limit too."""
        limit = self.budget.time_limit
        if limit is None:
            return False
        if reserve and self.budget.repair:
            limit *= 1 - self.budget.repair_share
        spent = time.monotonic() - self.started
        per_match = spent / max(1, self.ev.played)
        items = sum(len(b) for b in self.blocks) / len(self.blocks)
        holdout = per_match * items * self.budget.holdout_blocks * (1 + self.budget.proposals)
        return spent + last_generation + holdout > limit

    # --- evaluation -----------------------------------------------------------------------

    def _block_tally(self, changes: Changes, k: int) -> Tally:
        return tally(self.ev.outcomes([(changes, self.blocks[k])])[0])

    def evaluate(
        self, cands: list[Candidate], incumbents: list[Candidate], first_above: float | None = None
    ) -> None:
        """Measure ``cands`` block by block, racing them against ``incumbents``; with
        ``first_above``, also drop one whose first seat is clearly above it
        (:meth:`_first_clearly_above`)."""
        alive = [c for c in cands if c.tally is None]
        firsts = {id(c): Tally() for c in alive}  # the first seat's results so far
        for k in range(self.budget.blocks):
            if not alive:
                break
            got = self.ev.outcomes([(c.changes, self.blocks[k]) for c in alive])
            for c, outs in zip(alive, got, strict=True):
                t = tally(outs)
                c.block_scores.append(t.imbalance(self.targets, self.groups))
                firsts[id(c)].first_score += t.first_score
                firsts[id(c)].first_count += t.first_count
            if k + 1 >= self.budget.min_blocks and k + 1 < self.budget.blocks:
                for c in alive:
                    if self._beaten(c, incumbents, k + 1) or (
                        first_above is not None
                        and self._first_clearly_above(firsts[id(c)], first_above)
                    ):
                        c.dropped_at = k + 1
                alive = [c for c in alive if c.dropped_at is None]
        for c in alive:
            per_block = self.ev.outcomes([(c.changes, b) for b in self.blocks])
            c.tally = tally([o for block in per_block for o in block])
            self.archive[c.changes] = c

    @staticmethod
    def _first_clearly_above(t: Tally, bound: float) -> bool:
        """Is the first seat of ``t`` over ``bound`` by more than
        :data:`LEVER_DROP_Z` standard errors? The lever ladder's racing: a rules rung
        replays every match with new dice, so it is never paired with a candidate under
        other rules (:meth:`_beaten`), but a rung whose first seat is clearly too high
        cannot be the start. On the acceptance runs, second-seat mana 1 and the extra
        draws sat at 65–70% against 52.5%, and measuring them on every search block cost
        each run about 5,000 matches (1.5 minutes)."""
        if not t.first_count:
            return False
        p = t.first_rate
        se = math.sqrt(max(p * (1 - p), 1e-9) / t.first_count)
        return p - LEVER_DROP_Z * se > bound

    def _rules_of(self, changes: Changes) -> Changes:
        return tuple((k, v) for k, v in changes if self.space[k].is_rules)

    def _beaten(self, c: Candidate, incumbents: list[Candidate], n: int) -> bool:
        """Is ``c`` clearly worse (paired test over its first ``n`` blocks) than an
        incumbent with no more and no bigger changes *under the same rules*? Only then
        are the two paired: matches neither's cards touch have the same outcome for
        both. Under other rules every match is replayed with new dice, and a block's
        imbalance (5 matches per general) is noise enough to drop the first seat's lever
        (the 27-minute acceptance run dropped second-seat mana 3 and 4 this way)."""
        size = change_size(c.changes, self.space)
        rules = self._rules_of(c.changes)
        for d in incumbents:
            if d.changes == c.changes or len(d.changes) > len(c.changes):
                continue
            if self._rules_of(d.changes) != rules:
                continue
            if change_size(d.changes, self.space) > size:
                continue
            diffs = [a - b for a, b in zip(c.block_scores[:n], d.block_scores[:n], strict=True)]
            mean = statistics.fmean(diffs)
            sd = statistics.stdev(diffs) if len(diffs) > 1 else 0.0
            if mean > 0 and mean - self.budget.z * sd / math.sqrt(len(diffs)) > 0:
                return True
        return False

    # --- variation ------------------------------------------------------------------------

    def _clip(self, knob: Knob, value: int) -> int:
        return max(knob.low, min(knob.high, value))

    def _guided_add(self, changes: dict[str, int], parent: Candidate | None) -> bool:
        complaints = (
            parent.tally.complaints(self.targets, self.groups)
            if parent is not None and parent.tally is not None
            else []
        )
        complaints = [c for c in complaints if self.by_group.get(c[0])]
        if complaints and self.rng.random() < 0.85:
            group, direction, _ = self.rng.choices(complaints, [w for _, _, w in complaints])[0]
            knobs = [k for k in self.by_group[group] if k.key not in changes]
            if group == FIRST:
                knobs = [k for k in knobs if k.sign != 0]
            if not knobs:
                return False
            if group == FIRST:
                weights = [1.0 / len(k.groups) for k in knobs]
            else:
                assert parent is not None and parent.tally is not None
                weights = [self._pull(k, direction, parent.tally) for k in knobs]
            knob = self.rng.choices(knobs, weights)[0]
            if group == FIRST:  # one rules knob carries the whole edge: any size to its bound
                up = direction * knob.sign > 0
                room = (knob.high - knob.base if up else knob.base - knob.low) // knob.step
                steps = self.rng.randint(1, max(1, room))
            else:
                steps = self.rng.choice((1, 1, 2))
            value = self._clip(knob, knob.base + direction * knob.sign * steps * knob.step)
        else:
            free = [k for k in self.space.knobs if k.key not in changes]
            if not free:
                return False
            knob = self.rng.choice(free)
            value = self._clip(knob, knob.base + self.rng.choice((-1, 1)) * knob.step)
        if value == knob.base:
            return False
        changes[knob.key] = value
        return True

    def _pull(self, knob: Knob, direction: int, t: Tally) -> float:
        """How much moving ``knob`` in ``direction`` (+1 stronger) helps every group it
        touches at once: the sum over its groups of how far each lies from the centre of
        the band on the side the move corrects (negative where it pushes a group away).
        A card shared by three weak generals of one race outweighs one general's own card;
        a card every general plays moves them all alike and sums to about nothing. Never
        below :data:`MIN_PULL`, so any knob of the group can still be drawn."""
        lo, hi = self.targets.band
        centre = (lo + hi) / 2
        pull = 0.0
        for g in knob.groups:
            if g == FIRST:
                continue
            r = t.rate(g)
            if not math.isnan(r):
                pull += (centre - r) * direction
        return max(MIN_PULL, pull)

    def mutate(self, changes: dict[str, int], parent: Candidate | None) -> dict[str, int]:
        out = dict(changes)
        for _ in range(10):
            r = self.rng.random()
            if len(out) < self.budget.max_changes and (not out or r < 0.55):
                if self._guided_add(out, parent):
                    return out
            elif out and r < 0.8:
                key = self.rng.choice(sorted(out))
                knob = self.space[key]
                value = self._clip(knob, out[key] + self.rng.choice((-1, 1)) * knob.step)
                if value == knob.base:
                    del out[key]
                else:
                    out[key] = value
                return out
            elif out:
                del out[self.rng.choice(sorted(out))]
                return out
        return out

    def crossover(self, a: Changes, b: Changes) -> dict[str, int]:
        da, db = dict(a), dict(b)
        out: dict[str, int] = {}
        for key in sorted(set(da) | set(db)):
            if key in da and key in db:
                out[key] = da[key] if self.rng.random() < 0.5 else db[key]
            elif self.rng.random() < 0.5:
                out[key] = da.get(key, db.get(key, 0))
        keys = sorted(out)
        while len(keys) > self.budget.max_changes:
            keys.remove(self.rng.choice(keys))
        return {k: out[k] for k in keys}

    # --- the loop --------------------------------------------------------------------------

    def _points(self, pop: list[Candidate]) -> list[tuple[float, float, float]]:
        return [c.objectives(self.space, self.targets, self.groups) for c in pop]

    def _new(self, changes: Mapping[str, int], taken: set[Changes]) -> Candidate | None:
        ch = normalise(changes, self.space)
        if ch in taken:
            return None
        taken.add(ch)
        return Candidate(ch)

    def lever_rungs(self, base: Candidate) -> list[list[dict[str, int]]]:
        """The first seat's levers, each alone at every value on the helpful side of its
        base (R-TURN-12's second-seat mana 1, 2, 3, 4 …), grouped by steps from the base:
        ``[[mana 1, draw 1], [mana 2, draw 2], [mana 3], [mana 4]]``. Empty unless the
        unchanged table misses the first-seat bound and ``budget.rules_first`` is on."""
        if not self.budget.rules_first or base.tally is None:
            return []
        if not any(g == FIRST for g, _, _ in base.tally.complaints(self.targets, self.groups)):
            return []
        levels: list[list[dict[str, int]]] = []
        for knob in self.space.knobs:
            if FIRST not in knob.groups or knob.sign == 0:
                continue
            value = knob.base - knob.sign * knob.step  # -1: the first seat should weaken
            steps = 0
            while knob.low <= value <= knob.high:
                if steps == len(levels):
                    levels.append([])
                levels[steps].append({knob.key: value})
                value -= knob.sign * knob.step
                steps += 1
        return levels

    def lever_ladder(self, base: Candidate, taken: set[Changes]) -> list[Candidate]:
        """Measure the rungs of :meth:`lever_rungs` one step at a time, every lever of a
        step together, and stop after the first step at which some lever meets the
        first-seat bound less :data:`LEVER_HEADROOM`: the start is the fewest steps that
        do, and each rung replays every search match, so the steps past it are not
        measured (their settings stay open to the search's mutations). Below the last
        step, a rung whose first seat is clearly over the bound is dropped as soon as
        that is clear (:meth:`_first_clearly_above`)."""
        out: list[Candidate] = []
        bound = self.stated.first_seat_max - LEVER_HEADROOM
        levels = self.lever_rungs(base)
        for n, level in enumerate(levels, start=1):
            cands = [c for ch in level if (c := self._new(ch, taken)) is not None]
            # a rung clearly over the bound is dropped early, except on the last step:
            # when no rung meets the bound, the start is the lowest first seat measured
            self.evaluate(cands, [base], first_above=bound if n < len(levels) else None)
            out += cands
            if any(c.tally is not None and c.tally.first_rate <= bound for c in cands):
                break
        return out

    def lever(self, ladder: list[Candidate]) -> Candidate | None:
        """The rules setting the card search starts from: the fewest steps whose first
        seat is under the bound less :data:`LEVER_HEADROOM` on the search blocks (else
        the lowest first seat); None when every rung was dropped by racing."""
        done = [c for c in ladder if c.tally is not None]
        if not done:
            return None
        bound = self.stated.first_seat_max - LEVER_HEADROOM

        def rank(c: Candidate) -> tuple[float, float, float]:
            assert c.tally is not None
            excess = max(0.0, c.tally.first_rate - bound)
            return (round(excess, 12), change_size(c.changes, self.space), c.tally.first_rate)

        return min(done, key=rank)

    def run(self) -> list[Candidate]:
        b = self.budget
        base = Candidate(())
        self.evaluate([base], [])
        taken: set[Changes] = {()}
        ladder = self.lever_ladder(base, taken)
        start = self.lever(ladder) or base
        self.ladder = ladder
        self.start = start
        pop = [base] if start is base else [base, start]
        first: list[Candidate] = []
        for _ in range(20 * b.population):
            if len(pop) + len(first) >= b.population:
                break
            c = self._new(self.mutate(dict(start.changes), start), taken)
            if c is not None:
                first.append(c)
        self.evaluate(first, pop)
        pop += [c for c in first if c.tally is not None]
        if len(ladder) > 1:  # the other rungs compete for a place like any candidate
            merged = pop + [c for c in ladder if c is not start and c.tally is not None]
            pop = [merged[i] for i in nsga.select(self._points(merged), b.population)]
        self._report(0, pop, dropped=sum(c.dropped_at is not None for c in ladder + first))
        last = time.monotonic() - self.started
        for gen in range(1, b.generations + 1):
            if self._out_of_time(last, reserve=True):
                break
            t0 = time.monotonic()
            rank, crowd = nsga.ranks(self._points(pop))
            kids: list[Candidate] = []
            for _ in range(20 * b.population):
                if len(kids) >= b.population:
                    break
                i = nsga.tournament(rank, crowd, self.rng)
                if self.rng.random() < 0.5:
                    j = nsga.tournament(rank, crowd, self.rng)
                    child = self.crossover(pop[i].changes, pop[j].changes)
                    if self.rng.random() < 0.5:
                        child = self.mutate(child, pop[i])
                else:
                    child = self.mutate(dict(pop[i].changes), pop[i])
                c = self._new(child, taken)
                if c is not None:
                    kids.append(c)
            self.evaluate(kids, pop)
            merged = pop + [c for c in kids if c.tally is not None]
            keep = nsga.select(self._points(merged), b.population)
            pop = [merged[i] for i in keep]
            self._report(gen, pop, dropped=sum(c.dropped_at is not None for c in kids))
            last = time.monotonic() - t0
        if b.repair:
            self.repair(taken)
        return pop

    def _best(self, where: Callable[[Candidate], bool] | None = None) -> Candidate | None:
        """The fully measured candidate with the least imbalance (then fewest, smallest
        changes), among those ``where`` accepts; None if there is none."""
        cands = sorted(
            (c for c in self.archive.values() if not c.rejected and (where is None or where(c))),
            key=lambda c: c.changes,
        )
        return min(cands, key=self._obj, default=None)

    def _obj(self, c: Candidate) -> tuple[float, float, float]:
        return c.objectives(self.space, self.targets, self.groups)

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

    def _report(
        self,
        gen: int,
        pop: list[Candidate],
        dropped: int = 0,
        repair: int | None = None,
        moved: bool = False,
        rejected: int = 0,
        step: Mapping[str, Any] | None = None,
    ) -> None:
        """Append a generation's (or repair step's) entry to the history and tell the
        progress callback. ``step``: what a repair step worked on and kept
        (``worked_on``: [group, direction, rate before]; ``kept``: [knob, old, new]; the
        aimed imbalance before and after, on search and confirm blocks when there are)."""
        pts = self._points(pop)
        best = min(pts)
        extra = (
            {}
            if repair is None
            else {"repair": repair, "moved": moved}
            | ({"rejected": rejected} if self.confirm_blocks else {})
            | dict(step or {})
        )
        self.history.append(
            {
                **extra,
                "generation": gen,
                "generations": self.budget.generations,
                "best_imbalance": best[0],
                "best_changes": int(best[1]),
                "dropped": dropped,
                "matches_played": self.ev.played,
                "front": [
                    {"imbalance": p[0], "changes": int(p[1]), "size": p[2]} for p in sorted(pts)
                ],
            }
        )
        if self.progress is not None:
            self.progress(self.history[-1])

    def pareto(self) -> list[Candidate]:
        """The non-dominated set of every fully measured candidate."""
        cands = sorted(
            (c for c in self.archive.values() if not c.rejected), key=lambda c: c.changes
        )
        pts = self._points(cands)
        front = nsga.non_dominated_fronts(pts)[0] if cands else []
        return sorted((cands[i] for i in front), key=lambda c: (len(c.changes), c.changes))


def _shown(
    front: list[Candidate], space: SearchSpace, targets: Targets, groups: Sequence[str], n: int
) -> list[Candidate]:
    """The imbalance-vs-number-of-changes front: for each number of changes the best
    candidate, kept only if it beats every candidate with fewer changes (at most ``n``,
    spread from fewest to most changes)."""
    best: list[Candidate] = []
    for c in sorted(
        front, key=lambda c: (len(c.changes), *c.objectives(space, targets, groups)[::2])
    ):
        if not c.changes:
            continue
        imb = c.objectives(space, targets, groups)[0]
        if best and len(best[-1].changes) == len(c.changes):
            continue
        if any(imb >= b.objectives(space, targets, groups)[0] for b in best):
            continue
        best.append(c)
    if len(best) > n:
        idx = (
            sorted({round(i * (len(best) - 1) / (n - 1)) for i in range(n)})
            if n > 1
            else [len(best) - 1]
        )
        best = [best[i] for i in idx]
    return best


def _with_repaired(shown: list[Candidate], repaired: Candidate | None, n: int) -> list[Candidate]:
    """``shown`` with the repair's final candidate in it, when the repair had confirm
    blocks: it replaces the shown candidate with as many changes, else it is added (and
    if that makes more than ``n``, the shown candidates with the most changes other than
    the first go). The proposals are chosen on the search blocks, while the repair
    chose each move on the search and confirm blocks together (twice the matches). In
    one acceptance run (seed 12) the proposal shown was one general's confirmed move of
    the last step (12 changes), better on the search blocks than the combination that
    step kept (10 changes: it also took back two changes other generals no longer
    needed), which was not shown."""
    if repaired is None or not repaired.changes or repaired in shown:
        return shown
    out = [c for c in shown if len(c.changes) != len(repaired.changes)]
    out = sorted([*out, repaired], key=lambda c: (len(c.changes), c.changes))
    while len(out) > max(n, 1):
        out.remove(next(c for c in reversed(out[1:]) if c is not repaired))
    return out


def suggest(
    game: BalanceGame,
    space: SearchSpace,
    targets: Targets = Targets(),
    budget: Budget = Budget(),
    seed: int = 0,
    backend: str = "process",
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    chunk: int = 4,
) -> BalanceResult:
    """Search for proposals and re-measure them on holdout blocks (see the module doc).
    ``chunk``: matches per worker task (more amortises a worker's table parse and the
    backend's per-task cost; fewer spreads a small step over more workers)."""
    if not space.knobs:
        raise ValueError("the search space is empty (everything frozen?)")
    with open_executor(backend, workers, scheduler) as executor:
        ev = Evaluator(game, space, executor, chunk)
        search = _Search(game, space, targets, budget, seed, ev, progress)
        search.run()
        front = search.pareto()
        base_c = search.archive[()]
        # which to show is the search's choice (the aimed band); every figure shown is
        # under the stated band, so search and holdout imbalances compare
        shown = _shown(front, space, search.targets, search.groups, budget.proposals)
        if search.confirm_blocks:
            shown = _with_repaired(shown, search.repaired, budget.proposals)
        hold_rng = random.Random(f"holdout:{seed}")
        holdout = [
            game.block(hold_rng, block_seed(seed, k, holdout=True))
            for k in range(budget.holdout_blocks)
        ]
        items = [i for blk in holdout for i in blk]
        got = ev.outcomes([((), items)] + [(c.changes, items) for c in shown])
        if progress is not None:
            progress(
                {"generation": budget.generations, "holdout": True, "matches_played": ev.played}
            )
        groups = search.groups
        before = Measure.of(tally(got[0]), targets, groups)
        base_text = game.table_text()
        proposals = []
        for n, (c, outs) in enumerate(zip(shown, got[1:], strict=True), start=1):
            task = variant(game, base_text, c.changes, space)
            diff = diff_tables(base_text, task.table)
            rules = tuple(
                (space[k].field, space[k].base, v) for k, v in c.changes if space[k].is_rules
            )
            obj = c.objectives(space, targets, groups)
            proposals.append(
                Proposal(
                    n,
                    c.changes,
                    obj[0],
                    obj[2],
                    diff.text() if not diff.empty else "no card changes",
                    rules,
                    Measure.of(tally(outs), targets, groups),
                    task.table,
                )
            )
        return BalanceResult(
            targets,
            budget,
            seed,
            groups,
            space,
            before,
            base_c.objectives(space, targets, groups)[0],
            proposals,
            [(c.changes, c.objectives(space, targets, groups)) for c in front],
            ev.played,
            search.history,
            [
                {
                    "changes": c.changes,
                    "first_rate": c.tally.first_rate if c.tally is not None else math.nan,
                    "imbalance": (
                        c.tally.imbalance(targets, groups) if c.tally is not None else math.nan
                    ),
                    "dropped_at": c.dropped_at,
                    "start": c is search.start,
                }
                for c in search.ladder
            ],
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
