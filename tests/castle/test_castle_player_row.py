"""castle.rules.player_row: the per-player-count tables of 城堡之心 (the role table) and
城池战 (the city table) refuse a seat count the game does not seat and a count the table
has no row for, each citing its rule (CH-SETUP-1, CH-ROLE-4; CW-SETUP-2, CW-SETUP-3)."""

from __future__ import annotations

import pytest

from throne_lib.games.castle.rules import DEFAULT_ROLE_TABLE, CastleRules, RoleTableError
from throne_lib.games.cities.rules import DEFAULT_CITY_TABLE, CitiesRules


def test_role_table_rows() -> None:
    assert CastleRules().roles_for(5) == DEFAULT_ROLE_TABLE[5]  # CH-ROLE-4
    with pytest.raises(RoleTableError, match=r"城堡之心 seats 3–8 players, not 9 \(CH-SETUP-1\)"):
        CastleRules().roles_for(9)
    short = {n: r for n, r in DEFAULT_ROLE_TABLE.items() if n != 6}
    with pytest.raises(RoleTableError, match=r"role table has no row for 6 players \(CH-ROLE-4\)"):
        CastleRules(role_table=short).roles_for(6)


def test_city_table_rows() -> None:
    assert CitiesRules().cities_in_play(4) == DEFAULT_CITY_TABLE[4][0]  # CW-SETUP-3
    with pytest.raises(ValueError, match=r"城池战 seats 3–8 players, not 2 \(CW-SETUP-2\)"):
        CitiesRules().victory_count(2)
    short = {n: r for n, r in DEFAULT_CITY_TABLE.items() if n != 7}
    with pytest.raises(ValueError, match=r"city table has no row for 7 players \(CW-SETUP-3\)"):
        CitiesRules(city_table=short).cities_in_play(7)
