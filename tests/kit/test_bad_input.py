"""Bad input never leaks or corrupts, in every registered game (issue 34).

One suite parametrized over ``registry.games()``: a game that registers gets these
invariants checked without a line of its own.

- A seat argument (``observation``, ``resample``) that is not an int in ``0..N-1``
  (``bool`` included) raises ``TypeError``/``ValueError`` naming the valid range: a
  negative index must never read another seat's private view.
- ``apply()`` on something that is not an action (``None``, a number, a list …) raises
  ``IllegalAction``/``TypeError``/``ValueError`` and changes nothing; ``parse()`` of a
  non-text raises ``TypeError``/``ValueError``.
- The float and bool twins of a legal action's int fields (``0.0`` equals and hashes
  like ``0``) are refused when built or when applied — or, if a game accepts one, its log
  still replays: whatever ``apply()`` accepts must replay through the log.
- A random match, logged, replays with every hash checked.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from throne_lib.kit import registry
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.log import replay, write_log
from throne_lib.kit.protocol import GameMatch, IllegalAction

GAMES = registry.games()
IDS = [g.name for g in GAMES]
REFUSED = (IllegalAction, TypeError, ValueError)


def position(game: registry.Game, seed: int, plies: int) -> GameMatch:
    """A seeded match of ``game`` (its default setups) after ``plies`` random actions."""
    m = game.new(seed=seed)
    agent = RandomAgent(seed)
    for _ in range(plies):
        if m.is_over:
            break
        m.apply(agent.choose(m))
    return m


def history_len(m: GameMatch) -> int:
    return len(getattr(m, "history", ()))


def assert_unchanged(m: GameMatch, attempt: Any, errors: tuple[type[BaseException], ...]) -> str:
    """``attempt()`` raises one of ``errors`` with a message; ``m`` is as it was."""
    before, n = m.hash(), history_len(m)
    with pytest.raises(errors) as info:
        attempt()
    assert m.hash() == before, "a refused input changed the match"
    assert history_len(m) == n
    assert str(info.value)
    return str(info.value)


def bad_seats(n: int) -> list[Any]:
    return [-1, -n, n, n + 7, 10**30, -(10**30), True, False, None, "0", "1", 1.5, 0.0, [0], (1,)]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_seat_arguments_outside_the_range_are_refused(game: registry.Game) -> None:
    m = position(game, 11, 6)
    n = m.num_seats
    for seat in bad_seats(n):
        for call in (
            lambda s=seat: m.observation(s),
            lambda s=seat: m.resample(s, random.Random(1)),
        ):
            message = assert_unchanged(m, call, (TypeError, ValueError))
            assert f"0..{n - 1}" in message, f"{seat!r}: {message!r} names no valid range"
    for seat in range(n):  # the valid ones still work
        assert m.observation(seat) is not None
        assert m.resample(seat, random.Random(seat)).num_seats == n


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_a_negative_seat_never_shows_the_last_seats_view(game: registry.Game) -> None:
    """The issue's example: ``observation(-1)`` returned seat N-1's hand."""
    m = position(game, 3, 0)
    with pytest.raises((TypeError, ValueError)):
        m.observation(-1)
    with pytest.raises((TypeError, ValueError)):
        m.observation(True)  # type: ignore[arg-type]


NON_ACTIONS: list[Any] = [
    None,
    3.5,
    0,
    -1,
    True,
    b"end",
    [],
    {},
    ("end",),
    object(),
    {"kind": "end"},
]


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_apply_of_a_non_action_is_refused_and_changes_nothing(game: registry.Game) -> None:
    for plies in (0, 25):
        m = position(game, 5, plies)
        for junk in NON_ACTIONS:
            assert_unchanged(m, lambda j=junk, m=m: m.apply(j), REFUSED)
        for junk in [None, 3, 2.5, b"end", ["end"]]:
            assert_unchanged(m, lambda j=junk, m=m: m.parse(j), (TypeError, ValueError))


def twins(action: Any) -> list[Any]:
    """Copies of ``action`` with one int field (or int inside a tuple field) turned into
    its float or bool twin. The copies are built by the action's own constructor; one
    that refuses (TypeError/ValueError) is left out. Non-dataclass actions have none."""
    if not dataclasses.is_dataclass(action):
        return []
    out: list[Any] = []

    def variants(v: int) -> list[Any]:
        return [float(v), *([bool(v)] if v in (0, 1) else [])]

    for f in dataclasses.fields(action):
        value = getattr(action, f.name)
        candidates: list[Any] = []
        if type(value) is int:
            candidates = variants(value)
        elif type(value) is tuple:
            for i, item in enumerate(value):
                if type(item) is int:
                    candidates += [value[:i] + (w,) + value[i + 1 :] for w in variants(item)]
        for c in candidates:
            try:
                out.append(dataclasses.replace(action, **{f.name: c}))
            except (TypeError, ValueError):
                continue
    return out


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_float_and_bool_twins_of_legal_actions_never_break_the_log(
    game: registry.Game, tmp_path: Path
) -> None:
    """Each twin is refused (match unchanged) — or accepted and the log replays."""
    for seed in (1, 2):
        m = game.new(seed=seed)
        agent = RandomAgent(seed)
        rng = random.Random(seed)
        for ply in range(120):
            if m.is_over:
                break
            for a in m.legal_actions():
                for twin in twins(a):
                    trial = m.copy()
                    try:
                        trial.apply(twin)
                    except REFUSED:
                        assert trial.hash() == m.hash(), f"{twin!r} changed the match"
                        continue
                    path = write_log(trial, tmp_path / f"{game.name}-{seed}-{ply}.jsonl")
                    assert replay(path, check=True).hash() == trial.hash()
            m.apply(agent.choose(m) if rng.random() < 0.9 else m.legal_actions()[0])


@pytest.mark.parametrize("game", GAMES, ids=IDS)
def test_random_matches_replay_from_their_logs(game: registry.Game, tmp_path: Path) -> None:
    for seed in (7, 8):
        m = position(game, seed, 400)
        path = write_log(m, tmp_path / f"{game.name}-{seed}.jsonl")
        again = replay(path, check=True)
        assert again.hash() == m.hash()
        assert [a.text() for a in again.history] == [a.text() for a in m.history]  # type: ignore[attr-defined]
