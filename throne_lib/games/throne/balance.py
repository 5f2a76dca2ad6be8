"""Throne & Phalanx's adapter to the kit's balance assistant, and ``throne balance``.

The groups are the 18 generals (each with its signature deck, R-DECK-7); a block of
matches is a few random rounds in which every general meets one other, seats drawn at
random (the match seed then decides who moves first, R-TURN-12). The searchable card
fields are cost, attack, HP, the keyword amounts (armor, siege, regen, grow, heal_aura)
and the numbers of the effects column whose direction is clear (``fx.skill(mana)``, a
skill's price; ``fx.play.damage`` to enemies: :func:`effect_sign`), so each general's
own skill can be tuned; the rules parameters offered by default are what the second
seat gets on its first turn (R-TURN-12's Reading). A match is replayed for a candidate
only when the candidate touches a card that match can reach (:func:`card_closure`).

    throne balance suggest [--generals A,B,…] [--block-rounds N] [--iterations N] [kit options]
    throne balance apply balance.parquet N [--cards PATH]

The command line is the kit's (:mod:`throne_lib.kit.balance_cli`); :data:`BALANCE` is
this game's part of it (the registry's ``balance`` hook). See ``docs/balance.md``.
"""

from __future__ import annotations

import argparse
import functools
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from throne_lib.games.throne.cards import CardDB, parse_cards
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.effects import DEFAULTS, SPECS
from throne_lib.games.throne.lang import parse_effects, parse_keywords
from throne_lib.games.throne.match import SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.games.throne.sim import throne_spec
from throne_lib.kit.agents import agent_names
from throne_lib.kit.balance import (
    FieldSpec,
    Outcome,
    PairingAdapter,
    RulesField,
    SeatResult,
)
from throne_lib.kit.balance_cli import BalanceHooks
from throne_lib.kit.effectlang import Number
from throne_lib.kit.sim import play_spec

if TYPE_CHECKING:
    from throne_lib.kit.balance_panel import SuggestPanel

PLAIN_FIELDS: dict[str, FieldSpec] = {
    "cost": FieldSpec(-1, 2, 2, 0),
    "attack": FieldSpec(+1, 2, 2, 0),
    "hp": FieldSpec(+1, 3, 3, 1),
}
# The numbers of the effects column (fx.*, throne_lib.kit.balance.effect_numbers): a
# trigger's price (a skill's mana and HP) one step either way, an effect's amount one
# down or two up.
EFFECT_SPEC = FieldSpec(-1, 1, 1, 0)
AMOUNT_SPEC = FieldSpec(+1, 1, 2, 1)
KEYWORD_FIELDS: dict[str, FieldSpec] = {
    f"kw.{k}": FieldSpec(+1, 1, 1, 1) for k in ("armor", "siege", "regen", "grow", "heal_aura")
}
# What the second seat gets on its first turn (R-TURN-12): higher helps the second seat.
# Measured with the standard agent (docs/balance.md): the first seat wins 71% at mana 0,
# about 55% at 2, 52% at 3, 50% at 4; the extra draw barely moves it.
DEFAULT_RULES_KNOBS: dict[str, RulesField] = {
    "second_first_turn_mana": RulesField(0, 0, 4, first_sign=-1, label="后手首回合额外法力"),
    "second_first_turn_draw": RulesField(0, 0, 2, first_sign=-1, label="后手首回合额外抽牌"),
}


# Effects whose numbers help their targets, and those that hurt them; an effect with no
# target (draw, mana, summon, exhume) helps its owner. A number of any other effect, or
# aimed at units of both sides (``unit``, ``adjacent_units``), is not a knob: which way
# it makes the card stronger depends.
HELPS = frozenset({"heal", "buff", "max_hp", "armor", "give_regen", "advance"})
HURTS = frozenset({"damage", "retreat"})
OWNER = frozenset({"draw", "mana", "summon", "exhume"})
ENEMY_SIDE = frozenset(
    {
        "enemy",
        "enemy_unit",
        "enemy_barracks",
        "adjacent_enemies",
        "all_enemies",
        "row_enemies",
        "enemy_throne",
        "random_enemy",
    }
)
OWN_SIDE = frozenset(
    {
        "ally",
        "ally_unit",
        "ally_barracks",
        "self",
        "adjacent_allies",
        "adjacent_barracks",
        "adjacent_loadable",
        "all_allies",
        "own_throne",
    }
)
# A general card's cost and HP do nothing for its own side's throne (R-THRONE-1: the
# throne has the rules' HP; it is never paid for): they matter only where the card is
# in a deck (a vice general).
THRONE_DEAD_FIELDS = frozenset({"cost", "hp"})


def _effect_check(text: str) -> object:
    return parse_effects(text, SPECS, DEFAULTS)


def effect_sign(effects: str, number: Number) -> int:
    """Which way ``number`` of an effects cell makes its card stronger: +1, -1, or 0
    when it depends (see :data:`HELPS`). A trigger's own numbers (a skill's mana and HP)
    are its price: -1."""
    if number.param is not None:
        return -1
    call = number.call or ""
    if call in OWNER:
        return +1
    clauses = parse_effects(effects, SPECS, DEFAULTS)
    if number.clause >= len(clauses):
        return 0
    clause = clauses[number.clause]
    calls = [c for c in clause.calls if c.name == call]
    if len(calls) < number.occurrence:
        return 0
    who = [a for a in calls[number.occurrence - 1].args if isinstance(a, str)]
    side = 0
    for w in who:
        if w == "target":
            w = clause.chosen or ""
        side = +1 if w in OWN_SIDE else -1 if w in ENEMY_SIDE else 0
    if call in HELPS:
        return side
    if call in HURTS:
        return -side
    return 0


@functools.lru_cache(maxsize=8)
def _db(text: str) -> CardDB:
    return parse_cards(text)


def card_closure(db: CardDB, setup: SideSetup) -> frozenset[str]:
    """Every card a side can bring into a match: its general and deck, the barracks its
    opening may found (its race's and neutral, R-OPEN-3), its race's captains
    (R-BARRACKS-9), the buildings if an artisan can build (R-GOBLIN-2), and every card
    these name (tiers, captains, effect arguments), to a fixed point."""
    race = db[setup.general].race
    todo = {setup.general, *setup.deck}
    todo |= {c.id for c in db.of("barracks") if c.race in (race, "neutral")}
    todo |= {c.id for c in db.of("captain", race)}
    seen: set[str] = set()
    buildings = False
    while todo:
        cid = todo.pop()
        if cid in seen or cid not in db:
            continue
        seen.add(cid)
        card = db[cid]
        named = [*card.tiers, *card.captains]
        for clause in card.effects:
            for call in clause.calls:
                named += [a for a in call.args if isinstance(a, str)]
        todo |= {n for n in named if n in db and n not in seen}
        if any(k == "artisan" for k, _ in card.keywords) and not buildings:
            buildings = True
            todo |= {c.id for c in db.of("building")}
    return frozenset(seen)


class ThroneBalance(PairingAdapter):
    """The adapter (:class:`throne_lib.kit.balance.BalanceGame`) for Throne & Phalanx."""

    def __init__(
        self,
        table: str,
        agent: str = "standard",
        params: Mapping[str, Any] | None = None,
        rules: Rules = DEFAULT_RULES,
        block_rounds: int = 2,
        generals: Sequence[str] | None = None,
        rules_knobs: Mapping[str, RulesField] | None = None,
    ) -> None:
        knobs = DEFAULT_RULES_KNOBS if rules_knobs is None else rules_knobs
        super().__init__(
            table,
            {**PLAIN_FIELDS, **KEYWORD_FIELDS},
            rules,
            knobs,
            parse_keywords,
            _effect_check,
            EFFECT_SPEC,
            AMOUNT_SPEC,
        )
        self.agent = agent
        self.params = tuple(sorted((params or {}).items()))
        self.block_rounds = block_rounds
        db = _db(table)
        self.generals = list(generals) if generals else [c.id for c in db.of("general")]
        decks = {g: signature_deck(db, g) for g in self.generals}
        self.closure = {g: card_closure(db, d) for g, d in decks.items()}
        self._decks = {g: frozenset(d.deck) for g, d in decks.items()}
        self.names = {c.id: c.name for c in db.values()}

    def effect_sign(self, record: Mapping[str, str], number: Number) -> int:
        return effect_sign(record.get("effects", ""), number)

    def field_groups(self, card_id: str, name: str) -> frozenset[str]:
        """A card's groups, less, for a general card's cost and HP
        (:data:`THRONE_DEAD_FIELDS`), the general whose throne it is, unless that general
        also has the card in its deck."""
        groups = self.card_groups(card_id)
        own = card_id in groups and card_id not in self._decks.get(card_id, frozenset())
        return groups - {card_id} if name in THRONE_DEAD_FIELDS and own else groups

    # --- matches ------------------------------------------------------------------------------

    def parse_table(self, text: str) -> CardDB:
        return _db(text)

    def play_match(self, cards: CardDB, rules: Rules, item: Hashable) -> Outcome:
        assert isinstance(item, tuple)
        blue: str = item[0]
        red: str = item[1]
        seed: int = item[2]
        spec = throne_spec(
            0,
            seed,
            signature_deck(cards, blue),
            signature_deck(cards, red),
            (self.agent, self.agent),
            (self.params, self.params),
            rules,
        )
        _, row = play_spec(spec, cards)
        w = row["winner"]
        seats = tuple(
            SeatResult(
                row[f"{side}_general"],
                row["first"] == side,
                1.0 if w == side else 0.5 if w == "draw" else 0.0,
            )
            for side in ("blue", "red")
        )
        return Outcome(seats, float(row["rounds"]))


def suggest_panel(
    cards: str | Path | None = None,
    backend: str = "process",
    agent: str = "standard",
    block_rounds: int = 2,
) -> SuggestPanel:
    """The balance dashboard's 「调平建议」 section for Throne & Phalanx (the kit's
    :func:`~throne_lib.kit.balance_cli.suggest_panel` for this game)."""
    from throne_lib.kit.balance_cli import suggest_panel as panel

    return panel("throne", cards, backend, agent=agent, block_rounds=block_rounds)


# --- the kit's balance command line: this game's part -----------------------------------------


def _cards_path() -> Path:
    from throne_lib.games.throne.live import cards_path

    return cards_path()


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("王座与方阵")
    g.add_argument("--generals", default=None, help="only these generals (comma-separated)")
    g.add_argument(
        "--block-rounds", type=int, default=2, help="rounds (every general once) per block"
    )
    g.add_argument("--iterations", type=int, default=None, help="search agent's budget")


def make(table: str, args: argparse.Namespace) -> ThroneBalance:
    """The adapter for the parsed ``suggest`` options (``args.rules_knobs`` resolved)."""
    return ThroneBalance(
        table,
        agent=args.agent,
        params={"iterations": args.iterations} if args.iterations else {},
        block_rounds=args.block_rounds,
        generals=args.generals.split(",") if args.generals else None,
        rules_knobs=args.rules_knobs,
    )


def rules_knobs(names: Sequence[str], rules: Rules = DEFAULT_RULES) -> dict[str, RulesField]:
    """Rules parameters by name, ``name`` or ``name=LOW:HIGH`` (any whole-number field of
    :class:`Rules`; the second seat's two come with their direction known)."""
    from throne_lib.kit.balance_cli import rules_knobs as knobs

    return knobs(names, rules, DEFAULT_RULES_KNOBS)


BALANCE = BalanceHooks(
    make=make,
    default_cards=_cards_path,
    rules=lambda: DEFAULT_RULES,
    known_rules=lambda rules: DEFAULT_RULES_KNOBS,
    agents=agent_names("throne"),
    default_agent="standard",
    groups="general",
    add_arguments=add_arguments,
    freeze_hint="lionheart, cost, iron_duke.hp",
)


def balance_main(argv: Sequence[str] | None = None) -> int:
    """``throne balance …`` (the kit's :func:`throne_lib.kit.balance_cli.main`)."""
    from throne_lib.kit.balance_cli import main

    return main(argv, "throne")


if __name__ == "__main__":
    raise SystemExit(balance_main())
