"""The fast engine paths against straightforward references, at every position of seeded
matches (issue 16: speed without changing a single result).

- ``legal_actions()``: the engine lists a side's actions with shared per-listing work
  (:class:`throne_lib.games.throne.legal.Scan`), shared :class:`Action` objects and cached reach
  tables; the reference here asks the same rule functions one card and one unit at a
  time, from scratch, and builds fresh ``Action`` objects. Both read the same rule
  predicates, so a rule change reaches both; what is compared is the speed machinery.
- ``hash()``: the match caches it per position and the state keeps the RNG's text; the
  reference digests the full state serialization from scratch (every unit slot but the
  uid, every side's key, the scalars, the RNG state).
- ``copy()``: the copy shares the RNG until one of the two uses it; a copy must hash
  like its original, and both must go on exactly as the original would have.

The default run plays ``THRONE_REFERENCE_MATCHES`` matches (40); set it to 200 for the
full check of the issue (about 4x the time): ``THRONE_REFERENCE_MATCHES=200 pytest
tests/test_speed_reference.py``. Rules cited: R-TURN-12 (one seed decides the match),
R-UNIT-2, R-UNIT-4, R-COMBAT-5, R-FLY-2 (move and attack targets), R-BARRACKS-9.
"""

from __future__ import annotations

import hashlib
import itertools
import os

import pytest

from throne_lib import CardDB, Match, SideSetup
from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.board import geometry
from throne_lib.games.throne.engine import Engine
from throne_lib.games.throne.legal import (
    attack_targets,
    build_actions,
    legal_actions,
    move_targets,
    play_targets,
    reach,
    skill_actions,
    summon_actions,
    turn_actions,
)
from throne_lib.games.throne.state import BARRACKS, MAIN, UNIT_FIELDS, State, Unit
from throne_lib.kit.agents import RandomAgent

MATCHES = int(os.environ.get("THRONE_REFERENCE_MATCHES", "40"))
RACES = ("human", "goblin", "demon", "undead", "beast", "elf")
PAIRS = [(a, b) for a, b in itertools.product(RACES, RACES) if a != b]


def reference_legal(eng: Engine) -> list[Action]:
    """The main phase listed card by card and unit by unit, each from scratch."""
    st = eng.state
    if st.phase != MAIN:
        return [Action(a.kind, a.cell, a.target, a.card) for a in legal_actions(eng)]
    side = st.turn
    out: list[Action] = []
    for card in dict.fromkeys(st.sides[side].hand):
        out += [Action("play", -1, t, card) for t in play_targets(eng, card)]
    for u in list(st.board):
        if u is None or u.side != side:
            continue
        out += [Action("move", u.cell, t) for t in move_targets(eng, u)]
        out += [Action("attack", u.cell, t) for t in attack_targets(eng, u)]
        if u.kind == BARRACKS:
            out += summon_actions(eng, u)
        out += skill_actions(eng, u)
        out += build_actions(eng, u)
    out += turn_actions(eng)
    return out


def reference_hash(st: State) -> str:
    """sha256 of the full state serialization, computed from scratch."""

    def unit_key(u: Unit) -> tuple[object, ...]:
        return tuple(getattr(u, name) for name in UNIT_FIELDS[1:])

    h = hashlib.sha256()
    h.update(repr(tuple(unit_key(u) if u else None for u in st.board)).encode())
    h.update(repr(tuple(s.key() for s in st.sides)).encode())
    scalars = (
        st.round,
        st.turn,
        st.first,
        st.phase,
        st.pending,
        st.next_uid,
        st.winner,
        st.end_reason,
        st.marched,
    )
    h.update(repr(scalars).encode())
    h.update(repr(st.rng.getstate()).encode())
    return h.hexdigest()[:16]


def check_position(m: Match) -> None:
    fast = m.legal_actions()
    ref = reference_legal(m.eng)
    assert list(fast) == ref, f"legal actions differ at {m!r}, action {len(m.history)}"
    for a in ref:  # an equal action built elsewhere is legal too, the very object or not
        assert a in fast
    assert m.hash() == reference_hash(m.state)
    assert m.hash() == m.hash()  # the cached value


def new_match(db: CardDB, seed: int) -> Match:
    blue, red = PAIRS[seed % len(PAIRS)]
    return Match.new(db, SideSetup.signature(db, blue), SideSetup.signature(db, red), seed)


@pytest.mark.parametrize("chunk", range(4))
def test_fast_paths_equal_references_at_every_position(db: CardDB, chunk: int) -> None:
    """R-TURN-12: seeded random matches; legal actions and hash at every position."""
    positions = 0
    for seed in range(chunk, MATCHES, 4):
        m = new_match(db, seed)
        agents = (RandomAgent(2 * seed), RandomAgent(2 * seed + 1))
        while not m.is_over:
            check_position(m)
            positions += 1
            if positions % 97 == 0:  # a copy hashes like its original and goes on alike
                c = m.copy()
                assert c.hash() == m.hash() == reference_hash(c.state)
                a = agents[m.turn].choose(m)
                c.apply(a)
                m.apply(a)
                assert c.hash() == m.hash() == reference_hash(m.state)
                continue
            m.apply(agents[m.turn].choose(m))
        check_position(m)
    assert positions > 0


def test_copies_share_the_rng_until_one_uses_it(db: CardDB) -> None:
    """A copy and its original draw the same random numbers, whichever draws first."""
    m = new_match(db, 3)
    c = m.copy()
    first = m.state.rng.random()  # the original draws first: the copy still has the old state
    assert c.state.rng.random() == first
    c2 = c.copy()
    second = c2.state.rng.random()  # now the copy draws first
    assert c.state.rng.random() == second
    assert reference_hash(c.state) == reference_hash(c2.state) == c2.state.hash()


def test_hash_cache_follows_apply_and_touch(db: CardDB) -> None:
    m = new_match(db, 5)
    before = m.hash()
    m.apply(m.legal_actions()[-1])
    assert m.hash() != before and m.hash() == reference_hash(m.state)
    m.state.sides[0].mana += 1  # a direct edit: the caller must touch() the match
    m.touch()
    assert m.hash() == reference_hash(m.state)


def test_reach_tables_match_distances() -> None:
    """R-BOARD-5: the cached reach of a cell is every other cell within the distance."""
    for cols, rows in ((7, 6), (5, 4), (9, 8)):
        geo = geometry(cols, rows)
        for cell in range(geo.size):
            for d in range(0, 5):
                want = tuple(c for c in range(geo.size) if 0 < geo.dist[cell][c] <= d)
                assert reach(geo, cell, d) == want
