"""PIN's live card table: :class:`PinTableWatcher` watches ``cards-pin.csv`` (the kit's
:class:`~throne_lib.kit.live.TableWatcher` with the PIN parser; ``$PIN_CARDS`` names
another file).

A valid new table is the one the next match (开始对局) uses, cards designed on the card
page included; a broken one keeps the last valid table in force and lists its
``cards-pin.csv:ROW:COLUMN: message`` problems. A running match keeps the table it
started with (its decks were checked against it: PIN-DECK-*).

>>> import tempfile, shutil, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = shutil.copy(DEFAULT_PATH, d / "cards-pin.csv")
>>> w = PinTableWatcher(d / "cards-pin.csv", settle=0)
>>> w.errors, w.db.hash == load_pin_cards(d / "cards-pin.csv").hash
([], True)
>>> _ = (d / "cards-pin.csv").write_text("id,name\\n", encoding="utf-8")
>>> w.reload(), w.errors[0].startswith("cards-pin.csv:1:")
(True, True)
"""

from __future__ import annotations

from pathlib import Path

from throne_lib.games.pin.cards import (
    DEFAULT_PATH,
    CardTableError,
    PinCardDB,
    load_pin_cards,
    parse_pin_cards,
)
from throne_lib.kit.live import GameTableWatcher, env_path

__all__ = ["DEFAULT_PATH", "ENV_PATH", "PinTableWatcher", "load_pin_cards", "pin_cards_path"]

ENV_PATH = "PIN_CARDS"  # overrides the table the PIN dashboard watches


def pin_cards_path() -> Path:
    """The table the PIN dashboard follows: ``$PIN_CARDS`` or cards-pin.csv."""
    return env_path(ENV_PATH, DEFAULT_PATH)


class PinTableWatcher(GameTableWatcher):
    """The current valid ``cards-pin.csv`` (default :func:`pin_cards_path`), reloaded
    when the file changes; a broken table at start raises ``CardTableError`` unless
    ``db`` gives the table to start from."""

    db: PinCardDB
    error = CardTableError
    parse_table = parse_pin_cards
    table_path = pin_cards_path
