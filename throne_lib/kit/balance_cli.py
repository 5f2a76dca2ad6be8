"""``throne [--game NAME] balance …``: the one command line (and dashboard panel factory)
of the balance assistant, for every game of the kit.

A game offers the assistant through its registry entry: ``Game.balance`` is a
:class:`BalanceHooks` (or a "module:attr" string naming one). The hooks build the game's
:class:`~throne_lib.kit.balance.BalanceGame` adapter from a card table's text and the
parsed options, and add the game's own options (Throne's ``--generals``, 城堡之心's
``--players`` …); targets, search space, budget, backends, the report, the Parquet file
and ``apply`` are the same for every game and live here.

    throne balance suggest [--game NAME] [targets] [search space] [budget] [--seed N]
                           [--out FILE] [--report FILE] [--apply N]
    throne balance verify RESULTS.parquet [N …] [--seed S] [--blocks K] [--agent B]
                          [--out FILE.parquet] [--report FILE] [options]
    throne balance show RESULTS.parquet [N …]
    throne balance apply RESULTS.parquet N [--game NAME] [--cards PATH]

See ``docs/balance.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import json
import resource
import shlex
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from throne_lib.kit import registry
from throne_lib.kit.balance import (
    MAX_STEP,
    BalanceGame,
    Budget,
    RulesField,
    Targets,
    Verification,
    base_values,
    parse_bounds,
    search_space,
    suggest,
    verify,
)
from throne_lib.kit.balance.memo import RunMemo
from throne_lib.kit.balance_args import _pair, add_screen_options, parse_band
from throne_lib.kit.balance_report import (
    apply_changes,
    proposal_changes,
    report_text,
    save_result,
    targets_of,
    verification_text,
)
from throne_lib.kit.balance_run import agents_text, load_run, show_text, verification_frame
from throne_lib.kit.cluster import add_backend_options
from throne_lib.kit.journal import fingerprint, journal_path, stopped_message
from throne_lib.kit.sim import save_results
from throne_lib.kit.textfile import write_atomic

if TYPE_CHECKING:
    from throne_lib.kit.balance_panel import SuggestPanel


@dataclass(frozen=True)
class BalanceHooks:
    """What a game gives the kit's balance command and panel.

    ``make(text, args)`` builds the adapter from a card table's text and the parsed
    options (``args.agent``, ``args.rules_knobs`` and the game's own options);
    ``add_arguments(parser)`` adds those own options to ``suggest``; ``rules`` is the
    game's default rules object (a dataclass: any whole-number field may be named by
    ``--rules``) and ``known_rules(rules)`` the rules parameters offered by default,
    with their ranges and whom they help."""

    make: Callable[[str, argparse.Namespace], BalanceGame]
    default_cards: Callable[[], Path]
    rules: Callable[[], Any]
    known_rules: Callable[[Any], Mapping[str, RulesField]]
    agents: Sequence[str]
    default_agent: str
    groups: str = "group"  # what the win rates are taken over, for --help: "general"
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    first_seat: bool = True  # False: no first-seat target (e.g. a fixed opener)
    rules_type: str = "Rules"  # where a rules change is set, for the apply message
    out: str = "balance.parquet"
    freeze_hint: str = "card, field, card.field"  # the panel's example freeze entry
    band_alias: str | None = None  # another name of --band (城堡之心: "--camp-band")


def first_table(game: str) -> Callable[[], Path]:
    """``BalanceHooks.default_cards`` for a game whose default is its first card table."""
    return lambda: registry.get(game).card_tables[0]


def table_parser(game: str) -> Callable[[str], Any]:
    """The game's ``parse_table`` of a table's text, the last few tables kept by their
    text (an adapter parses each candidate's table again for every block)."""

    @functools.lru_cache(maxsize=8)
    def parse(text: str) -> Any:
        parse_table = registry.get(game).parse_table
        if parse_table is None:
            raise ValueError(f"{game} has no card table")
        return parse_table(text)

    return parse


def hooks(name: str) -> BalanceHooks:
    """The balance hooks of game ``name``; ValueError naming the games that have some."""
    game = registry.get(name)
    got = game.hook("balance")
    if got is None:
        with_one = ", ".join(g.name for g in registry.games() if g.balance) or "none"
        raise ValueError(f"game {name!r} has no balance adapter (games with one: {with_one})")
    if not isinstance(got, BalanceHooks):
        raise TypeError(f"game {name!r}: Game.balance must be a BalanceHooks, not {got!r}")
    return got


def rules_knobs(
    entries: Sequence[str], rules: Any, known: Mapping[str, RulesField] | None = None
) -> dict[str, RulesField]:
    """Rules parameters by name, ``name`` or ``name=LOW:HIGH``: any whole-number field of
    the ``rules`` dataclass; ``known`` gives the default range and direction of some
    (the others: today's value ±2, never below 0), and may offer parameters that are no
    field of their own (城堡之心's ``roles_7``, an index into the legal role tables of 7
    seats): their base is ``known``'s."""
    known = known or {}
    ints = {
        f.name
        for f in dataclasses.fields(rules)
        if type(getattr(rules, f.name)) is int  # not bool, not None
    }
    out: dict[str, RulesField] = {}
    for entry in entries:
        name, _, rng = entry.strip().partition("=")
        if name not in ints and name not in known:
            every = sorted(ints | {n for n in known if n not in ints})
            raise ValueError(
                f"unknown rules parameter {name!r}; whole-number ones: {', '.join(every)}"
            )
        base = getattr(rules, name) if name in ints else known[name].base
        f = dataclasses.replace(known[name], base=base) if name in known else None
        f = f or RulesField(base, max(0, base - 2), base + 2)
        if rng:
            lo, hi = _pair(rng, f"rules {name}")
            f = dataclasses.replace(f, low=int(lo), high=int(hi))
        if not f.low <= base <= f.high:
            raise ValueError(f"rules {name}: {f.low}:{f.high} does not contain today's {base}")
        out[name] = f
    return out


# --- the parser ------------------------------------------------------------------------------


def _band_flags(h: BalanceHooks) -> list[str]:
    return ["--band", *([h.band_alias] if h.band_alias else [])]


def build_parser(name: str, h: BalanceHooks) -> argparse.ArgumentParser:
    """``balance suggest`` and ``balance apply`` for game ``name``."""
    title = registry.get(name).title
    cards = f"card table (default: {h.default_cards().name})"
    p = argparse.ArgumentParser(
        prog="throne balance" if name == registry.DEFAULT_GAME else f"throne --game {name} balance",
        description=f"{title}: proposals of card-table changes that even out win rates",
    )
    sub = p.add_subparsers(dest="sub", required=True, metavar="SUBCOMMAND")
    s = sub.add_parser("suggest", help="search for the smallest changes that meet the targets")
    s.add_argument("--game", default=name, help=f"the game (here: {name})")
    s.add_argument("--cards", default=None, help=cards)
    s.add_argument(
        "--agent",
        default=h.default_agent,
        choices=list(h.agents),
        help=f"every seat's (default {h.default_agent}); recorded in the file and the report",
    )
    t = s.add_argument_group("targets")
    t.add_argument(
        *_band_flags(h),
        dest="band",
        default="0.45:0.55",
        help=f"win-rate band per {h.groups} (LOW:HIGH, or percentages LOW,HIGH: 40,60)",
    )
    if h.first_seat:
        t.add_argument("--first-seat-max", type=float, default=0.55, help="bound on the first seat")
        t.add_argument(
            "--first-seat-weight",
            type=float,
            default=Targets().first_seat_weight,
            help="how many groups' worth the first seat's excess counts in the imbalance",
        )
    t.add_argument("--length", default=None, help="mean match length in rounds (LOW:HIGH)")
    sp = s.add_argument_group("search space")
    sp.add_argument("--fields", default=None, help="card fields (default: all the game's)")
    sp.add_argument(
        "--rules",
        default=None,
        help="rules parameters NAME[=LOW:HIGH],… (default: the game's; '' none)",
    )
    sp.add_argument("--bounds", action="append", default=[], help="FIELD=DOWN:UP, e.g. hp=-2:+2")
    sp.add_argument(
        "--freeze", action="append", default=[], help="card, field, card.field or rules.X"
    )
    sp.add_argument(
        "--max-step",
        type=float,
        default=MAX_STEP,
        metavar="FRACTION",
        help="a proposal moves a card number at most this share of today's value, and at "
        f"least one step (default {MAX_STEP}: attack 2 -> 1 or 3, never 4; 0: no bound)",
    )
    sp.add_argument(
        "--allow-zero-cost",
        action="store_true",
        help="let a cost fall to 0 (by default a cost of 1 or more stays at least 1)",
    )
    if h.add_arguments is not None:
        h.add_arguments(s)
    b = s.add_argument_group("budget")
    d = Budget()

    def budget(flag: str, help: str | None = None, **kw: Any) -> None:
        """An option for the :class:`Budget` field of the same name, of its type and
        default (what :func:`_budget` reads back)."""
        value = getattr(d, flag.removeprefix("--").replace("-", "_"))
        b.add_argument(flag, type=type(value), default=value, help=help, **kw)

    budget("--population")
    budget("--generations")
    budget("--blocks", "CRN blocks of the search")
    budget("--holdout-blocks")
    budget(
        "--verify-blocks",
        "the run's own verification: blocks on seeds no step of it saw, after the "
        "holdout; whether a proposal meets the targets is said from these alone "
        "(default %(default)s)",
        metavar="BLOCKS",
    )
    b.add_argument(
        "--no-prune",
        dest="prune",
        action="store_false",
        help="keep every change of a proposal, also one whose effect on the holdout has "
        "the wrong sign",
    )
    budget(
        "--holdout-repair",
        "after pruning, touch the last proposal up on the holdout: at most this many repair "
        "steps for the groups out of the aimed band there, shown as one more proposal "
        "(default %(default)s: off)",
        metavar="STEPS",
    )
    budget("--max-changes")
    budget("--proposals", "proposals shown")
    budget("--z", "racing: one-sided z to drop a candidate")
    b.add_argument("--chunk", type=int, default=4, help="matches per worker task")
    b.add_argument(
        "--time-limit",
        type=float,
        default=None,
        metavar="MINUTES",
        help="start no generation that would, with the holdout, end the run later",
    )
    budget(
        "--aim",
        "the search works towards the band narrowed by this on each side "
        "(default %(default)s; the report judges by the band itself)",
    )
    budget(
        "--repair",
        "after the generations, at most STEPS greedy repair steps for the groups still "
        "out of band (default %(default)s: none)",
        metavar="STEPS",
    )
    budget(
        "--repair-share",
        "with --time-limit, the share of it the generations leave to the repair "
        "(default %(default)s)",
    )
    b.add_argument(
        "--repair-combine",
        action="store_true",
        help="each repair step also tries every general's best move together",
    )
    budget(
        "--confirm",
        "blocks of the repair's own on which a step's chosen move must hold up "
        "before it is kept (default %(default)s: none)",
        metavar="BLOCKS",
    )
    budget(
        "--repair-groups",
        "a repair step works on the N groups (generals, heroes …) furthest out of band "
        "(default %(default)s)",
        metavar="N",
    )
    budget("--repair-tries", "… trying at most N knobs of each (default %(default)s)", metavar="N")
    b.add_argument(
        "--repair-memory",
        action="store_true",
        help="a repair step's first try for a general is the knob move measured before "
        "that is predicted to help most from here",
    )
    budget(
        "--slot-price",
        "with confirm blocks, a repair move must lower the imbalance by at least "
        "P x (imbalance / changes still free) per change it adds "
        "(default %(default)g: any gain)",
        metavar="P",
    )
    add_screen_options(budget)
    b.add_argument(
        "--no-rules-first",
        dest="rules_first",
        action="store_false",
        help="do not measure the first-seat rules levers alone before the card search",
    )
    s.add_argument("--seed", type=int, default=0)
    add_backend_options(s)
    s.add_argument("--out", default=h.out, help="Parquet file of the proposals")
    s.add_argument(
        "--resume",
        action="store_true",
        help="go on from the journal a stopped run of the same command left beside --out "
        "(OUT.journal.jsonl): its matches are taken, not played again",
    )
    s.add_argument("--report", default=None, help="also write the text report here")
    s.add_argument(
        "--apply", type=int, default=None, metavar="N", help="write proposal N into the table"
    )
    s.add_argument("--no-progress", action="store_true")
    v = sub.add_parser(
        "verify",
        help="re-measure saved proposals on fresh seeds no search or holdout used",
        argument_default=argparse.SUPPRESS,  # unset: the run's own (saved) option
    )
    v.add_argument("--game", default=name, help=f"the game (here: {name})")
    v.add_argument("results", help="Parquet file written by balance suggest")
    v.add_argument("numbers", type=int, nargs="*", help="proposal numbers (default: all)")
    v.add_argument("--cards", help=cards)
    v.add_argument(
        "--agent",
        choices=list(h.agents),
        help="every seat's (default: the run's); another agent also re-measures with the "
        "run's on the same seeds and shows where a conclusion flips",
    )
    vt = v.add_argument_group("targets (default: the run's)")
    vt.add_argument(*_band_flags(h), dest="band", help=f"win-rate band per {h.groups} (LOW:HIGH)")
    if h.first_seat:
        vt.add_argument("--first-seat-max", type=float, help="bound on the first seat")
    if h.add_arguments is not None:
        h.add_arguments(v)
    v.add_argument("--seed", type=int, help="verify seed (default 0)")
    v.add_argument("--blocks", type=int, help="verification blocks (default: the run's holdout's)")
    add_backend_options(v)  # unset: the run's (the defaults are suppressed below)
    v.add_argument("--chunk", type=int, help="matches per worker task")
    v.add_argument("--report", help="also write the text report here")
    v.add_argument(
        "--out",
        help="also write the figures as Parquet (a row per table and group: rate, 95%% "
        "interval, target, verdict; with --agent, both agents' rows)",
    )
    for action in v._actions:  # the game's options name their defaults: unset is the run's
        if action.option_strings and action.dest not in ("help", "game"):
            action.default = argparse.SUPPRESS
    w = sub.add_parser("show", help="print a saved run's options and its proposals' changes")
    w.add_argument("--game", default=name, help=f"the game (here: {name})")
    w.add_argument("results", help="Parquet file written by balance suggest")
    w.add_argument("numbers", type=int, nargs="*", help="proposal numbers (default: all)")
    a = sub.add_parser("apply", help="write a saved proposal into the card table")
    a.add_argument("--game", default=name, help=f"the game (here: {name})")
    a.add_argument("results", help="Parquet file written by balance suggest")
    a.add_argument("number", type=int, help="proposal number")
    a.add_argument("--cards", default=None, help=cards)
    return p


def _budget(args: argparse.Namespace) -> Budget:
    """The :class:`Budget` of the parsed ``suggest`` options: each field from the option
    of its name (``--time-limit`` is in minutes), ``min_blocks`` at its default."""
    given = {
        f.name: getattr(args, f.name) for f in dataclasses.fields(Budget) if f.name != "min_blocks"
    }
    if args.time_limit is not None:
        given["time_limit"] = 60 * args.time_limit
    return Budget(**given)


def options(name: str, **overrides: Any) -> argparse.Namespace:
    """The ``suggest`` options of game ``name`` at their defaults (what the dashboard
    panel runs with), ``overrides`` set by attribute name, and the rules knobs resolved."""
    h = hooks(name)
    args = build_parser(name, h).parse_args(["suggest"])
    for key, value in overrides.items():
        if not hasattr(args, key):
            raise ValueError(f"{name} balance has no option {key!r}")
        setattr(args, key, value)
    args.rules_knobs = _knobs(args, h)
    return args


def _knobs(args: argparse.Namespace, h: BalanceHooks) -> dict[str, RulesField]:
    rules = h.rules()
    known = h.known_rules(rules)
    names = list(known) if args.rules is None else [r for r in args.rules.split(",") if r.strip()]
    return rules_knobs(names, rules, known)


class _Clock:
    """Wall and CPU time of a run, for the report's last line. The CPU time is this
    process's and its finished child processes' (a process pool's workers, joined when
    the search ends); a Dask cluster's workers are not counted."""

    def __init__(self) -> None:
        self.wall = time.monotonic()
        self.cpu = self._cpu()

    @staticmethod
    def _cpu() -> float:
        me = resource.getrusage(resource.RUSAGE_SELF)
        kids = resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    def line(self, matches: int) -> str:
        wall = time.monotonic() - self.wall
        cpu = self._cpu() - self.cpu
        return (
            f"run: {matches} matches in {wall:.0f} s wall ({wall / 60:.1f} min), "
            f"{cpu:.0f} CPU-s (this process and its pool workers)"
        )


def _cards(arg: str | None, h: BalanceHooks) -> Path:
    return Path(arg) if arg else h.default_cards()


def _shown_path(path: Path) -> str:
    """``path`` relative to the working directory when it lies under it (a run's record
    names the repository's table, not the checkout it ran in)."""
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def suggest_main(name: str, h: BalanceHooks, args: argparse.Namespace) -> int:
    from tqdm.auto import tqdm  # type: ignore[import-untyped]

    path = _cards(args.cards, h)
    table = path.read_text(encoding="utf-8")
    lo, hi = parse_band(args.band)
    first = args.first_seat_max if h.first_seat else 1.0
    targets = Targets(
        (lo, hi),
        first,
        _pair(args.length, "length") if args.length else None,
        getattr(args, "first_seat_weight", Targets().first_seat_weight),
    )
    budget = _budget(args)
    args.rules_knobs = _knobs(args, h)
    game = h.make(table, args)
    bounds = {}
    for entry in args.bounds:
        field, _, rng = entry.partition("=")
        bounds[field] = parse_bounds(rng)
    space = search_space(
        game,
        fields=args.fields.split(",") if args.fields else None,
        rules=list(args.rules_knobs),
        bounds=bounds,
        freeze=args.freeze,
        max_step=args.max_step or None,
        zero_cost=args.allow_zero_cost,
    )
    bar = tqdm(
        total=budget.generations + 1 + budget.repair,
        disable=args.no_progress,
        desc="generations" + (" + repair" if budget.repair else ""),
    )

    def progress(st: dict[str, Any]) -> None:
        if "plan" in st:  # before the search: can the verification tell at all?
            plan = st["plan"]
            line = plan.text(budget.verify_blocks, st["per_block"])
            tqdm.write(("warning: " if not plan.can_tell else "") + line, file=sys.stderr)
            return
        if "screening" in st and "generation" not in st:  # screening under way
            bar.set_postfix_str(
                f"screening {st['screening']}/{st['rounds']} rounds, {st['matches_played']} matches"
            )
            return
        if "refresh" in st:  # the screened repair drew fresh blocks (Budget.refresh)
            bar.set_postfix_str(
                f"fresh blocks {st['refresh']}: miss {st['miss_before']:.3f} -> "
                f"{st['miss_after']:.3f}, {st['matches_played']} matches"
            )
            return
        if st.get("holdout") or st.get("verified"):
            what = "verification" if st.get("verified") else "holdout"
            bar.set_postfix_str(f"{what} done, {st['matches_played']} matches")
            return
        bar.update(1)
        bar.set_postfix_str(
            f"best {st['best_imbalance']:.3f} ({st['best_changes']} changes), "
            f"{st['matches_played']} matches"
        )

    clock = _Clock()
    memo = RunMemo(journal_path(args.out), _run_digest(name, table, args), args.resume)
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
            memo,
        )
    except KeyboardInterrupt:  # every kept match is flushed already: its count is right
        print(stopped_message(memo.path, "throne balance suggest"), file=sys.stderr)
        return 130
    finally:
        bar.close()
        memo.close()
    names = getattr(game, "names", {})
    text = report_text(res, names, args.agent) + "\n\n" + clock.line(res.matches_played)
    saved = {n: getattr(args, n) for n in game_options(h) if hasattr(args, n)}
    saved["holdout_blocks"] = args.holdout_blocks
    run = {
        "game": name,
        "agent": args.agent,
        "command": getattr(args, "command", None),
        "options": {k: v for k, v in sorted(vars(args).items()) if k not in ("sub", "command")},
        "cards": {"path": _shown_path(path), "sha256": hashlib.sha256(table.encode()).hexdigest()},
        "report": text,
    }
    out = save_result(res, args.out, saved, run, names)
    memo.remove()
    if args.report:
        write_atomic(args.report, text + "\n")
    print(text)
    print(f"\nproposals -> {out}")
    if args.apply is not None:
        p = res.proposal(args.apply)
        _apply(h, game, path, dict(p.changes), base_values(p.changes, space), args.apply)
    return 0


# options that do not change what a run plays or decides: a resumed run may change them
NOT_THE_RUN = ("sub", "command", "resume", "no_progress", "workers", "backend", "scheduler",
               "chunk", "report", "apply", "out")  # fmt: skip


def _run_digest(name: str, table: str, args: argparse.Namespace) -> str:
    """The fingerprint of a suggest run (its journal's): the game, the card table and every
    option that decides what the run plays."""
    given = {k: v for k, v in sorted(vars(args).items()) if k not in NOT_THE_RUN}
    return fingerprint([name, json.dumps(given, sort_keys=True, default=str)], table)


def _apply(
    h: BalanceHooks,
    game: BalanceGame,
    path: Path,
    new: dict[str, int],
    old: dict[str, int],
    number: int,
) -> None:
    _, _, rules = apply_changes(game, path, new, old)
    print(f"proposal {number} written to {path}")
    for r in rules:
        print(f"rules change (not a card-table field; set it in {h.rules_type}(...)): {r}")


def game_options(h: BalanceHooks) -> list[str]:
    """The options that decide how a match is played (the agent and the game's own):
    saved with a run's results, so ``verify`` plays the same matches' kind."""
    p = argparse.ArgumentParser(add_help=False)
    if h.add_arguments is not None:
        h.add_arguments(p)
    return ["agent", *(a.dest for a in p._actions if a.dest != "help")]


def verify_main(name: str, h: BalanceHooks, args: argparse.Namespace) -> int:
    """``balance verify``: the run's saved proposals and the unchanged table on fresh
    verification seeds, with the run's agent, game options and targets unless given."""
    rf = load_run(args.results)
    frame = rf.frame
    given = vars(args)
    saved: dict[str, Any] = dict(rf.options)
    opts = options(name)
    for key in game_options(h):
        if key in given:
            setattr(opts, key, given[key])
        elif key in saved:
            setattr(opts, key, saved[key])
    numbers = given.get("numbers") or rf.numbers
    if not numbers:
        raise ValueError(f"{args.results}: no proposals to verify")
    proposals: dict[int, dict[str, int]] = {}
    base: dict[str, int] = {}
    for n in numbers:
        new, old = proposal_changes(frame, n)
        proposals[n] = new
        base.update(old)
    rules = sorted({k.split(".", 1)[1] for ch in proposals.values() for k in ch if "." in k
                    and k.startswith("rules.")})  # fmt: skip
    opts.rules = ",".join(rules)
    opts.rules_knobs = _knobs(opts, h)
    targets = targets_of(frame) or Targets()
    if "band" in given:
        lo, hi = parse_band(given["band"])
        targets = dataclasses.replace(targets, band=(lo, hi))
    if "first_seat_max" in given:
        targets = dataclasses.replace(targets, first_seat_max=given["first_seat_max"])
    path = _cards(given.get("cards"), h)
    text_in = path.read_text(encoding="utf-8")
    game = h.make(text_in, opts)

    def measure(g: BalanceGame) -> Verification:
        return verify(
            g,
            proposals,
            targets,
            seed=given.get("seed", 0),
            blocks=given.get("blocks", int(saved.get("holdout_blocks", Budget().holdout_blocks))),
            backend=given.get("backend", "process"),
            workers=given.get("workers"),
            scheduler=given.get("scheduler"),
            chunk=given.get("chunk", 4),
            base=base,
        )

    v = measure(game)
    names = getattr(game, "names", {})
    text = verification_text(v, frame, names, str(args.results), opts.agent)
    frames = [verification_frame(v, names, opts.agent, str(args.results))]
    run_agent = rf.agent
    if "agent" in given and run_agent is None:
        text += f"\n\n{args.results} does not name the run's agent: no comparison of agents"
    elif "agent" in given and run_agent is not None and given["agent"] != run_agent:
        # the run's agent on the same verification seeds: a flip is the agent's, not the dice's
        mine = h.make(text_in, argparse.Namespace(**{**vars(opts), "agent": run_agent}))
        va = measure(mine)
        frames.append(verification_frame(va, names, run_agent, str(args.results)))
        first = h.first_seat and targets.first_seat_max < 1
        text += "\n\n" + agents_text(
            v.groups,
            targets,
            (va.before, va.after),
            (v.before, v.after),
            (run_agent, given["agent"]),
            names,
            first,
        )
        text += (
            f"\n\nmatches played: {v.matches_played} ({opts.agent}) + "
            f"{va.matches_played} ({run_agent})"
        )
    if "out" in given:
        save_results(pd.concat(frames, ignore_index=True), given["out"])
    if "report" in given:
        write_atomic(given["report"], text + "\n")
    print(text)
    return 0


def show_main(name: str, h: BalanceHooks, args: argparse.Namespace) -> int:
    """``balance show``: a saved run's options and its proposals' full change lists with
    their figures on the holdout (docs/balance.md, "Re-reading a run")."""
    print(show_text(load_run(args.results), args.numbers or None))
    return 0


def apply_main(name: str, h: BalanceHooks, args: argparse.Namespace) -> int:
    frame = load_run(args.results).frame
    new, old = proposal_changes(frame, args.number)
    path = _cards(args.cards, h)
    game = h.make(path.read_text(encoding="utf-8"), options(name))
    _apply(h, game, path, new, old, args.number)
    return 0


def _command(name: str, argv: Sequence[str]) -> str:
    """The command line of a run, as a shell would take it back."""
    game = [] if name == registry.DEFAULT_GAME or "--game" in argv else ["--game", name]
    return shlex.join(["throne", *game, "balance", *argv])


def main(argv: Sequence[str] | None = None, game: str | None = None) -> int:
    """``throne [--game NAME] balance …``: 0 on success, 1 on an error (its lines on
    stderr: a broken card table one per problem), 2 on a usage error or a game without
    a balance adapter. ``--game`` may also stand among ``argv``."""
    args_list = list(sys.argv[1:] if argv is None else argv)
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument("--game", default=None)
    known, _ = pre.parse_known_args(args_list)
    name = known.game or game or registry.DEFAULT_GAME
    try:
        h = hooks(name)
    except (ValueError, TypeError) as exc:
        print(f"throne balance: {exc}", file=sys.stderr)
        return 2
    try:
        args = build_parser(name, h).parse_args(args_list)
    except SystemExit as exc:  # --help (0) or a usage error (2)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        if args.sub == "suggest":
            args.command = _command(name, args_list)
        run = {"suggest": suggest_main, "verify": verify_main, "show": show_main}.get(
            args.sub, apply_main
        )
        return run(name, h, args)
    except (ValueError, OSError, argparse.ArgumentTypeError) as exc:
        problems = getattr(exc, "problems", None)
        if isinstance(problems, list) and problems:
            for problem in problems:  # a broken card table: file:row:column per line
                print(problem, file=sys.stderr)
        else:
            print(f"throne balance: {exc}", file=sys.stderr)
        return 1


# --- the dashboard panel ------------------------------------------------------------------


def suggest_panel(
    name: str = registry.DEFAULT_GAME,
    cards: str | Path | None = None,
    backend: str = "process",
    **overrides: Any,
) -> SuggestPanel:
    """The 「调平建议」 section of game ``name``'s balance page: the live card table by
    default (so "apply" is picked up by every page watching it); ``overrides`` set
    ``suggest`` options (``agent="random"``, ``players=6`` …)."""
    from throne_lib.kit.balance_panel import SuggestPanel

    h = hooks(name)
    args = options(name, **overrides)
    path = _cards(str(cards) if cards is not None else None, h)

    def make(text: str) -> BalanceGame:
        return h.make(text, args)

    from throne_lib.kit.balance.screening import screenable

    game = make(path.read_text(encoding="utf-8"))
    return SuggestPanel(
        make,
        path,
        getattr(game, "names", {}),
        backend,
        first_seat=h.first_seat,
        freeze_hint=h.freeze_hint,
        rules_type=h.rules_type,
        screen_block_rounds=getattr(game, "block_rounds", None) if screenable(game) else None,
    )


if __name__ == "__main__":
    raise SystemExit(main())
