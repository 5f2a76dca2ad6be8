"""Board geometry, movement and placement: R-BOARD-*, R-UNIT-1, R-UNIT-2, R-UNIT-5."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from throne_lib import IllegalAction, Match, SideSetup
from throne_lib.games.throne.cards import CardDB

HEAD = """
side blue general=lionheart mana=5
side red general=beast_king
"""

ScenarioFn = Callable[..., Match]  # the conftest 'scenario' fixture
IllegalFn = Callable[..., IllegalAction]  # the conftest 'illegal' fixture


def moves_of(m: Match, cell: str) -> set[str]:
    c = m.geo.parse(cell)
    return {m.geo.name(a.target) for a in m.legal_actions() if a.kind == "move" and a.cell == c}


def attacks_of(m: Match, cell: str) -> set[str]:
    c = m.geo.parse(cell)
    return {m.geo.name(a.target) for a in m.legal_actions() if a.kind == "attack" and a.cell == c}


def plays_of(m: Match, card: str) -> set[str]:
    return {m.geo.name(a.target) for a in m.legal_actions() if a.kind == "play" and a.card == card}


# --- R-BOARD-1, R-BOARD-2, R-BOARD-6 ------------------------------------------------


def test_board_is_7_by_6_split_in_two_halves_without_middle_row_R_BOARD_1(
    scenario: ScenarioFn,
) -> None:
    """R-BOARD-1: 7 columns x 6 rows; rows 1-3 are blue's, rows 4-6 red's, no middle row."""
    m = scenario(HEAD)
    geo = m.geo
    assert (geo.columns, geo.rows, geo.size) == (7, 6, 42)
    blue = {geo.name(c) for c in geo.half(0)}
    red = {geo.name(c) for c in geo.half(1)}
    assert blue == {f"{col}{row}" for col in "abcdefg" for row in (1, 2, 3)}
    assert red == {f"{col}{row}" for col in "abcdefg" for row in (4, 5, 6)}
    assert blue.isdisjoint(red) and len(blue | red) == 42
    assert geo.side_of_cell(geo.parse("g3")) == 0 and geo.side_of_cell(geo.parse("a4")) == 1


def test_thrones_stand_on_d1_and_d6_R_BOARD_2(db: CardDB) -> None:
    """R-BOARD-2, R-BOARD-6: blue's throne on d1, red's on d6, from the very start."""
    m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "beast"), seed=3)
    blue, red = m.unit_at("d1"), m.unit_at("d6")
    assert blue is not None and blue.kind == "throne" and blue.side == 0
    assert red is not None and red.kind == "throne" and red.side == 1
    assert (blue.card, red.card) == ("lionheart", "beast_king")
    thrones = [u for u in m.state.units() if u.kind == "throne"]
    assert len(thrones) == 2


def test_cells_are_named_like_a_chessboard_R_BOARD_6(scenario: ScenarioFn) -> None:
    """R-BOARD-6: columns a-g left to right, rows 1-6 bottom to top, in names,
    action texts and error messages."""
    m = scenario(HEAD + "unit b2 blue militia\nunit b3 blue militia")
    geo = m.geo
    assert [geo.name(c) for c in (0, 6, 7, 38, 41)] == ["a1", "g1", "a2", "d6", "g6"]
    assert geo.parse("D6") == 38 and geo.parse("a1") == 0
    for bad in ("h1", "a7", "a0", "zz", ""):
        with pytest.raises(ValueError, match="bad cell name"):
            geo.parse(bad)
    assert m.parse("move b2 c2").text(geo) == "move b2 c2"
    with pytest.raises(ValueError) as info:
        m.apply("move b2 b3")
    assert "b3" in str(info.value)


# --- R-BOARD-3: a full row is a wall ------------------------------------------------

FULL_ROW_3 = HEAD + "".join(
    f"unit {c}3 {'blue' if c in 'ace' else 'red'} militia\n" for c in "abcdeg"
)


def test_full_row_blocks_a_cavalry_move_R_BOARD_3(scenario: ScenarioFn, illegal: IllegalFn) -> None:
    """R-BOARD-3, R-UNIT-2: with all 7 cells of row 3 taken, a cavalry unit (move 2)
    on row 2 can neither enter nor cross it."""
    m = scenario(FULL_ROW_3 + "unit f3 red militia\nunit f2 blue knight")
    assert m.unit_at("f2").move == 2  # type: ignore[union-attr]  # R-UNIT-1 cavalry
    reach = moves_of(m, "f2")
    assert reach and all(cell[1] in "12" for cell in reach)
    assert "f4" not in reach
    illegal(m, "move f2 f4", rule="R-BOARD-3")


def test_row_with_a_gap_is_no_wall_R_BOARD_3(scenario: ScenarioFn) -> None:
    """R-BOARD-3 (the allowing side): one empty cell in the row and cavalry goes through."""
    m = scenario(FULL_ROW_3 + "unit f2 blue knight")
    assert {"f3", "f4"} <= moves_of(m, "f2")
    m.apply("move f2 f4")
    assert m.unit_at("f4") is not None and m.unit_at("f4").card == "knight"  # type: ignore[union-attr]


def test_full_row_blocks_ground_units_of_both_sides_R_BOARD_3(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-BOARD-3: the wall stops the owner's ground units too (a red wolf coming down)."""
    head = "turn red\nside blue general=lionheart\nside red general=beast_king mana=5\n"
    m = scenario(
        head + "".join(f"unit {c}4 blue militia\n" for c in "abcdefg") + "unit c5 red wolf"
    )
    assert moves_of(m, "c5") == {"b5", "c6", "d5", "a5", "e5", "b6"}
    illegal(m, "move c5 c3", rule="R-BOARD-3")


def test_flying_unit_passes_over_a_full_row_R_BOARD_3_R_FLY_2(scenario: ScenarioFn) -> None:
    """R-BOARD-3, R-FLY-2: an airborne 翼龙 flies over the wall and the units in it."""
    m = scenario(FULL_ROW_3 + "unit f3 red militia\nunit f2 blue wyvern")
    assert m.unit_at("f2").airborne  # type: ignore[union-attr]
    assert "f4" in moves_of(m, "f2")
    m.apply("move f2 f4")
    assert m.unit_at("f4") is not None and m.unit_at("f4").airborne  # type: ignore[union-attr]


# --- R-BOARD-4: the throne's row is open ---------------------------------------------


def test_units_enter_the_throne_row_and_siege_from_three_cells_R_BOARD_4(
    scenario: ScenarioFn,
) -> None:
    """R-BOARD-4: soldiers may step into the enemy's last row and hit the throne from
    its left, right and front."""
    m = scenario(
        HEAD
        + "unit b5 blue militia\nunit c6 blue militia\nunit e6 blue militia\nunit d5 blue militia"
    )
    assert "b6" in moves_of(m, "b5")
    for cell in ("c6", "e6", "d5"):
        assert "d6" in attacks_of(m, cell), cell
    before = m.throne_hp(1)
    for cell in ("c6", "e6", "d5"):
        m.apply(f"attack {cell} d6")
    assert m.throne_hp(1) == before - 3 * (1 + 2)  # militia 1 + siege bonus 2 (R-SIEGE-1)
    m.apply("move b5 b6")
    assert m.unit_at("b6") is not None


# --- R-BOARD-5: Manhattan distance, orthogonal steps, 8-cell "around" ----------------


def test_moves_are_orthogonal_steps_R_BOARD_5(scenario: ScenarioFn, illegal: IllegalFn) -> None:
    """R-BOARD-5, R-UNIT-1: a move-1 unit reaches its 4 orthogonal neighbours, never a
    diagonal cell."""
    m = scenario(HEAD + "unit c3 blue militia")
    assert moves_of(m, "c3") == {"c2", "b3", "d3", "c4"}
    illegal(m, "move c3 d4", rule="R-UNIT-2")
    illegal(m, "move c3 c5", rule="R-UNIT-2")


def test_cavalry_reaches_manhattan_distance_two_R_BOARD_5_R_UNIT_1(scenario: ScenarioFn) -> None:
    """R-BOARD-5, R-UNIT-1: cavalry (骑士) moves 2 steps: every empty cell at
    Manhattan distance 1 or 2, diagonals (1+1) included."""
    m = scenario(HEAD + "unit c3 blue knight")
    geo = m.geo
    c3 = geo.parse("c3")
    expected = {
        geo.name(c)
        for c in range(geo.size)
        if 0 < geo.dist[c3][c] <= 2 and m.state.board[c] is None
    }
    assert moves_of(m, "c3") == expected
    assert {"d4", "b2", "a3", "c5"} <= expected and "d5" not in expected


def test_attack_range_is_manhattan_R_BOARD_5(scenario: ScenarioFn, illegal: IllegalFn) -> None:
    """R-BOARD-5, R-UNIT-1: an archer (range 2) hits cells at Manhattan distance <= 2:
    two straight or one diagonal, but not a knight's jump (distance 3)."""
    m = scenario(HEAD + "unit d3 blue bowman\nunit d5 red wolf\nunit c4 red wolf\nunit b4 red wolf")
    assert attacks_of(m, "d3") == {"d5", "c4", "d1"}  # d1: own throne, friendly fire (R-UNIT-4)
    err = illegal(m, "attack d3 b4", rule="R-UNIT-1")
    assert "range" in err.reason


def test_around_means_the_8_surrounding_cells_R_BOARD_5(scenario: ScenarioFn) -> None:
    """R-BOARD-5: 'around' (summon radius) includes the diagonals."""
    m = scenario(HEAD + "unit c2 blue militia_camp")
    cells = {
        m.geo.name(a.target)
        for a in m.legal_actions()
        if a.kind == "summon" and a.card == "militia"
    }
    assert cells == {"b1", "c1", "d2", "b2", "b3", "c3", "d3"}  # d1 holds the throne


# --- R-UNIT-1: one move and one attack per turn, either order ------------------------


def test_default_move_and_range_are_one_R_UNIT_1(db: CardDB) -> None:
    """R-UNIT-1: default move 1 and range 1; cavalry move 2; archers range 2."""
    assert (db["militia"].move, db["militia"].range) == (1, 1)
    assert db["knight"].move == 2 and db["wolf"].move == 2  # cavalry keyword
    assert db["bowman"].range == 2 and db["longbowman"].range == 2


def test_move_then_attack_but_not_twice_R_UNIT_1(scenario: ScenarioFn, illegal: IllegalFn) -> None:
    """R-UNIT-1: move then attack in one turn; a second move or attack is refused."""
    m = scenario(HEAD + "unit c3 blue militia\nunit c5 red boar")
    m.apply("move c3 c4")
    m.apply("attack c4 c5")
    illegal(m, "move c4 b4", rule="R-UNIT-1")
    m2 = scenario(HEAD + "unit c4 blue spearman\nunit c5 red militia hp=5/5")
    m2.apply("attack c4 c5")
    illegal(m2, "attack c4 c5", rule="R-UNIT-1")
    m2.apply("move c4 b4")  # attack then move: the other order
    assert m2.unit_at("b4") is not None


# --- R-UNIT-2: no moving into or through occupied cells -------------------------------


def test_cannot_move_into_an_occupied_cell_R_UNIT_2(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-UNIT-2: friend or foe, an occupied cell cannot be entered."""
    m = scenario(HEAD + "unit c3 blue militia\nunit c2 blue militia\nunit c4 red militia")
    assert moves_of(m, "c3") == {"b3", "d3"}
    illegal(m, "move c3 c2", rule="R-UNIT-2")
    illegal(m, "move c3 c4", rule="R-UNIT-2")


def test_cavalry_cannot_pass_through_an_occupied_cell_R_UNIT_2(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-UNIT-2: a knight cannot jump a unit; the cell behind it is 2 steps away only
    through that unit."""
    m = scenario(HEAD + "unit a2 blue knight\nunit a3 red militia\nunit b2 blue militia")
    assert "a4" not in moves_of(m, "a2")
    illegal(m, "move a2 a4", rule="R-UNIT-2")


# --- R-UNIT-5: minions onto empty cells of the own half ----------------------------


def test_minions_go_onto_empty_cells_of_the_own_half_R_UNIT_5(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-UNIT-5: a minion card is played onto any empty cell of rows 1-3 for blue."""
    m = scenario(HEAD + "hand blue shield_wall\nunit c3 blue militia")
    cells = plays_of(m, "shield_wall")
    assert cells == {m.geo.name(c) for c in m.geo.half(0)} - {"d1", "c3"}
    illegal(m, "play shield_wall c4", rule="R-UNIT-5")
    illegal(m, "play shield_wall c3", rule="R-UNIT-5")
    m.apply("play shield_wall g3")
    assert m.unit_at("g3").card == "shield_wall"  # type: ignore[union-attr]
    assert m.state.sides[0].mana == 5 - 2


def test_red_minions_go_onto_red_half_R_UNIT_5(scenario: ScenarioFn, illegal: IllegalFn) -> None:
    """R-UNIT-5 for the upper side: rows 4-6 only."""
    m = scenario(
        "turn red\n"
        + HEAD.replace("side red general=beast_king", "side red general=beast_king mana=5")
        + "hand red brown_bear"
    )
    assert plays_of(m, "brown_bear") == {m.geo.name(c) for c in m.geo.half(1)} - {"d6"}
    illegal(m, "play brown_bear c3", rule="R-UNIT-5")


def test_a_far_wall_is_not_blamed_for_a_too_long_move_R_BOARD_3(
    scenario: ScenarioFn, illegal: IllegalFn
) -> None:
    """R-BOARD-3 vs R-UNIT-2: a full row elsewhere on the board does not explain a move
    that is simply too long; the refusal names R-UNIT-2."""
    back_row = "".join(f"unit {c}1 blue militia\n" for c in "abcefg")
    m = scenario(HEAD + back_row + "unit c3 blue militia")
    illegal(m, "move c3 c5", rule="R-UNIT-2")
