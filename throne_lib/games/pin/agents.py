"""PIN agents (PIN-AI-*): random and the rulebook's scripted AI.

Both choose only among ``match.legal_actions()`` and read ``match.observation(seat)``;
the scripted AI tries actions on ``match.resample(seat, rng)`` copies (which redraw
everything hidden from it) and asks the rules for attack previews. Effort is bounded by
counts, never by the clock; the agent's RNG is seeded.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import InitVar, dataclass, field
from typing import Any

from throne_lib.games.pin import combat
from throne_lib.games.pin.actions import PinAction
from throne_lib.games.pin.hexes import HQ_CELLS, label
from throne_lib.games.pin.match import PinMatch
from throne_lib.games.pin.state import parse_ref
from throne_lib.kit.random_agent import RandomAgent as KitRandomAgent

Obs = dict[str, Any]


class RandomAgent(KitRandomAgent):
    """PIN-AI-2: uniform among the legal actions; ends its turn (the last legal action)
    only when nothing else is legal or with a small fixed chance per choice: the kit's
    random agent, with the rulebook's name for that chance."""

    def __init__(self, seed: int = 0, end_chance: float = 0.05) -> None:
        super().__init__(seed, end_weight=end_chance)


def settle(sim: PinMatch, limit: int = 50) -> None:
    """Finish a resolution on a copy: pass windows, take the first offered choice."""
    for _ in range(limit):
        d = sim.state.pending
        if sim.is_over or d is None or d.kind == "draw":
            return
        acts = sim.legal_actions()
        sim.apply(acts[-1] if d.kind == "window" else acts[0])


@dataclass(eq=False)
class ScriptedAgent:
    """The standard AI of PIN-AI-3…6: ``ScriptedAgent(seed, command_margin=…)``; ``seed``
    seeds the RNG of the copies it tries actions on, the other fields tune its choices."""

    name = "standard"

    seed: InitVar[int] = 0
    command_margin: int = 2
    targets_per_card: int = 2
    special_margin: float = 5.0
    rng: random.Random = field(init=False, repr=False)
    # the actions found useless on the board last seen (forgotten when the board changes)
    _board: tuple[Any, ...] = field(init=False, repr=False, default=())
    _rejected: set[PinAction] = field(init=False, repr=False, default_factory=set)

    def __post_init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    # --- entry -------------------------------------------------------------------
    def choose(self, match: PinMatch) -> PinAction:
        actions = match.legal_actions()
        if len(actions) == 1:
            return actions[0]
        seat = match.current_seat
        obs = dict(match.observation(seat))
        kind = obs["pending"]["kind"] if obs["pending"] else "action"
        handler = getattr(self, "_" + kind)
        choice: PinAction = handler(match, seat, obs, actions)
        return choice

    # --- decisions (PIN-AI-3) ----------------------------------------------------------
    def _mulligan(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction:
        away = sorted(c for c in obs["hand"] if m.db[c].cost > 4)
        want = "+".join(away) or "-"
        return next((a for a in acts if a.args[0] == want), acts[0])

    def _reveal(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction:
        return max(acts, key=lambda a: (m.db[a.args[0]].cost, a.args[0]))

    def _draw(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction:
        ok = len(obs["hand"]) <= 6 and obs["cp"][seat] >= 6
        return PinAction("draw") if ok else PinAction("skip")

    def _window(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction:
        """Play a counter that prevents ≥ 15 damage or destroys a unit."""
        base = self._outcome(m, seat, acts[-1])
        best, best_gain = acts[-1], 0.0
        for a in acts[:-1]:
            own_hp, enemy_units = self._outcome(m, seat, a)
            prevented = own_hp - base[0]
            kills = base[1] - enemy_units
            if prevented >= 15 or kills > 0:
                gain = prevented + 10 * kills
                if gain > best_gain:
                    best, best_gain = a, gain
        return best

    def _outcome(self, m: PinMatch, seat: int, a: PinAction) -> tuple[int, int]:
        sim = m.resample(seat, self.rng)
        sim.apply(a)
        settle(sim)
        st = sim.state
        own = sum(u.hp for u in st.units.values() if u.side == seat)
        return own, sum(1 for u in sim.units() if u.side != seat)

    def _retreat(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction:
        uid = obs["pending"]["uid"]
        u = next(v for v in obs["units"] if v["ref"] == acts[0].args[0])
        assert u is not None and uid
        home = next((a for a in acts if a.args[1] == "hand"), None)
        if home is not None and u["hp"] * 2 <= u["max_hp"]:
            return home
        cells = [a for a in acts if a.args[1] != "hand"]
        if not cells:
            return acts[0]
        return min(
            cells, key=lambda a: (m.board.distance(int(a.args[1]), HQ_CELLS[seat]), a.args[1])
        )

    def _target(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction:
        return max(acts, key=lambda a: self._delta(m, seat, a))

    # --- the turn (PIN-AI-4) -----------------------------------------------------------
    def _action(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction:
        reserve = min((m.db[c].cost for c in obs["hand"] if m.db[c].kind == "反制"), default=0)
        cp = obs["cp"][seat]
        lethal = self._lethal(m, seat, obs, acts)
        if lethal is not None:
            return lethal
        play = self._command(m, seat, obs, acts, cp - reserve)
        if play is not None:
            return play
        deploy = self._deploy(m, seat, obs, acts, cp - reserve - self._upkeep(m, seat, obs))
        if deploy is not None:
            return deploy
        for a in self._unit_order(m, seat, obs):
            step = self._use_unit(m, seat, obs, acts, a, cp - reserve)
            if step is not None:
                return step
        return PinAction("end")

    def _command(
        self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction], budget: int
    ) -> PinAction | None:
        """Commands worth their cost: tried on a copy, played when the evaluation gains
        more than ``command_margin`` × cost. A few targets per card (the costliest enemy
        units first); a rejected try is not repeated while the board stays the same."""
        plays = [a for a in acts if a.kind == "play" and m.db[a.args[0]].cost <= budget]
        if not plays:
            return None
        board = (
            m.state.turn,
            tuple((u["ref"], u["hp"]) for u in obs["units"] if u["side"] != seat),
            sum(1 for u in obs["units"] if u["side"] == seat),
        )
        if board != self._board:
            self._board, self._rejected = board, set()

        def rank(a: PinAction) -> tuple[int, str]:
            t = a.args[1]
            if t.startswith("u"):
                return (-m.card(m.state.units[parse_ref(t)]).cost, t)
            return (0, t)

        tried: Counter[str] = Counter()
        best, best_value = None, 0.0
        for a in sorted(plays, key=rank):
            if a in self._rejected or tried[a.args[0]] >= self.targets_per_card:
                continue
            tried[a.args[0]] += 1
            value = self._delta(m, seat, a) - self.command_margin * m.db[a.args[0]].cost
            if value > best_value:
                best, best_value = a, value
            else:
                self._rejected.add(a)
        return best

    def _lethal(self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction]) -> PinAction | None:
        """If this turn's attacks can bring the enemy HQ down, attack it with all."""
        hq = m.state.units[1 - seat]
        bound = 0
        for u in m.units():
            if u.side == seat and combat.can_target(m, u, hq):
                left = u.actions if u.activated else m.card(u).actions
                bound += m.attack(u) * left
        if bound < hq.hp:
            return None
        sim = m.resample(seat, self.rng)
        first: PinAction | None = None
        for _ in range(40):
            if sim.is_over or sim.state.pending is not None or sim.state.active != seat:
                break
            legal = sim.legal_actions()
            hits = [a for a in legal if a.kind == "attack" and a.args[1] == f"hq{1 - seat}"]
            pick: PinAction | None
            if hits:
                pick = max(hits, key=lambda x: self._hq_damage(sim, x))
            else:
                pick = next(
                    (x for x in legal if x.kind == "activate" and self._can_hit_hq(sim, x)), None
                )
                if pick is None:
                    break
            first = first or pick
            sim.apply(pick)
            settle(sim)
        if sim.is_over and sim.state.winner == seat:
            return first
        return None

    def _can_hit_hq(self, sim: PinMatch, a: PinAction) -> bool:
        u = sim.state.units[parse_ref(a.args[0])]
        return combat.can_target(sim, u, sim.state.units[1 - u.side]) and sim.attack(u) > 0

    def _hq_damage(self, sim: PinMatch, a: PinAction) -> int:
        p = combat.preview(sim, parse_ref(a.args[0]), parse_ref(a.args[1]), a.args[2])
        return p["main"].hp_loss if p["main"] is not None else 0

    def _upkeep(self, m: PinMatch, seat: int, obs: Obs) -> int:
        """CP kept for activating board units that have a target now."""
        need = 0
        for u in obs["units"]:
            if u["side"] == seat and not u["activated"]:
                unit = m.state.units[parse_ref(u["ref"])]
                c = m.card(unit)
                if any(
                    combat.can_target(m, unit, t) for t in m.state.units.values() if t.side != seat
                ):
                    need += c.action_cost
        return need

    def _deploy(
        self, m: PinMatch, seat: int, obs: Obs, acts: list[PinAction], budget: int
    ) -> PinAction | None:
        """PIN-AI-6: the most expensive affordable unit into the non-full support cell
        nearest the front; a 守护 unit into the HQ cell first when enemies come close."""
        deploys = [a for a in acts if a.kind == "deploy" and m.db[a.args[0]].cost <= budget]
        if not deploys:
            return None
        slots = obs["slots"]
        home = label(HQ_CELLS[seat])
        threat = any(
            u["side"] != seat and m.board.distance(u["cell"], HQ_CELLS[seat]) <= 2
            for u in obs["units"]
        )
        if threat and len(slots.get(home, [])) < m.rules.slots_per_cell:
            guards = [a for a in deploys if a.args[1] == home and m.db[a.args[0]].kw("guard")]
            if guards:
                return max(guards, key=lambda a: (m.db[a.args[0]].cost, a.args[0]))
        free = [a for a in deploys if len(slots.get(a.args[1], [])) < m.rules.slots_per_cell]
        if not free:
            return None
        enemy_hq = HQ_CELLS[1 - seat]
        return min(
            free,
            key=lambda a: (
                -m.db[a.args[0]].cost,
                m.board.distance(int(a.args[1]), enemy_hq),
                a.args[0],
                a.args[1],
            ),
        )

    def _unit_order(self, m: PinMatch, seat: int, obs: Obs) -> list[dict[str, Any]]:
        """Artillery and bombers first (PIN-AI-4)."""
        own = [u for u in obs["units"] if u["side"] == seat]
        first = {"炮兵", "轰炸机"}
        return sorted(own, key=lambda u: (not (set(m.db[u["card"]].types) & first), u["cell"]))

    def _use_unit(
        self,
        m: PinMatch,
        seat: int,
        obs: Obs,
        acts: list[PinAction],
        u: dict[str, Any],
        budget: int,
    ) -> PinAction | None:
        who = u["ref"]
        mine = [a for a in acts if a.args and a.args[0] == who]
        attacks = [a for a in mine if a.kind == "attack"]
        best: PinAction | None = None
        if attacks:
            score, pick = max(((self._attack_score(m, a), a) for a in attacks), key=lambda s: s[0])
            if score > 0:
                best = pick
        special = self._special(m, seat, [a for a in mine if a.kind == "special"], best)
        if special is not None:
            return special
        if best is not None:
            return best
        moves = [a for a in mine if a.kind == "move"]
        if moves:
            step = self._move(m, seat, u, moves)
            if step is not None:
                return step
        act = next((a for a in mine if a.kind == "activate"), None)
        if act is not None and m.card(m.state.units[parse_ref(who)]).action_cost <= budget:
            unit = m.state.units[parse_ref(who)]
            foes = [t for t in m.state.units.values() if t.side != seat]
            can_hit = any(combat.can_target(m, unit, t) for t in foes) and m.attack(unit) > 0
            far = m.board.distance(unit.cell, HQ_CELLS[1 - seat]) > 0
            if can_hit or (far and not unit.stopped and "炮兵" not in m.card(unit).types):
                return act
            if self._special_after(m, seat, act):
                return act
        return None

    def _special(
        self, m: PinMatch, seat: int, specials: list[PinAction], attack: PinAction | None
    ) -> PinAction | None:
        """PIN-KW-5: a unit's 特殊 action, tried on a copy like a command, when the
        evaluation gains more from it than from the unit's best attack (or, without
        one, more than ``special_margin``)."""
        if not specials:
            return None
        tried = sorted(specials, key=lambda a: a.args[1])[: self.targets_per_card * 2]
        value, pick = max(((self._delta(m, seat, a), a) for a in tried), key=lambda v: v[0])
        floor = float(self.special_margin)
        if attack is not None:
            floor = max(floor, self._delta(m, seat, attack))
        return pick if value > floor else None

    def _special_after(self, m: PinMatch, seat: int, act: PinAction) -> bool:
        """Whether activating this unit opens a 特殊 action worth using (asked of the
        rules on a copy: the legal actions after the activation)."""
        unit = m.state.units[parse_ref(act.args[0])]
        if not m.card(unit).clauses("special"):
            return False
        sim = m.resample(seat, self.rng)
        sim.apply(act)
        settle(sim)
        if sim.is_over or sim.state.pending is not None or sim.state.active != seat:
            return False
        specials = [
            a for a in sim.legal_actions() if a.kind == "special" and a.args[0] == act.args[0]
        ]
        return self._special(sim, seat, specials, None) is not None

    def _attack_score(self, m: PinMatch, a: PinAction) -> float:
        """PIN-AI-5: damage to units (capped) + 10 × cost per kill + 1.5 × HQ damage
        − damage taken − 10 × own cost if the attacker dies."""
        uid, tid = parse_ref(a.args[0]), parse_ref(a.args[1])
        p = combat.preview(m, uid, tid, a.args[2])
        st = m.state
        att, tgt = st.units[uid], st.units[tid]
        score = 0.0
        hits = [(tgt, p["main"])] + [(st.units[o], h) for o, h in p["splash"]]
        for t, h in hits:
            if h is None:
                continue
            if t.is_hq:
                score += 1.5 * h.hp_loss
            else:
                score += min(h.hp_loss, t.hp)
                if h.hp_loss >= t.hp:
                    score += 10 * m.card(t).cost
        back = p["counter"]
        if back is not None:
            score -= min(back.hp_loss, att.hp)
            if back.hp_loss >= att.hp:
                score -= 10 * m.card(att).cost
        return score

    def _move(
        self, m: PinMatch, seat: int, u: dict[str, Any], moves: list[PinAction]
    ) -> PinAction | None:
        """PIN-AI-6: toward the enemy HQ by shortest paths, preferring cells from which a
        remaining action can attack."""
        unit = m.state.units[parse_ref(u["ref"])]
        goal = HQ_CELLS[1 - seat]
        here = m.board.distance(unit.cell, goal)
        rng = m.card(unit).range
        foes = [t for t in m.state.units.values() if t.side != seat]

        def key(a: PinAction) -> tuple[int, int, str]:
            cell = int(a.args[1])
            can = unit.actions > 1 and any(m.board.distance(cell, t.cell) <= rng for t in foes)
            return (0 if can else 1, m.board.distance(cell, goal), a.args[1])

        best = min(moves, key=key)
        if key(best)[0] == 0 or m.board.distance(int(best.args[1]), goal) < here:
            return best
        return None

    # --- simulation ---------------------------------------------------------------------
    def _delta(self, m: PinMatch, seat: int, a: PinAction) -> float:
        """Evaluation change when ``a`` is tried on a determinized copy."""
        sim = m.resample(seat, self.rng)
        before = evaluate(sim, seat)
        sim.apply(a)
        settle(sim)
        return evaluate(sim, seat) - before


def evaluate(m: PinMatch, seat: int) -> float:
    """A simple material count from ``seat``'s point of view (for the scripted AI)."""
    st = m.state
    if st.phase == "over":
        return 10_000.0 if st.winner == seat else -10_000.0
    score = 1.5 * (st.units[seat].hp - st.units[1 - seat].hp)
    for u in m.units():
        c = m.card(u)
        worth = u.hp + 5 * c.cost + m.attack(u) + u.shield + u.mshield + 10 * u.ward
        score += worth if u.side == seat else -worth
    score += 3 * (len(st.hands[seat]) - len(st.hands[1 - seat]))
    score += 2 * st.cp[seat] + 4 * st.cp_max[seat]
    return score


def make_pin_agent(name: str, seed: int = 0, **params: Any) -> RandomAgent | ScriptedAgent:
    if name == "random":
        return RandomAgent(seed, **params)
    if name in ("standard", "scripted"):
        return ScriptedAgent(seed, **params)
    raise ValueError(f"unknown PIN agent {name!r}; known: random, standard")


def play_pin(match: PinMatch, agents: tuple[Any, Any], max_actions: int = 50_000) -> PinMatch:
    """Play to the end; the round limit (PIN-TURN-7) guarantees one."""
    for _ in range(max_actions):
        if match.is_over:
            return match
        match.apply(agents[match.current_seat].choose(match))
    raise RuntimeError(f"PIN match did not end within {max_actions} actions")
