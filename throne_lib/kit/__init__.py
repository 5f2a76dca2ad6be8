"""The game-agnostic kit: the match protocol, the game registry and (as they move here)
logs, simulation, analytics, agents and the UI shell. It never imports a game."""

from throne_lib.kit.protocol import ActionLike, EventLike, GameMatch, IllegalAction
from throne_lib.kit.registry import Dashboard, Game, get, register

__all__ = [
    "ActionLike",
    "Dashboard",
    "EventLike",
    "Game",
    "GameMatch",
    "IllegalAction",
    "get",
    "register",
]
