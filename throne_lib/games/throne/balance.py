"""Throne & Phalanx's adapter to the kit's balance assistant, and ``throne balance``.

The groups are the 18 generals (each with its signature deck, R-DECK-7); a block of
matches is a few random rounds in which every general meets one other, seats drawn at
random (the match seed then decides who moves first, R-TURN-12). The searchable card
fields are cost, attack, HP and the keyword amounts (armor, siege, regen, grow,
heal_aura); the rules parameters offered by default are what the second seat gets on
its first turn (R-TURN-12's Reading). A match is replayed for a candidate only when the
candidate touches a card that match can reach (:func:`card_closure`).

    throne balance suggest [--budget knobs] [--freeze X ...] [--seed N] [--backend B]
                           [--out balance.parquet] [--report balance.txt] [--apply N]
    throne balance apply balance.parquet N [--cards PATH]

See ``docs/balance.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import random
import re
import sys
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from throne_lib.games.throne.cards import CardDB, parse_cards
from throne_lib.games.throne.decks import signature_deck
from throne_lib.games.throne.lang import parse_keywords
from throne_lib.games.throne.match import SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.games.throne.sim import throne_spec
from throne_lib.kit.agents import agent_names
from throne_lib.kit.balance import (
    BalanceGame,
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
from throne_lib.kit.sim import play_spec

if TYPE_CHECKING:
    from throne_lib.kit.balance_panel import SuggestPanel

PLAIN_FIELDS: dict[str, FieldSpec] = {
    "cost": FieldSpec(-1, 2, 2, 0),
    "attack": FieldSpec(+1, 2, 2, 0),
    "hp": FieldSpec(+1, 3, 3, 1),
}
KEYWORD_FIELDS: dict[str, FieldSpec] = {
    f"kw.{k}": FieldSpec(+1, 1, 1, 1) for k in ("armor", "siege", "regen", "grow", "heal_aura")
}
# What the second seat gets on its first turn (R-TURN-12): higher helps the second seat.
DEFAULT_RULES_KNOBS: dict[str, RulesField] = {
    "second_first_turn_mana": RulesField(0, 0, 3, first_sign=-1),
    "second_first_turn_draw": RulesField(0, 0, 2, first_sign=-1),
}


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


class ThroneBalance:
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
        self.table = table
        self.knobs = dict(DEFAULT_RULES_KNOBS if rules_knobs is None else rules_knobs)
        self.agent = agent
        self.params = tuple(sorted((params or {}).items()))
        self.rules = rules
        self.block_rounds = block_rounds
        db = _db(table)
        self.generals = list(generals) if generals else [c.id for c in db.of("general")]
        self._closure = {g: card_closure(db, signature_deck(db, g)) for g in self.generals}
        self.names = {c.id: c.name for c in db.values()}

    # --- fields ----------------------------------------------------------------------------

    def table_text(self) -> str:
        return self.table

    def card_fields(self) -> Mapping[str, FieldSpec]:
        return {**PLAIN_FIELDS, **KEYWORD_FIELDS}

    def get_field(self, record: Mapping[str, str], name: str) -> int | None:
        if name.startswith("kw."):
            m = re.search(rf"\b{re.escape(name[3:])}\((\d+)\)", record.get("keywords", ""))
            return int(m.group(1)) if m else None
        text = record.get(name, "").strip()
        return int(text) if text.lstrip("-").isdigit() else None

    def set_field(self, record: dict[str, str], name: str, value: int) -> None:
        if name.startswith("kw."):
            kw = name[3:]
            text, n = re.subn(rf"\b{re.escape(kw)}\(\d+\)", f"{kw}({value})", record["keywords"])
            if n != 1:
                raise ValueError(f"card {record.get('id')!r} has no keyword {kw}(N)")
            parse_keywords(text)  # still valid
            record["keywords"] = text
            return
        record[name] = str(value)

    def rules_fields(self) -> Mapping[str, RulesField]:
        return {
            name: dataclasses.replace(f, base=getattr(self.rules, name))
            for name, f in self.knobs.items()
        }

    # --- groups and matches -----------------------------------------------------------------

    def groups(self) -> Sequence[str]:
        return self.generals

    def card_groups(self, card_id: str) -> frozenset[str]:
        return frozenset(g for g, cards in self._closure.items() if card_id in cards)

    def block(self, rng: random.Random, seed0: int) -> list[Hashable]:
        """``block_rounds`` rounds, each a random pairing of all generals (one sits out
        when their number is odd), seats at random."""
        items: list[Hashable] = []
        for _ in range(self.block_rounds):
            order = list(self.generals)
            rng.shuffle(order)
            for a, b in zip(order[::2], order[1::2], strict=False):
                items.append((a, b, seed0 + len(items)))
        return items

    def item_cards(self, item: Hashable) -> frozenset[str] | None:
        assert isinstance(item, tuple)
        return self._closure[item[0]] | self._closure[item[1]]

    def play(self, task: PlayTask) -> list[Outcome]:
        db = _db(task.table)
        overrides: dict[str, Any] = dict(task.rules)
        rules = dataclasses.replace(self.rules, **overrides)
        out = []
        for item in task.items:
            assert isinstance(item, tuple)
            blue: str = item[0]
            red: str = item[1]
            seed: int = item[2]
            spec = throne_spec(
                0,
                seed,
                signature_deck(db, blue),
                signature_deck(db, red),
                (self.agent, self.agent),
                (self.params, self.params),
                rules,
            )
            _, row = play_spec(spec, db)
            w = row["winner"]
            seats = tuple(
                SeatResult(
                    row[f"{side}_general"],
                    row["first"] == side,
                    1.0 if w == side else 0.5 if w == "draw" else 0.0,
                )
                for side in ("blue", "red")
            )
            out.append(Outcome(seats, float(row["rounds"])))
        return out


def suggest_panel(
    cards: str | Path | None = None,
    backend: str = "process",
    agent: str = "standard",
    block_rounds: int = 2,
) -> SuggestPanel:
    """The balance dashboard's 「调平建议」 section for Throne & Phalanx (the live card
    table by default, so "apply" is picked up by every page watching it)."""
    from throne_lib.kit.balance_panel import SuggestPanel

    path = _cards_path(str(cards) if cards is not None else None)
    names = {c.id: c.name for c in parse_cards(path.read_text(encoding="utf-8")).values()}

    def make(text: str) -> ThroneBalance:
        return ThroneBalance(text, agent=agent, block_rounds=block_rounds)

    return SuggestPanel(make, path, names, backend)


# --- command line -------------------------------------------------------------------------


def _pair(text: str, what: str) -> tuple[float, float]:
    try:
        lo, hi = text.split(":")
        return float(lo), float(hi)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} {text!r}: expected LOW:HIGH") from None


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="throne balance", description="proposals of card-table changes that even out win rates"
    )
    sub = p.add_subparsers(dest="sub", required=True, metavar="SUBCOMMAND")
    s = sub.add_parser("suggest", help="search for the smallest changes that meet the targets")
    s.add_argument("--cards", default=None, help="card table (default: $THRONE_CARDS or cards.csv)")
    s.add_argument(
        "--agent", default="standard", choices=agent_names("throne"), help="agent of both seats"
    )
    s.add_argument("--iterations", type=int, default=None, help="search agent's budget")
    t = s.add_argument_group("targets")
    t.add_argument("--band", default="0.45:0.55", help="win-rate band per general (LOW:HIGH)")
    t.add_argument("--first-seat-max", type=float, default=0.55, help="bound on the first seat")
    t.add_argument("--length", default=None, help="mean match length in rounds (LOW:HIGH)")
    sp = s.add_argument_group("search space")
    sp.add_argument("--fields", default=None, help="card fields (default: all): cost,attack,…")
    sp.add_argument(
        "--rules", default=None, help="rules parameters (default: the second seat's; '' none)"
    )
    sp.add_argument("--bounds", action="append", default=[], help="FIELD=DOWN:UP, e.g. hp=-3:+3")
    sp.add_argument(
        "--freeze", action="append", default=[], help="card, field, card.field or rules.X"
    )
    sp.add_argument("--generals", default=None, help="only these generals (comma-separated)")
    b = s.add_argument_group("budget")
    d = Budget()
    b.add_argument("--population", type=int, default=d.population)
    b.add_argument("--generations", type=int, default=d.generations)
    b.add_argument("--blocks", type=int, default=d.blocks, help="CRN blocks of the search")
    b.add_argument(
        "--block-rounds", type=int, default=2, help="rounds (every general once) per block"
    )
    b.add_argument("--holdout-blocks", type=int, default=d.holdout_blocks)
    b.add_argument("--max-changes", type=int, default=d.max_changes)
    b.add_argument("--proposals", type=int, default=d.proposals, help="proposals shown")
    b.add_argument("--z", type=float, default=d.z, help="racing: one-sided z to drop a candidate")
    b.add_argument("--chunk", type=int, default=4, help="matches per worker task")
    s.add_argument("--seed", type=int, default=0)
    s.add_argument("--backend", default="process", choices=("process", "dask", "serial"))
    s.add_argument("--workers", type=int, default=None, help="default: all cores")
    s.add_argument("--scheduler", default=None, help="Dask scheduler address")
    s.add_argument("--out", default="balance.parquet", help="Parquet file of the proposals")
    s.add_argument("--report", default=None, help="also write the text report here")
    s.add_argument(
        "--apply", type=int, default=None, metavar="N", help="write proposal N into the table"
    )
    s.add_argument("--no-progress", action="store_true")
    a = sub.add_parser("apply", help="write a saved proposal into the card table")
    a.add_argument("results", help="Parquet file written by throne balance suggest")
    a.add_argument("number", type=int, help="proposal number")
    a.add_argument("--cards", default=None, help="card table (default: $THRONE_CARDS or cards.csv)")
    return p


def _cards_path(arg: str | None) -> Path:
    from throne_lib.games.throne.live import cards_path

    return Path(arg) if arg else cards_path()


def rules_knobs(names: Sequence[str], rules: Rules = DEFAULT_RULES) -> dict[str, RulesField]:
    """Rules parameters by name, ``name`` or ``name=LOW:HIGH`` (any whole-number field of
    :class:`Rules`; the second seat's two come with their direction known)."""
    out: dict[str, RulesField] = {}
    ints = {f.name for f in dataclasses.fields(Rules) if isinstance(getattr(rules, f.name), int)}
    for entry in names:
        name, _, rng = entry.partition("=")
        if name not in ints:
            raise ValueError(
                f"unknown rules parameter {name!r}; whole-number ones: {', '.join(sorted(ints))}"
            )
        base = getattr(rules, name)
        known = DEFAULT_RULES_KNOBS.get(name)
        low, high = (known.low, known.high) if known else (max(0, base - 2), base + 2)
        if rng:
            lo, hi = _pair(rng, f"rules {name}")
            low, high = int(lo), int(hi)
        if not low <= base <= high:
            raise ValueError(f"rules {name}: {low}:{high} does not contain today's value {base}")
        out[name] = RulesField(base, low, high, known.first_sign if known else 0)
    return out


def suggest_main(args: argparse.Namespace) -> int:
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    path = _cards_path(args.cards)
    table = path.read_text(encoding="utf-8")
    lo, hi = _pair(args.band, "band")
    targets = Targets(
        (lo, hi), args.first_seat_max, _pair(args.length, "length") if args.length else None
    )
    budget = Budget(
        args.population,
        args.generations,
        args.blocks,
        args.holdout_blocks,
        args.max_changes,
        proposals=args.proposals,
        z=args.z,
    )
    rule_names = (
        list(DEFAULT_RULES_KNOBS)
        if args.rules is None
        else [r for r in args.rules.split(",") if r.strip()]
    )
    knobs = rules_knobs(rule_names)
    params = {"iterations": args.iterations} if args.iterations else {}
    game = ThroneBalance(
        table,
        agent=args.agent,
        params=params,
        block_rounds=args.block_rounds,
        generals=args.generals.split(",") if args.generals else None,
        rules_knobs=knobs,
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
        if h.get("holdout"):
            bar.set_postfix_str(f"holdout done, {h['matches_played']} matches")
            return
        bar.update(1)
        bar.set_postfix_str(
            f"best {h['best_imbalance']:.3f} ({h['best_changes']} changes), "
            f"{h['matches_played']} matches"
        )

    try:
        res = suggest(
            game,
            space,
            targets,
            budget,
            args.seed,
            args.backend,
            args.workers,
            args.scheduler,
            progress,
            args.chunk,
        )
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


def _apply(
    game: BalanceGame, path: Path, new: dict[str, int], old: dict[str, int], number: int
) -> None:
    _, _, rules = apply_changes(game, path, new, old)
    print(f"proposal {number} written to {path}")
    for r in rules:
        print(f"rules change (not a card-table field; set it in Rules(...)): {r}")


def apply_main(args: argparse.Namespace) -> int:
    import pandas as pd

    frame = pd.read_parquet(args.results, engine="pyarrow")
    new, old = proposal_changes(frame, args.number)
    path = _cards_path(args.cards)
    game = ThroneBalance(path.read_text(encoding="utf-8"))
    _apply(game, path, new, old, args.number)
    return 0


def balance_main(argv: Sequence[str] | None = None) -> int:
    """``throne balance …``: 0 on success, 1 on an error (one line on stderr), 2 usage."""
    from throne_lib.games.throne.cards import CardTableError

    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return suggest_main(args) if args.sub == "suggest" else apply_main(args)
    except CardTableError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except (ValueError, OSError, argparse.ArgumentTypeError) as exc:
        print(f"throne balance: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(balance_main())
