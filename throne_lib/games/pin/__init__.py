"""PIN 架空战争: the 22-hex war game of RULES-PIN.md, on the kit's match protocol.

Importing this package registers the game with :mod:`throne_lib.kit.registry` and loads
nothing else; the parts live in their modules: ``hexes`` (board), ``rules`` (parameters),
``cards``/``words`` (card table and effect words), ``decks``, ``match`` (the protocol),
``legal``/``engine``/``combat``/``effects`` (the rules), ``scenario`` (notation),
``view`` (observation, resample, Chinese action text), ``agents``, ``ui_model``.
"""

from throne_lib.games.pin.game import GAME
from throne_lib.kit.registry import register

register(GAME)

__all__ = ["GAME"]
