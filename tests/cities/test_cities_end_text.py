"""The 战报's last line of a 城池战 match says what happened (CW-UI-6, CW-WIN): the
winning team and its heroes, the teams that drew at the round limit (the others
lose), or that nobody won. It said 「平局」 whenever no seat had won, also when every
player was out."""

from __future__ import annotations

from typing import Any

from throne_lib.games.cities import CitiesMatch
from throne_lib.games.cities.engine import sync, war_of
from throne_lib.kit.sim import MatchSpec, play_spec


def last_line(m: CitiesMatch) -> str:
    text: str = m.state.log[-1].text
    assert text.startswith("游戏结束：")
    return text


def team_text(m: CitiesMatch, team: int, seats: Any) -> str:
    return f"队伍{team + 1}（{'、'.join(m.state.hero_name(q) for q in seats)}）"


def test_a_team_win_names_the_team_and_its_heroes() -> None:
    """CW-WIN-1 / CW-WIN-2: the team wins together (CW-SETUP-2 teams)."""
    for seed in range(7, 17):
        m, _ = play_spec(MatchSpec(0, seed, ("a", "b", "a", "b"), ("scripted",) * 4, game="cities"))
        if any(r > 0 for r in m.returns()):
            break
    w = war_of(m.state)
    won = [q for q, r in enumerate(m.returns()) if r > 0]
    team = w.teams[won[0]]
    assert last_line(m) == f"游戏结束：{team_text(m, team, won)} 获胜（{w.end_rule}）"
    assert "平局" not in last_line(m)


def test_a_tie_at_the_round_limit_names_the_drawn_teams_and_the_losers() -> None:
    """CW-WIN-6: the round limit ends the match; teams tied on cities and grain draw and
    the others lose — here every team ties."""
    m = CitiesMatch(players=3, seed=4, teams=["a", "b", "c"])
    war_of(m.state).end_by_rounds()
    sync(m.state)
    assert m.returns() == [0.0, 0.0, 0.0]
    drawn = "、".join(team_text(m, t, [t]) for t in range(3))
    assert last_line(m) == f"游戏结束：第40轮结束，{drawn} 平局（CW-WIN-6）"


def test_a_tie_of_some_teams_says_the_others_lose() -> None:
    """CW-WIN-6: two teams tie for most cities and grain; the third loses."""
    m = CitiesMatch(players=3, seed=4, teams=["a", "b", "c"])
    w = war_of(m.state)
    w.grain[w.current(2)] -= 1  # seat 2 has the least grain in its current city
    w.end_by_rounds()
    sync(m.state)
    assert m.returns() == [0.0, 0.0, -1.0]
    drawn = f"{team_text(m, 0, [0])}、{team_text(m, 1, [1])}"
    assert last_line(m) == f"游戏结束：第40轮结束，{drawn} 平局，其余队伍落败（CW-WIN-6）"


def test_a_single_best_team_at_the_round_limit_wins() -> None:
    """CW-WIN-6: the team with the most grain among those with most cities wins."""
    m = CitiesMatch(players=3, seed=4, teams=["a", "b", "c"])
    w = war_of(m.state)
    for q in (1, 2):
        w.grain[w.current(q)] -= 1
    w.end_by_rounds()
    sync(m.state)
    assert m.returns() == [1.0, -1.0, -1.0]
    assert last_line(m) == f"游戏结束：第40轮结束，{team_text(m, 0, [0])} 获胜（CW-WIN-6）"


def test_every_player_out_at_once_is_no_draw() -> None:
    """CW-WIN-3 puts every player out in one event (their starting cities lost) before
    the check of CW-WIN-2: no team is left, nobody wins — every seat lost, no draw."""
    m = CitiesMatch(players=3, seed=4, teams=["a", "b", "c"])
    w = war_of(m.state)
    for q in range(3):
        w._go_out(q, "CW-WIN-3")
    w.check_win()
    sync(m.state)
    assert m.returns() == [-1.0, -1.0, -1.0]
    assert last_line(m) == "游戏结束：所有玩家出局，无人获胜（CW-WIN-2）"
