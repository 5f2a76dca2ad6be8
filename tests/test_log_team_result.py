"""The result line of a match log names a camp's or team's win: the winner as result
tables label it (``Game.winner``: 城堡之心's winning side, 城池战's team) and the seats
that won. Before, a log of a win by several seats said ``"winner": null`` — the same as
a draw — so a reviewer reading it could not tell who won. Old logs (no ``seats``) stay
readable and still replay with ``--check``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from throne_lib.kit import registry
from throne_lib.kit.log import LogError, LogResult, parse_log, replay, write_log
from throne_lib.kit.protocol import DRAW
from throne_lib.kit.sim import MatchSpec, play_spec


def decisive(game: str, setups: list[str], seeds: range) -> Any:
    """The first match of ``seeds`` (scripted agents) that some seats win."""
    g = registry.get(game)
    for seed in seeds:
        match, row = play_spec(
            MatchSpec(0, seed, tuple(setups), ("scripted",) * len(setups), game=game)
        )
        if registry.winning_seats(match.returns()):
            assert row["winner"] == g.winner(match)
            return match
    raise AssertionError(f"{game}: no decisive match in seeds {seeds}")


def result_of(match: Any, tmp_path: Path) -> dict[str, Any]:
    path = write_log(match, tmp_path / "m.jsonl")
    last: dict[str, Any] = json.loads(path.read_text(encoding="utf-8").splitlines()[-1])
    replay(path, check=True)  # the line agrees with the replay
    return last["result"]


def won_seats(match: Any) -> list[str]:
    g = registry.get(match.game)
    return [g.seat_name(s) for s, r in enumerate(match.returns()) if r > 0]


def test_castle_camp_win_names_the_side_and_its_seats(tmp_path: Path) -> None:
    """CH-WIN-2 / CH-WIN-3: the winning side (城主 with its 援军, or every 敌军, dead or
    alive) wins together; the log says which side and which seats, and why (CH-WIN-1:
    the rule that ended the game)."""
    match = decisive("castle", [f"seat{i}" for i in range(5)], range(7, 17))
    res = result_of(match, tmp_path)
    seats = won_seats(match)
    assert len(seats) >= 2, "a 5-seat castle win is a side's, not one seat's"
    assert res["winner"] == registry.get("castle").winner(match) in {"城主", "敌军"}
    assert res["seats"] == seats
    assert res["reason"] == match.end_reason and res["reason"].startswith("CH-WIN-")


def test_castle_lone_neutral_names_its_seat(tmp_path: Path) -> None:
    """CH-WIN-2: a 中立 that is the last hero alive wins alone."""
    from throne_lib.games.castle.death import _win_check

    game = registry.get("castle")
    m = game.new(game.default_setups(6), 11)
    for p in m.state.players:
        p.alive = p.role == "neutral"
    m.state.players[[p.role for p in m.state.players].index("neutral")].defected = False
    _win_check(m.state)
    res = codec_result(m)
    assert res == {"winner": "中立", "seats": won_seats(m), "reason": "CH-WIN-2", "round": 0}
    assert len(res["seats"]) == 1


def codec_result(match: Any) -> dict[str, Any]:
    """The result line of a match ended by hand (a log rebuilt from the history would
    replay to the position before that)."""
    line: dict[str, Any] = LogResult.of(match).to_dict()
    return line["result"]


def test_cities_team_win_names_the_team_and_its_seats(tmp_path: Path) -> None:
    """CW-SETUP-2 teams, CW-WIN-1 / CW-WIN-2: the team wins together (allies already out
    share it); the log names the team's label as set up and its seats."""
    match = decisive("cities", ["a", "b", "a", "b"], range(7, 27))
    res = result_of(match, tmp_path)
    team = res["winner"]
    assert team in {"a", "b"} and team == registry.get("cities").winner(match)
    assert res["seats"] == [f"seat{s}" for s, t in enumerate(["a", "b", "a", "b"]) if t == team]
    assert res["reason"] == match.end_reason in {"CW-WIN-1", "CW-WIN-2"}


def test_cities_tie_at_the_round_limit_is_a_draw_in_the_log() -> None:
    """CW-WIN-6: teams tied on cities and grain draw: no winner, no winning seat."""
    from throne_lib.games.cities.engine import sync, war_of

    m = registry.get("cities").new(["a", "b", "c"], 4)
    war_of(m.state).end_by_rounds()
    sync(m.state)
    assert registry.get("cities").winner(m) == DRAW
    assert codec_result(m) == {"winner": None, "seats": [], "reason": "CW-WIN-6", "round": 0}


def old_form(text: str, result: dict[str, Any]) -> str:
    lines = text.splitlines()
    lines[-1] = json.dumps({"result": result})
    return "\n".join(lines) + "\n"


def test_an_old_log_with_a_null_team_winner_still_replays(tmp_path: Path) -> None:
    """Logs written before the result named teams said ``winner: null`` (several winning
    seats) and ``reason: "over"``; they still read and replay with the check."""
    match = decisive("castle", [f"seat{i}" for i in range(5)], range(7, 17))
    text = write_log(match, tmp_path / "m.jsonl").read_text(encoding="utf-8")
    n = len(match.history)
    old = parse_log(old_form(text, {"winner": None, "reason": "over", "round": n}))
    assert old.result is not None and old.result.seats is None
    replay(old, check=True)
    wrong = parse_log(old_form(text, {"winner": "seat0", "reason": "over", "round": n}))
    with pytest.raises(LogError, match="does not match the replay"):
        replay(wrong, check=True)


def test_a_new_line_that_lies_about_the_seats_fails_the_check(tmp_path: Path) -> None:
    match = decisive("castle", [f"seat{i}" for i in range(5)], range(7, 17))
    text = write_log(match, tmp_path / "m.jsonl").read_text(encoding="utf-8")
    res = json.loads(text.splitlines()[-1])["result"]
    lost = [f"seat{s}" for s, r in enumerate(match.returns()) if r < 0]
    bad = parse_log(old_form(text, {**res, "seats": lost}))
    with pytest.raises(LogError, match="does not match the replay"):
        replay(bad, check=True)


@pytest.mark.parametrize(
    ("seats", "expected"),
    [("seat1", "a list of seat names"), (["seat9"], "seat0, seat1"), ([3], "seat0, seat1")],
)
def test_a_malformed_seats_field_names_what_was_expected(
    tmp_path: Path, seats: Any, expected: str
) -> None:
    match = decisive("castle", [f"seat{i}" for i in range(5)], range(7, 17))
    text = write_log(match, tmp_path / "m.jsonl").read_text(encoding="utf-8")
    res = json.loads(text.splitlines()[-1])["result"]
    with pytest.raises(LogError, match=expected) as info:
        parse_log(old_form(text, {**res, "seats": seats}), "m.jsonl")
    assert str(info.value).startswith(f"m.jsonl:{len(text.splitlines())}:")
