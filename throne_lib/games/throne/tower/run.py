"""A tower run (R-TOWER-1..7): the state and the choices that move it.

A run is a small state machine driven by text choices, like a match by actions::

    screen     choices
    map        go F.R.C                   (a reachable node, R-TOWER-1)
    battle     the battle's own actions; then ``finish``
    reward     pick CARD | skip          (R-TOWER-4: 1 of 3 cards)
    campfire   rest | fortify
    shop       buy CARD | relic RELIC | heal | remove CARD | leave
    event      option N
    over       (none: the run is dead or won)

:meth:`Run.choices` lists the legal choices, :meth:`Run.apply` carries one out or
raises :class:`TowerError` leaving the run unchanged. Every random draw comes from
``Random("tower:SEED:STEP:PURPOSE")`` where STEP is the number of choices made, so a
run is a pure function of its seed, its setup and its choices (and of the battles'
actions). Chests open when entered (gold or a relic) and the run returns to the map.

**Reading** (R-TOWER-3): a battle that is not won (the throne falls, or the round
limit is lost or drawn, R-END-1) ends the run; the throne HP left is recorded.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from throne_lib.games.throne.cards import CardDB, load_cards
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.rules import DEFAULT_RULES
from throne_lib.games.throne.tower import nodes
from throne_lib.games.throne.tower.battle import BattleSetup, SideMods, build_match, decide, mix
from throne_lib.games.throne.tower.config import DEFAULT_TOWER, TowerRules
from throne_lib.games.throne.tower.deck import battle_setup, deck_problems, starter_deck
from throne_lib.games.throne.tower.events import EventDB, load_events
from throne_lib.games.throne.tower.map import (
    BATTLE_KINDS,
    DEFAULT_MAP_RULES,
    MapRules,
    Node,
    TowerMap,
    generate_map,
)
from throne_lib.games.throne.tower.relics import RelicDB, load_relics, total

SCREENS = ("map", "battle", "reward", "campfire", "shop", "event", "over")


class TowerError(ValueError):
    """A choice the run does not allow now (the run is left unchanged)."""


@dataclass(frozen=True)
class Tables:
    """The data a run reads: cards, relics, events."""

    cards: CardDB
    relics: RelicDB
    events: EventDB

    @classmethod
    def load(cls) -> Tables:
        return cls(load_cards(), load_relics(), load_events())


@dataclass
class Step:
    """One visited node, for the autopilot's reports (HP curve, deaths by node)."""

    floor: int
    row: int
    kind: str
    hp_before: int
    hp_after: int
    max_hp: int
    gold: int
    result: str = ""  # won / lost / the choice made
    node: str = ""  # the node id

    def to_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass
class Battle:
    """The battle in progress: its setup and its match (rebuilt from a save)."""

    setup: BattleSetup
    match: Match

    def enemy_to_act(self) -> bool:
        return not self.match.is_over and self.match.turn == 1

    def step_enemy(self) -> None:
        """Let the enemy AI play one action (the UI calls this at its tempo)."""
        self.match.apply(decide(self.match, self.setup.enemy_agent, self.setup.seed))

    def play_out(self, player_agent: str = "standard", seed: int = 0) -> None:
        """Play both sides to the end (the autopilot)."""
        m = self.match
        for _ in range(100_000):
            if m.is_over:
                return
            if m.turn == 1:
                self.step_enemy()
            else:
                m.apply(decide(m, player_agent, mix(seed, self.setup.seed, "player")))
        raise RuntimeError("the battle did not end")


@dataclass
class Run:
    seed: int
    general: str
    vices: tuple[str, ...]
    deck: list[str]
    hp: int
    max_hp: int
    gold: int
    tables: Tables
    tmap: TowerMap
    rules: TowerRules = DEFAULT_TOWER
    relics: list[str] = field(default_factory=list)
    floor: int = 0
    node: str | None = None  # the node stood on; None before a floor's first row
    screen: str = "map"
    status: str = "playing"  # playing, dead, won
    offer: list[str] = field(default_factory=list)  # card reward
    shop: dict[str, Any] = field(default_factory=dict)
    event: str = ""
    removals: int = 0
    seen_events: list[str] = field(default_factory=list)
    history: list[str] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    battle: Battle | None = None

    # --- creation ---------------------------------------------------------------

    @classmethod
    def new(
        cls,
        seed: int,
        general: str = "lionheart",
        vices: tuple[str, ...] = (),
        tables: Tables | None = None,
        rules: TowerRules = DEFAULT_TOWER,
        map_rules: MapRules = DEFAULT_MAP_RULES,
    ) -> Run:
        t = tables or Tables.load()
        for g in (general, *vices):
            if g not in t.cards or t.cards[g].kind != "general":
                raise TowerError(f"{g!r} is not a general in the card table")
        if general in vices or len(set(vices)) != len(vices) or len(vices) > 2:
            raise TowerError("up to 2 different vice generals, not the main general (R-SETUP-2)")
        deck = starter_deck(t.cards, general, rules.deck_min)  # R-TOWER-4
        problems = deck_problems(t.cards, general, vices, deck, (rules.deck_min, rules.deck_max))
        if problems:
            raise TowerError("; ".join(str(p) for p in problems))
        return cls(
            seed=seed,
            general=general,
            vices=tuple(vices),
            deck=deck,
            hp=rules.start_hp,
            max_hp=rules.start_hp,
            gold=rules.start_gold,
            tables=t,
            tmap=generate_map(seed, map_rules),
            rules=rules,
        )

    # --- queries ------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.status != "playing"

    def rng(self, purpose: str) -> random.Random:
        return random.Random(f"tower:{self.seed}:{len(self.history)}:{purpose}")

    def relic_total(self, effect: str) -> int:
        return total(self.tables.relics, self.relics, effect)

    def here(self) -> Node | None:
        return self.tmap.node(self.node) if self.node else None

    def reachable(self) -> list[Node]:
        """The nodes the player may go to now (R-TOWER-1)."""
        if self.screen != "map" or self.over:
            return []
        if self.node is None:
            return self.tmap.starts(self.floor)
        return self.tmap.children(self.node)

    def choices(self) -> list[str]:
        """Every legal choice now (battles: ``finish`` once the match is over)."""
        if self.over:
            return []
        if self.screen == "map":
            return [f"go {n.id}" for n in self.reachable()]
        if self.screen == "battle":
            return ["finish"] if self.battle is not None and self.battle.match.is_over else []
        return nodes.choices(self)

    # --- acting ---------------------------------------------------------------------

    def apply(self, choice: str) -> None:
        """Carry out one legal choice; raise :class:`TowerError` otherwise."""
        if choice not in self.choices():
            raise TowerError(f"{choice!r} is not a legal choice on the {self.screen} screen")
        verb, _, arg = choice.partition(" ")
        if verb == "go":
            self._go(self.tmap.node(arg))
        elif verb == "finish":
            self._finish_battle()
        else:
            nodes.apply(self, verb, arg)
        self.history.append(choice)

    def note(self, text: str) -> None:
        self.notes.append(text)

    def heal(self, n: int) -> int:
        """Heal up to max HP (R-COMBAT-6); the HP actually gained."""
        before = self.hp
        self.hp = min(self.max_hp, self.hp + max(0, n))
        return self.hp - before

    def raise_max_hp(self, n: int) -> None:
        """Max HP +n (HP follows, R-TOWER-3); lowering keeps at least 1."""
        self.max_hp = max(1, self.max_hp + n)
        self.hp = max(1, min(self.max_hp, self.hp + max(0, n)))

    def gain_relic(self, rid: str) -> None:
        """R-TOWER-6: a relic's run effects that act once (max HP) act on gain."""
        self.relics.append(rid)
        relic = self.tables.relics[rid]
        if relic.value("max_hp"):
            self.raise_max_hp(relic.value("max_hp"))
        self.note(f"获得遗物「{relic.name}」：{relic.text}")

    def _go(self, node: Node) -> None:
        self.node = node.id
        self.steps.append(
            Step(
                node.floor,
                node.row,
                node.kind,
                self.hp,
                self.hp,
                self.max_hp,
                self.gold,
                "",
                node.id,
            )
        )
        if node.kind in BATTLE_KINDS:
            self.battle = self._start_battle(node)
            self.screen = "battle"
        else:
            nodes.enter(self, node)

    # --- battles (R-TOWER-3, R-TOWER-7) ----------------------------------------------

    def _start_battle(self, node: Node) -> Battle:
        setup = battle_setup_for(self, node)
        return Battle(setup, build_match(self.tables.cards, setup))

    def _finish_battle(self) -> None:
        assert self.battle is not None
        m = self.battle.match
        kind = self.battle.setup.kind
        left = max(0, m.throne_hp(0))
        self.hp = min(left, self.max_hp)  # R-TOWER-3: the remainder is carried back
        step = self.steps[-1]
        self.battle = None
        if m.winner != 0:
            step.hp_after, step.result = self.hp, "lost"
            self.status = "dead"
            self.screen = "over"
            fell = "王座陷落" if self.hp == 0 else "未能取胜"
            self.note(f"{fell}（{m.result_text()}），爬塔结束。")
            return
        self.heal(self.relic_total("heal_after_battle"))
        step.hp_after, step.result = self.hp, "won"
        nodes.battle_rewards(self, kind)


def battle_setup_for(run: Run, node: Node) -> BattleSetup:
    """The battle of a node: the run's deck and throne against an enemy whose throne HP,
    AI and relics grow with the floor and the node kind (R-TOWER-7)."""
    db, rules = run.tables.cards, run.rules
    rng = run.rng("enemy")
    floor, kind = node.floor, node.kind
    generals = sorted(c.id for c in db.of("general") if c.race != db[run.general].race)
    general = rng.choice(generals or sorted(c.id for c in db.of("general")))
    from throne_lib.games.throne.decks import signature_deck

    enemy = signature_deck(db, general)
    count = rules.enemy_relic_count(kind, floor)
    pool = sorted(r.id for r in run.tables.relics.of(enemy=True))
    enemy_relics = tuple(rng.sample(pool, min(count, len(pool))))
    enemy_hp = rules.enemy_hp_for(kind, floor)
    if rules.weak_first_enemy_hp > 0 and not any(s.kind in BATTLE_KINDS for s in run.steps[:-1]):
        enemy_hp = rules.weak_first_enemy_hp  # designer cheat (docs/tower.md)

    def relic_sum(owned: tuple[str, ...] | list[str], effect: str) -> int:
        return total(run.tables.relics, owned, effect)

    enemy_max = enemy_hp + relic_sum(enemy_relics, "max_hp")
    mods = (
        SideMods(
            hp=run.hp,
            max_hp=run.max_hp,
            shield=relic_sum(run.relics, "opening_shield") > 0,
            armor=relic_sum(run.relics, "opening_armor"),
            draw=relic_sum(run.relics, "opening_draw"),
            barracks=extra_barracks(run, relic_sum(run.relics, "extra_barracks")),
        ),
        SideMods(
            hp=enemy_max,
            max_hp=enemy_max,
            shield=relic_sum(enemy_relics, "opening_shield") > 0,
            armor=relic_sum(enemy_relics, "opening_armor"),
            draw=relic_sum(enemy_relics, "opening_draw"),
        ),
    )
    return BattleSetup(
        kind=kind,
        node=node.id,
        floor=floor,
        seed=mix("battle", run.seed, len(run.history)),
        rules=DEFAULT_RULES,
        player=battle_setup(run.general, run.vices, run.deck),
        enemy=enemy,
        mods=mods,
        enemy_agent=rules.enemy_agent_for(kind, floor),
        enemy_relics=enemy_relics,
    )


def extra_barracks(run: Run, n: int) -> tuple[str, ...]:
    """The ``n`` extra opening barracks of relics: the race's military barracks in
    table order, repeating (R-OPEN-3: relics change the number)."""
    db = run.tables.cards
    race = db[run.general].race
    military = [c.id for c in db.of("barracks", race) if not c.is_production]
    military = military or [c.id for c in db.of("barracks", race)]
    return tuple(military[i % len(military)] for i in range(n)) if military else ()
