"""Legal actions: the one source of legality for the engine, the UI and the AI.

Each function reads the state and lists what the rules allow; nothing here
changes the state. :meth:`throne_lib.games.throne.match.Match.legal_actions` calls
:func:`legal_actions`; the UI asks :func:`move_targets` / :func:`attack_targets`
through the match.

Speed (issue 16): the same action is one shared, immutable :class:`Action` object
(:func:`act`) instead of a new dataclass per listing, and what every unit of a side would
recompute (the enemy's taunt rows, the cells within reach) is computed once. The rules
themselves are written once, in the functions below, whichever way they are called.
"""

from __future__ import annotations

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.board import Geometry
from throne_lib.games.throne.cards import Card
from throne_lib.games.throne.effects import chosen_cells, destroys_chosen
from throne_lib.games.throne.engine import Engine
from throne_lib.games.throne.lang import Clause
from throne_lib.games.throne.state import (
    BARRACKS,
    CAPTAIN,
    MAIN,
    OPEN_FOUND,
    OPEN_REPLACE,
    THRONE,
    Unit,
)

_ACTIONS: dict[tuple[str, int, int, str], Action] = {}
_REACH: dict[tuple[int, int, int, int], tuple[int, ...]] = {}


def act(kind: str, cell: int = -1, target: int = -1, card: str = "") -> Action:
    """``Action(kind, cell, target, card)``, one shared object per distinct action (equal
    to, and interchangeable with, any other ``Action`` of the same fields)."""
    key = (kind, cell, target, card)
    a = _ACTIONS.get(key)
    if a is None:
        if len(_ACTIONS) >= 500_000:  # many card tables in one process: start afresh
            _ACTIONS.clear()
        a = _ACTIONS[key] = Action(kind, cell, target, card)
    return a


_FACTS: dict[str, tuple[Card, bool, str | None, Clause | None]] = {}


def _facts(card: Card) -> tuple[bool, str | None, Clause | None]:
    """``card.draw_only``, ``card.play_target``, ``card.skill``, read once per card object
    (a card is immutable; another table's card of the same id is read afresh)."""
    hit = _FACTS.get(card.id)
    if hit is None or hit[0] is not card:
        if len(_FACTS) >= 100_000:
            _FACTS.clear()
        hit = _FACTS[card.id] = (card, card.draw_only, card.play_target, card.skill)
    return hit[1], hit[2], hit[3]


_PAIRS: dict[tuple[str, int, int], tuple[tuple[Action, ...], ...]] = {}


def _pairs(kind: str, geo: Geometry) -> tuple[tuple[Action, ...], ...]:
    """``_pairs(kind, geo)[cell][target]`` is ``act(kind, cell, target)``."""
    key = (kind, geo.columns, geo.rows)
    table = _PAIRS.get(key)
    if table is None:
        cells = range(geo.size)
        table = _PAIRS[key] = tuple(tuple(act(kind, c, t) for t in cells) for c in cells)
    return table


_ROWS: dict[tuple[str, int, str, int, int], tuple[Action, ...]] = {}


def _row(kind: str, cell: int, card: str, geo: Geometry) -> tuple[Action, ...]:
    """``_row(kind, cell, card, geo)[target + 1]`` is ``act(kind, cell, target, card)``
    for every target cell (and -1), built on first need."""
    key = (kind, cell, card, geo.columns, geo.rows)
    row = _ROWS.get(key)
    if row is None:
        if len(_ROWS) >= 50_000:  # many card tables in one process: start afresh
            _ROWS.clear()
        row = _ROWS[key] = tuple(act(kind, cell, t, card) for t in range(-1, geo.size))
    return row


def reach(geo: Geometry, cell: int, distance: int) -> tuple[int, ...]:
    """The cells other than ``cell`` within Manhattan ``distance`` of it, in board order."""
    key = (geo.columns, geo.rows, cell, distance)
    cells = _REACH.get(key)
    if cells is None:
        row = geo.dist[cell]
        cells = _REACH[key] = tuple(c for c in range(geo.size) if c != cell and row[c] <= distance)
    return cells


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
    return _move_cells(eng, u) if can_move(eng, u) else []


def _move_cells(eng: Engine, u: Unit) -> list[int]:
    """:func:`move_targets` of a unit known to :func:`can_move`."""
    board = eng.state.board
    geo = eng.geo
    if u.airborne:  # flies over units and full rows, lands on an empty cell
        return [c for c in reach(geo, u.cell, u.move) if board[c] is None]
    # Orthogonal steps through empty cells. A full row is a wall (R-BOARD-3): with
    # all its cells occupied no ground step can enter it, so no path crosses it.
    orth = geo.orth
    seen = {u.cell}
    frontier = [u.cell]
    out: list[int] = []
    for _ in range(u.move):
        nxt = []
        for c in frontier:
            for n in orth[c]:
                if n not in seen and board[n] is None:
                    seen.add(n)
                    nxt.append(n)
        out += nxt
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


def attack_targets(eng: Engine, u: Unit, taunt_rows: set[int] | None = None) -> list[int]:
    """R-UNIT-4, R-COMBAT-5 (taunt by row), R-FLY-2, R-THRONE-2.

    ``taunt_rows``: the rows of the enemy's taunt units, when the caller has them."""
    return _attack_cells(eng, u, taunt_rows) if can_attack(eng, u) else []


def _attack_cells(eng: Engine, u: Unit, taunt_rows: set[int] | None) -> list[int]:
    """:func:`attack_targets` of a unit known to :func:`can_attack`."""
    board = eng.state.board
    columns = eng.geo.columns
    hits_air = u.range > 1 or u.airborne
    if taunt_rows is None:
        taunt_rows = _taunt_rows(eng, 1 - u.side)
    side = u.side
    out = []
    for c in reach(eng.geo, u.cell, u.range):
        v = board[c]
        if v is None or v is u:
            continue
        if v.airborne and not hits_air:
            continue
        if v.side != side and not v.taunt and v.cell // columns in taunt_rows:
            continue
        out.append(v.cell)
    return out


def _taunt_rows(eng: Engine, side: int) -> set[int]:
    return {
        eng.geo.row(u.cell) for u in eng.state.board if u is not None and u.side == side and u.taunt
    }


class Scan:
    """What one listing of a side's legal actions would otherwise compute again for each
    card and unit: the enemy's taunt rows, the targets of each selector, the empty cells
    of the side's half. Valid for one position only."""

    __slots__ = ("eng", "side", "taunt_rows", "moves", "attacks", "_chosen", "_empty")

    def __init__(self, eng: Engine, side: int) -> None:
        self.eng = eng
        self.side = side
        self.taunt_rows = _taunt_rows(eng, 1 - side)
        self.moves = _pairs("move", eng.geo)
        self.attacks = _pairs("attack", eng.geo)
        self._chosen: dict[tuple[str, bool], list[int]] = {}
        self._empty: list[int] | None = None

    def chosen_cells(self, selector: str, destroys: bool = False) -> list[int]:
        key = (selector, destroys)
        cells = self._chosen.get(key)
        if cells is None:
            cells = self._chosen[key] = chosen_cells(self.eng, self.side, selector, destroys)
        return cells

    def empty_half(self) -> list[int]:
        if self._empty is None:
            board = self.eng.state.board
            self._empty = [c for c in self.eng.geo.half(self.side) if board[c] is None]
        return self._empty


def play_targets(eng: Engine, card_id: str, scan: Scan | None = None) -> list[int]:
    """Cells a hand card may be played on, ``[-1]`` for an untargeted spell,
    ``[]`` when it cannot be played now (R-TURN-8, R-TURN-9, R-UNIT-5)."""
    st = eng.state
    side = st.turn
    s = st.sides[side]
    card = eng.db[card_id]
    if card.cost > s.mana or s.name_uses.get(card.name, 0) >= eng.rules.name_uses_per_turn:
        return []
    board = st.board
    if scan is None or scan.side != side:
        scan = Scan(eng, side)
    if card.kind == "spell":
        draw_only, _, _ = _facts(card)
        if draw_only and len(s.hand) >= eng.rules.hand_limit:
            return []
        clause = card.target_clause
        if clause is None:
            return [-1]
        assert clause.chosen is not None
        return scan.chosen_cells(clause.chosen, destroys_chosen(clause))
    empty = scan.empty_half()
    if card.kind == BARRACKS:  # R-BARRACKS-1, R-BARRACKS-6
        own = [u.cell for u in board if u is not None and u.side == side and u.kind == BARRACKS]
        return sorted(empty + own)
    if card.kind in ("minion", "general"):
        return empty[:]
    return []


def summon_actions(eng: Engine, b: Unit, scan: Scan | None = None) -> list[Action]:
    """Soldiers by level, captain offers and 加派 of one barracks (R-BARRACKS-*)."""
    st = eng.state
    s = st.sides[b.side]
    out: list[Action] = []
    board = st.board
    free = [c for c in eng.geo.around[b.cell] if board[c] is None]
    left = eng.summons_left(b)
    cards = eng.cards
    if left > 0 and free:
        mana = s.mana
        cell = b.cell
        for sid in cards[b.card].tiers[: b.level]:
            if cards[sid].cost <= mana:
                row = _row("summon", cell, sid, eng.geo)
                out += [row[c + 1] for c in free]
        pool = eng.captain_pool_ids(b.card)
        if pool:
            for c in b.offer or pool:
                if cards[c].cost <= mana:
                    out.append(act("captain", cell))
                    break
    if left <= 0 and s.mana >= eng.rules.extra_summon_cost and eng.is_loaded(b):
        out.append(act("extra", b.cell))
    return out


def skill_actions(eng: Engine, u: Unit, scan: Scan | None = None) -> list[Action]:
    """R-THRONE-6, R-HERO-2."""
    if u.kind not in (THRONE, "general") or u.acted or u.attacked:
        return []
    st = eng.state
    clause = _facts(eng.db[u.card])[2]
    if clause is None:
        return []
    if u.kind == THRONE and st.sides[u.side].skill_cooldown > 0:
        return []
    mana, hp = eng.skill_cost(u)
    if mana > st.sides[u.side].mana or (hp and u.hp <= hp):
        return []
    if clause.chosen:
        if scan is None or scan.side != u.side:
            scan = Scan(eng, u.side)
        targets = scan.chosen_cells(clause.chosen, destroys_chosen(clause))
        return [act("skill", u.cell, t) for t in targets]
    return [act("skill", u.cell)]


def build_actions(eng: Engine, u: Unit) -> list[Action]:
    """R-GOBLIN-2: an artisan builds on its own cell."""
    if not u.artisan or u.acted:
        return []
    mana = eng.state.sides[u.side].mana
    return [act("build", u.cell, -1, b.id) for b in eng.db.of("building") if b.cost <= mana]


def unit_actions(eng: Engine, u: Unit, scan: Scan | None = None) -> list[Action]:
    """Everything one friendly unit can do now (for the UI's click). ``scan``: what the
    caller already computed for this position and this unit's side."""
    if scan is None or scan.side != u.side:
        scan = Scan(eng, u.side)
    out: list[Action] = []
    if can_move(eng, u):
        moves = scan.moves[u.cell]
        out += [moves[t] for t in _move_cells(eng, u)]
    if can_attack(eng, u):
        attacks = scan.attacks[u.cell]
        out += [attacks[t] for t in _attack_cells(eng, u, scan.taunt_rows)]
    kind = u.kind
    if kind == BARRACKS:
        out += summon_actions(eng, u, scan)
    elif kind == THRONE or kind == "general":  # skill_actions is [] for any other kind
        out += skill_actions(eng, u, scan)
    if u.artisan:  # build_actions is [] otherwise
        out += build_actions(eng, u)
    return out


def _main(eng: Engine) -> list[Action]:
    st = eng.state
    side = st.turn
    s = st.sides[side]
    scan = Scan(eng, side)  # one per listing: positions change between listings
    out: list[Action] = []
    geo = eng.geo
    for card_id in dict.fromkeys(s.hand):
        targets = play_targets(eng, card_id, scan)
        if targets:
            row = _row("play", -1, card_id, geo)
            out += [row[t + 1] for t in targets]
    for u in [u for u in st.board if u is not None and u.side == side]:
        out += unit_actions(eng, u, scan)
    out += turn_actions(eng)
    return out


def turn_actions(eng: Engine) -> list[Action]:
    """The main phase's side-wide actions: shuffle (R-TURN-7), end the turn."""
    s = eng.state.sides[eng.state.turn]
    if s.grave and s.mana >= eng.rules.shuffle_cost(s.shuffles):
        return [act("shuffle"), act("end")]
    return [act("end")]


def _captain_pick(eng: Engine) -> list[Action]:
    st = eng.state
    b = st.board[st.pending]
    assert b is not None
    mana = st.sides[b.side].mana
    free = [c for c in eng.geo.around[b.cell] if st.board[c] is None]
    out = [act("pick", -1, c, cap) for cap in b.offer if eng.db[cap].cost <= mana for c in free]
    out.append(act("cancel"))
    return out


def _replace(eng: Engine) -> list[Action]:
    st = eng.state
    s = st.sides[st.turn]
    out: list[Action] = []
    if s.replaced < eng.rules.opening_max_replace and any(
        eng.db[c].kind == BARRACKS for c in s.deck
    ):
        out = [act("replace", card=c) for c in dict.fromkeys(s.hand) if eng.db[c].kind != BARRACKS]
    out.append(act("keep"))
    return out


def _found(eng: Engine) -> list[Action]:
    st = eng.state
    side = st.turn
    empty = [c for c in eng.geo.half(side) if st.board[c] is None]
    return [act("found", -1, c, b) for b in eng.opening_choices(side) for c in empty]
