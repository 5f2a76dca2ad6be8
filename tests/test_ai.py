"""AI agents: the standard agent follows R-AI-1 and R-AI-2, every agent only picks
legal actions, agents are deterministic from their seed, and the ladder holds on a
small seeded sample (the full measurement is in benchmarks/bench_ai.py)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from throne_lib import CardDB, Match, SideSetup
from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.ai.standard import EXTRA, KIND_STAGE, SUMMON_KINDS, StandardAgent
from throne_lib.games.throne.decks import signature_deck
from throne_lib.kit.agents import RandomAgent, make_agent, play_match

ScenarioFn = Callable[..., Match]


def play_turn(match: Match, agent: StandardAgent) -> list[Action]:
    """Let ``agent`` play the side to act until it ends its turn."""
    side = match.turn
    done: list[Action] = []
    while not match.is_over and match.turn == side:
        a = agent.choose(match)
        match.apply(a)
        done.append(a)
        if a.kind == "end":
            break
    return done


def stages(actions: list[Action]) -> list[int]:
    """R-AI-1 stage of each action; summons after a bought 加派 belong to the extra stage."""
    out: list[int] = []
    for a in actions:
        if a.kind == "end":
            continue
        s = KIND_STAGE[a.kind]
        if a.kind in SUMMON_KINDS and out and max(out) >= EXTRA:
            s = EXTRA
        out.append(s)
    return out


def texts(match: Match, actions: list[Action]) -> list[str]:
    return [a.text(match.geo) for a in actions]


# --- R-AI-1: the order ------------------------------------------------------------------


def test_r_ai_1_order_holds_in_every_turn_of_seeded_matches(db: CardDB) -> None:
    """R-AI-1: summon → play → build → skill → attack → extra → shuffle → move, every turn."""
    for seed, (a, b) in enumerate([("human", "goblin"), ("demon", "elf"), ("undead", "beast")]):
        m = Match.new(db, signature_deck(db, a), signature_deck(db, b), seed)
        agents = (StandardAgent(1), StandardAgent(2))
        turns: list[list[Action]] = [[]]
        while not m.is_over:
            act = agents[m.turn].choose(m)
            m.apply(act)
            if m.round >= 1 and act.kind not in ("keep", "replace", "found"):
                turns[-1].append(act)
            if act.kind == "end":
                turns.append([])
        assert len(turns) > 6
        for turn in turns:
            st = stages(turn)
            assert st == sorted(st), [a.kind for a in turn]


def test_r_ai_1_full_turn_goes_through_the_stages_in_order(scenario: ScenarioFn) -> None:
    """R-AI-1: with something to do in each stage, the turn runs summon, play, skill,
    attack, move in that order."""
    m = scenario(
        """
        seed 3
        round 5
        turn blue
        side blue general=lionheart mana=9
        side red general=beast_king
        hand blue shield_wall
        unit b2 blue militia_camp
        unit c3 blue spearman
        unit g3 blue knight
        unit c4 red wolf_pup
        """
    )
    done = play_turn(m, StandardAgent(0))
    kinds = ["summon" if a.kind in SUMMON_KINDS else a.kind for a in done]
    firsts = [kinds.index(k) for k in ("summon", "play", "skill", "attack", "move")]
    assert firsts == sorted(firsts), texts(m, done)
    assert kinds[-1] == "end"
    assert stages(done) == sorted(stages(done))


# --- R-AI-2 ---------------------------------------------------------------------------


@pytest.mark.parametrize("camp_cell, other_cell", [("c4", "e4"), ("e4", "c4")])
def test_r_ai_2_attacks_production_camp_over_equal_target(
    scenario: ScenarioFn, camp_cell: str, other_cell: str
) -> None:
    """R-AI-2: of two equal barracks in reach, the production camp is attacked first."""
    m = scenario(
        f"""
        round 5
        turn blue
        side blue general=lionheart mana=0
        side red general=beast_king
        unit d4 blue spearman
        unit {camp_cell} red beast_ranch hp=8/8
        unit {other_cell} red wolf_den hp=8/8
        """
    )
    a = StandardAgent(0).choose(m)
    assert a.text(m.geo) == f"attack d4 {camp_cell}"


def test_r_ai_2_spends_leftover_mana_on_extra_summon(scenario: ScenarioFn) -> None:
    """R-AI-2, R-BARRACKS-10: a loaded barracks with its summons used buys 加派 with
    the spare mana, then summons with it."""
    m = scenario(
        """
        round 5
        turn blue
        side blue general=tinker_king mana=5 cooldown=1
        side red general=beast_king
        unit c2 blue goblin_workshop used=1 loaded
        """
    )
    done = texts(m, play_turn(m, StandardAgent(0)))
    assert "extra c2" in done
    after = done[done.index("extra c2") + 1 :]
    assert after and after[0].startswith(("summon c2", "captain c2"))


def test_r_ai_2_no_extra_summon_without_spare_mana(scenario: ScenarioFn) -> None:
    """R-AI-2: 加派 only when the mana also pays a soldier afterwards."""
    m = scenario(
        """
        round 5
        turn blue
        side blue general=tinker_king mana=2 cooldown=1
        side red general=beast_king
        unit c2 blue goblin_workshop used=1 loaded
        """
    )
    assert "extra c2" not in texts(m, play_turn(m, StandardAgent(0)))


def _barracks_scenario(hp: str) -> str:
    return f"""
        round 5
        turn blue
        side blue general=lionheart mana=3 cooldown=1
        side red general=beast_king
        hand blue archery_range
        unit a1 blue human_manor used=2
        unit e2 blue militia_camp hp={hp} used=2
        """


def test_r_ai_2_repairs_barracks_below_threshold(scenario: ScenarioFn) -> None:
    """R-AI-2, R-BARRACKS-6: a barracks below half durability gets the barracks card."""
    m = scenario(_barracks_scenario("3/10"))
    done = texts(m, play_turn(m, StandardAgent(0)))
    assert "play archery_range e2" in done
    assert m.unit_at("e2").hp == 8  # type: ignore[union-attr]


def test_r_ai_2_feeds_production_camp_when_no_repair_needed(scenario: ScenarioFn) -> None:
    """R-AI-2: with every barracks healthy, the barracks card upgrades the production camp."""
    m = scenario(_barracks_scenario("9/10"))
    done = texts(m, play_turn(m, StandardAgent(0)))
    assert "play archery_range a1" in done
    assert m.unit_at("a1").level == 2  # type: ignore[union-attr]


def test_r_ai_2_places_peasants_in_back_row_or_sides(scenario: ScenarioFn) -> None:
    """R-AI-2: peasants appear in the back row or on the side columns."""
    m = scenario(
        """
        round 2
        turn blue
        side blue general=lionheart mana=5 cooldown=1
        side red general=beast_king
        unit c2 blue human_manor
        """
    )
    done = play_turn(m, StandardAgent(0))
    peasants = [a for a in done if a.kind == "summon" and m.db[a.card].kw("peasant")]
    assert peasants
    for a in peasants:
        assert m.geo.row(a.target) == 0 or m.geo.col(a.target) in (0, 6), a.text(m.geo)


def test_r_ai_2_uses_every_generals_throne_skill(scenario: ScenarioFn, db: CardDB) -> None:
    """R-AI-2, R-THRONE-6: for every general of the table, with mana and targets, the
    standard agent casts the throne skill."""
    generals = db.of("general")
    assert generals
    for g in generals:
        m = scenario(
            f"""
            round 5
            turn blue
            side blue general={g.id} mana=20
            side red general=beast_king
            grave blue shield_wall
            unit a2 blue militia_camp used=2
            unit c3 blue spearman hp=1/3 moved attacked
            unit c4 red wolf
            unit d4 red wolf
            unit e4 red wolf
            unit g5 red wolf_den
            """
        )
        done = play_turn(m, StandardAgent(0))
        assert any(a.kind == "skill" for a in done), (g.id, texts(m, done))


def test_r_ai_2_goblin_ai_builds(scenario: ScenarioFn) -> None:
    """R-AI-2, R-GOBLIN-2: a goblin artisan with mana is turned into a building."""
    m = scenario(
        """
        round 5
        turn blue
        side blue general=tinker_king mana=5 cooldown=1
        side red general=beast_king
        unit c2 blue clockwork_smith
        """
    )
    done = play_turn(m, StandardAgent(0))
    assert any(a.kind == "build" for a in done)
    assert m.unit_at("c2") is not None and m.unit_at("c2").kind == "building"  # type: ignore[union-attr]


# --- the interface ----------------------------------------------------------------------


def test_make_agent_names_and_params() -> None:
    assert isinstance(make_agent("random", 1), RandomAgent)
    assert make_agent("standard", 1).name == "standard"
    search = make_agent("search", 1, iterations=3)
    assert search.name == "search" and search.iterations == 3  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("oracle")


@pytest.mark.parametrize("pair", [("standard", "random"), ("search", "standard")])
def test_agents_only_play_legal_actions_and_are_deterministic(
    db: CardDB, pair: tuple[str, str]
) -> None:
    """Agents choose from legal_actions (play_match applies through Match.apply, which
    raises on anything else), and the same seeds give the same match."""
    histories = []
    for _ in range(2):
        m = Match.new(db, signature_deck(db, "demon"), signature_deck(db, "elf"), 11)
        blue = make_agent(pair[0], 5, **({"iterations": 3} if pair[0] == "search" else {}))
        red = make_agent(pair[1], 6)
        play_match(m, blue, red)
        assert m.is_over
        histories.append((m.hash(), [a.text() for a in m.history]))
    assert histories[0] == histories[1]


def test_ladder_standard_beats_random_on_seeded_sample(db: CardDB) -> None:
    """The ladder's first rung on a small seeded sample (sides alternate)."""
    races = ["human", "goblin", "demon", "undead", "beast", "elf"]
    wins = 0
    for i in range(10):
        decks = [signature_deck(db, races[i % 6]), signature_deck(db, races[(i + 2) % 6])]
        m = Match.new(db, decks[0], decks[1], 500 + i)
        std = i % 2
        agents = [RandomAgent(i), RandomAgent(i)]
        agents[std] = StandardAgent(i)  # type: ignore[call-overload]
        play_match(m, agents[0], agents[1])
        wins += m.winner == std
    assert wins >= 9


def test_side_setup_signature_is_used(db: CardDB) -> None:
    assert SideSetup.signature(db, "human").general == signature_deck(db, "human").general


def test_stage_of_counts_summons_after_extra_as_the_extra_stage() -> None:
    """R-AI-1: a summon with a bought 加派 is part of the extra-summon stage."""
    from throne_lib.games.throne.ai.standard import stage_of

    seq = [Action("summon", 1, 2, "militia"), Action("attack", 3, 4), Action("extra", 1)]
    assert stage_of(seq) == EXTRA
    assert stage_of([*seq, Action("summon", 1, 5, "militia")]) == EXTRA
    assert stage_of([*seq, Action("move", 3, 10)]) == KIND_STAGE["move"]


def test_search_determinization_redeals_hidden_cards_only(db: CardDB) -> None:
    """The search agent never peeks: its copies re-deal the opponent's hand and deck
    (same cards, same sizes) and re-seed the RNG; the real match is untouched."""
    import random

    from throne_lib.games.throne.ai.search import determinize

    m = Match.new(db, signature_deck(db, "human"), signature_deck(db, "beast"), 3)
    agents = (StandardAgent(0), StandardAgent(1))
    for _ in range(40):
        m.apply(agents[m.turn].choose(m))
    before = m.state.hash()  # from scratch: Match.hash() is cached per position
    side = m.turn
    d = determinize(m, side, random.Random(9))
    assert m.state.hash() == before
    real, sim = m.state.sides[1 - side], d.state.sides[1 - side]
    assert len(sim.hand) == len(real.hand) and len(sim.deck) == len(real.deck)
    assert sorted(sim.hand + sim.deck) == sorted(real.hand + real.deck)
    assert d.state.sides[side].hand == m.state.sides[side].hand  # own hand is known
    assert d.state.rng.getstate() != m.state.rng.getstate()
