"""How much can one seat's play change its camp's fate in 城堡之心? (issue 32)

The issue's target asks a searching seat to win ≥ 10 points more often than the scripted
agent in the same seat, for every role. For the 城主 the honest search does it; for the
援军 it gains +2.5 (6 seats). Is that the search's fault (it cannot tell who is who) or
the seat's (a 援军 wins only with its 城主, and its own moves change that little)?

This probe answers it on the same seeds, the role's seat played by up to four agents
while every other seat stays scripted:

* ``scripted`` — the baseline;
* ``ismcts:iterations=N`` — the kit's honest search (today's default parameters), which
  sees only what its seat sees;
* ``roles:iterations=N`` — the same search told every seat's **identity**: each
  determinization deals the hands, the draw pile and the dice as the honest search's
  do, then gives every hidden seat its true role. What perfect identity inference could
  give the honest search at the same budget, and no more;
* ``cheat:iterations=N`` — the same search on the **true** position: identities, hands,
  the order of the draw pile and the dice to come all known (no determinization). An
  upper bound of everything hidden, clairvoyance included, so above what any inference
  could reach.

The probes cheat on purpose and are never agents of the kit (nothing registers them; no
dashboard or ``simulate`` can name them); Cowling, Powley & Whitehouse (2012) use such
"cheating" players the same way. Neither is an upper bound of the seat: a larger budget
could do better.

Rows are the ladder's (``ladder`` column: ``base||``, ``focus|LABEL|SEAT``) so ``throne
report FILE`` prints the same table; each row is journaled as it ends, so a stopped run
goes on with ``--resume``. Usage::

    nice python benchmarks/castle_headroom.py --seats 6 --role reinforcement -n 120 \\
        --seed 42000 --iterations 40 --agents ismcts,cheat --workers 2 \\
        --out results/ismcts/castle6_reinforcement_headroom_s42000.parquet
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from throne_lib.kit import registry
from throne_lib.kit.ismcts import IsmctsAgent
from throne_lib.kit.journal import Journal, fingerprint, journal_path
from throne_lib.kit.ladder import Entrant, ladder_specs, ladder_text
from throne_lib.kit.sim import MatchSpec, play_spec, results_frame, save_results, spec_agents

CHEAT, ROLES = "cheat", "roles"


class CheatingIsmcts(IsmctsAgent):
    """The kit's ISMCTS searching the true match instead of a determinization of its
    seat's information set. A probe for this benchmark only: it reads what it must not."""

    def determinize(self, match: Any, seat: int, rng: random.Random) -> Any:
        return match.copy()


class RoleOracleIsmcts(IsmctsAgent):
    """The kit's ISMCTS whose determinizations (the honest ones: hands, pile and dice
    redrawn) give every hidden seat its true identity. A probe for this benchmark only."""

    def determinize(self, match: Any, seat: int, rng: random.Random) -> Any:
        from throne_lib.games.castle.view import deal_role

        world = super().determinize(match, seat, rng)
        truth = [p.role for p in match.state.players]
        for p in world.state.players:
            if p.role != truth[p.seat]:
                deal_role(p, truth[p.seat])
        return world


PROBES = {CHEAT: CheatingIsmcts, ROLES: RoleOracleIsmcts}


def play(spec: MatchSpec) -> dict[str, Any]:
    """One match of the probe: the spec's agents, the cheating one in its focus seat."""
    agents = spec_agents(spec)
    kind, label, seat = spec.label.split("|")
    probe = PROBES.get(label.split(":")[0]) if kind == "focus" else None
    if probe is not None:
        q = int(seat)
        agents[q] = probe(spec.agent_seed(q), game=spec.game, **spec.agent_params(q))
    return play_spec(spec, None, agents)[1]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seats", type=int, default=6)
    p.add_argument("--role", default="reinforcement", help="lord, enemy, reinforcement, neutral")
    p.add_argument("-n", "--seeds", type=int, default=120)
    p.add_argument("--seed", type=int, default=42000, help="first seed")
    p.add_argument("--iterations", type=int, default=40)
    p.add_argument(
        "--agents",
        default=f"ismcts,{CHEAT}",
        help=f"the seat's players beside scripted: ismcts, {ROLES}, {CHEAT} (comma-separated; "
        "the baseline's rows are the same in every run of the same seeds)",
    )
    p.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    p.add_argument("--out", default="castle_headroom.parquet")
    p.add_argument("--resume", action="store_true", help="go on from a stopped run's journal")
    args = p.parse_args(argv)
    game = registry.get("castle")
    params = (("iterations", args.iterations),)
    names = [a.strip() for a in args.agents.split(",") if a.strip()]
    unknown = set(names) - {"ismcts", *PROBES}
    if unknown or not names:
        p.error(f"--agents: ismcts, {ROLES} or {CHEAT}, not {sorted(unknown)}")
    entrants = [Entrant("scripted", "scripted")] + [
        Entrant(f"{a}:iterations={args.iterations}", "ismcts", params) for a in names
    ]
    specs = ladder_specs(game, entrants, args.seeds, args.seats, args.seed, role=args.role)
    book = Journal(journal_path(args.out), fingerprint(specs, CHEAT), args.resume)
    rows = list(book.rows.values())
    todo = book.todo(specs)
    book.open()
    print(f"{len(specs)} matches, {len(rows)} from the journal; load {os.getloadavg()[0]:.2f}")
    start = time.time()
    try:
        if args.workers == 1:  # here, as simulate does
            got: Any = (play(s) for s in todo)
        else:
            pool = ProcessPoolExecutor(max_workers=args.workers)
            got = (f.result() for f in as_completed([pool.submit(play, s) for s in todo]))
        for row in got:
            book.add(row)
            rows.append(row)
    finally:
        if args.workers != 1:
            pool.shutdown(cancel_futures=True)
        book.close()
    df = results_frame(rows)
    df["ladder"] = df["label"]
    out = save_results(df, args.out)
    book.remove()
    use = [resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)]
    cpu = sum(u.ru_utime + u.ru_stime for u in use)
    print(ladder_text(df))
    print(
        f"{len(df)} matches -> {out}; wall {time.time() - start:.0f} s, CPU (this process "
        f"and its workers) {cpu:.0f} s, load {os.getloadavg()[0]:.2f}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
