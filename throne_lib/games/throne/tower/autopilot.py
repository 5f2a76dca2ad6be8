"""The designers' autopilot: whole tower runs played by the AI, and a report of how
far they get (floor reached, HP curve, deaths by node), to tune the tower.

    throne tower simulate --runs 20 [--seed 0] [--general lionheart] [--agent standard]
                          [--json FILE]

The autopilot's choices are a pure function of the run (ties broken by a seeded
RNG), battles are played by ``--agent`` against the tower's enemy AI, so a
simulation is reproducible from its seeds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from statistics import mean
from typing import Any

from throne_lib.games.throne.tower.config import DEFAULT_TOWER, TowerRules
from throne_lib.games.throne.tower.map import KIND_ZH
from throne_lib.games.throne.tower.run import Run, Tables, TowerError
from throne_lib.games.throne.tower.save import save_run


def card_score(run: Run, cid: str) -> float:
    card = run.tables.cards[cid]
    try:
        from throne_lib.games.throne.ai.standard import card_value

        return float(card_value(card))
    except ImportError:  # pragma: no cover - the AI module is another engineer's
        return float(card.cost + card.attack + card.hp)


def _node_score(run: Run, kind: str) -> float:
    ratio = run.hp / max(1, run.max_hp)
    heal_price = run.rules.shop_heal_price
    if ratio < 0.5:
        table = {"campfire": 6, "chest": 4, "shop": 3 if run.gold >= heal_price else 0,
                 "event": 2, "battle": 1, "elite": -3}  # fmt: skip
    else:
        table = {"chest": 4, "elite": 3 if ratio > 0.75 else 0, "battle": 2, "event": 2,
                 "shop": 3 if run.gold >= 150 else 1, "campfire": 1}  # fmt: skip
    return float(table.get(kind, 0))


def _event_score(run: Run, effects: Sequence[Any]) -> float:
    ratio = run.hp / max(1, run.max_hp)
    score = 0.0
    for c in effects:
        weight = {"heal": 1.5 - ratio, "damage": -(2.0 - ratio), "gold": 0.1, "max_hp": 1.0,
                  "relic": 25.0, "card": 8.0, "remove_card": 3.0}.get(c.name, 0.0)  # fmt: skip
        score += weight * (c.value if c.value else 1)
    return score


def choose(run: Run, rng: random.Random) -> str:
    """The autopilot's choice on a non-battle screen."""
    options = run.choices()
    if run.screen == "map":
        return max(
            options, key=lambda o: (_node_score(run, run.tmap.node(o[3:]).kind), rng.random())
        )
    if run.screen == "reward":
        picks = [o for o in options if o.startswith("pick ")]
        if not picks:
            return "skip"
        return max(picks, key=lambda o: card_score(run, o[5:]))
    if run.screen == "campfire":
        return "rest" if run.hp < 0.7 * run.max_hp else "fortify"
    if run.screen == "event":
        ev = run.tables.events[run.event]
        return max(options, key=lambda o: _event_score(run, ev.options[int(o[7:]) - 1].effects))
    if run.screen == "shop":
        if "heal" in options and run.hp < 0.5 * run.max_hp:
            return "heal"
        relics = [o for o in options if o.startswith("relic ")]
        if relics:
            return relics[0]
        buys = [o for o in options if o.startswith("buy ")]
        if buys and run.gold > 80:
            return max(buys, key=lambda o: card_score(run, o[4:]))
        return "leave"
    raise TowerError(f"no autopilot choice on the {run.screen} screen")


@dataclass
class RunReport:
    seed: int
    won: bool
    floor: int  # floors reached, 1-based
    nodes: int
    death: str  # "floor.row kind" of the death node, "" if won
    hp_curve: list[int] = field(default_factory=list)
    steps: list[dict[str, Any]] = field(default_factory=list)
    relics: list[str] = field(default_factory=list)
    deck: int = 0
    gold: int = 0


def play_run(
    seed: int,
    general: str = "lionheart",
    agent: str = "standard",
    tables: Tables | None = None,
    rules: TowerRules = DEFAULT_TOWER,
    save: str | None = None,
) -> tuple[Run, RunReport]:
    """Play one whole run with the autopilot (saving after every step if ``save``)."""
    run = Run.new(seed, general, tables=tables, rules=rules)
    rng = random.Random(f"autopilot:{seed}")
    while not run.over:
        if run.screen == "battle":
            assert run.battle is not None
            run.battle.play_out(agent, seed)
            run.apply("finish")
        else:
            run.apply(choose(run, rng))
        if save:
            save_run(run, save)
    last = run.steps[-1]
    report = RunReport(
        seed=seed,
        won=run.status == "won",
        floor=run.floor + 1,
        nodes=len(run.steps),
        death="" if run.status == "won" else f"{last.floor + 1}.{last.row + 1} {last.kind}",
        hp_curve=[s.hp_after for s in run.steps],
        steps=[s.to_dict() for s in run.steps],
        relics=list(run.relics),
        deck=len(run.deck),
        gold=run.gold,
    )
    return run, report


def simulate(runs: int, seed: int = 0, **kwargs: Any) -> list[RunReport]:
    tables = kwargs.pop("tables", None) or Tables.load()
    return [play_run(seed + i, tables=tables, **kwargs)[1] for i in range(runs)]


def summary(reports: Sequence[RunReport]) -> str:
    """A designer's text report of a simulation."""
    n = len(reports)
    lines = [
        f"{n} runs · {sum(r.won for r in reports)} won ({100 * sum(r.won for r in reports) // max(1, n)}%)"
    ]
    floors = Counter(r.floor for r in reports if not r.won)
    lines.append(
        "died on floor: " + (", ".join(f"{f}: {k}" for f, k in sorted(floors.items())) or "-")
    )
    kinds = Counter(r.death.split()[1] for r in reports if r.death)
    lines.append(
        "deaths by node: "
        + (", ".join(f"{KIND_ZH[k]}({k}) {v}" for k, v in kinds.most_common()) or "-")
    )
    where = Counter(r.death for r in reports if r.death)
    lines.append(
        "deadliest nodes (floor.row kind): "
        + (", ".join(f"{w} ×{v}" for w, v in where.most_common(5)) or "-")
    )
    lines.append(
        f"nodes visited: mean {mean(r.nodes for r in reports):.1f}, max {max(r.nodes for r in reports)}"
    )
    by_row: dict[tuple[int, int], list[int]] = defaultdict(list)
    for r in reports:
        for s in r.steps:
            by_row[(s["floor"], s["row"])].append(s["hp_after"])
    lines.append("HP curve (mean throne HP after each row / runs that reached it):")
    for floor in sorted({f for f, _ in by_row}):
        cells = [
            f"{mean(by_row[(floor, row)]):5.1f}/{len(by_row[(floor, row)]):<2d}"
            for row in sorted(r for f, r in by_row if f == floor)
        ]
        lines.append(f"  floor {floor + 1}: " + " ".join(cells))
    lines.append(
        f"relics at the end: mean {mean(len(r.relics) for r in reports):.1f}; deck size: mean {mean(r.deck for r in reports):.1f}"
    )
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="throne tower", description="王座之塔 tools")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sim = sub.add_parser("simulate", help="play whole runs with the autopilot and report")
    sim.add_argument("--runs", type=int, default=20)
    sim.add_argument(
        "--seed", type=int, default=0, help="first run seed (runs use seed, seed+1, …)"
    )
    sim.add_argument("--general", default="lionheart")
    sim.add_argument(
        "--agent", default="standard", help="the player's battle AI (random, standard)"
    )
    sim.add_argument("--json", metavar="FILE", help="write every run's report as JSON")
    return parser


def tower_main(argv: Sequence[str] | None = None) -> int:
    """``throne tower …``: exit 0 on success, 1 on an error, 2 on bad usage."""
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0)
    if args.runs < 1:
        print("error: --runs must be ≥ 1", file=sys.stderr)
        return 2
    try:
        reports = simulate(args.runs, args.seed, general=args.general, agent=args.agent)
    except (ValueError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    try:
        print(summary(reports), flush=True)
    except BrokenPipeError:  # `throne tower simulate | head`
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([r.__dict__ for r in reports], f, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(tower_main())
