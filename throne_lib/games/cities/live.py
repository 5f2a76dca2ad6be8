"""城池战's live city table: :class:`CityTableWatcher` watches ``cities.csv`` (the kit's
:class:`~throne_lib.kit.live.TableWatcher` with the city parser; ``$CITIES_TABLE`` names
another file).

A valid new table is the one the next match (新对局) uses; a broken one keeps the last
valid table in force and lists its ``cities.csv:ROW:COLUMN: message`` problems. A
running match keeps the cities it dealt (CW-SETUP-1). The 城池战 page follows the
城堡之心 cards too (:class:`~throne_lib.games.castle.live.CastleTableWatcher`).

>>> import tempfile, shutil, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = shutil.copy(DEFAULT_PATH, d / "cities.csv")
>>> w = CityTableWatcher(d / "cities.csv", settle=0)
>>> len(w.db.cities), w.errors
(12, [])
>>> _ = (d / "cities.csv").write_text("id,name\\n", encoding="utf-8")
>>> w.reload(), w.errors[0].startswith("cities.csv:1:")
(True, True)
"""

from __future__ import annotations

from pathlib import Path

from throne_lib.games.cities.table import DEFAULT_PATH, CityTable, parse_city_table
from throne_lib.kit.live import GameTableWatcher, env_path
from throne_lib.kit.tables import TableError

__all__ = ["DEFAULT_PATH", "ENV_PATH", "CityTableWatcher", "cities_table_path"]

ENV_PATH = "CITIES_TABLE"  # overrides the table the 城池战 dashboard watches


def cities_table_path() -> Path:
    """The table the 城池战 dashboard follows: ``$CITIES_TABLE`` or cities.csv."""
    return env_path(ENV_PATH, DEFAULT_PATH)


class CityTableWatcher(GameTableWatcher):
    """The current valid ``cities.csv`` (default :func:`cities_table_path`), reloaded
    when the file changes; a broken table at start raises ``TableError`` unless ``db``
    gives the table to start from."""

    db: CityTable
    error = TableError
    parse_table = parse_city_table
    table_path = cities_table_path
