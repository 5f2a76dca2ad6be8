"""Run state and nodes (R-TOWER-3..7): HP carried between battles, deck rules,
rewards, relics, campfire, shop, events, chests, and reproducible runs."""

from __future__ import annotations

import dataclasses

import pytest

from throne_lib.games.throne.match import Match
from throne_lib.games.throne.tower.autopilot import play_run
from throne_lib.games.throne.tower.battle import decide
from throne_lib.games.throne.tower.config import TowerRules
from throne_lib.games.throne.tower.deck import deck_problems
from throne_lib.games.throne.tower.map import Node
from throne_lib.games.throne.tower.nodes import addable
from throne_lib.games.throne.tower.relics import EFFECTS, parse_relics
from throne_lib.games.throne.tower.run import Run, Tables, TowerError
from throne_lib.games.throne.tower.save import run_to_dict

WEAK = TowerRules(
    enemy_hp=(("battle", 1, 0), ("elite", 1, 0), ("boss", 1, 0)),
    enemy_agents=(("battle", ("random",)), ("elite", ("random",)), ("boss", ("random",))),
)


@pytest.fixture(scope="module")
def tables() -> Tables:
    return Tables.load()


def stand_before(run: Run, kind: str) -> Node:
    """Put the run on the parent of the first node of ``kind`` (a test shortcut)."""
    for n in run.tmap:
        if n.kind == kind and n.row > 0:
            run.floor = n.floor
            run.node = run.tmap.parents(n.id)[0].id
            return n
    raise AssertionError(f"no {kind} on the map")


def win_battle(run: Run) -> None:
    assert run.battle is not None
    run.battle.play_out("standard", 0)
    assert run.battle.match.winner == 0
    run.apply("finish")


def passive(match: Match) -> None:
    """The player only keeps its hand, founds barracks and ends turns."""
    for a in match.legal_actions():
        if a.kind in ("keep", "end", "found", "pick"):
            match.apply(a)
            return
    match.apply(match.legal_actions()[-1])


def state(run: Run) -> dict[str, object]:
    data = run_to_dict(run)
    data.pop("saved")
    return data


def test_new_run(tables: Tables) -> None:
    """R-TOWER-3: throne HP 40 is the run's life; R-TOWER-4: the deck starts at 10."""
    run = Run.new(5, "lionheart", tables=tables)
    assert (run.hp, run.max_hp, len(run.deck), run.screen) == (40, 40, 10, "map")
    assert deck_problems(tables.cards, run.general, run.vices, run.deck) == []
    assert not any(tables.cards[c].is_production for c in run.deck)  # no camp minimum
    assert run.choices() == [f"go {n.id}" for n in run.tmap.starts(0)]


@pytest.mark.parametrize(
    "general, vices",
    [("nobody", ()), ("squire", ()), ("lionheart", ("lionheart",)), ("lionheart", ("squire",)),
     ("lionheart", ("tinker_king", "tinker_king")), ("lionheart", ("tinker_king", "pain_lord", "lich_lord"))],
)  # fmt: skip
def test_a_run_needs_real_generals(tables: Tables, general: str, vices: tuple[str, ...]) -> None:
    """R-SETUP-1, R-SETUP-2 in the tower: a main general and up to 2 other vices."""
    with pytest.raises(TowerError):
        Run.new(1, general, vices, tables=tables)


def test_vice_generals_join_from_the_start_and_give_their_quota(tables: Tables) -> None:
    """R-TOWER-5: vices go into every battle deck and open their race's quota."""
    alone = Run.new(5, "lionheart", tables=tables)
    races = {tables.cards[c].race for c in addable(alone)}
    assert races <= {"human", "neutral"}
    vice = tables.cards.of("general", "goblin")[0].id
    run = Run.new(5, "lionheart", vices=(vice,), tables=tables)
    assert "goblin" in {tables.cards[c].race for c in addable(run)}
    run.apply(run.choices()[0])
    assert run.battle is not None
    assert vice in run.battle.setup.player.deck and len(run.deck) == 10


def test_battle_uses_the_run_hp_and_carries_the_rest_back(tables: Tables) -> None:
    """R-TOWER-3, R-TOWER-7: a battle starts with the run's throne HP; the remainder returns."""
    run = Run.new(8, tables=tables, rules=WEAK)
    run.hp = 23
    run.apply(run.choices()[0])
    assert run.battle is not None
    throne = run.battle.match.state.throne(0)
    assert throne is not None and (throne.hp, throne.max_hp) == (23, 40)
    enemy = run.battle.match.state.throne(1)
    assert enemy is not None and enemy.hp == 1
    run.battle.play_out("standard", 0)
    left = run.battle.match.throne_hp(0)
    run.apply("finish")
    assert run.hp == min(left, 40) and run.steps[-1].result == "won"


def test_won_battle_gives_gold_and_one_of_three_cards(tables: Tables) -> None:
    """R-TOWER-4, R-TOWER-6: normal battles drop gold and a pick of 1 of 3 cards."""
    run = Run.new(3, tables=tables, rules=WEAK)
    gold = run.gold
    run.apply(run.choices()[0])
    win_battle(run)
    assert run.screen == "reward" and run.gold > gold and run.relics == []
    assert len(run.offer) == 3 and run.choices() == [f"pick {c}" for c in run.offer] + ["skip"]
    card = run.offer[1]
    run.apply(f"pick {card}")
    assert run.deck[-1] == card and len(run.deck) == 11 and run.screen == "map"


def test_elite_drops_a_relic_and_the_boss_opens_the_next_floor(tables: Tables) -> None:
    """R-TOWER-6: elites always drop a relic; a boss drops one and opens the next floor."""
    run = Run.new(4, tables=tables, rules=WEAK)
    elite = stand_before(run, "elite")
    run.apply(f"go {elite.id}")
    win_battle(run)
    assert len(run.relics) == 1
    run.apply("skip")
    run.floor, run.node = 0, run.tmap.row(0, 6)[0].id
    run.apply(f"go {run.tmap.boss(0).id}")
    win_battle(run)
    assert len(run.relics) == 2
    run.apply("skip")
    assert run.floor == 1 and run.node is None
    assert run.choices() == [f"go {n.id}" for n in run.tmap.starts(1)]


def test_last_boss_wins_the_run(tables: Tables) -> None:
    run = Run.new(4, tables=tables, rules=WEAK)
    run.floor, run.node = 2, run.tmap.row(2, 6)[0].id
    run.apply(f"go {run.tmap.boss(2).id}")
    win_battle(run)
    run.apply("skip")
    assert (run.status, run.screen, run.choices()) == ("won", "over", [])


def test_a_lost_battle_ends_the_run(tables: Tables) -> None:
    """R-TOWER-3: at 0 throne HP the run ends."""
    run = Run.new(
        2, tables=tables, rules=dataclasses.replace(WEAK, enemy_agents=(("battle", ("standard",)),))
    )
    run.hp = 1
    run.apply(run.choices()[0])
    assert run.battle is not None
    m = run.battle.match
    while not m.is_over:
        run.battle.step_enemy() if run.battle.enemy_to_act() else passive(m)
    assert m.winner == 1
    run.apply("finish")
    assert (run.status, run.screen, run.hp, run.steps[-1].result) == ("dead", "over", 0, "lost")


def test_illegal_choice_is_refused_and_changes_nothing(tables: Tables) -> None:
    run = Run.new(1, tables=tables)
    before = state(run)
    for bad in ("go 0.7.3", "rest", "pick squire", "finish", "go 1.0.0"):
        with pytest.raises(TowerError, match="not a legal choice"):
            run.apply(bad)
    assert state(run) == before


def test_campfire_rests_or_fortifies(tables: Tables) -> None:
    """R-TOWER-3: campfires heal or raise max HP."""
    for choice, want in (("rest", (32, 40)), ("fortify", (26, 46))):
        run = Run.new(1, tables=tables)
        run.hp = 20
        camp = stand_before(run, "campfire")
        run.apply(f"go {camp.id}")
        assert run.choices() == ["rest", "fortify"]
        run.apply(choice)
        assert (run.hp, run.max_hp) == want and run.screen == "map"


def test_shop_buys_cards_relics_heal_and_removes_at_a_growing_price(tables: Tables) -> None:
    """R-TOWER-3, R-TOWER-4: shops sell cards, relics and healing and remove cards."""
    run = Run.new(1, tables=tables)
    run.gold, run.hp = 1000, 20
    shop = stand_before(run, "shop")
    run.apply(f"go {shop.id}")
    card, price = next(iter(run.shop["cards"].items()))
    run.apply(f"buy {card}")
    assert run.deck[-1] == card and run.gold == 1000 - price
    relic = next(iter(run.shop["relics"]))
    run.apply(f"relic {relic}")
    assert relic in run.relics
    run.apply("heal")
    assert run.hp >= 35 and "heal" not in run.choices()
    first = run.shop["remove"]
    run.apply(f"remove {run.deck[0]}")
    assert len(run.deck) == 10 and not any(c.startswith("remove") for c in run.choices())
    run.apply("leave")
    assert run.removals == 1 and run.screen == "map"
    run.node = run.tmap.parents(shop.id)[0].id
    run.apply(f"go {shop.id}")
    assert run.shop["remove"] > first  # the removal price grows


def test_events_apply_their_option(tables: Tables) -> None:
    """R-TOWER-2: events are small choices with consequences."""
    run = Run.new(1, tables=tables)
    ev_node = stand_before(run, "event")
    run.apply(f"go {ev_node.id}")
    ev = tables.events[run.event]
    assert run.choices()
    free = next(i for i, o in enumerate(ev.options) if o.gold_cost == 0)
    run.gold = 0
    assert f"option {free + 1}" in run.choices()
    assert all(ev.options[int(c[7:]) - 1].gold_cost == 0 for c in run.choices())
    run.apply(f"option {free + 1}")
    assert run.screen == "map" and run.notes[-1].startswith(ev.name)


def test_every_event_option_can_be_taken(tables: Tables) -> None:
    for eid, ev in tables.events.items():
        for i in range(len(ev.options)):
            run = Run.new(1, tables=tables)
            run.gold = 500
            node = stand_before(run, "event")
            run.apply(f"go {node.id}")
            run.event = eid
            hp, relics = run.hp, len(run.relics)
            run.apply(f"option {i + 1}")
            names = {c.name for c in ev.options[i].effects}
            assert run.hp >= 1 and run.gold >= 0
            if "relic" in names:
                assert len(run.relics) == relics + 1
            if "damage" in names and "max_hp" not in names:
                assert run.hp < hp


def test_chests_hold_gold_or_relics(tables: Tables) -> None:
    seen = set()
    for seed in range(12):
        run = Run.new(seed, tables=tables)
        chest = stand_before(run, "chest")
        gold = run.gold
        run.apply(f"go {chest.id}")
        assert run.screen == "map"
        seen.add("relic" if run.relics else "gold")
        assert run.relics or run.gold > gold
    assert seen == {"gold", "relic"}


def test_deck_stays_within_ten_to_forty(tables: Tables) -> None:
    """R-TOWER-4: a full deck gets no card; removal never goes below 10."""
    run = Run.new(3, tables=tables, rules=WEAK)
    assert addable(run)
    db = tables.cards
    assert [p.rule for p in deck_problems(db, run.general, (), run.deck[:9])] == ["R-TOWER-4"]
    run.deck = run.deck * 4
    assert "R-TOWER-4" not in {p.rule for p in deck_problems(db, run.general, (), run.deck)}
    assert "R-TOWER-4" in {
        p.rule for p in deck_problems(db, run.general, (), run.deck + ["squire"])
    }
    assert addable(run) == []
    run.apply(run.choices()[0])
    win_battle(run)
    assert run.choices() == ["skip"]


RELIC_TABLE = """id,name,rarity,price,effects,enemy,text
hp,甲,common,10,max_hp(8),yes,
heal,乙,common,10,heal_after_battle(5),no,
shop,丙,common,10,shop_discount(50),no,
gold,丁,common,10,gold_bonus(100),no,
camp,戊,common,10,campfire_heal(7),no,
cards,己,common,10,card_choices(2),no,
shield,庚,common,10,opening_shield,yes,
armor,辛,common,10,opening_armor(4),yes,
barracks,壬,common,10,extra_barracks(1),no,
draw,癸,common,10,opening_draw(2),yes,
"""


@pytest.mark.parametrize("effect", sorted(EFFECTS))
def test_every_relic_effect_is_implemented(tables: Tables, effect: str) -> None:
    """R-TOWER-6: each relic passive acts (run-level or through the battle's state)."""
    relics = parse_relics(RELIC_TABLE)
    rid = next(r.id for r in relics.values() if r.effects[0].name == effect)
    t = Tables(tables.cards, relics, tables.events)

    def fresh() -> Run:
        return Run.new(6, tables=t, rules=WEAK)

    base, run = fresh(), fresh()
    run.gain_relic(rid)
    if effect == "max_hp":
        assert (run.hp, run.max_hp) == (48, 48)
    elif effect in ("heal_after_battle", "gold_bonus", "card_choices"):
        for r in (base, run):
            r.hp = 20
            r.apply(r.choices()[0])
            win_battle(r)
        if effect == "heal_after_battle":
            assert run.hp == min(40, base.hp + 5)
        elif effect == "gold_bonus":
            assert run.gold - 99 == 2 * (base.gold - 99)
        else:
            assert (len(base.offer), len(run.offer)) == (3, 5)
    elif effect == "shop_discount":
        for r in (base, run):
            r.apply(f"go {stand_before(r, 'shop').id}")
        assert run.shop["heal"] * 2 in (base.shop["heal"], base.shop["heal"] + 1)
    elif effect == "campfire_heal":
        for r in (base, run):
            r.hp = 10
            r.apply(f"go {stand_before(r, 'campfire').id}")
            r.apply("rest")
        assert run.hp == base.hp + 7
    else:
        for r in (base, run):
            r.apply(r.choices()[0])
        assert base.battle is not None and run.battle is not None
        mb, mr = base.battle.match, run.battle.match
        tb, tr = mb.state.throne(0), mr.state.throne(0)
        assert tb is not None and tr is not None
        if effect == "opening_shield":
            assert (tb.shield, tr.shield) == (False, True)
        elif effect == "opening_armor":
            assert tr.armor == tb.armor + 4
        elif effect == "opening_draw":
            assert len(mr.state.sides[0].hand) == len(mb.state.sides[0].hand) + 2
        else:  # extra_barracks: one more barracks on the back corner; the enemy's 3 as usual

            def barracks(m: Match, side: int) -> list[str]:
                return [u.card for u in m.state.units(side) if u.kind == "barracks"]

            assert barracks(mb, 0) == [] and barracks(mr, 0) == ["militia_camp"]
            assert mr.unit_at("a1") is not None
            for m, r in ((mb, base), (mr, run)):
                assert r.battle is not None
                while m.phase in ("replace", "found"):
                    r.battle.step_enemy() if m.turn == 1 else m.apply(decide(m, "standard", 0))
            assert len(barracks(mr, 0)) == 4 and len(barracks(mb, 0)) == 3
            assert len(barracks(mr, 1)) == len(barracks(mb, 1)) == 3


def test_enemy_strength_grows_with_floor_and_kind(tables: Tables) -> None:
    """R-TOWER-7: elites and bosses are stronger, with their own relics; later floors too."""
    hps = {}
    for kind in ("battle", "elite", "boss"):
        for floor in (0, 2):
            run = Run.new(9, tables=tables)
            node = next(n for n in run.tmap if n.kind == kind and n.floor == floor and n.row > 0)
            run.floor, run.node = floor, run.tmap.parents(node.id)[0].id
            run.apply(f"go {node.id}")
            assert run.battle is not None
            throne = run.battle.match.state.throne(1)
            assert throne is not None
            hps[(kind, floor)] = throne.max_hp
            if kind != "battle":
                assert run.battle.setup.enemy_relics
    assert hps[("battle", 0)] < hps[("elite", 0)] < hps[("boss", 0)]
    assert all(hps[(k, 0)] < hps[(k, 2)] for k in ("battle", "elite", "boss"))


def test_same_seed_and_choices_give_the_same_run(tables: Tables) -> None:
    """Reproducibility: a run is a function of its seed and its choices."""
    a = play_run(21, tables=tables, rules=WEAK)[0]
    b = play_run(21, tables=tables, rules=WEAK)[0]
    assert state(a) == state(b) and len(a.history) > 10
    c = play_run(22, tables=tables, rules=WEAK)[0]
    assert state(c) != state(a)
    # replaying the recorded choices (battles by the same agents) rebuilds the run
    d = Run.new(21, tables=tables, rules=WEAK)
    for choice in a.history:
        if d.screen == "battle":
            assert d.battle is not None
            d.battle.play_out("standard", 21)
        d.apply(choice)
    assert state(d) == state(a)


def test_blundering_enemy_agents_are_deterministic(tables: Tables) -> None:
    """R-TOWER-7: ``standard-N`` enemies, the difficulty dial, decide like any agent:
    a pure function of the position and the seed (resumed battles stay identical)."""
    from throne_lib.games.throne.tower.battle import make_agent

    run = Run.new(2, tables=tables)
    run.apply(run.choices()[0])
    assert run.battle is not None
    m = run.battle.match
    assert make_agent("standard-30", 4).name == "standard-30"
    for n in (0, 50, 100):
        assert decide(m, f"standard-{n}", 9) == decide(m.copy(), f"standard-{n}", 9)
    with pytest.raises(ValueError):
        make_agent("nonsense", 1)
