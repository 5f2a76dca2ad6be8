"""Throne & Phalanx's side of batch simulation (:mod:`throne_lib.kit.sim` runs the batches):
the spec builders (one pairing, round robin of the generals' signature decks, agent
ladders), the result row (generals, races, throne HP, mana and card statistics, cards
drawn and played, lead changes) and the ``throne simulate`` options.

    throne simulate --blue human --red beast --blue-agent standard --red-agent random -n 100
    throne simulate --round-robin -n 4 --agent standard --backend dask --out rr.parquet
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from throne_lib.games.throne.actions import Event
from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.decks import resolve_setup, signature_deck
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, Rules
from throne_lib.kit.agents import agent_arg, agent_names
from throne_lib.kit.sim import KitSimHooks, MatchSpec

STATS = ("mana_spent", "mana_available", "cards_played", "cards_drawn", "summons")
GAME = "throne"


def throne_spec(
    index: int,
    seed: int,
    blue: SideSetup,
    red: SideSetup,
    agents: tuple[str, str] = ("standard", "standard"),
    params: tuple[tuple[tuple[str, Any], ...], tuple[tuple[str, Any], ...]] = ((), ()),
    rules: Rules = DEFAULT_RULES,
    label: str = "",
) -> MatchSpec:
    """A kit :class:`MatchSpec` of one Throne match (blue, red)."""
    options = () if rules == DEFAULT_RULES else (("rules", rules),)
    return MatchSpec(index, seed, (blue, red), agents, params, options, label, GAME)


def matchup_specs(
    blue: SideSetup,
    red: SideSetup,
    n: int,
    seed: int = 0,
    agents: tuple[str, str] = ("standard", "standard"),
    params: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
    alternate: bool = False,
    start: int = 0,
    label: str = "",
) -> list[MatchSpec]:
    """``n`` matches of one pairing; with ``alternate`` odd matches swap sides
    (decks and agents together), so neither side keeps the blue seat."""
    out = []
    p = (tuple(sorted(params[0].items())), tuple(sorted(params[1].items())))
    for i in range(n):
        swap = alternate and i % 2 == 1
        spec = throne_spec(
            start + i,
            seed + start + i,
            red if swap else blue,
            blue if swap else red,
            (agents[1], agents[0]) if swap else agents,
            (p[1], p[0]) if swap else p,
            label=label,
        )
        out.append(spec)
    return out


def round_robin_specs(
    db: CardDB,
    n: int,
    seed: int = 0,
    agent: str = "standard",
    params: dict[str, Any] | None = None,
    generals: Sequence[str] | None = None,
    opponent: str | None = None,
    opponent_params: dict[str, Any] | None = None,
) -> list[MatchSpec]:
    """Every pair of generals' signature decks (R-DECK-7), ``n`` matches each, sides
    alternating; mirror matches included. The first general of a pair is played by
    ``agent``, the second by ``opponent`` (default: the same agent)."""
    gens = list(generals) if generals is not None else [c.id for c in db.of("general")]
    decks = {g: signature_deck(db, g) for g in gens}
    out: list[MatchSpec] = []
    for i, a in enumerate(gens):
        for b in gens[i:]:
            out += matchup_specs(
                decks[a],
                decks[b],
                n,
                seed,
                (agent, opponent or agent),
                (params or {}, (opponent_params if opponent else params) or {}),
                alternate=True,
                start=len(out),
                label=f"{a}-{b}",
            )
    return out


def ladder_specs(
    db: CardDB,
    agent: str,
    opponent: str,
    n: int,
    seed: int = 0,
    params: tuple[dict[str, Any], dict[str, Any]] = ({}, {}),
) -> list[MatchSpec]:
    """``n`` matches of ``agent`` against ``opponent``: ``agent`` takes blue in even
    matches and red in odd ones; the generals' signature decks cycle through every
    ordered pair (match i: general i mod G against general (i + 1 + i // G) mod G)."""
    gens = [c.id for c in db.of("general")]
    g = len(gens)
    pa = tuple(sorted(params[0].items()))
    pb = tuple(sorted(params[1].items()))
    out = []
    for i in range(n):
        mine, theirs = gens[i % g], gens[(i + 1 + i // g) % g]
        a, b = signature_deck(db, mine), signature_deck(db, theirs)
        if i % 2 == 0:
            spec = throne_spec(i, seed + i, a, b, (agent, opponent), (pa, pb), label="ladder")
        else:
            spec = throne_spec(i, seed + i, b, a, (opponent, agent), (pb, pa), label="ladder")
        out.append(spec)
    return out


@dataclass
class Tracking:
    """Per-match counters the row needs: cards drawn and played per side, lead changes."""

    drawn: list[set[str]] = field(default_factory=lambda: [set(), set()])
    played: list[set[str]] = field(default_factory=lambda: [set(), set()])
    lead: int = 0
    lead_changes: int = 0


class ThroneSimHooks(KitSimHooks):
    """The :class:`throne_lib.kit.sim.SimHooks` of Throne & Phalanx: a deck and an agent
    per side, or a round robin of the generals, instead of the kit's seat options."""

    seat_options = False
    groups = ("general", "race")

    def start(self, spec: MatchSpec, match: Match) -> Tracking:
        t = Tracking()
        for e in match.setup_events:
            if e.kind in ("draw", "opening_fill"):
                t.drawn[e.side].add(e.actor)
        return t

    def step(self, t: Tracking, match: Match, events: Sequence[Event]) -> None:
        for e in events:
            if not 0 <= e.side <= 1:
                continue
            if e.kind in ("draw", "opening_fill"):
                t.drawn[e.side].add(e.actor)
            elif e.kind == "replace":  # R-OPEN-2: the barracks card taken into the hand
                t.drawn[e.side].add(e.target)
            elif e.kind == "play":  # a played card was in the hand, however it got there
                t.played[e.side].add(e.actor)
                t.drawn[e.side].add(e.actor)
        diff = match.throne_hp(0) - match.throne_hp(1)
        now = (diff > 0) - (diff < 0)
        if now != 0 and t.lead != 0 and now != t.lead:
            t.lead_changes += 1
        if now != 0:
            t.lead = now

    def row(
        self, spec: MatchSpec, match: Match, t: Tracking, base: dict[str, Any]
    ) -> dict[str, Any]:
        db = match.db
        winner = match.winner
        row: dict[str, Any] = {
            "match": spec.index,
            "label": spec.label,
            "seed": spec.seed,
            "first": SIDE_NAMES[match.state.first],
            "winner": base["winner"],  # the kit's label (Game.winner): a side or "draw"
            "end_reason": match.end_reason,
            "rounds": match.round,
            "actions": len(match.history),
            "lead_changes": t.lead_changes,
        }
        for side, name in enumerate(SIDE_NAMES):
            setup = spec.setups[side]
            s = match.state.sides[side]
            row[f"{name}_general"] = setup.general
            row[f"{name}_race"] = db[setup.general].race
            row[f"{name}_agent"] = spec.agent_label(side)
            row[f"{name}_agent_seed"] = spec.agent_seed(side)
            row[f"{name}_throne_hp"] = match.throne_hp(side)
            for stat in STATS:
                row[f"{name}_{stat}"] = int(s.stats.get(stat, 0))
            row[f"{name}_drawn"] = sorted(t.drawn[side])
            row[f"{name}_played"] = sorted(t.played[side])
        row["winner_general"] = "" if winner is None else row[f"{SIDE_NAMES[winner]}_general"]
        return row

    def add_arguments(self, p: argparse.ArgumentParser) -> None:
        agents = agent_names(GAME)
        p.add_argument("--blue", default="human", help="deck file, general id or race")
        p.add_argument("--red", default="beast", help="deck file, general id or race")
        spec = agent_arg(GAME)
        about = (
            f"NAME or NAME:key=value… (e.g. ismcts:iterations=10); NAME one of {', '.join(agents)}"
        )
        p.add_argument("--blue-agent", default="standard", type=spec, help=about)
        p.add_argument("--red-agent", default="standard", type=spec, help=about)
        p.add_argument("--round-robin", action="store_true", help="all generals' signature decks")
        p.add_argument("--agent", default="standard", type=spec, help="agent of a round robin")
        p.add_argument("--alternate", action="store_true", help="swap sides every other match")
        p.add_argument("--iterations", type=int, default=None, help="search agent's budget")

    def specs(self, args: argparse.Namespace, db: CardDB) -> list[MatchSpec]:
        def params(agent: str) -> dict[str, Any]:
            return {"iterations": args.iterations} if agent == "search" and args.iterations else {}

        if args.round_robin:
            return round_robin_specs(db, args.matches, args.seed, args.agent, params(args.agent))
        blue, red = resolve_setup(db, args.blue), resolve_setup(db, args.red)
        agents = (args.blue_agent, args.red_agent)
        return matchup_specs(
            blue,
            red,
            args.matches,
            args.seed,
            agents,
            (params(agents[0]), params(agents[1])),
            alternate=args.alternate,
        )


HOOKS = ThroneSimHooks()
