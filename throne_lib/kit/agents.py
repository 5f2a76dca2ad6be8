"""Agents over the kit protocol: given a match, choose one of its legal actions.

Every agent is deterministic from its seed and reads only what the protocol offers: the
legal actions, the current seat, and — for hidden information — ``resample(seat, rng)``
(the match as the seat might believe it to be); never the hidden state itself.

* ``random`` (:class:`RandomAgent`): uniform over the legal actions;
* ``search`` (:class:`SearchAgent`): determinized Monte Carlo search — each iteration
  resamples the hidden information, tries one candidate action and plays random
  playouts to the end; budgeted by iterations, never by time;
* ``ismcts`` (:class:`throne_lib.kit.ismcts.IsmctsAgent`): information-set MCTS with the
  game's rollout policy, cut-off evaluation and priors (``Game.ismcts``); budgeted by
  iterations or CPU seconds.

A game adds its own agents in the registry (``Game.agents``); a game agent of the same
name replaces the kit's (Throne's ``search`` is its turn-level plan search).
:func:`make_agent` builds any of them by name, or by a spec with parameters,
``ismcts:iterations=10:widen=0.5`` (:func:`parse_agent`): the form every command line
takes (``throne play --agents``, ``simulate --agent``, ``ladder --agents``).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from throne_lib.kit import registry
from throne_lib.kit.protocol import GameMatch, IllegalAction
from throne_lib.kit.random_agent import RandomAgent as RandomAgent


class Agent(Protocol):
    name: str

    def choose(self, match: Any) -> Any: ...


class SearchAgent:
    """Determinized flat Monte Carlo search over the protocol alone.

    The ``iterations`` are shared round-robin among the legal actions; each one plays
    the candidate on ``match.resample(seat, rng)`` and finishes the match with random
    playouts (at most ``depth`` actions), scoring ``returns()[seat]``. The candidate with
    the best mean wins (ties: the first). Fine for small games and as a baseline;
    games with a stronger search register their own."""

    name = "search"

    def __init__(
        self, seed: int = 0, iterations: int = 64, depth: int = 400, end_weight: float = 0.05
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = max(1, iterations)
        self.depth = depth
        self.playout = RandomAgent(self.rng.getrandbits(32), end_weight)

    def choose(self, match: GameMatch) -> Any:
        legal = list(match.legal_actions())
        if len(legal) == 1:
            return legal[0]
        seat = match.current_seat
        total = [0.0] * len(legal)
        count = [0] * len(legal)
        for it in range(max(self.iterations, len(legal))):
            k = it % len(legal)
            sim = match.resample(seat, self.rng)
            try:
                sim.apply(legal[k])
            except IllegalAction:  # not legal in this determinization: no evidence
                continue
            for _ in range(self.depth):
                if sim.is_over:
                    break
                sim.apply(self.playout.choose(sim))
            total[k] += sim.returns()[seat]
            count[k] += 1
        means = [t / c if c else float("-inf") for t, c in zip(total, count, strict=True)]
        return legal[max(range(len(legal)), key=lambda i: means[i])]


def _ismcts(seed: int = 0, game: str = registry.DEFAULT_GAME, **params: Any) -> Agent:
    from throne_lib.kit.ismcts import IsmctsAgent

    return IsmctsAgent(seed, game=game, **params)


BUILTIN: dict[str, Any] = {"random": RandomAgent, "search": SearchAgent, "ismcts": _ismcts}
#: kit agents that are told which game they play (they read the game's hooks)
GAME_AWARE = frozenset({"ismcts"})


def agent_names(game: str = registry.DEFAULT_GAME) -> tuple[str, ...]:
    """The agents ``game`` can use: the kit's, with the game's own added or replacing."""
    own = registry.get(game).agents
    return tuple(dict.fromkeys(["random", *own, *BUILTIN]))


def _value(text: str) -> Any:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return text


def parse_agent(spec: str) -> tuple[str, tuple[tuple[str, Any], ...]]:
    """``name`` or ``name:key=value:key=value`` → the name and its parameters (values int,
    float or text, in the order given)."""
    name, *rest = spec.strip().split(":")
    params = []
    for part in rest:
        key, eq, val = part.partition("=")
        if not eq or not key:
            raise ValueError(f"agent {spec!r}: expected name:key=value, got {part!r}")
        params.append((key, _value(val)))
    return name, tuple(params)


def check_agent(spec: str, game: str = registry.DEFAULT_GAME) -> str:
    """``spec`` if it names an agent of ``game`` with parameters its constructor takes;
    else a ``ValueError`` that says which part is wrong (command lines check before they
    start a batch, not in a worker an hour later)."""
    try:
        make_agent(spec, 0, game)
    except TypeError as exc:  # an unknown keyword of the agent's constructor
        raise ValueError(f"agent {spec!r}: {exc}") from None
    return spec


def agent_arg(game: str) -> Callable[[str], str]:
    """An ``argparse`` type for an agent spec of ``game`` (:func:`check_agent`)."""

    def check(spec: str) -> str:
        try:
            return check_agent(spec, game)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    check.__name__ = "agent"  # argparse names the type in its error: "invalid agent value"
    return check


def make_agent(name: str, seed: int = 0, game: str = registry.DEFAULT_GAME, **params: Any) -> Agent:
    """An agent of ``game`` by name or spec (``ismcts:iterations=10``, :func:`parse_agent`),
    seeded; ``params`` go to its constructor (e.g. ``iterations=`` for ``search``) and
    override the spec's."""
    name, given = parse_agent(name)
    params = {**dict(given), **params}
    own = registry.get(game).agents
    factory = own.get(name) or BUILTIN.get(name)
    if factory is None:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(agent_names(game))}")
    if name in GAME_AWARE and name not in own:
        params = {"game": game, **params}
    agent: Agent = factory(seed, **params)
    return agent


def play_out(
    match: Any,
    agents: Sequence[Agent],
    max_actions: int = 100_000,
    apply: Callable[[Any], object] | None = None,
) -> bool:
    """Let ``agents[seat]`` choose for each seat until the match ends or ``max_actions``
    actions are played; whether it ended. ``apply`` (a ``MatchRecorder``'s, to log as it
    goes) applies each chosen action in place of ``match.apply``."""
    step = match.apply if apply is None else apply
    for _ in range(max_actions):
        if match.is_over:
            return True
        step(agents[match.current_seat].choose(match))
    return bool(match.is_over)


def play_match(match: Any, *agents: Agent, max_actions: int = 100_000) -> Any:
    """Play until the match ends, ``agents[seat]`` choosing for each seat."""
    if not play_out(match, agents, max_actions):
        raise RuntimeError(f"match did not end within {max_actions} actions")
    return match
