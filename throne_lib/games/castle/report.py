"""``throne report`` for 城堡之心 results: win rates per identity and per hero (the
designer's first question about a hidden-role game), by player count."""

from __future__ import annotations

import pandas as pd


def long_rows(df: pd.DataFrame) -> pd.DataFrame:
    """One row per seat of each match: players, role, hero, result."""
    parts = []
    for seat in range(8):
        col = f"seat{seat}_role"
        if col not in df.columns:
            break
        part = df[df[col].notna()][["match", "players", "end_rule", col, f"seat{seat}_hero",
                                    f"seat{seat}_return"]]  # fmt: skip
        part.columns = ["match", "players", "end_rule", "role", "hero", "result"]
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def report_text(df: pd.DataFrame) -> str:
    rows = long_rows(df).assign(win=lambda d: d["result"] > 0)
    by_role = rows.pivot_table(index="players", columns="role", values="win", aggfunc="mean")
    by_hero = (
        rows.groupby("hero")["win"].agg(["mean", "count"]).sort_values("mean", ascending=False)
    )
    ends = df.groupby("players")["end_rule"].value_counts().unstack(fill_value=0)
    pct = by_role.map(lambda v: "" if pd.isna(v) else f"{v:.0%}")
    return "\n".join(
        [
            f"城堡之心 · {len(df)} matches",
            "",
            "win rate by identity (城主 lord, 敌军 enemy, 援军 reinforcement, 中立 neutral):",
            pct.to_string(),
            "",
            "win rate by hero:",
            by_hero.rename(columns={"mean": "win rate", "count": "seats"}).to_string(
                formatters={"win rate": "{:.0%}".format}
            ),
            "",
            "how games ended:",
            ends.to_string(),
        ]
    )
