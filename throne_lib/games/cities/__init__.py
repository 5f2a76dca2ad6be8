"""城池战 (City War): the multiplayer city mode played on 城堡之心 (RULES-CITIES.md, CW-…).

So far the mode's city layer: :class:`CitiesRules` (every number and **Reading:**),
the city table ``cities.csv`` (:func:`load_city_table`) and :class:`CityWar`
(stacks, empty area, grain, capture, abandon, deck reset, concession, victory).
"""

from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.table import City, CityTable, load_city_table, parse_city_table
from throne_lib.games.cities.war import EMPTY, CityWar

__all__ = [
    "EMPTY",
    "CitiesRules",
    "City",
    "CityTable",
    "CityWar",
    "load_city_table",
    "parse_city_table",
]
