"""Pixel geometry of the play canvas: where cells, labels, chips and hand cards are.

Everything is in canvas pixels (ipycanvas reports mouse events in canvas pixels);
the widget pins the canvas' CSS size to exactly ``WIDTH`` × ``HEIGHT`` so a click
lands where it was drawn. Row 1 (blue) is at the bottom, row 6 (red) at the top; a
``turned`` layout (red's page in a playtest) shows the board as red sees it: turned half
a circle, row 6 at the bottom and column a on the right.
"""

from __future__ import annotations

from dataclasses import dataclass

from throne_lib.games.throne.board import Geometry

CELL = 80  # a board cell, square
BOARD_X = 26  # left edge of column a (room for the 1-6 labels)
BOARD_Y = 8  # top edge of the top row
LABEL_H = 18  # the a-g labels under the board
CHIP_W = 108
CHIP_H = 38
CHIP_GAP = 5
CARD_W = 66
CARD_H = 96
CARD_GAP = 4
MARGIN = 8


@dataclass(frozen=True, slots=True)
class Strip:
    """A row of equal slots, left to right from ``x0``: the play canvas' chip tray and
    hand, the tower's card rows. Slot ``i`` is ``w``×``h`` at (x0 + i·(w + gap), y)."""

    x0: int
    y: int
    w: int
    h: int
    gap: int

    def xy(self, i: int) -> tuple[int, int]:
        """Top-left pixel of slot ``i``."""
        return self.x0 + i * (self.w + self.gap), self.y

    def center(self, i: int) -> tuple[float, float]:
        x, y = self.xy(i)
        return x + self.w / 2, y + self.h / 2

    def at(self, x: float, y: float, count: int) -> int | None:
        """The slot of ``count`` under (x, y), or None (gaps and margins hit nothing)."""
        if not self.y <= y < self.y + self.h or x < self.x0:
            return None
        i = int((x - self.x0) // (self.w + self.gap))
        inside = (x - self.x0) - i * (self.w + self.gap) < self.w
        return i if 0 <= i < count and inside else None


@dataclass(frozen=True, slots=True)
class Layout:
    """Pixel positions for one board size (7×6 by default), ``turned`` for red."""

    columns: int = 7
    rows: int = 6
    turned: bool = False

    @classmethod
    def of(cls, geo: Geometry, turned: bool = False) -> Layout:
        return cls(geo.columns, geo.rows, turned)

    @property
    def board_w(self) -> int:
        return self.columns * CELL

    @property
    def board_h(self) -> int:
        return self.rows * CELL

    @property
    def tray_y(self) -> int:
        """Top of the chip row (summon choices, captain offer, opening prompts)."""
        return BOARD_Y + self.board_h + LABEL_H + 4

    @property
    def hand_y(self) -> int:
        return self.tray_y + CHIP_H + 8

    @property
    def width(self) -> int:
        return BOARD_X + max(self.board_w, 8 * (CARD_W + CARD_GAP)) + MARGIN

    @property
    def height(self) -> int:
        return self.hand_y + CARD_H + MARGIN

    # --- cells -----------------------------------------------------------------

    def cell_xy(self, cell: int) -> tuple[int, int]:
        """Top-left pixel of a cell."""
        col, row = cell % self.columns, cell // self.columns
        if self.turned:
            return BOARD_X + (self.columns - 1 - col) * CELL, BOARD_Y + row * CELL
        return BOARD_X + col * CELL, BOARD_Y + (self.rows - 1 - row) * CELL

    def cell_center(self, cell: int) -> tuple[float, float]:
        x, y = self.cell_xy(cell)
        return x + CELL / 2, y + CELL / 2

    def cell_at(self, x: float, y: float) -> int | None:
        col = int((x - BOARD_X) // CELL)
        row_from_top = int((y - BOARD_Y) // CELL)
        if x < BOARD_X or y < BOARD_Y or not (0 <= col < self.columns):
            return None
        if not 0 <= row_from_top < self.rows:
            return None
        if self.turned:
            return row_from_top * self.columns + self.columns - 1 - col
        return (self.rows - 1 - row_from_top) * self.columns + col

    # --- the chip tray under the board, the hand cards under it ---------------------

    @property
    def tray(self) -> Strip:
        """The chips: summon choices, captain offer, opening prompts."""
        return Strip(BOARD_X, self.tray_y, CHIP_W, CHIP_H, CHIP_GAP)

    @property
    def hand(self) -> Strip:
        return Strip(BOARD_X, self.hand_y, CARD_W, CARD_H, CARD_GAP)


DEFAULT_LAYOUT = Layout()
