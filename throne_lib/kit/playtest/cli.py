"""``throne playtest …``: create, list, show, export and annotate playtests.

    throne playtest new --game castle --players 5 --humans 3 [--agent scripted]
                        [--think 0.5] [--idle 120] [--seed N] [--cards FILE] [--base URL]
    throne playtest list
    throne playtest show ID
    throne playtest export ID --log FILE
    throne playtest note ID --after N --text "这里不公平"

``--store PATH`` (any command; default ``playtests/``, or ``$THRONE_PLAYTESTS``) names
the store. ``new`` prints one link per human seat and the spectator link (base URL:
``--base``, ``$THRONE_PLAYTEST_URL``, default http://127.0.0.1:8866). Exit status: 0,
1 for an error (one line on stderr), 2 for bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from throne_lib.kit import registry
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import PlaytestError, new_match_of
from throne_lib.kit.playtest.store import (
    SPECTATOR,
    Playtest,
    PlaytestStore,
    StoreError,
    iso,
    open_store,
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="throne playtest", description="playtests (牌局)")
    p.add_argument("--store", default=None, help="the store: a folder or file (default playtests/)")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")
    new = sub.add_parser("new", help="create a playtest and print its links")
    new.add_argument("--game", default=registry.DEFAULT_GAME)
    new.add_argument(
        "--players", type=int, default=None, help="seats (default: the game's minimum)"
    )
    new.add_argument(
        "--humans", default="1", help="human seats: a count (the first N) or a list like 0,2,3"
    )
    new.add_argument("--agent", default=None, help="the AI seats' agent (default: the game's)")
    new.add_argument("--think", type=float, default=0.5, help="seconds the AI waits before acting")
    new.add_argument(
        "--idle",
        type=float,
        default=120.0,
        help="seconds before an absent person's seat is played by the AI",
    )
    new.add_argument("--seed", type=int, default=1)
    new.add_argument("--cards", default=None, help="the card table file the match uses")
    new.add_argument("--set", dest="sets", action="append", default=[], metavar="FIELD=VALUE",
                     help="change a rule parameter of the game (repeatable), e.g. PIN "
                     "round_limit=1 for a short match; see docs/balance.md")  # fmt: skip
    new.add_argument("--title", default="")
    new.add_argument("--base", default=None, help="the links' base URL (the Voilà server)")
    sub.add_parser("list", help="every playtest: id, game, seats, actions, state")
    show = sub.add_parser("show", help="one playtest: seats, actions, notes")
    show.add_argument("id")
    exp = sub.add_parser("export", help="write a playtest as a kit log (JSON Lines)")
    exp.add_argument("id")
    exp.add_argument("--log", required=True, help="the log file to write")
    note = sub.add_parser("note", help="attach a note to a playtest's moment")
    note.add_argument("id")
    note.add_argument("--text", required=True)
    note.add_argument("--after", type=int, default=None, help="after action N (default: now)")
    return p


def run(args: argparse.Namespace) -> int:
    store = open_store(args.store)
    try:
        if args.command == "new":
            g = registry.get(args.game)
            players = args.players or g.seats[0]
            options = {}
            if args.sets:
                from throne_lib.kit.variants import parse_sets, with_changes

                options = with_changes(g, {}, parse_sets(g, args.sets))
            created = manage.create(
                store, g.name, players, args.humans, args.agent, args.think, args.seed,
                args.cards, args.idle, args.title, options,
            )  # fmt: skip
            pt = created.playtest
            print(f"playtest {pt.id}: {g.title} ({g.name}), {players} seats, seed {args.seed}")
            for link in manage.links(created, args.base):
                who = (
                    "spectator"
                    if link.seat == SPECTATOR
                    else f"seat {link.seat} ({g.seat_name(link.seat)})"
                )
                print(f"{who}: {link.url}")
            return 0
        if args.command == "list":
            for pt in store.playtests():
                n = store.count(pt.id)
                state = "over" if _over(store, pt.id) else "running"
                print(
                    f"{pt.id}  {pt.game:<8} {len(pt.seats)} seats ({len(pt.humans)} human)  "
                    f"{n:>4} actions  {state:<7} {iso(pt.created)}  {pt.title}"
                )
            return 0
        pt = _get(store, args.id)
        if args.command == "show":
            g = registry.get(pt.game)
            seen = store.last_seen(pt.id)
            print(
                f"playtest {pt.id}: {g.name}, created {iso(pt.created)}, think {pt.think:g} s, idle {pt.idle:g} s"
            )
            for s, spec in enumerate(pt.seats):
                last = f", last seen {iso(seen[s])}" if seen.get(s) else ""
                print(f"  seat {s} ({g.seat_name(s)}): {spec.kind}, agent {spec.agent}{last}")
            acts = store.actions(pt.id)
            print(f"actions: {len(acts)}; {'over' if _over(store, pt.id) else 'running'}")
            for note in store.notes(pt.id):
                print(
                    f"  note after action {note.after} ({manage.seat_label(g, note.seat)}): {note.text}"
                )
            return 0
        if args.command == "export":
            path = manage.export(store, pt.id, args.log)
            print(f"{path}: {store.count(pt.id)} actions, {len(store.notes(pt.id))} notes")
            return 0
        if args.command == "note":
            after = store.count(pt.id) if args.after is None else args.after
            if not 0 <= after <= store.count(pt.id):
                raise PlaytestError(
                    f"--after {after}: the playtest has {store.count(pt.id)} actions"
                )
            store.add_note(pt.id, after, SPECTATOR, args.text)
            print(f"note added after action {after}")
            return 0
        raise AssertionError(args.command)
    finally:
        store.close()


def _get(store: PlaytestStore, pid: str) -> Playtest:
    try:
        return store.get(pid)
    except KeyError:
        raise PlaytestError(f"no playtest {pid!r} (see `throne playtest list`)") from None


def _over(store: PlaytestStore, pid: str) -> bool:
    m = new_match_of(store.get(pid))
    for a in store.actions(pid):
        m.apply(m.parse(a.action))
    return bool(m.is_over)


def main(argv: Sequence[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(list(sys.argv[1:] if argv is None else argv))
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    try:
        return run(args)
    except (PlaytestError, StoreError, ValueError, OSError) as exc:
        print(f"throne playtest: error: {exc}", file=sys.stderr)
        return 1
