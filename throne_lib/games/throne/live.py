"""Throne & Phalanx's live card table: :class:`CardTableWatcher` watches ``cards.csv``
(the kit's :class:`~throne_lib.kit.live.TableWatcher` with Throne's parser) and
:func:`hot_swap` puts a new table into a running match.

>>> import tempfile, shutil, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = shutil.copy(DEFAULT_PATH, d / "cards.csv")
>>> w = CardTableWatcher(d / "cards.csv")
>>> len(w.db) > 100, w.errors
(True, [])
>>> _ = (d / "cards.csv").write_text("id,name\\n", encoding="utf-8")
>>> w.check()  # just changed: read it once it has stopped changing
False
>>> w.settle = 0
>>> w.check(), w.errors[0].startswith("cards.csv:1:")
(True, True)
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

from throne_lib.games.throne.actions import Event
from throne_lib.games.throne.cards import DEFAULT_PATH, CardDB, CardTableError, parse_cards
from throne_lib.games.throne.match import Match
from throne_lib.kit.live import GameTableWatcher, TableUpdate, env_path

__all__ = ["ENV_PATH", "CardTableWatcher", "TableUpdate", "cards_path", "hot_swap"]

ENV_PATH = "THRONE_CARDS"  # overrides the table the notebooks edit and watch


def cards_path() -> Path:
    """The card table the notebooks use: ``$THRONE_CARDS`` or the repository's cards.csv."""
    return env_path(ENV_PATH, DEFAULT_PATH)


class CardTableWatcher(GameTableWatcher):
    """The current valid ``cards.csv`` (default :func:`cards_path`), reloaded when the
    file changes; a broken table at start raises ``CardTableError`` unless ``db`` gives
    the table to start from."""

    db: CardDB
    error = CardTableError
    parse_table = parse_cards
    table_path = cards_path


class SwapRecorder(Protocol):
    """What :func:`hot_swap` needs of a match log writer (``kit.log.MatchRecorder``)."""

    def swap(self, db: CardDB) -> Event: ...


def hot_swap(match: Match, db: CardDB, recorder: SwapRecorder | None = None) -> Event:
    """Swap ``db`` into a running match (logged through ``recorder`` when given, so a
    replay applies it at the same point). A finished match or an unchanged table is
    left alone and gives a ``cards_swap`` event with note ``unchanged``. Raises
    ``ValueError`` when the new table lacks a card the match uses (the match keeps
    its table)."""
    st = match.state
    if match.is_over or db.hash == match.db.hash:
        return Event("cards_swap", st.round, st.turn, note="unchanged")
    if recorder is not None:
        return recorder.swap(db)
    return match.swap_cards(db)
