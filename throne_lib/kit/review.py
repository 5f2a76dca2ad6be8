"""Reviewing a match log of any game: one row per event as a pandas table (what
``throne log FILE [--csv OUT]`` prints or writes).

The kit's rows need nothing but the log: ``step`` (the action's number, 0 = setup),
``round``, ``seat`` (the seat the event concerns, -1 when none), ``action`` (its text),
``kind``, ``text`` (the event's own words, when it carries them) and ``detail`` (its
other fields as JSON). A game describes its events better by registering
:class:`ReviewHooks` (``Game.review``): its columns and, per log, a function from one
event to its row — Throne's names cards and cells (:mod:`throne_lib.games.throne.review`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from throne_lib.kit import registry
from throne_lib.kit.log import LogFile, LogRecord, read_log

Describe = Callable[[LogRecord, dict[str, Any]], dict[str, Any]]  # (record, event) -> row
BASE_FIELDS = frozenset({"kind", "round", "seat", "side", "text"})


@dataclass(frozen=True)
class ReviewHooks:
    """How a game's events become rows: ``columns`` of the frame, ``describer(log)``
    giving the per-event function (it may look at the log's header once), ``dtypes``
    applied to the frame."""

    columns: tuple[str, ...]
    describer: Callable[[LogFile], Describe]
    dtypes: Mapping[str, str] = field(default_factory=dict)


def _seat(ev: Mapping[str, Any]) -> int:
    value = ev.get("seat", ev.get("side", -1))
    return int(value) if isinstance(value, int) else -1


def generic_describer(_log: LogFile) -> Describe:
    def describe(rec: LogRecord, ev: dict[str, Any]) -> dict[str, Any]:
        rest = {k: v for k, v in ev.items() if k not in BASE_FIELDS}
        return {
            "step": rec.i,
            "round": int(ev.get("round", 0)),
            "seat": _seat(ev),
            "action": rec.action,
            "kind": str(ev.get("kind", "")),
            "text": str(ev.get("text", "")),
            "detail": json.dumps(rest, ensure_ascii=False, sort_keys=True) if rest else "",
        }

    return describe


GENERIC = ReviewHooks(
    ("step", "round", "seat", "action", "kind", "text", "detail"),
    generic_describer,
    {"step": "int64", "round": "int64", "seat": "int64", "kind": "category"},
)


def read(log: LogFile | str | Path) -> LogFile:
    return log if isinstance(log, LogFile) else read_log(log)


def hooks_for(log: LogFile) -> ReviewHooks:
    """The review hooks of the log's game (from the registry), or the kit's."""
    hooks = registry.get(log.game).hook("review")
    return hooks if isinstance(hooks, ReviewHooks) else GENERIC


def events_frame(log: LogFile | str | Path, hooks: ReviewHooks | None = None) -> pd.DataFrame:
    """One row per event of the log, described by its game's hooks (or ``hooks``)."""
    lf = read(log)
    h = hooks if hooks is not None else hooks_for(lf)
    describe = h.describer(lf)
    rows = [describe(rec, ev) for rec in lf.records for ev in rec.events]
    frame = pd.DataFrame(rows, columns=list(h.columns))
    return frame.astype(dict(h.dtypes))


def summary(frame: pd.DataFrame, name: str) -> list[str]:
    """What ``throne log FILE`` prints: the number of events and actions, then the
    count of each event kind."""
    steps = int(frame["step"].max()) if len(frame) else 0
    lines = [f"{name}: {len(frame)} events in {steps} actions"]
    for kind, n in frame["kind"].value_counts().items():
        if n:
            lines.append(f"  {kind:<14} {n}")
    return lines
