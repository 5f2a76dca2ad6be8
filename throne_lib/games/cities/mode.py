"""城池战's layer on a castle ``State``: its op and prompt registries, the
:class:`CitiesMode` (``State.mode``) holding the :class:`~throne_lib.games.cities.war.CityWar`,
the piles a seat draws from, and :func:`sync`, which writes the war's notes into the 战报
and carries out what they mean (players out leave, the end)."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from throne_lib.games.castle.core import (
    PROMPTS,
    AnswerFn,
    LegalFn,
    OpFn,
    discard_pile,
    log,
    names,
    push,
)
from throne_lib.games.castle.death import end_game, leave_play
from throne_lib.games.castle.state import Soldier, State
from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.war import CityWar
from throne_lib.kit.protocol import DRAW

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
        team = f"队伍{w.teams[winners[0]] + 1}" if winners else DRAW
        end_game(s, list(w.result), w.end_rule, end_text(s, w), team)


def end_text(s: State, w: CityWar) -> str:
    """What ended the match, for the 战报 (CW-WIN): the winning team with its heroes
    (CW-WIN-1/2, or most cities at the round limit, CW-WIN-6); at the round limit the
    teams that tied, the others losing (CW-WIN-6); or nobody, every player being out
    at once (CW-WIN-2 with no team left: every seat lost, which is no draw)."""
    assert w.result is not None

    def teams(won: bool) -> str:
        seats = [q for q, r in enumerate(w.result or ()) if (r > 0 if won else r == 0)]
        order = sorted({w.teams[q] for q in seats})
        return "、".join(
            f"队伍{t + 1}（{'、'.join(s.hero_name(q) for q in seats if w.teams[q] == t)}）"
            for t in order
        )

    limit = mode(s).rules.max_rounds
    when = f"第{limit}轮结束，" if w.end_rule == "CW-WIN-6" else ""
    if any(r > 0 for r in w.result):
        return f"{when}{teams(True)} 获胜"
    if any(r == 0 for r in w.result):
        rest = "，其余队伍落败" if any(r < 0 for r in w.result) else ""
        return f"{when}{teams(False)} 平局{rest}"
    return f"{when}所有玩家出局，无人获胜"


def _exit(s: State, q: int) -> None:
    """CW-WIN-5: the hero, hand, equipment and piles leave the game; allies may take its
    soldiers within leadership (CH-DEATH-9), the rest die (CH-DEATH-10). With shared
    piles only its hand and equipment leave; the piles are everyone's."""
    w = war_of(s)
    p = s.players[q]
    leave_play(p)
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
