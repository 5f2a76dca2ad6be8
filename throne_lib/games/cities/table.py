"""The city table ``cities.csv`` -> an immutable :class:`CityTable` (CW-CITY-1, CW-CITY-8).

Columns: ``id, name, defence, capture, ai_weight``. ``defence`` and ``capture`` are
effects in the castle table's trait notation (``name`` or ``name(number)``, several
separated by commas). Every problem is collected and raised at once as one
:class:`~throne_lib.kit.tables.TableError`, one ``file:ROW:COLUMN: message`` per line
(row 1 is the header), as every card table of the kit does; the kit's
:class:`~throne_lib.kit.live.TableWatcher` reloads it live through :func:`parse_city_table`.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from throne_lib.kit.live import TableWatcher
from throne_lib.kit.tables import TableError

DEFAULT_PATH = Path(__file__).resolve().parents[3] / "cities.csv"
COLUMNS = ("id", "name", "defence", "capture", "ai_weight")
DEFENCE_EFFECTS = frozenset(
    {
        "draw_extra", "deploy_militia", "regain_grain", "hand_limit", "pay_kill_soldier",
        "soldier_attack_minus", "block_riposte", "first_attack_nullified",
        "hero_sword_plus", "heal_hero_start", "soldier_recoil", "heal_soldiers_start",
    }
)  # fmt: skip
CAPTURE_EFFECTS = frozenset(
    {
        "draw", "take_from_discard", "arrive_grain", "previous_discards",
        "deploy_free_soldier", "previous_soldiers_damage", "damage_any", "heal_hero",
        "heal_soldiers_full", "heal_hero_full",
    }
)  # fmt: skip
_EFFECT = re.compile(r"^([a-z_]+)(?:\((\d+)\))?$")

Effect = tuple[str, int | None]


@dataclass(frozen=True)
class City:
    id: str
    name: str
    defence: tuple[Effect, ...]
    capture: tuple[Effect, ...]
    ai_weight: int

    def capture_value(self, name: str) -> int | None:
        for n, v in self.capture:
            if n == name:
                return v
        return None


@dataclass(frozen=True)
class CityTable:
    cities: tuple[City, ...]
    hash: str = ""  # digest of the table's text (the live watcher compares it)
    source: str = ""  # the file it came from

    def __getitem__(self, key: str) -> City:
        for c in self.cities:
            if c.id == key or c.name == key:
                return c
        raise KeyError(key)

    def __iter__(self) -> Iterator[City]:
        return iter(self.cities)

    def __len__(self) -> int:
        return len(self.cities)

    def ids(self) -> list[str]:
        return [c.id for c in self.cities]


def _effects(
    text: str, known: frozenset[str], where: str, problems: list[str]
) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for part in (p.strip() for p in text.split(",")):
        m = _EFFECT.match(part)
        if not m:
            problems.append(f"{where}: expected an effect like name or name(2), got {part!r}")
            continue
        if m.group(1) not in known:
            problems.append(
                f"{where}: unknown effect {m.group(1)!r} (known: {', '.join(sorted(known))})"
            )
            continue
        out.append((m.group(1), int(m.group(2)) if m.group(2) else None))
    return tuple(out)


def parse_city_table(text: str, filename: str = "cities.csv", path: str = "") -> CityTable:
    """Validate CSV text and build the table; raise TableError listing every problem."""
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except Exception as exc:  # pandas raises several types for malformed CSV
        raise TableError([f"{filename}:1:-: not a valid CSV table ({exc})"]) from None
    problems: list[str] = []
    missing = [c for c in COLUMNS if c not in frame.columns]
    if missing:
        raise TableError([f"{filename}:1:{c}: missing column" for c in missing])
    cities: list[City] = []
    seen: set[str] = set()
    for i, rec in enumerate(frame.to_dict("records")):
        row = i + 2

        def at(col: str, row: int = row) -> str:
            return f"{filename}:{row}:{col}"

        cid, name = rec["id"].strip(), rec["name"].strip()
        if not re.fullmatch(r"[a-z][a-z0-9_]*", cid):
            problems.append(f"{at('id')}: expected a lower-case id, got {cid!r}")
        if cid in seen or name in seen:
            problems.append(f"{at('id')}: city {cid or name!r} appears twice (CW-CITY-1)")
        seen.update({cid, name})
        if not name:
            problems.append(f"{at('name')}: expected a city name")
        defence = _effects(rec["defence"], DEFENCE_EFFECTS, at("defence"), problems)
        capture = _effects(rec["capture"], CAPTURE_EFFECTS, at("capture"), problems)
        try:
            weight = int(rec["ai_weight"])
        except ValueError:
            problems.append(f"{at('ai_weight')}: expected a whole number, got {rec['ai_weight']!r}")
            weight = 0
        cities.append(City(cid, name, defence, capture, weight))
    if problems:
        raise TableError(problems)
    digest = hashlib.sha256(text.encode()).hexdigest()[:16]
    return CityTable(tuple(cities), digest, path or filename)


def load_city_table(path: str | Path | None = None) -> CityTable:
    p = Path(path) if path else DEFAULT_PATH
    return parse_city_table(p.read_text(encoding="utf-8"), p.name, str(p))


def city_table_watcher(path: str | Path | None = None, interval: float = 0.25) -> TableWatcher:
    """The kit's live watcher on ``cities.csv``: a fixed table replaces the one in
    force; a broken one keeps it and lists its FILE:ROW:COLUMN problems."""
    return TableWatcher(Path(path) if path else DEFAULT_PATH, parse_city_table, interval)
