"""``CitiesMatch``: 城池战 behind the kit's match protocol, played on the 城堡之心 engine.

It is a :class:`~throne_lib.games.castle.match.CastleMatch` whose state carries the
城池战 mode (:mod:`.engine`): the castle's prompts answer every unit decision, the mode's
prompts add the city ones. ``setups`` are team labels, one per seat (``["a", "b", "a"]``:
seats 0 and 2 play together; CW-SETUP-2); ``options["rules"]`` the rule parameters
that differ from the rulebook's (JSON, for logs).

认输 (CW-WIN-4) is not one of ``legal_actions()`` — those are the current seat's moves —
but ``apply("concede N")`` accepts it from any player N still in, at any time
(``concede_anytime``), and :meth:`concede_actions` lists who may.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.cards import CastleCards
from throne_lib.games.castle.core import AnswerFn, LegalFn, discard_pile, run
from throne_lib.games.castle.events import Event
from throne_lib.games.castle.match import (
    CastleMatch,
    as_act,
    canonical,
    default_cards,
    is_repository_cards,
)
from throne_lib.games.castle.match import rules_from as castle_rules_from
from throne_lib.games.castle.match import rules_overrides as castle_overrides
from throne_lib.games.castle.rules import from_overrides, overrides
from throne_lib.games.castle.state import State
from throne_lib.games.castle.view import redeal_shared_pile
from throne_lib.games.cities.engine import (
    CW_PROMPTS,
    concede,
    draw_pile,
    mode,
    new_state,
    prompt_entry,
    round_leader,
    sweep_fallen,
    war_of,
)
from throne_lib.games.cities.rules import CitiesRules
from throne_lib.games.cities.table import CityTable, load_city_table
from throne_lib.kit.protocol import DRAW, IllegalAction, check_seat

_DEFAULT_TABLE: CityTable | None = None
_RULEBOOK = CitiesRules()


def default_table() -> CityTable:
    global _DEFAULT_TABLE
    if _DEFAULT_TABLE is None:
        _DEFAULT_TABLE = load_city_table()
    return _DEFAULT_TABLE


def team_ids(setups: Sequence[Any]) -> list[int]:
    """Team labels -> team numbers in order of first appearance (CW-SETUP-2)."""
    seen: dict[str, int] = {}
    return [seen.setdefault(str(x), len(seen)) for x in setups]


class CitiesMatch(CastleMatch):
    """One match of 城池战 for 3–8 seats (CW-SETUP-2)."""

    game = "cities"

    def __init__(
        self,
        players: int = 4,
        seed: int = 0,
        rules: CitiesRules | None = None,
        cards: CastleCards | None = None,
        table: CityTable | None = None,
        teams: Sequence[Any] | None = None,
        *,
        state: State | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        labels = [str(t) for t in teams] if teams is not None else [f"t{i}" for i in range(players)]
        if state is None:
            r = rules or CitiesRules()
            state = new_state(
                cards or default_cards(), table or default_table(), r, team_ids(labels), seed
            )
            run(state)
        # a copy or a resample passes its options on (no rules diffed per resample)
        super().__init__(state=state, options={} if options is None else options)
        self.setups = labels if len(labels) == state.n else [f"t{t}" for t in war_of(state).teams]
        if options is None:
            self.options = {"rules": rules_overrides(mode(state).rules)}
            # a log must rebuild the match with its own tables
            if not is_repository_cards(state.cards):
                self.options["cards_csv"] = state.cards.source
            city_table = war_of(state).table
            if city_table.text and city_table.hash != default_table().hash:
                self.options["cities_csv"] = city_table.text

    # --- protocol ------------------------------------------------------------------
    def prompt_entry(self, kind: str) -> tuple[LegalFn, AnswerFn, str]:
        return prompt_entry(kind)  # the mode's own prompts, else the castle's

    def apply(self, action: Act | str) -> list[Event]:
        act = as_act(action)
        s = self.state
        if self.is_over:
            raise IllegalAction(act.text(), war_of(s).end_rule or "CW-WIN-1", "the game is over")
        start = len(s.log)
        if act.kind == "concede":
            self._concede(act)
        else:
            if s.prompt is None:
                raise IllegalAction(act.text(), "CW-TURN-1", "no decision is pending")
            self.answer_prompt(act)
        run(s)
        sweep_fallen(s)
        self._legal_for = None
        self.actions.append(act)
        return s.log[start:]

    def concede_actions(self) -> list[Act]:
        """CW-WIN-4: ``concede N`` for every player N still in (any time, any seat)."""
        if self.is_over:
            return []
        w = war_of(self.state)
        seats = (
            range(self.state.n)
            if mode(self.state).rules.concede_anytime
            else [self.state.turn_seat]
        )
        return [Act("concede", (q,)) for q in seats if q >= 0 and not w.out[q]]

    def anytime_actions(self, seat: int) -> list[Act]:
        """What ``seat`` may do out of turn (a playtest page offers it): its own 认输."""
        return [a for a in self.concede_actions() if a.args[0] == seat]

    def _concede(self, act: Act) -> None:
        if act not in self.concede_actions():
            raise IllegalAction(act.text(), "CW-WIN-4", "only a player still in may concede")
        concede(self.state, int(act.args[0]))

    def copy(self) -> CitiesMatch:
        m = CitiesMatch(state=self.state.copy(), teams=self.setups, options=self.options)
        m.actions = list(self.actions)
        return m

    def hash(self) -> str:
        s = self.state
        decks = s.decks if s.decks is not None else [s.deck]
        discards = s.discards if s.discards is not None else [s.discard]
        pic: tuple[Any, ...] = (canonical(s), tuple(map(tuple, decks)), tuple(map(tuple, discards)),
               mode(s).canonical())  # fmt: skip
        if mode(s).rules != _RULEBOOK:  # other rules hash too (see CastleMatch.hash)
            pic = (*pic, repr(mode(s).rules))
        return hashlib.sha256(repr(pic).encode()).hexdigest()[:16]

    def observation(self, seat: object) -> dict[str, Any]:
        me = check_seat(seat, self.state.n, self.game)
        return add_city_view(self.state, super().observation(me), me)

    def agent_observation(self, seat: object) -> dict[str, Any]:
        """:meth:`observation` for an agent (see ``CastleMatch.agent_observation``): no
        战报, and the city part without what only a reader needs (the Chinese ability
        texts, city names, the attack preview CW-UI-4, the pile contents)."""
        me = check_seat(seat, self.state.n, self.game)
        return add_city_view(self.state, super().agent_observation(me), me, light=True)

    def public_view(self) -> dict[str, Any]:
        return add_city_view(self.state, super().public_view(), None)

    def reveal_all(self) -> dict[str, Any]:
        from throne_lib.games.castle.view import reveal_all

        s = self.state
        view = add_city_view(s, reveal_all(s), None)
        view["decks"] = [list(draw_pile(s, q)) for q in range(s.n)]
        return view

    def resample(self, seat: object, rng: random.Random) -> CitiesMatch:
        me = check_seat(seat, self.state.n, self.game)
        return CitiesMatch(
            state=resample_state(self.state, me, rng), teams=self.setups, options=self.options
        )

    def describe(self, action: Act) -> str:
        from throne_lib.games.cities.describe import describe

        return describe(self.state, action, self.prompt_kind)

    def city_invariants(self) -> list[str]:
        """CW-CITY-2 and the grain rules, as problems (empty: all hold)."""
        return war_of(self.state).invariant_problems()


def add_city_view(
    s: State, obs: dict[str, Any], seat: int | None, light: bool = False
) -> dict[str, Any]:
    """The city part of an observation and each player's piles (CW-DECK-1: counts for
    the draw piles, the discard piles face up; with shared piles every seat shows the
    shared ones). ``light`` (an agent's view): without the Chinese ability texts, the
    city names, the piles of every seat, the attack preview and what ``CityWar.view``
    leaves out when light."""
    m = mode(s)
    w = m.war
    obs["game"] = "cities"
    cv = w.view(seat, light)
    if not light:
        for st in cv["stacks"]:
            for c in st:
                c["defence_text"] = DEFENCE_ZH.get(c["id"], "")
                c["capture_text"] = CAPTURE_ZH.get(c["id"], "")
        for c in cv["empty"]:
            c["defence_text"] = DEFENCE_ZH.get(c["id"], "")
            c["capture_text"] = CAPTURE_ZH.get(c["id"], "")
        cv["names"] = {c.id: c.name for c in w.table}
    cv["starting"] = list(w.starting)
    cv["first_player"] = m.first
    cv["round_leader"] = round_leader(s)
    cv["max_rounds"] = m.rules.max_rounds
    obs["cities"] = cv
    if not light:
        obs["piles"] = [
            {"deck": len(draw_pile(s, q)), "discard": list(discard_pile(s, q))} for q in range(s.n)
        ]
    cv["deck_mode"] = m.rules.deck_mode
    obs["deck_size"] = len(draw_pile(s, seat)) if seat is not None else 0
    obs["discard"] = list(discard_pile(s, seat)) if seat is not None else []
    obs["discard_size"] = len(obs["discard"])
    pr = s.prompt
    mine = pr is not None and seat is not None and pr.seat == seat
    if not light and mine and pr is not None and seat is not None and pr.kind in ("play", "order"):
        cv["preview"] = hit_preview(s, seat, pr.kind)
    if mine and pr is not None and pr.kind in CW_PROMPTS:
        p = obs.get("prompt") or {}
        if pr.kind in ("cw_retrieve", "cw_deploy", "cw_strike"):
            p["detail"] = {"amount": pr.data[0], "city": pr.data[1]}
        if pr.kind == "cw_order":  # CW-CAPTURE-6: the cities still to order
            p["detail"] = {"cities": [c for c, _ in pr.data[0]]}
        obs["prompt"] = p
    return obs


def hit_preview(s: State, seat: int, kind: str) -> dict[str, int]:
    """CW-UI-4: what the seat's hero attack (出牌阶段) or its best soldier (指挥阶段)
    would deal each city it may attack — the engine's numbers, for the highlight."""
    from throne_lib.games.castle.combat import can_attack_now, hero_atk
    from throne_lib.games.cities.engine import city_profile

    w = war_of(s)
    p = s.players[seat]
    out: dict[str, int] = {}
    for city in w.attack_targets(seat):
        if kind == "play" and p.alive:
            base = hero_atk(s, seat, p.ref).dmg
            out[city] = w.attack_damage(seat, city, base, "sword", peek=True)
        elif kind == "order":
            best = [
                w.attack_damage(seat, city, city_profile(s, seat, x)[1], "soldier", peek=True)
                for x in p.soldiers
                if can_attack_now(s, x)
            ]
            if best:
                out[city] = max(best)
    return out


def resample_state(s: State, seat: int, rng: random.Random) -> State:
    """Everything hidden from ``seat`` redrawn: other players' hands from their own
    piles (CW-DECK-1), every draw pile's order, the RNG. Cities are all face up."""
    t = s.copy()
    if t.decks is None:  # shared piles: the others' hands and the pile, redealt
        return redeal_shared_pile(t, seat, rng)
    for q, p in enumerate(t.players):
        if q == seat:
            pool = sorted(t.decks[q])
            rng.shuffle(pool)
            t.decks[q] = pool
            continue
        keep = [c for c in p.hand if c == "conjured_mana"]
        pool = sorted(t.decks[q] + [c for c in p.hand if c != "conjured_mana"])
        rng.shuffle(pool)
        k = len(p.hand) - len(keep)
        p.hand = keep + [pool.pop() for _ in range(k)]
        p.spied = {}
        t.decks[q] = pool
    t.rng = random.Random(rng.getrandbits(64))
    return t


DEFENCE_ZH = {
    "luoyang": "摸牌阶段多摸1张牌",
    "changan": "回合开始时，若统率有空位，从兵源免费部署1名民兵",
    "xuchang": "屯田：回合开始时本城恢复2粮草（不超过上限）",
    "yecheng": "弃牌阶段手牌上限+1",
    "nanpi": "出牌阶段限一次，支付本城8粮草：任意距离一名对手士兵阵亡",
    "xiapi": "士兵对本城的攻击伤害-1",
    "hefei": "用剑抵挡对本城的攻击时，攻击者受到1点伤害",
    "jianye": "长江：每回合对本城的第一次攻击不造成伤害",
    "changsha": "你的英雄以剑攻击城池时伤害+1",
    "nanping": "回合开始时你的英雄恢复1点生命",
    "xiangyang": "对本城造成伤害的士兵随后受到1点伤害",
    "chengdu": "回合开始时你的每名士兵恢复1点生命",
}
CAPTURE_ZH = {
    "luoyang": "摸2张牌",
    "changan": "从你的墓地选1张牌加入手牌",
    "xuchang": "本城以20粮草归你（上限仍为15）",
    "yecheng": "原主人随机弃1张手牌",
    "nanpi": "从兵源免费部署1名价值≤3的士兵（自选）",
    "xiapi": "原主人的每名士兵受到1点伤害",
    "hefei": "对任意距离一名对手的英雄或士兵造成1点伤害",
    "jianye": "摸1张牌",
    "changsha": "你的英雄恢复2点生命",
    "nanping": "摸1张牌并恢复1点生命",
    "xiangyang": "你的每名士兵恢复全部生命",
    "chengdu": "你的英雄恢复全部生命",
}


def rules_overrides(rules: CitiesRules) -> dict[str, Any]:
    """The parameters that differ from the rulebook's defaults, JSON-able (for logs)."""
    return overrides(rules, {"base": castle_overrides})


def rules_from(value: CitiesRules | Mapping[str, Any] | None) -> CitiesRules:
    """A CitiesRules from itself, None (defaults) or a dict of overrides (from a log)."""
    return from_overrides(CitiesRules, value, "城池战 rules", {"base": castle_rules_from})


def winner_label(match: CitiesMatch) -> str:
    """``Game.winner_label``: the winning team's label as set up (``--teams a,b,a,b`` → ``a``;
    a player alone: ``t<seat>``), ``"draw"`` for a draw (CW-WIN-6's tie) or when nobody
    won (CW-WIN-2, every team out)."""
    w = war_of(match.state)
    won = sorted({w.teams[q] for q, r in enumerate(match.returns()) if r > 0})
    labels = [match.setups[w.teams.index(t)] for t in won]
    return "+".join(labels) if labels else DRAW
