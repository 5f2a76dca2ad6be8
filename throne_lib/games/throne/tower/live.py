"""The tower's live tables: ``relics.csv`` and ``events.csv`` watched like ``cards.csv``
(the kit's :class:`~throne_lib.kit.live.TableWatcher` with the tower's parsers;
``$TOWER_RELICS`` and ``$TOWER_EVENTS`` name other files, ``$THRONE_CARDS`` the cards).

The tower page follows the three (:class:`TowerTables`). A broken edit keeps the last
valid table in force and lists its ``FILE:ROW:COLUMN: message`` problems. A valid edit
is the table the next run starts on and, since a run spans many sittings and is resumed
on the files as they are (its save keeps ids, not the tables), the run under way takes it
from its next screen too, when the new tables still hold every card, relic and event the
run holds (:func:`missing_from`); otherwise the run keeps its tables and the page names
what is missing. A battle in progress keeps the card table it started with (its save
embeds it).

>>> import tempfile, shutil, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = shutil.copy(RELICS_PATH, d / "relics.csv")
>>> w = RelicTableWatcher(d / "relics.csv", settle=0)
>>> w.errors, "iron_crown" in w.db, w.reload()  # read again unchanged: nothing new
([], True, False)
>>> _ = (d / "relics.csv").write_text("id,name\\n", encoding="utf-8")
>>> w.reload(), w.errors[0].startswith("relics.csv:1:")
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from throne_lib.games.throne.cards import CardTableError
from throne_lib.games.throne.live import CardTableWatcher
from throne_lib.games.throne.tower.events import DEFAULT_PATH as EVENTS_PATH
from throne_lib.games.throne.tower.events import EventDB, parse_events
from throne_lib.games.throne.tower.relics import DEFAULT_PATH as RELICS_PATH
from throne_lib.games.throne.tower.relics import RelicDB, parse_relics
from throne_lib.games.throne.tower.run import Run, Tables
from throne_lib.kit.live import GameTableWatcher, TableWatcher, env_path

__all__ = [
    "ENV_EVENTS",
    "ENV_RELICS",
    "EventTableWatcher",
    "RelicTableWatcher",
    "TowerTables",
    "events_path",
    "missing_from",
    "relics_path",
]

ENV_RELICS = "TOWER_RELICS"  # overrides the relic table the tower page follows
ENV_EVENTS = "TOWER_EVENTS"  # overrides the event table the tower page follows


def relics_path() -> Path:
    """The relic table the tower page follows: ``$TOWER_RELICS`` or relics.csv."""
    return env_path(ENV_RELICS, RELICS_PATH)


def events_path() -> Path:
    """The event table the tower page follows: ``$TOWER_EVENTS`` or events.csv."""
    return env_path(ENV_EVENTS, EVENTS_PATH)


def _relics(text: str, filename: str, path: str = "") -> RelicDB:
    return parse_relics(text, filename)


def _events(text: str, filename: str, path: str = "") -> EventDB:
    return parse_events(text, filename)


class RelicTableWatcher(GameTableWatcher):
    """The current valid relic table (default :func:`relics_path`)."""

    db: RelicDB
    error = CardTableError  # the tower tables' TowerTableError is one
    parse_table = _relics
    table_path = relics_path


class EventTableWatcher(GameTableWatcher):
    """The current valid event table (default :func:`events_path`)."""

    db: EventDB
    error = CardTableError
    parse_table = _events
    table_path = events_path


@dataclass
class TowerTables:
    """The three tables a run reads, each followed live."""

    cards: CardTableWatcher
    relics: RelicTableWatcher
    events: EventTableWatcher

    @classmethod
    def follow_files(cls) -> TowerTables:
        """Watchers of the files the page follows (the variables above); a table broken
        at start raises its ``CardTableError`` with every problem."""
        return cls(CardTableWatcher(), RelicTableWatcher(), EventTableWatcher())

    @property
    def watchers(self) -> tuple[TableWatcher, ...]:
        return (self.cards, self.relics, self.events)

    def current(self) -> Tables:
        """The last valid version of each table: what a new run starts on."""
        return Tables(self.cards.db, self.relics.db, self.events.db)


def missing_from(run: Run, tables: Tables) -> list[str]:
    """What ``run`` holds that ``tables`` lacks (its generals, deck, card offer and shop,
    relics, event), each as ``FILE: id``; empty when the run can go on on ``tables``."""
    cards = {run.general, *run.vices, *run.deck, *run.offer, *run.shop.get("cards", {})}
    relics = {*run.relics, *run.shop.get("relics", {})}
    out = [f"cards.csv: {c}" for c in sorted(cards) if c not in tables.cards]
    out += [f"relics.csv: {r}" for r in sorted(relics) if r not in tables.relics]
    if run.event and run.event not in tables.events:
        out.append(f"events.csv: {run.event}")
    return out
