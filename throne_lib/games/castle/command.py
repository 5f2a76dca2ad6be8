"""The command phase (CH-COMMAND): name one group, then order soldiers one by one."""

from __future__ import annotations

from collections.abc import Callable

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import (
    Atk,
    can_attack_now,
    soldier_profile,
    soldier_targets,
)
from throne_lib.games.castle.core import answer, ask, log, op, prompt, push
from throne_lib.games.castle.state import Prompt, Soldier, State


def command_groups(s: State, seat: int) -> list[int]:
    """CH-COMMAND-1: other groups in which one of my able soldiers has a legal target."""
    p = s.players[seat]
    able = [x for x in p.soldiers if can_attack_now(s, x)]
    return [q for q in s.clockwise_from(seat) if any(soldier_targets(s, seat, x, q) for x in able)]


def orders(s: State, seat: int) -> list[Act]:
    p = s.players[seat]
    g = s.command_group
    acts: list[Act] = []
    for sol in p.soldiers:
        if s.frenzy_uid >= 0 and sol.uid != s.frenzy_uid:
            continue
        if not can_attack_now(s, sol):
            continue
        targets = soldier_targets(s, seat, sol, g)
        if not targets:
            continue
        if s.cards[sol.card].has("berserk"):  # CH-SOLDIER-11: its target is drawn
            acts.append(Act("order", (sol.ref, "random")))
        else:
            acts.extend(Act("order", (sol.ref, t)) for t in targets)
    return acts


@prompt("command_pick", "CH-COMMAND-1")
def _pick_legal(s: State, pr: Prompt) -> list[Act]:
    return [Act("command", (f"h{q}",)) for q in command_groups(s, pr.seat)] + [Act("skip_command")]


@answer("command_pick")
def _pick_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "skip_command":
        log(s, "command", f"{s.hero_name(pr.seat)} 不指挥士兵")
        return
    s.command_group = int(str(act.args[0])[1:])
    log(s, "command", f"{s.hero_name(pr.seat)} 指挥士兵进攻 {s.hero_name(s.command_group)} 一组")
    push(s, ("command_next", pr.seat))


@op("command_next")
def _command_next(s: State, seat: int) -> None:
    g = s.players[s.command_group]
    p = s.players[seat]
    if not p.alive or p.dying:
        return
    if s.rules.command_ends_on_fall and (not g.alive or g.hp <= 0):  # CH-COMMAND-4
        log(s, "command_end", f"{s.hero_name(g.seat)} 倒下，剩余士兵视为攻击完毕")
        return
    if s.frenzy_uid >= 0:
        sol = s.unit(f"s{s.frenzy_uid}")
        if not isinstance(sol, Soldier) or not soldier_targets(s, seat, sol, s.command_group):
            s.frenzy_uid = -1
    if orders(s, seat):
        ask(s, "order", seat)


@prompt("order", "CH-COMMAND-2")
def _order_legal(s: State, pr: Prompt) -> list[Act]:
    extra = [Act("next_soldier")] if s.frenzy_uid >= 0 else []
    return orders(s, pr.seat) + extra + [Act("end_command")]


def soldier_atk(s: State, seat: int, sol: Soldier, target: str) -> Atk:
    kind, dmg, _, no_save = soldier_profile(s, sol, target)
    return Atk(sol.ref, target, seat, kind, dmg, False, no_save=no_save, tgroup=s.commander(target))


@answer("order")
def _order_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "end_command":
        s.frenzy_uid = -1
        return
    if act.kind == "next_soldier":  # the 十字军剑士 forgoes its second attack
        s.frenzy_uid = -1
        push(s, ("command_next", pr.seat))
        return
    order_soldier(s, pr.seat, str(act.args[0]), str(act.args[1]))


def _group_targets(s: State, seat: int, sol: Soldier) -> list[str]:
    return soldier_targets(s, seat, sol, s.command_group)


def order_soldier(
    s: State,
    seat: int,
    ref: str,
    target: str,
    targets: Callable[[State, int, Soldier], list[str]] = _group_targets,
    attack: Callable[[State, int, Soldier, str], Atk] = soldier_atk,
    name: Callable[[State, str], str] = State.name,
) -> None:
    """CH-COMMAND-2: the soldier ``ref`` attacks ``target`` (``random``: one of
    ``targets``, CH-SOLDIER-11) with the attack ``attack`` makes; 城池战 adds cities."""
    sol = s.unit(ref)
    assert isinstance(sol, Soldier)
    if target == "random":
        options = targets(s, seat, sol)
        target = options[s.rng.randrange(len(options))]
        log(s, "berserk", f"{s.name(ref)} 狂暴，随机攻击 {name(s, target)}")
    sol.attacks += 1
    c = s.cards[sol.card]
    limit = int(c.num("frenzy", 1))
    s.frenzy_uid = sol.uid if sol.attacks < limit else -1  # CH-SOLDIER-9: in a row
    ops: list[tuple[object, ...]] = [("atk", attack(s, seat, sol, target))]
    if c.has("rally"):
        ops.append(("rally", seat, target))
    push(s, *ops, ("after_action",), ("command_next", seat))


@op("rally")
def _rally(s: State, seat: int, target: str) -> None:
    """CH-SOLDIER-14: after the 军士长's attack, each 服从 soldier of its group that hasn't
    attacked, isn't cursed and has that target in range attacks it, in deployment order."""
    p = s.players[seat]
    ops: list[tuple[object, ...]] = []
    for sol in p.soldiers:
        if s.cards[sol.card].has("obedient") and sol.attacks == 0 and sol.curse != 2:
            ops.append(("rally_one", seat, sol.uid, target))
    if ops:
        log(s, "rally", f"{s.hero_name(seat)}的军士长 发动 号令")
    push(s, *ops)


@op("rally_one")
def _rally_one(s: State, seat: int, uid: int, target: str) -> None:
    sol = s.unit(f"s{uid}")
    if not isinstance(sol, Soldier) or s.unit(target) is None:
        return
    if target not in soldier_targets(s, seat, sol, s.command_group):
        return
    sol.attacks += 1
    push(s, ("atk", soldier_atk(s, seat, sol, target)))
