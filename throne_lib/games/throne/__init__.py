"""Throne & Phalanx (王座与方阵), the kit's first game: engine, rules, cards, decks,
scenario notation, AI, the tower mode and its canvas UI. Importing this package registers
the game with :mod:`throne_lib.kit.registry` (see :mod:`.game`)."""

from throne_lib.games.throne.game import GAME
from throne_lib.kit.registry import register

register(GAME)

__all__ = ["GAME"]
