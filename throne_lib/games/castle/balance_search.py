"""城堡之心's adapter to the kit's balance assistant, and ``throne --game castle balance``.

The groups are the four roles as the game seats them (城主/敌军/援军/中立, CH-ROLE-4) and
the ten heroes: each seat of a match scores once for its role and once for its hero
(+1 win, draw half, CH-WIN-*). A block is a few matches at a fixed player count (default
5), seeded; every seat is played by the scripted agent. The searchable card fields are
the table's numeric columns: ``hp`` (heroes and soldiers), ``value`` (a soldier's or an
item's mana price, CH-PREP-2) and ``range`` (a whole number; ∞ stays ∞). ``count`` is not
searched: the box must hold exactly its size (CH-DECK-1). Rules parameters offered by
default: what the 城主 gets on top (bonus HP, leadership, mana: CH-SETUP-6, CH-PREP-1/2).

Every card reaches every match (one shared box, CH-DECK-1), so every candidate replays
every match; common random numbers still hold (same seeds for all candidates).

    throne --game castle balance suggest [--players 5] [--block-matches 8] [kit options]
    throne --game castle balance apply balance.parquet N [--cards cards-castle.csv]

The command line is the kit's (:mod:`throne_lib.kit.balance_cli`); :data:`BALANCE` is
this game's part of it (the registry's ``balance`` hook).
"""

from __future__ import annotations

import argparse
import functools
import random
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from throne_lib.kit.balance import (
    CardTableAdapter,
    FieldSpec,
    Outcome,
    RulesField,
    SeatResult,
)
from throne_lib.kit.balance_cli import BalanceHooks

ROLES = ("lord", "enemy", "reinforcement", "neutral")
CARD_FIELDS: dict[str, FieldSpec] = {
    "hp": FieldSpec(+1, 1, 1, 1),
    "value": FieldSpec(-1, 1, 1, 1),  # a price: lower helps its owner
    "range": FieldSpec(+1, 1, 1, 1),
}
# What the 城主 gets beyond the others (higher helps the 城主).
DEFAULT_RULES_KNOBS: dict[str, tuple[int, int]] = {
    "lord_bonus_hp": (0, 2),
    "lord_leadership": (-1, 1),
    "lord_mana": (-2, 2),
}
RULES_ZH = {"lord_bonus_hp": "城主额外生命", "lord_leadership": "城主统率", "lord_mana": "城主法力"}


@functools.lru_cache(maxsize=8)
def _cards(text: str) -> Any:
    from throne_lib.games.castle.cards import parse_castle_cards

    return parse_castle_cards(text)


def default_cards_path() -> Path:
    from throne_lib.games.castle.game import GAME

    return GAME.card_tables[0]


class CastleBalance(CardTableAdapter):
    """The adapter (:class:`throne_lib.kit.balance.BalanceGame`) for 城堡之心."""

    def __init__(
        self,
        table: str,
        players: int = 5,
        agent: str = "scripted",
        rules: Any = None,
        block_matches: int = 8,
        rules_knobs: Mapping[str, RulesField] | None = None,
    ) -> None:
        from throne_lib.games.castle.rules import CastleRules

        rules = rules or CastleRules()
        knobs = rules_knobs if rules_knobs is not None else default_rules_knobs(rules)
        super().__init__(table, CARD_FIELDS, rules, knobs)  # no keyword fields
        self.rules.roles_for(players)  # a clear error for a player count outside the table
        self.players = players
        self.agent = agent
        self.block_matches = block_matches
        db = _cards(table)
        self.heroes = [c.id for c in db.cards.values() if c.kind == "hero"]
        self.names = {c.id: c.name for c in db.cards.values()}
        from throne_lib.games.castle.rules import ROLE_ZH

        self.names.update(ROLE_ZH)
        row = self.rules.roles_for(players)
        self.roles = [r for r, k in zip(ROLES, row, strict=True) if k > 0]

    # --- groups and matches -----------------------------------------------------------------

    def groups(self) -> Sequence[str]:
        return [*self.roles, *self.heroes]

    def card_groups(self, card_id: str) -> frozenset[str]:
        if card_id in self.heroes:
            return frozenset({card_id, *self.roles})
        return frozenset(self.groups())

    def block(self, rng: random.Random, seed0: int) -> list[Hashable]:
        return [(self.players, seed0 + i) for i in range(self.block_matches)]

    def item_cards(self, item: Hashable) -> frozenset[str] | None:
        return None  # one shared box: any card may be drawn

    def parse_table(self, text: str) -> Any:
        return _cards(text)

    def play_match(self, cards: Any, rules: Any, item: Hashable) -> Outcome:
        """One match of ``item`` (player count, seed), every seat the adapter's agent."""
        from throne_lib.games.castle.agents import RandomAgent, ScriptedAgent, play_match
        from throne_lib.games.castle.match import CastleMatch

        make = ScriptedAgent if self.agent == "scripted" else RandomAgent
        assert isinstance(item, tuple)
        players, seed = int(item[0]), int(item[1])
        m = CastleMatch(players=players, seed=seed, rules=rules, cards=cards)
        play_match(m, [make(seed, seat) for seat in range(players)])
        seats: list[SeatResult] = []
        for p, r in zip(m.state.players, m.returns(), strict=True):
            score = 1.0 if r > 0 else 0.0 if r < 0 else 0.5
            seats.append(SeatResult(p.role, False, score))
            seats.append(SeatResult(p.hero, False, score))
        return Outcome(tuple(seats), float(m.state.round))


def default_rules_knobs(rules: Any) -> dict[str, RulesField]:
    return {
        n: RulesField(
            getattr(rules, n),
            max(0, getattr(rules, n) + lo),
            getattr(rules, n) + hi,
            label=RULES_ZH.get(n, ""),
        )
        for n, (lo, hi) in DEFAULT_RULES_KNOBS.items()
    }


def rules_knobs(entries: Sequence[str], rules: Any) -> dict[str, RulesField]:
    """``name`` or ``name=LOW:HIGH`` for any whole-number field of CastleRules."""
    from throne_lib.kit.balance_cli import rules_knobs as knobs

    return knobs(entries, rules, default_rules_knobs(rules))


# --- the kit's balance command line: this game's part -----------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("城堡之心")
    g.add_argument("--players", type=int, default=5, help="player count of every match (3–8)")
    g.add_argument("--block-matches", type=int, default=8, help="matches per block")


def make(table: str, args: argparse.Namespace) -> CastleBalance:
    """The adapter for the parsed ``suggest`` options (``args.rules_knobs`` resolved)."""
    from throne_lib.games.castle.rules import CastleRules

    return CastleBalance(
        table,
        args.players,
        args.agent,
        CastleRules(),
        args.block_matches,
        rules_knobs=args.rules_knobs,
    )


def _rules() -> Any:
    from throne_lib.games.castle.rules import CastleRules

    return CastleRules()


BALANCE = BalanceHooks(
    make=make,
    default_cards=default_cards_path,
    rules=_rules,
    known_rules=default_rules_knobs,
    agents=("scripted", "castle_random"),
    default_agent="scripted",
    groups="role and hero",
    add_arguments=add_arguments,
    # no first-seat target: the 城主 always opens (CH-TURN-1); its edge is the 城主's rate
    first_seat=False,
    rules_type="CastleRules",
    out="balance-castle.parquet",
    freeze_hint="li_wei, hp, knight.value, rules.lord_mana",
)


def balance_main(argv: Sequence[str] | None = None) -> int:
    """``throne --game castle balance …`` (the kit's :func:`throne_lib.kit.balance_cli.main`)."""
    from throne_lib.kit.balance_cli import main

    return main(argv, "castle")
