"""``throne report`` for 城堡之心 results: win rates per identity and per hero (the
designer's first question about a hidden-role game), by player count."""

from __future__ import annotations

import pandas as pd

from throne_lib.kit.analytics import seat_report, seat_rows

FIELDS = ("role", "hero")


def long_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat of each match: players, role, hero, result."""
    return seat_rows(df, FIELDS)


def report_text(df: pd.DataFrame) -> str:
    return seat_report(
        df,
        "城堡之心",
        FIELDS,
        ("role", "win rate by identity (城主 lord, 敌军 enemy, 援军 reinforcement, 中立 neutral):"),
        ("hero", "win rate by hero:"),
    )
