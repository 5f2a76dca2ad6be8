"""A stronger opponent: determinized turn-level plan search.

At the first decision of a turn (and again whenever its plan stops being legal)
the agent samples ``iterations`` whole-turn plans, each on its own
*determinization* of the match — a copy whose hidden information is re-dealt
from the agent's seeded RNG (the opponent's hand and deck shuffled together, our
deck order and the match RNG re-drawn), so it never peeks at the real future.
Plan 0 follows the free-order greedy policy (the standard agent's stage
heuristics, but free to move before it attacks), plan 1 the standard agent's
strict R-AI-1 order, the others deviate at random with probability
``explore``. After each plan the opponent's reply turn is played out with the
standard agent (``reply_turns`` turns in all) and the position is scored with
:func:`throne_lib.games.throne.ai.evaluate.evaluate`. The best plan is played action by
action. Budgeted by iterations only; deterministic in (seed, match).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.ai.evaluate import DEFAULT_WEIGHTS, Weights, evaluate
from throne_lib.games.throne.ai.standard import STAGES, StandardAgent
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.state import MAIN, OVER

MAX_PLAN = 200  # actions in one planned turn, a safety net


def determinize(match: Match, side: int, rng: random.Random) -> Match:
    """A copy of ``match`` with what ``side`` cannot know re-dealt at random
    (:meth:`Match.resample`, the kit protocol's determinization)."""
    return match.resample(side, rng)


def _do(m: Match, a: Action) -> None:
    """Apply an action on a simulation copy (its legal actions are cached already)."""
    m.apply(a)


class SearchAgent:
    """Determinized turn-level plan search over copies of the match."""

    name = "search"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 12,
        reply_turns: int = 1,
        explore: float = 0.25,
        weights: Weights = DEFAULT_WEIGHTS,
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = max(1, iterations)
        self.reply_turns = reply_turns
        self.explore = explore
        self.w = weights
        self.policy = StandardAgent(seed, weights=weights)
        self.plan: list[Action] = []
        self.plan_at = -1  # len(history) at which plan[0] is due

    def choose(self, match: Match) -> Action:
        if match.phase != MAIN:
            return self.policy.choose(match)
        legal = match.legal_actions()
        if len(legal) == 1:
            return legal[0]
        at = len(match.history)
        if self.plan and self.plan_at == at and self.plan[0] in legal:
            self.plan_at += 1
            return self.plan.pop(0)
        self.plan = self.search(match)
        self.plan_at = at + 1
        return self.plan.pop(0)

    # --- search -------------------------------------------------------------------

    def search(self, match: Match) -> list[Action]:
        """The best of ``iterations`` sampled plans for the rest of this turn."""
        side = match.turn
        best: list[Action] = []
        best_score = float("-inf")
        for i in range(self.iterations):
            sim = determinize(match, side, self.rng)
            mode = "free" if i == 0 else "strict" if i == 1 else "explore"
            plan = self._rollout_turn(sim, side, mode)
            score = self._reply_and_score(sim, side)
            if score > best_score:
                best, best_score = plan, score
        return best or [match.legal_actions().of_kind("end")[0]]

    def _rollout_turn(self, sim: Match, side: int, mode: str) -> list[Action]:
        plan: list[Action] = []
        for _ in range(MAX_PLAN):
            if sim.phase == OVER or sim.turn != side:
                break
            if sim.phase != MAIN or mode == "strict":
                a = self.policy.choose(sim)
            else:
                a = self._free_choice(sim, mode == "explore")
            plan.append(a)
            _do(sim, a)
            if a.kind == "end":
                break
        return plan

    def _free_choice(self, sim: Match, explore: bool) -> Action:
        """The first stage with something to do, in R-AI-1 priority but free order
        (after a move a unit may still attack); when exploring, sometimes another
        stage's best action or a random legal action."""
        legal = sim.legal_actions()
        options: list[Action] = []
        for stage in range(len(STAGES)):
            a = self.policy.stage_action(sim, stage, legal)
            if a is not None:
                if not explore:
                    return a
                options.append(a)
        if explore and self.rng.random() < self.explore:
            extra = [a for a in legal if a.kind in ("move", "attack", "play", "summon")]
            if extra:
                options.append(extra[self.rng.randrange(len(extra))])
            if options:
                return options[self.rng.randrange(len(options))]
        if options:
            return options[0]
        return legal.of_kind("end")[0]

    def _reply_and_score(self, sim: Match, side: int) -> float:
        """Play the opponent's next turn(s) with the standard agent, then score."""
        turns = 0
        for _ in range(MAX_PLAN * max(1, self.reply_turns)):
            if sim.phase == OVER or turns >= self.reply_turns:
                break
            a = self.policy.choose(sim)
            if a.kind == "end":
                turns += 1
            _do(sim, a)
        return evaluate(sim.eng, side, self.w)


def plan_text(match: Match, plan: Sequence[Action]) -> str:
    """A plan as action texts, for debugging and the notebook."""
    return "; ".join(a.text(match.geo) for a in plan)
