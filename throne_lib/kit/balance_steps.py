"""How a balance report names a knob and its values, and the step-by-step parts of the
report: the screening's estimates, each repair step and the touch-up's
(:mod:`throne_lib.kit.balance_report` prints them)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from throne_lib.kit.balance import BalanceResult
from throne_lib.kit.balance.screening import SCREEN_MIN_T


def rules_value(name: str, value: object, names: Mapping[str, str]) -> str:
    """A rules parameter's value, with what it means when the game's ``names`` say
    (key ``rules.NAME=VALUE``: 城堡之心's role-table index 3 of 7 seats reads
    ``3 (城主1 敌军4 援军2 中立0)``)."""
    meaning = names.get(f"rules.{name}={value}")
    return f"{value} ({meaning})" if meaning else str(value)


def rules_label(name: str, names: Mapping[str, str]) -> str:
    """``rules.NAME``, with the game's name of it (``names`` key ``rules.NAME``)."""
    label = names.get(f"rules.{name}")
    return f"rules.{name} ({label})" if label else f"rules.{name}"


def _knob(key: str, names: Mapping[str, str]) -> str:
    """``card.field`` as ``card (名字).field``; a rules knob with its label
    (:func:`rules_label`)."""
    card, _, fld = key.partition(".")
    if card == "rules":
        return rules_label(fld, names)
    return key if card not in names else f"{card} ({names[card]}).{fld}"


def _value(key: str, value: object, names: Mapping[str, str]) -> str:
    """A knob's value; a rules knob's with its meaning (:func:`rules_value`)."""
    card, _, fld = key.partition(".")
    return rules_value(fld, value, names) if card == "rules" else str(value)


def _screen_lines(res: BalanceResult, names: Mapping[str, str], top: int = 8) -> list[str]:
    """What screening (:data:`Budget.screen`) played and estimated: rounds, matches,
    candidate knobs, how many have an effect it can tell, and the strongest of those."""
    got = next((h["screening"] for h in res.history if "screening" in h), None)
    if got is None:
        return []
    fewest, n = got["fewest"]
    lines = [
        f"screening: {got['rounds']} rounds ({got['matches']} matches with the start's), "
        f"{len(got['knobs'])} candidate knobs a step up or down (fewest for one group: {n}, "
        f"{names.get(fewest, fewest)}); {got['usable']} with an effect at |t| ≥ "
        f"{SCREEN_MIN_T:g}; first-seat term {100 * got['first_seat']:+.1f} points",
        f"  strongest effects per step up (points, ±1 standard error; top {top}):",
    ]
    strongest = sorted(got["effects"], key=lambda e: (-abs(e[2]) / max(e[3], 1e-9), e[0], e[1]))
    for knob, group, b, se in strongest[:top]:
        lines.append(f"    {_knob(knob, names)} on {names.get(group, group)}: {100 * b:+.1f}±{100 * se:.1f}")  # fmt: skip
    return lines


def _repair_lines(res: BalanceResult, names: Mapping[str, str]) -> list[str]:
    """What each repair step worked on (the groups furthest out, with their rate and
    the way they should move) and what it kept, with the aimed imbalance before and
    after it (on search and confirm blocks together when the run had confirm blocks)."""
    where = "search + confirm blocks" if res.budget.confirm else "search blocks"
    steps = [h for h in res.history if "worked_on" in h or "refresh" in h]
    lines = _step_lines(steps, f"repair steps (rates and aimed imbalance on the {where}):", names)
    return lines + _step_lines(
        res.touch_up,
        "touch-up of the last proposal on the holdout (rates and aimed imbalance there; "
        "only the verification judges it):",
        names,
        "step",
    )


def _moves(triples: Sequence[Sequence[Any]], names: Mapping[str, str]) -> str:
    """``[knob, from, to]`` moves as one line: "knob from→to, …"."""
    return ", ".join(
        f"{_knob(k, names)} {_value(k, old, names)}→{_value(k, new, names)}"
        for k, old, new in triples
    )


def _step_lines(
    steps: Sequence[Mapping[str, Any]], heading: str, names: Mapping[str, str], key: str = "repair"
) -> list[str]:
    """``heading`` and one line per step: what it worked on and kept."""
    if not steps:
        return []
    lines = [heading]
    for h in steps:
        if "refresh" in h:  # the screened repair drew fresh blocks (Budget.refresh)
            out = ", ".join(f"{names.get(g, g)} {100 * r:.1f}%" for g, r in h["out"])
            why = {
                "in band": "every group in the aimed band",
                "no move": "no move predicted to help",
            }.get(h["why"], f"{h.get('steps', 0)} steps")
            lines.append(
                f"  fresh blocks {h['refresh']} ({why} on the last ones): blocks "
                f"{h['first_block']}–, match seeds "
                f"{h['seeds'][0]}–{h['seeds'][1]}; the table's aimed miss {h['miss_before']:.3f} "
                f"on the last blocks, {h['miss_after']:.3f} on these"
                + (f"; outside the aimed band: {out}" if out else "")
            )
            continue
        worked = ", ".join(
            f"{names.get(g, g)} {100 * r:.1f}%{'↑' if d > 0 else '↓'}" for g, d, r in h["worked_on"]
        )
        kept = _moves(h["kept"], names)
        if "tried" in h:  # a screened repair step: one move, predicted and measured
            tried = _moves(h["tried"], names)
            lines.append(
                f"  {h[key]}: tried {tried} (for {worked or 'nothing'}): miss predicted "
                f"{h['predicted_miss']:.3f}"
                + (
                    f" (by the measured step {_moves(h['learned'], names)})"
                    if h.get("learned")
                    else ""
                )
                + f", measured {h['measured_miss']:.3f}"
                + (
                    f" (confirm blocks {h['confirm_miss_before']:.3f} -> {h['confirm_miss']:.3f})"
                    if "confirm_miss" in h
                    else ""
                )
                + ": "
                f"{'kept' if h['kept'] else 'not kept'}; imbalance "
                f"{h['imbalance_before']:.3f} -> {h['imbalance_after']:.3f}"
            )
            continue
        lines.append(
            f"  {h[key]}: for {worked or 'nothing'}: kept {kept or 'nothing'}; imbalance "
            f"{h['imbalance_before']:.3f} -> {h['imbalance_after']:.3f}"
        )
    return lines
