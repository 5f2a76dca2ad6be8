"""The city table ``cities.csv`` -> an immutable :class:`CityTable` (CW-CITY-1, CW-CITY-8).

Columns: ``id, name, defence, capture, ai_weight``. ``defence`` and ``capture`` are
effects in the castle table's trait notation (``name`` or ``name(number)``, several
separated by commas). Every problem is collected and raised at once as one
:class:`~throne_lib.kit.tables.TableError`, one ``file:ROW:COLUMN: message`` per line
(row 1 is the header), as every card table of the kit does; the kit's
:class:`~throne_lib.kit.live.TableWatcher` reloads it live through :func:`parse_city_table`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from throne_lib.games.cities.rules import DEFAULT_CITY_TABLE
from throne_lib.kit.csvtable import Reporter, file_text, is_id, reporter, strict_rows, table_digest
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
_EFFECT = re.compile(r"^([a-z_]+)(?:\(([0-9]+)\))?$")
MAX_NUMBER = 99  # the largest effect number or ai_weight (a sanity bound, as Throne's)
# the most cities any player count puts in play (CW-SETUP-3): the smallest table accepted
MIN_CITIES = max(k for k, _ in DEFAULT_CITY_TABLE.values())

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
    text: str = field(default="", repr=False)  # the CSV text (a log header carries it)

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


def _effects(text: str, known: frozenset[str], col: str, err: Reporter) -> tuple[Effect, ...]:
    out: list[Effect] = []
    for part in (p.strip() for p in text.split(",")):
        m = _EFFECT.match(part)
        if not m:
            err(col, f"expected an effect like name or name(2), got {part[:40]!r}")
            continue
        if m.group(1) not in known:
            err(col, f"unknown effect {m.group(1)!r} (known: {', '.join(sorted(known))})")
            continue
        number = None
        if m.group(2) is not None:
            if len(m.group(2)) > 9 or not 1 <= int(m.group(2)) <= MAX_NUMBER:
                err(
                    col,
                    f"effect {m.group(1)} takes a whole number 1..{MAX_NUMBER}, got {part[:40]!r}",
                )
                continue
            number = int(m.group(2))
        out.append((m.group(1), number))
    return tuple(out)


def parse_city_table(
    text: str, filename: str = "cities.csv", path: str = "", min_cities: int = MIN_CITIES
) -> CityTable:
    """Validate CSV text and build the table; raise TableError listing every problem.

    The kit's strict reading (:func:`~throne_lib.kit.csvtable.read_rows`): rows named by
    their line, a short or long row is an error. A table of fewer than ``min_cities``
    cities (default: the most cities in play of CW-SETUP-3's table, 12) is refused — a
    file cut short is such a table — as is a number out of its bounds."""
    rows, problems = strict_rows(text, filename, COLUMNS, TableError)
    cities: list[City] = []
    seen: dict[str, int] = {}
    for row, rec in rows:
        err = reporter(problems, filename, row)
        cid, name = rec["id"], rec["name"]
        if not is_id(cid):
            err("id", f"expected a lower-case id, got {cid[:40]!r}")
        for key, col in ((cid, "id"), (name, "name")):
            if key and key in seen:
                err(col, f"city {key!r} appears twice (first on row {seen[key]}) (CW-CITY-1)")
            seen.setdefault(key, row)
        if not name:
            err("name", "expected a city name")
        defence = _effects(rec["defence"], DEFENCE_EFFECTS, "defence", err)
        capture = _effects(rec["capture"], CAPTURE_EFFECTS, "capture", err)
        raw = rec["ai_weight"]
        if not re.fullmatch(r"[0-9]{1,9}", raw) or int(raw) > MAX_NUMBER:
            err("ai_weight", f"expected a whole number 0..{MAX_NUMBER}, got {raw[:40]!r}")
            weight = 0
        else:
            weight = int(raw)
        cities.append(City(cid, name, defence, capture, weight))
    if not problems and len(cities) < min_cities:
        problems.append(
            f"{filename}:{rows[-1][0] + 1}:-: the table holds {len(cities)} cities, the rules "
            f"put up to {min_cities} in play (CW-SETUP-3): a table cut short?"
        )
    if problems:
        raise TableError(problems)
    digest = table_digest(text)
    return CityTable(tuple(cities), digest, path or filename, text)


def load_city_table(path: str | Path | None = None) -> CityTable:
    """Read and validate ``cities.csv`` (or the table at ``path``): a bad byte or a file
    cut short is a TableError at its line, never a bare UnicodeDecodeError."""
    p = Path(path) if path else DEFAULT_PATH
    return parse_city_table(file_text(p, TableError), p.name, str(p))
