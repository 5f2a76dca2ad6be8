"""Output of the balance search: the text report, the Parquet frame, applying a proposal.

See :mod:`throne_lib.kit.balance` for the search itself and ``docs/balance.md`` for how
to read the report.
"""

from __future__ import annotations

import dataclasses
import json
import math
import unicodedata
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from throne_lib.kit.balance import (
    FIRST,
    LEVER_HEADROOM,
    BalanceGame,
    BalanceResult,
    ChangeEffect,
    Changes,
    GroupRate,
    Measure,
    Proposal,
    Targets,
    Verification,
    apply_card_changes,
    base_values,
)
from throne_lib.kit.balance_steps import (
    _knob,
    _repair_lines,
    _screen_lines,
    _value,
    rules_label,
    rules_value,
)
from throne_lib.kit.carddiff import Sheet
from throne_lib.kit.textfile import write_atomic

# the version of column ``run_json`` (:func:`run_record`); files without it predate it
RUN_FORMAT = 1
# A proposal heading's note for the table the repair ended at (Proposal.repaired)
RECOMMENDED = "; recommended: the repair's table, every move it kept"


def _pct(r: GroupRate) -> str:
    if math.isnan(r.win_rate):
        return "   -"
    return f"{100 * r.win_rate:5.1f}% [{100 * r.ci_low:4.1f}, {100 * r.ci_high:4.1f}]"


def _lever_lines(res: BalanceResult) -> list[str]:
    """The first-seat lever ladder the card search started from (search blocks)."""
    if not res.levers:
        return []
    lines = [
        f"first-seat levers (search blocks; the card search starts from the fewest steps "
        f"≤ {100 * (res.targets.first_seat_max - LEVER_HEADROOM):.1f}%):"
    ]
    for lv in res.levers:
        what = ", ".join(f"{k.removeprefix('rules.')} {v}" for k, v in lv["changes"])
        if lv["dropped_at"] is not None:
            got = f"dropped by racing after {lv['dropped_at']} blocks"
        else:
            got = f"first seat {100 * lv['first_rate']:.1f}%, imbalance {lv['imbalance']:.3f}"
        lines.append(f"  {what}: {got}" + ("  <- start" if lv["start"] else ""))
    return lines


def grid_lines(
    groups: Sequence[str],
    before: Mapping[str, GroupRate],
    after: Mapping[str, GroupRate] | None,
    names: Mapping[str, str],
    band: tuple[float, float],
) -> list[str]:
    """Groups keyed ``ROW@COL`` (城堡之心's ``lord@5``: a role at a seat count) as a grid,
    one line per COL and one column per ROW: each cell the rate before -> after (%) with
    the after's 95% interval (``after`` None: the rate before with its interval), ``*``
    when that rate is outside ``band``. Empty when some group is not so keyed. The
    column's title is the ROW's name after a ``·`` in ``names`` (``5人·城主`` -> 城主),
    the line's the part before it."""
    cells: dict[str, dict[str, str]] = {}
    cols: list[str] = []
    rows: list[str] = []
    for g in groups:
        role, at, count = g.partition("@")
        if not at or not role or not count:
            return []
        if role not in cols:
            cols.append(role)
        if count not in rows:
            rows.append(count)
        b, a = before[g], (after or before)[g]
        if math.isnan(a.win_rate) and math.isnan(b.win_rate):
            text = "-"
        elif after is None:
            out = not band[0] <= a.win_rate <= band[1]
            text = f"{100 * a.win_rate:.0f} [{100 * a.ci_low:.0f}, {100 * a.ci_high:.0f}]"
            text += "*" if out else ""
        else:
            out = not math.isnan(a.win_rate) and not band[0] <= a.win_rate <= band[1]
            pct = "-" if math.isnan(b.win_rate) else f"{100 * b.win_rate:.0f}"
            after_text = (
                "-"
                if math.isnan(a.win_rate)
                else f"{100 * a.win_rate:.0f} [{100 * a.ci_low:.0f}, {100 * a.ci_high:.0f}]"
            )
            text = f"{pct} -> {after_text}{'*' if out else ''}"
        cells.setdefault(count, {})[role] = text

    def title(key: str, part: int) -> str:
        name = names.get(key, "")
        return name.split("·")[part] if "·" in name else key.split("@")[1 - part]

    heads = {c: next((title(g, 1) for g in groups if g.startswith(f"{c}@")), c) for c in cols}
    width = max(20, *(_width(t) + 2 for r in cells.values() for t in r.values()))
    what = "win rate %" if after is None else "before -> after %"
    lines = [
        f"the groups as a grid ({what} [95% interval]; * outside the band "
        f"{100 * band[0]:.0f}–{100 * band[1]:.0f}%):",
        _pad("", 8) + "".join(_pad(heads[c], width) for c in cols),
    ]
    for r in rows:
        head = title(next(g for g in groups if g.endswith(f"@{r}")), 0)
        lines.append(_pad(head, 8) + "".join(_pad(cells[r].get(c, ""), width) for c in cols))
    return [line.rstrip() for line in lines]


def _width(text: str) -> int:
    """Columns ``text`` takes in a terminal (a CJK character takes two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(1, width - _width(text))


def rules_lines(
    changes: Sequence[tuple[str, object, object]], names: Mapping[str, str]
) -> list[str]:
    """A proposal's rules changes, one line each, in the game's words when it has them."""
    return [
        f"rules: {rules_label(n, names)[6:]} {rules_value(n, o, names)} -> "
        f"{rules_value(n, v, names)}"
        for n, o, v in changes
    ]


def report_text(
    res: BalanceResult, names: Mapping[str, str] | None = None, agent: str | None = None
) -> str:
    """The readable report: targets, budget (and ``agent``, the one every seat played,
    when given), then each proposal's diff, rules changes and before/after win rates
    (holdout, 95% intervals)."""
    t, b = res.targets, res.budget
    names = names or {}
    lines = [
        "== balance suggestions ==",
        *([f"agent: {agent} (every seat)"] if agent else []),
        f"targets: win rate per group {100 * t.band[0]:.0f}–{100 * t.band[1]:.0f}%, "
        f"first seat ≤ {100 * t.first_seat_max:.0f}%"
        + (f", mean length {t.length[0]:g}–{t.length[1]:g}" if t.length else "")
        + (
            f"; the search aims at {100 * t.aimed(b.aim).band[0]:.0f}–"
            f"{100 * t.aimed(b.aim).band[1]:.0f}%"
            if b.aim
            else ""
        ),
        f"budget: population {b.population}, generations {b.generations}, "
        f"{b.blocks} search blocks, {b.holdout_blocks} holdout blocks, ≤ {b.max_changes} changes; "
        f"seed {res.seed}"
        + (f", time limit {b.time_limit / 60:g} min" if b.time_limit is not None else ""),
        *(
            [
                f"stopped by the time limit after generation {res.generations_run} of "
                f"{b.generations} (rerun with --generations {res.generations_run} to repeat it)"
            ]
            if res.generations_run < b.generations
            else []
        ),
        *(
            [
                ("screened repair" if b.screen else "repair")
                + f": {res.repairs_run} of {b.repair} steps"
                + {
                    "time": " (stopped by the time limit; rerun with "
                    f"--repair {res.repairs_run} to repeat it)",
                    "in band": " (every group in band)",
                    "no move": (
                        " (no move predicted to lower the miss)"
                        if b.screen
                        else " (no knob left to try)"
                    ),
                }.get(res.repair_stop or "", "")
                + (
                    f"; fresh blocks drawn {sum('refresh' in h for h in res.history)} of "
                    f"{b.refresh} times (the search figures below are the last blocks')"
                    if b.refresh
                    else ""
                )
                + (
                    f"; {res.repair_moves} moves kept, {res.repair_rejected} tries chosen on "
                    f"the search blocks failed on {b.confirm} confirm blocks"
                    if b.confirm
                    else ""
                )
                + (
                    f"; {res.repair_priced} confirmed moves did not earn their changes "
                    f"(slot price {b.slot_price:g})"
                    if b.confirm and b.slot_price > 0
                    else ""
                )
                + (
                    "; each step: the one move the screened effects predict to lower the "
                    "miss of the aimed band most (a step measured before: by its "
                    "measurement), kept if its measured miss is lower"
                    if b.screen
                    else f"; each step: the {b.repair_groups} groups furthest out, "
                    f"≤ {b.repair_tries} tries each"
                    + (", the first the move measured to help most" if b.repair_memory else "")
                )
            ]
            if b.repair
            else []
        ),
        f"search space: {len(res.space)} knobs; matches played: {res.matches_played}"
        + (
            f" (and {res.matches_reused} taken from the stopped run's journal)"
            if res.matches_reused
            else ""
        ),
        f"unchanged table: imbalance {res.before_search:.3f} on the search blocks, "
        f"{res.before.imbalance:.3f} on the holdout blocks "
        f"(first seat {_pct(res.before.rates[FIRST])})",
        *_lever_lines(res),
        *_screen_lines(res, names),
        *_repair_lines(res, names),
        f"Pareto set of the search: {len(res.front)} candidates; shown: {len(res.proposals)}",
        *tell_lines(res),
    ]
    if not res.proposals:
        lines.append(
            "no proposal improved on the unchanged table"
            + (
                " (or none kept a change whose effect on the holdout had the sign it was made "
                "for: a larger --holdout-blocks, or --no-prune)"
                if res.budget.prune
                else ""
            )
        )
        unchanged = res.before_verified or res.before  # the verdict's data when there is one
        where = "verification" if res.before_verified is not None else "holdout"
        lines.append(f"the unchanged table on the {where} blocks:")
        lines += grid_lines(res.groups, unchanged.rates, None, names, res.targets.band)
    for p in res.proposals:
        if p.verified is None or res.before_verified is None:  # a result without one
            lines += [
                "",
                f"== proposal {p.number}: {p.n_changes} change(s), size {p.size:g}, "
                f"imbalance search {p.search_imbalance:.3f} -> holdout "
                f"{p.after.imbalance:.3f} (before {res.before.imbalance:.3f}); not verified"
                + (RECOMMENDED if p.repaired else "")
                + " ==",
                p.diff_text,
                *rules_lines(p.rules_changes, names),
            ]
            lines += _rate_lines(res.groups, res.targets, res.before, p.after, names, "holdout")
            lines += grid_lines(
                res.groups, res.before.rates, p.after.rates, names, res.targets.band
            )
            continue
        cannot = res.verified_tell is not None and not res.verified_tell.can_tell
        lines += [
            "",
            f"== proposal {p.number}: {p.n_changes} change(s), size {p.size:g}, "
            f"imbalance search {p.search_imbalance:.3f} -> holdout {p.after.imbalance:.3f} "
            f"-> verification {p.verified.imbalance:.3f} (unchanged table "
            f"{res.before_verified.imbalance:.3f}); targets met on the verification seeds: "
            f"{'yes' if p.verified.meets else 'no'}"
            + (" (but the budget cannot tell)" if cannot else "")
            + ("; touched up on the holdout, which chose its last moves" if p.touched_up else "")
            + (RECOMMENDED if p.repaired else "")
            + " ==",
            p.diff_text,
            *rules_lines(p.rules_changes, names),
        ]
        lines += effect_lines([effect_record(e) for e in p.effects], names)
        lines += verified_lines(res.groups, res.targets, res.before_verified, p, names)
        lines += grid_lines(
            res.groups, res.before_verified.rates, p.verified.rates, names, res.targets.band
        )
    return "\n".join(lines)


def effect_record(e: ChangeEffect) -> dict[str, Any]:
    """A change's effect as the file keeps it (column ``effects_json``)."""
    return dataclasses.asdict(e) | {"confirmed": e.confirmed, "groups": list(e.groups)}


def effect_lines(effects: Sequence[Mapping[str, Any]], names: Mapping[str, str]) -> list[str]:
    """Each change's effect on the holdout with its 95% interval, in points of its
    groups' win rate, and whether the proposal kept it (:func:`effect_record` s)."""
    if not effects:
        return []
    lines = [
        "each change's effect on the holdout (the proposal with it against without it, same "
        "matches; its groups' win rate, points, 95% interval):"
    ]
    for e in effects:
        groups = [g for g in e["groups"] if g != FIRST]
        who = "first seat" if FIRST in e["groups"] else ", ".join(names.get(g, g) for g in groups)
        if len(groups) > 3:
            who = f"{len(groups)} groups"
        meant = {1: "up", -1: "down"}.get(int(e["expected"]), "no known direction")
        low, high = 100 * float(e["low"]), 100 * float(e["high"])
        interval = "[-, -]" if not math.isfinite(low) else f"[{low:+.1f}, {high:+.1f}]"
        verdict = (
            "kept"
            if e["kept"] and e["confirmed"]
            else "kept (no direction to confirm)"
            if e["kept"]
            else "DROPPED: not the sign it was made for"
        )
        lines.append(
            f"  {_knob(str(e['key']), names)} {_value(str(e['key']), e['old'], names)} -> "
            f"{_value(str(e['key']), e['new'], names)}: {who} "
            f"{100 * float(e['effect']):+.1f} {interval} over {e['matches']} matches "
            f"(meant: {meant}); {verdict}"
        )
    return lines


def tell_lines(res: BalanceResult) -> list[str]:
    """What the run's verification could tell: planned before the run and as played
    (:class:`~throne_lib.kit.balance.Tell`), and its seeds."""
    if res.before_verified is None:
        return []
    lo, hi = res.verify_seeds
    b = res.budget
    lines = [
        f"verification: {b.verify_blocks} blocks on match seeds {lo}–{hi}, which no step of "
        "the run (search, confirm, holdout) played; whether a proposal meets the targets "
        "is said from these figures alone"
    ]
    for t in (res.planned, res.verified_tell):
        if t is not None:
            lines.append(("  " if t.can_tell else "  WARNING: ") + t.text(b.verify_blocks,
                         res.per_block))  # fmt: skip
    return lines


def sure_of(r: GroupRate, lo: float, hi: float) -> str:
    """``sure`` when the 95% interval lies wholly on one side of the band's edges (all
    inside, or all outside), ``unsure`` when it straddles an edge."""
    if math.isnan(r.win_rate):
        return ""
    inside = lo <= r.ci_low and r.ci_high <= hi
    outside = r.ci_high < lo or r.ci_low > hi
    return "sure" if inside or outside else "unsure"


def verified_lines(
    groups: Sequence[str],
    targets: Targets,
    before: Measure,
    p: Proposal,
    names: Mapping[str, str],
) -> list[str]:
    """Each group's rate on the verification blocks before and after, with its 95%
    interval beside the band, the verdict (point estimate) and whether the interval is
    sure of it; the holdout's figure (which helped choose the proposal) last."""
    assert p.verified is not None
    lo, hi = targets.band
    lines = [
        f"band {100 * lo:.0f}–{100 * hi:.0f}%; verification (95% intervals) and holdout:",
        f"{'before (verify)':<26}{'after (verify)':<26}{'meets':<7}{'sure?':<8}"
        f"{'after (holdout)':<17}group",
    ]
    first = f"first seat (≤ {100 * targets.first_seat_max:.0f}%)"
    for g in [*groups, FIRST]:
        a = p.verified.rates[g]
        if g == FIRST and math.isnan(a.win_rate) and math.isnan(before.rates[g].win_rate):
            continue
        low, high = range_of(g, targets)
        ok = low <= a.win_rate <= high
        held = p.after.rates[g].win_rate
        lines.append(
            f"{_pct(before.rates[g]):<26}{_pct(a):<26}{'yes' if ok else 'NO':<7}"
            f"{sure_of(a, low, high):<8}"
            f"{'-' if math.isnan(held) else f'{100 * held:5.1f}%':<17}{_label(g, names, first)}"
        )
    return lines + _length_line(targets, before, p.verified, "")


def range_of(g: str, targets: Targets) -> tuple[float, float]:
    """Where a group's win rate meets its target: inside the band; the first seat's at
    most ``first_seat_max``."""
    return (-1.0, targets.first_seat_max) if g == FIRST else targets.band


def _label(g: str, names: Mapping[str, str], first: str) -> str:
    """A row's label: the group with its name, or ``first`` for the first seat."""
    if g == FIRST:
        return first
    return f"{g} {names[g]}" if g in names else g


def _length_line(targets: Targets, before: Measure, after: Measure, pad: str) -> list[str]:
    """The mean length before and after, when the targets have one."""
    if targets.length is None:
        return []
    return [f"{before.mean_length:<26.1f}{after.mean_length:<26.1f}{pad}mean length"]


def _rate_lines(
    groups: Sequence[str],
    targets: Targets,
    before: Measure,
    after: Measure,
    names: Mapping[str, str],
    where: str,
) -> list[str]:
    """Before/after win rate of each group and the first seat, with 95% intervals."""
    lines = [f"{f'before ({where})':<26}{f'after ({where})':<26}on target  group"]
    for g in [*groups, FIRST]:
        low, high = range_of(g, targets)
        ok = low <= after.rates[g].win_rate <= high
        lines.append(
            f"{_pct(before.rates[g]):<26}{_pct(after.rates[g]):<26}{'yes' if ok else 'NO':<11}"
            f"{_label(g, names, 'first seat')}"
        )
    return lines + _length_line(targets, before, after, " " * 11)


def targets_of(frame: pd.DataFrame) -> Targets | None:
    """The targets a saved result was searched and judged by (None: an older file)."""
    if "targets_json" not in frame.columns or frame.empty:
        return None
    d = json.loads(frame["targets_json"].iloc[0])
    return Targets(
        tuple(d["band"]),
        d["first_seat_max"],
        tuple(d["length"]) if d.get("length") else None,
        d["first_seat_weight"],
    )


def verification_text(
    v: Verification,
    frame: pd.DataFrame,
    names: Mapping[str, str] | None = None,
    source: str = "",
    agent: str | None = None,
) -> str:
    """The verification report: each re-measured proposal's imbalance on the search, the
    holdout and the verification blocks, then its win rates before/after on the latter
    (``agent``: the one every seat played, when given)."""
    names = names or {}
    t = v.targets
    per_table = (v.before.rates[FIRST].matches) or 0
    lines = [
        f"== verification{f' of {source}' if source else ''} on fresh seeds ==",
        *([f"agent: {agent} (every seat)"] if agent else []),
        f"targets: win rate per group {100 * t.band[0]:.0f}–{100 * t.band[1]:.0f}%, "
        f"first seat ≤ {100 * t.first_seat_max:.0f}%",
        f"verify seed {v.seed}, {v.blocks} blocks"
        # a game without a first seat (城堡之心) counts no match there: no figure then
        + (f" ({per_table} matches per table)" if per_table else "")
        + ": seeds no "
        f"search and no holdout ever plays; matches played: {v.matches_played}",
        f"unchanged table: imbalance {v.before.imbalance:.3f} "
        f"(first seat {_pct(v.before.rates[FIRST])})",
    ]
    for n, m in sorted(v.after.items()):
        rows = frame[frame["proposal"] == n]
        first = rows.iloc[0]
        lines += [
            "",
            f"== proposal {n}: {int(first['changes'])} change(s), imbalance search "
            f"{first['search_imbalance']:.3f} -> holdout {first['holdout_imbalance']:.3f} -> "
            f"verify {m.imbalance:.3f}; targets met on the verification seeds: "
            f"{'yes' if m.meets else 'no'} ==",
        ]
        if first["diff"]:
            lines.append(str(first["diff"]))
        if first["rules"]:
            lines.append(f"rules: {first['rules']}")
        lines += _rate_lines(v.groups, t, v.before, m, names, "verify")
        lines += grid_lines(v.groups, v.before.rates, m.rates, names, t.band)
    return "\n".join(lines)


def _jsonable(x: object) -> object:
    """``json.dumps`` default for what a run's options hold: dataclasses (a rules
    knob's ``RulesField``), sets, paths."""
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return dataclasses.asdict(x)
    if isinstance(x, (set, frozenset)):
        return sorted(x)
    return str(x)


def change_list(
    changes: Changes, base: Mapping[str, int], names: Mapping[str, str] | None = None
) -> list[dict[str, Any]]:
    """A proposal's full change list, one entry per knob in key order: ``card`` (""
    for a rules parameter), ``field``, ``old``, ``new`` and the card's ``name``."""
    names = names or {}
    out = []
    for key, new in sorted(dict(changes).items()):
        head, _, fld = key.partition(".")
        card = "" if head == "rules" else head
        entry = {"key": key, "card": card, "field": fld, "old": base.get(key), "new": new}
        out.append(entry | {"name": names.get(card, "")})
    return out


def run_record(
    res: BalanceResult,
    run: Mapping[str, Any] | None = None,
    names: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """Everything a run was and measured beyond its proposals' rows, for column
    ``run_json``: ``run`` (the game, agent, command line, every parsed option, the card
    table's path and SHA-256, as the caller knows them) with the seed, targets, budget,
    groups, matches played, the unchanged table's search imbalance, the lever ladder,
    the generation and repair history and the whole Pareto set of the search; ``names``
    of the groups and of the cards the proposals change."""
    names = names or {}
    cards = {k.partition(".")[0] for p in res.proposals for k, _ in p.changes}
    return {
        "format": RUN_FORMAT,
        **dict(run or {}),
        "seed": res.seed,
        "targets": dataclasses.asdict(res.targets),
        "budget": dataclasses.asdict(res.budget),
        "groups": list(res.groups),
        "matches_played": res.matches_played,
        "matches_reused": res.matches_reused,
        "before_search": res.before_search,
        "generations_run": res.generations_run,
        "repairs_run": res.repairs_run,
        "levers": res.levers,
        "history": res.history,
        "touch_up": res.touch_up,
        "front": [{"changes": dict(c), "objectives": list(o)} for c, o in res.front],
        "verification": {
            "blocks": res.budget.verify_blocks,
            "seeds": list(res.verify_seeds),
            "per_block": res.per_block,
            "planned": dataclasses.asdict(res.planned) if res.planned else None,
            "played": dataclasses.asdict(res.verified_tell) if res.verified_tell else None,
            "lines": tell_lines(res),
        },
        "names": {
            k: v
            for k, v in sorted(names.items())
            if k in cards or k in res.groups or k.startswith("rules.")
        },
    }


def result_frame(
    res: BalanceResult,
    options: Mapping[str, Any] | None = None,
    run: Mapping[str, Any] | None = None,
    names: Mapping[str, str] | None = None,
) -> pd.DataFrame:
    """One row per (proposal, group): proposal 0 is the unchanged table. Proposal-level
    columns repeat on each of its rows (the changes as JSON, the full change list with
    old values and card ``names``, the diff, the rules, the matchups); the run's targets,
    ``options`` (how its matches were played) and its record (:func:`run_record` of
    ``run``) as JSON on every row."""
    rows: list[dict[str, Any]] = []
    entries: list[tuple[int, Changes, str, str, Measure, float, float, Measure | None, str]] = [
        (0, (), "", "", res.before, res.before_search, 0.0, res.before_verified, "[]")
    ]
    for p in res.proposals:
        rules = "; ".join(
            r.removeprefix("rules: ") for r in rules_lines(p.rules_changes, names or {})
        )
        entries.append(
            (
                p.number,
                p.changes,
                p.diff_text,
                rules,
                p.after,
                p.search_imbalance,
                p.size,
                p.verified,
                json.dumps([effect_record(e) for e in p.effects], ensure_ascii=False),
            )
        )
    t = res.targets
    targets_json = json.dumps(
        {
            "band": list(t.band),
            "first_seat_max": t.first_seat_max,
            "length": list(t.length) if t.length else None,
            "first_seat_weight": t.first_seat_weight,
        }
    )
    options_json = json.dumps(dict(options or {}), ensure_ascii=False, default=_jsonable)
    run_json = json.dumps(run_record(res, run, names), ensure_ascii=False, default=_jsonable)
    touched = {p.number for p in res.proposals if p.touched_up}
    repaired = {p.number for p in res.proposals if p.repaired}
    for number, changes, diff, rules, m, search_imb, size, vm, fx in entries:
        base = base_values(changes, res.space)
        listed = json.dumps(change_list(changes, base, names), ensure_ascii=False)
        matchups = json.dumps([[a, b, x] for (a, b), x in sorted(m.matchups.items())])
        for g, r in m.rates.items():
            before = res.before.rates[g]
            rows.append(
                {
                    "proposal": number,
                    "changes": len(changes),
                    "size": size,
                    "changes_json": json.dumps(dict(changes), ensure_ascii=False),
                    "base_json": json.dumps(base, ensure_ascii=False),
                    "change_list_json": listed,
                    "diff": diff,
                    "rules": rules,
                    "search_imbalance": search_imb,
                    "holdout_imbalance": m.imbalance,
                    # the verdict: on the run's verification blocks only (None: none)
                    "meets": None if vm is None else vm.meets,
                    "verify_imbalance": math.nan if vm is None else vm.imbalance,
                    "effects_json": fx,
                    "touched_up": number in touched,
                    "repaired": number in repaired,
                    "mean_length": m.mean_length,
                    "group": g,
                    "matches": r.matches,
                    "before": before.win_rate,
                    "before_low": before.ci_low,
                    "before_high": before.ci_high,
                    "after": r.win_rate,
                    "after_low": r.ci_low,
                    "after_high": r.ci_high,
                    **_verify_cells(res.before_verified, vm, g),
                    "seed": res.seed,
                    "targets_json": targets_json,
                    "options_json": options_json,
                    "matchups_json": matchups,
                    "run_json": run_json,
                }
            )
    return pd.DataFrame(rows)


def _verify_cells(before: Measure | None, after: Measure | None, g: str) -> dict[str, Any]:
    """A group's row's figures on the run's verification blocks (NaN: not verified)."""
    out: dict[str, Any] = {}
    for name, m in (("verify_before", before), ("verify", after)):
        r = m.rates.get(g) if m is not None else None
        out[name] = r.win_rate if r is not None else math.nan
        out[f"{name}_low"] = r.ci_low if r is not None else math.nan
        out[f"{name}_high"] = r.ci_high if r is not None else math.nan
    r = after.rates.get(g) if after is not None else None
    out["verify_matches"] = r.matches if r is not None else 0
    return out


def save_result(
    res: BalanceResult,
    path: str | Path,
    options: Mapping[str, Any] | None = None,
    run: Mapping[str, Any] | None = None,
    names: Mapping[str, str] | None = None,
) -> Path:
    """Write the result frame atomically; ``options`` (JSON-able: the agent and the
    game's own options of the run) go in column ``options_json`` for ``verify``, ``run``
    (the game, agent, command line, all options …) in ``run_json`` (:func:`run_record`)
    for ``show``."""
    from throne_lib.kit.sim import save_results

    return save_results(result_frame(res, options, run, names), path)


def proposal_changes(frame: pd.DataFrame, number: int) -> tuple[dict[str, int], dict[str, int]]:
    """The changes of proposal ``number`` in a saved result frame, and the values
    they were made from."""
    rows = frame[frame["proposal"] == number]
    if number < 1 or rows.empty:
        have = sorted(int(n) for n in frame["proposal"].unique() if n > 0)
        raise ValueError(f"no proposal {number} in the results; there are {have}")
    new: dict[str, int] = json.loads(rows["changes_json"].iloc[0])
    old: dict[str, int] = json.loads(rows["base_json"].iloc[0])
    return new, old


def apply_changes(
    game: BalanceGame, path: str | Path, changes: Mapping[str, int], base: Mapping[str, int]
) -> tuple[str, str, list[str]]:
    """Write the card changes into the table at ``path`` atomically (the live watcher
    sees the new file in one step). ``base`` gives each knob's value the proposal was
    made from: a card whose field no longer has that value is an error (the table moved
    on since the run), and nothing is written. Returns (old text, new text, the rules
    changes that a card table cannot hold, as text for the designer)."""
    p = Path(path)
    old = p.read_text(encoding="utf-8")
    sheet = Sheet.parse(old)
    records = {r["id"].strip(): r for r in sheet.records() if r.get("id", "").strip()}
    card: list[tuple[str, str, int]] = []
    rules: list[str] = []
    for key, value in sorted(changes.items()):
        head, name = key.split(".", 1)
        if head == "rules":
            names: Mapping[str, str] = getattr(game, "names", {})
            rules.append(rules_lines([(name, base.get(key), value)], names)[0][7:])
            continue
        if head not in records:
            raise ValueError(f"{p.name}: card {head!r} is gone since the balance run")
        now = game.get_field(records[head], name)
        if key in base and now != base[key]:
            raise ValueError(
                f"{p.name}: {head}.{name} is {now} now, the proposal was made from {base[key]}"
            )
        card.append((head, name, value))
    new = apply_card_changes(game, old, card)
    write_atomic(p, new)
    return old, new, rules
