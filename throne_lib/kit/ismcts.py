"""Information-set Monte Carlo tree search over the kit protocol alone.

Single-observer ISMCTS (SO-ISMCTS; Cowling, Powley & Whitehouse, *Information Set Monte
Carlo Tree Search*, IEEE TCIAIG 2012): one tree of the acting seat's information set.
Every iteration

1. **determinizes**: ``match.resample(seat, rng)`` — the only view of the hidden state
   the agent ever has (it never reads the match's hidden parts);
2. **selects** down the tree among the children *available* in this determinization
   (the legal actions here), by UCB with availability counts:
   ``mean[mover] + c * sqrt(ln(avail) / visits)`` (+ an optional prior bias
   ``w * prior / (visits + 1)``), where ``mover`` is the seat acting at that node in this
   determinization — every node keeps the return of **every** seat, so N seats, teams and
   changing alliances need nothing special;
3. **expands** one untried legal action (highest prior first, else at random);
4. **rolls out** with the game's policy (its scripted agent by default) for at most
   ``rollout_actions`` actions, then scores the position: ``returns()`` if the match is
   over, else the game's cut-off ``evaluate`` (one value per seat in [-1, 1]; or the one
   of its ``evaluations`` that the ``evaluation`` parameter names);
5. **backs up** that vector along the path, times ``discount`` per action played in
   the iteration (a win sooner is worth more; a loss later hurts less).

Actions are identified across determinizations by their text form (``action.text()``,
as the match log writes them). Forced moves (one legal action) are applied without a
node. The chosen action is the most visited root child (ties: the better mean, then the
first in legal order) — unless ``keep`` > 0: then the rollout policy's own move (the root
child of the highest prior) is kept unless the most visited child's mean beats it by
``keep`` standard errors of their difference (a one-sided Welch test on the acting seat's
backed-up values). Where every candidate wins (or loses) nearly every rollout, the most
visited child is a draw of the noise; ``keep`` leaves the policy's move there.

Before searching, a **decisive move** (Teytaud & Teytaud, *On the huge benefit of decisive
moves in Monte-Carlo tree search algorithms*, CIG 2010) is played at once: an action that
ends the match with the acting seat among the winners in each of ``decisive``
determinizations (drawn from a random stream of their own, so a search without one is
the search it was). A search with a small budget and progressive widening may never
expand a lethal attack that its rollout policy does not propose.

**Tree reuse** (``reuse=1``; off by default): when the seat's last decision led straight
to its next one (the match's history grew by that action alone, same seat to act), the
new search starts from the subtree of the action played — its visits were drawn from
determinizations of the earlier information set, which the new one refines — and adds
its budget to them. Whether it applies depends only on the history's length, the seat
to act and the seat's own last action, all of which the seat sees.

The budget is ``iterations`` (deterministic: the same seed and matches give the same
choices) or ``seconds`` of this thread's CPU time (a dashboard's think time; not
reproducible). A game plugs in its rollout policy, cut-off evaluation, action priors
and default parameters with :class:`IsmctsHooks` (``Game.ismcts``); without hooks the
rollout policy is the game's default agent and the cut-off value is ``returns()``.
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from throne_lib.kit import registry
from throne_lib.kit.random_agent import RandomAgent

Values = Sequence[float]


@dataclass(frozen=True)
class IsmctsHooks:
    """What a game may plug into ISMCTS (``Game.ismcts``, or "module:attr" of one).

    ``rollout(seed)``: the playout policy, an agent with ``choose(match)`` (default: the
    game's default agent, if it is not random); ``evaluate(match)``: one value per seat in
    [-1, 1] where a cut-off rollout stops (default ``returns()``); ``prior(match, actions)``:
    one non-negative weight per legal action (progressive bias; expansion order);
    ``params``: default constructor parameters (e.g. ``rollout_actions``);
    ``determinize(match, seat, rng, belief)``: a determinization of ``seat``'s information
    set weighted by what the public record says of the hidden part (``belief`` > 0: how
    strongly; used instead of ``match.resample`` when the agent's ``belief`` is > 0). It
    may read only what ``seat`` sees, like ``resample``. ``evaluations``: other cut-off
    evaluations by name, which the agent's ``evaluation`` parameter picks instead of
    ``evaluate``."""

    rollout: Callable[[int], Any] | None = None
    evaluate: Callable[[Any], Values] | None = None
    prior: Callable[[Any, Sequence[Any]], Sequence[float]] | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    determinize: Callable[[Any, int, random.Random, float], Any] | None = None
    evaluations: Mapping[str, Callable[[Any], Values]] = field(default_factory=dict)


WIDENED: Mapping[str, Any] = {"policy_prior": 1.0, "widen": 0.5}
"""The parameters a wide game's hooks default to: its rollout policy's own move expanded
first and favoured, and progressive widening (see :class:`IsmctsAgent`). Measured against
the plain search at 40 iterations (docs/agents.md): Throne and PIN beat their standard
agents with them (the plain search lost), 城堡之心 plays level with its scripted agent (the
plain search is worse as 敌军)."""


def action_key(action: Any) -> str:
    """The identity of an action across determinizations: its text form."""
    text = getattr(action, "text", None)
    return str(text()) if callable(text) else str(action)


class Node:
    """One node of the observer's tree: visits, availability and every seat's total."""

    __slots__ = ("children", "visits", "avail", "totals", "prior", "squares")

    def __init__(self, seats: int, prior: float = 0.0) -> None:
        self.children: dict[str, Node] = {}
        self.visits = 0
        self.avail = 0
        self.totals = [0.0] * seats
        self.prior = prior
        self.squares = 0.0  # sum of the squared values of the tree's own seat (its root's)

    def mean(self, seat: int) -> float:
        return self.totals[seat] / self.visits if self.visits else 0.0

    def variance(self, seat: int) -> float:
        """The sample variance of ``seat``'s backed-up values (``seat``: the tree's own)."""
        n = self.visits
        if n < 2:
            return 1.0  # values lie in [-1, 1]: the widest a variance can be
        m = self.totals[seat] / n
        return max(0.0, (self.squares - n * m * m) / (n - 1))


def default_hooks(game: registry.Game) -> IsmctsHooks:
    """The game's hooks (``Game.ismcts``), or the defaults."""
    hooks = game.hook("ismcts")
    return hooks if isinstance(hooks, IsmctsHooks) else IsmctsHooks()


class IsmctsAgent:
    """SO-ISMCTS for any game of the kit (see the module docstring).

    Parameters (explicit ones win over the game's ``IsmctsHooks.params``, which win over
    :attr:`DEFAULTS`): ``iterations`` or ``seconds`` (CPU time of the calling thread; when
    given it replaces ``iterations``) per decision; ``c`` the UCB exploration constant;
    ``prior_weight`` the progressive-bias weight; ``rollout_actions`` the cut-off;
    ``rollout_epsilon`` the chance of a uniformly random rollout action; ``max_depth`` the
    tree's depth limit; ``discount`` the per-action decay of the backed-up values;
    ``policy_prior`` (without the game's ``prior``) the prior of the rollout policy's own
    choice: expanded first and favoured by ``prior_weight * prior / (visits + 1)``;
    ``widen`` > 0 (progressive widening, Coulom 2007; Chaslot et al. 2008) lets a node
    that has been visited ``n`` times hold at most ``max(1, widen * sqrt(n))`` children
    (highest prior first), so a small budget in a wide game (Throne, PIN: 10–100 legal
    actions, where 40 iterations gave every child one noisy rollout) compares a few
    candidates — the rollout policy's own first — instead of sampling all of them once.
    ``decisive`` the number of determinizations on which a move must win at once to be
    played without a search (0: never). ``belief`` > 0 draws each determinization from
    the game's ``determinize`` hook (hidden identities weighted by the public record)
    instead of ``match.resample`` (uniform); 0, the default, or a game without the hook:
    ``resample``. ``reuse`` 1 keeps the subtree of the action played for the seat's next
    decision when nothing else happened in between (the module docstring); 0, the
    default, searches every decision afresh. ``keep`` > 0 plays the rollout policy's own
    move (the root child of the highest prior) unless the most visited child's mean beats
    it by ``keep`` standard errors (the module docstring); 0, the default: the most visited.
    ``blend`` in [0, 1] (with the game's ``evaluate``): the weight of the cut-off
    evaluation read ``blend_at`` actions into each rollout in the value backed up, beside
    the rollout's end; where nearly every rollout ends the same way (a seat that loses
    almost always) the end alone tells its moves apart by noise, the evaluation by how
    they leave the position. 0, the default: the end alone. ``evaluation`` names one of
    the game's ``IsmctsHooks.evaluations`` to read at the cut-off instead of its
    ``evaluate``; "", the default: ``evaluate``.
    ``stats`` holds the last search's iterations, time and the visits it started from
    (``reused``)."""

    name = "ismcts"

    DEFAULTS: Mapping[str, Any] = {
        "iterations": 200,
        "c": 0.7,
        "prior_weight": 1.0,
        "rollout_actions": 40,
        "rollout_epsilon": 0.0,
        "max_depth": 60,
        "discount": 0.998,
        "policy_prior": 0.0,
        "widen": 0.0,
        "decisive": 2,
        "belief": 0.0,
        "reuse": 0,
        "keep": 0.0,
        "blend": 0.0,
        "blend_at": 40,
        "evaluation": "",
    }

    def __init__(
        self,
        seed: int = 0,
        game: str = registry.DEFAULT_GAME,
        seconds: float | None = None,
        hooks: IsmctsHooks | None = None,
        **params: Any,
    ) -> None:
        g = registry.get(game)
        h = hooks if hooks is not None else default_hooks(g)
        unknown = set(params) - set(self.DEFAULTS)
        if unknown:
            known = ", ".join(["seconds", *self.DEFAULTS])
            raise ValueError(f"ismcts: unknown parameter {sorted(unknown)}; known: {known}")
        p = {**self.DEFAULTS, **h.params, **params}  # explicit > the game's > the kit's
        self.rng = random.Random(seed)
        self.decisive_rng = random.Random(f"decisive {seed}")
        self.game = g.name
        self.iterations = max(1, int(p["iterations"]))
        self.seconds = None if seconds is None else float(seconds)
        self.c = float(p["c"])
        self.prior_weight = float(p["prior_weight"])
        self.rollout_actions = int(p["rollout_actions"])
        self.rollout_epsilon = float(p["rollout_epsilon"])
        self.max_depth = int(p["max_depth"])
        self.discount = float(p["discount"])
        self.policy_prior = float(p["policy_prior"])
        self.widen = float(p["widen"])
        self.decisive = int(p["decisive"])
        self.belief = float(p["belief"])
        if p["reuse"] not in (0, 1):  # False and True are 0 and 1
            raise ValueError(f"ismcts: reuse={p['reuse']!r}; expected 0 or 1")
        self.reuse = bool(p["reuse"])
        self.keep = float(p["keep"])
        self.blend = float(p["blend"])
        self.blend_at = int(p["blend_at"])
        self.evaluation = str(p["evaluation"])
        if self.evaluation and self.evaluation not in h.evaluations:
            known = ", ".join(sorted(h.evaluations)) or "none"
            raise ValueError(
                f"ismcts: evaluation={self.evaluation!r} is not one of {g.name}'s ({known})"
            )
        self.evaluate = h.evaluations[self.evaluation] if self.evaluation else h.evaluate
        if not 0.0 <= self.blend <= 1.0:
            raise ValueError(f"ismcts: blend={p['blend']!r}; expected 0 to 1")
        if self.keep < 0:
            raise ValueError(f"ismcts: keep={p['keep']!r}; expected 0 or more")
        # the subtree kept for the next decision: (match seed, seat, history length after
        # the action, its key, the node)
        self._kept: tuple[int, int, int, str, Node] | None = None
        self.hooks = h
        self.policy = self._make_policy(g, h)
        self.stats: dict[str, float] = {"iterations": 0, "seconds": 0.0, "reused": 0}

    def _make_policy(self, g: registry.Game, h: IsmctsHooks) -> Any:
        seed = self.rng.getrandbits(32)
        if h.rollout is not None:
            return h.rollout(seed)
        name = g.default_agent
        if name in ("random", "ismcts", "search"):
            return RandomAgent(seed)
        return g.agents[name](seed)  # a game's own default agent (the kit's are above)

    # --- the search -----------------------------------------------------------------
    def choose(self, match: Any) -> Any:
        legal = list(match.legal_actions())
        if len(legal) == 1:
            self._kept = None
            self.stats = {"iterations": 0, "seconds": 0.0, "reused": 0}
            return legal[0]
        win = self.decisive_move(match, legal)
        if win is not None:
            self._kept = None
            self.stats = {"iterations": 0, "seconds": 0.0, "reused": 0}
            return win
        root = self.search(match)
        keys = [action_key(a) for a in legal]
        seat = match.current_seat

        def rank(i: int) -> tuple[int, float, int]:
            child = root.children.get(keys[i])
            if child is None:
                return (0, -math.inf, -i)
            return (child.visits, child.mean(seat), -i)

        i = max(range(len(legal)), key=rank)
        if self.keep > 0:
            i = self.kept_policy_move(root, keys, seat, i)
        child = root.children.get(keys[i])
        self._kept = None
        if self.reuse and child is not None:
            self._kept = (match.seed, seat, len(match.history) + 1, keys[i], child)
        return legal[i]

    def kept_policy_move(self, root: Node, keys: Sequence[str], seat: int, best: int) -> int:
        """``best`` (the most visited root child's index in ``keys``) if its mean beats the
        policy's move (the root child of the highest prior, > 0) by ``keep`` standard errors
        of the difference, else the policy's move's index."""
        children = root.children
        anchor, top = -1, (0.0, -1)
        for j, k in enumerate(keys):
            ch = children.get(k)
            if ch is not None and ch.prior > 0 and (ch.prior, ch.visits) > top:
                anchor, top = j, (ch.prior, ch.visits)
        if anchor < 0 or anchor == best:
            return best
        b, a = children[keys[best]], children[keys[anchor]]  # each visited once at least
        se = math.sqrt(b.variance(seat) / b.visits + a.variance(seat) / a.visits)
        return best if b.mean(seat) - a.mean(seat) > self.keep * se else anchor

    def _reused(self, match: Any) -> Node | None:
        """The subtree kept by the last decision if ``match`` is where it led: the same
        match (seed), the same seat to act, and its history grown by that action alone."""
        kept, self._kept = self._kept, None
        if kept is None:
            return None
        seed, seat, length, key, node = kept
        history = match.history
        if (
            match.seed == seed
            and match.current_seat == seat
            and len(history) == length
            and action_key(history[-1]) == key
        ):
            return node
        return None

    def decisive_move(self, match: Any, legal: Sequence[Any]) -> Any | None:
        """The first legal action that ends the match with the acting seat among the
        winners on each of ``decisive`` determinizations of its information set, else
        None (the acting seat's legal actions are the same in each: they are what it
        sees)."""
        if self.decisive <= 0:
            return None
        seat = match.current_seat
        worlds = [self.determinize(match, seat, self.decisive_rng) for _ in range(self.decisive)]
        for action in legal:
            if all(_wins_at_once(world, action, seat) for world in worlds):
                return action
        return None

    def determinize(self, match: Any, seat: int, rng: random.Random) -> Any:
        """One world of ``seat``'s information set: the game's ``determinize`` hook when
        ``belief`` > 0 and the game has one, else ``match.resample``."""
        hook = self.hooks.determinize
        if self.belief > 0 and hook is not None:
            return hook(match, seat, rng, self.belief)
        return match.resample(seat, rng)

    def search(self, match: Any) -> Node:
        """Run the budget from ``match`` (the acting seat's information set); the root."""
        seat = match.current_seat
        root = self._reused(match) or Node(match.num_seats)
        reused = root.visits
        start = time.thread_time()
        n = 0
        # The cyclic garbage collector is paused while searching (as ``timeit`` does): a
        # search allocates containers by the million, nearly all freed at once by their
        # reference counts, and the collections they set off cost ~5% of a 城堡之心
        # decision for nothing (docs/speed.md, 2026-12-07). The pause is process-wide: a
        # dashboard's thinking thread pauses it for the kernel's other threads too, for
        # its think time; a search that found it paused (another search) leaves it so.
        collecting = gc.isenabled()
        gc.disable()
        try:
            while True:
                if self.seconds is not None:
                    if n > 0 and time.thread_time() - start >= self.seconds:
                        break
                elif n >= self.iterations:
                    break
                self.iterate(root, self.determinize(match, seat, self.rng))
                n += 1
        finally:
            if collecting:
                gc.enable()
        self.stats = {"iterations": n, "seconds": time.thread_time() - start, "reused": reused}
        return root

    def iterate(self, root: Node, sim: Any) -> None:
        """One iteration on the determinization ``sim`` (changed in place)."""
        node, path = root, [root]
        seat = sim.current_seat  # the tree's own seat (the observer's)
        depth = steps = 0
        while not sim.is_over and depth < self.max_depth:
            legal = sim.legal_actions()
            steps += 1
            if len(legal) == 1:
                sim.apply(legal[0])
                continue
            depth += 1
            mover = sim.current_seat
            keys = [action_key(a) for a in legal]
            children = node.children
            untried = [i for i, k in enumerate(keys) if k not in children]
            tried = len(keys) - len(untried)
            for k in keys:
                child = children.get(k)
                if child is not None:
                    child.avail += 1
            if untried and (
                self.widen <= 0 or tried == 0 or tried < self.widen * math.sqrt(node.visits)
            ):
                p = self._priors(sim, legal)
                i = (
                    untried[self.rng.randrange(len(untried))]
                    if p is None
                    else max(untried, key=lambda j: (p[j], -j))
                )
                child = Node(len(root.totals), float(p[i]) if p is not None else 0.0)
                child.avail = 1
                children[keys[i]] = child
                sim.apply(legal[i])
                path.append(child)
                break
            i = self._select(node, keys, mover)
            node = children[keys[i]]
            sim.apply(legal[i])
            path.append(node)
        values, more = self._rollout(sim)
        decay = self.discount ** (steps + more)
        values = [v * decay for v in values]
        square = values[seat] * values[seat]
        for nd in path:
            nd.visits += 1
            nd.squares += square
            t = nd.totals
            for s, v in enumerate(values):
                t[s] += v

    def _priors(self, sim: Any, legal: Sequence[Any]) -> Sequence[float] | None:
        """The game's priors, else (with ``policy_prior`` > 0) the rollout policy's choice
        weighted ``policy_prior``, else none."""
        if self.hooks.prior is not None:
            return self.hooks.prior(sim, legal)
        if self.policy_prior <= 0:
            return None
        pick = self.policy.choose(sim)
        return [self.policy_prior if a == pick else 0.0 for a in legal]

    def _select(self, node: Node, keys: Sequence[str], mover: int) -> int:
        c, w, children = self.c, self.prior_weight, node.children
        best, best_v = 0, -math.inf
        for i, k in enumerate(keys):
            ch = children.get(k)
            if ch is None:  # not expanded yet (progressive widening)
                continue
            v = (
                ch.totals[mover] / ch.visits
                + c * math.sqrt(math.log(ch.avail) / ch.visits)
                + w * ch.prior / (ch.visits + 1)
            )
            if v > best_v:
                best, best_v = i, v
        return best

    def _rollout(self, sim: Any) -> tuple[list[float], int]:
        """Play the policy to the cut-off; the values and the actions played. With
        ``blend`` > 0 the values mix in, by that weight, the cut-off evaluation read after
        ``blend_at`` rollout actions (the returns if the match ended sooner)."""
        eps, rng = self.rollout_epsilon, self.rng
        blend = self.blend if self.evaluate is not None else 0.0
        early: list[float] | None = None
        steps = 0
        for steps in range(self.rollout_actions):  # noqa: B007 - the count is returned
            if blend > 0 and early is None and steps == self.blend_at:
                early = self._value(sim)
            if sim.is_over:
                break
            legal = sim.legal_actions()
            if len(legal) == 1:
                a = legal[0]
            elif eps > 0 and rng.random() < eps:
                a = legal[rng.randrange(len(legal))]
            else:
                a = self.policy.choose(sim)
            sim.apply(a)
        values = self._value(sim)
        if blend > 0:
            if early is None:  # the match ended before blend_at, or the rollout did
                early = values
            values = [(1.0 - blend) * v + blend * e for v, e in zip(values, early, strict=True)]
        return values, steps

    def _value(self, sim: Any) -> list[float]:
        """The returns if the match is over, else the cut-off evaluation (clipped)."""
        if sim.is_over or self.evaluate is None:
            return [float(v) for v in sim.returns()]
        return [max(-1.0, min(1.0, float(v))) for v in self.evaluate(sim)]


def _wins_at_once(world: Any, action: Any, seat: int) -> bool:
    """Whether ``action`` ends the match in ``world`` (left unchanged) with ``seat`` among
    the best returns and not every seat level (a draw)."""
    sim = world.copy()
    sim.apply(action)
    if not sim.is_over:
        return False
    r = [float(v) for v in sim.returns()]
    return r[seat] >= max(r) and r[seat] > min(r)


def make_ismcts(seed: int = 0, game: str = registry.DEFAULT_GAME, **params: Any) -> IsmctsAgent:
    """The kit's ``ismcts`` agent factory (``make_agent("ismcts", seed, game, …)``)."""
    return IsmctsAgent(seed, game=game, **params)
