"""PIN 架空战争's adapter to the kit's balance assistant (``throne --game pin balance``).

The groups are the decks (default: the starter decks of ``decks/pin/``, 铁砧联邦 and
辉穹圣约, PIN-START-3); a block is a few rounds in which the decks are paired at random
and seated at random (seat 0 is side 甲), every seat played by the scripted agent. The
first player is whoever wins the reveal (PIN-SETUP-4/-5), so the first-seat target is
measured as in Throne. The searchable card fields are the table's numbers: ``cost``
(deploy cost, lower is stronger), ``action_cost`` (lower is stronger), ``attack`` and
``hp`` (steps of 5, the table's grain), ``range`` (whole numbers; 全 is not a knob),
``actions`` and the keyword amounts ``ads``, ``shield``, ``mshield``, ``ward``,
``armor``. A card belongs to the decks that hold it (or whose HQ it is, or whose cards
name it in an effect, e.g. a 衍生 unit that ``spawn`` makes). Rules parameters offered
by default: the HQ's HP (PIN-HQ-1) and the opening hand (PIN-SETUP-2), whose effect on
either side the search finds out by playing.

    throne --game pin balance suggest [--decks anvil,aurora] [--block-rounds 4] [kit options]
    throne --game pin balance apply balance-pin.parquet N [--cards cards-pin.csv]

The command line is the kit's (:mod:`throne_lib.kit.balance_cli`); :data:`BALANCE` is
this game's part of it (the registry's ``balance`` hook).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from throne_lib.kit.balance import (
    FieldSpec,
    Outcome,
    PairingAdapter,
    RulesField,
    SeatResult,
)
from throne_lib.kit.balance_cli import BalanceHooks, first_table, table_parser
from throne_lib.kit.carddiff import Sheet

PLAIN_FIELDS: dict[str, FieldSpec] = {
    "cost": FieldSpec(-1, 1, 1, 0),
    "action_cost": FieldSpec(-1, 1, 1, 0),
    "attack": FieldSpec(+1, 10, 10, 0, step=5),
    "hp": FieldSpec(+1, 10, 10, 5, step=5),
    "range": FieldSpec(+1, 1, 1, 1),
    "actions": FieldSpec(+1, 1, 1, 1),
}
KEYWORD_FIELDS: dict[str, FieldSpec] = {
    "kw.ads": FieldSpec(+1, 1, 1, 1),
    **{f"kw.{k}": FieldSpec(+1, 10, 10, 5, step=5) for k in ("shield", "mshield", "ward", "armor")},
}
# (down, up, step) around today's value; the direction is unknown (first_sign 0)
DEFAULT_RULES_KNOBS: dict[str, tuple[int, int, int]] = {
    "hq_hp": (40, 40, 10),
    "opening_hand": (1, 1, 1),
}
RULES_ZH = {"hq_hp": "总部生命", "opening_hand": "起始手牌数"}
_ID = re.compile(r"[a-z][a-z0-9_]*")


_db = table_parser("pin")


def load_decks(words: Sequence[str] | None = None) -> dict[str, Any]:
    """Decks by group id: the starter decks, or each word a deck file or starter name
    (its file stem is the group id)."""
    from throne_lib.games.pin.decks import starter_decks
    from throne_lib.games.pin.game import resolve_setup

    if not words:
        return starter_decks()
    return {Path(w).stem: resolve_setup(w) for w in words}


def closure(records: Mapping[str, Mapping[str, str]], start: set[str]) -> frozenset[str]:
    """``start`` and every card an effect of a reached card names, to a fixed point."""
    todo, seen = set(start), set[str]()
    while todo:
        cid = todo.pop()
        if cid in seen or cid not in records:
            continue
        seen.add(cid)
        named = set(_ID.findall(records[cid].get("effects", "")))
        todo |= {n for n in named if n in records and n not in seen}
    return frozenset(seen)


def _parse_keywords(text: str) -> object:
    """PIN's keyword parser (imported when a keyword amount is written)."""
    from throne_lib.games.pin.words import parse_keywords

    return parse_keywords(text)


class PinBalance(PairingAdapter):
    """The adapter (:class:`throne_lib.kit.balance.BalanceGame`) for PIN 架空战争."""

    def __init__(
        self,
        table: str,
        decks: Mapping[str, Any] | None = None,
        agent: str = "standard",
        rules: Any = None,
        block_rounds: int = 4,
        rules_knobs: Mapping[str, RulesField] | None = None,
    ) -> None:
        from throne_lib.games.pin.rules import PIN_RULES

        rules = rules or PIN_RULES
        knobs = rules_knobs if rules_knobs is not None else default_rules_knobs(rules)
        fields = {**PLAIN_FIELDS, **KEYWORD_FIELDS}
        super().__init__(table, fields, rules, knobs, _parse_keywords)
        self.agent = agent
        self.block_rounds = block_rounds
        self.decks = dict(decks) if decks is not None else load_decks()
        if len(self.decks) < 2:
            raise ValueError(f"PIN balance needs at least two decks, not {sorted(self.decks)}")
        db = _db(table)
        records = {r["id"].strip(): r for r in Sheet.parse(table).records() if r.get("id")}
        self.closure = {g: closure(records, {d.hq, *d.cards}) for g, d in self.decks.items()}
        self.names = {c.id: c.name for c in db.values()}
        self.names.update(
            {g: d.main + (f"+{d.ally}" if d.ally else "") for g, d in self.decks.items()}
        )

    # --- matches ------------------------------------------------------------------------------

    def parse_table(self, text: str) -> Any:
        return _db(text)

    def play_match(self, cards: Any, rules: Any, item: Hashable) -> Outcome:
        """One match of the pairing ``item`` (seat 0: 甲), both seats the adapter's agent."""
        from throne_lib.games.pin.agents import play_pin
        from throne_lib.games.pin.game import GAME
        from throne_lib.kit.agents import make_agent

        assert isinstance(item, tuple)
        a, b, seed = str(item[0]), str(item[1]), int(item[2])
        m: Any = GAME.new_match(
            [self.decks[a], self.decks[b]], seed, {"cards": cards, "rules": rules}
        )
        play_pin(
            m,
            (
                make_agent(self.agent, 2 * seed, "pin"),
                make_agent(self.agent, 2 * seed + 1, "pin"),
            ),
        )
        st = m.state
        w = -1 if st.winner is None else st.winner
        seats = tuple(
            SeatResult(g, st.first == s, 0.5 if w < 0 else float(w == s))
            for s, g in enumerate((a, b))
        )
        return Outcome(seats, float(st.round))


def default_rules_knobs(rules: Any) -> dict[str, RulesField]:
    out = {}
    for n, (down, up, step) in DEFAULT_RULES_KNOBS.items():
        base = getattr(rules, n)
        out[n] = RulesField(
            base, max(step, base - down), base + up, step=step, label=RULES_ZH.get(n, "")
        )
    return out


# --- the kit's balance command line: this game's part -----------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("PIN 架空战争")
    g.add_argument(
        "--decks", default=None, help="deck files or starter names (default: the starter decks)"
    )
    g.add_argument("--block-rounds", type=int, default=4, help="pairings of the decks per block")


def make(table: str, args: argparse.Namespace) -> PinBalance:
    """The adapter for the parsed ``suggest`` options (``args.rules_knobs`` resolved)."""
    decks = load_decks(args.decks.split(",") if args.decks else None)
    return PinBalance(
        table, decks, args.agent, None, args.block_rounds, rules_knobs=args.rules_knobs
    )


def _rules() -> Any:
    from throne_lib.games.pin.rules import PIN_RULES

    return PIN_RULES


BALANCE = BalanceHooks(
    make=make,
    default_cards=first_table("pin"),
    rules=_rules,
    known_rules=default_rules_knobs,
    agents=("standard", "random"),
    default_agent="standard",
    groups="deck",
    add_arguments=add_arguments,
    out="balance-pin.parquet",
    freeze_hint="anv_hq, cost, aur_templars.hp, rules.hq_hp",
)
