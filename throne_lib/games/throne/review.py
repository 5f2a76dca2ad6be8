"""Reviewing a match log: the events as a pandas table, a per-turn timeline,
and charts (thrones' HP, mana, units on the board, damage by card).

>>> from throne_lib.games.throne.review import events_frame  # doctest: +SKIP
>>> events_frame("logs/20261129-120000-seed7.jsonl").head()  # doctest: +SKIP
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.state import THRONE
from throne_lib.kit import review as kit_review
from throne_lib.kit.charts import set_cjk_font
from throne_lib.kit.log import LogFile, LogRecord, iter_replay, read_log
from throne_lib.kit.review import Describe, ReviewHooks

if TYPE_CHECKING:
    from matplotlib.figure import Figure

EVENT_COLUMNS = (
    "step",  # action number in the log (0 = setup), int
    "round",  # int
    "side",  # "blue" / "red" (the side the event concerns), category
    "action",  # the action's text form
    "kind",  # event kind, category
    "actor",  # card id of the acting unit or played card
    "actor_name",  # its Chinese name
    "cell",  # actor's cell name (a1-g6) or ""
    "target",  # card id acted upon
    "target_name",
    "target_cell",
    "amount",  # int
    "note",
)
SIDE_COLOURS = ("#2f6fd6", "#d64545")  # blue, red
TIMELINE_COLUMNS = (
    "step",
    "round",
    "side",
    "hp_blue",
    "hp_red",
    "mana_available",
    "mana_spent",
    "units_blue",
    "units_red",
)


def _log(log: LogFile | str | Path) -> LogFile:
    return log if isinstance(log, LogFile) else read_log(log)


def _describer(lf: LogFile) -> Describe:
    """Throne's row of one event: sides by name, cards and cells named."""
    db = lf.header.db
    geo_names = _cell_names(lf)

    def describe(rec: LogRecord, ev: dict[str, Any]) -> dict[str, Any]:
        actor = str(ev.get("actor", ""))
        target = str(ev.get("target", ""))
        side = int(ev.get("side", -1))
        return {
            "step": rec.i,
            "round": int(ev.get("round", 0)),
            "side": SIDE_NAMES[side] if side in (0, 1) else "",
            "action": rec.action,
            "kind": str(ev["kind"]),
            "actor": actor,
            "actor_name": db[actor].name if actor in db else "",
            "cell": geo_names(ev.get("cell", -1)),
            "target": target,
            "target_name": db[target].name if target in db else "",
            "target_cell": geo_names(ev.get("target_cell", -1)),
            "amount": int(ev.get("amount", 0)),
            "note": str(ev.get("note", "")),
        }

    return describe


# Throne's review hooks (Game.review): the kit's events_frame with Throne's columns.
REVIEW = ReviewHooks(
    EVENT_COLUMNS,
    _describer,
    {"step": "int64", "round": "int64", "amount": "int64", "side": "category", "kind": "category"},
)


def events_frame(log: LogFile | str | Path) -> pd.DataFrame:
    """One row per event of the log, with typed columns (see ``EVENT_COLUMNS``)."""
    return kit_review.events_frame(_log(log), REVIEW)


def _cell_names(lf: LogFile) -> Any:
    from throne_lib.games.throne.board import geometry

    rules = lf.header.rules
    geo = geometry(rules.columns, rules.rows)

    def name(cell: object) -> str:
        return geo.name(int(cell)) if isinstance(cell, int) and 0 <= cell < geo.size else ""

    return name


def timeline(log: LogFile | str | Path) -> pd.DataFrame:
    """One row per finished turn: thrones' HP, the side's mana available and spent,
    units on the board per side (thrones excluded). Built by replaying the log."""
    lf = _log(log)
    rows: list[dict[str, Any]] = []
    spent_before = [0, 0]
    mana_at_start = [0, 0]
    for rec, match in iter_replay(lf, check=False):
        if rec is None:
            continue
        ended = rec.action == "end" or match.is_over
        if ended:
            _row_for_turn(rows, rec, match, spent_before, mana_at_start)
        for e in rec.events:  # the next turn's mana, after the row of the turn that ended
            if e["kind"] == "mana_reset":
                mana_at_start[int(e.get("side", 0))] = int(e.get("amount", 0))
    return pd.DataFrame(rows, columns=list(TIMELINE_COLUMNS))


def _row_for_turn(
    rows: list[dict[str, Any]],
    rec: LogRecord,
    match: Match,
    spent_before: list[int],
    mana_at_start: list[int],
) -> None:
    st = match.state
    side = st.turn if match.is_over else 1 - st.turn  # the side whose turn just ended
    spent = st.sides[side].stats.get("mana_spent", 0)
    units = [sum(1 for u in st.units(x) if u.kind != THRONE) for x in (0, 1)]
    rows.append(
        {
            "step": rec.i,
            "round": _round_of(rec),
            "side": SIDE_NAMES[side],
            "hp_blue": match.throne_hp(0),
            "hp_red": match.throne_hp(1),
            "mana_available": mana_at_start[side],
            "mana_spent": spent - spent_before[side],
            "units_blue": units[0],
            "units_red": units[1],
        }
    )
    spent_before[side] = spent


def _round_of(rec: LogRecord) -> int:
    rounds = [int(e.get("round", 0)) for e in rec.events if e["kind"] == "end_turn"]
    return rounds[0] if rounds else int(rec.events[0].get("round", 0)) if rec.events else 0


def damage_by_card(events: pd.DataFrame) -> pd.Series:
    """Total HP damage dealt per acting card name (attacks, spells, skills)."""
    dmg = events[events["kind"] == "damage"]
    return dmg.groupby("actor_name")["amount"].sum().sort_values(ascending=False)


def plot_review(log: LogFile | str | Path, top: int = 10) -> Figure:
    """Four charts: thrones' HP per round, mana spent vs available, units per side,
    damage by card (the ``top`` cards)."""
    import matplotlib

    matplotlib.use("Agg", force=False)
    from matplotlib.figure import Figure

    lf = _log(log)
    tl = timeline(lf)
    ev = events_frame(lf)
    fig = Figure(figsize=(11, 6.5), layout="constrained")
    axes = fig.subplots(2, 2)
    set_cjk_font()
    _per_round(
        axes[0][0], tl, ("hp_blue", "hp_red"), ("蓝方王座", "红方王座"), "王座生命 / throne HP"
    )
    ax = axes[0][1]
    for side, color in zip(SIDE_NAMES, SIDE_COLOURS, strict=True):
        part = tl[tl["side"] == side]
        ax.plot(
            part["round"], part["mana_available"], color=color, linestyle="--", label=f"{side} 可用"
        )
        ax.plot(part["round"], part["mana_spent"], color=color, label=f"{side} 花费")
    ax.set_title("法力：花费 vs 可用 / mana spent vs available")
    ax.set_xlabel("回合 round")
    ax.legend(fontsize=8)
    _per_round(
        axes[1][0],
        tl,
        ("units_blue", "units_red"),
        ("蓝方", "红方"),
        "场上单位 / units on the board",
    )
    ax = axes[1][1]
    dmg = damage_by_card(ev).head(top)
    ax.barh(list(dmg.index)[::-1], list(dmg.values)[::-1], color="#8a6d3b")
    ax.set_title("伤害来源 / damage by card")
    from matplotlib.ticker import MaxNLocator

    for ax in round_axes(fig):  # rounds are whole numbers: no 2.5 on the axis
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return fig


def round_axes(fig: Figure) -> list[Any]:
    """The charts of :func:`plot_review` whose x axis is the round (the replay marks the
    current round on them)."""
    return list(fig.axes[:3])


def _per_round(
    ax: Any, tl: pd.DataFrame, cols: tuple[str, str], labels: tuple[str, str], title: str
) -> None:
    """One line per side of a timeline pair, the last value of each round."""
    per_round = tl.groupby("round")[list(cols)].last()
    for col, label, color in zip(cols, labels, SIDE_COLOURS, strict=True):
        ax.plot(per_round.index, per_round[col], color=color, label=label)
    ax.set_title(title)
    ax.set_xlabel("回合 round")
    ax.legend()
