"""The card table: ``cards.csv`` -> an immutable :class:`CardDB`.

Every problem of a table is collected and raised at once as one
:class:`CardTableError`, one line per problem, ``cards.csv:ROW:COLUMN: message``
(ROW is the spreadsheet row: the header is row 1).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from throne_lib.games.throne.effects import DEFAULTS, SPECS
from throne_lib.games.throne.lang import Clause, LangError, parse_effects, parse_keywords
from throne_lib.games.throne.rules import DEFAULT_CARD_LIMITS, CardLimits
from throne_lib.kit.csvtable import (
    FirstRows,
    check_id,
    file_text,
    one_of,
    reporter,
    strict_rows,
    table_digest,
)
from throne_lib.kit.tables import CardTable, TableError

COLUMNS = (
    "id",
    "name",
    "race",
    "kind",
    "cost",
    "attack",
    "hp",
    "move",
    "range",
    "keywords",
    "effects",
    "tiers",
    "captains",
    "text",
)
RACES = ("human", "goblin", "demon", "undead", "beast", "elf", "neutral")
RACE_ZH = {
    "human": "人族",
    "goblin": "地精",
    "demon": "魔族",
    "undead": "死灵",
    "beast": "兽族",
    "elf": "精灵",
    "neutral": "中立",
}
KINDS = ("general", "barracks", "soldier", "captain", "minion", "spell", "building", "token")
KIND_ZH = {
    "general": "将领",
    "barracks": "兵营",
    "soldier": "士兵",
    "captain": "队长",
    "minion": "随从",
    "spell": "法术",
    "building": "建筑",
    "token": "衍生物",
}
UNIT_KINDS = frozenset({"general", "soldier", "captain", "minion", "building", "token"})
DECK_KINDS = frozenset({"general", "barracks", "minion", "spell"})  # R-SETUP-3
SUMMONABLE = frozenset({"soldier", "captain", "minion", "token", "building"})


@dataclass(frozen=True, slots=True)
class Card:
    """One row of the table, validated."""

    id: str
    name: str
    race: str
    kind: str
    cost: int
    attack: int
    hp: int
    move: int
    range: int
    keywords: tuple[tuple[str, int], ...] = ()
    effects: tuple[Clause, ...] = ()
    tiers: tuple[str, ...] = ()
    captains: tuple[str, ...] = ()
    text: str = ""
    row: int = field(default=0, compare=False)  # where it stands in the file
    # Lookups the engine makes tens of thousands of times per match, built once: the
    # keyword values and the clauses per trigger (derived, so not compared or shown).
    _kw: dict[str, int] = field(default_factory=dict, init=False, repr=False, compare=False)
    _clauses: dict[str, tuple[Clause, ...]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )

    def __post_init__(self) -> None:
        kw: dict[str, int] = {}
        for key, value in self.keywords:
            kw.setdefault(key, value)  # the first occurrence, as a scan would find
        by_trigger: dict[str, tuple[Clause, ...]] = {}
        for c in self.effects:
            by_trigger[c.trigger] = (*by_trigger.get(c.trigger, ()), c)
        object.__setattr__(self, "_kw", kw)
        object.__setattr__(self, "_clauses", by_trigger)

    def kw(self, name: str) -> int:
        """The value of a keyword (1 for flags), 0 when absent."""
        return self._kw.get(name, 0)

    def clauses(self, trigger: str) -> tuple[Clause, ...]:
        return self._clauses.get(trigger, ())

    @property
    def skill(self) -> Clause | None:
        found = self.clauses("skill")
        return found[0] if found else None

    @property
    def play_target(self) -> str | None:
        """The selector a play of this card asks a target for, if any."""
        clause = self.target_clause
        return clause.chosen if clause is not None else None

    @property
    def target_clause(self) -> Clause | None:
        """The play clause that asks for a target, if any."""
        for clause in self.clauses("play"):
            if clause.chosen:
                return clause
        return None

    @property
    def draw_only(self) -> bool:
        """A spell whose only effect is drawing (R-TURN-8)."""
        calls = [c for cl in self.effects for c in cl.calls]
        return self.kind == "spell" and bool(calls) and all(c.name == "draw" for c in calls)

    @property
    def is_production(self) -> bool:
        return self.kind == "barracks" and bool(self.kw("production"))


class CardTableError(TableError):
    """Every problem of a table, one ``file:row:column: message`` per line (the kit's
    :class:`~throne_lib.kit.tables.TableError`, so the live watcher and the CLI read it)."""


class CardDB(CardTable[Card]):
    """An immutable mapping ``id -> Card`` plus the table's source (the CSV text,
    embedded in match logs) and hash."""

    def by_name(self, name: str) -> Card:
        for card in self.cards.values():
            if card.name == name:
                return card
        raise KeyError(name)

    def of(self, kind: str | None = None, race: str | None = None) -> list[Card]:
        return [
            c
            for c in self.cards.values()
            if (kind is None or c.kind == kind) and (race is None or c.race == race)
        ]

    def frame(self) -> pd.DataFrame:
        """The table as it was read (all columns as text)."""
        return pd.read_csv(io.StringIO(self.source), dtype=str, keep_default_na=False)


DEFAULT_PATH = Path(__file__).resolve().parents[3] / "cards.csv"


def load_cards(path: str | Path | None = None, limits: CardLimits = DEFAULT_CARD_LIMITS) -> CardDB:
    """Read and validate a card table file (default: the repository's ``cards.csv``)."""
    p = Path(path) if path is not None else DEFAULT_PATH
    return parse_cards(file_text(p, CardTableError), p.name, str(p), limits)


def parse_cards(
    text: str,
    filename: str = "cards.csv",
    path: str = "",
    limits: CardLimits = DEFAULT_CARD_LIMITS,
) -> CardDB:
    """Validate CSV text and build the database; raise :class:`CardTableError`.
    Numbers beyond ``limits`` are problems like any other."""
    text = text.removeprefix("\ufeff")
    rows, problems = strict_rows(text, filename, COLUMNS, CardTableError)  # cells, quoting
    structural = bool(problems)
    broken: set[str] = set()  # ids of rows with problems: not "unknown" to other rows
    cards: dict[str, Card] = {}
    first = FirstRows("id", "name")
    for row, rec in rows:
        err = reporter(problems, filename, row)
        card = _row(rec, row, err, limits)
        if card is None:
            broken.add(rec["id"])
        elif first.add(card, row, err):
            cards[card.id] = card

    if not structural:  # rows left out would only add false "unknown id" problems
        _cross_check(cards, filename, problems, broken)
    if problems:
        raise CardTableError(problems)
    digest = table_digest(text)
    return CardDB(rows=dict(cards), source=text, hash=digest, path=path)


_NUMBER = re.compile(r"-?[0-9]{1,12}")


def _row(
    rec: dict[str, str],
    row: int,
    err: Callable[[str, str], None],
    limits: CardLimits = DEFAULT_CARD_LIMITS,
) -> Card | None:
    cid = rec["id"]
    ok = check_id(cid, "id", err, "shield_wall")
    name = rec["name"]
    if not name:
        err("name", "expected the card's name, got an empty cell")
        ok = False
    race, kind = rec["race"], rec["kind"]
    ok = one_of(race, "race", RACES, err) and ok
    ok = one_of(kind, "kind", KINDS, err) and ok
    is_unit = kind in UNIT_KINDS or kind == "barracks"
    numbers: dict[str, int] = {}
    for col, default, lo in (
        ("cost", 0, 0),
        ("attack", 0, 0),
        ("hp", 0, 1),
        ("move", 1, 0),
        ("range", 1, 1),
    ):
        value = rec[col]
        if value == "":
            if is_unit and col == "hp":
                err(col, "expected a whole number ≥ 1 for a unit's HP, got an empty cell")
                ok = False
            numbers[col] = default
            continue
        top = getattr(limits, col)
        try:
            # ASCII digits only (int() also takes "1_000" and other scripts' digits), and
            # not too many of them (int() of a long digit string is slow, never in range)
            if not _NUMBER.fullmatch(value):
                raise ValueError(value)
            number = int(value)
        except ValueError:
            shown = value if len(value) <= 40 else value[:39] + "…"
            err(col, f"expected a whole number, got {shown!r}")
            ok = False
            continue
        floor = lo if (is_unit or col == "cost") else 0
        if number < floor:
            err(col, f"expected a whole number ≥ {floor}, got {number}")
            ok = False
        elif number > top:
            err(col, f"expected a whole number ≤ {top} (CardLimits.{col}), got {number}")
            ok = False
        numbers[col] = number
    try:
        keywords = parse_keywords(rec["keywords"], limits.effect_number, limits.cell_chars)
    except LangError as exc:
        err("keywords", str(exc))
        keywords, ok = (), False
    try:
        effects = parse_effects(
            rec["effects"], SPECS, DEFAULTS, limits.effect_number, limits.cell_chars
        )
    except LangError as exc:
        err("effects", str(exc))
        effects, ok = (), False
    if ok and "move" in numbers and rec["move"] == "" and any(k == "cavalry" for k, _ in keywords):
        numbers["move"] = 2  # R-UNIT-1: cavalry move 2
    tiers = tuple(rec["tiers"].split())
    captains = tuple(rec["captains"].split())
    if kind == "barracks":
        if len(tiers) != 3:
            err("tiers", f"a barracks lists its 3 soldier ids (levels 1, 2, 3), got {len(tiers)}")
            ok = False
    elif tiers:
        err("tiers", f"only barracks list soldier tiers; this is a {kind}")
        ok = False
    if kind != "barracks" and captains:
        err("captains", f"only barracks have a captain pool; this is a {kind}")
        ok = False
    if kind == "spell" and not any(c.trigger == "play" for c in effects) and ok:
        err("effects", "a spell needs a 'play: ...' clause")
        ok = False
    if not ok:
        return None
    return Card(
        id=cid,
        name=name,
        race=race,
        kind=kind,
        cost=numbers["cost"],
        attack=numbers["attack"],
        hp=numbers["hp"],
        move=numbers["move"],
        range=numbers["range"],
        keywords=keywords,
        effects=effects,
        tiers=tiers,
        captains=captains,
        text=rec["text"],
        row=row,
    )


def _bad_ref(
    cards: dict[str, Card],
    broken: set[str] | frozenset[str],
    ref_id: str,
    kinds: Collection[str],
) -> bool:
    """Whether ``ref_id`` names no row of one of ``kinds``; a reference to a row that has
    problems of its own is not bad again."""
    ref = cards.get(ref_id)
    if ref is None:
        return ref_id not in broken
    return ref.kind not in kinds


def _cross_check(
    cards: dict[str, Card],
    filename: str,
    problems: list[str],
    broken: set[str] | frozenset[str] = frozenset(),
) -> None:
    """References between rows: tiers, captain pools, summoned tokens. A reference to a
    row that has problems of its own is not reported again."""
    for card in cards.values():
        row = card.row
        for i, sid in enumerate(card.tiers):
            # a deck minion may be a soldier too (狼崽, R-UNIT-5)
            if _bad_ref(cards, broken, sid, ("soldier", "minion")):
                problems.append(
                    f"{filename}:{row}:tiers: level {i + 1} soldier {sid!r} is not a soldier (or minion) id"
                )
        for cap in card.captains:
            if _bad_ref(cards, broken, cap, ("captain", "soldier")):
                problems.append(
                    f"{filename}:{row}:captains: {cap!r} is not a captain (or worker) id"
                )
        for clause in card.effects:
            for call in clause.calls:
                for ptype, arg in zip(SPECS[call.name], call.args, strict=True):
                    if ptype == "card" and _bad_ref(cards, broken, str(arg), SUMMONABLE):
                        problems.append(
                            f"{filename}:{row}:effects: {call.name}: {arg!r} is not the id of a "
                            f"summonable card ({', '.join(sorted(SUMMONABLE))})"
                        )
        if card.kind == "general" and card.skill is None:
            problems.append(
                f"{filename}:{row}:effects: a general needs a 'skill(mana=N): ...' clause"
            )
        if card.kind != "general" and card.skill is not None:
            problems.append(f"{filename}:{row}:effects: only generals have a skill clause")
