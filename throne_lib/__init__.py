"""Throne & Phalanx (王座与方阵): the rules of the game as a UI-free library."""

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import BLUE, RED, geometry
from throne_lib.games.throne.cards import Card, CardDB, CardTableError, load_cards, parse_cards
from throne_lib.games.throne.match import IllegalAction, Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules

__all__ = [
    "BLUE",
    "DEFAULT_RULES",
    "RED",
    "Action",
    "Card",
    "CardDB",
    "CardTableError",
    "Event",
    "IllegalAction",
    "Match",
    "Rules",
    "SideSetup",
    "geometry",
    "load_cards",
    "parse_cards",
]
