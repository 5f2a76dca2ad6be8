"""暗标夺宝 (Goofspiel with a hidden bid): the kit's example game (docs/kit.md's tutorial)."""

from throne_lib.games.goofspiel.game import GAME, Bid, GoofMatch
from throne_lib.kit.registry import register

register(GAME)

__all__ = ["GAME", "Bid", "GoofMatch"]
