"""Tower battles (R-TOWER-3, R-TOWER-7): a normal match whose thrones come from the run.

A battle is fully determined by its :class:`BattleSetup` (card table, rules, seed,
both sides, the throne modifiers of each side) and the list of actions played.
:func:`build_match` is the one place that turns a setup into a match:

1. ``Match.new(db, player, enemy, seed, rules)`` — the player is blue (side 0);
2. :func:`apply_mods` writes each side's tower modifiers into the fresh state:
   throne HP and max HP (the run's life, R-TOWER-3), an opening divine shield,
   opening armor, extra opening cards (relic passives, R-TOWER-6).

Extra opening barracks (relic ``extra_barracks``): ``Rules`` is shared by both
sides and the engine founds at most one production camp among the 3 (so a race's
pool gives 3 choices at most); the tower therefore builds the extra barracks
itself in the fresh state, with the engine's own ``make_unit`` (as founding does),
on the side's back corners (a1, g1, a2, g2 for blue) before the opening starts.

Agents are rebuilt for every decision with a seed mixed from the battle seed
and the action count (:func:`decide`), so a battle rebuilt from a save continues
exactly as it would have without the save.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import LIMIT, Rules
from throne_lib.games.throne.tower.config import Params
from throne_lib.kit.agents import Agent, RandomAgent


@dataclass(frozen=True)
class SideMods(Params):
    """What the tower changes on one side's throne at the start of a battle."""

    WHAT = "side mods"
    hp: int = 40
    max_hp: int = 40
    shield: bool = False
    armor: int = 0
    draw: int = 0
    barracks: tuple[str, ...] = ()  # extra opening barracks, built before the opening

    def __post_init__(self) -> None:
        if not 1 <= self.hp <= self.max_hp <= LIMIT:
            raise ValueError(f"side mods: hp {self.hp}/{self.max_hp} (1 ≤ hp ≤ max_hp)")
        if abs(self.armor) > LIMIT or abs(self.draw) > 1000:
            raise ValueError(f"side mods: armor {self.armor}, draw {self.draw} out of range")


@dataclass(frozen=True)
class BattleSetup:
    kind: str  # battle, elite or boss
    node: str  # the map node id
    floor: int
    seed: int
    rules: Rules
    player: SideSetup
    enemy: SideSetup
    mods: tuple[SideMods, SideMods]
    enemy_agent: str = "random"
    enemy_relics: tuple[str, ...] = field(default=())

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "node": self.node,
            "floor": self.floor,
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "player": self.player.to_dict(),
            "enemy": self.enemy.to_dict(),
            "mods": [m.to_dict() for m in self.mods],
            "enemy_agent": self.enemy_agent,
            "enemy_relics": list(self.enemy_relics),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> BattleSetup:
        mods = [SideMods.from_dict(m) for m in data["mods"]]
        if len(mods) != 2:
            raise ValueError(f"mods: expected 2 sides' mods, got {len(mods)}")
        return cls(
            kind=str(data["kind"]),
            node=str(data["node"]),
            floor=int(data["floor"]),
            seed=int(data["seed"]),
            rules=Rules.from_dict(data["rules"]),
            player=SideSetup.from_dict(data["player"]),
            enemy=SideSetup.from_dict(data["enemy"]),
            mods=(mods[0], mods[1]),
            enemy_agent=str(data["enemy_agent"]),
            enemy_relics=tuple(str(r) for r in data["enemy_relics"]),
        )


def corner_cells(match: Match, side: int) -> list[int]:
    """Where extra opening barracks go: the side's back corners, then the row above."""
    geo, rows = match.geo, match.rules.rows
    back = (0, 1) if side == 0 else (rows - 1, rows - 2)
    return [r * geo.columns + c for r in back for c in (0, geo.columns - 1)]


def apply_mods(match: Match, mods: tuple[SideMods, SideMods]) -> None:
    """Write the tower's throne modifiers into a fresh match (before any action)."""
    st = match.state
    for side, m in enumerate(mods):
        throne = st.throne(side)
        assert throne is not None, "a fresh match has both thrones"
        throne.max_hp = max(1, m.max_hp)
        throne.hp = max(1, min(m.hp, throne.max_hp))
        throne.shield = throne.shield or m.shield
        throne.armor += m.armor
        if m.draw:
            match.eng.draw(side, m.draw, reshuffle=False)
        free = [c for c in corner_cells(match, side) if st.board[c] is None]
        for card, cell in zip(m.barracks, free, strict=False):
            match.eng.make_unit(match.db[card], side, cell, from_deck=False)
    match.eng.events = []
    match.touch()  # the state was edited directly: no cached hash or legal actions


def build_match(db: CardDB, setup: BattleSetup) -> Match:
    """The fresh match of a battle setup, tower modifiers applied."""
    match = Match.new(db, setup.player, setup.enemy, setup.seed, setup.rules)
    apply_mods(match, setup.mods)
    return match


def mix(*parts: object) -> int:
    """A stable 63-bit seed from parts (never Python's salted ``hash``)."""
    text = ":".join(str(p) for p in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


class Blunderer:
    """``standard`` that plays a uniformly random legal action with probability
    ``percent`` %: a smooth difficulty dial for tower enemies (``standard-30``)."""

    def __init__(self, percent: int, seed: int) -> None:
        self.name = f"standard-{percent}"
        self.percent = percent
        self.seed = seed

    def choose(self, match: Match) -> Action:
        rng = random.Random(self.seed)
        if rng.randrange(100) < self.percent:
            legal = match.legal_actions()
            return legal[rng.randrange(len(legal))]
        action: Action = make_agent("standard", self.seed).choose(match)
        return action


def make_agent(name: str, seed: int) -> Agent:
    """``random``, ``standard`` (the R-AI-1 scripted AI) or ``standard-N`` (standard
    with N % random actions); ``standard`` falls back to random while
    :mod:`throne_lib.games.throne.ai.standard` is missing."""
    head, _, tail = name.partition("-")
    if head == "standard" and tail.isdigit():
        return Blunderer(int(tail), seed)
    if name == "standard":
        try:
            from throne_lib.games.throne.ai.standard import StandardAgent
        except ImportError:  # pragma: no cover - the AI module is another engineer's
            return RandomAgent(seed)
        return StandardAgent(seed)
    if name == "random":
        return RandomAgent(seed)
    from throne_lib.kit.agents import make_agent as engine_agent

    return engine_agent(name, seed)


def decide(match: Match, agent: str, seed: int) -> Action:
    """The action ``agent`` picks now; a pure function of (position, history length, seed)."""
    action: Action = make_agent(agent, mix(seed, len(match.history), match.turn)).choose(match)
    return action
