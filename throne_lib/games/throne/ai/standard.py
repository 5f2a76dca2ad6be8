"""The seed's AI (R-AI-1, R-AI-2): a scripted player that follows a fixed order.

Each turn it goes through the stages summon → play cards → build → skills →
attack → extra summon → shuffle → move (R-AI-1) and never goes back to an
earlier stage (except that after buying 加派 it summons again, which is part
of the extra-summon stage). Within a stage it picks the best legal action by a
heuristic or by trying it on a copy of the state and scoring the result
(:mod:`throne_lib.games.throne.ai.evaluate`); when a stage has nothing worth doing it moves
on, and after the move stage it ends the turn.

R-AI-2: it uses its generals' skills, attacks production camps first, repairs
a barracks below ``repair_below`` of its durability, spends leftover mana on
加派, places peasants in the back row or on the sides, feeds barracks cards to
its production camp, and builds goblin buildings with its artisans.

The agent keeps no state between calls: the stage comes from this turn's part
of ``match.history``, so it is deterministic in the position.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.ai.evaluate import (
    DEFAULT_WEIGHTS,
    Weights,
    edge_bonus,
    evaluate,
    forwardness,
    try_action,
    unit_value,
)
from throne_lib.games.throne.cards import Card
from throne_lib.games.throne.engine import Engine
from throne_lib.games.throne.match import Match
from throne_lib.games.throne.state import (
    BARRACKS,
    CAPTAIN,
    MAIN,
    OPEN_FOUND,
    OPEN_REPLACE,
    THRONE,
    Unit,
)

STAGES = ("summon", "play", "build", "skill", "attack", "extra", "shuffle", "move")
KIND_STAGE = {
    "summon": 0,
    "captain": 0,
    "pick": 0,
    "cancel": 0,
    "play": 1,
    "build": 2,
    "skill": 3,
    "attack": 4,
    "extra": 5,
    "shuffle": 6,
    "move": 7,
}
SUMMON_KINDS = frozenset({"summon", "captain", "pick", "cancel"})
TURN_BOUNDARY = frozenset({"end", "keep", "replace", "found"})
EXTRA = STAGES.index("extra")


def turn_actions(match: Match) -> list[Action]:
    """The actions already taken in the current turn (oldest first)."""
    out: list[Action] = []
    for a in reversed(match.history):
        if a.kind in TURN_BOUNDARY:
            break
        out.append(a)
    out.reverse()
    return out


def stage_of(actions: Sequence[Action]) -> int:
    """The R-AI-1 stage reached by a turn's actions so far."""
    stage = 0
    for a in actions:
        s = KIND_STAGE.get(a.kind, 0)
        if a.kind in SUMMON_KINDS and stage >= EXTRA:
            s = EXTRA  # summoning with a bought 加派 belongs to the extra stage
        stage = max(stage, s)
    return stage


def card_value(card: Card, w: Weights = DEFAULT_WEIGHTS) -> float:
    """Rough worth of a unit card, from its printed stats and keywords."""
    v = w.attack * card.attack + w.hp * card.hp + w.armor * card.kw("armor")
    v += w.peasant * card.kw("peasant")
    v += w.keyword * sum(1 for k, _ in card.keywords if k not in ("armor", "peasant"))
    v += 3.0 * len(card.effects)
    return v


class StandardAgent:
    """R-AI-1/R-AI-2 scripted AI. Deterministic; ``seed`` only breaks exact ties."""

    name = "standard"

    def __init__(
        self,
        seed: int = 0,
        weights: Weights = DEFAULT_WEIGHTS,
        repair_below: float = 0.5,
        max_barracks: int = 4,
        attack_margin: float = 0.0,
        spell_margin: float = 0.5,
        trials: int = 6,
    ) -> None:
        self.rng = random.Random(seed)
        self.w = weights
        self.repair_below = repair_below
        self.max_barracks = max_barracks
        self.attack_margin = attack_margin
        self.spell_margin = spell_margin
        self.trials = trials  # most actions tried on a copy per decision

    # --- entry point --------------------------------------------------------------

    def choose(self, match: Match) -> Action:
        legal = match.legal_actions()
        phase = match.phase
        if phase == OPEN_REPLACE:
            return self._replace(match, legal)
        if phase == OPEN_FOUND:
            return self._found(match, legal)
        if phase == CAPTAIN:
            return self._pick(match, legal)
        if phase != MAIN or len(legal) == 1:
            return legal[-1]
        for stage in range(self.stage(match), len(STAGES)):
            action = self.stage_action(match, stage, legal)
            if action is not None:
                return action
        return legal.of_kind("end")[0]

    def stage(self, match: Match) -> int:
        return stage_of(turn_actions(match))

    def stage_action(self, match: Match, stage: int, legal: Sequence[Action]) -> Action | None:
        """The best action of one R-AI-1 stage, or None when the stage is done."""
        name = STAGES[stage]
        if name == "summon":
            return self._summon(match, legal, reserve=self._reserve(match))
        if name == "play":
            return self._play(match, legal)
        if name == "build":
            return self._build(match, legal)
        if name == "skill":
            return self._best_by_trial(match, [a for a in legal if a.kind == "skill"], 0.0)
        if name == "attack":
            return self._attack(match, legal)
        if name == "extra":
            return self._extra(match, legal)
        if name == "shuffle":
            return self._shuffle(match, legal)
        return self._move(match, legal)

    # --- opening (R-OPEN-2, R-OPEN-3) ------------------------------------------------

    def _replace(self, match: Match, legal: Sequence[Action]) -> Action:
        """Swap expensive spells for barracks cards (they repair and upgrade camps)."""
        db = match.db
        for a in legal:
            if a.kind == "replace" and db[a.card].kind == "spell" and db[a.card].cost >= 3:
                return a
        return legal[-1]  # keep

    def _found(self, match: Match, legal: Sequence[Action]) -> Action:
        """Production camp first (back row, a side column), then military barracks in front."""
        eng = match.eng
        side = match.turn
        db = match.db
        s = match.state.sides[side]
        race = s.race
        have_camp = any(db[c].is_production for c in s.founded)

        def card_score(cid: str) -> float:
            c = db[cid]
            own = 2.0 if c.race == race else 0.0
            if c.is_production:
                return (20.0 if not have_camp else -10.0) + own
            return 10.0 + own + c.kw("summons") + 0.2 * c.hp - (3.0 if cid in s.founded else 0.0)

        def cell_score(cid: str, cell: int) -> float:
            f = forwardness(eng, side, cell)
            if db[cid].is_production:
                return -2.0 * f + edge_bonus(eng, cell)
            col = eng.geo.col(cell)
            centre = abs(col - eng.geo.columns // 2)
            return 1.5 * f - 0.5 * abs(centre - 2)

        found = [a for a in legal if a.kind == "found"]
        if not found:
            return legal[-1]
        best = max(found, key=lambda a: (card_score(a.card), cell_score(a.card, a.target)))
        return best

    # --- summon (stage 0 and after 加派) ----------------------------------------------

    def _reserve(self, match: Match) -> int:
        """Mana kept for the hand: the cost of the dearest minion/general card we can pay."""
        s = match.state.sides[match.turn]
        db = match.db
        best = 0
        for cid in s.hand:
            c = db[cid]
            if c.kind in ("minion", "general") and c.cost <= s.mana:
                best = max(best, c.cost)
        return best

    def _summon_value(self, match: Match, card: Card) -> float:
        v = card_value(card, self.w)
        if card.kw("peasant"):
            left = match.rules.round_limit - match.round
            v += 6.0 if left > 12 else -4.0
        return v / (1.0 + 0.15 * card.cost)

    def _summon(
        self, match: Match, legal: Sequence[Action], reserve: int, bought_only: bool = False
    ) -> Action | None:
        """The best soldier or captain summon; ``bought_only`` limits it to barracks that
        bought 加派 this turn (the extra-summon stage, R-AI-1)."""
        eng = match.eng
        side = match.turn
        st = match.state
        mana = st.sides[side].mana
        best: Action | None = None
        best_key = (-1e9, -1e9)
        values: dict[str, float] = {}  # one soldier card is offered on several cells
        for a in legal:
            if bought_only and a.kind in ("summon", "captain"):
                b = st.board[a.cell]
                if b is None or b.summons_bought == 0:
                    continue
            if a.kind == "summon":
                card = match.db[a.card]
                if card.kw("peasant") == 0 and mana - card.cost < reserve:
                    continue
                value = values.get(a.card)
                if value is None:
                    value = values[a.card] = self._summon_value(match, card)
                key = (value, self._place_score(eng, side, card, a.target))
            elif a.kind == "captain":
                b = match.state.board[a.cell]
                assert b is not None
                pool = b.offer or tuple(eng.captain_pool(b))
                costs = [match.db[c].cost for c in pool if match.db[c].cost <= mana]
                if not costs or mana - min(costs) < reserve:
                    continue
                vals = [self._summon_value(match, match.db[c]) for c in pool]
                key = (sum(vals) / len(vals) + 0.5, 0.0)
            else:
                continue
            if key > best_key:
                best, best_key = a, key
        return best

    def _pick(self, match: Match, legal: Sequence[Action]) -> Action:
        eng = match.eng
        side = match.turn
        picks = [a for a in legal if a.kind == "pick"]
        if not picks:
            return legal[-1]  # cancel
        return max(
            picks,
            key=lambda a: (
                self._summon_value(match, match.db[a.card]),
                self._place_score(eng, side, match.db[a.card], a.target),
            ),
        )

    def _place_score(self, eng: Engine, side: int, card: Card, cell: int) -> float:
        """Peasants go to the back row or the sides (R-AI-2); fighters go forward."""
        f = forwardness(eng, side, cell)
        if card.kw("peasant"):
            return -2.0 * f + edge_bonus(eng, cell)
        if card.kw("taunt"):
            throne = eng.geo.throne_cell(side)
            return 1.0 * f - 0.5 * abs(eng.geo.col(cell) - eng.geo.col(throne))
        centre = abs(eng.geo.col(cell) - eng.geo.columns // 2)
        return 1.0 * f - 0.2 * centre

    # --- play cards (stage 1) -----------------------------------------------------

    def _play(self, match: Match, legal: Sequence[Action]) -> Action | None:
        plays = [a for a in legal if a.kind == "play"]
        if not plays:
            return None
        db = match.db
        eng = match.eng
        side = match.turn
        best: Action | None = None
        best_score = 0.0
        spells: list[Action] = []
        for a in plays:
            card = db[a.card]
            if card.kind == "spell":
                spells.append(a)
                continue
            if card.kind == BARRACKS:
                score = self._barracks_play_score(match, a)
            else:  # minion or vice general
                score = card_value(card, self.w) + 0.3 * self._place_score(
                    eng, side, card, a.target
                )
            if score > best_score:
                best, best_score = a, score
        if best is not None and db[best.card].kind == BARRACKS and best_score >= 50:
            return best  # a repair comes first (R-AI-2)
        spell = self._best_by_trial(match, spells, self.spell_margin)
        if spell is not None:
            return spell
        return best

    def _barracks_play_score(self, match: Match, a: Action) -> float:
        """R-AI-2 / R-BARRACKS-6: repair low barracks, feed the production camp, upgrade,
        else found a new barracks while there are few."""
        st = match.state
        side = match.turn
        u = st.board[a.target]
        if u is not None:
            if u.hp < self.repair_below * u.max_hp:
                return 50.0 + (u.max_hp - u.hp)
            if u.level >= match.rules.max_barracks_level:
                return 0.5 + (u.max_hp - u.hp) * 0.1
            if match.db[u.card].is_production:
                return 30.0 - u.level
            return 20.0 - u.level + 0.1 * (u.max_hp - u.hp)
        count = sum(1 for v in st.board if v is not None and v.side == side and v.kind == BARRACKS)
        if count >= self.max_barracks:
            return 0.0
        f = forwardness(match.eng, side, a.target)
        return 15.0 + (1.0 if f == 1 else 0.0) + edge_bonus(match.eng, a.target) * 0.1

    # --- build (stage 2), goblin artisans (R-GOBLIN-2) ------------------------------------

    def _build(self, match: Match, legal: Sequence[Action]) -> Action | None:
        best: Action | None = None
        best_v = 0.0
        st = match.state
        for a in legal:
            if a.kind != "build":
                continue
            artisan = st.board[a.cell]
            assert artisan is not None
            v = card_value(match.db[a.card], self.w) - unit_value(match.db, st, artisan, self.w)
            if v > best_v:
                best, best_v = a, v
        return best

    # --- attack (stage 4) ---------------------------------------------------------

    def _attack(self, match: Match, legal: Sequence[Action]) -> Action | None:
        """Try the most promising attacks on enemies on a copy; production camps get a
        bonus (R-AI-2)."""
        st = match.state
        side = match.turn
        attacks = []
        for a in legal:
            if a.kind == "attack":
                target = st.board[a.target]
                # friendly fire (R-UNIT-4) is never worth it for this AI
                if target is not None and target.side != side:
                    attacks.append(a)
        return self._best_by_trial(match, attacks, self.attack_margin)

    def _best_by_trial(
        self, match: Match, actions: Sequence[Action], margin: float
    ) -> Action | None:
        """The action whose trial on a copy improves :func:`evaluate` most (above
        ``margin``), among the ``trials`` most promising by :meth:`_promise`."""
        if not actions:
            return None
        side = match.turn
        db = match.db
        st = match.state
        if len(actions) > self.trials:
            ranked = sorted(actions, key=lambda a: -self._promise(match, a))
            actions = ranked[: self.trials]
        base = evaluate(match.eng, side, self.w)
        best: Action | None = None
        best_score = margin
        for a in actions:
            score = evaluate(try_action(match, a), side, self.w) - base
            target = st.board[a.target] if a.target >= 0 else None
            if (
                a.kind == "attack"
                and target is not None
                and target.kind == BARRACKS
                and db[target.card].is_production
            ):
                score += 3.0  # R-AI-2: production camps first
            if score > best_score:
                best, best_score = a, score
        return best

    def _promise(self, match: Match, a: Action) -> float:
        """A cheap guess of how good an action is, to choose which ones to try."""
        st = match.state
        side = match.turn
        target = st.board[a.target] if a.target >= 0 else None
        if target is None:
            return 0.0
        if target.kind == THRONE:
            return 100.0 if target.side != side else 5.0
        value = unit_value(match.db, st, target, self.w)
        if target.side == side:
            return 0.5 * value + 2.0 * (target.max_hp - target.hp)
        if a.kind == "attack":
            att = st.board[a.cell]
            power = att.attack if att is not None else 0
            toughness = target.hp + target.armor + (power if target.shield else 0)
            return value * min(1.0, power / max(1, toughness)) + (8.0 if power >= toughness else 0)
        return value - 0.5 * target.hp

    # --- extra summon (stage 5), shuffle (6), move (7) ----------------------------------

    def _extra(self, match: Match, legal: Sequence[Action]) -> Action | None:
        """Leftover mana goes to 加派 on loaded barracks (R-AI-2, R-BARRACKS-10)."""
        summon = self._summon(match, legal, reserve=0, bought_only=True)
        if summon is not None:
            return summon
        mana = match.state.sides[match.turn].mana
        for a in legal:
            if a.kind != "extra":
                continue
            b = match.state.board[a.cell]
            assert b is not None
            tiers = match.db[b.card].tiers[: b.level]
            cheapest = min((match.db[t].cost for t in tiers), default=99)
            if mana - match.rules.extra_summon_cost >= cheapest:
                return a
        return None

    def _shuffle(self, match: Match, legal: Sequence[Action]) -> Action | None:
        s = match.state.sides[match.turn]
        if len(s.deck) >= 3 or len(s.grave) < 4 or len(s.hand) > 3:
            return None
        return next((a for a in legal if a.kind == "shuffle"), None)

    def _move(self, match: Match, legal: Sequence[Action]) -> Action | None:
        eng = match.eng
        st = match.state
        side = match.turn
        targets = [
            (u.cell, self._target_weight(match, u))
            for u in st.board
            if u is not None and u.side != side
        ]
        if not targets:
            return None
        best: Action | None = None
        best_gain = 0.05
        here: dict[int, float] = {}  # the pull where each unit stands, once per unit
        for a in legal:
            if a.kind != "move":
                continue
            u = st.board[a.cell]
            assert u is not None
            if u.kind == THRONE or u.peasant or u.attack <= 0:
                continue
            if a.cell not in here:
                here[a.cell] = self._pull(eng, u, a.cell, targets)
            gain = self._pull(eng, u, a.target, targets) - here[a.cell]
            if gain > best_gain:
                best, best_gain = a, gain
        return best

    def _target_weight(self, match: Match, u: Unit) -> float:
        if u.kind == THRONE:
            return 1.6
        if u.kind == BARRACKS:
            return 1.4 if match.db[u.card].is_production else 1.0
        return 0.9 + 0.02 * u.attack

    @staticmethod
    def _pull(eng: Engine, u: Unit, cell: int, targets: list[tuple[int, float]]) -> float:
        dist = eng.geo.dist[cell]
        return max(w / (1.0 + max(0, dist[t] - u.range)) for t, w in targets)
