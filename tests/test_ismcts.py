"""The kit's ISMCTS agent (issue 32): it finishes a match of every registered game, is
deterministic by seed and iteration budget, sees nothing its seat cannot see, and finds
a known winning move in a small position of each game. Budgets are a few iterations:
strength is measured by ``benchmarks/bench_ismcts.py``, not here."""

from __future__ import annotations

import random
import textwrap
from collections.abc import Iterator
from typing import Any

import pytest

from tests.castle.helpers import scen
from tests.test_kit_game import GAME as TAKEAWAY
from throne_lib.games.pin.scenario import load_scenario as pin_scenario
from throne_lib.games.throne.scenario import load_scenario as throne_scenario
from throne_lib.kit import registry
from throne_lib.kit.agents import agent_names, make_agent
from throne_lib.kit.ismcts import IsmctsAgent, Node, action_key

SMALL = {"iterations": 4, "rollout_actions": 4}


@pytest.fixture(scope="module", autouse=True)
def _toy_game() -> Iterator[None]:
    registry.register(TAKEAWAY)
    yield
    registry.unregister(TAKEAWAY.name)


def game_names() -> list[str]:
    return list(dict.fromkeys([*registry.names(), TAKEAWAY.name]))


def seats_of(game: registry.Game) -> int:
    return min(max(game.seats[0], 3), game.seats[1])  # 3 for the multi-seat games


def others(game: registry.Game) -> str:
    return game.default_agent


def midgame(name: str, seed: int, actions: int = 30, seats: int = 0) -> Any:
    """A position of ``name`` after some actions of its default agents, at a choice."""
    g = registry.get(name)
    # short games: later positions have no choice left (a small pile), or nothing hidden
    # left to redraw (goofspiel's last prizes)
    actions = {TAKEAWAY.name: 1, "goofspiel": 6}.get(name, actions)
    m = g.new(g.default_setups(seats or seats_of(g)), seed=seed)
    agents = [make_agent(others(g), seed * 10 + s, name) for s in range(m.num_seats)]
    for _ in range(actions):
        nxt = m.copy()
        nxt.apply(agents[m.current_seat].choose(m))
        if nxt.is_over:
            break
        m = nxt
    while not m.is_over and len(m.legal_actions()) < 2:
        m.apply(m.legal_actions()[0])
    assert not m.is_over
    return m


def tree_stats(root: Node) -> dict[str, tuple[int, int, list[float]]]:
    return {k: (c.visits, c.avail, [round(t, 9) for t in c.totals]) for k, c in root.children.items()}  # fmt: skip


# --- it plays every game ------------------------------------------------------------------


@pytest.mark.parametrize("name", game_names())
def test_ismcts_is_registered_and_finishes_a_match(name: str) -> None:
    """Registered as ``ismcts`` for every game; one seat plays a whole match against the
    game's default agent with legal actions only, and the match ends."""
    g = registry.get(name)
    assert "ismcts" in agent_names(name)
    m = g.new(g.default_setups(seats_of(g)), seed=11)
    agents = [make_agent("ismcts", 11, name, **SMALL)] + [
        make_agent(others(g), 11 + s, name) for s in range(1, m.num_seats)
    ]
    searched = 0
    for _ in range(5000):
        if m.is_over:
            break
        a = agents[m.current_seat].choose(m)
        assert a in list(m.legal_actions())
        if m.current_seat == 0 and len(m.legal_actions()) > 1:
            searched += 1
        m.apply(a)
    assert m.is_over and searched > 0
    assert len(m.returns()) == m.num_seats


@pytest.mark.parametrize("name", ["castle", "pin", TAKEAWAY.name])
def test_ismcts_is_deterministic_by_seed_and_budget(name: str) -> None:
    """Same seed and iteration budget: the same tree and choice; another seed: another
    tree (so the seed really decides the random choices)."""
    m = midgame(name, 3)
    a, b, c = (IsmctsAgent(s, game=name, **SMALL) for s in (5, 5, 6))
    assert tree_stats(a.search(m)) == tree_stats(b.search(m))
    # (the plain search: with the games' widened defaults 4 iterations hold one child)
    plain = {**SMALL, "policy_prior": 0, "widen": 0}
    d, e = (IsmctsAgent(s, game=name, **plain) for s in (5, 6))
    assert tree_stats(d.search(m)) != tree_stats(e.search(m))
    assert IsmctsAgent(5, game=name, **SMALL).choose(m) == IsmctsAgent(5, game=name, **SMALL).choose(m)  # fmt: skip


def test_unknown_parameter_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown parameter.*iteratons"):
        make_agent("ismcts", 0, "castle", iteratons=5)


def test_seconds_budget_stops_and_reports_its_iterations() -> None:
    agent = IsmctsAgent(0, game="castle", seconds=0.05, rollout_actions=4)
    m = midgame("castle", 2)
    assert agent.choose(m) in m.legal_actions()
    assert agent.stats["iterations"] >= 1 and agent.stats["seconds"] >= 0.05


@pytest.mark.parametrize("name", game_names())
def test_search_pauses_the_cyclic_collector_and_leaves_no_cycles(name: str) -> None:
    """The search pauses the cyclic garbage collector (docs/speed.md) and restores it as it
    found it, also when the search fails; what pausing it rests on: a search of every game
    leaves no reference cycles behind (so nothing waits for the collector)."""
    import gc

    m = midgame(name, 4)
    seen: list[bool] = []
    agent = IsmctsAgent(1, game=name, **SMALL)
    inner = agent.iterate

    def iterate(root: Node, sim: Any) -> None:
        seen.append(gc.isenabled())
        inner(root, sim)

    agent.iterate = iterate  # type: ignore[method-assign]
    assert gc.isenabled()
    gc.collect()
    agent.search(m)
    assert seen == [False] * SMALL["iterations"] and gc.isenabled()
    assert gc.collect() == 0  # the search's garbage was freed by reference counting
    gc.disable()
    try:
        agent.search(m)
        assert not gc.isenabled()  # left paused, as it was
    finally:
        gc.enable()

    def fail(root: Node, sim: Any) -> None:
        raise RuntimeError("a failing rollout")

    agent.iterate = fail  # type: ignore[method-assign]
    with pytest.raises(RuntimeError, match="a failing rollout"):
        agent.search(m)
    assert gc.isenabled()


# --- it does not cheat --------------------------------------------------------------------


class PeekingAgent(IsmctsAgent):
    """A cheat, for the control: it plays out the true hidden state."""

    def search(self, match: Any) -> Node:
        root = Node(match.num_seats)
        for _ in range(self.iterations):
            self.iterate(root, match.copy())
        return root


def hidden_variant(m: Any, seat: int, seed: int) -> Any:
    """A position that differs from ``m`` only in what ``seat`` cannot see: the game's
    own redraw of the hidden parts (checked: same view, different state)."""
    v = m.resample(seat, random.Random(seed))
    assert v.observation(seat) == m.observation(seat) and v.current_seat == m.current_seat
    assert v.hash() != m.hash()
    return v


@pytest.mark.parametrize("name", game_names())
def test_ismcts_sees_only_what_its_seat_sees(name: str) -> None:
    """From positions that differ only in what the acting seat cannot see (opponents'
    hands, deck orders, identities, the match RNG), the agent with the same seed builds
    the same tree and makes the same choice; a control agent that peeks at the true
    state does not."""
    for seed in (1, 2):
        m = midgame(name, seed)
        seat = m.current_seat
        v = hidden_variant(m, seat, 100 + seed)
        trees = [tree_stats(IsmctsAgent(7, game=name, **SMALL).search(x)) for x in (m, v)]
        assert trees[0] == trees[1]
        choices = [IsmctsAgent(7, game=name, **SMALL).choose(x) for x in (m, v)]
        assert choices[0] == choices[1]
    deep = {"iterations": 8, "rollout_actions": 80}  # long enough to meet the hidden cards
    peeks = [tree_stats(PeekingAgent(7, game=name, **deep).search(x)) for x in (m, v)]
    assert peeks[0] != peeks[1]


def test_castle_identities_are_hidden_from_the_agent() -> None:
    """城堡之心: two positions whose hidden identities are swapped (CH-ROLE) give the same
    search, from the seat that cannot see them."""
    m = midgame("castle", 4, actions=12, seats=6)
    seat = m.current_seat
    hidden = [p for p in m.state.players if p.seat != seat and not p.revealed]
    pair = next((p, q) for p in hidden for q in hidden if p.role != q.role)
    v = m.copy()
    a, b = (v.state.players[p.seat] for p in pair)
    a.role, b.role = b.role, a.role
    a.camp, b.camp = b.camp, a.camp
    assert v.observation(seat) == m.observation(seat) and v.hash() != m.hash()
    trees = [tree_stats(IsmctsAgent(3, game="castle", **SMALL).search(x)) for x in (m, v)]
    assert trees[0] == trees[1]


# --- it finds the winning move ------------------------------------------------------------


def lethal_position(db: Any) -> Any:
    """Blue's militia next to red's 3-HP throne, a wolf beside it."""
    text = """
        side blue general=lionheart mana=10
        side red general=beast_king mana=10
        unit d6 red beast_king throne hp=3/40
        unit c6 red wolf hp=2/2
        unit d5 blue militia
    """
    return throne_scenario(textwrap.dedent(text), db)


def test_throne_lethal_attack_on_the_throne(db: Any) -> None:
    """R-THRONE-1: the militia next to a 3-HP throne attacks it (the match is won)
    rather than the wolf beside it or anything else."""
    m = lethal_position(db)
    a = IsmctsAgent(1, game="throne", iterations=60, rollout_actions=10).choose(m)
    m.apply(a)
    assert m.is_over and m.winner == 0, a


def test_throne_lethal_is_played_without_a_search_when_widened(db: Any) -> None:
    """R-THRONE-1: with progressive widening (policy_prior=1, widen=0.5) a 60-iteration
    search never expands the militia's attack (its rollout policy proposes a skill); the
    decisive-move check plays the attack that ends the match, before any search. Without
    the check (decisive=0) the widened agent misses it: the check is what finds it."""
    widened = {"iterations": 60, "rollout_actions": 10, "policy_prior": 1, "widen": 0.5}
    m = lethal_position(db)
    agent = IsmctsAgent(1, game="throne", **widened)
    a = agent.choose(m)
    assert agent.stats["iterations"] == 0  # no search was needed
    m.apply(a)
    assert m.is_over and m.winner == 0, a
    m = lethal_position(db)
    a = IsmctsAgent(1, game="throne", decisive=0, **widened).choose(m)
    m.apply(a)
    assert not m.is_over, a


def test_pin_hq_kill() -> None:
    """PIN-WIN: the tanks next to a 40-HP HQ with two actions attack the HQ."""
    text = """
        turn 3
        active 甲
        first 甲
        cp 甲 20/16
        cp 乙 20/16
        hq 甲 anv_hq
        hq 乙 aur_hq hp=40 mshield=0
        unit u2 甲 anv_tanks 015 activated act=2
        unit u3 乙 aur_templars 016
    """
    from throne_lib.games.pin.cards import load_pin_cards

    m = pin_scenario(textwrap.dedent(text), load_pin_cards())
    agent = IsmctsAgent(1, game="pin", iterations=60, rollout_actions=10)
    for _ in range(8):
        if m.is_over:
            break
        if m.current_seat != 0:  # 乙's windows, nothing to play: passed (PIN-COUNTER-5)
            p = m.forced_pass()
            assert p is not None, m.state.pending
            m.apply(p)
            continue
        a = agent.choose(m)
        assert a.kind in ("attack", "pass", "target") or a.kind == "move", a
        m.apply(a)
    assert m.is_over and m.returns() == [1.0, -1.0]


def test_castle_rescue_that_saves_the_match() -> None:
    """CH-DEATH-2 / CH-WIN-2: the 城主 lies dying; the 援军 holding 愈 rescues him
    (declining lets him die and the 敌军 win)."""
    m = scen(
        "enemy bai_pa hand=sword",
        "lord tang_na hp=1/5",
        "reinforcement di_shi hand=heal",
        "enemy li_wei",
    )
    m.apply("attack h1 0 sword")
    for _ in range(10):  # the 城主 is asked to block (CH-UI-3), then the rescue window
        if m.current_seat == 2 and m.prompt_kind == "rescue":
            break
        texts = {a.text() for a in m.legal_actions()}
        m.apply("no_block" if "no_block" in texts else "decline")
    assert {a.text() for a in m.legal_actions()} >= {"rescue h1 heal", "decline"}
    a = IsmctsAgent(1, game="castle", iterations=30, rollout_actions=10).choose(m)
    assert a.text() == "rescue h1 heal"


def test_cities_capture_that_wins() -> None:
    """CW-WIN-1: one city short of the victory count, the seat whose hero can break an
    empty city attacks it."""
    from tests.cities.match_helpers import first_play, give_city, touch
    from throne_lib.games.cities.engine import war_of

    m = first_play(3, seed=2)
    seat = m.current_seat
    w = war_of(m.state)
    while w.team_cities(w.teams[seat]) < w.victory_count(w.teams[seat]) - 1:
        give_city(m, seat)
    for city in w.empty:
        w.grain[city] = 1
    m.state.players[seat].hand = ["sword"]
    touch(m)
    a = IsmctsAgent(1, game="cities", iterations=40, rollout_actions=10).choose(m)
    m.apply(a)
    for _ in range(20):  # the capture's own prompts (order, block, …)
        if m.is_over or m.current_seat == seat and m.prompt_kind == "play":
            break
        m.apply(IsmctsAgent(2, game="cities", iterations=10, rollout_actions=6).choose(m))
    assert m.is_over and m.returns()[seat] == 1.0, a


def test_policy_prior_expands_the_rollout_policys_choice_first() -> None:
    """``policy_prior``: the first child of the root is the scripted agent's own choice."""
    from throne_lib.games.castle.agents import ScriptedAgent

    m = midgame("castle", 5)
    root = IsmctsAgent(0, game="castle", iterations=1, rollout_actions=2, policy_prior=1).search(m)
    assert list(root.children) == [ScriptedAgent(0).choose(m).text()]
    assert root.children[ScriptedAgent(0).choose(m).text()].prior == 1.0


def test_progressive_widening_bounds_the_children_and_starts_from_the_policy() -> None:
    """``widen``: a node visited n times expands a child only while fewer than
    widen * sqrt(n) of its children are legal in the determinization (the rollout policy's
    choice first), where without it a wide Throne position gives each of its children about
    one rollout. At the root (the seat's own actions, the same in every determinization)
    16 iterations and widen 0.5 allow 2 children: 1 < 0.5 * sqrt(n) from n = 5 on."""
    from throne_lib.games.throne.ai.standard import StandardAgent

    m = midgame("throne", 3, actions=12)
    legal = m.legal_actions()
    assert len(legal) > 8
    plain = IsmctsAgent(0, game="throne", iterations=16, rollout_actions=2, policy_prior=0, widen=0).search(m)  # fmt: skip
    assert len(plain.children) == min(16, len(legal))
    agent = IsmctsAgent(0, game="throne", iterations=16, rollout_actions=2, policy_prior=1, widen=0.5)  # fmt: skip
    root = agent.search(m)
    assert next(iter(root.children)) == StandardAgent(0).choose(m).text()
    assert len(root.children) == 2 and root.visits == 16


# --- tree reuse ---------------------------------------------------------------------------


class Recording(IsmctsAgent):
    """An agent that keeps its last search's root (to check what the next one starts from)."""

    root: Node | None = None

    def search(self, match: Any) -> Node:
        self.root = super().search(match)
        return self.root


@pytest.mark.parametrize("name", game_names())
def test_reuse_starts_from_the_subtree_of_the_action_played(name: str) -> None:
    """``reuse=1``: a decision that follows the seat's own last decision directly (the
    history grown by that action alone, the same seat to act) searches on from the
    subtree of the action played — that very node, its visits plus the new budget;
    every other decision starts afresh (in games that alternate, every decision)."""
    g = registry.get(name)
    m = g.new(g.default_setups(seats_of(g)), seed=5)
    agent = Recording(5, game=name, reuse=1, **SMALL)
    mates = [make_agent(others(g), 5 + s, name) for s in range(m.num_seats)]
    kept: tuple[int, Node] | None = None  # (history length after our action, its node)
    seen = {True: 0, False: 0}
    for _ in range(5000):
        if m.is_over:
            break
        if m.current_seat != 0:
            m.apply(mates[m.current_seat].choose(m))
            continue
        if len(m.legal_actions()) == 1:
            kept = None
            m.apply(m.legal_actions()[0])
            continue
        a = agent.choose(m)
        direct = kept is not None and kept[0] == len(m.history)
        if agent.stats["iterations"] == 0:  # a decisive move, no search
            kept = None
        else:
            assert agent.root is not None
            seen[direct] += 1
            if direct:
                assert kept is not None and agent.root is kept[1]
                assert agent.stats["reused"] > 0
                assert agent.root.visits == agent.stats["reused"] + SMALL["iterations"]
            else:
                assert agent.stats["reused"] == 0
                assert agent.root.visits == SMALL["iterations"]
            kept = (len(m.history) + 1, agent.root.children[action_key(a)])
        m.apply(a)
    assert m.is_over and seen[False] > 0
    if name in ("castle", "cities", "pin", "throne"):  # a seat acts several times running
        assert seen[True] > 0


def consecutive_position(name: str) -> tuple[Any, Any]:
    """A position of ``name`` where the acting seat decides, and decides again right
    after its own action; with a position that differs only in what the seat cannot see
    and still does after the action."""
    for seed in range(1, 40):
        m = midgame(name, seed)
        seat = m.current_seat
        a = IsmctsAgent(7, game=name, **SMALL).choose(m)
        after = m.copy()
        after.apply(a)
        if after.is_over or after.current_seat != seat or len(after.legal_actions()) < 2:
            continue
        v = hidden_variant(m, seat, 100 + seed)
        v_after = v.copy()
        v_after.apply(a)
        if v_after.observation(seat) == after.observation(seat):
            return m, v
    raise AssertionError(f"{name}: no seat decides twice running in 39 seeds")


@pytest.mark.parametrize("name", ["castle", "cities", "pin", "throne"])
def test_reuse_sees_only_what_its_seat_sees(name: str) -> None:
    """Tree reuse keeps the no-cheating guarantee: from two positions that differ only in
    what the acting seat cannot see, an agent with ``reuse=1`` (same seed) makes the same
    two decisions running — the second from its kept subtree — with the same trees."""
    m, v = consecutive_position(name)
    seat = m.current_seat
    runs = []
    for x in (m, v):
        agent = Recording(7, game=name, reuse=1, **SMALL)
        x = x.copy()
        first = agent.choose(x)
        x.apply(first)
        second = agent.choose(x)
        assert x.current_seat == seat and agent.stats["reused"] > 0
        assert agent.root is not None
        runs.append((first, second, tree_stats(agent.root)))
    assert runs[0] == runs[1]


def test_reuse_is_0_or_1() -> None:
    with pytest.raises(ValueError, match="reuse=2"):
        make_agent("ismcts", 0, "castle", reuse=2)
    assert not IsmctsAgent(0, game="castle").reuse  # off by default


# --- keeping the rollout policy's move -----------------------------------------------------


def node(values: list[float], prior: float = 0.0) -> Node:
    """A root child whose seat-0 backed-up values were ``values``."""
    n = Node(2, prior)
    for v in values:
        n.visits += 1
        n.avail += 1
        n.totals[0] += v
        n.totals[1] -= v
        n.squares += v * v
    return n


def test_node_variance_is_the_sample_variance_of_its_values() -> None:
    values = [1.0, -1.0, 0.5, 0.5, -0.25]
    mean = sum(values) / len(values)
    expected = sum((v - mean) ** 2 for v in values) / (len(values) - 1)
    assert node(values).variance(0) == pytest.approx(expected)
    assert node([0.7]).variance(0) == 1.0  # one value: the widest variance, not 0


def test_keep_plays_the_policys_move_unless_another_is_measurably_better() -> None:
    """``keep``: the most visited child replaces the policy's move (the child of the highest
    prior) only when its mean is ``keep`` standard errors above it. Where both win every
    rollout (a saturated position) the policy's move stays, whichever has more visits."""
    agent = IsmctsAgent(0, game="castle", keep=1.645)
    root = Node(2)
    keys = ["policy", "other"]
    root.children = {"policy": node([1.0] * 6, prior=1.0), "other": node([1.0] * 9)}
    assert agent.kept_policy_move(root, keys, 0, 1) == 0  # level: the policy's move
    root.children["other"] = node([1.0, 0.9, 1.0, 0.8] * 3)
    root.children["policy"] = node([1.0, -1.0, 0.9, 1.0, -1.0, 1.0], prior=1.0)
    gap = root.children["other"].mean(0) - root.children["policy"].mean(0)
    se = (root.children["other"].variance(0) / 12 + root.children["policy"].variance(0) / 6) ** 0.5
    assert gap < 1.645 * se  # better on average, not measurably: kept
    assert agent.kept_policy_move(root, keys, 0, 1) == 0
    assert IsmctsAgent(0, game="castle", keep=0.5).kept_policy_move(root, keys, 0, 1) == 1
    assert gap > 0.5 * se  # …which a looser test accepts
    root.children["policy"] = node([-1.0, -0.9, -1.0, -1.0, -0.8, -1.0], prior=1.0)
    assert agent.kept_policy_move(root, keys, 0, 1) == 1  # measurably better: played
    root.children["policy"].prior = 0.0  # no policy move known: the most visited
    assert agent.kept_policy_move(root, keys, 0, 1) == 1


def test_keep_with_an_unreachable_bar_plays_the_policys_own_move() -> None:
    """With ``keep`` too high for any difference, the agent plays the root child its search
    expanded first with the policy's prior: the scripted agent's move, in positions where
    the plain choice (most visited) is another."""
    differ = 0
    for seed in (0, 2, 3, 4):  # the plain choice differs at 2 and 4
        m = midgame("castle", 20 + seed, actions=40)
        plain = Recording(seed, game="castle", iterations=24)
        kept = Recording(seed, game="castle", iterations=24, keep=1e9)
        a, b = plain.choose(m), kept.choose(m)
        assert kept.root is not None and plain.root is not None
        assert tree_stats(kept.root) == tree_stats(plain.root)  # the same search
        policy = max(kept.root.children.items(), key=lambda kv: (kv[1].prior, kv[1].visits))[0]
        assert action_key(b) == policy and kept.root.children[policy].prior > 0
        differ += action_key(a) != action_key(b)
    assert differ == 2
    assert IsmctsAgent(0, game="castle").keep == 0.0  # off by default
    with pytest.raises(ValueError, match="keep=-1"):
        make_agent("ismcts", 0, "castle", keep=-1)


def test_blend_mixes_the_evaluation_read_blend_at_actions_into_the_rollout() -> None:
    """``blend``: the value backed up is (1 − blend) x the rollout's end + blend x the
    game's cut-off evaluation read ``blend_at`` actions into the rollout; the same
    rollout (same seed), so the mix is exact."""
    from throne_lib.games.castle.ismcts import evaluate

    m = midgame("castle", 7, actions=20)
    plain = IsmctsAgent(0, game="castle", rollout_actions=30)
    mixed = IsmctsAgent(0, game="castle", rollout_actions=30, blend=0.25, blend_at=0)
    end, n = plain._rollout(m.copy())
    value, k = mixed._rollout(m.copy())
    early = [max(-1.0, min(1.0, v)) for v in evaluate(m)]
    assert k == n and early != end
    assert value == pytest.approx([0.75 * v + 0.25 * e for v, e in zip(end, early, strict=True)])
    late = IsmctsAgent(0, game="castle", rollout_actions=30, blend=0.25, blend_at=500)
    assert late._rollout(m.copy())[0] == pytest.approx(end)  # never read: the end alone
    assert IsmctsAgent(0, game="castle").blend == 0.0  # off by default
    with pytest.raises(ValueError, match="blend=1.5"):
        make_agent("ismcts", 0, "castle", blend=1.5)


def test_evaluation_picks_one_of_the_games_named_cut_off_evaluations() -> None:
    """``evaluation=NAME``: a cut-off rollout is scored by the game's
    ``IsmctsHooks.evaluations[NAME]`` instead of its ``evaluate`` (the same rollout, same
    seed); a name the game does not offer is refused, naming the ones it does."""
    from throne_lib.games.castle.ismcts import evaluate, evaluate_fitted

    m = midgame("castle", 7, actions=20)
    plain = IsmctsAgent(0, game="castle", rollout_actions=5)
    fitted = IsmctsAgent(0, game="castle", rollout_actions=5, evaluation="fitted")
    a, b = m.copy(), m.copy()
    values, n = plain._rollout(a)
    other, k = fitted._rollout(b)
    assert k == n and a.hash() == b.hash() and not a.is_over
    assert values == pytest.approx([max(-1.0, min(1.0, v)) for v in evaluate(a)])
    assert other == pytest.approx(evaluate_fitted(b)) and other != values
    assert make_agent("ismcts:evaluation=fitted", 0, "castle").evaluation == "fitted"
    with pytest.raises(ValueError, match=r"evaluation='nope' is not one of castle's \(fitted\)"):
        make_agent("ismcts:evaluation=nope", 0, "castle")
    with pytest.raises(ValueError, match=r"evaluation='fitted' is not one of pin's \(none\)"):
        make_agent("ismcts:evaluation=fitted", 0, "pin")
