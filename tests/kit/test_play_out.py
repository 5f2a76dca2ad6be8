"""kit.agents.play_out: the one agents-choose-until-over loop behind ``throne play`` (any
game), Throne's ``run_match`` and ``play_match`` (issue 35: it had three copies)."""

from __future__ import annotations

import io

from throne_lib.kit import registry
from throne_lib.kit.agents import Agent, make_agent, play_match, play_out
from throne_lib.kit.log import MatchRecorder, parse_log, replay

GAME = "goofspiel"  # the kit's example game: short matches


def _agents(seats: int, seed: int) -> list[Agent]:
    return [make_agent("random", seed * seats + s, GAME) for s in range(seats)]


def test_it_plays_to_the_end_and_says_so() -> None:
    m = registry.get(GAME).new(seed=5)
    assert play_out(m, _agents(m.num_seats, 5)) is True
    assert m.is_over


def test_it_stops_after_max_actions_and_says_the_match_is_not_over() -> None:
    m = registry.get(GAME).new(seed=5)
    assert play_out(m, _agents(m.num_seats, 5), max_actions=2) is False
    assert not m.is_over and len(m.history) == 2


def test_the_same_seed_plays_the_same_match_as_play_match() -> None:
    a = registry.get(GAME).new(seed=9)
    b = registry.get(GAME).new(seed=9)
    play_out(a, _agents(a.num_seats, 9))
    play_match(b, *_agents(b.num_seats, 9))
    assert a.hash() == b.hash() and a.history == b.history


def test_through_a_recorder_every_action_is_logged_and_replays() -> None:
    m = registry.get(GAME).new(seed=4)
    out = io.StringIO()
    rec = MatchRecorder(m, out)
    assert play_out(m, _agents(m.num_seats, 4), apply=rec.apply)
    log = parse_log(out.getvalue())
    assert len(log.records) == len(m.history) and log.result is not None
    assert replay(log, check=True).hash() == m.hash()
