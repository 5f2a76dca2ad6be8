"""Legal actions: the one source of legality for the engine, the UI and the AI.

Each function reads the state and lists what the rules allow; nothing here
changes the state. :meth:`throne_lib.games.throne.match.Match.legal_actions` calls
:func:`legal_actions`; the UI asks :func:`move_targets` / :func:`attack_targets`
through the match.
"""

from __future__ import annotations

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.effects import chosen_cells, destroys_chosen
from throne_lib.games.throne.engine import Engine
from throne_lib.games.throne.state import (
    BARRACKS,
    CAPTAIN,
    MAIN,
    OPEN_FOUND,
    OPEN_REPLACE,
    THRONE,
    Unit,
)


def legal_actions(eng: Engine) -> list[Action]:
    st = eng.state
    if st.phase == MAIN:
        return _main(eng)
    if st.phase == CAPTAIN:
        return _captain_pick(eng)
    if st.phase == OPEN_REPLACE:
        return _replace(eng)
    if st.phase == OPEN_FOUND:
        return _found(eng)
    return []


def can_move(eng: Engine, u: Unit) -> bool:
    """R-UNIT-1, R-THRONE-4, R-COMBAT-7, R-BARRACKS-7, R-HERO-2."""
    if u.moved or u.acted or u.move <= 0 or u.fortified:
        return False
    if u.kind == THRONE:
        return eng.state.marched
    return u.kind not in (BARRACKS, "building")


def move_targets(eng: Engine, u: Unit) -> list[int]:
    """Cells ``u`` may move to this turn (R-UNIT-2, R-BOARD-3, R-FLY-2)."""
    if not can_move(eng, u):
        return []
    board = eng.state.board
    geo = eng.geo
    if u.airborne:  # flies over units and full rows, lands on an empty cell
        row = geo.dist[u.cell]
        return [c for c in range(geo.size) if board[c] is None and 0 < row[c] <= u.move]
    # Orthogonal steps through empty cells. A full row is a wall (R-BOARD-3): with
    # all its cells occupied no ground step can enter it, so no path crosses it.
    seen = {u.cell}
    frontier = [u.cell]
    out: list[int] = []
    for _ in range(u.move):
        nxt = []
        for c in frontier:
            for n in geo.orth[c]:
                if n not in seen and board[n] is None:
                    seen.add(n)
                    nxt.append(n)
                    out.append(n)
        frontier = nxt
    out.sort()
    return out


def can_attack(eng: Engine, u: Unit) -> bool:
    if u.attack <= 0 or u.acted:
        return False
    if u.attacked and not (u.kind == "building" and u.uses > 0):
        return False
    if u.kind == THRONE:
        return eng.state.marched  # R-THRONE-4
    return u.kind != BARRACKS


def attack_targets(eng: Engine, u: Unit) -> list[int]:
    """R-UNIT-4, R-COMBAT-5 (taunt by row), R-FLY-2, R-THRONE-2."""
    if not can_attack(eng, u):
        return []
    board = eng.state.board
    geo = eng.geo
    dist = geo.dist[u.cell]
    hits_air = u.range > 1 or u.airborne
    taunt_rows = _taunt_rows(eng, 1 - u.side)
    out = []
    for v in board:
        if v is None or v is u or dist[v.cell] > u.range:
            continue
        if v.airborne and not hits_air:
            continue
        if v.side != u.side and not v.taunt and geo.row(v.cell) in taunt_rows:
            continue
        out.append(v.cell)
    return out


def _taunt_rows(eng: Engine, side: int) -> set[int]:
    return {
        eng.geo.row(u.cell) for u in eng.state.board if u is not None and u.side == side and u.taunt
    }


def play_targets(eng: Engine, card_id: str) -> list[int]:
    """Cells a hand card may be played on, ``[-1]`` for an untargeted spell,
    ``[]`` when it cannot be played now (R-TURN-8, R-TURN-9, R-UNIT-5)."""
    st = eng.state
    side = st.turn
    s = st.sides[side]
    card = eng.db[card_id]
    if card.cost > s.mana or s.name_uses.get(card.name, 0) >= eng.rules.name_uses_per_turn:
        return []
    board = st.board
    if card.kind == "spell":
        if card.draw_only and len(s.hand) >= eng.rules.hand_limit:
            return []
        clause = card.target_clause
        if clause is None:
            return [-1]
        assert clause.chosen is not None
        return chosen_cells(eng, side, clause.chosen, destroys_chosen(clause))
    empty = [c for c in eng.geo.half(side) if board[c] is None]
    if card.kind == BARRACKS:  # R-BARRACKS-1, R-BARRACKS-6
        own = [u.cell for u in board if u is not None and u.side == side and u.kind == BARRACKS]
        return sorted(empty + own)
    if card.kind in ("minion", "general"):
        return empty
    return []


def summon_actions(eng: Engine, b: Unit) -> list[Action]:
    """Soldiers by level, captain offers and 加派 of one barracks (R-BARRACKS-*)."""
    st = eng.state
    s = st.sides[b.side]
    out: list[Action] = []
    free = [c for c in eng.geo.around[b.cell] if st.board[c] is None]
    left = eng.summons_left(b)
    card = eng.db[b.card]
    if left > 0 and free:
        for sid in card.tiers[: b.level]:
            if eng.db[sid].cost <= s.mana:
                out.extend(Action("summon", b.cell, c, sid) for c in free)
        pool = eng.captain_pool(b)
        offered = b.offer or tuple(pool)
        if pool and any(eng.db[c].cost <= s.mana for c in offered):
            out.append(Action("captain", b.cell))
    if left <= 0 and eng.is_loaded(b) and s.mana >= eng.rules.extra_summon_cost:
        out.append(Action("extra", b.cell))
    return out


def skill_actions(eng: Engine, u: Unit) -> list[Action]:
    """R-THRONE-6, R-HERO-2."""
    st = eng.state
    card = eng.db[u.card]
    clause = card.skill
    if clause is None or u.acted or u.attacked:
        return []
    if u.kind == THRONE and st.sides[u.side].skill_cooldown > 0:
        return []
    if u.kind not in (THRONE, "general"):
        return []
    mana, hp = eng.skill_cost(u)
    if mana > st.sides[u.side].mana or (hp and u.hp <= hp):
        return []
    if clause.chosen:
        targets = chosen_cells(eng, u.side, clause.chosen, destroys_chosen(clause))
        return [Action("skill", u.cell, t) for t in targets]
    return [Action("skill", u.cell)]


def build_actions(eng: Engine, u: Unit) -> list[Action]:
    """R-GOBLIN-2: an artisan builds on its own cell."""
    if not u.artisan or u.acted:
        return []
    mana = eng.state.sides[u.side].mana
    return [Action("build", u.cell, -1, b.id) for b in eng.db.of("building") if b.cost <= mana]


def unit_actions(eng: Engine, u: Unit) -> list[Action]:
    """Everything one friendly unit can do now (for the UI's click)."""
    out = [Action("move", u.cell, t) for t in move_targets(eng, u)]
    out += [Action("attack", u.cell, t) for t in attack_targets(eng, u)]
    if u.kind == BARRACKS:
        out += summon_actions(eng, u)
    out += skill_actions(eng, u)
    out += build_actions(eng, u)
    return out


def _main(eng: Engine) -> list[Action]:
    st = eng.state
    side = st.turn
    s = st.sides[side]
    out: list[Action] = []
    for card_id in dict.fromkeys(s.hand):
        out.extend(Action("play", -1, t, card_id) for t in play_targets(eng, card_id))
    for u in st.board:
        if u is not None and u.side == side:
            out.extend(unit_actions(eng, u))
    if s.grave and s.mana >= eng.rules.shuffle_cost(s.shuffles):
        out.append(Action("shuffle"))
    out.append(Action("end"))
    return out


def _captain_pick(eng: Engine) -> list[Action]:
    st = eng.state
    b = st.board[st.pending]
    assert b is not None
    mana = st.sides[b.side].mana
    free = [c for c in eng.geo.around[b.cell] if st.board[c] is None]
    out = [Action("pick", -1, c, cap) for cap in b.offer if eng.db[cap].cost <= mana for c in free]
    out.append(Action("cancel"))
    return out


def _replace(eng: Engine) -> list[Action]:
    st = eng.state
    s = st.sides[st.turn]
    out: list[Action] = []
    if s.replaced < eng.rules.opening_max_replace and any(
        eng.db[c].kind == BARRACKS for c in s.deck
    ):
        out = [
            Action("replace", card=c) for c in dict.fromkeys(s.hand) if eng.db[c].kind != BARRACKS
        ]
    out.append(Action("keep"))
    return out


def _found(eng: Engine) -> list[Action]:
    st = eng.state
    side = st.turn
    empty = [c for c in eng.geo.half(side) if st.board[c] is None]
    return [Action("found", -1, c, b) for b in eng.opening_choices(side) for c in empty]
