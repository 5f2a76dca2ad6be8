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

    throne --game castle balance suggest [--players 5] [budget, targets, --freeze ...]
    throne --game castle balance apply balance.parquet N [--cards cards-castle.csv]
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import random
import sys
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from throne_lib.kit.balance import (
    Budget,
    FieldSpec,
    Outcome,
    PlayTask,
    RulesField,
    SeatResult,
    Targets,
    base_values,
    parse_bounds,
    search_space,
    suggest,
)
from throne_lib.kit.balance_report import (
    apply_changes,
    proposal_changes,
    report_text,
    save_result,
)

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


@functools.lru_cache(maxsize=8)
def _cards(text: str) -> Any:
    from throne_lib.games.castle.cards import parse_castle_cards

    return parse_castle_cards(text)


def default_cards_path() -> Path:
    from throne_lib.games.castle.game import GAME

    return GAME.card_tables[0]


class CastleBalance:
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

        self.table = table
        self.rules = rules or CastleRules()
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
        self.knobs = dict(
            rules_knobs if rules_knobs is not None else default_rules_knobs(self.rules)
        )

    # --- fields ----------------------------------------------------------------------------

    def table_text(self) -> str:
        return self.table

    def card_fields(self) -> Mapping[str, FieldSpec]:
        return CARD_FIELDS

    def get_field(self, record: Mapping[str, str], name: str) -> int | None:
        text = record.get(name, "").strip()
        return int(text) if text.isdigit() else None

    def set_field(self, record: dict[str, str], name: str, value: int) -> None:
        record[name] = str(value)

    def rules_fields(self) -> Mapping[str, RulesField]:
        return {
            n: dataclasses.replace(f, base=getattr(self.rules, n)) for n, f in self.knobs.items()
        }

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

    def play(self, task: PlayTask) -> list[Outcome]:
        from throne_lib.games.castle.agents import RandomAgent, ScriptedAgent, play_match
        from throne_lib.games.castle.match import CastleMatch

        cards = _cards(task.table)
        rules = dataclasses.replace(self.rules, **dict(task.rules))
        make = ScriptedAgent if self.agent == "scripted" else RandomAgent
        out = []
        for item in task.items:
            assert isinstance(item, tuple)
            players, seed = int(item[0]), int(item[1])
            m = CastleMatch(players=players, seed=seed, rules=rules, cards=cards)
            play_match(m, [make(seed, seat) for seat in range(players)])
            seats: list[SeatResult] = []
            for p, r in zip(m.state.players, m.returns(), strict=True):
                score = 1.0 if r > 0 else 0.0 if r < 0 else 0.5
                seats.append(SeatResult(p.role, False, score))
                seats.append(SeatResult(p.hero, False, score))
            out.append(Outcome(tuple(seats), float(m.state.round)))
        return out


def default_rules_knobs(rules: Any) -> dict[str, RulesField]:
    return {
        n: RulesField(getattr(rules, n), max(0, getattr(rules, n) + lo), getattr(rules, n) + hi)
        for n, (lo, hi) in DEFAULT_RULES_KNOBS.items()
    }


def rules_knobs(entries: Sequence[str], rules: Any) -> dict[str, RulesField]:
    """``name`` or ``name=LOW:HIGH`` for any whole-number field of CastleRules."""
    defaults = default_rules_knobs(rules)
    out: dict[str, RulesField] = {}
    ints = {
        f.name
        for f in dataclasses.fields(rules)
        if type(getattr(rules, f.name)) is int  # not bool, not None
    }
    for entry in entries:
        name, _, rng = entry.partition("=")
        if name not in ints:
            raise ValueError(
                f"unknown rules parameter {name!r}; whole-number ones: {', '.join(sorted(ints))}"
            )
        base = getattr(rules, name)
        f = defaults.get(name, RulesField(base, max(0, base - 2), base + 2))
        if rng:
            lo, hi = _pair(rng, f"rules {name}")
            f = RulesField(base, int(lo), int(hi))
        if not f.low <= base <= f.high:
            raise ValueError(f"rules {name}: {f.low}:{f.high} does not contain today's {base}")
        out[name] = f
    return out


# --- command line -------------------------------------------------------------------------


def _pair(text: str, what: str) -> tuple[float, float]:
    try:
        lo, hi = text.split(":")
        return float(lo), float(hi)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} {text!r}: expected LOW:HIGH") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="throne --game castle balance",
        description="城堡之心: card-table and rules changes that even out role and hero win rates",
    )
    sub = p.add_subparsers(dest="sub", required=True, metavar="SUBCOMMAND")
    s = sub.add_parser("suggest", help="search for the smallest changes that meet the targets")
    s.add_argument("--cards", default=None, help="card table (default: cards-castle.csv)")
    s.add_argument("--players", type=int, default=5, help="player count of every match (3–8)")
    s.add_argument("--agent", default="scripted", choices=("scripted", "castle_random"))
    s.add_argument("--band", default="0.45:0.55", help="win-rate band per role and hero")
    s.add_argument("--length", default=None, help="mean match length in rounds (LOW:HIGH)")
    s.add_argument("--fields", default=None, help="card fields (default: hp,value,range)")
    s.add_argument("--rules", default=None, help="rules parameters (default: the 城主's; '' none)")
    s.add_argument("--bounds", action="append", default=[], help="FIELD=DOWN:UP, e.g. hp=-2:+2")
    s.add_argument(
        "--freeze", action="append", default=[], help="card, field, card.field or rules.X"
    )
    d = Budget()
    s.add_argument("--population", type=int, default=d.population)
    s.add_argument("--generations", type=int, default=d.generations)
    s.add_argument("--blocks", type=int, default=d.blocks, help="CRN blocks of the search")
    s.add_argument("--block-matches", type=int, default=8, help="matches per block")
    s.add_argument("--holdout-blocks", type=int, default=d.holdout_blocks)
    s.add_argument("--max-changes", type=int, default=d.max_changes)
    s.add_argument("--proposals", type=int, default=d.proposals)
    s.add_argument("--z", type=float, default=d.z)
    s.add_argument("--chunk", type=int, default=4, help="matches per worker task")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--backend", default="process", choices=("process", "dask", "serial"))
    s.add_argument("--workers", type=int, default=None)
    s.add_argument("--scheduler", default=None)
    s.add_argument("--out", default="balance-castle.parquet")
    s.add_argument("--report", default=None)
    s.add_argument("--apply", type=int, default=None, metavar="N")
    s.add_argument("--no-progress", action="store_true")
    a = sub.add_parser("apply", help="write a saved proposal into the card table")
    a.add_argument("results")
    a.add_argument("number", type=int)
    a.add_argument("--cards", default=None, help="card table (default: cards-castle.csv)")
    return p


def _path(arg: str | None) -> Path:
    return Path(arg) if arg else default_cards_path()


def _apply(
    game: CastleBalance, path: Path, new: dict[str, int], old: dict[str, int], n: int
) -> None:
    _, _, rules = apply_changes(game, path, new, old)
    print(f"proposal {n} written to {path}")
    for r in rules:
        print(f"rules change (not a card-table field; set it in CastleRules(...)): {r}")


def suggest_main(args: argparse.Namespace) -> int:
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    from throne_lib.games.castle.rules import CastleRules

    path = _path(args.cards)
    table = path.read_text(encoding="utf-8")
    lo, hi = _pair(args.band, "band")
    # no first-seat bound: the 城主 opens (CH-TURN-1), its edge is the 城主's win rate
    targets = Targets((lo, hi), 1.0, _pair(args.length, "length") if args.length else None)
    budget = Budget(
        args.population,
        args.generations,
        args.blocks,
        args.holdout_blocks,
        args.max_changes,
        proposals=args.proposals,
        z=args.z,
    )
    rules = CastleRules()
    names = (
        list(DEFAULT_RULES_KNOBS)
        if args.rules is None
        else [r for r in args.rules.split(",") if r.strip()]
    )
    knobs = rules_knobs(names, rules)
    game = CastleBalance(
        table, args.players, args.agent, rules, args.block_matches, rules_knobs=knobs
    )
    bounds = {}
    for entry in args.bounds:
        name, _, rng = entry.partition("=")
        bounds[name] = parse_bounds(rng)
    space = search_space(
        game,
        fields=args.fields.split(",") if args.fields else None,
        rules=list(knobs),
        bounds=bounds,
        freeze=args.freeze,
    )
    bar = tqdm(total=budget.generations + 1, disable=args.no_progress, desc="generations")

    def progress(h: dict[str, Any]) -> None:
        if not h.get("holdout"):
            bar.update(1)

    try:
        res = suggest(
            game, space, targets, budget, args.seed, args.backend, args.workers,
            args.scheduler, progress, args.chunk,
        )  # fmt: skip
    finally:
        bar.close()
    text = report_text(res, game.names)
    out = save_result(res, args.out)
    if args.report:
        Path(args.report).write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"\nproposals -> {out}")
    if args.apply is not None:
        p = res.proposal(args.apply)
        _apply(game, path, dict(p.changes), base_values(p.changes, space), args.apply)
    return 0


def apply_main(args: argparse.Namespace) -> int:
    import pandas as pd

    frame = pd.read_parquet(args.results, engine="pyarrow")
    new, old = proposal_changes(frame, args.number)
    path = _path(args.cards)
    game = CastleBalance(path.read_text(encoding="utf-8"))
    _apply(game, path, new, old, args.number)
    return 0


def balance_main(argv: Sequence[str] | None = None) -> int:
    """``throne --game castle balance …``: 0 success, 1 error (one line on stderr), 2 usage."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return suggest_main(args) if args.sub == "suggest" else apply_main(args)
    except (ValueError, OSError, argparse.ArgumentTypeError) as exc:
        print(f"throne balance: {exc}", file=sys.stderr)
        return 1
