"""Relics (R-TOWER-6): run-long passives, read from ``relics.csv`` beside ``cards.csv``.

Columns: ``id, name, rarity, price, effects, enemy, text``.

* ``rarity``: ``common``, ``rare`` or ``boss`` (bosses drop ``boss`` relics first);
* ``price``: the shop price in gold before discounts;
* ``effects``: ``;``-separated effects from :data:`EFFECTS`;
* ``enemy``: ``yes`` if elites and bosses may carry it (only battle effects).

Where each effect acts:

=====================  =======  ==============================================
effect                 scope    meaning
=====================  =======  ==============================================
``max_hp(N)``          run      throne max HP +N (and HP +N) when gained (R-TOWER-3)
``heal_after_battle``  run      heal N after every won battle
``shop_discount(P)``   run      shop prices −P %
``gold_bonus(P)``      run      battle gold +P %
``campfire_heal(N)``   run      a campfire rest heals N more
``card_choices(N)``    run      a card reward offers N more cards
``opening_shield``     battle   the throne starts each battle with a divine shield
``opening_armor(N)``   battle   the throne starts each battle with N armor
``extra_barracks(N)``  battle   N more free opening barracks (R-OPEN-3)
``opening_draw(N)``    battle   N more cards in the opening hand (hand limit kept)
=====================  =======  ==============================================

Run effects are read by :mod:`throne_lib.games.throne.tower.run`; battle effects are applied to a
fresh match by :func:`throne_lib.games.throne.tower.battle.apply_mods`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from throne_lib.games.throne.tower.tables import (
    ROOT,
    Call,
    check_id,
    load_table,
    parse_calls,
    parse_int,
    table_of,
)
from throne_lib.kit.csvtable import read_rows, reporter
from throne_lib.kit.tables import RowTable

COLUMNS = ("id", "name", "rarity", "price", "effects", "enemy", "text")
RARITIES = ("common", "rare", "boss")
# effect name -> takes a number
EFFECTS: dict[str, bool] = {
    "max_hp": True,
    "heal_after_battle": True,
    "shop_discount": True,
    "gold_bonus": True,
    "campfire_heal": True,
    "card_choices": True,
    "opening_shield": False,
    "opening_armor": True,
    "extra_barracks": True,
    "opening_draw": True,
}
BATTLE_EFFECTS = frozenset({"opening_shield", "opening_armor", "extra_barracks", "opening_draw"})
ENEMY_EFFECTS = frozenset({"max_hp", "opening_shield", "opening_armor", "opening_draw"})
DEFAULT_PATH = ROOT / "relics.csv"


@dataclass(frozen=True)
class Relic:
    id: str
    name: str
    rarity: str
    price: int
    effects: tuple[Call, ...]
    enemy: bool
    text: str = ""
    row: int = field(default=0, compare=False)

    def value(self, effect: str) -> int:
        """The summed number of ``effect`` (1 per flag effect), 0 if absent."""
        return sum(c.value or 1 for c in self.effects if c.name == effect)


class RelicDB(RowTable[Relic]):
    """The relics by id (:class:`~throne_lib.kit.tables.RowTable`)."""

    def of(self, rarity: str | None = None, enemy: bool | None = None) -> list[Relic]:
        return [
            r
            for r in self.rows.values()
            if (rarity is None or r.rarity == rarity) and (enemy is None or r.enemy == enemy)
        ]


def total(db: RelicDB, owned: Iterable[str], effect: str) -> int:
    """The sum of ``effect`` over the relics ``owned``."""
    return sum(db[r].value(effect) for r in owned if r in db)


def load_relics(path: str | Path | None = None) -> RelicDB:
    return load_table(path, DEFAULT_PATH, "relic table", parse_relics)


def parse_relics(text: str, filename: str = "relics.csv") -> RelicDB:
    """Validate the relic table; raise :class:`~.tables.TowerTableError` with every problem."""
    problems: list[str] = []
    relics: dict[str, Relic] = {}
    first: dict[str, int] = {}
    for row, rec in read_rows(text, filename, COLUMNS, problems):
        err = reporter(problems, filename, row)
        ok = check_id(rec["id"], "id", err)
        if not rec["name"]:
            err("name", "expected the relic's name, got an empty cell")
            ok = False
        if rec["rarity"] not in RARITIES:
            err("rarity", f"expected one of {', '.join(RARITIES)}, got {rec['rarity']!r}")
            ok = False
        price = parse_int(rec["price"], "price", err)
        effects = parse_calls(rec["effects"], "effects", err, EFFECTS)
        if rec["enemy"] not in ("yes", "no"):
            err("enemy", f"expected yes or no, got {rec['enemy']!r}")
            ok = False
        enemy = rec["enemy"] == "yes"
        if effects is not None and enemy:
            bad = sorted({c.name for c in effects if c.name not in ENEMY_EFFECTS})
            if bad:
                err("enemy", f"an enemy relic has battle effects only; not {', '.join(bad)}")
                ok = False
        if not ok or price is None or effects is None:
            continue
        if rec["id"] in first:
            err("id", f"duplicate id {rec['id']!r} (first on row {first[rec['id']]})")
            continue
        first[rec["id"]] = row
        relics[rec["id"]] = Relic(
            rec["id"], rec["name"], rec["rarity"], price, effects, enemy, rec["text"], row
        )
    return table_of(RelicDB, relics, text, filename, problems, "relic table")
