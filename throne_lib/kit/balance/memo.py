"""A balance run's journal: every match outcome it plays, on disk as it is played, so a
stopped ``throne balance suggest`` goes on with ``--resume``.

The search is deterministic given its seed and the outcomes it measures, so a resumed
run replays its steps from the start and takes every (match, table variant) outcome the
journal holds instead of playing it again: it reaches the point where it stopped in
seconds and goes on from there. Without ``--time-limit`` it ends with the proposals of a
run that was never stopped; with one the clock starts again at the resume, so the
resumed run may search longer than the stopped one would have.

The file is a :class:`throne_lib.kit.journal.Journal` (``OUT.journal.jsonl``): its header
holds the fingerprint of the run's options and card table, so a journal is only taken
back into the run it was written by.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from throne_lib.kit.balance.adapter import Outcome, SeatResult
from throne_lib.kit.journal import Journal


def outcome_row(number: int, key: str, o: Outcome) -> dict[str, Any]:
    return {
        "match": number,
        "key": key,
        "seats": [[s.group, s.first, s.score] for s in o.seats],
        "length": o.length,
    }


def row_outcome(row: dict[str, Any]) -> Outcome:
    seats = tuple(SeatResult(str(g), bool(f), float(x)) for g, f, x in row["seats"])
    return Outcome(seats, float(row["length"]))


class RunMemo:
    """The journal at ``path`` of the run ``digest``, as the evaluator's memo
    (:class:`throne_lib.kit.balance.measure.OutcomeMemo`); see :class:`Journal` for
    ``resume`` (an existing journal without it is refused, never overwritten)."""

    def __init__(self, path: str | Path, digest: str, resume: bool = False) -> None:
        self.journal = Journal(path, digest, resume)
        self.known = {str(r["key"]): row_outcome(r) for r in self.journal.rows.values()}
        self.journal.open()

    def get(self, key: str) -> Outcome | None:
        return self.known.get(key)

    def put(self, key: str, outcome: Outcome) -> None:
        self.known[key] = outcome
        self.journal.add(outcome_row(len(self.journal.rows), key, outcome))

    @property
    def path(self) -> Path:
        return self.journal.path

    def close(self) -> None:
        self.journal.close()

    def remove(self) -> None:
        """Delete the journal (the run's results are saved)."""
        self.journal.remove()
