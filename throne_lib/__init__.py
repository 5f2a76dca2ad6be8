"""Throne & Phalanx (王座与方阵): the rules of the game as a UI-free library."""

# Imported first, it chooses the compiled or the pure-Python engine before any engine
# module loads (THRONE_PURE=1 runs the .py sources; see throne_lib/compiled.py).
from throne_lib import compiled  # isort: split

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
    "compiled",
    "geometry",
    "load_cards",
    "parse_cards",
]
