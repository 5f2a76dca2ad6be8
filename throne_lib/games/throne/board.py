"""Board geometry: cells, names (R-BOARD-6), neighbours and distances (R-BOARD-5).

A cell is an ``int`` index ``row * columns + col`` with row 0 at the bottom
(blue's last row). Cell names follow chess: columns ``a..`` left to right,
rows ``1..`` bottom to top, so blue's throne stands on ``d1`` and red's on
``d6`` on the standard 7×6 board.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from throne_lib.compiled import reduce_dataclass

BLUE = 0  # lower side, rows 1-3, moves first or second by seed
RED = 1  # upper side, rows 4-6
SIDE_NAMES = ("blue", "red")
SIDE_NAMES_ZH = ("蓝方", "红方")


def other(side: int) -> int:
    return 1 - side


@dataclass(frozen=True, slots=True)
class Geometry:
    """Precomputed tables for one board size."""

    columns: int
    rows: int
    names: tuple[str, ...]
    orth: tuple[tuple[int, ...], ...]  # 4 orthogonal neighbours
    around: tuple[tuple[int, ...], ...]  # 8 surrounding cells
    dist: tuple[tuple[int, ...], ...]  # Manhattan distance

    @property
    def size(self) -> int:
        return self.columns * self.rows

    def col(self, cell: int) -> int:
        return cell % self.columns

    def row(self, cell: int) -> int:
        return cell // self.columns

    def cell(self, col: int, row: int) -> int:
        return row * self.columns + col

    def name(self, cell: int) -> str:
        return self.names[cell]

    def parse(self, text: str) -> int:
        """Cell index from a name such as ``d6``; ``ValueError`` naming the text otherwise."""
        t = text.strip().lower()
        if len(t) >= 2 and t[0].isalpha() and t[1:].isdigit():
            col = ord(t[0]) - ord("a")
            row = int(t[1:]) - 1
            if 0 <= col < self.columns and 0 <= row < self.rows:
                return self.cell(col, row)
        last = f"{chr(ord('a') + self.columns - 1)}{self.rows}"
        raise ValueError(f"bad cell name {text!r}: expected a1..{last}")

    def side_of_cell(self, cell: int) -> int:
        """Which side's half a cell lies in (R-BOARD-1)."""
        return BLUE if self.row(cell) < self.rows // 2 else RED

    def half(self, side: int) -> range:
        half = (self.rows // 2) * self.columns
        return range(0, half) if side == BLUE else range(half, self.size)

    def throne_cell(self, side: int) -> int:
        """R-BOARD-2: last row, centre column."""
        row = 0 if side == BLUE else self.rows - 1
        return self.cell(self.columns // 2, row)

    def back_row(self, side: int) -> int:
        return 0 if side == BLUE else self.rows - 1

    def row_cells(self, row: int) -> range:
        return range(row * self.columns, (row + 1) * self.columns)

    def behind(self, frm: int, to: int) -> int | None:
        """The cell one step beyond ``to`` on the line from ``frm`` (for pierce)."""
        dc = _sign(self.col(to) - self.col(frm))
        dr = _sign(self.row(to) - self.row(frm))
        c, r = self.col(to) + dc, self.row(to) + dr
        if (dc or dr) and 0 <= c < self.columns and 0 <= r < self.rows:
            return self.cell(c, r)
        return None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@lru_cache(maxsize=8)
def geometry(columns: int = 7, rows: int = 6) -> Geometry:
    names = tuple(f"{chr(ord('a') + c)}{r + 1}" for r in range(rows) for c in range(columns))
    orth: list[tuple[int, ...]] = []
    around: list[tuple[int, ...]] = []
    for r in range(rows):
        for c in range(columns):
            o = [
                (c + dc) + (r + dr) * columns
                for dc, dr in ((0, -1), (-1, 0), (1, 0), (0, 1))
                if 0 <= c + dc < columns and 0 <= r + dr < rows
            ]
            a = [
                (c + dc) + (r + dr) * columns
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
                if (dc or dr) and 0 <= c + dc < columns and 0 <= r + dr < rows
            ]
            orth.append(tuple(o))
            around.append(tuple(a))
    size = columns * rows
    dist = tuple(
        tuple(
            abs(i % columns - j % columns) + abs(i // columns - j // columns) for j in range(size)
        )
        for i in range(size)
    )
    return Geometry(columns, rows, names, tuple(orth), tuple(around), dist)
