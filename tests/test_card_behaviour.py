"""A test per card: every row of cards.csv is put into a real match and played,
summoned, built or cast; its stats, keywords and effects are observed in the
events and the state. Parametrized over the table, so a new row without
working behaviour fails here.

The harness opens a match (keep, found 3 barracks on the back row), stages a
board (enemies on their front rows, damaged units so heals show, a friendly
building, a minion in the graveyard), injects the card into the hand with
mana to spare, then tries the legal actions for it on copies of the match
until one shows every effect of the clause (an effect on an empty selection
shows nothing, so the right target is searched, not assumed).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from throne_lib import Action, Event, Match, SideSetup, load_cards
from throne_lib.games.throne.cards import Card
from throne_lib.games.throne.effects import SPECS
from throne_lib.games.throne.lang import Call, Clause
from throne_lib.games.throne.state import THRONE, Unit

DB = load_cards()
TRIES = 60

# What each effect shows in the events: kinds, and whose card the event names.
EXPECT: dict[str, tuple[frozenset[str], str]] = {
    "damage": (frozenset({"damage", "shield_break"}), "source"),
    "heal": (frozenset({"heal"}), "source"),
    "buff": (frozenset({"buff"}), "source"),
    "max_hp": (frozenset({"buff"}), "source"),
    "armor": (frozenset({"armor"}), "source"),
    "shield": (frozenset({"shield"}), "source"),
    "draw": (frozenset({"draw"}), "any"),
    "mana": (frozenset({"mana"}), "source"),
    "summon": (frozenset({"summon"}), "card_arg"),
    "destroy": (frozenset({"destroy", "immune"}), "source"),
    "bounce": (frozenset({"bounce"}), "source"),
    "advance": (frozenset({"shift"}), "source"),
    "retreat": (frozenset({"shift"}), "source"),
    "load": (frozenset({"load"}), "source"),
    "reload": (frozenset({"load"}), "source"),
    "captain": (frozenset({"summon"}), "captain"),
    "raise_dead": (frozenset({"summon"}), "minion"),
    "overload": (frozenset({"buff"}), "source"),
    "give_taunt": (frozenset({"grant"}), "source"),
    "give_reborn": (frozenset({"grant"}), "source"),
    "give_regen": (frozenset({"grant"}), "source"),
    "exhume": (frozenset({"exhume"}), "source"),
}
FLAGS: tuple[str, ...] = ("taunt", "flying", "pierce", "lifesteal", "formation", "fortified")
FLAGS += ("reborn", "artisan", "aura_load")
NUMBERS = ("siege", "grow", "aura_summon", "heal_aura", "regen", "peasant")


def test_every_effect_has_an_expectation() -> None:
    """A new registry effect needs a line in EXPECT, or no card may use it untested."""
    assert set(EXPECT) == set(SPECS)


# --- the harness ------------------------------------------------------------------


def general_of(card: Card) -> str:
    if card.kind == "general":
        return card.id
    race = card.race if card.race != "neutral" else "human"
    return DB.of("general", race)[0].id


def opened(general: str, seed: int = 3) -> Match:
    """Both sides play ``general``'s signature deck; the opening is finished by
    keeping the hand and founding the race's 3 barracks (each once) on the back row."""
    setup = SideSetup.signature(DB, general)
    m = Match.new(DB, setup, setup, seed=seed)
    while m.phase in ("replace", "found"):
        acts = m.legal_actions()
        keep = [a for a in acts if a.kind == "keep"]
        if keep:
            m.apply(keep[0])
            continue
        back = m.geo.back_row(m.turn)
        side = m.state.sides[m.turn]
        found = [a for a in acts if a.kind == "found" and m.geo.row(a.target) == back]
        fresh = [a for a in found if a.card not in side.founded and DB[a.card].race == side.race]
        m.apply((fresh or found)[0])
    assert m.phase == "main"
    return m


def rows(m: Match, side: int) -> list[list[int]]:
    """The cells of a side's half, front row first, each row a-g."""
    geo = m.geo
    by_row: dict[int, list[int]] = {}
    for c in geo.half(side):
        by_row.setdefault(geo.row(c), []).append(c)
    order = sorted(by_row, reverse=(side == 0))
    return [by_row[r] for r in order]


def stage(m: Match, hand: tuple[str, ...] = ()) -> Match:
    """The standard scenario for the side to act (see the module docstring)."""
    eng = m.eng
    st = m.state
    me, foe = st.turn, 1 - st.turn
    mine, theirs = rows(m, me), rows(m, foe)
    for c in theirs[0]:
        if st.board[c] is None:
            eng.make_unit(DB["boar"], foe, c, from_deck=False)
    for c in theirs[1][::2]:
        if st.board[c] is None:
            eng.make_unit(DB["boar"], foe, c, from_deck=False)
    for c in mine[0][::2]:
        if st.board[c] is None:
            eng.make_unit(DB["boar"], me, c, from_deck=False)
    eng.make_unit(DB["wolf"], me, mine[1][1], from_deck=False)
    eng.make_unit(DB["turret"], me, mine[1][5], from_deck=False)
    for u in st.board:
        if u is not None and u.card == "boar":
            u.max_hp = 8  # sturdy enough to survive a first hit, so follow-ups show
        if u is not None and u.max_hp > 2:
            u.hp = u.max_hp - 2
    s = st.sides[me]
    s.grave.append("skeleton")
    s.hand = list(hand)
    s.mana = 30
    eng.events = []
    return m.copy()


def actor_ok(ev: Event, call: Call, source: str, how: str) -> bool:
    if how == "source":
        return ev.actor == source
    if how == "card_arg":
        return ev.actor == call.args[0]
    if how in ("captain", "minion"):
        return ev.actor is not None and DB[ev.actor].kind in (how, "soldier")
    return True


def shows(events: list[Event], calls: tuple[Call, ...], source: str) -> bool:
    """Every call of a clause left its trace. Calls with the same expectation share
    their events, so a clause with two damage calls needs two damage events."""
    groups: dict[tuple[frozenset[str], str, object], tuple[Call, int]] = {}
    for call in calls:
        kinds, how = EXPECT[call.name]
        key = (kinds, how, call.args[0] if how == "card_arg" else None)
        rep, n = groups.get(key, (call, 0))
        groups[key] = (rep, n + 1)
    for (kinds, how, _), (rep, n) in groups.items():
        got = sum(1 for ev in events if ev.kind in kinds and actor_ok(ev, rep, source, how))
        if got < n:
            return False
    return True


def first_showing(
    m: Match, actions: list[Action], check: Callable[[Match, list[Event]], bool]
) -> tuple[Match, list[Event]]:
    """Apply each candidate on a copy; return the first copy whose events pass ``check``."""
    assert actions, "no legal action for this card in the staged scenario"
    tried = []
    for a in actions[:TRIES]:
        c = m.copy()
        events = c.apply(a)
        if check(c, events):
            return c, events
        tried.append(a.text(m.geo))
    raise AssertionError(f"no candidate showed the effect; tried {tried}")


def clause_check(card: Card, clause: Clause) -> Callable[[Match, list[Event]], bool]:
    return lambda _m, events: shows(events, clause.calls, card.id)


def assert_unit(u: Unit | None, card: Card) -> Unit:
    """The unit on the board carries the card's stats and keywords."""
    assert u is not None and u.card == card.id
    assert u.attack == card.attack and u.max_hp == card.hp
    if card.kind not in ("barracks", "building"):
        assert u.move == card.move and u.range == card.range
    assert u.armor >= card.kw("armor")
    assert u.shield == bool(card.kw("shield"))
    for flag in FLAGS:
        assert getattr(u, flag) == bool(card.kw(flag)), flag
    for name in NUMBERS:
        assert getattr(u, name) == card.kw(name), name
    return u


def hand_actions(m: Match, cid: str) -> list[Action]:
    return [a for a in m.legal_actions() if a.kind == "play" and a.card == cid]


def check_other_triggers(m: Match, card: Card) -> None:
    """Deathrattle, turn start and on-kill clauses, each on a freshly placed unit."""
    for clause in card.effects:
        if clause.trigger in ("play", "skill"):
            continue
        side = m.turn
        ok = False
        for cell in [c for c in m.geo.half(side) if m.state.board[c] is None]:
            c = m.copy()
            eng = c.eng
            u = eng.summon(card.id, side, cell, from_deck=False)
            eng.events = []
            if clause.trigger == "death":
                eng.destroy(u, "test")
                eng.cleanup()
                events = eng.events
            elif clause.trigger == "turn_start":
                events = c.apply("end") + c.apply("end")
            elif clause.trigger == "kill":
                foes = [v for v in c.state.board if v is not None and v.side != side]
                foes = [v for v in foes if v.kind not in (THRONE, "barracks")]
                victim = min(foes, key=lambda v: c.geo.dist[cell][v.cell])
                u.attack, u.range, victim.hp, victim.armor = 99, 9, 1, 0
                eng.attack(u, victim)
                events = eng.events
            else:
                raise AssertionError(f"no harness for trigger {clause.trigger}")
            if shows(events, clause.calls, card.id):
                ok = True
                break
        assert ok, f"{card.id}: {clause.text()} showed nothing"


# --- per kind ---------------------------------------------------------------------


def check_spell(card: Card) -> None:
    m = stage(opened(general_of(card)), hand=(card.id,))
    before = len(m.state.sides[m.turn].grave)
    clause = card.clauses("play")[0]
    c, _ = first_showing(m, hand_actions(m, card.id), clause_check(card, clause))
    s = c.state.sides[m.turn]
    assert card.id in s.grave and len(s.grave) >= before  # R-TURN-11
    assert s.mana <= 30 - card.cost + sum(int(a.args[0]) for a in clause.calls if a.name == "mana")


def check_minion(card: Card) -> None:
    """R-UNIT-5: played from the hand onto an empty cell of the own half."""
    m = stage(opened(general_of(card)), hand=(card.id,))
    plays = hand_actions(m, card.id)
    assert {a.target for a in plays} <= set(m.geo.half(m.turn))
    clauses = card.clauses("play")
    check = clause_check(card, clauses[0]) if clauses else (lambda _m, _e: True)
    c, events = first_showing(m, plays, check)
    cell = next(e.cell for e in events if e.kind == "summon" and e.actor == card.id)
    assert assert_unit(c.state.board[cell], card).from_deck
    check_other_triggers(m, card)


def check_general(card: Card) -> None:
    """R-HERO-1, R-HERO-2, R-HERO-3, R-THRONE-6: cast from the throne at cost + 1
    with a cooldown, and from a recruited vice general at cost."""
    skill = card.skill
    assert skill is not None and card.cost in (5, 6)
    m = stage(opened(card.id))
    side = m.turn
    throne = m.state.throne(side)
    assert throne is not None and throne.card == card.id
    casts = [a for a in m.legal_actions() if a.kind == "skill" and a.cell == throne.cell]
    c, events = first_showing(m, casts, clause_check(card, skill))
    s = c.state.sides[side]
    assert s.mana == 30 - skill.mana - 1 + _mana_gain(skill)  # R-THRONE-6
    assert s.skill_cooldown > 0
    t = c.state.throne(side)
    if skill.hp:
        assert any(e.kind == "pay_hp" and e.amount == skill.hp for e in events)
        assert t is None or t.hp <= throne.hp - skill.hp + _heal_of(skill, "own_throne")
    assert not [a for a in c.legal_actions() if a.kind == "skill" and a.cell == throne.cell]
    # the vice general: recruited from the hand, acts at once
    m = stage(opened(card.id), hand=(card.id,))
    plays = hand_actions(m, card.id)
    c, events = first_showing(m, plays, lambda _m, _e: True)
    cell = plays[0].target
    vice = assert_unit(c.state.board[cell], card)
    assert vice.kind == "general"
    casts = [a for a in c.legal_actions() if a.kind == "skill" and a.cell == cell]
    mana_before = c.state.sides[side].mana
    c2, _ = first_showing(c, casts, clause_check(card, skill))
    assert c2.state.sides[side].mana == mana_before - skill.mana + _mana_gain(skill)
    v = c2.state.board[cell]
    assert v is None or v.acted  # R-HERO-2: the skill used its action
    if v is not None:
        assert not [a for a in c2.legal_actions() if a.cell == cell and a.kind != "build"]


def _mana_gain(clause: Clause) -> int:
    return sum(int(c.args[0]) for c in clause.calls if c.name == "mana")


def _heal_of(clause: Clause, who: str) -> int:
    return sum(int(c.args[0]) for c in clause.calls if c.name == "heal" and c.args[1] == who)


def check_barracks(card: Card) -> None:
    """R-BARRACKS-1/3/6: placed on an empty cell, repaired up to level 3, then each
    tier is summoned around it."""
    m = stage(opened(general_of(card)), hand=(card.id, card.id, card.id))
    plays = [a for a in hand_actions(m, card.id) if m.state.board[a.target] is None]
    assert plays
    m.apply(plays[0])
    cell = plays[0].target
    b = assert_unit(m.state.board[cell], card)
    assert b.level == 1 and b.kind == "barracks"
    for level in (2, 3):
        ev = m.apply(Action("play", -1, cell, card.id))
        assert any(e.kind == "repair" and e.target_cell == cell for e in ev)
        b = barracks_at(m, cell)
        assert b.level == level
    assert b.max_hp == card.hp + 8
    for tier in card.tiers:
        b.summons_used = 0
        m = m.copy()
        summons = [a for a in m.legal_actions() if a.kind == "summon" and a.cell == cell]
        assert {a.card for a in summons} == set(card.tiers)
        a = next(a for a in summons if a.card == tier)
        m.apply(a)
        assert_unit(m.state.board[a.target], DB[tier])
        b = barracks_at(m, cell)
    assert card.kw("summons") in (0, 1, 2)


def barracks_at(m: Match, cell: int) -> Unit:
    b = m.state.board[cell]
    assert b is not None and b.kind == "barracks"
    return b


def friendly_barracks(m: Match, pred: Callable[[Card], bool]) -> Unit:
    units = [u for u in m.state.board if u is not None and u.side == m.turn]
    found = [u for u in units if u.kind == "barracks" and pred(DB[u.card])]
    assert found, "no friendly barracks fits"
    return found[0]


def check_captain(card: Card) -> None:
    """R-BARRACKS-9: offered by a barracks whose pool holds it, picked, placed around it."""
    owners = [b for b in DB.of("barracks") if card.id in b.captains]
    assert owners, f"{card.id} is in no barracks' captain pool"
    m = stage(opened(general_of(owners[0] if card.kind == "soldier" else card)))
    m.state.round = 7
    b = friendly_barracks(m, lambda c: card.id in c.captains)
    b.offer = (card.id,)
    base = m.copy()
    m = base.copy()
    m.apply(Action("captain", b.cell))
    assert m.phase == "captain"
    picks = [a for a in m.legal_actions() if a.kind == "pick"]
    clauses = card.clauses("play")
    check = clause_check(card, clauses[0]) if clauses else (lambda _m, _e: True)
    c, _ = first_showing(m, picks, check)
    placed = [u for u in c.state.board if u is not None and u.card == card.id]
    assert placed and c.geo.dist[b.cell][placed[0].cell] <= 2
    assert_unit(placed[0], card)
    check_other_triggers(base, card)


def check_soldier(card: Card) -> None:
    """R-BARRACKS-3: summoned from a barracks whose tiers list it (at its level)."""
    owners = [b for b in DB.of("barracks") if card.id in b.tiers]
    assert owners, f"{card.id} is no barracks' soldier"
    m = stage(opened(general_of(owners[0])))
    b = friendly_barracks(m, lambda c: card.id in c.tiers)
    b.level = 3
    m = m.copy()
    summons = [a for a in m.legal_actions() if a.kind == "summon" and a.card == card.id]
    c, _ = first_showing(m, summons, lambda _m, _e: True)
    assert_unit(c.state.board[summons[0].target], card)
    check_other_triggers(m, card)


def check_building(card: Card) -> None:
    """R-GOBLIN-1, R-GOBLIN-2: an artisan builds it on its own cell and is consumed."""
    m = stage(opened(general_of(card)))
    cell = next(c for c in rows(m, m.turn)[1] if m.state.board[c] is None)
    m.eng.summon("clockwork_smith", m.turn, cell, from_deck=False)
    m = m.copy()
    events = m.apply(Action("build", cell, -1, card.id))
    assert any(e.kind == "build" and e.target == card.id for e in events)
    u = assert_unit(m.state.board[cell], card)
    assert u.kind == "building" and u.fortified and u.move == 0
    check_other_triggers(m, card)


def check_token(card: Card) -> None:
    """R-SETUP-3: a token only comes from a card effect; it is summoned by one."""
    sources = [
        c
        for c in DB.values()
        for cl in c.effects
        for call in cl.calls
        if call.name == "summon" and call.args[0] == card.id
    ]
    assert sources, f"no card summons the token {card.id}"
    CHECKS[sources[0].kind](sources[0])
    m = stage(opened(general_of(card)))
    u = m.eng.summon(card.id, m.turn, rows(m, m.turn)[1][3], from_deck=False)
    assert_unit(u, card)
    assert not u.from_deck  # R-TURN-11: vanishes when it dies
    m.eng.destroy(u, "test")
    m.eng.cleanup()
    assert card.id not in m.state.sides[m.turn].grave


CHECKS: dict[str, Callable[[Card], None]] = {
    "spell": check_spell,
    "minion": check_minion,
    "general": check_general,
    "barracks": check_barracks,
    "captain": check_captain,
    "soldier": check_soldier,
    "building": check_building,
    "token": check_token,
}


@pytest.mark.parametrize("cid", list(DB))
def test_card(cid: str) -> None:
    """Each row of the table works in a real match (R-RACE-1, R-HERO-3)."""
    card = DB[cid]
    if card.kind == "soldier" and not any(cid in b.tiers for b in DB.of("barracks")):
        check_captain(card)  # a worker offered from a captain pool only
    else:
        CHECKS[card.kind](card)
    if card.kind == "soldier" and any(cid in b.captains for b in DB.of("barracks")):
        check_captain(card)  # R-BARRACKS-9: the camp's 3-cost pool has the worker
