"""城堡之心's command-line hooks (``Game.cli``): ``throne play --game castle --players N``
and its ``throne report`` (win rates per identity and per hero)."""

from __future__ import annotations

import argparse

import pandas as pd

from throne_lib.kit.cli import KitCliHooks

#: players when ``--players`` is not given (the rulebook's usual table)
DEFAULT_PLAYERS = 5


class CastleCli(KitCliHooks):
    def add_play_arguments(self, play: argparse.ArgumentParser) -> None:
        play.set_defaults(seats=DEFAULT_PLAYERS)  # the kit adds --seats/--players, --agents

    def report_text(self, df: pd.DataFrame, top: int = 15) -> str | None:
        from throne_lib.games.castle.report import report_text

        return report_text(df)


HOOKS = CastleCli()
