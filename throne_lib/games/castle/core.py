"""The rules machine's shared helpers: op and prompt registries, log, draw, pay, heal.

Rules resolve as a stack of ops (small tuples ``(name, *args)``) popped by
:func:`run`; an op that needs a seat's decision sets ``state.prompt`` and stops the
loop. Modules register ops with :func:`op` and prompts with :func:`prompt`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.events import Event
from throne_lib.games.castle.state import Player, Prompt, State

OpFn = Callable[..., None]
LegalFn = Callable[[State, Prompt], list[Act]]
AnswerFn = Callable[[State, Prompt, Act], None]

OPS: dict[str, OpFn] = {}
PROMPTS: dict[str, tuple[LegalFn, AnswerFn, str]] = {}
MANA = ("conjured_mana", "mana")  # conjured 魔 first when paying


def op(name: str) -> Callable[[OpFn], OpFn]:
    def deco(fn: OpFn) -> OpFn:
        OPS[name] = fn
        return fn

    return deco


def prompt(kind: str, rule: str) -> Callable[[LegalFn], LegalFn]:
    """Register the legal actions of a prompt kind; the answer is set by :func:`answer`."""

    def deco(fn: LegalFn) -> LegalFn:
        PROMPTS[kind] = (fn, PROMPTS.get(kind, (fn, _no_answer, rule))[1], rule)
        return fn

    return deco


def answer(kind: str) -> Callable[[AnswerFn], AnswerFn]:
    def deco(fn: AnswerFn) -> AnswerFn:
        legal, _, rule = PROMPTS[kind]
        PROMPTS[kind] = (legal, fn, rule)
        return fn

    return deco


def yes_no(can: bool = True) -> list[Act]:
    """The answers of a yes/no prompt: "yes" only when the seat ``can`` (it holds what
    the yes costs), "no" always."""
    return ([Act("yes")] if can else []) + [Act("no")]


def yes_no_prompt(kind: str, rule: str) -> None:
    """Register a prompt always answered yes or no; its answer is set by :func:`answer`."""
    prompt(kind, rule)(lambda s, pr: yes_no())


def ward_prompt(kind: str, rule: str, warded: str, take: Callable[[State, Prompt], object]) -> None:
    """Register a prompt that a 魔 in hand wards off: the seat discards one (a conjured
    魔 offered first) and the log says ``warded`` after its hero's name, or it takes
    the effect (``take``). It is asked whether or not the seat holds a 魔 (CH-UI-3)."""

    def legal(s: State, pr: Prompt) -> list[Act]:
        hand = s.players[pr.seat].hand
        return [Act("discard", (c,)) for c in MANA if c in hand] + [Act("take")]

    def resolve(s: State, pr: Prompt, act: Act) -> None:
        if act.kind == "discard":
            discard_card(s, pr.seat, str(act.args[0]))
            log(s, kind, f"{s.hero_name(pr.seat)} {warded}")
        else:
            take(s, pr)

    prompt(kind, rule)(legal)
    answer(kind)(resolve)


def _no_answer(s: State, p: Prompt, a: Act) -> None:
    raise RuntimeError(f"prompt {p.kind} has no answer handler")


def push(s: State, *ops: tuple[Any, ...]) -> None:
    """Schedule ops so that the first given runs first."""
    s.stack.extend(reversed(ops))


def ask(s: State, kind: str, seat: int, *data: Any) -> None:
    s.prompt = Prompt(kind, seat, tuple(data))


def run(s: State) -> None:
    if s.mode is not None:  # a mode replaces some ops by name (城池战)
        own = s.mode.ops
        while s.prompt is None and s.stack and s.stage != "over":
            item = s.stack.pop()
            (own.get(item[0]) or OPS[item[0]])(s, *item[1:])
        return
    while s.prompt is None and s.stack and s.stage != "over":
        item = s.stack.pop()
        OPS[item[0]](s, *item[1:])


def log(s: State, kind: str, text: str, private_to: int = -1, private_text: str = "") -> None:
    s.log.append(Event(kind, text, private_to, private_text))


def cname(s: State, cid: str) -> str:
    return s.cards[cid].name


def names(s: State, cids: list[str] | tuple[str, ...]) -> str:
    return "、".join(cname(s, c) for c in cids) if cids else "无"


def draw(s: State, seat: int, n: int, why: str = "") -> list[str]:
    """CH-DECK-7: an empty deck takes the shuffled discard pile; with both empty the
    remaining draws are lost. Public: the count; private: the cards. A mode (城池战)
    draws its way: its own piles or the shared one, with its reset for the reshuffle."""
    if s.mode is not None:
        got: list[str] = s.mode.draw(s, seat, n, why)
        return got
    p = s.players[seat]
    got = []
    for _ in range(n):
        if not s.deck and s.rules.reshuffle_discard and s.discard:
            s.deck = s.discard
            s.discard = []
            s.rng.shuffle(s.deck)
            log(s, "reshuffle", f"弃牌堆洗入牌组（{len(s.deck)}张）")
        if not s.deck:
            break
        got.append(s.deck.pop())
    p.hand.extend(got)
    head = f"{s.hero_name(seat)} {why}摸了{len(got)}张牌"
    log(s, "draw", head, seat, f"{head}：{names(s, got)}")
    return got


def discard_pile(s: State, seat: int) -> list[str]:
    """Where ``seat``'s cards go: the shared discard pile, or its own (城池战)."""
    return s.discards[seat] if s.discards is not None else s.discard


def discard_card(s: State, seat: int, cid: str) -> None:
    """A card leaves the hand face up; a conjured 魔 leaves the game (CH-PREP-5)."""
    s.players[seat].hand.remove(cid)
    if cid != "conjured_mana":
        discard_pile(s, seat).append(cid)


def mana_count(p: Player) -> int:
    return p.hand.count("mana") + p.hand.count("conjured_mana")


def pay_mana(s: State, seat: int, k: int) -> None:
    """CH-CARD-1: pay k 魔 (conjured ones first); recorded for 魔力回朔 on own turns."""
    p = s.players[seat]
    for _ in range(k):
        cid = "conjured_mana" if "conjured_mana" in p.hand else "mana"
        discard_card(s, seat, cid)
        if seat == s.turn_seat:
            p.paid_mana.append(cid)


def pay_swords(s: State, seat: int, k: int) -> None:
    for _ in range(k):
        discard_card(s, seat, "sword")


def able(s: State, seat: int) -> bool:
    """Can this hero play cards, block or use skills now (CH-DEATH-1, CH-STATUS-1/3)?"""
    p = s.players[seat]
    if not p.alive or p.frozen:
        return False
    if p.dying and not s.rules.dying_can_act:
        return False
    return not (p.stun == 2 and not s.rules.block_while_disabled)


def heal_hero(s: State, seat: int, n: int) -> int:
    """Restore up to n HP (never above max); a dying hero at ≥1 is back up (CH-DEATH-1);
    a holding 弗莱希尔 back at max HP stops holding (CH-HERO-12)."""
    p = s.players[seat]
    before = p.hp
    p.hp = min(p.max_hp, p.hp + n)
    gained = p.hp - before
    if p.dying and p.hp >= 1:
        p.dying = False
        log(s, "revive", f"{s.hero_name(seat)} 生命恢复到{p.hp}，重新复归")
    if p.hold and p.hp >= p.max_hp:
        p.hold = 0
        log(s, "hold_end", f"{s.hero_name(seat)} 伤害全部治愈，抗拒死亡结束")
    return gained


def eff_camp(p: Player) -> str:
    """CH-ROLE-6: castle / enemy / '' (undeclared neutral)."""
    if p.role in ("lord", "reinforcement"):
        return "castle"
    if p.role == "enemy":
        return "enemy"
    return p.camp


def group_refs(s: State, seat: int) -> list[str]:
    p = s.players[seat]
    return [p.ref] + [x.ref for x in p.soldiers]
