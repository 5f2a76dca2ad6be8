"""A batch's journal: every finished match's row on disk as it comes back, so a long
``throne simulate`` or ``throne ladder`` that is stopped (Ctrl-C, a closed terminal, a
killed machine) goes on from where it was with ``--resume`` instead of starting over.

The journal is a JSON-lines file beside the results file (``OUT.journal.jsonl``): a
header line with the run's fingerprint — a digest of every match spec and of the card
table's text, so rows are only ever resumed into the same run — then one row per line,
appended and flushed as each match ends. A line cut short by a kill is dropped (that
match is played again); any other damage is reported with the file and line, never
silently discarded. A match's row depends on its spec alone (seeded), so a resumed run
writes the same results as one that was never stopped; the journal is deleted once the
results file is written (atomically).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from throne_lib.kit.textfile import decode_utf8

KIND = "throne-batch-journal"
VERSION = 1


class JournalError(ValueError):
    """A journal that cannot be used as asked: ``FILE[:LINE]: problem``."""


def journal_path(out: str | Path) -> Path:
    """The journal of the results file ``out``: ``OUT.journal.jsonl`` beside it."""
    p = Path(out)
    return p.with_name(p.name + ".journal.jsonl")


def fingerprint(specs: Iterable[Any], table_text: str | None) -> str:
    """A digest of the specs (their ``repr``: seeds, setups, agents, parameters, rule
    options, labels) and of the card table's text: equal runs, equal digests."""
    h = hashlib.sha256()
    for s in specs:
        h.update(repr(s).encode())
        h.update(b"\n")
    h.update(b"table:" + (table_text or "").encode())
    return h.hexdigest()


def _plain(value: Any) -> Any:
    """JSON for what ``json`` cannot write itself: numpy scalars and arrays, tuples."""
    item = getattr(value, "item", None)
    if callable(item) and getattr(value, "shape", None) == ():
        return item()
    tolist = getattr(value, "tolist", None)
    if callable(tolist):
        return tolist()
    raise TypeError(f"a result row holds {type(value).__name__}, which JSON cannot store")


def read_journal(path: Path, digest: str | None) -> tuple[dict[int, dict[str, Any]], int, int]:
    """The rows of the journal at ``path`` by match number, the byte offset where its
    whole lines end (a last line cut short by a kill is not a row yet) and its size.
    ``digest``: the run it must be (:func:`fingerprint`); None: any run's."""
    raw = path.read_bytes()
    end = raw.rfind(b"\n") + 1
    lines = decode_utf8(raw[:end], str(path)).split("\n")[:-1]
    if not lines:
        raise JournalError(f"{path}:1: no header line; delete the file to start over")
    try:
        head = json.loads(lines[0])
    except json.JSONDecodeError as exc:
        raise JournalError(f"{path}:1: not a journal header ({exc.msg})") from None
    if not isinstance(head, dict) or head.get("kind") != KIND:
        raise JournalError(f"{path}:1: not a batch journal (no kind {KIND!r})")
    if head.get("version") != VERSION:
        raise JournalError(
            f"{path}:1: journal version {head.get('version')!r}, this kit reads {VERSION}; "
            "delete the file to start over"
        )
    if digest is not None and head.get("fingerprint") != digest:
        raise JournalError(
            f"{path}: this journal is of another run (other matches, agents, seeds, rules "
            "or card table); run its own command with --resume, or delete the file to "
            "start over"
        )
    rows: dict[int, dict[str, Any]] = {}
    for number, line in enumerate(lines[1:], start=2):
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise JournalError(f"{path}:{number}: not a result row ({exc.msg})") from None
        if not isinstance(row, dict) or not isinstance(row.get("match"), int):
            raise JournalError(f"{path}:{number}: a result row needs its 'match' number")
        rows[row["match"]] = row
    return rows, end, len(raw)


class Journal:
    """The journal at ``path`` of the run ``digest`` (:func:`fingerprint`).

    ``resume=False``: a journal already there is an error that says how to go on (its
    rows are a stopped run's work; nothing is deleted). ``resume=True``: its rows are
    read into :attr:`rows` (by match index) and new rows are appended after them; with
    no journal there, the run starts afresh. :meth:`open` before :meth:`add`."""

    def __init__(self, path: str | Path, digest: str, resume: bool = False) -> None:
        self.path = Path(path)
        self.digest = digest
        self.rows: dict[int, dict[str, Any]] = {}
        self._file: TextIO | None = None
        if self.path.exists():
            if not resume:
                n = rows_in(self.path)
                raise JournalError(
                    f"{self.path}: a stopped run's journal ({n} matches played) is here; "
                    "run the same command with --resume to go on from it, or delete the "
                    "file to start over"
                )
            self._read()

    def _read(self) -> None:
        self.rows, end, size = read_journal(self.path, self.digest)
        if end < size:  # drop the cut line now, so new rows start on a line of their own
            with self.path.open("r+b") as f:
                f.truncate(end)

    def open(self) -> Journal:
        """Start appending (writing the header of a new journal)."""
        fresh = not self.path.exists()
        if fresh:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("a", encoding="utf-8", newline="\n")
        if fresh:
            head = {"kind": KIND, "version": VERSION, "fingerprint": self.digest}
            self._file.write(json.dumps(head) + "\n")
            self._file.flush()
        return self

    def add(self, row: dict[str, Any]) -> None:
        """Append one finished match's row and hand it to the operating system."""
        if self._file is None:
            raise RuntimeError("Journal.add before Journal.open")
        self._file.write(json.dumps(row, ensure_ascii=False, default=_plain) + "\n")
        self._file.flush()
        self.rows[int(row["match"])] = row

    def close(self) -> None:
        if self._file is not None:
            self._file.flush()
            os.fsync(self._file.fileno())
            self._file.close()
            self._file = None

    def remove(self) -> None:
        """Delete the journal (its rows are in the results file now)."""
        self.close()
        self.path.unlink(missing_ok=True)

    def todo(self, specs: Sequence[Any]) -> list[Any]:
        """The specs whose match has no row yet."""
        return [s for s in specs if s.index not in self.rows]


def is_journal(path: str | Path) -> bool:
    """Whether ``path`` starts like a batch journal (its header line)."""
    try:
        with Path(path).open("rb") as f:
            head = f.readline(4096)
    except OSError:
        return False
    return head.startswith(b"{") and KIND.encode() in head


def journal_rows(path: str | Path) -> list[dict[str, Any]]:
    """The rows a journal holds so far, in match order — a running or stopped run's
    figures to look at (``throne report OUT.journal.jsonl``); any run's (nothing is
    resumed), the file left as it is."""
    rows, _end, _size = read_journal(Path(path), None)
    return [rows[m] for m in sorted(rows)]


def stopped_message(path: str | Path, prog: str) -> str:
    """What a command says when it is interrupted: where its rows are, how to go on."""
    p = Path(path)
    n = rows_in(p) if p.exists() else 0
    return (
        f"{prog}: stopped; {n} finished matches are kept in {p}: run the same command "
        "with --resume to play only the others"
    )


def rows_in(path: Path) -> int:
    """How many whole row lines the journal at ``path`` holds (its header not counted)."""
    with path.open("rb") as f:
        return max(0, sum(1 for line in f if line.endswith(b"\n")) - 1)
