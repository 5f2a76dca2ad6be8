"""What a game provides to the balance search: the :class:`BalanceGame` protocol, the
records it passes (:class:`FieldSpec`, :class:`RulesField`, :class:`PlayTask`,
:class:`Outcome`), and :class:`CardTableAdapter`, the base of the adapters whose knobs are
the numbers of a CSV card table."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from throne_lib.kit.carddiff import Sheet
from throne_lib.kit.effectlang import Number, numbers

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
    """A rules parameter the search may move, within ``[low, high]``. ``first_sign`` +1
    when a higher value helps the first seat, -1 when it helps the others, 0 unknown.
    ``groups``: the groups a higher value helps (城堡之心's 城主 bonus HP helps the castle
    camp at every seat count); empty: the parameter is a first-seat lever (with
    ``first_sign``), or its direction is unknown. ``label``: its name for the game's
    players (Chinese; the dashboard shows it beside the field's name)."""

    base: int
    low: int
    high: int
    first_sign: int = 0
    step: int = 1
    label: str = ""
    groups: frozenset[str] = frozenset()


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
    subclass adds the groups and the matches: :meth:`play` plays each item of a task with
    the subclass's :meth:`play_match`, on the card table its :meth:`parse_table` reads and
    the rules with the task's overrides. It must stay picklable (a module-level parser
    is)."""

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

    # --- playing a task ------------------------------------------------------------------------

    def play(self, task: PlayTask) -> list[Outcome]:
        """Play the task's items on its variant, one :meth:`play_match` each, in order: the
        card table of the task's text (:meth:`parse_table`) and the game's rules (a
        dataclass) with the task's overrides."""
        cards = self.parse_table(task.table)
        rules = replace(self.rules, **dict(task.rules))
        return [self.play_match(cards, rules, item) for item in task.items]

    def parse_table(self, text: str) -> Any:
        """The game's parsed card table of ``text``. A subclass parses it through a
        module-level cache: the adapter is pickled to the workers, and every task of a
        candidate brings the same text."""
        raise NotImplementedError

    def play_match(self, cards: Any, rules: Any, item: Hashable) -> Outcome:
        """Play one match (an item of :meth:`BalanceGame.block`) with ``cards`` (what
        :meth:`parse_table` returned) under ``rules``."""
        raise NotImplementedError


class PairingAdapter(CardTableAdapter):
    """A :class:`CardTableAdapter` for a two-seat game whose groups (decks, generals)
    meet in random pairings (:func:`pairing_block`, ``block_rounds`` per block) and each
    reach a known set of cards: ``closure`` (group -> every card its matches can bring
    in, in the groups' order; the subclass sets it) says a card's groups and which cards
    a match ``(a, b, seed)`` can be influenced by."""

    closure: dict[str, frozenset[str]]
    block_rounds: int

    def groups(self) -> Sequence[str]:
        return list(self.closure)

    def card_groups(self, card_id: str) -> frozenset[str]:
        return frozenset(g for g, cards in self.closure.items() if card_id in cards)

    def block(self, rng: random.Random, seed0: int) -> list[Hashable]:
        """``block_rounds`` rounds, each a random pairing of all groups (one sits out when
        their number is odd), seats at random."""
        return pairing_block(list(self.closure), self.block_rounds, rng, seed0)

    def item_cards(self, item: Hashable) -> frozenset[str] | None:
        assert isinstance(item, tuple)
        return self.closure[item[0]] | self.closure[item[1]]


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
