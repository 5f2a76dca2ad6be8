"""Did my change help? Two variants of a game on the same seeds, and what changed.

``throne compare --game NAME [--set field=value …] [--cards A.csv B.csv] [--agents A B]``
plays the base variant (the game's rules, card table A or the game's own, agent A) and
the changed variant (the rules with the ``--set`` changes, card table B or A, agent B or
A) on the **same match specs**: the same seed list, setups and agents per seed (common
random numbers). Everything the game's ``throne simulate`` takes chooses those specs
(``--seats``, ``--agent``, Throne's ``--blue/--red/--round-robin``, 城池战's ``--teams`` …).
``--agents A B`` puts agent A in every seat of the base and B in every seat of the
variant: does a figure describe the game, or the agent that played it?
``--results A.parquet B.parquet`` pairs two saved ``throne simulate`` runs of the same
seeds instead of playing (a long run with the search is not played twice).

What it prints, per figure, is a **paired** comparison: for each seed the variant's
value minus the base's, then the mean of those differences and its 95% interval
``mean ± 1.96 · sd / √n`` (sd of the per-seed differences, n the seeds where the figure
exists in both; a normal approximation — with common random numbers most per-seed
differences are 0, so the interval is much narrower than two independent runs would give).
A ``*`` marks an interval that excludes 0. The figures:

- ``win rate · seat``: each seat's score (1 win, 1/N of a draw, 0 loss);
- ``win rate · FIELD``: per value of each of the game's groups (``SimHooks.groups``:
  Throne's generals and races, 城堡之心's roles and heroes, 城池战's team sizes, starting
  cities and heroes, a setup): the mean score of the seats with that value in the match;
- ``first player``: the score of the seat that moved first (a ``first`` column), else of seat 0;
- ``length``: actions, and rounds / turns where the game records them;
- ``end``: the share of matches per end rule / reason (``end_reason``, ``end_rule``), and draws.

>>> from throne_lib.kit import registry
>>> game = registry.get("goofspiel")
>>> from throne_lib.kit.sim import seat_specs
>>> specs = seat_specs("goofspiel", ["player", "player"], ["random", "random"], 4)
>>> cmp = run_compare(game, specs, {}, workers=1, progress=False)
>>> float(cmp.table["delta"].abs().max())
0.0
"""

from __future__ import annotations

import argparse
import math
import sys
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import pandas as pd

from throne_lib.kit import registry
from throne_lib.kit.agents import agent_arg
from throne_lib.kit.analytics import seat_names, seat_scores
from throne_lib.kit.protocol import DRAW
from throne_lib.kit.sim import (
    MatchSpec,
    _table,
    build_parser,
    game_and_args,
    load_results,
    options_of,
    plain_specs,
    save_results,
    sim_hooks,
    simulate,
    table_text,
    with_rules,
)
from throne_lib.kit.stats import Z95

RATE_SECTIONS = ("win rate", "first player", "end")
LENGTHS = ("actions", "rounds", "turns")
ENDS = ("end_reason", "end_rule")
COLUMNS = ["section", "key", "n", "base", "variant", "delta", "ci_low", "ci_high"]


@dataclass
class Comparison:
    """The two result frames (one row per match, paired by ``match``) and the table of
    paired deltas (:func:`paired_table`)."""

    game: str
    changes: dict[str, Any]
    cards: tuple[str | None, str | None]
    base: pd.DataFrame
    variant: pd.DataFrame
    table: pd.DataFrame = field(default_factory=pd.DataFrame)
    agents: tuple[str | None, str | None] = (None, None)
    sources: tuple[str, str] | None = None  # the two saved runs of ``--results``

    def rows(self) -> pd.DataFrame:
        """Both variants' match rows, marked ``variant`` = base / variant, with the rule
        changes (JSON) and card table of each (``--out``)."""
        from throne_lib.kit.variants import changes_text

        a, b = self.cards
        base = self.base.assign(variant="base", rules="{}", cards=a or "")
        var = self.variant.assign(variant="variant", rules=changes_text(self.changes), cards=b or a or "")  # fmt: skip
        return pd.concat([base, var], ignore_index=True)


def with_agent(specs: Sequence[MatchSpec], agent: str) -> list[MatchSpec]:
    """The same specs with ``agent`` (a name or spec, ``ismcts:iterations=10``) in every
    seat and no other agent parameters: the seeds and setups stay."""
    return [replace(s, agents=(agent,) * s.seats, params=()) for s in specs]


def run_compare(
    game: registry.Game,
    specs: Sequence[MatchSpec],
    changes: dict[str, Any],
    cards: tuple[str | None, str | None] = (None, None),
    workers: int | None = None,
    backend: str = "process",
    scheduler: str | None = None,
    progress: bool = True,
    on_row: Callable[[dict[str, Any]], None] | None = None,
    agents: tuple[str | None, str | None] = (None, None),
) -> Comparison:
    """Play ``specs`` as they are (card table ``cards[0]``, default the game's; agent
    ``agents[0]`` in every seat if given) and with the rule ``changes`` (card table
    ``cards[1]``, default ``cards[0]``; agent ``agents[1]``, default the base's): the same
    seeds and setups. Returns both frames and the paired table. ``on_row`` is called with
    each finished match's row (both variants: a dashboard's progress bar)."""
    base = with_agent(specs, agents[0]) if agents[0] else list(specs)
    variant = with_rules(game, base, changes)
    if agents[1]:
        variant = with_agent(variant, agents[1])
    run: dict[str, Any] = {"workers": workers, "backend": backend, "scheduler": scheduler, "progress": progress, "on_row": on_row}  # fmt: skip
    base_df = simulate(base, cards=cards[0], **run)
    var_df = simulate(variant, cards=cards[1] or cards[0], **run)
    cmp = Comparison(game.name, dict(changes), cards, base_df, var_df, agents=agents)
    cmp.table = paired_table(game, base_df, var_df)
    return cmp


def compare_results(game: registry.Game, a: str, b: str) -> Comparison:
    """Pair two saved ``throne simulate`` runs (Parquet) match by match: they must have
    played the same seeds in the same order (``match`` → ``seed``), else a ``ValueError``
    names the first match where they differ."""
    base, variant = load_results(a), load_results(b)
    for path, df in ((a, base), (b, variant)):
        if not {"match", "seed"} <= set(df.columns):
            raise ValueError(f"{path}: not a throne simulate result (no match/seed columns)")
        if "game" in df and len(df) and set(df["game"].astype(str)) != {game.name}:
            raise ValueError(f"{path}: results of {sorted(set(df['game']))}, not {game.name}")
    seeds = pd.concat(
        [
            base.set_index("match")["seed"].rename("a"),
            variant.set_index("match")["seed"].rename("b"),
        ],
        axis=1,
        join="inner",
    )
    if seeds.empty:
        raise ValueError(f"{a} and {b} have no match in common")
    differ = seeds[seeds["a"] != seeds["b"]]
    if len(differ):
        m = differ.index[0]
        raise ValueError(
            f"{a} and {b} did not play the same seeds: match {m} is seed {differ.loc[m, 'a']} "
            f"in one and {differ.loc[m, 'b']} in the other"
        )
    cmp = Comparison(game.name, {}, (None, None), base, variant, agents=(_agents_of(base), _agents_of(variant)), sources=(a, b))  # fmt: skip
    cmp.table = paired_table(game, base, variant)
    return cmp


def _agents_of(df: pd.DataFrame) -> str | None:
    """The agents of a run's rows, as text (``standard`` or ``random, standard``)."""
    cols = [c for c in df.columns if c.endswith("_agent")]
    names = sorted({str(v) for c in cols for v in df[c].dropna()})
    return ", ".join(names) or None


def check_setups_playable(
    game: registry.Game,
    specs: Sequence[MatchSpec],
    path: str,
    changes: dict[str, Any] | None = None,
) -> None:
    """Build each distinct setup of ``specs`` (made from table A) on the card table at
    ``path`` (table B), before any match: a comparison plays the same setups on both
    tables (common random numbers), so a deck card or general that B removed is named
    here, with both tables, instead of failing after the base variant has played."""
    from throne_lib.kit.variants import with_changes

    text = table_text(game, path)
    table = _table(game.name, text) if text is not None else None
    seen: set[str] = set()
    for spec in specs:
        key = repr(spec.setups)
        if key in seen:
            continue
        seen.add(key)
        opts = with_changes(game, options_of(spec, table), changes or {})
        try:
            game.new(list(spec.setups), spec.seed, **opts)
        except (ValueError, TypeError, KeyError) as exc:
            raise ValueError(
                f"card table B ({path}) cannot play match {spec.index}'s setup, which was "
                f"built from table A: {exc}. A comparison plays the same setups on both "
                "tables; keep what the setups use in B (or change it rather than remove it)"
            ) from None


def default_specs(
    game: registry.Game,
    n: int,
    seed: int = 0,
    argv: Sequence[str] = (),
    cards: str | None = None,
) -> list[MatchSpec]:
    """The specs ``throne compare --game NAME -n N --seed S ARGV…`` plays (the game's
    ``throne simulate`` options in ``argv``; setups built from the table ``cards``)."""
    args = build_compare_parser(game).parse_args(["-n", str(n), "--seed", str(seed), *argv])
    text = table_text(game, cards)
    table = _table(game.name, text) if text is not None else None
    return plain_specs(game, args, table)


# --- the per-match figures -------------------------------------------------------------


def figures(game: registry.Game, df: pd.DataFrame) -> dict[tuple[str, str], pd.Series]:
    """Every figure of every match of ``df``: (section, key) -> a Series indexed by
    ``match`` (NaN where the figure does not exist in that match, e.g. a hero not dealt)."""
    out: dict[tuple[str, str], pd.Series] = {}
    if df.empty:
        return out
    df = df.set_index("match", drop=False)
    names = seat_names(df)
    scores = seat_scores(df)
    for s in names:
        out[("win rate · seat", s)] = scores[s].astype(float)
    for fld in getattr(sim_hooks(game), "groups", ("setup",)):
        for key, series in _group_scores(df, names, scores, fld).items():
            out[(f"win rate · {fld}", key)] = series
    if "first" in df:
        table = scores.to_dict("index")
        out[("first player", "first player")] = pd.Series(
            [float(table[i].get(w, math.nan)) for i, w in df["first"].items()], index=df.index
        )
    elif names:  # the game does not say who moved first: seat 0
        label = "seat 0" if names[0] == "seat0" else f"seat 0 ({names[0]})"
        out[("first player", label)] = scores[names[0]].astype(float)
    for col in LENGTHS:
        if col in df:
            out[("length", col)] = df[col].astype(float)
    for col in ENDS:
        if col in df:
            for value in sorted(df[col].dropna().astype(str).unique()):
                out[("end", f"{col}={value}")] = (df[col].astype(str) == value).astype(float)
    out[("end", DRAW)] = (df["winner"] == DRAW).astype(float)
    return out


def _group_scores(
    df: pd.DataFrame, names: list[str], scores: pd.DataFrame, fld: str
) -> dict[str, pd.Series]:
    """Per value of the per-seat field ``fld``: the mean score of the seats holding it,
    per match (NaN: no seat held it)."""
    cols = [(s, f"{s}_{fld}") for s in names if f"{s}_{fld}" in df]
    if not cols:
        return {}
    parts = [
        pd.DataFrame({"match": df.index, "value": df[c].astype(str), "score": scores[s]})
        for s, c in cols
    ]
    long = pd.concat(parts, ignore_index=True)
    long = long[df[[c for _, c in cols]].notna().to_numpy().T.reshape(-1)]
    values = set(long["value"])
    if len(values) < 2 or values <= set(names):  # one value, or just the seats again
        return {}
    wide = long.groupby(["match", "value"])["score"].mean().unstack("value")
    wide = wide.reindex(df.index)
    return {str(v): wide[v].astype(float) for v in sorted(wide.columns, key=str)}


def paired_table(game: registry.Game, base: pd.DataFrame, variant: pd.DataFrame) -> pd.DataFrame:
    """One row per figure: the seeds where it exists in both variants (``n``), its mean
    in each, and the mean of the per-seed differences (variant − base) with its 95%
    interval ``± 1.96 · sd / √n`` (``ci_low``/``ci_high``; NaN with fewer than 2 seeds)."""
    a, b = figures(game, base), figures(game, variant)
    keys = list(dict.fromkeys([*a, *b]))
    sections = list(dict.fromkeys(k[0] for k in keys))
    keys.sort(key=lambda k: (sections.index(k[0]), k[0] == "end" and (k[1] == DRAW, k[1])))
    rows = []
    for key in keys:
        x = a.get(key, _absent(key, base))
        y = b.get(key, _absent(key, variant))
        both = pd.concat([x.rename("x"), y.rename("y")], axis=1, join="inner").dropna()
        n = len(both)
        d = both["y"] - both["x"]
        mean = float(d.mean()) if n else math.nan
        half = Z95 * float(d.std(ddof=1)) / math.sqrt(n) if n >= 2 else math.nan
        rows.append(
            {
                "section": key[0],
                "key": key[1],
                "n": n,
                "base": float(both["x"].mean()) if n else math.nan,
                "variant": float(both["y"].mean()) if n else math.nan,
                "delta": mean,
                "ci_low": mean - half,
                "ci_high": mean + half,
            }
        )
    return pd.DataFrame(rows, columns=COLUMNS)


def _absent(key: tuple[str, str], df: pd.DataFrame) -> pd.Series:
    """A figure one variant never shows: an end rule it never used counts 0 per match; a
    group value it never dealt does not exist (NaN)."""
    index = df["match"] if "match" in df else pd.Index([])
    fill = 0.0 if key[0] == "end" else math.nan
    return pd.Series(fill, index=pd.Index(index), dtype=float)


# --- text ------------------------------------------------------------------------------


def compare_text(cmp: Comparison, top: int = 12) -> str:
    """The comparison as text: what changed, then each section's rows (a group with many
    values — heroes — shows its ``top`` biggest moves)."""
    from throne_lib.kit.variants import changes_text

    t = cmp.table
    both = [df for df in (cmp.base, cmp.variant) if "seed" in df and len(df)]
    seeds = sorted(set(both[0]["seed"]) & set(both[1]["seed"])) if len(both) == 2 else []
    span = f"seeds {seeds[0]}..{seeds[-1]}" if seeds else "no seeds"
    a, b = cmp.cards
    same = "same setups" if any(cmp.agents) else "same setups and agents"
    lines = [
        f"{cmp.game}: base vs variant, {len(cmp.base)} + {len(cmp.variant)} matches, paired on "
        f"the {len(seeds)} seeds both played ({span}), {same}",
    ]
    if cmp.sources:
        lines.append(f"saved runs: base {cmp.sources[0]}, variant {cmp.sources[1]}")
    else:
        lines.append(f"variant rules: {changes_text(cmp.changes) if cmp.changes else '(unchanged)'}")  # fmt: skip
    if any(cmp.agents):
        base_agent = cmp.agents[0] or "as the options chose"
        lines.append(f"agents: base {base_agent}, variant {cmp.agents[1] or base_agent}")
    if a or b:
        lines.append(f"card tables: base {a or '(the game’s)'}, variant {b or a or '(the game’s)'}")
    lines.append(
        "delta = variant - base, mean of per-seed differences; 95% CI = ± 1.96·sd/√n "
        "(* : excludes 0)"
    )
    for section in dict.fromkeys(t["section"]):
        part = t[t["section"] == section]
        if len(part) > top:
            order = part["delta"].abs().sort_values(ascending=False, kind="stable").index
            part = part.loc[order[:top]]
            lines += ["", f"== {section} (the {top} biggest moves of {int((t['section'] == section).sum())}) =="]  # fmt: skip
        else:
            lines += ["", f"== {section} =="]
        rate = section.startswith(RATE_SECTIONS)
        lines += _rows_text(part, rate)
    return "\n".join(lines)


def _rows_text(part: pd.DataFrame, rate: bool) -> list[str]:
    def num(v: float, sign: bool = False) -> str:
        if math.isnan(v):
            return "-"
        if rate:
            return f"{v * 100:+.1f}" if sign else f"{v * 100:.1f}%"
        return f"{v:+.2f}" if sign else f"{v:.1f}"

    rows = []
    for rec in part.to_dict("records"):
        v = {k: float(rec[k]) for k in ("base", "variant", "delta", "ci_low", "ci_high")}
        ci = f"[{num(v['ci_low'], True)}, {num(v['ci_high'], True)}]"
        mark = "*" if v["ci_low"] > 0 or v["ci_high"] < 0 else ""
        rows.append([str(rec["key"]), str(rec["n"]), num(v["base"]), num(v["variant"]), num(v["delta"], True), ci, mark])  # fmt: skip
    head = ["", "n", "base", "variant", "delta" + (" pp" if rate else ""), "95% CI", ""]
    widths = [max(_width(x[i]) for x in [head, *rows]) for i in range(len(head))]
    out = []
    for x in [head, *rows]:
        pads = [" " * (w - _width(c)) for c, w in zip(x, widths, strict=True)]
        cells = [x[0] + pads[0]] + [p + c for c, p in zip(x[1:], pads[1:], strict=True)]
        out.append("  ".join(cells).rstrip())
    return out


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal (a CJK character: two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


# --- command line ------------------------------------------------------------------------


def build_compare_parser(game: registry.Game) -> argparse.ArgumentParser:
    """``throne simulate``'s options for the game (which matches: seats, agents, setups …)
    with ``--cards A B``, ``--out`` optional and 100 seeds unless told."""
    p = build_parser(
        game,
        prog="throne compare",
        description=f"{game.title} ({game.name}): the base rules/cards against a variant on "
        "the same seeds; paired deltas with 95% intervals (docs/balance.md)",
    )
    p.add_argument("--cards", nargs=2, metavar=("A.csv", "B.csv"), default=None,
                   help="card tables: base A, variant B (default: the game's, both)")  # fmt: skip
    p.add_argument("--agents", nargs=2, metavar=("A", "B"), default=None, type=agent_arg(game.name),
                   help="agent of every seat: A in the base, B in the variant (a name or "
                   "NAME:key=value…, e.g. standard ismcts:iterations=10)")  # fmt: skip
    p.add_argument("--results", nargs=2, metavar=("A.parquet", "B.parquet"), default=None,
                   help="pair two saved throne simulate runs of the same seeds (no match "
                   "is played)")  # fmt: skip
    p.add_argument("--out", default=None, help="keep both variants' match rows (Parquet)")
    p.add_argument("--top", type=int, default=12, help="rows per group with many values")
    p.set_defaults(matches=100)
    return p


def compare_main(argv: Sequence[str] | None = None) -> int:
    """``throne compare``: exit 0 on success, 1 on an error (one line on stderr), 2 on a
    usage error."""
    got = game_and_args(argv, "throne compare", build_compare_parser)
    if got is None:
        return 1
    game, args = got
    from throne_lib.kit.variants import check_variant, parse_sets

    try:
        if args.results:
            if args.sets or args.cards or args.agents:
                raise ValueError("--results pairs two saved runs: no --set, --cards or --agents")  # fmt: skip
            cmp = compare_results(game, *args.results)
            print(compare_text(cmp, args.top))
            return 0
        changes = parse_sets(game, args.sets) if args.sets else {}
        agents: tuple[str | None, str | None] = (args.agents[0], args.agents[1]) if args.agents else (None, None)  # fmt: skip
        if not changes and not args.cards and not args.agents:
            raise ValueError("nothing to compare: give --set FIELD=VALUE, --cards A.csv B.csv and/or --agents A B")  # fmt: skip
        cards: tuple[str | None, str | None] = (args.cards[0], args.cards[1]) if args.cards else (None, None)  # fmt: skip
        if args.cards and game.parse_table is None:
            raise ValueError(f"{game.name} has no card table to compare")
        for path in cards:
            if path is not None:
                game.load_table(path)  # a broken table: its problems, before any match
        text = table_text(game, cards[0])
        table = _table(game.name, text) if text is not None else None
        specs = plain_specs(game, args, table)
        if specs:
            check_variant(game, changes, specs[0].setups, options_of(specs[0], table))
        if specs and cards[1] is not None and cards[1] != cards[0]:
            check_setups_playable(game, specs, cards[1], changes)
        cmp = run_compare(
            game, specs, changes, cards, args.workers, args.backend, args.scheduler,
            not args.no_progress, agents=agents,
        )  # fmt: skip
    except (ValueError, OSError) as exc:
        problems = getattr(exc, "problems", None)
        if isinstance(problems, list) and problems:
            for p in problems:
                print(f"throne compare: {p}", file=sys.stderr)
        else:
            print(f"throne compare: {exc}", file=sys.stderr)
        return 1
    print(compare_text(cmp, args.top))
    if args.out:
        out = save_results(cmp.rows(), args.out)
        print(f"\nmatch rows of both variants -> {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(compare_main())
