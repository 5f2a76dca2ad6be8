"""Shared reading of the tower's CSV tables (``relics.csv``, ``events.csv``).

They are read and reported like ``cards.csv`` (:mod:`throne_lib.games.throne.cards`): every
problem is collected, one ``FILE:ROW:COLUMN: message`` line each (ROW is the
spreadsheet row, the header is row 1), and raised at once as one
:class:`TowerTableError`, a :class:`~throne_lib.games.throne.cards.CardTableError`, so code
that reports card-table errors reports these too.
"""

from __future__ import annotations

import hashlib
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from throne_lib.games.throne.cards import CardTableError

ROOT = Path(__file__).resolve().parents[4]
_ID = re.compile(r"^[a-z][a-z0-9_]*$")
_CALL = re.compile(r"^([a-z_]+)(?:\(\s*(-?\d+)\s*\))?$")


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


Reporter = Callable[[str, str], None]


def read_rows(
    text: str, filename: str, columns: tuple[str, ...], problems: list[str]
) -> list[tuple[int, dict[str, str]]]:
    """The rows of a CSV text as ``(spreadsheet row, {column: stripped text})``;
    header problems go to ``problems`` (and no rows come back)."""
    try:
        frame = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, pd.errors.EmptyDataError) as exc:
        problems.append(f"{filename}:1:-: not a valid CSV table ({exc})")
        return []
    missing = [c for c in columns if c not in frame.columns]
    for col in missing:
        problems.append(
            f"{filename}:1:{col}: missing column (expected columns: {', '.join(columns)})"
        )
    for col in frame.columns:
        if col not in columns:
            problems.append(f"{filename}:1:{col}: unknown column (expected: {', '.join(columns)})")
    if missing:
        return []
    return [
        (i + 2, {str(k): str(v).strip() for k, v in raw.items()})
        for i, raw in enumerate(frame.to_dict("records"))
    ]


def reporter(problems: list[str], filename: str, row: int) -> Reporter:
    def err(col: str, msg: str) -> None:
        problems.append(f"{filename}:{row}:{col}: {msg}")

    return err


def check_id(value: str, col: str, err: Reporter) -> bool:
    if not _ID.match(value):
        err(col, f"expected an ASCII id like iron_crown (a-z, 0-9, _), got {value!r}")
        return False
    return True


def parse_int(value: str, col: str, err: Reporter, lo: int = 0) -> int | None:
    try:
        n = int(value)
    except ValueError:
        err(col, f"expected a whole number, got {value!r}")
        return None
    if n < lo:
        err(col, f"expected a whole number ≥ {lo}, got {n}")
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
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise TowerTableError([f"{path.name}:1:-: not UTF-8 text ({exc.reason})"], what) from None


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
