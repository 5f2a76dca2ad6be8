"""城堡之心's adapter to the kit's balance assistant, and ``throne --game castle balance``.

The groups are (seat count, role) pairs — each camp's win rate at each player count the
designer names (``--players 4,5,6,7,8``; CH-ROLE-4 seats 城主/敌军/援军/中立 by the count) —
keyed ``ROLE@N`` (``lord@5``, shown 「5人·城主」); ``--hero-groups`` adds the ten heroes
(over every seat count). Each seat of a match scores once for its role (and once for its
hero): +1 win, draw half (CH-WIN-*). A block is ``--block-matches`` seeded matches at
each player count; every seat is played by the scripted agent. The designer's band
(``--camp-band 40,60``) applies to every group.

The searchable card fields are the table's numeric columns: ``hp`` (heroes and soldiers),
``value`` (a soldier's or an item's mana price, CH-PREP-2) and ``range`` (a whole number;
∞ stays ∞). ``count`` is not searched: the box must hold exactly its size (CH-DECK-1).
Rules parameters offered by default: what the 城主 gets on top (bonus HP, leadership, mana:
CH-SETUP-6, CH-PREP-1/2), which helps the castle camp (城主 and 援军) at every seat count,
and ``roles_N``, the role table's row at N seats (CH-ROLE-4's Reading), for each N played
that has more than one row CH-ROLE-3 allows: an index into :func:`legal_role_rows` (the
castle camp's weakest row first), so every value is a legal table. Rows that seat no 援军
or no 中立 are among them: a role that a row deals no seat of counts as a camp that wins
no match (one seat scoring 0 in each match), so a search cannot lower the imbalance by
dealing a losing camp out of the game (run C2 of docs/balance.md did, before this).

Every card reaches every match (one shared box, CH-DECK-1), so every candidate replays
every match; common random numbers still hold (same seeds for all candidates).

    throne --game castle balance suggest --players 4,5,6,7,8 --camp-band 40,60 [kit options]
    throne --game castle balance apply balance-castle.parquet N [--cards cards-castle.csv]

The command line is the kit's (:mod:`throne_lib.kit.balance_cli`); :data:`BALANCE` is
this game's part of it (the registry's ``balance`` hook).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from throne_lib.games.castle.rules import (
    ROLE_ZH,
    ROLES,
    CastleRules,
    legal_role_rows,
)
from throne_lib.kit.balance import (
    CardTableAdapter,
    FieldSpec,
    Outcome,
    PlayTask,
    RulesField,
    SeatResult,
)
from throne_lib.kit.balance_cli import BalanceHooks, first_table, table_parser

CARD_FIELDS: dict[str, FieldSpec] = {
    "hp": FieldSpec(+1, 1, 1, 1),
    "value": FieldSpec(-1, 1, 1, 1),  # a price: lower helps its owner
    "range": FieldSpec(+1, 1, 1, 1),
}
# What the 城主 gets beyond the others (higher helps the castle camp); wider ranges by
# ``--rules lord_mana=8:16`` (docs/balance.md's 城堡之心 run does).
DEFAULT_RULES_KNOBS: dict[str, tuple[int, int]] = {
    "lord_bonus_hp": (0, 2),
    "lord_leadership": (-1, 1),
    "lord_mana": (-2, 2),
}
RULES_ZH = {"lord_bonus_hp": "城主额外生命", "lord_leadership": "城主统率", "lord_mana": "城主法力"}
ROLE_KNOB = "roles_"  # roles_N: the role table's row at N seats (an index, see above)
CASTLE_CAMP = ("lord", "reinforcement")  # CH-ROLE-6: they win or lose together


def camp_group(players: int, role: str) -> str:
    """The group key of ``role`` at ``players`` seats: ``lord@5``."""
    return f"{role}@{players}"


def role_knob(players: int) -> str:
    return f"{ROLE_KNOB}{players}"


def row_text(row: Sequence[int]) -> str:
    """A role-table row in the game's words: ``城主1 敌军3 援军1 中立0``."""
    return " ".join(f"{ROLE_ZH[r]}{k}" for r, k in zip(ROLES, row, strict=True))


def role_knob_players(name: str) -> int | None:
    """N of ``roles_N``; None for any other parameter name."""
    tail = name.removeprefix(ROLE_KNOB)
    return int(tail) if name.startswith(ROLE_KNOB) and tail.isdigit() else None


def parse_players(text: str | int | Sequence[int]) -> tuple[int, ...]:
    """``5``, ``4,5,6`` or ``4-8`` (or a number, or numbers) as sorted seat counts."""
    if isinstance(text, int):
        return (text,)
    if not isinstance(text, str):
        return tuple(sorted({int(x) for x in text}))
    out: set[int] = set()
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            out.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"players {text!r}: expected seat counts, e.g. 5, 4,5,6 or 4-8"
        ) from None
    if not out:
        raise argparse.ArgumentTypeError(f"players {text!r}: no seat count")
    return tuple(sorted(out))


_cards = table_parser("castle")


class CastleBalance(CardTableAdapter):
    """The adapter (:class:`throne_lib.kit.balance.BalanceGame`) for 城堡之心: groups are
    (seat count, role) pairs of ``players`` (a count or several), and with
    ``hero_groups`` the heroes."""

    def __init__(
        self,
        table: str,
        players: int | Sequence[int] = 5,
        agent: str = "scripted",
        rules: CastleRules | None = None,
        block_matches: int = 8,
        rules_knobs: Mapping[str, RulesField] | None = None,
        hero_groups: bool = False,
    ) -> None:
        rules = rules or CastleRules()
        self.players = parse_players(players)
        for n in self.players:
            rules.roles_for(n)  # a clear error for a player count outside the table
        knobs = (
            dict(rules_knobs)
            if rules_knobs is not None
            else default_rules_knobs(rules, self.players)
        )
        for name in knobs:
            seats = role_knob_players(name)
            if seats is not None and seats not in self.players:
                raise ValueError(
                    f"rules {name}: the role table at {seats} seats, but the matches seat "
                    f"{', '.join(map(str, self.players))} (--players)"
                )
        super().__init__(table, CARD_FIELDS, rules, knobs)  # no keyword fields
        if block_matches < 1:
            raise ValueError(f"block_matches {block_matches}: expected at least 1")
        self.agent = agent
        self.block_matches = block_matches
        self.hero_groups = hero_groups
        db = _cards(table)
        self.heroes = [c.id for c in db.cards.values() if c.kind == "hero"]
        self.names = {c.id: c.name for c in db.cards.values()}
        self.camps: list[str] = []
        self.roles_at: dict[int, list[str]] = {}
        for n in self.players:
            rows = [rules.roles_for(n)]
            if role_knob(n) in knobs:
                f = knobs[role_knob(n)]
                rows += legal_role_rows(n)[f.low : f.high + 1]
            for i, role in enumerate(ROLES):
                if any(row[i] > 0 for row in rows):
                    key = camp_group(n, role)
                    self.camps.append(key)
                    self.roles_at.setdefault(n, []).append(role)
                    self.names[key] = f"{n}人·{ROLE_ZH[role]}"
        for name in knobs:
            if name in RULES_ZH:
                self.names[f"rules.{name}"] = RULES_ZH[name]
            seats = role_knob_players(name)
            if seats is not None:
                self.names[f"rules.{name}"] = f"{seats}人身份表"
                for i, row in enumerate(legal_role_rows(seats)):
                    self.names[f"rules.{name}={i}"] = row_text(row)

    # --- rules parameters: the 城主's extras, and the role table's rows ------------------------

    def rules_fields(self) -> Mapping[str, RulesField]:
        """The offered parameters with today's value as base; the 城主's extras and a
        role row help the castle camp (城主 and 援军) at their seat counts."""
        out: dict[str, RulesField] = {}
        for name, f in self.knobs.items():
            n = role_knob_players(name)
            if n is not None:
                base = legal_role_rows(n).index(self.rules.roles_for(n))
                counts: Sequence[int] = (n,)
            else:
                base = getattr(self.rules, name)
                counts = self.players if name in DEFAULT_RULES_KNOBS else ()
            groups = frozenset(camp_group(c, r) for c in counts for r in CASTLE_CAMP)
            out[name] = replace(f, base=base, groups=groups & frozenset(self.camps))
        return out

    def rules_of(self, overrides: Mapping[str, int]) -> CastleRules:
        """The rules with a task's overrides: ``roles_N`` sets the role table's row at N."""
        plain = {k: v for k, v in overrides.items() if role_knob_players(k) is None}
        table = dict(self.rules.role_table)
        for name, index in overrides.items():
            n = role_knob_players(name)
            if n is not None:
                rows = legal_role_rows(n)
                if not 0 <= index < len(rows):
                    raise ValueError(f"rules {name}={index}: expected 0 to {len(rows) - 1}")
                table[n] = rows[index]
        rules: CastleRules = replace(self.rules, role_table=table, **plain)
        return rules

    # --- groups and matches -----------------------------------------------------------------

    def groups(self) -> Sequence[str]:
        return [*self.camps, *(self.heroes if self.hero_groups else [])]

    def card_groups(self, card_id: str) -> frozenset[str]:
        return frozenset(self.groups())  # any hero may hold any role; one shared box

    def block(self, rng: random.Random, seed0: int) -> list[Hashable]:
        """``block_matches`` matches at each seat count: items (players, seed)."""
        return [
            (n, seed0 + k * self.block_matches + i)
            for k, n in enumerate(self.players)
            for i in range(self.block_matches)
        ]

    def item_cards(self, item: Hashable) -> frozenset[str] | None:
        return None  # one shared box: any card may be drawn

    def parse_table(self, text: str) -> Any:
        return _cards(text)

    def play(self, task: PlayTask) -> list[Outcome]:
        cards = self.parse_table(task.table)
        rules = self.rules_of(dict(task.rules))
        return [self.play_match(cards, rules, item) for item in task.items]

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
            seats.append(SeatResult(camp_group(players, p.role), False, score))
            if self.hero_groups:
                seats.append(SeatResult(p.hero, False, score))
        dealt = {p.role for p in m.state.players}
        for role in self.roles_at.get(players, ()):
            if role not in dealt:  # a camp dealt out of the game wins no match
                seats.append(SeatResult(camp_group(players, role), False, 0.0))
        return Outcome(tuple(seats), float(m.state.round))


def default_rules_knobs(
    rules: CastleRules, players: Sequence[int] = range(3, 9)
) -> dict[str, RulesField]:
    """The 城主's extras (:data:`DEFAULT_RULES_KNOBS`) and ``roles_N`` for each of
    ``players`` with more than one legal row (every row CH-ROLE-3 allows)."""
    out = {
        n: RulesField(
            getattr(rules, n),
            max(0, getattr(rules, n) + lo),
            getattr(rules, n) + hi,
            label=RULES_ZH.get(n, ""),
        )
        for n, (lo, hi) in DEFAULT_RULES_KNOBS.items()
    }
    for n in players:
        rows = legal_role_rows(n)
        if len(rows) > 1 and rules.min_players <= n <= rules.max_players:
            base = rows.index(rules.roles_for(n))
            out[role_knob(n)] = RulesField(base, 0, len(rows) - 1, label=f"{n}人身份表")
    return out


def rules_knobs(entries: Sequence[str], rules: CastleRules) -> dict[str, RulesField]:
    """``name`` or ``name=LOW:HIGH`` for any whole-number field of CastleRules, or
    ``roles_N`` (an index into :func:`legal_role_rows` of N)."""
    from throne_lib.kit.balance_cli import rules_knobs as knobs

    return knobs(entries, rules, default_rules_knobs(rules))


# --- the kit's balance command line: this game's part -----------------------------------------


def add_arguments(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("城堡之心")
    g.add_argument(
        "--players",
        type=parse_players,
        default=(5,),
        help="seat counts of the matches: 5, 4,5,6,7,8 or 4-8 (3–8; default 5); the groups "
        "are each role at each count",
    )
    g.add_argument("--block-matches", type=int, default=8, help="matches per seat count and block")
    g.add_argument(
        "--hero-groups",
        action="store_true",
        help="also balance the ten heroes (over every seat count) against the band",
    )


def make(table: str, args: argparse.Namespace) -> CastleBalance:
    """The adapter for the parsed ``suggest`` options (``args.rules_knobs`` resolved).
    The default parameters keep only the role tables of the seat counts played."""
    players = parse_players(args.players)
    if getattr(args, "rules", None) is None:
        args.rules_knobs = {
            k: f
            for k, f in args.rules_knobs.items()
            if role_knob_players(k) is None or role_knob_players(k) in players
        }
    return CastleBalance(
        table,
        players,
        args.agent,
        CastleRules(),
        args.block_matches,
        rules_knobs=args.rules_knobs,
        hero_groups=bool(getattr(args, "hero_groups", False)),
    )


def _rules() -> CastleRules:
    return CastleRules()


BALANCE = BalanceHooks(
    make=make,
    default_cards=first_table("castle"),
    rules=_rules,
    known_rules=default_rules_knobs,
    agents=("scripted", "castle_random"),
    default_agent="scripted",
    groups="(seat count, role)",
    add_arguments=add_arguments,
    # no first-seat target: the 城主 always opens (CH-TURN-1); its edge is the 城主's rate
    first_seat=False,
    rules_type="CastleRules",
    out="balance-castle.parquet",
    freeze_hint="li_wei, hp, knight.value, rules.lord_mana, rules.roles_7",
    band_alias="--camp-band",
)


def balance_main(argv: Sequence[str] | None = None) -> int:
    """``throne --game castle balance …`` (the kit's :func:`throne_lib.kit.balance_cli.main`)."""
    from throne_lib.kit.balance_cli import main

    return main(argv, "castle")
