"""A balance run read back from its Parquet file (``throne balance show``), where a
conclusion flips between two agents (``throne balance verify --agent``), and a
verification's figures as rows (``throne balance verify --out``).

The file ``throne balance suggest --out`` writes (:func:`~throne_lib.kit.balance_report.
result_frame`) has one row per (proposal, group), proposal 0 the unchanged table. What a
designer needs to re-read a run is in it: each proposal's full change list (column
``change_list_json``: card, field, old, new), every figure measured on the holdout
(``before``/``after`` with their intervals, ``matches``, the imbalances, the mean length,
``matchups_json``) and the run itself (``run_json``: the game, agent, command line,
every option, budget, targets, the card table's SHA-256, the lever ladder, the repair
steps and the search's Pareto set). Files from before ``run_json`` still show, with
what they hold.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from throne_lib.kit.balance import FIRST, GroupRate, Measure, Targets, Verification
from throne_lib.kit.balance_report import (
    RECOMMENDED,
    effect_lines,
    grid_lines,
    range_of,
    rules_label,
    rules_value,
    sure_of,
    targets_of,
)

# the columns every balance results file has had (``apply`` and ``verify`` read them)
REQUIRED = ("proposal", "group", "changes", "changes_json", "base_json", "after", "before")
WHAT = "a Parquet file written by `throne balance suggest --out`"


@dataclass(frozen=True)
class RunFile:
    """A balance results file, read and checked (:func:`load_run`)."""

    path: Path
    frame: pd.DataFrame
    run: dict[str, Any] | None  # column run_json; None: a file from before it
    options: dict[str, Any]  # column options_json: the agent and the game's own options

    @property
    def numbers(self) -> list[int]:
        """The proposals' numbers (1, 2, …; 0, the unchanged table, is not one)."""
        return sorted(int(n) for n in self.frame["proposal"].unique() if n > 0)

    @property
    def agent(self) -> str | None:
        """The agent every seat of the run played (None: not recorded)."""
        got = (self.run or {}).get("agent", self.options.get("agent"))
        return str(got) if got is not None else None

    @property
    def names(self) -> dict[str, str]:
        return dict((self.run or {}).get("names", {}))

    def rows(self, number: int) -> pd.DataFrame:
        """Proposal ``number``'s rows (0: the unchanged table); ValueError naming the
        proposals there are."""
        rows = self.frame[self.frame["proposal"] == number]
        if rows.empty:
            raise ValueError(
                f"{self.path}: no proposal {number}; there are {self.numbers or 'none'}"
            )
        return rows

    def touched_up(self, number: int) -> bool:
        """Was proposal ``number`` made by the touch-up on the holdout
        (``Budget.holdout_repair``)? False for a file from before it."""
        rows = self.rows(number)
        return "touched_up" in rows.columns and bool(rows["touched_up"].iloc[0])

    def repaired(self, number: int) -> bool:
        """Is proposal ``number`` the table the repair ended at (every move it kept), the
        one the run recommends? False for a file from before it was recorded."""
        rows = self.rows(number)
        return "repaired" in rows.columns and bool(rows["repaired"].iloc[0])

    @property
    def recommended(self) -> int | None:
        """The number of the proposal the run recommends (:meth:`repaired`), if any."""
        return next((n for n in self.numbers if self.repaired(n)), None)

    def changes(self, number: int) -> list[dict[str, Any]]:
        """Proposal ``number``'s full change list: ``key``, ``card`` ("" for a rules
        parameter), ``field``, ``old``, ``new``, ``name`` (the card's, when known)."""
        row = self.rows(number).iloc[0]
        if "change_list_json" in self.frame.columns:
            return list(json.loads(row["change_list_json"]))
        new, old = json.loads(row["changes_json"]), json.loads(row["base_json"])
        out = []
        for key in sorted(new):
            head, _, fld = key.partition(".")
            card = "" if head == "rules" else head
            out.append(
                {"key": key, "card": card, "field": fld, "old": old.get(key), "new": new[key]}
                | {"name": self.names.get(card, "")}
            )
        return out


def load_run(path: str | Path) -> RunFile:
    """Read a balance results file; a ValueError that says what is wrong with it (no
    such file, not Parquet, not balance results, a damaged record)."""
    p = Path(path)
    if not p.is_file():
        raise ValueError(f"{p}: no such file; expected {WHAT}")
    try:
        frame = pd.read_parquet(p, engine="pyarrow")
    except Exception as exc:  # pyarrow's errors: ArrowInvalid, OSError, …
        raise ValueError(f"{p}: not a readable Parquet file ({exc}); expected {WHAT}") from None
    lacks = [c for c in REQUIRED if c not in frame.columns]
    if lacks or frame.empty or not (frame["proposal"] == 0).any():
        what = f"lacks column(s) {', '.join(lacks)}" if lacks else "has no unchanged-table rows"
        raise ValueError(f"{p}: not balance results ({what}); expected {WHAT}")
    run: dict[str, Any] | None = None
    options: dict[str, Any] = {}
    try:
        if "run_json" in frame.columns:
            run = json.loads(frame["run_json"].iloc[0])
        if "options_json" in frame.columns:
            options = json.loads(frame["options_json"].iloc[0])
        for text in frame["changes_json"].unique():
            json.loads(text)
    except (json.JSONDecodeError, TypeError) as exc:
        raise ValueError(f"{p}: a damaged run record ({exc}); expected {WHAT}") from None
    return RunFile(p, frame, run, options)


def _pct(rate: float, low: float, high: float) -> str:
    if math.isnan(rate):
        return "   -"
    return f"{100 * rate:5.1f}% [{100 * low:4.1f}, {100 * high:4.1f}]"


def _label(group: str, names: Mapping[str, str]) -> str:
    if group == FIRST:
        return "first seat"
    return f"{group} {names[group]}" if group in names else group


def change_line(c: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """One change as ``show`` prints it: ``card (名字).field: old -> new`` or
    ``rules.name: old -> new`` (with the game's words for it when ``names`` has them:
    :func:`rules_label`, :func:`rules_value`)."""
    if not c["card"]:
        f, got = str(c["field"]), names or {}
        return f"{rules_label(f, got)}: {rules_value(f, c['old'], got)} -> {rules_value(f, c['new'], got)}"
    name = f" ({c['name']})" if c.get("name") else ""
    return f"{c['card']}{name}.{c['field']}: {c['old']} -> {c['new']}"


def _targets(rf: RunFile) -> Targets:
    return targets_of(rf.frame) or Targets()


def _header(rf: RunFile) -> list[str]:
    run = rf.run
    t = _targets(rf)
    first = rf.frame[rf.frame["proposal"] == 0]
    seed = int(first["seed"].iloc[0]) if "seed" in first.columns else None
    lines = [f"== balance run {rf.path} =="]
    if run is None:
        lines.append(
            "this file predates run records: its command line and budget were not kept "
            "(what it holds follows)"
        )
    else:
        lines.append(f"game: {run.get('game', '?')}; agent: {rf.agent} (every seat); seed {seed}")
        if run.get("command"):
            lines.append(f"command: {run['command']}")
    if run is None:
        lines.append(f"agent: {rf.agent or 'not recorded'}; seed {seed}")
    lines.append(
        f"targets: win rate per group {100 * t.band[0]:.0f}–{100 * t.band[1]:.0f}%"
        + (f", first seat ≤ {100 * t.first_seat_max:.0f}%" if t.first_seat_max < 1 else "")
        + (f", mean length {t.length[0]:g}–{t.length[1]:g}" if t.length else "")
        + f", first-seat weight {t.first_seat_weight:g}"
    )
    if run is not None:
        b = run.get("budget", {})
        lines.append("budget: " + ", ".join(f"{k} {v}" for k, v in b.items()))
        opts = dict(run.get("options", {}))
        knobs = opts.pop("rules_knobs", None) or {}
        if opts:
            lines.append("options: " + ", ".join(f"{k}={v}" for k, v in sorted(opts.items())))
        if knobs:
            lines.append(
                "rules knobs: "
                + ", ".join(
                    f"{k} {f.get('low')}–{f.get('high')} (today {f.get('base')})"
                    for k, f in knobs.items()
                )
            )
        cards = run.get("cards")
        if cards:
            lines.append(f"card table: {cards.get('path')} (sha256 {cards.get('sha256')})")
        lines.append(
            f"run: {run.get('matches_played')} matches; generations {run.get('generations_run')}"
            f", repair steps {run.get('repairs_run')}; unchanged table imbalance "
            f"{run.get('before_search', math.nan):.3f} on the search blocks"
        )
    elif rf.options:
        lines.append("options: " + ", ".join(f"{k}={v}" for k, v in sorted(rf.options.items())))
    return lines


def _rate_lines(
    rows: pd.DataFrame,
    targets: Targets,
    names: Mapping[str, str],
    where: str = "holdout",
    before_col: str = "before",
    after_col: str = "after",
) -> list[str]:
    """Each group's rate before and after (columns ``before_col``/``after_col`` with
    their ``_low``/``_high`` intervals) and whether it is on target."""
    lines = [f"{f'before ({where})':<26}{f'after ({where})':<26}on target  group"]
    lo, hi = targets.band
    for _, r in rows.iterrows():
        g, a = str(r["group"]), float(r[after_col])
        ok = a <= targets.first_seat_max if g == FIRST else lo <= a <= hi
        b = float(r[before_col])
        before = _pct(b, float(r[f"{before_col}_low"]), float(r[f"{before_col}_high"]))
        after = _pct(a, float(r[f"{after_col}_low"]), float(r[f"{after_col}_high"]))
        verdict = "-" if math.isnan(a) else ("yes" if ok else "NO")
        lines.append(f"{before:<26}{after:<26}{verdict:<11}{_label(g, names)}")
    return lines


def _grid(
    rows: pd.DataFrame, targets: Targets, names: Mapping[str, str], before: str, after: str | None
) -> list[str]:
    """:func:`grid_lines` of a proposal's rows (columns ``before``/``after`` with their
    intervals); empty unless the groups are keyed ``ROW@COL``."""

    def rates(col: str) -> dict[str, GroupRate]:
        return {
            str(r["group"]): GroupRate(
                str(r["group"]),
                0,
                float(r[col]),
                float(r[f"{col}_low"]),
                float(r[f"{col}_high"]),
            )
            for _, r in rows.iterrows()
            if r["group"] != FIRST
        }

    groups = [str(g) for g in rows["group"] if g != FIRST]
    got = grid_lines(groups, rates(before), rates(after) if after else None, names, targets.band)
    return got


def show_text(rf: RunFile, numbers: Sequence[int] | None = None) -> str:
    """The run's options, then each proposal of ``numbers`` (default: all) with its full
    change list and its figures on the holdout beside the unchanged table's."""
    for n in numbers or ():
        if n not in rf.numbers:
            raise ValueError(f"{rf.path}: no proposal {n}; there are {rf.numbers or 'none'}")
    lines = _header(rf)
    t = _targets(rf)
    names = rf.names
    base = rf.rows(0).iloc[0]
    lines.append(
        f"unchanged table on the holdout: imbalance {float(base['holdout_imbalance']):.3f}"
        if "holdout_imbalance" in rf.frame.columns
        else "unchanged table: see the rows below"
    )
    chosen = list(numbers) if numbers else rf.numbers
    verified = "verify_imbalance" in rf.frame.columns
    if verified:
        lines += list((rf.run or {}).get("verification", {}).get("lines", []))
    if not chosen:
        lines += ["", "no proposal improved on the unchanged table"]
        if verified:  # the unchanged table on the verification seeds: the verdict's data
            lines += _rate_lines(rf.rows(0), t, names, "verify", "verify_before", "verify")
            lines += _grid(rf.rows(0), t, names, "verify", None)
        else:
            lines += _rate_lines(rf.rows(0), t, names)
            lines += _grid(rf.rows(0), t, names, "before", None)
    for n in chosen:
        rows = rf.rows(n)
        r = rows.iloc[0]
        ch = rf.changes(n)
        head = (
            f"== proposal {n}: {len(ch)} change(s), size {float(r.get('size', math.nan)):g}, "
            f"imbalance search {float(r.get('search_imbalance', math.nan)):.3f} -> holdout "
            f"{float(r.get('holdout_imbalance', math.nan)):.3f}"
        )
        if verified:
            played = ((rf.run or {}).get("verification", {}) or {}).get("played") or {}
            cannot = played and played.get("half_width", 0) > played.get("band_half", 1)
            head += (
                f" -> verification {float(r['verify_imbalance']):.3f} (unchanged table "
                f"{float(base['verify_imbalance']):.3f}); targets met on the verification "
                f"seeds: {'yes' if bool(r.get('meets', False)) else 'no'}"
                + (" (but the budget cannot tell)" if cannot else "")
                + (
                    "; touched up on the holdout, which chose its last moves"
                    if rf.touched_up(n)
                    else ""
                )
                + (RECOMMENDED if rf.repaired(n) else "")
                + " =="
            )
        else:
            head += (
                f" (before {float(base.get('holdout_imbalance', math.nan)):.3f}); targets met "
                f"on holdout: {'yes' if bool(r.get('meets', False)) else 'no'} =="
            )
        lines += [
            "",
            head,
            "changes (card.field: old -> new):",
            *(f"  {change_line(c, names)}" for c in ch),
        ]
        if "effects_json" in rows.columns:
            lines += effect_lines(json.loads(r["effects_json"]), names)
        if verified:
            lines += _rate_lines(rows, t, names, "verify", "verify_before", "verify")
            lines += _grid(rows, t, names, "verify_before", "verify")
        else:
            lines += _rate_lines(rows, t, names)
            lines += _grid(rows, t, names, "before", "after")
        if "mean_length" in rows.columns:
            lines.append(
                f"mean length (rounds): {float(base['mean_length']):.1f} -> "
                f"{float(r['mean_length']):.1f}"
            )
    return "\n".join(lines)


# --- where a conclusion flips between two agents -----------------------------------------


@dataclass(frozen=True)
class Flip:
    """One figure under two agents on the same matches: the rate (with its 95% interval)
    and whether it is on target (in band; the first seat: under its bound) under each.
    ``ok_*`` is None when the figure has no rate (a group never seated)."""

    group: str  # FIRST for the first seat
    a: GroupRate
    b: GroupRate
    ok_a: bool | None
    ok_b: bool | None

    @property
    def flips(self) -> bool:
        return self.ok_a is not None and self.ok_b is not None and self.ok_a != self.ok_b

    @property
    def clear(self) -> bool:
        """A flip whose two 95% intervals do not overlap: the agents differ beyond what
        the sample's dice would explain."""
        return self.flips and (self.a.ci_high < self.b.ci_low or self.b.ci_high < self.a.ci_low)


def _ok(group: str, rate: float, targets: Targets) -> bool | None:
    if math.isnan(rate):
        return None
    if group == FIRST:
        return rate <= targets.first_seat_max
    return targets.band[0] <= rate <= targets.band[1]


def agent_flips(
    groups: Sequence[str], targets: Targets, a: Measure, b: Measure, first_seat: bool = True
) -> list[Flip]:
    """Every figure (the first seat when ``first_seat``, then each group) under agent A
    (``a``) and agent B (``b``), measured on the same matches."""
    keys = ([FIRST] if first_seat else []) + list(groups)
    out = []
    for g in keys:
        ra, rb = a.rates[g], b.rates[g]
        out.append(Flip(g, ra, rb, _ok(g, ra.win_rate, targets), _ok(g, rb.win_rate, targets)))
    return out


def _verdict(ok: bool | None) -> str:
    return "-" if ok is None else ("in" if ok else "OUT")


def flip_lines(
    title: str,
    flips: Sequence[Flip],
    a: Measure,
    b: Measure,
    agents: tuple[str, str],
    names: Mapping[str, str] | None = None,
) -> list[str]:
    """The flip table of one table (the unchanged one or a proposal): the first seat
    always, and every group out of band under either agent, each with its 95% interval;
    a row whose conclusion differs between the agents is marked ``FLIPS``, and ``FLIPS!``
    when the two intervals do not overlap (:attr:`Flip.clear`)."""
    names = names or {}
    name_a, name_b = agents
    flipped = [f for f in flips if f.flips]
    shown = [f for f in flips if f.group == FIRST or f.ok_a is False or f.ok_b is False]
    quiet = len(flips) - len(shown)
    clear = sum(f.clear for f in flipped)
    lines = [
        f"{title}: {len(flipped)} of {len(flips)} conclusions flip"
        + (f" ({', '.join(_label(f.group, names) for f in flipped)})" if flipped else "")
        + (f", {clear} beyond the intervals" if flipped else "")
        + f"; targets met: {name_a} {'yes' if a.meets else 'no'}, "
        f"{name_b} {'yes' if b.meets else 'no'}",
        f"  {name_a:<30}{name_b:<30}{'':<8}figure",
    ]
    for f in shown:
        ca = f"{_pct(f.a.win_rate, f.a.ci_low, f.a.ci_high)} {_verdict(f.ok_a)}"
        cb = f"{_pct(f.b.win_rate, f.b.ci_low, f.b.ci_high)} {_verdict(f.ok_b)}"
        mark = ("FLIPS!" if f.clear else "FLIPS") if f.flips else ""
        lines.append(f"  {ca:<30}{cb:<30}{mark:<8}{_label(f.group, names)}")
    if quiet:
        lines.append(f"  ({quiet} more in band under both agents)")
    return lines


def agents_text(
    groups: Sequence[str],
    targets: Targets,
    under_a: tuple[Measure, Mapping[int, Measure]],
    under_b: tuple[Measure, Mapping[int, Measure]],
    agents: tuple[str, str],
    names: Mapping[str, str] | None = None,
    first_seat: bool = True,
) -> str:
    """Where the conclusions flip between the run's agent (A) and another (B), measured
    on the same verification seeds: the unchanged table and each proposal."""
    (before_a, after_a), (before_b, after_b) = under_a, under_b
    lines = [
        f"== agents: {agents[0]} (the run's) against {agents[1]}, on the same verification "
        "seeds ==",
        "in/OUT: on target (in band; the first seat under its bound) by the point estimate, "
        "with 95% intervals; FLIPS: in under one agent, out under the other; FLIPS!: and "
        "the two intervals do not overlap (more than the dice of this sample)",
    ]
    tables = [("unchanged table", before_a, before_b)]
    tables += [(f"proposal {n}", after_a[n], after_b[n]) for n in sorted(after_a)]
    for title, a, b in tables:
        flips = agent_flips(groups, targets, a, b, first_seat)
        lines += ["", *flip_lines(title, flips, a, b, agents, names)]
    return "\n".join(lines)


def verification_frame(
    v: Verification,
    names: Mapping[str, str] | None = None,
    agent: str | None = None,
    source: str = "",
) -> pd.DataFrame:
    """The verification as rows (``balance verify --out``), one per table and group:
    ``proposal`` (0: the unchanged table), ``group`` (``first`` for the first seat),
    ``name``, ``matches``, ``win_rate``, ``ci_low``, ``ci_high``, the target range
    (``target_low``/``target_high``: the band, or the first seat's bound), ``on_target``
    (the point estimate), ``sure`` (the interval wholly in or out), and per table
    ``meets`` (every target), ``imbalance`` and ``mean_length``; the run's ``agent``,
    ``verify_seed``, ``blocks`` and ``results`` (the file verified) in every row."""
    names = names or {}
    rows: list[dict[str, Any]] = []
    for number, m in [(0, v.before), *sorted(v.after.items())]:
        for g in [*v.groups, FIRST]:
            r = m.rates[g]
            if g == FIRST and r.matches == 0:  # a game without a first seat (城堡之心)
                continue
            low, high = range_of(g, v.targets)
            rows.append(
                {
                    "proposal": number,
                    "group": g,
                    "name": "first seat" if g == FIRST else names.get(g, g),
                    "matches": r.matches,
                    "win_rate": r.win_rate,
                    "ci_low": r.ci_low,
                    "ci_high": r.ci_high,
                    "target_low": max(low, 0.0),
                    "target_high": high,
                    "on_target": bool(low <= r.win_rate <= high),
                    "sure": sure_of(r, low, high) == "sure",
                    "meets": m.meets,
                    "imbalance": m.imbalance,
                    "mean_length": m.mean_length,
                    "agent": agent or "",
                    "verify_seed": v.seed,
                    "blocks": v.blocks,
                    "results": source,
                }
            )
    return pd.DataFrame(rows)
