"""The 22-hex board (PIN-BOARD-1…5): coordinates, the full adjacency table, distances."""

from __future__ import annotations

from throne_lib.games.pin.hexes import (
    BOARD,
    CELLS,
    FRONT,
    HQ_CELLS,
    MIRROR_BOARD,
    SUPPORT_LINES,
    label,
    parse_cell,
    rotate,
)

# PIN-BOARD-2: the rulebook's table, cell -> (row, x, adjacent cells), copied verbatim.
TABLE = {
    1: (0, 1, (2, 6, 7)),
    2: (0, 3, (1, 3, 7, 8)),
    3: (0, 5, (2, 4, 8, 9)),
    4: (0, 7, (3, 5, 9, 10)),
    5: (0, 9, (4, 10, 11)),
    6: (1, 0, (1, 7, 12)),
    7: (1, 2, (1, 2, 6, 8, 12, 13)),
    8: (1, 4, (2, 3, 7, 9, 13, 14)),
    9: (1, 6, (3, 4, 8, 10, 14, 15)),
    10: (1, 8, (4, 5, 9, 11, 15, 16)),
    11: (1, 10, (5, 10, 16, 17)),
    12: (2, 1, (6, 7, 13, 18)),
    13: (2, 3, (7, 8, 12, 14, 18, 19)),
    14: (2, 5, (8, 9, 13, 15, 19, 20)),
    15: (2, 7, (9, 10, 14, 16, 20, 21)),
    16: (2, 9, (10, 11, 15, 17, 21, 22)),
    17: (2, 11, (11, 16, 22)),
    18: (3, 2, (12, 13, 19)),
    19: (3, 4, (13, 14, 18, 20)),
    20: (3, 6, (14, 15, 19, 21)),
    21: (3, 8, (15, 16, 20, 22)),
    22: (3, 10, (16, 17, 21)),
}
# Seed 3-1's examples: 001邻接006、007、002; 005邻接004、010、011; 018邻接012、013、019.
SEED_EXAMPLES = {1: {6, 7, 2}, 5: {4, 10, 11}, 18: {12, 13, 19}}


def test_cells_rows_and_coordinates() -> None:
    """PIN-BOARD-1: 22 cells in rows of 5, 6, 6, 5 at the tabled (x, r)."""
    assert tuple(range(1, 23)) == CELLS
    rows = [sum(1 for c in CELLS if BOARD.coords[c][1] == r) for r in range(4)]
    assert rows == [5, 6, 6, 5]
    for cell, (row, x, _) in TABLE.items():
        assert BOARD.coords[cell] == (x, row)
    assert label(3) == "003" and parse_cell("020") == 20


def test_full_adjacency_table_and_seed_examples() -> None:
    """PIN-BOARD-2: every row of the table, 49 edges, connected; the seed's examples."""
    for cell, (_, _, near) in TABLE.items():
        assert BOARD.neighbours[cell] == near, cell
    for cell, near in SEED_EXAMPLES.items():
        assert set(BOARD.neighbours[cell]) == near
    assert len(BOARD.edges()) == 49
    assert all(BOARD.distance(1, c) < 99 for c in CELLS)  # one connected board
    for a in CELLS:  # symmetric relation
        for b in BOARD.neighbours[a]:
            assert a in BOARD.neighbours[b]


def test_mirror_layout_also_fits_the_seed_but_differs() -> None:
    """PIN-BOARD-3: the mirror fits the seed's examples equally; the default is fixed."""
    for cell, near in SEED_EXAMPLES.items():
        assert set(MIRROR_BOARD.neighbours[cell]) == near
    assert MIRROR_BOARD.neighbours != BOARD.neighbours
    assert BOARD.neighbours[12] == (6, 7, 13, 18)  # row 2 half a hex right of row 1


def test_distance_formula_and_diameter() -> None:
    """PIN-BOARD-4: BFS distance equals dr + max(0, (dx − dr)/2); 0 to itself; max 6."""
    for a in CELLS:
        for b in CELLS:
            (xa, ra), (xb, rb) = BOARD.coords[a], BOARD.coords[b]
            dr, dx = abs(ra - rb), abs(xa - xb)
            assert BOARD.distance(a, b) == dr + max(0, (dx - dr) // 2)
    assert BOARD.distance(9, 9) == 0 and BOARD.adjacent(9, 9)
    assert max(BOARD.distance(a, b) for a in CELLS for b in CELLS) == 6
    assert set(BOARD.within(3, 1)) == {3, 2, 4, 8, 9}


def test_support_lines_front_hqs_and_half_turn() -> None:
    """PIN-BOARD-5: lines 001–005 / 018–022, front 006–017, HQs 3 apart, symmetric."""
    assert SUPPORT_LINES == ((1, 2, 3, 4, 5), (18, 19, 20, 21, 22))
    assert tuple(range(6, 18)) == FRONT
    assert BOARD.distance(*HQ_CELLS) == 3
    assert BOARD.steps_toward(3, 20) == (8, 9)
    for a in CELLS:
        x, r = BOARD.coords[a]
        assert BOARD.coords[rotate(a)] == (11 - x, 3 - r)
        assert {rotate(n) for n in BOARD.neighbours[a]} == set(BOARD.neighbours[rotate(a)])
