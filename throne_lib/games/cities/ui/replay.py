"""The 城池战 replay viewer: the 城堡之心 replay (:class:`CastleReplay`) with the cities.

``CitiesReplay(log)`` checks a 城池战 log as ``throne replay --check`` does and shows
every position on the play dashboard's table: the round table with each seat's team
and draw pile (:func:`city_seat_lines`), the empty cities in the middle and each seat's
city stack below its box (CW-UI-1, CW-UI-2). A seat's view is its
``observation(seat)``; 全部公开 is the reviewer's. ``CitiesLogBrowser`` lists the 城池战 logs
of ``logs/`` (``$CASTLE_LOGS``), which the play page writes (``notebooks/cities_replay.ipynb``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as W

from throne_lib.games.castle.ui.replay import CastleLogBrowser, CastleReplay
from throne_lib.games.castle.ui.table import draw_table
from throne_lib.games.cities.ui.table import canvas_height, city_seat_lines, draw_cities
from throne_lib.kit.log import AgentInfo, LogFile, match_log, write_log

__all__ = ["CitiesLogBrowser", "CitiesReplay", "cities_demo_log"]


class CitiesReplay(CastleReplay):
    """A 城池战 match log, step by step, from one seat's view or all revealed."""

    game = "cities"
    height = canvas_height()

    def seat_label(self, obs: dict[str, Any], p: dict[str, Any]) -> str:
        """A seat's team (城池战 has no hidden identities)."""
        return f"队伍{obs['cities']['teams'][p['seat']] + 1}"

    def draw(self, obs: dict[str, Any]) -> None:
        draw_table(self.canvas, obs, self.cards, frozenset(), city_seat_lines)
        draw_cities(self.canvas, obs)


def cities_demo_log(folder: Path, players: int = 4, seed: int = 3) -> Path | LogFile:
    """A scripted 城池战 match (teams a,b,a,b) to look at when ``folder`` holds no 城池战 log
    yet: written to ``folder/cities-demo-seed{seed}.jsonl`` (kept in memory if it cannot be)."""
    from throne_lib.games.castle.agents import play_match
    from throne_lib.games.cities.agents import CitiesAgent
    from throne_lib.games.cities.match import CitiesMatch
    from throne_lib.games.cities.rules import CitiesRules

    m = CitiesMatch(
        players=players, seed=seed, rules=CitiesRules(max_rounds=12), teams=["a", "b"] * 2
    )
    play_match(m, [CitiesAgent(seed, s) for s in range(players)])
    path = folder / f"cities-demo-seed{seed}.jsonl"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        write_log(m, path, [AgentInfo("scripted", seed)] * players)
    except OSError:
        return match_log(m)
    return path


class CitiesLogBrowser(CastleLogBrowser):
    """Pick a 城池战 log and review it (``notebooks/cities_replay.ipynb``)."""

    game = "cities"
    replay_class = CitiesReplay

    def demo_log(self, folder: Path) -> Path | LogFile:
        return cities_demo_log(folder)


def cities_replay(log: LogFile | str | Path, **kwargs: Any) -> W.VBox:
    """The replay widget of a 城池战 log."""
    return CitiesReplay(log, **kwargs).widget
