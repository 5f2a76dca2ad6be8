"""The 城堡之心 card table: ``cards-castle.csv`` -> an immutable :class:`CastleCards`.

Validation works like Throne's ``cards.csv``: every problem is collected and raised at
once as one :class:`CardTableError`, one ``file:ROW:COLUMN: message`` per line (ROW is
the spreadsheet row: the header is row 1).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass
from pathlib import Path

from throne_lib.kit.csvtable import (
    FirstRows,
    Reporter,
    check_id,
    file_text,
    one_of,
    reporter,
    strict_rows,
    table_digest,
)
from throne_lib.kit.tables import CardTable
from throne_lib.kit.tables import TableError as CardTableError

COLUMNS = ("id", "name", "title", "kind", "hp", "value", "range", "traits", "count", "text")
KINDS = (
    "hero",
    "special_soldier",
    "soldier",
    "basic",
    "equipment:armour",
    "equipment:treasure",
    "equipment:mount",
    "equipment:weapon:sword",
    "equipment:weapon:axe",
    "equipment:weapon:bow",
    "equipment:weapon:dagger",
    "magic",
    "token:soldier",
    "token:basic",
)
KIND_ZH = {
    "hero": "英雄",
    "special_soldier": "特殊士兵",
    "soldier": "普通士兵",
    "basic": "基础卡",
    "equipment": "装备",
    "magic": "魔法",
    "token": "衍生物",
}
# trait keyword -> takes a number?  (the small language of the traits column)
TRAITS: dict[str, bool] = {
    "fireball": True, "mo_as_yu": False, "mana_pool": False, "alchemy": True,
    "unlimited_leadership": False, "spy": False, "snipe": True, "aim": True,
    "bear_roar": True, "axe_mastery": True, "resist_death": False, "embrace_death": False,
    "self_destruct": True, "leap": True, "fire_arrow": True, "dark_banner": True,
    "death_throes": False, "sword_mastery": True, "deadly_strike": True,
    "anti_charge": False, "ranged": False, "curse": False, "thick_hide": False,
    "bite_heal": True, "frenzy": True, "cowardly": True, "berserk": False,
    "obedient": False, "rally": False, "charge": True, "stealth": False,
    "attack": False, "block": False, "pay": False, "heal": True,
    "negate_melee": True, "negate_first_ranged": False, "lightning_bolt": True,
    "magic": False, "kill_follow_up": False, "discard_or_extra": True, "missiles": True,
    "force_hit": False, "re_attack": False, "pay_any_two": False, "poison": True,
    "attack_mount": True, "defence_mount": True, "heal_all_heroes": True,
    "group_damage": True, "split": False, "draw": True, "ignore_distance": False,
    "mirror": True, "destroy_card": False, "freeze": False, "return_spent_mana": False,
    "ice_storm": True, "counter": False, "removed_on_leave": False,
}  # fmt: skip
BOX_SIZE = 140
# Cards the rules name (the engine looks them up by id): a table without one is refused
# at load, not half-way through a match (``KeyError: 'conjured_mana'``).
REQUIRED: dict[str, tuple[str, str]] = {  # id -> (kind, the rule that needs it)
    "sword": ("basic", "CH-CARD-2"),
    "heal": ("basic", "CH-CARD-3"),
    "mana": ("basic", "CH-CARD-4"),
    "conjured_mana": ("token:basic", "CH-PREP-5"),
    "alchemy_spearman": ("token:soldier", "CH-SOLDIER-17"),
    "alchemy_archer": ("token:soldier", "CH-SOLDIER-17"),
    "alchemy_crusader": ("token:soldier", "CH-SOLDIER-17"),
}
# Sane bounds of the numbers (as Throne's CardLimits): not design values, but a hp of
# 10^400 or a draw(-5) is a typo the engine would act on.
MAX_HP = 99
MAX_VALUE = 99
MAX_RANGE = 20
MAX_TRAIT = 99
PROBABILITY_TRAITS = frozenset({"cowardly", "mirror", "negate_melee"})  # a chance, 0..1
SIGNED_TRAITS = frozenset({"attack_mount", "defence_mount"})  # a bonus that may be < 0
_TRAIT = re.compile(r"^([a-z_]+)(?:\((-?[0-9]+(?:\.[0-9]+)?)\))?$")
_DIGITS = re.compile(r"^[0-9]{1,9}$")

UNIT_KINDS = ("hero", "special_soldier", "soldier", "token:soldier")


@dataclass(frozen=True)
class CastleCard:
    id: str
    name: str
    title: str
    kind: str
    hp: int
    value: int
    range: float  # math.inf = unlimited
    traits: tuple[tuple[str, float], ...]
    count: int
    text: str

    @functools.cached_property
    def _traits(self) -> dict[str, float]:
        return dict(self.traits)

    def has(self, trait: str) -> bool:
        return trait in self._traits

    def num(self, trait: str, default: float = 0) -> float:
        return self._traits.get(trait, default)

    @property
    def family(self) -> str:
        """``equipment:weapon:sword`` -> ``equipment``."""
        return self.kind.split(":", 1)[0]

    @property
    def slot(self) -> str:
        """An equipment card's slot (weapon, armour, mount, treasure); '' otherwise."""
        parts = self.kind.split(":")
        return parts[1] if parts[0] == "equipment" else ""

    @property
    def weapon_type(self) -> str:
        parts = self.kind.split(":")
        return parts[2] if len(parts) == 3 else ""

    @property
    def is_soldier(self) -> bool:
        return self.kind in ("special_soldier", "soldier", "token:soldier")


class CastleCards(CardTable[CastleCard]):
    """``id -> CastleCard`` plus the table's source text and hash."""

    def of(self, *kinds: str) -> list[CastleCard]:
        return [c for c in self.cards.values() if c.kind in kinds or c.family in kinds]

    def box(self) -> list[str]:
        """Every box card id, as many times as its count (CH-DECK-1)."""
        return [c.id for c in self.cards.values() for _ in range(c.count)]


DEFAULT_PATH = Path(__file__).resolve().parents[3] / "cards-castle.csv"


def load_castle_cards(path: str | Path | None = None) -> CastleCards:
    """Read and validate ``cards-castle.csv`` (or the table at ``path``)."""
    p = Path(path) if path is not None else DEFAULT_PATH
    return parse_castle_cards(file_text(p, CardTableError), p.name, str(p))


def parse_castle_cards(
    text: str, filename: str = "cards-castle.csv", path: str = ""
) -> CastleCards:
    """Validate CSV text and build the table; raise :class:`CardTableError`."""
    rows, problems = strict_rows(text, filename, COLUMNS, CardTableError)
    cards: dict[str, CastleCard] = {}
    first = FirstRows("id")
    for row, rec in rows:
        err = reporter(problems, filename, row)
        card = _row(rec, err)
        if card is not None and first.add(card, row, err):
            cards[card.id] = card
    total = sum(c.count for c in cards.values())
    if not problems:
        end = rows[-1][0] + 1  # a missing card would be a row after the last one
        for cid, (kind, rule) in REQUIRED.items():
            if cid not in cards:
                problems.append(
                    f"{filename}:{end}:id: missing card {cid!r} ({kind}): {rule} needs it "
                    "(a table cut short?)"
                )
            elif cards[cid].kind != kind:
                problems.append(
                    f"{filename}:{first.row(cid)}:kind: card {cid!r} must be a {kind} ({rule}), "
                    f"got {cards[cid].kind!r}"
                )
    if not problems and total != BOX_SIZE:
        problems.append(
            f"{filename}:{rows[-1][0]}:count: the box must hold {BOX_SIZE} cards "
            f"(CH-DECK-1), the counts add up to {total}"
        )
    if problems:
        raise CardTableError(problems)
    digest = table_digest(text)
    return CastleCards(rows=cards, source=text, hash=digest, path=path)


def _int(
    rec: dict[str, str], col: str, err: Reporter, *, allow_blank: bool, most: int
) -> int | None:
    raw = rec[col]
    if raw in ("", "–", "-") and allow_blank:
        return 0
    if not _DIGITS.match(raw) or int(raw) > most:
        shown = raw if len(raw) <= 20 else raw[:20] + "…"
        err(col, f"expected a whole number 0..{most}, got {shown!r}")
        return None
    return int(raw)


def _trait_number(name: str, arg: str) -> tuple[float | None, str]:
    """The number of trait ``name(arg)`` within its bounds, or None and the bounds."""
    if name in PROBABILITY_TRAITS:
        v = float(arg)
        return (v if 0 <= v <= 1 else None), "a chance 0..1"
    lo = -MAX_TRAIT if name in SIGNED_TRAITS else 0
    bounds = f"a whole number {lo}..{MAX_TRAIT}"
    if "." in arg or len(arg) > 9 or not lo <= int(arg) <= MAX_TRAIT:
        return None, bounds
    return float(int(arg)), bounds


def _row(rec: dict[str, str], err: Reporter) -> CastleCard | None:
    e = err
    ok = check_id(rec["id"], "id", e, "knight_armor")
    if not rec["name"]:
        e("name", "expected the card's Chinese name, got an empty cell")
        ok = False
    kind = rec["kind"]
    ok = one_of(kind, "kind", KINDS, e) and ok
    is_unit = kind in UNIT_KINDS
    hp = _int(rec, "hp", err, allow_blank=not is_unit, most=MAX_HP)
    if is_unit and hp is not None and hp < 1:
        e("hp", f"a {kind} needs HP ≥ 1, got {hp}")
        hp = None
    value = _int(rec, "value", err, allow_blank=True, most=MAX_VALUE)
    count = _int(rec, "count", err, allow_blank=False, most=BOX_SIZE)
    if count is not None and kind.startswith("token") and count != 0:
        e("count", f"tokens are not in the box: expected 0, got {count}")
        count = None
    rng_raw = rec["range"]
    rng: float | None
    if rng_raw == "∞":
        rng = math.inf
    elif rng_raw in ("", "–", "-"):
        rng = 0.0
    elif _DIGITS.match(rng_raw) and 1 <= int(rng_raw) <= MAX_RANGE:
        rng = float(rng_raw)
    else:
        e("range", f"expected a whole number 1..{MAX_RANGE}, ∞ or blank, got {rng_raw[:20]!r}")
        rng = None
    traits: list[tuple[str, float]] = []
    for part in [t.strip() for t in rec["traits"].split(",") if t.strip()]:
        m = _TRAIT.match(part)
        if not m or m.group(1) not in TRAITS:
            known = ", ".join(sorted(TRAITS))
            e("traits", f"unknown trait {part!r}; known: {known}")
            ok = False
            continue
        name, arg = m.group(1), m.group(2)
        if TRAITS[name] != (arg is not None):
            hint = f"{name}(N)" if TRAITS[name] else name
            e("traits", f"trait {name} is written {hint}, got {part!r}")
            ok = False
            continue
        number = 1.0
        if arg is not None:
            got, bounds = _trait_number(name, arg)
            if got is None:
                e("traits", f"trait {name} takes {bounds}, got {part[:40]!r}")
                ok = False
                continue
            number = got
        traits.append((name, number))
    if None in (hp, value, count, rng) or not ok:
        return None
    assert hp is not None and value is not None and count is not None and rng is not None
    return CastleCard(
        id=rec["id"], name=rec["name"], title=rec["title"], kind=kind, hp=hp, value=value,
        range=rng, traits=tuple(traits), count=count, text=rec["text"],
    )  # fmt: skip
