"""PIN 架空战争: the 22-hex war game of RULES-PIN.md, on the kit's match protocol."""

from throne_lib.games.pin.actions import PinAction, PinEvent, parse_action
from throne_lib.games.pin.cards import PinCard, PinCardDB, load_pin_cards, parse_pin_cards
from throne_lib.games.pin.hexes import BOARD, HexBoard
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.rules import PIN_RULES, Rules

__all__ = [
    "BOARD",
    "PIN_RULES",
    "HexBoard",
    "PinAction",
    "PinCard",
    "PinCardDB",
    "PinEvent",
    "PinMatch",
    "Rules",
    "load_pin_cards",
    "parse_action",
    "parse_pin_cards",
]
