"""Static evaluation of a position and cheap look-ahead helpers for the AI agents.

The agents never re-implement a rule: they try an action on a copy of the state
(through the engine, exactly as :meth:`Match.apply` would) and score what comes
out. The score only reads the state (HP, attack, keywords, "is this a production
camp") — heuristics, not rules.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from throne_lib.compiled import reduce_dataclass
from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.engine import Engine
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.state import BARRACKS, OVER, THRONE, State, Unit

WIN = 1_000_000.0


@dataclass(frozen=True)
class Weights:
    """Weights of :func:`evaluate`; a designer may tune them per agent."""

    throne_hp: float = 3.0  # per HP of a throne (the victory condition, R-THRONE-1)
    throne_danger: float = 2.0  # extra per HP below ``danger_hp``
    danger_hp: int = 15
    attack: float = 1.5
    hp: float = 1.0
    armor: float = 0.8
    shield: float = 2.5
    peasant: float = 4.0  # per mana a peasant adds each turn (R-TURN-3)
    barracks: float = 6.0
    barracks_hp: float = 0.6
    barracks_level: float = 3.0
    production: float = 6.0  # production camps are worth more (R-AI-2 targets them first)
    keyword: float = 1.5  # taunt, flying, reborn, lifesteal, …
    advance: float = 0.25  # per attack point per step closer to the enemy throne
    hand_card: float = 1.2
    mana: float = 0.15  # mana left this turn: tie-breaker, unspent mana is lost

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)


DEFAULT_WEIGHTS = Weights()

_PRODUCTION: dict[int, tuple[CardDB, frozenset[str]]] = {}


def production_ids(db: CardDB) -> frozenset[str]:
    """The ids of the production camps of a card table (looked up once per table)."""
    hit = _PRODUCTION.get(id(db))
    if hit is None or hit[0] is not db:
        if len(_PRODUCTION) >= 16:
            _PRODUCTION.clear()
        hit = _PRODUCTION[id(db)] = (db, frozenset(c.id for c in db.values() if c.is_production))
    return hit[1]


def unit_value(db: CardDB, st: State, u: Unit, w: Weights = DEFAULT_WEIGHTS) -> float:
    """What a non-throne unit is worth to its side."""
    return _unit_value(u, production_ids(db), w)


def _unit_value(u: Unit, production: frozenset[str], w: Weights) -> float:
    """:func:`unit_value` with the table's production camps already looked up."""
    if u.kind == BARRACKS:
        v = w.barracks + w.barracks_hp * u.hp + w.barracks_level * u.level + w.armor * u.armor
        if u.card in production:
            v += w.production
        return v
    v = w.attack * u.attack + w.hp * u.hp + w.armor * u.armor
    if u.shield:
        v += w.shield
    if u.peasant:
        v += w.peasant * u.peasant
    flags = u.taunt + u.flying + u.reborn + u.lifesteal + u.pierce + u.formation + u.artisan
    more = flags + u.siege + u.grow + u.aura_summon + u.regen + u.heal_aura
    if more:
        v += w.keyword * more
    return v


def throne_value(hp: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    return w.throne_hp * hp - w.throne_danger * max(0, w.danger_hp - hp)


def evaluate(eng: Engine, side: int, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Score of the position for ``side`` (positive: ``side`` is ahead)."""
    st = eng.state
    if st.phase == OVER:
        if st.winner is None:
            return 0.0
        return WIN + 1000 - st.round if st.winner == side else -WIN + st.round
    production = production_ids(eng.db)
    dist = eng.geo.dist
    enemy_throne = (eng.geo.throne_cell(1), eng.geo.throne_cell(0))  # by the unit's side
    advance = w.advance
    score = 0.0
    for u in st.board:
        if u is None:
            continue
        kind = u.kind
        if kind == THRONE:
            v = throne_value(u.hp, w)
        else:
            v = _unit_value(u, production, w)
            if u.attack > 0 and kind != BARRACKS:
                far = dist[u.cell][enemy_throne[u.side]]
                if far < 8:
                    v += advance * u.attack * (8 - far)
        score += v if u.side == side else -v
    for s, sign in ((st.sides[side], 1.0), (st.sides[1 - side], -1.0)):
        score += sign * w.hand_card * min(len(s.hand), 8)
    score += w.mana * st.sides[side].mana
    return score


def try_action(match: Match, action: Action) -> Engine:
    """The engine after ``action`` (known legal in ``match``) on a copy of the state."""
    eng = Engine(match.db, match.rules, match.state.copy(), record_events=False)
    eng.do(action)
    return eng


def forwardness(eng: Engine, side: int, cell: int) -> int:
    """0 on the side's own back row … rows-1 on the enemy's back row."""
    row = eng.geo.row(cell)
    return row if side == 0 else eng.geo.rows - 1 - row


def edge_bonus(eng: Engine, cell: int) -> float:
    """How close a cell is to the side columns (for peasants, R-AI-2)."""
    col = eng.geo.col(cell)
    last = eng.geo.columns - 1
    return 1.5 if col in (0, last) else 0.5 if col in (1, last - 1) else 0.0
