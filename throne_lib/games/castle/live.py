"""城堡之心's live card table: :class:`CastleTableWatcher` watches ``cards-castle.csv``
(the kit's :class:`~throne_lib.kit.live.TableWatcher` with the castle parser).

A valid new table is the one new matches use; a broken one keeps the last valid table
in force and lists its ``cards-castle.csv:ROW:COLUMN: message`` problems. A running
match keeps the table it started with: its 140 cards are dealt into hands, deck,
equipment and soldiers (CH-DECK-1, CH-DECK-8), so a table with other counts cannot be
swapped in half-way without breaking the box.

>>> import tempfile, shutil, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = shutil.copy(DEFAULT_PATH, d / "cards-castle.csv")
>>> w = CastleTableWatcher(d / "cards-castle.csv", settle=0)
>>> len(w.db), w.errors
(55, [])
>>> _ = (d / "cards-castle.csv").write_text("id,name\\n", encoding="utf-8")
>>> w.reload(), w.errors[0].startswith("cards-castle.csv:1:")
(True, True)
"""

from __future__ import annotations

from pathlib import Path

from throne_lib.games.castle.cards import (
    DEFAULT_PATH,
    CardTableError,
    CastleCards,
    parse_castle_cards,
)
from throne_lib.kit.live import GameTableWatcher, TableUpdate, env_path

__all__ = ["DEFAULT_PATH", "ENV_PATH", "CastleTableWatcher", "TableUpdate", "castle_cards_path"]

ENV_PATH = "CASTLE_CARDS"  # overrides the table the castle dashboard watches


def castle_cards_path() -> Path:
    """The table the castle dashboard follows: ``$CASTLE_CARDS`` or cards-castle.csv."""
    return env_path(ENV_PATH, DEFAULT_PATH)


class CastleTableWatcher(GameTableWatcher):
    """The current valid ``cards-castle.csv`` (default :func:`castle_cards_path`),
    reloaded when the file changes; a broken table at start raises ``CardTableError``
    unless ``db`` gives the table to start from."""

    db: CastleCards
    error = CardTableError
    parse_table = parse_castle_cards
    table_path = castle_cards_path
