"""Breaking and capturing cities (CW-CAPTURE): damage to cities in one event, the order
of several captures, the capture effects and their choices (长安, 南皮's 部署, 合肥)."""

from __future__ import annotations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.combat import deal
from throne_lib.games.castle.core import AnswerFn, LegalFn, ask, discard_pile, log, push
from throne_lib.games.castle.state import Prompt, State
from throne_lib.games.cities.effects import resolve_capture
from throne_lib.games.cities.mode import (
    CITY,
    cw_op,
    cw_prompt,
    deploy,
    sweep_fallen,
    sync,
    war_of,
)


def hit(s: State, breaker: int, city: str, amount: int) -> bool:
    """``amount`` to ``city`` by ``breaker`` (CW-CAPTURE-1); a break starts the capture:
    the city leaves at once, its effect resolves (prompts), then the breaker occupies it."""
    return bool(strike_cities(s, breaker, ((city, amount),)))


@cw_op("cw_hits")
def _hits(s: State, breaker: int, hits: tuple[tuple[str, int], ...]) -> None:
    strike_cities(s, breaker, hits)


def strike_cities(s: State, breaker: int, hits: tuple[tuple[str, int], ...]) -> list[str]:
    """One event dealing damage to one or more cities (CW-CAPTURE-1). The broken cities
    leave their places at once (CW-CAPTURE-4 (1)); more than one to capture and the
    breaker orders them (CW-CAPTURE-6, the ``cw_order`` prompt) before their capture
    effects resolve and they go on top in that order. Returns the cities broken."""
    w = war_of(s)
    broken: list[str] = []
    for city, amount in hits:
        if city not in w.attack_targets(breaker):
            log(s, "void", f"{w.table[city].name} 已不是可攻击的城池")
            continue
        if w.strike(breaker, city, amount):
            broken.append(city)
    if broken:
        pending = w.begin_capture(breaker, broken)
        if len(pending) > 1:  # the closing cw_occupy is a no-op once all are placed; it
            # places them 失守 if the breaker goes out (认输) while ordering (CW-CITY-2)
            push(s, ("cw_order_ask", breaker, tuple(pending.items()), ()),
                 ("cw_occupy", breaker, tuple(pending)))  # fmt: skip
        else:
            _push_captures(s, breaker, list(pending.items()))
    sync(s)
    return broken


def _push_captures(s: State, breaker: int, ordered: list[tuple[str, int | None]]) -> None:
    """CW-CAPTURE-4 (2)/(3), CW-CAPTURE-6: effects in order, then on top in that order."""
    push(
        s,
        *[("cw_capture_fx", breaker, c, prev) for c, prev in ordered],
        ("cw_occupy", breaker, tuple(c for c, _ in ordered)),
    )


@cw_op("cw_order_ask")
def _order_ask(
    s: State,
    breaker: int,
    left: tuple[tuple[str, int | None], ...],
    chosen: tuple[tuple[str, int | None], ...],
) -> None:
    """CW-CAPTURE-6: the breaker names the next city (its effect resolves next, and it
    goes on the stack before the ones named after it); the last one left ends current."""
    if len(left) <= 1 or war_of(s).out[breaker]:
        _push_captures(s, breaker, [*chosen, *left])
        return
    ask(s, "cw_order", breaker, left, chosen)


def _cw_order_legal(s: State, pr: Prompt) -> list[Act]:
    left = pr.data[0]
    return [Act("capture_order", (CITY + c,)) for c, _ in left]


def _cw_order_answer(s: State, pr: Prompt, act: Act) -> None:
    left, chosen = pr.data
    city = str(act.args[0]).removeprefix(CITY)
    pick = next(x for x in left if x[0] == city)
    log(s, "city", f"{s.hero_name(pr.seat)} 先结算 {war_of(s).table[city].name} 的破城效果")
    rest = tuple(x for x in left if x[0] != city)
    push(s, ("cw_order_ask", pr.seat, rest, (*chosen, pick)))


cw_prompt("cw_order", "CW-CAPTURE-6", _cw_order_legal, _cw_order_answer)


@cw_op("cw_capture_fx")
def _capture_fx(s: State, breaker: int, city: str, prev: int | None) -> None:
    """CW-CAPTURE-4 (2): the capture effect, for the breaker, while the city is nobody's."""
    w = war_of(s)
    if w.out[breaker]:
        return

    def choose(effect: str, n: int) -> None:
        push(s, ("cw_choice", effect, breaker, n, city))

    resolve_capture(s, breaker, w.table[city], w.previous_owner(prev), choose)


@cw_op("cw_occupy")
def _occupy(s: State, breaker: int, cities: tuple[str, ...]) -> None:
    """CW-CAPTURE-4 (3): the breaker owns the city, on top, with its arrival grain."""
    if cities:
        war_of(s).finish_capture(breaker, list(cities))
    sync(s)


CHOICE_PROMPT = {"take_from_discard": "cw_retrieve", "deploy_free_soldier": "cw_deploy",
                 "damage_any": "cw_strike"}  # fmt: skip


@cw_op("cw_choice")
def _choice(s: State, effect: str, seat: int, n: int, city: str) -> None:
    kind = CHOICE_PROMPT[effect]
    pr = Prompt(kind, seat, (n, city))
    if CHOICE_LEGAL[kind](s, pr):
        ask(s, kind, seat, n, city)
    else:
        log(s, "city", f"{war_of(s).table[city].name} 的破城效果没有可选的对象")


def _retrieve_legal(s: State, pr: Prompt) -> list[Act]:
    return [Act("retrieve", (c,)) for c in sorted(set(discard_pile(s, pr.seat)))]


def _retrieve_answer(s: State, pr: Prompt, act: Act) -> None:
    cid = str(act.args[0])
    discard_pile(s, pr.seat).remove(cid)
    s.players[pr.seat].hand.append(cid)
    log(s, "city", f"{s.hero_name(pr.seat)} 从墓地取回 {s.cards[cid].name}（长安破城效果）")


def _deploy_legal(s: State, pr: Prompt) -> list[Act]:
    sweep_fallen(s)
    p = s.players[pr.seat]
    if not p.alive or 0 <= p.leadership <= len(p.soldiers):
        return []
    cap = int(pr.data[0])
    return [Act("deploy", (c,)) for c in sorted(set(s.supply)) if s.cards[c].value <= cap]


def _deploy_answer(s: State, pr: Prompt, act: Act) -> None:
    deploy(s, pr.seat, str(act.args[0]))


def _strike_legal(s: State, pr: Prompt) -> list[Act]:
    w = war_of(s)
    out: list[Act] = []
    for q in s.clockwise_from(pr.seat):
        if w.allies(pr.seat, q) or w.out[q]:
            continue
        p = s.players[q]
        refs = ([p.ref] if p.alive else []) + [x.ref for x in p.soldiers]
        out.extend(Act("strike", (r,)) for r in refs)
    return out


def _strike_answer(s: State, pr: Prompt, act: Act) -> None:
    ref = str(act.args[0])
    log(s, "city", f"合肥破城效果：{s.hero_name(pr.seat)} 对 {s.name(ref)} 造成{pr.data[0]}点伤害")
    deal(s, ref, int(pr.data[0]), pr.seat, "other")
    push(s, ("after_action",))


def _or_decline(legal: LegalFn, answer: AnswerFn) -> tuple[LegalFn, AnswerFn]:
    """A capture choice whose options vanished after it was asked (a player conceded)
    offers only 「放弃」, which does nothing."""

    def legal2(s: State, pr: Prompt) -> list[Act]:
        return legal(s, pr) or [Act("decline")]

    def answer2(s: State, pr: Prompt, act: Act) -> None:
        if act.kind != "decline":
            answer(s, pr, act)

    return legal2, answer2


CHOICE_LEGAL = {"cw_retrieve": _retrieve_legal, "cw_deploy": _deploy_legal,
                "cw_strike": _strike_legal}  # fmt: skip
cw_prompt("cw_retrieve", "CW-CITY-8", *_or_decline(_retrieve_legal, _retrieve_answer))
cw_prompt("cw_deploy", "CW-CITY-7", *_or_decline(_deploy_legal, _deploy_answer))
cw_prompt("cw_strike", "CW-CITY-8", *_or_decline(_strike_legal, _strike_answer))
