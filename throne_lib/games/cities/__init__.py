"""城池战 (City War): the multiplayer city mode played on 城堡之心 (RULES-CITIES.md, CW-…).

:class:`CitiesRules` (every number and **Reading:**), the city table ``cities.csv``
(:func:`load_city_table`), :class:`CityWar` (stacks, empty area, grain, capture,
abandon, deck reset, concession, victory) and :class:`CitiesMatch`, the mode driven by
the 城堡之心 engine behind the kit's match protocol (registered as ``cities``).
"""

from throne_lib.games.cities.game import GAME
from throne_lib.games.cities.match import CitiesMatch
from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.table import City, CityTable, load_city_table, parse_city_table
from throne_lib.games.cities.war import EMPTY, CityWar
from throne_lib.kit.registry import register

register(GAME)

__all__ = [
    "EMPTY",
    "GAME",
    "CitiesMatch",
    "CitiesRules",
    "City",
    "CityTable",
    "CityWar",
    "load_city_table",
    "parse_city_table",
]
