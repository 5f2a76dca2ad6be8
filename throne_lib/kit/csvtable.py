"""Reading the CSV tables of any game (card tables, relics, events …) strictly, with rows
named as the designer sees them.

- A row is named by the line of the file it starts on (the header is line 1), so a blank
  line or a cell that spans lines does not shift the numbers after it.
- Every row has exactly the header's number of cells: a short row is an error, not padded
  (a file cut mid-way, a lost comma), and so is a long one.
- A table without rows is an error; so is a file that is not UTF-8 (reported at the line
  and column of the bad byte) or a quote that never closes.
- A table *file* ends with a line break (every spreadsheet and editor writes one): a
  last row without one is a file cut short — still being written, or truncated — whose
  last cell may be a valid prefix (``10`` cut to ``1``, a text cut mid-word), so it is
  refused rather than adopted (:func:`table_file_text`).

Problems are collected as ``FILE:ROW:COLUMN: message`` lines (``-`` when no column
applies), the format every table error of the kit uses.
"""

from __future__ import annotations

import csv
import hashlib
import io
import re
from collections.abc import Callable, Collection
from pathlib import Path
from typing import Any

from throne_lib.kit.textfile import TextFileError, decode_utf8

MAX_CELL = 100_000  # characters in one cell (csv's own field limit is 131072)

Reporter = Callable[[str, str], None]  # (column, message) -> a problem of one row
Refuse = Callable[[list[str]], Exception]  # problems -> the game's table error
Rows = list[tuple[int, dict[str, str]]]
# a row id of every game's tables: a lower-case ASCII letter, then letters, digits and _
_ID = re.compile(r"[a-z][a-z0-9_]*")


def reporter(problems: list[str], filename: str, row: int) -> Reporter:
    """A function adding ``FILE:ROW:COLUMN: message`` problems of one row to ``problems``."""

    def err(col: str, msg: str) -> None:
        problems.append(f"{filename}:{row}:{col}: {msg}")

    return err


class FirstRows:
    """The rows of a table that keys (``id``, ``name`` …) must be unique in: a row whose
    key repeats an earlier row's is a problem naming that row, and is left out."""

    def __init__(self, *columns: str) -> None:
        self.first: dict[str, dict[Any, int]] = {c: {} for c in columns}

    def add(self, record: Any, row: int, err: Reporter) -> bool:
        """Whether ``record`` (its attributes named by the columns) repeats no earlier
        row's key; it is recorded then, else the first repeated column is reported."""
        for col, seen in self.first.items():
            key = getattr(record, col)
            if key in seen:
                err(col, f"duplicate {col} {key!r} (first on row {seen[key]})")
                return False
        for col, seen in self.first.items():
            seen[getattr(record, col)] = row
        return True

    def row(self, key: Any, column: str = "id") -> int:
        """The row that holds ``key`` in ``column``."""
        return self.first[column][key]


def table_file_text(data: bytes, filename: str) -> tuple[str | None, list[str]]:
    """The text of a table file's bytes, or None and its problems: a bad byte (at its
    line and column), or a last line without its line break (a file cut short)."""
    try:
        text = decode_utf8(data, filename)
    except TextFileError as exc:
        return None, [f"{exc.source}:{exc.line}:-: column {exc.column}: {exc.problem}"]
    if text and not text.endswith("\n"):
        line = text.count("\n") + 1
        return None, [
            f"{filename}:{line}:-: the file does not end with a line break: cut short "
            "(still being written, or truncated)? End the last row with a line break"
        ]
    return text, []


def read_table_text(path: Path, problems: list[str]) -> str | None:
    """The text of a table file; a bad byte or a cut end is a problem (None comes back)."""
    text, found = table_file_text(path.read_bytes(), path.name)
    problems.extend(found)
    return text


def table_digest(text: str) -> str:
    """The ``hash`` of a parsed table: the first 16 hex digits of its text's SHA-256 (every
    game's parser; a log header or a match compares tables by it)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


_FILE_DIGESTS: dict[Path, tuple[tuple[int, int, int], str | None]] = {}


def file_digest(path: Path) -> str | None:
    """:func:`table_digest` of the table file at ``path`` as it reads now (None: missing,
    unreadable, not UTF-8 or cut short), read again only when its ``(mtime_ns, size,
    inode)`` changed: "is this the repository's table?" at every new match costs a stat."""
    try:
        st = path.stat()
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    known = _FILE_DIGESTS.get(path)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        text, _problems = table_file_text(path.read_bytes(), path.name)
    except OSError:
        return None
    digest = table_digest(text) if text is not None else None
    _FILE_DIGESTS[path] = (stamp, digest)
    return digest


def file_text(path: Path, error: Refuse) -> str:
    """The text of a table file (:func:`read_table_text`); ``error(problems)`` is raised
    for a bad byte or a cut end."""
    problems: list[str] = []
    text = read_table_text(path, problems)
    if text is None:
        raise error(problems)
    return text


def strict_rows(
    text: str, filename: str, columns: tuple[str, ...], error: Refuse
) -> tuple[Rows, list[str]]:
    """:func:`read_rows` and its problems, the list a parser adds its own to;
    ``error(problems)`` is raised when no row could be read."""
    problems: list[str] = []
    rows = read_rows(text, filename, columns, problems)
    if not rows:
        raise error(problems)
    return rows, problems


def one_of(value: str, col: str, choices: Collection[str], err: Reporter) -> bool:
    """Whether ``value`` is one of ``choices``; otherwise a problem of column ``col``
    that lists them."""
    if value in choices:
        return True
    err(col, f"expected one of {', '.join(choices)}, got {value!r}")
    return False


def is_id(value: str) -> bool:
    """Whether ``value`` is a row id: ``shield_wall``, ``anv_tanks``, ``iron_crown`` …"""
    return _ID.fullmatch(value) is not None


def check_id(value: str, col: str, err: Reporter, example: str) -> bool:
    """Whether ``value`` is a row id (:func:`is_id`); otherwise a problem of column
    ``col`` that shows the game's ``example`` of one."""
    if is_id(value):
        return True
    err(col, f"expected an ASCII id like {example} (a-z, 0-9, _), got {value!r}")
    return False


def read_rows(
    text: str, filename: str, columns: tuple[str, ...], problems: list[str]
) -> list[tuple[int, dict[str, str]]]:
    """The rows of CSV ``text`` as ``(row, {column: stripped text})`` where ``row`` is the
    line the row starts on. Structural problems (cells, header, quoting, no rows) go to
    ``problems``; rows with the wrong number of cells are left out of the result, and no
    rows come back when the header is wrong."""
    text = text.removeprefix("\ufeff")
    records: list[tuple[int, list[str]]] = []
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    start = 1
    try:
        for record in reader:
            if record:  # csv yields [] for a blank line
                records.append((start, record))
            start = reader.line_num + 1
    except csv.Error as exc:
        problems.append(f"{filename}:{start}:-: not a valid CSV table ({exc})")
        return []
    if not records:
        problems.append(f"{filename}:1:-: empty file: expected the header {','.join(columns)}")
        return []
    header_line, header = records[0]
    header = [h.strip() for h in header]
    bad_header = False
    for col in columns:
        if col not in header:
            problems.append(
                f"{filename}:{header_line}:{col}: missing column "
                f"(expected columns: {', '.join(columns)})"
            )
            bad_header = True
    for col in header:
        if col not in columns:
            problems.append(
                f"{filename}:{header_line}:{col or '(blank)'}: unknown column "
                f"(expected: {', '.join(columns)})"
            )
    if len(set(header)) != len(header):
        dup = sorted({h for h in header if header.count(h) > 1})
        problems.append(
            f"{filename}:{header_line}:{dup[0] or '(blank)'}: the header repeats a column"
        )
        bad_header = True
    if bad_header:
        return []
    rows: list[tuple[int, dict[str, str]]] = []
    for line, record in records[1:]:
        if len(record) != len(header):
            what = "missing" if len(record) < len(header) else "too many"
            problems.append(
                f"{filename}:{line}:-: expected {len(header)} cells like the header, got "
                f"{len(record)} ({what}: a lost comma, or a file cut short?)"
            )
            continue
        long = next((h for h, v in zip(header, record, strict=True) if len(v) > MAX_CELL), None)
        if long is not None:
            problems.append(f"{filename}:{line}:{long}: a cell of more than {MAX_CELL} characters")
            continue
        rows.append((line, {h: v.strip() for h, v in zip(header, record, strict=True)}))
    if len(records) == 1:
        problems.append(f"{filename}:{header_line + 1}:-: the table has no rows (header only)")
    return rows
