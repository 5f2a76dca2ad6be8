"""Events (R-TOWER-2): small choices with consequences, read from ``events.csv``.

One row per option: ``event, name, text, option, label, effects``. The first row
of an event gives its ``name`` and ``text``; later rows of the same event may
leave them empty (or repeat them). ``option`` numbers run 1, 2, 3 … in order.

Option effects (``;``-separated, applied in order by the run):

* ``gold(N)``: gain N gold (N < 0: pay; the option is offered only with enough gold);
* ``heal(N)``: heal the throne N (up to max HP, R-COMBAT-6);
* ``damage(N)``: lose N throne HP (an event never takes the last HP);
* ``max_hp(N)``: max HP +N (N < 0 lowers it, HP follows down; never below 1);
* ``relic``: gain a random relic not owned;
* ``card``: gain a random rewardable card the deck may hold (R-TOWER-4);
* ``remove_card``: remove a random card (only while the deck has more than 10);
* ``nothing``.

Every event needs at least one option that costs no gold, so a poor run can leave.
"""

from __future__ import annotations

from dataclasses import dataclass
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

COLUMNS = ("event", "name", "text", "option", "label", "effects")
EFFECTS: dict[str, bool] = {
    "gold": True,
    "heal": True,
    "damage": True,
    "max_hp": True,
    "relic": False,
    "card": False,
    "remove_card": False,
    "nothing": False,
}
DEFAULT_PATH = ROOT / "events.csv"


@dataclass(frozen=True)
class Option:
    label: str
    effects: tuple[Call, ...]

    @property
    def gold_cost(self) -> int:
        """Gold this option needs in hand (its negative gold effects)."""
        return -sum(c.value for c in self.effects if c.name == "gold" and c.value < 0)


@dataclass(frozen=True)
class TowerEvent:
    id: str
    name: str
    text: str
    options: tuple[Option, ...]
    row: int = 0


class EventDB(RowTable[TowerEvent]):
    """The events by id (:class:`~throne_lib.kit.tables.RowTable`)."""


def load_events(path: str | Path | None = None) -> EventDB:
    return load_table(path, DEFAULT_PATH, "event table", parse_events)


def parse_events(text: str, filename: str = "events.csv") -> EventDB:
    """Validate the event table; raise :class:`~.tables.TowerTableError` with every problem."""
    problems: list[str] = []
    heads: dict[str, tuple[int, str, str]] = {}
    options: dict[str, list[Option]] = {}
    for row, rec in read_rows(text, filename, COLUMNS, problems):
        err = reporter(problems, filename, row)
        eid = rec["event"]
        if not check_id(eid, "event", err):
            continue
        if eid not in heads:
            ok = True
            for col in ("name", "text"):
                if not rec[col]:
                    err(col, f"the first row of event {eid!r} needs its {col}")
                    ok = False
            if not ok:
                continue
            heads[eid] = (row, rec["name"], rec["text"])
            options[eid] = []
        else:
            first_row, name, body = heads[eid]
            for col, want in (("name", name), ("text", body)):
                if rec[col] and rec[col] != want:
                    err(col, f"differs from the first row of event {eid!r} (row {first_row})")
        number = parse_int(rec["option"], "option", err, lo=1)
        if number is not None and number != len(options[eid]) + 1:
            err("option", f"expected option {len(options[eid]) + 1} of event {eid!r}, got {number}")
            number = None
        if not rec["label"]:
            err("label", "expected the option's label, got an empty cell")
            number = None
        calls = parse_calls(rec["effects"], "effects", err, EFFECTS)
        if number is not None and calls is not None:
            options[eid].append(Option(rec["label"], calls))
    events: dict[str, TowerEvent] = {}
    for eid, (row, name, body) in heads.items():
        if not options[eid] and not problems:
            problems.append(f"{filename}:{row}:option: event {eid!r} has no option")
        elif options[eid] and all(o.gold_cost > 0 for o in options[eid]):
            problems.append(
                f"{filename}:{row}:effects: event {eid!r} needs an option that costs no gold"
            )
        events[eid] = TowerEvent(eid, name, body, tuple(options[eid]), row)
    return table_of(EventDB, events, text, filename, problems, "event table")
