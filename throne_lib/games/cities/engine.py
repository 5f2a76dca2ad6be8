"""城池战 driven by the 城堡之心 engine: set-up, turns, attacks on cities, captures.

The castle engine runs the match (its ops, prompts, cards and rules); this module is the
mode layered on it (``State.mode``, a :class:`CitiesMode`): it replaces a few castle ops
by name (:data:`CW_OPS`: set-up without roles, the preparation step, deaths and revival,
turn order, attacks whose target is a city, the command phase with city groups),
extends a few prompts (:data:`CW_PROMPTS`: the 出牌阶段's attacks on cities, 南皮's
payment and 爆裂火球 on a city; the command phase; the prep step's 弃守; the capture
choices of 长安, 南皮 and 合肥) and keeps the city position in a
:class:`~throne_lib.games.cities.war.CityWar`. Every city rule lives in ``CityWar``;
every unit rule stays the castle engine's.

A city as a target is named ``c:<id>`` (``c:luoyang``) in actions and attacks; a unit
keeps the castle's ``h3``/``s12``.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from throne_lib.games.castle import command, death, magic, play, setup, skills, turn  # noqa: F401
from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.combat import (
    Atk,
    attack_distance,
    can_attack_now,
    deal,
    hero_atk,
    hero_range,
    kill_soldier,
    soldier_profile,
    soldier_targets,
)
from throne_lib.games.castle.command import command_groups, orders, soldier_atk
from throne_lib.games.castle.core import (
    OPS,
    PROMPTS,
    AnswerFn,
    LegalFn,
    OpFn,
    able,
    ask,
    discard_card,
    discard_pile,
    draw,
    heal_hero,
    log,
    names,
    push,
)
from throne_lib.games.castle.death import end_game
from throne_lib.games.castle.magic import counter_askers
from throne_lib.games.castle.play import attack_payments, start_attack
from throne_lib.games.castle.setup import seated
from throne_lib.games.castle.state import Player, Prompt, Soldier, State
from throne_lib.games.castle.turn import hand_load
from throne_lib.games.cities.effects import resolve_capture
from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.table import CityTable
from throne_lib.games.cities.war import EMPTY, CityWar

CITY = "c:"
CW_OPS: dict[str, OpFn] = {}
CW_PROMPTS: dict[str, tuple[LegalFn, AnswerFn, str]] = {}
WHY_ZH = {"失守": "失守", "弃守": "被弃守", "重置墓地": "因重置墓地被舍弃", "认输": "因认输被放弃",
          "出局": "随出局玩家进入空城区域"}  # fmt: skip


def is_city(ref: object) -> bool:
    return isinstance(ref, str) and ref.startswith(CITY)


def cw_op(name: str) -> Callable[[OpFn], OpFn]:
    def deco(fn: OpFn) -> OpFn:
        CW_OPS[name] = fn
        return fn

    return deco


def cw_prompt(kind: str, rule: str, legal: LegalFn, answer: AnswerFn) -> None:
    CW_PROMPTS[kind] = (legal, answer, rule)


def prompt_entry(kind: str) -> tuple[LegalFn, AnswerFn, str]:
    """The legal/answer/rule of a prompt kind: the mode's own, else the castle's."""
    return CW_PROMPTS.get(kind) or PROMPTS[kind]


class CitiesMode:
    """The 城池战 layer on a castle ``State`` (its ``mode``)."""

    ops = CW_OPS

    def __init__(self, war: CityWar, rules: CitiesRules, first: int) -> None:
        self.war = war
        self.rules = rules
        self.first = first  # CW-SETUP-4: the first player (seat at position 0)
        self.command_city = ""  # an empty city named in this 指挥阶段 (CW-SIEGE-5)
        self.command_done = False  # CW-SIEGE-6: its city was broken
        self.noted = 0  # war.log entries already written to the 战报
        self.gone: set[int] = set()  # players out whose exit the engine carried out

    def copy(self) -> CitiesMode:
        m = copy.copy(self)
        m.war = self.war.copy()
        m.gone = set(self.gone)
        return m

    def seated(self, seat: int) -> bool:
        """CW-TEAM-6: a player still in keeps its seat while its hero is dead."""
        return self.rules.dead_keep_seat and not self.war.out[seat]

    def canonical(self) -> tuple[Any, ...]:
        return (self.war.canonical(), self.first, self.command_city, self.command_done,
                self.noted, tuple(sorted(self.gone)))  # fmt: skip

    # CW-DECK-1/2/3/5: the reset replaces the castle's reshuffle (both deck modes)
    def draw(self, s: State, seat: int, n: int, why: str = "") -> list[str]:
        """Draw ``n`` from the pile ``seat`` uses (CW-DECK-2): more than it holds and the
        reset (CW-DECK-3) runs for ``seat``.

        Reading of ``deck_mode="shared"`` (CW-DECK-1's other reading): one draw pile and
        one discard pile for all, as the base game (CH-SETUP-7, CH-DECK-6). Exhaustion
        (卡组抓尽, the seed's 募兵 example) strikes the player who must draw more than the
        shared pile holds, and only it: it draws what is left, gives up every city but
        its starting city (or goes out holding only that, CW-DECK-4), and the shared
        discard pile — everyone's cards — is shuffled as the new shared pile (the base
        game's reshuffle, CH-DECK-7, happens only this way); the missing cards are not
        drawn. Other players keep their cities; a player who goes out leaves only its hand
        and equipment (the piles are everyone's, CW-WIN-5); 长安's 'your discard pile' is
        the shared one."""
        p = s.players[seat]
        if self.war.out[seat] or n <= 0:
            return []
        pile = draw_pile(s, seat)
        short = n > len(pile)
        got = [pile.pop() for _ in range(min(n, len(pile)))]
        p.hand.extend(got)
        head = f"{s.hero_name(seat)} {why}摸了{len(got)}张牌"
        log(s, "draw", head, seat, f"{head}：{names(s, got)}")
        if short:  # CW-DECK-3: (1) drawn all; (2) cities; (3) shuffle; (4) no more cards
            log(s, "reset", f"{s.hero_name(seat)} 卡组抓尽（还需{n - len(got)}张），重置墓地")
            self.war.deck_reset(seat)
            discard = discard_pile(s, seat)
            held = ""  # CW-DECK-5: the 丰饶号角 still resolving is not shuffled in
            if "丰饶号角" in why and "horn_of_plenty" in discard:
                held = "horn_of_plenty"
                discard.remove(held)
            fresh = list(discard)
            s.rng.shuffle(fresh)
            set_piles(s, seat, fresh, [held] if held else [])
            whose = "公共墓地" if s.decks is None else f"{s.hero_name(seat)} 的墓地"
            log(s, "reset", f"{whose}洗成新的卡组（{len(fresh)}张）")
            sync(s)
        return got


def draw_pile(s: State, seat: int) -> list[str]:
    """CW-DECK-1: ``seat``'s own draw pile, or the one shared pile (``deck_mode='shared'``)."""
    return s.decks[seat] if s.decks is not None else s.deck


def set_piles(s: State, seat: int, deck: list[str], discard: list[str]) -> None:
    """Replace the draw and discard piles ``seat`` uses (its own, or the shared ones)."""
    if s.decks is not None and s.discards is not None:
        s.decks[seat], s.discards[seat] = deck, discard
    else:
        s.deck, s.discard = deck, discard


def mode(s: State) -> CitiesMode:
    m: CitiesMode = s.mode
    return m


def war_of(s: State) -> CityWar:
    w: CityWar = s.mode.war
    return w


def city_name(s: State, ref: str) -> str:
    return war_of(s).table[ref.removeprefix(CITY)].name


def ref_name(s: State, ref: str) -> str:
    return city_name(s, ref) if is_city(ref) else s.name(ref)


# --- set-up (CW-SETUP) -----------------------------------------------------------------
def new_state(
    cards: CastleCards, table: CityTable, rules: CitiesRules, teams: list[int], seed: int
) -> State:
    """Seats, teams and starting cities; the op stack for the heroes and the 备战阶段."""
    n = len(teams)
    if rules.deck_mode not in ("personal", "shared"):
        raise ValueError(
            f"deck_mode is 'personal' or 'shared', not {rules.deck_mode!r} (CW-DECK-1)"
        )
    if not rules.min_players <= n <= rules.max_players:
        raise ValueError(
            f"城池战 seats {rules.min_players}–{rules.max_players}, not {n} (CW-SETUP-2)"
        )
    base = rules.base
    rng = random.Random(seed)
    positions = list(range(n))
    if rules.random_seating:  # CW-SETUP-4
        rng.shuffle(positions)
    ps = [Player(seat=i, role="player", revealed=True) for i in range(n)]  # CW-TEAM-1
    s = seated(base, cards, rng, seed, ps, positions)
    first = positions.index(0)
    order = s.clockwise_from(first, include=True)
    war = CityWar.deal(table, rules, teams, rng, order)  # CW-SETUP-3/5/6
    groups: dict[int, list[int]] = {}
    for seat, t in enumerate(teams):
        groups.setdefault(t, []).append(seat)
    sides = "；".join("、".join(f"{q}号" for q in g) for g in groups.values())
    log(
        s,
        "setup",
        f"{n}人城池战，队伍：{sides}；先手：{first}号座位；胜利需{war.victory_count()}座城池",
    )
    s.mode = CitiesMode(war, rules, first)
    s.hero_pool = [c.id for c in cards.of("hero") for _ in range(c.count)]
    s.supply = [c.id for c in cards.of("special_soldier", "soldier") for _ in range(c.count)]
    rest = [c for c in cards.values() if c.kind == "basic" or c.family in ("equipment", "magic")]
    full = [c.id for c in rest for _ in range(c.count)]
    if rules.deck_mode == "personal":  # CW-DECK-1: a full copy each
        s.decks = [list(full) for _ in range(n)]
        s.discards = [[] for _ in range(n)]
    else:  # CW-DECK-1's other reading: the base game's piles (CH-SETUP-7, CH-DECK-6)
        s.deck, s.discard = full, []
    push(s, *[("offer_hero", q, base.hero_offer) for q in order], ("prep_start",))  # CW-SETUP-7
    sync(s)
    return s


@cw_op("prep_start")
def _prep_start(s: State) -> None:
    s.set_aside.extend(s.hero_pool)
    s.hero_pool = []
    for d in s.decks if s.decks is not None else [s.deck]:  # CW-DECK-1: match RNG
        s.rng.shuffle(d)
    s.stage = "prep"
    log(s, "prep", "备战阶段开始")
    push(s, ("draft_turn", mode(s).first))


@cw_op("prep_end")
def _prep_end(s: State) -> None:
    m = mode(s)
    if not m.rules.supply_recycles:
        s.set_aside.extend(s.supply)
        s.supply = []
    order = s.clockwise_from(m.first, include=True)
    for q in order:  # CH-PREP-5, CW-TEAM-3
        p = s.players[q]
        k, p.mana = p.mana, 0
        p.hand.extend(["conjured_mana"] * k)
        p.conjured = k
        log(s, "mana", f"{s.hero_name(q)} 剩余法力转换为{k}张魔")
    for q in order:  # CW-SETUP-7: opening hands from each player's own pile
        draw(s, q, s.rules.opening_hand, "（起始手牌）")
    s.stage = "battle"
    s.round = 1
    push(s, ("turn", m.first))


# --- the war's notes become the 战报 (CW-UI-6); players out leave (CW-WIN-5) -------------
def _note_text(s: State, w: CityWar, note: dict[str, Any]) -> str:
    k = note["kind"]

    def who(seat: int) -> str:
        return s.hero_name(seat)

    def nm(cid: str) -> str:
        return w.table[cid].name

    if k == "reveal":
        pairs = "，".join(f"{q}号座位：{c}" for q, c in enumerate(note["starting"]))
        return f"起始城池翻开：{pairs}（各30粮草）；空城：{'、'.join(nm(c) for c in w.empty)}"
    if k == "grain":
        return f"{nm(note['city'])} 受到{who(note['by'])}的{note['amount']}点伤害（粮草{note['left']}）"
    if k == "break_damage":
        lost = f"，溢出{note['lost']}点" if note["lost"] else ""
        return f"{who(note['by'])} 对{nm(note['city'])}造成{note['amount']}点破城伤害{lost}，击破"
    if k == "occupy":
        return f"{who(note['by'])} 占据{nm(note['city'])}（粮草{w.grain[note['city']]}）"
    if k == "to_empty":
        return f"{nm(note['city'])}{WHY_ZH.get(note['why'], note['why'])}，进入空城区域（粮草15）"
    if k == "pay":
        return f"{who(note['by'])} 支付{nm(note['city'])}的{note['amount']}点粮草（剩余{note['left']}）"
    if k == "reset":
        return f"{who(note['seat'])} 舍弃起始城池以外的城池，起始城池恢复30粮草"
    if k == "out":
        return f"{who(note['seat'])} 出局（{note['rule']}）"
    if k == "capture_effect":
        return ""
    if k == "end":
        return ""
    return str(note)


def sync(s: State) -> None:
    """After the war moved cities: its notes into the 战报, the exit of players who went
    out (CW-WIN-5), dead soldiers back to the supply (CW-CITY-7), the end (CW-WIN)."""
    m = mode(s)
    w = m.war
    while m.noted < len(w.log):
        note = w.log[m.noted]
        m.noted += 1
        text = _note_text(s, w, note)
        if text:
            log(s, "city", text)
    for q in range(s.n):
        if w.out[q] and q not in m.gone:
            m.gone.add(q)
            _exit(s, q)
    sweep_fallen(s)
    if w.result is not None and s.stage != "over":
        winners = [q for q, r in enumerate(w.result) if r > 0]
        what = "平局" if not winners else "、".join(s.hero_name(q) for q in winners) + " 获胜"
        end_game(s, list(w.result), w.end_rule, what)


def _exit(s: State, q: int) -> None:
    """CW-WIN-5: the hero, hand, equipment and piles leave the game; allies may take its
    soldiers within leadership (CH-DEATH-9), the rest die (CH-DEATH-10). With shared
    piles only its hand and equipment leave; the piles are everyone's."""
    w = war_of(s)
    p = s.players[q]
    p.alive = p.dying = p.embrace = p.mirror = p.banner = p.aim = p.swift = False
    p.hold = p.poison = p.stun = p.curse = p.frozen = 0
    s.set_aside.extend(c for c in p.hand if c != "conjured_mana")
    s.set_aside.extend(p.equip.values())
    if s.decks is not None and s.discards is not None:
        s.set_aside.extend(s.decks[q] + s.discards[q])
        s.decks[q], s.discards[q] = [], []
    p.hand, p.equip = [], {}
    allies = tuple(
        r
        for r in s.clockwise_from(q)
        if w.teams[r] == w.teams[q] and not w.out[r] and s.players[r].alive
    )
    push(s, ("adopt_ask", q, allies, 0), ("adopt_end", q))


def sweep_fallen(s: State) -> None:
    """CW-CITY-7: soldiers that died return to the shared supply (``supply_recycles``)."""
    if s.fallen and mode(s).rules.supply_recycles:
        s.supply.extend(s.fallen)
        s.fallen.clear()


def deploy(s: State, seat: int, cid: str) -> bool:
    """CW-CITY-7: a free soldier from the supply, full HP, within leadership."""
    sweep_fallen(s)
    p = s.players[seat]
    if cid not in s.supply or not p.alive or (0 <= p.leadership <= len(p.soldiers)):
        return False
    s.supply.remove(cid)
    c = s.cards[cid]
    p.soldiers.append(Soldier(s.next_uid, cid, c.hp, c.hp))
    s.next_uid += 1
    log(s, "deploy", f"{s.hero_name(seat)} 免费部署 {c.name}")
    return True


def defence(s: State, seat: int, effect: str) -> int | None:
    """The value (0 for a bare effect) of ``seat``'s active defence effect, or None."""
    c = war_of(s).active_defence(seat)
    if c is None:
        return None
    for name, v in c.defence:
        if name == effect:
            return v or 0
    return None


# --- turns (CW-TURN) -------------------------------------------------------------------
@cw_op("declare_ask")
def _no_declare(s: State, seat: int) -> None:
    """CW-TEAM-2: no identities, so no neutral declares."""


@cw_op("turn_start")
def _turn_start(s: State, seat: int) -> None:
    """CW-TURN-2: the preparation step — a dead hero returns (CW-TEAM-5); the castle's
    start-of-turn effects; the current city's defence effect; then 弃守 (CW-ABANDON-1)."""
    m = mode(s)
    p = s.players[seat]
    if not p.alive and m.rules.revive and not m.war.out[seat]:
        c = s.cards[p.hero]
        p.alive, p.dying, p.hold, p.embrace = True, False, 0, False
        p.hp = p.max_hp = c.hp
        p.last_source = -1
        log(s, "return", f"{s.hero_name(seat)} 重返战场（生命{p.hp}）")
    push(s, ("cw_defence_start", seat), ("cw_prep", seat))
    OPS["turn_start"](s, seat)


@cw_op("cw_defence_start")
def _defence_start(s: State, seat: int) -> None:
    """CW-CITY-3/CW-CITY-8: the current city's start-of-turn defence effect."""
    w = war_of(s)
    w.first_hit_taken.clear()  # 建业: "in each turn"
    p = s.players[seat]
    city = w.current(seat)
    if w.out[seat] or city is None or not p.alive:
        return
    before = w.grain[city]
    w.turn_start(seat)  # 许昌's 屯田
    if w.grain[city] != before:
        log(s, "city", f"{w.table[city].name} 屯田，粮草{before}→{w.grain[city]}")
    if defence(s, seat, "deploy_militia") is not None:
        deploy(s, seat, "militia")
    heal = defence(s, seat, "heal_hero_start")
    if heal:
        got = heal_hero(s, seat, heal)
        if got:
            log(s, "city", f"{w.table[city].name} 守城效果：{s.hero_name(seat)} 恢复{got}点生命")
    heal = defence(s, seat, "heal_soldiers_start")
    if heal:
        for sol in p.soldiers:
            sol.hp = min(sol.max_hp, sol.hp + heal)
        log(
            s, "city", f"{w.table[city].name} 守城效果：{s.hero_name(seat)}的士兵各恢复{heal}点生命"
        )


@cw_op("cw_prep")
def _prep_step(s: State, seat: int) -> None:
    """CW-TURN-3 / CW-ABANDON-1/2: the abandon window at the end of the prep step.

    Asked while the player holds a city above its starting city. Abandoning the starting
    city (then its only city) has exactly the effect of 认输 (CW-WIN-4: its cities go
    empty, it is out), so it is offered as 认输 (``concede_actions``), which, like every
    concession, is not one of the current seat's ``legal_actions()``."""
    p = s.players[seat]
    w = war_of(s)
    if not w.out[seat] and p.alive and not p.frozen and len(w.stacks[seat]) > 1:
        ask(s, "cw_prep", seat, 0)  # abandons so far in this prep step (CW-ABANDON-2)


def _prep_legal(s: State, pr: Prompt) -> list[Act]:
    return [Act("keep"), Act("abandon")]


def _prep_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "abandon":
        w = war_of(s)
        city = w.current(pr.seat)
        log(s, "abandon", f"{s.hero_name(pr.seat)} 弃守{w.table[city or ''].name}")
        w.abandon(pr.seat)
        sync(s)
        done = (int(pr.data[0]) if pr.data else 0) + 1
        limit = mode(s).rules.abandon_limit  # CW-ABANDON-2: none by default
        if (limit is None or done < limit) and len(w.stacks[pr.seat]) > 1:
            ask(s, "cw_prep", pr.seat, done)  # it may abandon its new current city too


cw_prompt("cw_prep", "CW-ABANDON-1", _prep_legal, _prep_answer)


@cw_op("draw_phase")
def _draw_phase(s: State, seat: int) -> None:
    """CH-TURN-4 with 洛阳's extra card (CW-CITY-8)."""
    s.step = "draw"
    if s.players[seat].alive:
        draw(s, seat, s.rules.draw_per_turn + (defence(s, seat, "draw_extra") or 0))


@cw_op("discard_phase")
def _discard_phase(s: State, seat: int) -> None:
    """CH-TURN-8 with 邺城's higher hand limit (CW-CITY-8)."""
    s.step = "discard"
    p = s.players[seat]
    limit = max(p.hp, 0) + (defence(s, seat, "hand_limit") or 0)
    over = hand_load(s, seat) - limit
    if p.alive and (over > 0 or len(p.hand) > limit):  # CH-UI-3, as in 城堡之心
        ask(s, "discard", seat, "limit", max(over, 0), limit)


def round_leader(s: State) -> int:
    """CW-TURN-1: the first player; when it is out, the next player still in after it."""
    w = war_of(s)
    first = mode(s).first
    for k in range(s.n):
        seat = s.pos.index((s.pos[first] + k) % s.n)
        if not w.out[seat]:
            return seat
    return first


@cw_op("next_turn")
def _next_turn(s: State) -> None:
    """CW-TURN-1: the next player still in clockwise (a dead hero's player too);
    CW-WIN-6: the match ends when round ``max_rounds`` ends."""
    m = mode(s)
    w = m.war
    limit = m.rules.max_rounds
    if limit is not None and s.turn_no >= limit * s.n:  # positions swapped by 跳跃
        w.end_by_rounds()
        sync(s)
        return
    seat = -1
    for k in range(1, s.n + 1):
        cand = s.pos.index((s.turn_pos + k) % s.n)
        if not w.out[cand]:
            seat = cand
            break
    if seat < 0:
        return
    if seat == round_leader(s):
        s.round += 1
        if limit is not None and s.round > limit:
            w.end_by_rounds()
            sync(s)
            return
    push(s, ("turn", seat))


@cw_op("win_check")
def _win_check(s: State) -> None:
    """CW-TEAM-2: the game-end check is CW-WIN-1 to CW-WIN-3, not the roles'."""
    war_of(s).check_win()
    sync(s)


@cw_op("deaths")
def _deaths(s: State) -> None:
    """CW-TEAM-4/5: heroes die as in CH-DEATH-5; cards to the owner's discard pile,
    soldiers stay; the killer draws ``kill_reward`` for an opponent's hero."""
    w = war_of(s)
    order = s.clockwise_from(s.turn_seat, include=True)
    victims = [
        q
        for q in order
        if s.players[q].alive
        and (
            s.players[q].dying
            or s.players[q].embrace
            or (s.players[q].hold == 2 and q == s.turn_seat)
        )
    ]
    for q in victims:
        p = s.players[q]
        p.alive = p.dying = p.mirror = p.banner = p.aim = p.swift = False
        p.hold = p.poison = p.stun = p.curse = p.frozen = 0
        discard_pile(s, q).extend(c for c in p.hand if c != "conjured_mana")
        discard_pile(s, q).extend(p.equip.values())
        p.hand, p.equip = [], {}
        log(s, "death", f"{s.hero_name(q)} 阵亡，下回合准备流程中复活")
    for q in victims:
        p = s.players[q]
        k = -1 if p.embrace else p.last_source
        p.embrace = False
        if k < 0 or k == q or k in victims or w.out[k] or not s.players[k].alive:
            continue
        if not w.allies(k, q) and mode(s).rules.kill_reward:
            log(s, "reward", f"{s.hero_name(k)} 消灭对手英雄，摸{mode(s).rules.kill_reward}张牌")
            draw(s, k, mode(s).rules.kill_reward, "（奖励）")


# --- attacks on cities (CW-SIEGE) ------------------------------------------------------
def in_reach(s: State, seat: int, city: str, rng: float, swift: bool) -> bool:
    """CW-SIEGE-4: an empty city is in reach of every attack; an opponent's current city
    stands at its owner's seat."""
    owner = war_of(s).owner(city)
    if owner is None or owner == EMPTY or mode(s).rules.city_distance == "any":
        return owner is not None
    return swift or attack_distance(s, seat, owner) <= rng


def city_profile(s: State, seat: int, sol: Soldier) -> tuple[str, int, float, bool]:
    """A soldier's attack on a city: its profile against no unit (a charge stays one)."""
    return soldier_profile(s, sol, f"h{seat}")


def soldier_reaches(s: State, seat: int, sol: Soldier, city: str) -> bool:
    _, _, rng, _ = city_profile(s, seat, sol)
    swift = s.players[seat].swift and s.rules.swift_wind_soldiers
    return in_reach(s, seat, city, rng, swift)


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


@cw_op("atk")
def _atk(s: State, a: Atk) -> None:
    if not is_city(a.target):
        OPS["atk"](s, a)
        return
    w = war_of(s)
    city = a.target.removeprefix(CITY)
    log(
        s,
        "attack",
        f"{s.name(a.attacker)} 攻击 {w.table[city].name}" + ("（追击）" if a.follow else ""),
    )
    if city not in w.attack_targets(a.src):
        log(s, "void", f"{w.table[city].name} 已不是可攻击的城池")
        return
    owner = w.owner(city)
    if owner is not None and owner >= 0:
        s.harm[a.src][owner] += 1
    push(s, ("atk_defend", a))


@cw_op("atk_defend")
def _atk_defend(s: State, a: Atk) -> None:
    """CW-SIEGE-7: the owner's hero may block an attack on its current city."""
    if not is_city(a.target):
        OPS["atk_defend"](s, a)
        return
    owner = war_of(s).owner(a.target.removeprefix(CITY))
    if owner is not None and owner >= 0 and mode(s).rules.owner_blocks:
        blockable = not a.no_save and not (a.aim and a.by_hero)
        if blockable and able(s, owner):  # CH-UI-3: asked whether or not it holds 剑
            ask(s, "block", owner, a)
            return
    push(s, ("atk_hit", a))


@cw_op("atk_negated")
def _atk_negated(s: State, a: Atk) -> None:
    """A blocked attack on a city: 合肥's riposte (CW-CITY-8); the axes (CH-EQUIP-11/12)."""
    if not is_city(a.target):
        OPS["atk_negated"](s, a)
        return
    w = war_of(s)
    city = a.target.removeprefix(CITY)
    log(s, "negated", f"对{w.table[city].name}的攻击被抵挡")
    owner = w.owner(city)
    if owner is not None and owner >= 0 and w.current(owner) == city:
        v = defence(s, owner, "block_riposte")
        if v:
            log(s, "city", f"合肥守城效果：{s.name(a.attacker)} 受到{v}点伤害")
            deal(s, a.attacker, v, owner, "other")
    if not a.by_hero:
        return
    p = s.players[a.src]
    if not p.alive or p.dying or a.attacker != p.ref:
        return
    wcard = s.cards[a.weapon] if a.weapon else None
    if wcard is not None and wcard.has("force_hit") and len(p.hand) >= 2:
        ask(s, "axe", a.src, a, "force_hit")
    elif wcard is not None and wcard.has("re_attack"):  # CH-UI-3: 剑 or not, it is asked
        ask(s, "axe", a.src, a, "re_attack")


@cw_op("atk_hit")
def _atk_hit(s: State, a: Atk) -> None:
    """CW-SIEGE-3 + defence effects; CW-SIEGE-11: only the attacker's own hit effects."""
    if not is_city(a.target):
        OPS["atk_hit"](s, a)
        return
    m = mode(s)
    w = m.war
    city = a.target.removeprefix(CITY)
    if city not in w.attack_targets(a.src):
        log(s, "void", f"{w.table[city].name} 已不是可攻击的城池")
        return
    owner = w.owner(city)
    recoil = defence(s, owner, "soldier_recoil") if owner is not None and owner >= 0 else None
    dmg = w.attack_damage(a.src, city, a.dmg, "sword" if a.by_hero else "soldier")
    log(s, "hit", f"{s.name(a.attacker)} 命中 {w.table[city].name}（{dmg}点）")
    broke = hit(s, a.src, city, dmg)
    if not a.by_hero and dmg > 0:
        att = s.unit(a.attacker)
        if isinstance(att, Soldier):
            c = s.cards[att.card]
            if c.has("bite_heal") and att.hp < att.max_hp:  # CH-SOLDIER-8 works
                att.hp = min(att.max_hp, att.hp + int(c.num("bite_heal")))
                log(s, "bite", f"{s.name(a.attacker)} 发动 咬噬，恢复1点生命")
            if recoil:
                log(s, "city", f"襄阳守城效果：{s.name(a.attacker)} 受到{recoil}点伤害")
                deal(s, a.attacker, recoil, owner if owner is not None else -1, "other")
    if broke and not a.by_hero and s.step == "command" and m.rules.stop_on_break:
        m.command_done = True  # CW-SIEGE-6


@cw_op("magic_resolve")
def _magic_resolve(s: State, seat: int, cid: str, targets: tuple[str, ...]) -> None:
    """CW-SIEGE-9: 爆裂火球 on an opponent's current city: all its damage to the grain."""
    if targets and is_city(targets[0]):
        hit(s, seat, targets[0].removeprefix(CITY), mode(s).rules.fireball_city_damage)
        return
    OPS["magic_resolve"](s, seat, cid, targets)


# --- the 出牌阶段 (CW-SIEGE-1/2/4/9, 南皮) ---------------------------------------------------
def _dead_target(s: State, act: Act) -> bool:
    """CW-TEAM-5: a dead hero is no target of magic or skills."""
    return act.kind in ("magic", "skill") and any(
        isinstance(x, str) and x[:1] == "h" and x[1:].isdigit() and not s.players[int(x[1:])].alive
        for x in act.args
    )


def city_play_actions(s: State, seat: int) -> list[Act]:
    m = mode(s)
    w = m.war
    p = s.players[seat]
    if w.out[seat] or (p.dying and not s.rules.dying_can_act):
        return []
    acts: list[Act] = []
    targets = w.attack_targets(seat)
    pays = attack_payments(s, seat)
    if pays:
        rng = hero_range(s, seat)
        for city in targets:
            if in_reach(s, seat, city, rng, p.swift):
                acts.extend(Act("attack", (CITY + city, e, pay)) for e, pay in pays)
    if "exploding_fireball" in p.hand and "爆裂火球" in m.rules.city_magic:
        for city in targets:
            owner = w.owner(city)
            if owner is not None and owner >= 0:
                acts.append(Act("magic", ("exploding_fireball", CITY + city)))
    cost = defence(s, seat, "pay_kill_soldier")
    if cost and "nanpi" not in p.used:
        for q in s.clockwise_from(seat):
            if not w.allies(seat, q) and not w.out[q]:
                acts.extend(Act("nanpi", (x.ref,)) for x in s.players[q].soldiers)
    return acts


def _play_legal(s: State, pr: Prompt) -> list[Act]:
    base = [a for a in PROMPTS["play"][0](s, pr) if not _dead_target(s, a)]
    return base[:-1] + city_play_actions(s, pr.seat) + base[-1:]  # end_play stays last


def _play_answer(s: State, pr: Prompt, act: Act) -> None:
    seat = pr.seat
    if act.kind == "attack" and is_city(act.args[0]):
        target, extra, pay = str(act.args[0]), int(act.args[1]), str(act.args[2])
        owner = war_of(s).owner(target.removeprefix(CITY))
        a = replace(hero_atk(s, seat, s.players[seat].ref, extra), target=target,
                    tgroup=owner if owner is not None else -1)  # fmt: skip
        start_attack(s, seat, a, extra, pay)
    elif act.kind == "magic" and len(act.args) > 1 and is_city(act.args[1]):
        cid, target = str(act.args[0]), str(act.args[1])
        discard_card(s, seat, cid)
        log(s, "magic", f"{s.hero_name(seat)} 使用 {s.cards[cid].name} → {city_name(s, target)}")
        push(s, ("after_action",), ("play_phase", seat))
        push(s, ("counter_ask", cid, (target,), (seat,), counter_askers(s, seat), 0))
    elif act.kind == "nanpi":  # 南皮: pay 8 grain of it (CW-GRAIN-7), a soldier dies
        w = war_of(s)
        p = s.players[seat]
        p.used.add("nanpi")
        ref = str(act.args[0])
        cost = defence(s, seat, "pay_kill_soldier") or 0
        log(s, "city", f"{s.hero_name(seat)} 发动南皮守城效果，指定 {s.name(ref)}")
        paid = w.pay_grain(seat, cost)
        sync(s)
        sol = s.unit(ref)
        if paid and isinstance(sol, Soldier):
            kill_soldier(s, s.commander(ref), sol)
            sweep_fallen(s)
        elif not paid:
            log(s, "city", "粮草不足，效果没有发生")
        push(s, ("after_action",), ("play_phase", seat))
    else:
        PROMPTS["play"][1](s, pr, act)


cw_prompt("play", "CH-TURN-5", _play_legal, _play_answer)


# --- the 指挥阶段 (CW-SIEGE-5/6) ----------------------------------------------------------
def city_groups(s: State, seat: int) -> list[str]:
    """CW-SIEGE-5: groups nameable for their city: an opponent's group (its current city
    in reach of an able soldier) or an empty city."""
    w = war_of(s)
    p = s.players[seat]
    able_ = [x for x in p.soldiers if can_attack_now(s, x)]
    if not able_:
        return []
    targets = set(w.attack_targets(seat))
    out: list[str] = []
    for q in s.clockwise_from(seat):
        c = w.current(q)
        if c in targets and any(soldier_reaches(s, seat, x, c) for x in able_):
            out.append(f"h{q}")
    out.extend(CITY + c for c in w.empty if c in targets)
    return out


def group_city(s: State) -> str:
    """The city of the group named in this 指挥阶段, if it may still be attacked."""
    m = mode(s)
    w = m.war
    seat = s.turn_seat
    c = m.command_city or (w.current(s.command_group) if s.command_group >= 0 else None)
    return c if c and c in w.attack_targets(seat) else ""


def all_orders(s: State, seat: int) -> list[Act]:
    acts = orders(s, seat) if s.command_group >= 0 else []
    city = group_city(s)
    if not city:
        return acts
    for sol in s.players[seat].soldiers:
        if s.frenzy_uid >= 0 and sol.uid != s.frenzy_uid:
            continue
        if not can_attack_now(s, sol) or not soldier_reaches(s, seat, sol, city):
            continue
        if s.cards[sol.card].has("berserk"):
            rnd = Act("order", (sol.ref, "random"))
            if rnd not in acts:
                acts.append(rnd)
        else:
            acts.append(Act("order", (sol.ref, CITY + city)))
    return acts


@cw_op("command_phase")
def _command_phase(s: State, seat: int) -> None:
    m = mode(s)
    s.step = "command"
    s.command_group = -1
    s.frenzy_uid = -1
    m.command_city = ""
    m.command_done = False
    p = s.players[seat]
    for sol in p.soldiers:
        sol.attacks = 0
    if not p.alive or p.dying or p.frozen:
        return
    if p.curse == 2 and "command" in s.rules.curse_skips:
        log(s, "skip", f"{s.hero_name(seat)} 被诅咒，跳过指挥阶段")
        return
    if command_groups(s, seat) or city_groups(s, seat):
        ask(s, "command_pick", seat)


def _pick_legal(s: State, pr: Prompt) -> list[Act]:
    unit = [f"h{q}" for q in command_groups(s, pr.seat)]
    extra = [g for g in city_groups(s, pr.seat) if g not in unit]
    return [Act("command", (g,)) for g in unit + extra] + [Act("skip_command")]


def _pick_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind == "command" and is_city(act.args[0]):
        city = str(act.args[0]).removeprefix(CITY)
        mode(s).command_city = city
        log(s, "command", f"{s.hero_name(pr.seat)} 指挥士兵进攻空城 {war_of(s).table[city].name}")
        push(s, ("command_next", pr.seat))
        return
    PROMPTS["command_pick"][1](s, pr, act)


cw_prompt("command_pick", "CW-SIEGE-5", _pick_legal, _pick_answer)


@cw_op("command_next")
def _command_next(s: State, seat: int) -> None:
    m = mode(s)
    p = s.players[seat]
    if not p.alive or p.dying:
        return
    if m.command_done:
        log(s, "command_end", "城池被击破，剩余士兵视为攻击完毕")
        return
    if s.command_group >= 0:
        g = s.players[s.command_group]
        if s.rules.command_ends_on_fall and g.alive and g.hp <= 0:  # CH-COMMAND-4
            log(s, "command_end", f"{s.hero_name(g.seat)} 倒下，剩余士兵视为攻击完毕")
            return
    if s.frenzy_uid >= 0:
        sol = s.unit(f"s{s.frenzy_uid}")
        city = group_city(s)
        if not isinstance(sol, Soldier) or not (
            (s.command_group >= 0 and soldier_targets(s, seat, sol, s.command_group))
            or (city and soldier_reaches(s, seat, sol, city))
        ):
            s.frenzy_uid = -1
    if all_orders(s, seat):
        ask(s, "order", seat)


def _order_legal(s: State, pr: Prompt) -> list[Act]:
    extra = [Act("next_soldier")] if s.frenzy_uid >= 0 else []
    return all_orders(s, pr.seat) + extra + [Act("end_command")]


def _order_answer(s: State, pr: Prompt, act: Act) -> None:
    if act.kind != "order":
        PROMPTS["order"][1](s, pr, act)
        return
    ref, target = str(act.args[0]), str(act.args[1])
    if target != "random" and not is_city(target):
        PROMPTS["order"][1](s, pr, act)
        return
    seat = pr.seat
    sol = s.unit(ref)
    assert isinstance(sol, Soldier)
    city = group_city(s)
    if target == "random":  # CH-SOLDIER-11: the city is one of the group's targets
        options = soldier_targets(s, seat, sol, s.command_group) if s.command_group >= 0 else []
        if city and soldier_reaches(s, seat, sol, city):
            options = [*options, CITY + city]
        target = options[s.rng.randrange(len(options))]
        log(s, "berserk", f"{s.name(ref)} 狂暴，随机攻击 {ref_name(s, target)}")
    sol.attacks += 1
    c = s.cards[sol.card]
    limit = int(c.num("frenzy", 1))
    s.frenzy_uid = sol.uid if sol.attacks < limit else -1
    if is_city(target):
        kind, dmg, _, no_save = city_profile(s, seat, sol)
        owner = war_of(s).owner(target.removeprefix(CITY))
        a = Atk(sol.ref, target, seat, kind, dmg, False, no_save=no_save,
                tgroup=owner if owner is not None else -1)  # fmt: skip
    else:
        a = soldier_atk(s, seat, sol, target)
    ops: list[tuple[object, ...]] = [("atk", a)]
    if c.has("rally"):
        ops.append(("rally", seat, target))
    push(s, *ops, ("after_action",), ("command_next", seat))


cw_prompt("order", "CH-COMMAND-2", _order_legal, _order_answer)


@cw_op("rally_one")
def _rally_one(s: State, seat: int, uid: int, target: str) -> None:
    """CH-SOLDIER-14 with a city as 号令's one target (CW-SIEGE-5)."""
    if not is_city(target):
        OPS["rally_one"](s, seat, uid, target)
        return
    sol = s.unit(f"s{uid}")
    city = target.removeprefix(CITY)
    if not isinstance(sol, Soldier) or group_city(s) != city:
        return
    if not soldier_reaches(s, seat, sol, city):
        return
    sol.attacks += 1
    kind, dmg, _, no_save = city_profile(s, seat, sol)
    owner = war_of(s).owner(city)
    a = Atk(sol.ref, target, seat, kind, dmg, False, no_save=no_save,
            tgroup=owner if owner is not None else -1)  # fmt: skip
    push(s, ("atk", a))


def concede(s: State, seat: int) -> None:
    """CW-WIN-4: every city into the empty area, out at once; a question asked of the
    conceding player is withdrawn."""
    w = war_of(s)
    log(s, "concede", f"{s.hero_name(seat)} 认输")
    w.concede(seat)
    if s.prompt is not None and s.prompt.seat == seat:
        s.prompt = None
    sync(s)
    if s.stage != "over" and s.prompt is None and not s.stack:
        push(s, ("next_turn",))
