"""The PIN card table ``cards-pin.csv`` -> an immutable :class:`PinCardDB` (PIN-CARD-*).

Every problem is collected and raised at once as one
:class:`~throne_lib.kit.tables.TableError`, one ``file:row:column: message`` per line
(ROW is the spreadsheet row: the header is row 1).
"""

from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from throne_lib.games.pin.rules import (
    AIR_TYPES,
    DAMAGE_TYPES,
    PIN_RULES,
    RARITIES,
    SIZES,
    TYPES,
    WHOLE_BOARD,
    Rules,
)
from throne_lib.games.pin.words import (
    DEFENCE,
    KEYWORDS,
    Clause,
    LangError,
    parse_effects,
    parse_keywords,
)
from throne_lib.kit.csvtable import (
    FirstRows,
    check_id,
    file_text,
    reporter,
    strict_rows,
    table_digest,
)
from throne_lib.kit.tables import CardTable
from throne_lib.kit.tables import TableError as CardTableError

COLUMNS = (
    "id",
    "name",
    "nation",
    "kind",
    "rarity",
    "types",
    "size",
    "cost",
    "action_cost",
    "attack",
    "hp",
    "range",
    "actions",
    "damage",
    "keywords",
    "effects",
)
KINDS = ("单位", "指令", "反制", "总部")  # PIN-CARD-1
UNIT, COMMAND, COUNTER, HQ = KINDS
DEFAULT_PATH = Path(__file__).resolve().parents[3] / "cards-pin.csv"


@dataclass(frozen=True, slots=True)
class PinCard:
    """One validated row."""

    id: str
    name: str
    nation: str
    kind: str
    rarity: str = ""  # "" for an HQ (PIN-DECK-4 Reading)
    types: tuple[str, ...] = ()
    size: str = ""
    cost: int = 0
    action_cost: int = 0
    attack: int = 0
    hp: int = 0
    range: int = 1
    actions: int = 0
    damage: tuple[str, ...] = ("普通",)
    keywords: tuple[tuple[str, int], ...] = ()
    effects: tuple[Clause, ...] = ()
    row: int = field(default=0, compare=False)

    def kw(self, name: str) -> int:
        for key, value in self.keywords:
            if key == name:
                return value
        return 0

    def clauses(self, trigger: str) -> tuple[Clause, ...]:
        return tuple(c for c in self.effects if c.trigger == trigger)

    @property
    def is_air(self) -> bool:
        return any(t in AIR_TYPES for t in self.types)

    @property
    def derived(self) -> bool:
        return self.rarity == "衍生"

    @property
    def counter(self) -> Clause | None:
        found = self.clauses("counter")
        return found[0] if found else None

    def zh(self) -> str:
        """The card's Chinese text: keywords then effects (generated, one source)."""
        parts = []
        for key, value in self.keywords:
            takes_n, word = KEYWORDS[key]
            parts.append(f"{word} {value}" if takes_n else word)
        parts += [c.zh() for c in self.effects]
        return "；".join(parts)


class PinCardDB(CardTable[PinCard]):
    """``id -> PinCard`` plus the table's source text and hash."""

    @functools.cached_property
    def keywords(self) -> dict[str, dict[str, int]]:
        """card id -> its keywords as a dict (a fast lookup for the engine)."""
        return {cid: {k: v for k, v in c.keywords if v} for cid, c in self.cards.items()}

    def text(self, card_id: str) -> str:
        """A card's Chinese text with generated cards named (生成1张侦察无人机)."""
        out = self.cards[card_id].zh()
        for cid, card in self.cards.items():
            out = out.replace("{" + cid + "}", card.name)
        return out

    def nations(self) -> list[str]:
        return sorted({c.nation for c in self.cards.values()})

    def frame(self) -> pd.DataFrame:
        return pd.read_csv(io.StringIO(self.source), dtype=str, keep_default_na=False)


def load_pin_cards(path: str | Path | None = None, rules: Rules = PIN_RULES) -> PinCardDB:
    p = Path(path) if path is not None else DEFAULT_PATH
    return parse_pin_cards(file_text(p, CardTableError), p.name, str(p), rules)


def parse_pin_cards(
    text: str, filename: str = "cards-pin.csv", path: str = "", rules: Rules = PIN_RULES
) -> PinCardDB:
    rows, problems = strict_rows(text, filename, COLUMNS, CardTableError)
    cards: dict[str, PinCard] = {}
    first = FirstRows("id", "name")
    for row, rec in rows:
        errs: list[tuple[str, str]] = []
        card = _row(rec, row, errs, rules)
        err = reporter(problems, filename, row)
        for col, msg in errs:
            err(col, msg)
        if card is not None and first.add(card, row, err):
            cards[card.id] = card
    for card in cards.values():
        for clause in card.effects:
            for call in clause.calls:
                if call.name == "spawn":
                    ref = cards.get(str(call.args[0]))
                    if ref is None or not ref.derived:
                        problems.append(
                            f"{filename}:{card.row}:effects: spawn: {call.args[0]!r} is not the id of a 衍生 card"
                        )
    if problems:
        raise CardTableError(problems)
    digest = table_digest(text)
    return PinCardDB(rows=cards, source=text, hash=digest, path=path)


def _int(rec: dict[str, str], col: str, errs: list[tuple[str, str]], default: int = 0) -> int:
    value = rec[col]
    if value == "":
        return default
    try:
        number = int(value)
    except ValueError:
        errs.append((col, f"expected a whole number, got {value!r}"))
        return default
    top = 24 if col in ("cost", "action_cost") else 10_000  # PIN-CARD-1: costs 0-24
    if not 0 <= number <= top:
        errs.append((col, f"expected a whole number 0–{top}, got {number}"))
    return number


def _row(
    rec: dict[str, str], row: int, errs: list[tuple[str, str]], rules: Rules
) -> PinCard | None:
    n_before = len(errs)
    cid, name, kind = rec["id"], rec["name"], rec["kind"]
    check_id(cid, "id", lambda col, msg: errs.append((col, msg)), "anv_tanks")
    if not name:
        errs.append(("name", "expected the card's name, got an empty cell"))
    if not rec["nation"]:
        errs.append(("nation", "expected the card's nation (PIN-DECK-2), got an empty cell"))
    if kind not in KINDS:
        errs.append(("kind", f"expected one of {', '.join(KINDS)}, got {kind!r}"))
    rarity = rec["rarity"]
    if kind == HQ:
        if rarity:
            errs.append(("rarity", f"an HQ card carries no rarity (PIN-DECK-4), got {rarity!r}"))
    elif rarity not in RARITIES:
        errs.append(("rarity", f"expected one of {', '.join(RARITIES)}, got {rarity!r}"))
    try:
        keywords = parse_keywords(rec["keywords"])
    except LangError as exc:
        errs.append(("keywords", str(exc)))
        keywords = ()
    try:
        effects = parse_effects(rec["effects"])
    except LangError as exc:
        errs.append(("effects", str(exc)))
        effects = ()
    cost = _int(rec, "cost", errs)
    types: tuple[str, ...] = ()
    size, rng, actions, action_cost, attack, hp = "", 1, 0, 0, 0, 0
    damage: tuple[str, ...] = ("普通",)
    if kind == UNIT:
        types = tuple(t for t in rec["types"].split("/") if t)
        bad = [t for t in types if t not in TYPES]
        if not types or bad:
            errs.append(
                (
                    "types",
                    f"expected one or more of {'/'.join(TYPES)} joined by '/', got {rec['types']!r}",
                )
            )
        elif rules.mixed_ground_air_refused and 0 < sum(t in AIR_TYPES for t in types) < len(types):
            errs.append(
                ("types", f"a unit is all ground or all air (PIN-CARD-3), got {rec['types']!r}")
            )
        size = rec["size"]
        if size not in SIZES:
            errs.append(("size", f"expected one of {', '.join(SIZES)}, got {size!r}"))
        action_cost = _int(rec, "action_cost", errs)
        attack = _int(rec, "attack", errs)
        hp = _int(rec, "hp", errs)
        if hp < 1 and not any(c == "hp" for c, _ in errs):
            errs.append(("hp", f"expected a unit's HP ≥ 1, got {rec['hp']!r}"))
        ranges = dict(rules.type_range)
        acts = dict(rules.type_actions)
        known = [t for t in types if t in TYPES]
        if rec["range"] == "全":
            rng = WHOLE_BOARD
        else:
            rng = _int(rec, "range", errs, max((ranges[t] for t in known), default=1))
        actions = _int(rec, "actions", errs, max((acts[t] for t in known), default=1))
        damage = tuple(d for d in rec["damage"].split("/") if d) or ("普通",)
        bad = [d for d in damage if d not in DAMAGE_TYPES]
        if bad:
            errs.append(
                (
                    "damage",
                    f"expected damage types among {'/'.join(DAMAGE_TYPES)}, got {rec['damage']!r}",
                )
            )
        if any(k == "missile" for k, _ in keywords) and "导弹" not in damage:
            damage = (*damage, "导弹")  # PIN-KW-9
    else:
        for col in ("types", "size", "action_cost", "attack", "range", "actions", "damage"):
            if rec[col]:
                errs.append((col, f"only unit cards have a {col}; this is a {kind}"))
        if kind == HQ:
            hp = _int(rec, "hp", errs, rules.hq_hp)
            if rec["cost"]:
                errs.append(("cost", "an HQ card has no cost (PIN-CARD-1)"))
        elif rec["hp"]:
            errs.append(("hp", f"only units and HQs have HP; this is a {kind}"))
    allowed = {
        UNIT: {"deploy", "special", "turn_start", "turn_end", "retreat"},
        COMMAND: {"play"},
        COUNTER: {"counter"},
        HQ: {"turn_start", "turn_end"},
    }.get(kind, set())
    for clause in effects:
        if clause.trigger not in allowed:
            errs.append(
                (
                    "effects",
                    f"a {kind} card cannot have a {clause.trigger}: clause (allowed: {', '.join(sorted(allowed))})",
                )
            )
    if kind == COMMAND and not effects:
        errs.append(("effects", "a command needs a 'play: ...' clause"))
    if kind == COUNTER and len(effects) != 1:
        errs.append(("effects", "a counter card needs exactly one 'counter(TRIGGER): ...' clause"))
    if kind in (COMMAND, COUNTER) and keywords:
        errs.append(("keywords", f"a {kind} card has no keywords"))
    if kind == HQ and any(k not in DEFENCE for k, _ in keywords):
        errs.append(("keywords", f"an HQ card takes only defence keywords: {', '.join(DEFENCE)}"))
    if len(errs) > n_before:
        return None
    return PinCard(
        id=cid,
        name=name,
        nation=rec["nation"],
        kind=kind,
        rarity=rarity,
        types=types,
        size=size,
        cost=cost,
        action_cost=action_cost,
        attack=attack,
        hp=hp,
        range=rng,
        actions=actions,
        damage=damage,
        keywords=keywords,
        effects=effects,
        row=row,
    )
