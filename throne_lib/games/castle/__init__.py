"""城堡之心 (Heart of the Castle): hidden roles, heroes and soldiers, 3–8 seats.

The rulebook is ``RULES-CASTLE.md`` (IDs ``CH-…``); the card table is
``cards-castle.csv``. ``CastleMatch`` implements the kit's match protocol.
"""

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.cards import CastleCards, load_castle_cards, parse_castle_cards
from throne_lib.games.castle.events import Event
from throne_lib.games.castle.game import GAME
from throne_lib.games.castle.match import CastleMatch, box_census, play_random
from throne_lib.games.castle.rules import CastleRules
from throne_lib.kit.registry import register

register(GAME)

__all__ = [
    "Act",
    "CastleCards",
    "CastleMatch",
    "CastleRules",
    "Event",
    "GAME",
    "box_census",
    "load_castle_cards",
    "parse_castle_cards",
    "play_random",
]
