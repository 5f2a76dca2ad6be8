"""Shared reading of the tower's CSV tables (``relics.csv``, ``events.csv``).

They are read and reported like ``cards.csv`` (:mod:`throne_lib.games.throne.cards`): every
problem is collected, one ``FILE:ROW:COLUMN: message`` line each (ROW is the
spreadsheet row, the header is row 1), and raised at once as one
:class:`TowerTableError`, a :class:`~throne_lib.games.throne.cards.CardTableError`, so code
that reports card-table errors reports these too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from throne_lib.games.throne.cards import CardTableError
from throne_lib.kit import csvtable
from throne_lib.kit.csvtable import Reporter, read_table_text

T = TypeVar("T")
D = TypeVar("D")

ROOT = Path(__file__).resolve().parents[4]
_CALL = re.compile(r"^([a-z_]+)(?:\(\s*(-?[0-9]{1,6})\s*\))?$")
_NUMBER = re.compile(r"-?[0-9]{1,12}")


class TowerTableError(CardTableError):
    """Every problem of a tower table, one ``file:row:column: message`` per line."""

    def __init__(self, problems: list[str], what: str = "tower table") -> None:
        self.problems = problems
        ValueError.__init__(
            self, f"{len(problems)} problem(s) in the {what}:\n" + "\n".join(problems)
        )


@dataclass(frozen=True)
class Call:
    """One effect of a relic or an event option: ``name`` or ``name(N)``."""

    name: str
    value: int = 0

    def text(self) -> str:
        return self.name if self.value == 0 else f"{self.name}({self.value})"


def check_id(value: str, col: str, err: Reporter) -> bool:
    """The kit's id check (:func:`~throne_lib.kit.csvtable.check_id`), a relic's id shown."""
    return csvtable.check_id(value, col, err, "iron_crown")


def parse_int(value: str, col: str, err: Reporter, lo: int = 0, hi: int = 1_000_000) -> int | None:
    if not _NUMBER.fullmatch(value):  # ASCII digits, not "1_000" nor 10^20 typed out
        shown = value if len(value) <= 40 else value[:39] + "…"
        err(col, f"expected a whole number, got {shown!r}")
        return None
    n = int(value)
    if n < lo:
        err(col, f"expected a whole number ≥ {lo}, got {n}")
        return None
    if n > hi:
        err(col, f"expected a whole number ≤ {hi}, got {n}")
        return None
    return n


def parse_calls(
    value: str, col: str, err: Reporter, spec: dict[str, bool]
) -> tuple[Call, ...] | None:
    """``a(1); b`` against ``spec`` (name -> takes a number). None after an error."""
    calls: list[Call] = []
    ok = True
    for part in (p.strip() for p in value.split(";")):
        if not part:
            continue
        m = _CALL.match(part)
        if m is None:
            err(col, f"expected NAME or NAME(N), got {part!r}")
            ok = False
            continue
        name, num = m.group(1), m.group(2)
        if name not in spec:
            err(col, f"unknown effect {name!r} (known: {', '.join(sorted(spec))})")
            ok = False
        elif spec[name] and num is None:
            err(col, f"{name} takes a number: {name}(N)")
            ok = False
        elif not spec[name] and num is not None:
            err(col, f"{name} takes no number")
            ok = False
        else:
            calls.append(Call(name, int(num) if num is not None else 0))
    if not calls and ok:
        err(col, "expected at least one effect, got an empty cell")
        ok = False
    return tuple(calls) if ok else None


def read_text(path: Path, what: str) -> str:
    problems: list[str] = []
    text = read_table_text(path, problems)  # a bad byte at its line and column
    if text is None:
        raise TowerTableError(problems, what)
    return text


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_table(
    path: str | Path | None, default: Path, what: str, parse: Callable[[str, str], D]
) -> D:
    """Read the ``what`` (e.g. "relic table") at ``path`` (``default`` if None) and
    ``parse(text, file name)`` it."""
    p = Path(path) if path is not None else default
    return parse(read_text(p, what), p.name)


def table_of(
    make: Callable[[dict[str, T], str], D],
    rows: dict[str, T],
    text: str,
    filename: str,
    problems: list[str],
    what: str,
) -> D:
    """The table ``make(rows, digest of text)``, or :class:`TowerTableError` with every
    problem at once; a table without rows is one (what = "relic table" -> "no relics")."""
    if not problems and not rows:
        noun = what.removesuffix(" table")
        problems.append(f"{filename}:2:-: the table has no {noun}s")
    if problems:
        raise TowerTableError(problems, what)
    return make(rows, digest(text))
