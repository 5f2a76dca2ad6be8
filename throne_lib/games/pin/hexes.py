"""The PIN board: 22 pointy-top hexes in rows of 5, 6, 6, 5 (PIN-BOARD-*).

Cells are numbered 1..22 row by row, left to right; coordinates ``(x, r)`` use half hex
widths for ``x`` (steps of 2 in a row). Adjacency is computed from coordinates and the
distance table by breadth-first search, once per layout. This is a hex board, not a
grid with holes: only the 22 cells exist.
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass

CELLS = tuple(range(1, 23))
ROW_SIZES = (5, 6, 6, 5)
# First x of each row (PIN-BOARD-1); the mirror layout (PIN-BOARD-3) shifts rows the other way.
_ROW_START = (1, 0, 1, 2)
_ROW_START_MIRROR = (2, 1, 0, 1)
HQ_CELLS = (3, 20)  # PIN-SETUP-1: side 0 (甲) on 003, side 1 (乙) on 020
SUPPORT_LINES = ((1, 2, 3, 4, 5), (18, 19, 20, 21, 22))  # PIN-BOARD-5
FRONT = tuple(range(6, 18))
SIDE_NAMES = ("甲", "乙")


def label(cell: int) -> str:
    """Cells are named by their three-digit number in logs and text (PIN-BOARD-1)."""
    return f"{cell:03d}"


def parse_cell(text: str) -> int:
    """``"003"`` or ``"3"`` -> 3; ValueError for anything that is not a cell."""
    try:
        cell = int(text)
    except ValueError:
        raise ValueError(f"expected a cell number 001-022, got {text!r}") from None
    if cell not in CELLS:
        raise ValueError(f"expected a cell number 001-022, got {text!r}")
    return cell


@dataclass(frozen=True)
class HexBoard:
    """One layout of the 22 cells with its neighbours and distances (PIN-BOARD-2, -4)."""

    mirror: bool = False

    @functools.cached_property
    def coords(self) -> dict[int, tuple[int, int]]:
        starts = _ROW_START_MIRROR if self.mirror else _ROW_START
        out: dict[int, tuple[int, int]] = {}
        cell = 1
        for r, size in enumerate(ROW_SIZES):
            for i in range(size):
                out[cell] = (starts[r] + 2 * i, r)
                cell += 1
        return out

    @functools.cached_property
    def neighbours(self) -> dict[int, tuple[int, ...]]:
        """Same row |Δx| = 2, neighbouring rows |Δx| = 1 (PIN-BOARD-2)."""
        out: dict[int, tuple[int, ...]] = {}
        for a, (xa, ra) in self.coords.items():
            near = []
            for b, (xb, rb) in self.coords.items():
                dx, dr = abs(xa - xb), abs(ra - rb)
                if (dr == 0 and dx == 2) or (dr == 1 and dx == 1):
                    near.append(b)
            out[a] = tuple(sorted(near))
        return out

    @functools.cached_property
    def _dist(self) -> dict[tuple[int, int], int]:
        out: dict[tuple[int, int], int] = {}
        for start in CELLS:
            seen = {start: 0}
            todo = deque([start])
            while todo:
                c = todo.popleft()
                for n in self.neighbours[c]:
                    if n not in seen:
                        seen[n] = seen[c] + 1
                        todo.append(n)
            for c, d in seen.items():
                out[start, c] = d
        return out

    def distance(self, a: int, b: int) -> int:
        """Fewest steps between two cells; 0 from a cell to itself (PIN-BOARD-4)."""
        return self._dist[a, b]

    def adjacent(self, a: int, b: int) -> bool:
        """Rules' "adjacent": distance ≤ 1, the same cell included (PIN-BOARD-4)."""
        return self._dist[a, b] <= 1

    def within(self, cell: int, radius: int) -> tuple[int, ...]:
        """Every cell at distance ≤ radius of ``cell`` (itself included)."""
        return tuple(c for c in CELLS if self._dist[cell, c] <= radius)

    def edges(self) -> list[tuple[int, int]]:
        return [(a, b) for a in CELLS for b in self.neighbours[a] if a < b]

    def steps_toward(self, cell: int, goal: int) -> tuple[int, ...]:
        """Neighbours of ``cell`` one step closer to ``goal`` (shortest paths)."""
        d = self._dist[cell, goal]
        return tuple(n for n in self.neighbours[cell] if self._dist[n, goal] == d - 1)


def support_line(side: int) -> tuple[int, ...]:
    return SUPPORT_LINES[side]


def side_of_line(cell: int) -> int | None:
    """The side whose support line holds ``cell``, or None on the front."""
    for side, line in enumerate(SUPPORT_LINES):
        if cell in line:
            return side
    return None


def rotate(cell: int) -> int:
    """The half turn that swaps the two sides' views: n <-> 23 - n (PIN-BOARD-5)."""
    return 23 - cell


BOARD = HexBoard()
MIRROR_BOARD = HexBoard(mirror=True)
