"""Setup (CH-SETUP) and the preparation phase (CH-PREP): seats, identities, hero draft,
soldier draft, leftover mana, opening hands."""

from __future__ import annotations

import random

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.core import answer, ask, draw, log, op, prompt, push
from throne_lib.games.castle.rules import ROLE_ZH, CastleRules
from throne_lib.games.castle.state import Player, Prompt, Soldier, State


def seated(
    rules: CastleRules,
    cards: CastleCards,
    rng: random.Random,
    seed: int,
    players: list[Player],
    positions: list[int],
) -> State:
    """A new match's state: ``players`` in their seats (``positions``, CH-SETUP-3), no
    harm or help recorded yet; the game mode deals the rest (城池战 builds on it too)."""
    n = len(players)
    s = State(
        rules=rules,
        cards=cards,
        rng=rng,
        seed=seed,
        players=players,
        pos=positions,
        start_pos=tuple(positions),
    )
    s.harm = [[0] * n for _ in range(n)]
    s.helped = [[0] * n for _ in range(n)]
    return s


def unbox(s: State, cards: CastleCards) -> list[str]:
    """CH-SETUP-7: the heroes go to the hero pool and the soldiers to the supply; returns
    the rest of the box, the (not yet shuffled) cards of a deck."""
    s.hero_pool = [c.id for c in cards.of("hero") for _ in range(c.count)]
    s.supply = [c.id for c in cards.of("special_soldier", "soldier") for _ in range(c.count)]
    rest = [c for c in cards.values() if c.kind == "basic" or c.family in ("equipment", "magic")]
    return [c.id for c in rest for _ in range(c.count)]


def new_state(cards: CastleCards, rules: CastleRules, players: int, seed: int) -> State:
    """Seats, identities and the op stack for the rest of setup (CH-SETUP-2)."""
    row = rules.roles_for(players)
    rng = random.Random(seed)
    positions = list(range(players))
    if rules.random_seating:  # CH-SETUP-3
        rng.shuffle(positions)
    roles = [
        r
        for r, k in zip(("lord", "enemy", "reinforcement", "neutral"), row, strict=True)
        for _ in range(k)
    ]
    rng.shuffle(roles)  # CH-SETUP-4
    ps = [Player(seat=i, role=roles[i]) for i in range(players)]
    s = seated(rules, cards, rng, seed, ps, positions)
    for p in ps:
        if p.role in ("lord", "reinforcement"):
            p.camp = "castle"
        elif p.role == "enemy":
            p.camp = "enemy"
        if p.role == "lord":
            p.revealed = True
    lord = next(p.seat for p in ps if p.role == "lord")
    log(s, "setup", f"{players}人局，城主在{lord}号座位")
    for p in ps:
        log(s, "identity", f"{p.seat}号座位获得身份", p.seat, f"你的身份：{ROLE_ZH[p.role]}")
    s.deck = unbox(s, cards)
    order = s.clockwise_from(lord, include=True)
    offers = [
        ("offer_hero", q, rules.lord_hero_offer if q == lord else rules.hero_offer) for q in order
    ]
    push(s, *offers, ("prep_start",))
    return s


@op("offer_hero")
def _offer(s: State, seat: int, k: int) -> None:
    s.rng.shuffle(s.hero_pool)  # CH-SETUP-5: reshuffled before each offer
    ask(s, "pick_hero", seat, tuple(s.hero_pool[:k]))


@prompt("pick_hero", "CH-SETUP-5")
def _pick_legal(s: State, pr: Prompt) -> list[Act]:
    return [Act("pick_hero", (h,)) for h in pr.data[0]]


@answer("pick_hero")
def _pick_answer(s: State, pr: Prompt, act: Act) -> None:
    hid = str(act.args[0])
    p = s.players[pr.seat]
    s.hero_pool.remove(hid)
    c = s.cards[hid]
    lord = p.role == "lord"
    p.hero = hid
    p.max_hp = c.hp + (s.rules.lord_bonus_hp if lord else 0)  # CH-SETUP-6
    p.hp = p.max_hp
    p.leadership = (
        -1
        if c.has("unlimited_leadership")
        else (s.rules.lord_leadership if lord else s.rules.leadership)
    )  # CH-PREP-1, CH-HERO-6
    p.mana = s.rules.lord_mana if lord else s.rules.mana  # CH-PREP-2
    log(s, "hero", f"{pr.seat}号座位选择英雄 {c.name}（{c.title}）")


@op("prep_start")
def _prep_start(s: State) -> None:
    begin_prep(s, next(p.seat for p in s.players if p.role == "lord"))


def begin_prep(s: State, first: int) -> None:
    """The heroes not chosen are set aside, the deck (城池战: each deck) is shuffled
    (CH-SETUP-7), and the soldier draft starts at ``first`` (CH-PREP-3)."""
    s.set_aside.extend(s.hero_pool)
    s.hero_pool = []
    for deck in s.decks if s.decks is not None else [s.deck]:
        s.rng.shuffle(deck)
    s.stage = "prep"
    log(s, "prep", "备战阶段开始")
    push(s, ("draft_turn", first))


def draft_options(s: State, seat: int) -> list[Act]:
    p = s.players[seat]
    if p.leadership >= 0 and len(p.soldiers) >= p.leadership:
        return []
    return [Act("draft", (cid,)) for cid in sorted(set(s.supply)) if s.cards[cid].value <= p.mana]


@op("draft_turn")
def _draft_turn(s: State, seat: int) -> None:
    """CH-PREP-3: one pick per hero in turn, clockwise from the 城主; a pass is final."""
    for q in s.clockwise_from(seat, include=True):
        p = s.players[q]
        if not p.drafting:
            continue
        if not draft_options(s, q):
            p.drafting = False
            continue
        ask(s, "draft", q)
        return
    push(s, ("prep_end",))


@prompt("draft", "CH-PREP-3")
def _draft_legal(s: State, pr: Prompt) -> list[Act]:
    return draft_options(s, pr.seat) + [Act("pass")]


@answer("draft")
def _draft_answer(s: State, pr: Prompt, act: Act) -> None:
    p = s.players[pr.seat]
    if act.kind == "pass":
        p.drafting = False
        log(s, "draft", f"{s.hero_name(pr.seat)} 结束部署")
    else:
        cid = str(act.args[0])
        c = s.cards[cid]
        s.supply.remove(cid)
        p.mana -= c.value
        p.soldiers.append(Soldier(s.next_uid, cid, c.hp, c.hp))  # CH-PREP-4
        s.next_uid += 1
        log(s, "draft", f"{s.hero_name(pr.seat)} 部署 {c.name}（价值{c.value}，剩余法力{p.mana}）")
    nxt = s.clockwise_from(pr.seat)
    push(s, ("draft_turn", nxt[0] if nxt else pr.seat))


@op("prep_end")
def _prep_end(s: State) -> None:
    s.set_aside.extend(s.supply)  # CH-PREP-6
    s.supply = []
    finish_prep(s, next(p.seat for p in s.players if p.role == "lord"))


def finish_prep(s: State, first: int, conjured: bool | None = None) -> None:
    """CH-PREP-5: leftover mana becomes 魔 (``conjured``, by default as
    ``leftover_mana_source`` says), CH-SETUP-8: opening hands, clockwise from ``first``,
    whose turn starts the battle."""
    if conjured is None:
        conjured = s.rules.leftover_mana_source == "conjured"
    for q in s.clockwise_from(first, include=True):  # CH-PREP-5
        p = s.players[q]
        n, p.mana = p.mana, 0
        if conjured:
            p.hand.extend(["conjured_mana"] * n)
            p.conjured = n
        else:
            got = min(n, s.deck.count("mana"))
            for _ in range(got):
                s.deck.remove("mana")
            p.hand.extend(["mana"] * got)
            p.conjured = got
        log(s, "mana", f"{s.hero_name(q)} 剩余法力转换为{p.conjured}张魔")
    for q in s.clockwise_from(first, include=True):  # CH-SETUP-8
        draw(s, q, s.rules.opening_hand, "（起始手牌）")
    s.stage = "battle"
    s.round = 1
    push(s, ("turn", first))
