"""Throne & Phalanx (王座与方阵): the rules of the game as a UI-free library.

``from throne_lib import Match, load_cards, …`` gives Throne & Phalanx's public names; they
load on first use (a module ``__getattr__``), so importing the kit (``throne_lib.kit``) or
another game loads no Throne module.
"""

# Imported first, it chooses the compiled or the pure-Python engine before any engine
# module loads (THRONE_PURE=1 runs the .py sources; see throne_lib/compiled.py). Every
# ``throne_lib.*`` import runs this file first, so the choice precedes any engine import.
from throne_lib import compiled  # isort: split

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from throne_lib.games.throne.actions import Action, Event
    from throne_lib.games.throne.board import BLUE, RED, geometry
    from throne_lib.games.throne.cards import (
        Card,
        CardDB,
        CardTableError,
        load_cards,
        parse_cards,
    )
    from throne_lib.games.throne.match import IllegalAction, Match, SideSetup
    from throne_lib.games.throne.rules import DEFAULT_RULES, Rules

# public name -> the module that defines it (imported on first access)
_LAZY: dict[str, str] = {
    "Action": "throne_lib.games.throne.actions",
    "Event": "throne_lib.games.throne.actions",
    "BLUE": "throne_lib.games.throne.board",
    "RED": "throne_lib.games.throne.board",
    "geometry": "throne_lib.games.throne.board",
    "Card": "throne_lib.games.throne.cards",
    "CardDB": "throne_lib.games.throne.cards",
    "CardTableError": "throne_lib.games.throne.cards",
    "load_cards": "throne_lib.games.throne.cards",
    "parse_cards": "throne_lib.games.throne.cards",
    "IllegalAction": "throne_lib.games.throne.match",
    "Match": "throne_lib.games.throne.match",
    "SideSetup": "throne_lib.games.throne.match",
    "DEFAULT_RULES": "throne_lib.games.throne.rules",
    "Rules": "throne_lib.games.throne.rules",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'throne_lib' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


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
