"""``throne report`` for 城堡之心 results: win rates per identity and per hero (the
designer's first question about a hidden-role game), by player count."""

from __future__ import annotations

from throne_lib.kit.analytics import SeatReport

REPORT = SeatReport(
    "城堡之心",
    ("role", "hero"),
    ("role", "win rate by identity (城主 lord, 敌军 enemy, 援军 reinforcement, 中立 neutral):"),
    ("hero", "win rate by hero:"),
)
long_rows = REPORT.rows  # one row per seat of each match: players, role, hero, result
report_text = REPORT.text
