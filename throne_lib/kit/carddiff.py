"""The card table as text rows: edit it without touching untouched bytes, diff two tables.

:class:`Sheet` keeps every record of a CSV file with its original text, so an edited
table is written back with only the changed rows re-serialized (same quoting rules,
same line ending): the git diff of a save shows exactly what changed.

:func:`diff_tables` compares two tables by card id (which cards were added, removed,
and which fields of which cards changed); ``throne cards diff OLD NEW`` prints it.

>>> old = "id,name,cost\\nmilitia,民兵,1\\nknight,骑士,3\\n"
>>> new = "id,name,cost\\nmilitia,民兵,2\\nknight,骑士,3\\n"
>>> print(diff_tables(old, new).text())
1 changed, 0 added, 0 removed
~ militia (民兵): cost 1 -> 2
"""

from __future__ import annotations

import argparse
import bisect
import csv
import io
import json
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

# --- the table as text rows ---------------------------------------------------------------


def _split_records(text: str) -> list[tuple[str, str]]:
    """Split CSV text into ``(record, terminator)`` pairs; a newline inside quotes
    belongs to the record. Blank lines are records with an empty text."""
    out: list[tuple[str, str]] = []
    start = 0
    quoted = False
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == '"':
            quoted = not quoted  # an escaped "" toggles twice
        elif not quoted and ch in "\r\n":
            end = i
            if ch == "\r" and i + 1 < n and text[i + 1] == "\n":
                i += 1
            out.append((text[start:end], text[end : i + 1]))
            start = i + 1
        i += 1
    if start < n:
        out.append((text[start:], ""))
    return out


def _fields(record: str) -> list[str]:
    rows = list(csv.reader([record]))
    return rows[0] if rows else []


@dataclass
class SheetRow:
    """One data record: its values (padded to the header's width), its original text
    (``raw``, "" for a new row) and what follows it in the file (line end, blank lines)."""

    values: list[str]
    raw: str = ""
    tail: str = ""
    original: tuple[str, ...] | None = None  # the values as read, None for a new row

    @property
    def changed(self) -> bool:
        return self.original is None or tuple(self.values) != self.original


@dataclass
class Sheet:
    """A CSV table that renders back byte-identical where it was not edited."""

    header: list[str]
    rows: list[SheetRow] = field(default_factory=list)
    header_raw: str = ""
    header_tail: str = "\n"
    newline: str = "\n"
    lead: str = ""  # blank lines before the header

    @classmethod
    def parse(cls, text: str) -> Sheet:
        records = _split_records(text)
        newline = "\r\n" if "\r\n" in text else "\n"
        lead = ""
        while records and not records[0][0].strip():
            lead += records[0][0] + records[0][1]
            records.pop(0)
        if not records:
            return cls([], [], "", "", newline, lead)
        header_raw, header_tail = records[0]
        header = _fields(header_raw)
        sheet = cls(header, [], header_raw, header_tail, newline, lead)
        for raw, tail in records[1:]:
            if not raw.strip() and sheet.rows:  # a blank line: keep it after the row before
                sheet.rows[-1].tail += raw + tail
                continue
            if not raw.strip():
                sheet.header_tail += raw + tail
                continue
            values = _fields(raw)
            values += [""] * (len(header) - len(values))
            sheet.rows.append(SheetRow(values, raw, tail, tuple(values)))
        return sheet

    def _serialize(self, values: Sequence[str]) -> str:
        buf = io.StringIO()
        csv.writer(buf, lineterminator="", quoting=csv.QUOTE_MINIMAL).writerow(values)
        return buf.getvalue()

    def text(self) -> str:
        """The table's text: untouched rows as they were read, changed rows re-serialized."""
        parts = [self.lead, self.header_raw, self.header_tail or self.newline]
        last = len(self.rows) - 1
        for i, row in enumerate(self.rows):
            parts.append(row.raw if not row.changed else self._serialize(row.values))
            tail = row.tail
            if not tail and (i < last or row.original is None):
                tail = self.newline
            parts.append(tail)
        if not self.rows and not self.header_tail:
            parts[2] = ""
        return "".join(parts)

    def records(self) -> list[dict[str, str]]:
        return [dict(zip(self.header, r.values, strict=False)) for r in self.rows]

    def new_row(self, values: Sequence[str]) -> SheetRow:
        vals = [str(v) for v in values] + [""] * (len(self.header) - len(values))
        return SheetRow(vals[: len(self.header)], "", self.newline, None)


class SheetEdit:
    """What a card-table editor page keeps (Throne's card editor, PIN's designer): the
    :class:`Sheet` being edited and the text it was last loaded from or saved as."""

    sheet: Sheet
    saved_text: str

    def adopt(self, text: str) -> None:
        """Edit ``text`` from now on, as the text on disk (a load, a save, a reload)."""
        self.saved_text = text
        self.sheet = Sheet.parse(text)

    @property
    def text(self) -> str:
        """The table as it would be saved now."""
        return self.sheet.text()

    @property
    def dirty(self) -> bool:
        return self.text != self.saved_text


# --- diff ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardChange:
    """What happened to one card id between two tables."""

    id: str
    status: str  # "added", "removed" or "changed"
    name: str = ""
    fields: tuple[tuple[str, str, str], ...] = ()  # (column, old, new)

    def text(self) -> str:
        mark = {"added": "+", "removed": "-", "changed": "~"}[self.status]
        head = f"{mark} {self.id} ({self.name})" if self.name else f"{mark} {self.id}"
        if not self.fields:
            return head
        return head + ": " + "; ".join(f"{c} {_show(o)} -> {_show(n)}" for c, o, n in self.fields)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "status": self.status,
            "name": self.name,
            "fields": {c: {"old": o, "new": n} for c, o, n in self.fields},
        }


def _show(value: str) -> str:
    return repr(value) if value == "" or " " in value or "," in value else value


@dataclass(frozen=True)
class TableDiff:
    changes: tuple[CardChange, ...]
    columns_added: tuple[str, ...] = ()
    columns_removed: tuple[str, ...] = ()
    moved: tuple[str, ...] = ()  # ids whose relative order changed

    def of(self, status: str) -> list[CardChange]:
        return [c for c in self.changes if c.status == status]

    @property
    def empty(self) -> bool:
        return not (self.changes or self.columns_added or self.columns_removed or self.moved)

    def summary(self) -> str:
        n = {s: len(self.of(s)) for s in ("changed", "added", "removed")}
        return f"{n['changed']} changed, {n['added']} added, {n['removed']} removed"

    def text(self) -> str:
        lines = [self.summary()]
        lines += [f"+ column {c}" for c in self.columns_added]
        lines += [f"- column {c}" for c in self.columns_removed]
        lines += [c.text() for c in self.changes]
        if self.moved:
            lines.append("reordered: " + " ".join(self.moved))
        return "\n".join(lines)

    def to_dict(self) -> dict[str, object]:
        return {
            "summary": self.summary(),
            "columns_added": list(self.columns_added),
            "columns_removed": list(self.columns_removed),
            "changes": [c.to_dict() for c in self.changes],
            "moved": list(self.moved),
        }


def _by_id(sheet: Sheet) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for rec in sheet.records():
        cid = rec.get("id", "").strip()
        if cid and cid not in out:
            out[cid] = rec
    return out


def diff_tables(old: str | Sheet, new: str | Sheet) -> TableDiff:
    """Compare two card tables (CSV text, valid or not) by card id, field by field
    (values compared after stripping spaces, like the loader)."""
    a = old if isinstance(old, Sheet) else Sheet.parse(old)
    b = new if isinstance(new, Sheet) else Sheet.parse(new)
    ra, rb = _by_id(a), _by_id(b)
    columns = [c for c in b.header if c != "id"]
    changes: list[CardChange] = []
    for cid, rec in rb.items():
        name = rec.get("name", "")
        if cid not in ra:
            changes.append(CardChange(cid, "added", name))
            continue
        before = ra[cid]
        diffs = tuple(
            (c, before.get(c, ""), rec.get(c, ""))
            for c in columns
            if c in a.header and before.get(c, "").strip() != rec.get(c, "").strip()
        )
        if diffs:
            changes.append(CardChange(cid, "changed", name, diffs))
    changes += [
        CardChange(cid, "removed", r.get("name", "")) for cid, r in ra.items() if cid not in rb
    ]
    common_a = [c for c in ra if c in rb]
    common_b = [c for c in rb if c in ra]
    moved = tuple(_moved(common_a, common_b))
    return TableDiff(
        tuple(changes),
        tuple(c for c in b.header if c not in a.header),
        tuple(c for c in a.header if c not in b.header),
        moved,
    )


def _moved(before: list[str], after: list[str]) -> list[str]:
    """Ids not on a longest common subsequence of the two orders (the ones that moved)."""
    if before == after:
        return []
    pos = {cid: i for i, cid in enumerate(before)}
    seq = [pos[c] for c in after]
    # longest increasing subsequence, O(n log n)
    tails: list[int] = []
    tail_idx: list[int] = []
    prev = [-1] * len(seq)
    for i, v in enumerate(seq):
        k = bisect.bisect_left(tails, v)
        if k == len(tails):
            tails.append(v)
            tail_idx.append(i)
        else:
            tails[k] = v
            tail_idx[k] = i
        prev[i] = tail_idx[k - 1] if k else -1
    keep: set[int] = set()
    i = tail_idx[-1] if tail_idx else -1
    while i >= 0:
        keep.add(i)
        i = prev[i]
    return [after[i] for i in range(len(after)) if i not in keep]


# --- command line -------------------------------------------------------------------------


def read_table_text(spec: str) -> str:
    """A file path, or ``REV:PATH`` read from git (e.g. ``HEAD~1:cards.csv``)."""
    p = Path(spec)
    if p.is_file():
        return p.read_text(encoding="utf-8")
    if ":" in spec:
        try:
            out = subprocess.run(
                ["git", "show", spec], capture_output=True, check=True, timeout=30
            ).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            raise OSError(f"{spec}: not a file, and git show failed ({exc})") from None
        return out.decode("utf-8")
    raise OSError(f"{spec}: no such file")


def diff_main(argv: Sequence[str] | None = None) -> int:
    """``throne cards diff OLD NEW [--json]``: exit 0 (also when the tables differ),
    1 when a table cannot be read, 2 on bad usage."""
    parser = argparse.ArgumentParser(
        prog="throne cards diff",
        description="Which cards changed which fields between two card tables.",
    )
    parser.add_argument("old", help="old table: a file, or REV:PATH from git (HEAD:cards.csv)")
    parser.add_argument("new", help="new table: a file, or REV:PATH from git")
    parser.add_argument("--json", action="store_true", help="print the diff as JSON")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        old, new = read_table_text(args.old), read_table_text(args.new)
    except (OSError, UnicodeDecodeError) as exc:
        print(f"throne: error: {exc}", file=sys.stderr)
        return 1
    diff = diff_tables(old, new)
    if args.json:
        print(json.dumps(diff.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(diff.text())
    return 0
