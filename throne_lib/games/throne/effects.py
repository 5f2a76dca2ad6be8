"""The effect registry: every effect the card table may name, written once.

Each entry declares its parameter types (checked when the table loads, see
:mod:`throne_lib.games.throne.lang`) and implements itself against the engine's
primitives. ``docs/effects.md`` is generated from this registry.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from throne_lib.games.throne.lang import Clause, ParamType
from throne_lib.games.throne.state import BARRACKS, THRONE, Unit

if TYPE_CHECKING:
    from throne_lib.games.throne.engine import Engine


@dataclass(slots=True)
class Ctx:
    """Where an effect comes from and what it aims at."""

    side: int
    card: str  # the card whose text this is
    source: Unit | None  # the unit carrying the effect (None for a spell)
    anchor: int  # the cell 'adjacent'/'row' selectors are measured from
    target: int = -1  # the chosen cell, if the clause asked for one


Impl = Callable[..., None]
SPECS: dict[str, tuple[ParamType, ...]] = {}
DEFAULTS: dict[str, tuple[int | str, ...]] = {}
IMPLS: dict[str, Impl] = {}
DOCS: dict[str, str] = {}


def effect(
    name: str, *params: ParamType, defaults: tuple[int | str, ...] = (), doc: str
) -> Callable[[Impl], Impl]:
    """Register an effect: its parameters, their defaults and the one-line meaning
    docs/effects.md gives it (an argument, not the docstring: a function compiled by mypyc
    has none, docs/speed.md)."""

    def register(fn: Impl) -> Impl:
        SPECS[name] = params
        DEFAULTS[name] = defaults
        IMPLS[name] = fn
        DOCS[name] = doc
        return fn

    return register


# --- selectors -------------------------------------------------------------


def is_structure(eng: Engine, u: Unit) -> bool:
    """Thrones (until they march, R-THRONE-5) and barracks are structures."""
    return u.kind == BARRACKS or (u.kind == THRONE and not eng.state.marched)


def chosen_cells(eng: Engine, side: int, selector: str, destroys: bool = False) -> list[int]:
    """Legal targets of a clause that asks for one (spells ignore taunt, R-COMBAT-5).
    A clause that ``destroys`` its target never aims at a destroy-immune unit (R-THRONE-5)."""
    board = eng.state.board
    if selector in ("cell", "any_cell"):
        cells = eng.geo.half(side) if selector == "cell" else range(len(board))
        return [c for c in cells if board[c] is None]
    out = []
    for u in board:
        if u is None or not _who_matches(eng, side, selector, u):
            continue
        if destroys and eng.destroy_immune(u):
            continue
        out.append(u.cell)
    return out


def destroys_chosen(clause: Clause) -> bool:
    """Whether a clause destroys the target it asks for: as its effect or as its cost
    (献祭, 尸爆, 废料回收 destroy an ally first, R-THRONE-5)."""
    chosen = clause.chosen
    return chosen is not None and any(
        call.name == "destroy" and call.args[0] in (chosen, "target") for call in clause.calls
    )


def _who_matches(eng: Engine, side: int, selector: str, u: Unit) -> bool:
    ally = u.side == side
    if selector == "enemy":
        return not ally
    if selector == "ally":
        return ally
    if selector == "enemy_unit":
        return not ally and not is_structure(eng, u)
    if selector == "ally_unit":
        return ally and not is_structure(eng, u)
    if selector == "unit":
        return not is_structure(eng, u)
    if selector == "ally_barracks":
        return ally and u.kind == BARRACKS
    if selector == "enemy_barracks":
        return not ally and u.kind == BARRACKS
    raise ValueError(f"not a chosen selector: {selector}")


def resolve_who(eng: Engine, ctx: Ctx, selector: str) -> list[Unit]:
    board = eng.state.board
    side = ctx.side
    if selector == "self":
        return [ctx.source] if ctx.source is not None and ctx.source.hp > 0 else []
    if selector in (
        "target",
        "enemy",
        "enemy_unit",
        "ally",
        "ally_unit",
        "unit",
        "ally_barracks",
        "enemy_barracks",
    ):
        u = board[ctx.target] if ctx.target >= 0 else None
        return [u] if u is not None else []
    if selector == "enemy_throne" or selector == "own_throne":
        t = eng.state.throne(1 - side if selector == "enemy_throne" else side)
        return [t] if t is not None else []
    if selector.startswith("adjacent_"):
        around = [board[c] for c in eng.geo.around[ctx.anchor]]
        units = [u for u in around if u is not None]
        if selector == "adjacent_allies":
            return [u for u in units if u.side == side and u.kind != BARRACKS]
        if selector == "adjacent_enemies":
            return [u for u in units if u.side != side and u.kind != BARRACKS]
        if selector == "adjacent_barracks":
            return [u for u in units if u.side == side and u.kind == BARRACKS]
        if selector == "adjacent_loadable":  # what Load reaches (R-BARRACKS-10, R-GOBLIN-3)
            return [u for u in units if u.side == side and u.kind in (BARRACKS, "building")]
        return units
    if selector in ("all_allies", "all_enemies"):
        want = side if selector == "all_allies" else 1 - side
        return [u for u in board if u is not None and u.side == want and not is_structure(eng, u)]
    if selector == "row_enemies":
        row = eng.geo.row(ctx.anchor)
        return [
            u
            for c in eng.geo.row_cells(row)
            if (u := board[c]) is not None and u.side != side and u.kind != BARRACKS
        ]
    if selector == "random_enemy":
        pool = [u for u in board if u is not None and u.side != side and not is_structure(eng, u)]
        return [eng.state.rng.choice(pool)] if pool else []
    raise ValueError(f"unknown selector {selector}")


def resolve_place(eng: Engine, ctx: Ctx, selector: str) -> int | None:
    board = eng.state.board
    if selector in ("target", "cell", "any_cell"):
        return ctx.target if ctx.target >= 0 and board[ctx.target] is None else None
    if selector == "adjacent":
        free = [c for c in eng.geo.around[ctx.anchor] if board[c] is None]
    elif selector == "own_half":
        free = [c for c in eng.geo.half(ctx.side) if board[c] is None]
    else:
        raise ValueError(f"unknown place {selector}")
    return eng.state.rng.choice(free) if free else None


# --- effects ---------------------------------------------------------------


@effect("damage", "int", "who", doc="Deal N damage to the targets (no siege bonus, R-SIEGE-3).")
def _damage(eng: Engine, ctx: Ctx, amount: int, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.damage(u, amount, ctx.card, ctx.side)
    eng.cleanup()


@effect("heal", "int", "who", doc="Heal N, never above max HP (R-COMBAT-6).")
def _heal(eng: Engine, ctx: Ctx, amount: int, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.heal(u, amount, ctx.card)


@effect("buff", "int", "int", "who", doc="+A attack and +H HP and max HP.")
def _buff(eng: Engine, ctx: Ctx, attack: int, hp: int, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.buff(u, attack, hp, ctx.card)
    eng.cleanup()


@effect("max_hp", "int", "who", doc="Raise max HP (and HP) by N (R-COMBAT-6, R-THRONE-3).")
def _max_hp(eng: Engine, ctx: Ctx, amount: int, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.buff(u, 0, amount, ctx.card)


@effect(
    "armor", "int", "who", doc="Give N armor; armor is a pool and stacks without cap (R-COMBAT-4)."
)
def _armor(eng: Engine, ctx: Ctx, amount: int, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.give_armor(u, amount, ctx.card)


@effect(
    "shield", "who", doc="Give divine shield: it absorbs one whole damage instance (R-COMBAT-3)."
)
def _shield(eng: Engine, ctx: Ctx, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.give_shield(u, ctx.card)


@effect("draw", "int", doc="Draw N cards; never reshuffles (R-TURN-6).")
def _draw(eng: Engine, ctx: Ctx, n: int) -> None:
    eng.draw(ctx.side, n, reshuffle=False)


@effect("mana", "int", doc="Gain (or refund) N mana this turn.")
def _mana(eng: Engine, ctx: Ctx, n: int) -> None:
    eng.gain_mana(ctx.side, n, ctx.card)


@effect(
    "summon",
    "card",
    "place",
    "int",
    defaults=(1,),
    doc="Summon N copies of a token/soldier/captain/minion onto empty cells.",
)
def _summon(eng: Engine, ctx: Ctx, card: str, place: str, n: int) -> None:
    for _ in range(n):
        cell = resolve_place(eng, ctx, place)
        if cell is None:
            return
        eng.summon(card, ctx.side, cell, from_deck=False)


@effect(
    "destroy",
    "who",
    doc="Destroy the targets outright; thrones are immune, never a chosen target (R-THRONE-5).",
)
def _destroy(eng: Engine, ctx: Ctx, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.destroy(u, ctx.card)
    eng.cleanup()


@effect(
    "bounce",
    "who",
    doc="Return the targets to their owner's hand (tokens vanish; not thrones or barracks).",
)
def _bounce(eng: Engine, ctx: Ctx, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        eng.bounce(u, ctx.card)


def _shift(forward: bool) -> Impl:
    """``advance`` / ``retreat``: one engine move, towards the enemy's side or back."""

    def shift(eng: Engine, ctx: Ctx, n: int, who: str) -> None:
        for u in resolve_who(eng, ctx, who):
            eng.shift(u, n, forward=forward, card=ctx.card)

    return shift


def _load(reset: bool) -> Impl:
    """``load`` / ``reload``: one engine load, resetting this turn's summon count or not."""

    def load(eng: Engine, ctx: Ctx, who: str) -> None:
        for u in resolve_who(eng, ctx, who):
            eng.load(u, reset=reset, card=ctx.card)

    return load


effect(
    "advance", "int", "who", doc="Move the targets up to N free cells towards the enemy's side."
)(_shift(True))
effect(
    "retreat", "int", "who", doc="Push the targets up to N free cells back towards their own side."
)(_shift(False))
effect(
    "load",
    "who",
    doc="Load: barracks may buy 加派 (R-BARRACKS-10), buildings gain a use this turn (R-GOBLIN-3).",
)(_load(False))
effect("reload", "who", doc="Load and reset this turn's summon count (修理工, R-BARRACKS-10).")(
    _load(True)
)


@effect(
    "captain", "place", doc="Generate a random captain of your race (cost by round, R-BARRACKS-9)."
)
def _captain(eng: Engine, ctx: Ctx, place: str) -> None:
    pool = eng.captain_pool_for_race(eng.state.sides[ctx.side].race)
    cell = resolve_place(eng, ctx, place)
    if pool and cell is not None:
        eng.summon(eng.state.rng.choice(pool), ctx.side, cell, from_deck=False)


@effect("raise_dead", "place", doc="Return a random minion card from your graveyard to the board.")
def _raise_dead(eng: Engine, ctx: Ctx, place: str) -> None:
    side = eng.state.sides[ctx.side]
    minions = [c for c in side.grave if eng.db[c].kind == "minion"]
    cell = resolve_place(eng, ctx, place)
    if minions and cell is not None:
        card = eng.state.rng.choice(minions)
        side.grave.remove(card)
        eng.summon(card, ctx.side, cell, from_deck=True)


@effect(
    "overload", "who", doc="Raise a building's level: +1 attack, +2 HP and max HP (R-GOBLIN-3)."
)
def _overload(eng: Engine, ctx: Ctx, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        if u.kind == "building":
            u.level += 1
            eng.buff(u, 1, 2, ctx.card)


@effect("give_taunt", "who", doc="Give taunt (嘲讽, R-COMBAT-5) to the targets.")
def _give_taunt(eng: Engine, ctx: Ctx, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        u.taunt = True
        eng.emit_on("grant", u, ctx.card, note="taunt")


@effect(
    "give_reborn", "who", doc="Give reborn (复生): the target returns once with 1 HP when it dies."
)
def _give_reborn(eng: Engine, ctx: Ctx, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        if u.kind not in (THRONE, BARRACKS):
            u.reborn = True
            eng.emit_on("grant", u, ctx.card, note="reborn")


@effect(
    "give_regen",
    "int",
    "who",
    doc="Give regeneration N (再生): the target heals itself N at its side's turn start.",
)
def _give_regen(eng: Engine, ctx: Ctx, amount: int, who: str) -> None:
    for u in resolve_who(eng, ctx, who):
        u.regen += amount
        eng.emit_on("grant", u, ctx.card, amount, "regen")


@effect(
    "exhume",
    "int",
    doc="Return N random minion cards from your graveyard to your hand (hand limit applies).",
)
def _exhume(eng: Engine, ctx: Ctx, n: int) -> None:
    side = eng.state.sides[ctx.side]
    for _ in range(n):
        minions = [c for c in side.grave if eng.db[c].kind == "minion"]
        if not minions or len(side.hand) >= eng.rules.hand_limit:
            return
        card = eng.state.rng.choice(minions)
        side.grave.remove(card)
        side.hand.append(card)
        eng.emit("exhume", ctx.side, actor=ctx.card, target=card)


def run_clause(eng: Engine, ctx: Ctx, calls: Any) -> None:
    """Run a clause's calls in order, stopping if the match ended."""
    for call in calls:
        if eng.state.winner is not None or eng.state.end_reason:
            return
        IMPLS[call.name](eng, ctx, *call.args)
