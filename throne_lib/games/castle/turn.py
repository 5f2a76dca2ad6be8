"""Turn order and phases (CH-TURN), neutral declarations (CH-ROLE-7), discards."""

from __future__ import annotations

from collections.abc import Callable

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import deal
from throne_lib.games.castle.core import answer, ask, discard_card, draw, log, op, prompt, push
from throne_lib.games.castle.rules import CAMP_ZH
from throne_lib.games.castle.state import Player, Prompt, State
from throne_lib.kit.protocol import DRAW


@op("turn")
def _turn(s: State, seat: int) -> None:
    p = s.players[seat]
    s.turn_seat, s.turn_pos = seat, s.pos[seat]
    s.turn_no += 1
    p.used.clear()
    p.sword_attacks = 0
    p.paid_mana_prev, p.paid_mana = p.paid_mana, []
    log(s, "turn", f"—— 第{s.round}轮 {s.hero_name(seat)} 的回合 ——")
    push_turn(s, seat)


# the steps of a turn in order (CH-TURN-3 to CH-TURN-9), each an op of the seat
TURN_STEPS = (
    "turn_start",
    "draw_phase",
    "play_phase",
    "command_phase",
    "discard_phase",
    "turn_end",
)


def push_turn(s: State, seat: int, first: str = "turn_start") -> None:
    """Schedule ``seat``'s turn from the step ``first`` on, then the next turn."""
    steps = TURN_STEPS[TURN_STEPS.index(first) :]
    push(s, *((step, seat) for step in steps), ("next_turn",))


@op("turn_start")
def _turn_start(s: State, seat: int) -> None:
    """CH-TURN-3: (1) 镜影 ends, (2) a neutral may declare, (3) poison, (4) 怯懦."""
    s.step = "start"
    p = s.players[seat]
    if p.mirror:
        p.mirror = False
        log(s, "mirror_end", f"{s.hero_name(seat)} 的镜影消失")
    step_statuses(p, 1, 2)
    if p.hold == 1:
        p.hold = 2
    push(s, ("declare_ask", seat), ("poison", seat), ("after_action",), ("coward", seat))


def step_statuses(p: Player, old: int, new: int) -> None:
    """The hero's 眩晕/诅咒/定身 and its soldiers' 诅咒 at ``old`` become ``new`` (1 → 2
    at its turn start: in force this turn; 2 → 0 at its end: over, CH-STATUS); a 地精's
    怯懦 lasts one turn (CH-SOLDIER-10)."""
    for attr in ("stun", "curse", "frozen"):
        if getattr(p, attr) == old:
            setattr(p, attr, new)
    for sol in p.soldiers:
        if sol.curse == old:
            sol.curse = new
        sol.coward = False


def may_declare(s: State, seat: int) -> bool:
    """CH-ROLE-7/CH-ROLE-8: a living neutral whose camp isn't fixed may declare."""
    p = s.players[seat]
    return p.alive and p.role == "neutral" and not p.camp_fixed


@op("declare_ask")
def _declare_ask(s: State, seat: int) -> None:
    """CH-TURN-3 (2) / CH-UI-3: every living hero's turn start asks it, not only a
    neutral's, so the others see the same step whoever may declare; a hero that may not
    declare has one answer, to keep its camp (``declare keep``), and may give it at once."""
    if s.players[seat].alive:
        ask(s, "declare", seat)


@prompt("declare", "CH-ROLE-7")
def _declare_legal(s: State, pr: Prompt) -> list[Act]:
    keep = [Act("declare", ("keep",))]
    if not may_declare(s, pr.seat):
        return keep
    cur = s.players[pr.seat].camp
    return [Act("declare", (c or "none",)) for c in ("", "enemy", "castle") if c != cur] + keep


@answer("declare")
def _declare_answer(s: State, pr: Prompt, act: Act) -> None:
    choice = str(act.args[0])
    if choice == "keep":
        return
    p = s.players[pr.seat]
    p.camp = "" if choice == "none" else choice
    if p.camp and not p.declared:
        p.declared = True
        p.revealed = True
        log(s, "reveal", f"{s.hero_name(pr.seat)} 亮明身份：中立")
    log(s, "declare", f"{s.hero_name(pr.seat)} 宣布阵营：{CAMP_ZH[p.camp]}")


@op("poison")
def _poison(s: State, seat: int) -> None:
    """CH-STATUS-4: 1 damage per token at the start of the unit's (commander's) turn."""
    p = s.players[seat]
    for sol in list(p.soldiers):
        if sol.poison:
            n, sol.poison = sol.poison, 0
            log(s, "poison", f"{s.name(sol.ref)} 毒性发作")
            deal(s, sol.ref, n, sol.poison_src, "other")
    if p.poison:
        n, p.poison = p.poison, 0
        log(s, "poison", f"{s.hero_name(seat)} 毒性发作")
        deal(s, p.ref, n, p.poison_src, "other")


@op("coward")
def _coward(s: State, seat: int) -> None:
    """CH-SOLDIER-10: each 地精 rolls; with 50% it can't attack this turn (public)."""
    for sol in s.players[seat].soldiers:
        c = s.cards[sol.card]
        if c.has("cowardly"):
            r = s.rng.random()
            sol.coward = r < c.num("cowardly")
            log(
                s,
                "roll",
                f"{s.name(sol.ref)} 怯懦判定{r:.2f}：{'畏战' if sol.coward else '可以攻击'}",
            )


@op("draw_phase")
def draw_phase(s: State, seat: int, extra: int = 0) -> None:
    """CH-TURN-4: ``draw_per_turn`` cards, ``extra`` more (城池战's 洛阳, CW-CITY-8)."""
    s.step = "draw"
    if s.players[seat].alive:
        draw(s, seat, s.rules.draw_per_turn + extra)


@op("play_phase")
def _play_phase(s: State, seat: int) -> None:
    p = s.players[seat]
    if not p.alive:
        return
    if s.step != "play":
        s.step = "play"
        why = ""
        if p.frozen:
            why = "被定身"
        elif p.stun == 2:
            why = "眩晕"
        elif p.curse == 2 and "play" in s.rules.curse_skips:
            why = "被诅咒"
        if why:
            log(s, "skip", f"{s.hero_name(seat)} {why}，跳过出牌阶段")
            return
    ask(s, "play", seat)


@op("command_phase")
def command_phase(
    s: State, seat: int, may_command: Callable[[State, int], bool] | None = None
) -> None:
    """CH-COMMAND-1: the phase is asked when ``may_command`` (by default: a group has a
    target for one of the seat's soldiers; 城池战 adds cities, CW-SIEGE-5)."""
    s.step = "command"
    s.command_group = -1
    s.frenzy_uid = -1
    p = s.players[seat]
    for sol in p.soldiers:
        sol.attacks = 0
    if not p.alive or p.dying or p.frozen:
        return
    if p.curse == 2 and "command" in s.rules.curse_skips:
        log(s, "skip", f"{s.hero_name(seat)} 被诅咒，跳过指挥阶段")
        return
    if (may_command or _has_groups)(s, seat):
        ask(s, "command_pick", seat)


def _has_groups(s: State, seat: int) -> bool:
    from throne_lib.games.castle.command import command_groups

    return bool(command_groups(s, seat))


def hand_load(s: State, seat: int) -> int:
    """Cards that count toward the hand limit (CH-TURN-8; 迪什's 魔 don't, CH-HERO-4)."""
    p = s.players[seat]
    n = len(p.hand)
    if s.has(seat, "mana_pool"):
        n -= p.hand.count("mana") + p.hand.count("conjured_mana")
    return n


@op("discard_phase")
def discard_phase(s: State, seat: int, bonus: int = 0) -> None:
    """CH-TURN-8: the hand limit is the HP, ``bonus`` more (城池战's 邺城, CW-CITY-8)."""
    s.step = "discard"
    p = s.players[seat]
    limit = max(p.hp, 0) + bonus
    over = hand_load(s, seat) - limit
    # CH-UI-3: 迪什's 魔 don't count (CH-HERO-4) but are hidden, so the step is asked
    # whenever the hand (its size is public) exceeds the limit; with nothing over, he passes.
    if p.alive and (over > 0 or len(p.hand) > limit):
        ask(s, "discard", seat, "limit", max(over, 0), limit)


@prompt("discard", "CH-TURN-8")
def _discard_legal(s: State, pr: Prompt) -> list[Act]:
    if pr.data[1] <= 0:
        return [Act("no")]  # nothing over the limit (迪什's 魔 don't count)
    hand = s.players[pr.seat].hand
    cards = set(hand)
    if pr.data[0] == "limit" and s.has(pr.seat, "mana_pool"):
        cards -= {"mana", "conjured_mana"}
    return [Act("discard", (c,)) for c in sorted(cards)]


@answer("discard")
def _discard_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "no":
        return
    cid = str(act.args[0])
    discard_card(s, pr.seat, cid)
    log(s, "discard", f"{s.hero_name(pr.seat)} 弃置 {s.cards[cid].name}")
    left = int(pr.data[1]) - 1
    hand = s.players[pr.seat].hand
    if left > 0 and hand:
        ask(s, "discard", pr.seat, pr.data[0], left, *pr.data[2:])
    elif pr.data[0] == "limit" and len(pr.data) > 2 and len(hand) > int(pr.data[2]):
        # CH-UI-3: a hand still over the limit by its size (迪什's 魔) is asked once more,
        # so the others can't count his 魔 by when the step ends
        ask(s, "discard", pr.seat, "limit", 0, pr.data[2])


@op("turn_end")
def _turn_end(s: State, seat: int) -> None:
    """CH-TURN-9: rescue window, deaths, game-end check, then effects of this turn end."""
    s.step = "end"
    ops: list[tuple[object, ...]] = []
    if "turn_end" in s.rules.rescue_windows:
        ops.append(("rescue_window", "turn_end"))
    push(s, *ops, ("deaths",), ("win_check",), ("cleanup", seat))


@op("cleanup")
def _cleanup(s: State, seat: int) -> None:
    p = s.players[seat]
    for q in s.players:
        q.banner = False
    p.aim = p.swift = False
    step_statuses(p, 2, 0)


@op("next_turn")
def _next_turn(s: State) -> None:
    """CH-TURN-1: the next living hero clockwise after the seat the turn began at
    (``turn_passing="by_seat"``), or after the hero whose turn it was in the seating order
    of the start (``"by_hero"``, the rulebook's: a 跳跃 swaps seats, never turns)."""
    living = set(s.living())
    if not living:
        return
    if s.rules.max_rounds is not None and s.turn_no > s.rules.max_rounds * s.n:
        # CH-TURN-11 as a count of turns too: position swaps (跳跃) can keep the 城主 from
        # ever starting a turn, and a round only advances at the 城主's turn.
        from throne_lib.games.castle.death import end_game

        end_game(s, [0.0] * s.n, "CH-TURN-11", "回合数已满，平局", DRAW)
        return
    for k in range(1, s.n + 1):
        if s.rules.turn_passing == "by_hero":  # the seating order of the start
            start = s.start_pos or tuple(s.pos)
            seat = start.index((start[s.turn_seat] + k) % s.n)
        else:
            seat = s.pos.index((s.turn_pos + k) % s.n)
        if seat in living:
            break
    if s.players[seat].role == "lord":
        s.round += 1
        if s.rules.max_rounds is not None and s.round > s.rules.max_rounds:
            from throne_lib.games.castle.death import end_game

            end_game(s, [0.0] * s.n, "CH-TURN-11", "回合数已满，平局", DRAW)
            return
    push(s, ("turn", seat))
