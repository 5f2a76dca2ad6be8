"""王座之塔 — the roguelike tower mode (RULES.md R-TOWER-1..8), UI-free.

* :mod:`~throne_lib.games.throne.tower.map` — the seeded 3-floor map and its tunable :class:`MapRules`;
* :mod:`~throne_lib.games.throne.tower.run` — the run state and its text choices;
* :mod:`~throne_lib.games.throne.tower.battle` — tower battles: run HP and relics applied to a match;
* :mod:`~throne_lib.games.throne.tower.relics`, :mod:`~throne_lib.games.throne.tower.events` — ``relics.csv``,
  ``events.csv``;
* :mod:`~throne_lib.games.throne.tower.save` — atomic, versioned saves and resume (mid-battle too);
* :mod:`~throne_lib.games.throne.tower.autopilot` — whole runs played by the AI, for designers.

>>> run = Run.new(seed=1)
>>> run.hp, len(run.deck), run.screen
(40, 10, 'map')
"""

from throne_lib.games.throne.tower.config import DEFAULT_TOWER, TowerRules
from throne_lib.games.throne.tower.map import (
    DEFAULT_MAP_RULES,
    MapRules,
    Node,
    TowerMap,
    generate_map,
)
from throne_lib.games.throne.tower.run import Battle, Run, Tables, TowerError
from throne_lib.games.throne.tower.save import SaveError, load_run, quarantine, save_run

__all__ = [
    "DEFAULT_MAP_RULES",
    "DEFAULT_TOWER",
    "Battle",
    "MapRules",
    "Node",
    "Run",
    "SaveError",
    "Tables",
    "TowerError",
    "TowerMap",
    "TowerRules",
    "generate_map",
    "load_run",
    "quarantine",
    "save_run",
]
