"""城堡之心's command-line hooks (``Game.cli``): ``throne play --game castle --players N``
and its ``throne report`` (win rates per identity and per hero)."""

from __future__ import annotations

import argparse

import pandas as pd


class CastleCli:
    def add_play_arguments(self, play: argparse.ArgumentParser) -> None:
        play.add_argument("--players", "--seats", dest="seats", type=int, default=5,
                          help="number of players, 3–8 (default 5)")  # fmt: skip
        play.add_argument("--agents", default="", help="comma-separated agent per seat "
                          "(default: scripted everywhere)")  # fmt: skip

    def report_text(self, df: pd.DataFrame, top: int = 15) -> str:
        from throne_lib.games.castle.report import report_text

        return report_text(df)


HOOKS = CastleCli()
