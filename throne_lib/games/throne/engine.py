"""The rules engine: primitives that change the state and emit events, the
handlers of each action kind, and the turn flow. Legality lives in
:mod:`throne_lib.games.throne.legal`; :class:`throne_lib.games.throne.match.Match` is the public API.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import Geometry, geometry
from throne_lib.games.throne.cards import Card, CardDB
from throne_lib.games.throne.effects import Ctx, run_clause
from throne_lib.games.throne.rules import Rules
from throne_lib.games.throne.state import (
    BARRACKS,
    CAPTAIN,
    MAIN,
    OPEN_FOUND,
    OPEN_REPLACE,
    OVER,
    THRONE,
    State,
    Unit,
)


def opening_pool(db: CardDB, race: str) -> tuple[str, ...]:
    """The barracks a side may found at the opening: its race's own, in table order
    (R-OPEN-3; there are no neutral barracks, R-BARRACKS-12)."""
    return tuple(c.id for c in db.values() if c.kind == BARRACKS and c.race == race)


_POOLS: dict[int, tuple[Mapping[str, Card], dict[tuple[str, int], tuple[str, ...]]]] = {}


def _pools_of(cards: Mapping[str, Card]) -> dict[tuple[str, int], tuple[str, ...]]:
    """The captain-pool cache of one card table (keyed by the table object itself)."""
    hit = _POOLS.get(id(cards))
    if hit is None or hit[0] is not cards:
        if len(_POOLS) >= 64:  # many tables in one process (a balance search): start afresh
            _POOLS.clear()
        hit = _POOLS[id(cards)] = (cards, {})
    return hit[1]


class Engine:
    """State + card table + rules, with the operations the rules are made of."""

    def __init__(self, db: CardDB, rules: Rules, state: State, record_events: bool = True) -> None:
        self.db = db
        # The table's plain dict, for hot paths (a CardDB lookup is a Python-level call).
        self.cards: Mapping[str, Card] = db.cards
        # (barracks card id, cost cap) -> its captain pool: a pure function of the table,
        # shared by every engine on the same table (copies, an agent's trials).
        self._pools = _pools_of(db.cards)
        self.rules = rules
        self.state = state
        self.geo: Geometry = geometry(rules.columns, rules.rows)
        self.events: list[Event] = []
        # False for a scratch engine whose events nobody reads (an agent's trial):
        # no Event is built then; the state changes exactly the same.
        self.record_events = record_events

    # --- events --------------------------------------------------------------

    def emit(self, kind: str, side: int, **fields: object) -> None:
        if self.record_events:
            self.events.append(Event(kind, self.state.round, side, **fields))  # type: ignore[arg-type]

    def emit_on(
        self,
        kind: str,
        u: Unit,
        card: str,
        amount: int = 0,
        note: str = "",
        side: int | None = None,
    ) -> None:
        """The event of ``card`` acting on unit ``u`` (damage, heal, buff, grant …), under
        ``u``'s side unless ``side`` names the side that acts."""
        if self.record_events:
            who = u.side if side is None else side
            self.events.append(
                Event(kind, self.state.round, who, card, -1, u.card, u.cell, amount, note)
            )

    # --- queries -------------------------------------------------------------

    def summons_per_turn(self, b: Unit) -> int:
        """R-BARRACKS-2, R-BARRACKS-10, R-BARRACKS-11."""
        n = self.cards[b.card].kw("summons") or 1
        st = self.state
        if st.round >= self.rules.late_summon_round:
            n += 1
        board = st.board
        side = b.side
        for c in self.geo.around[b.cell]:
            u = board[c]
            if u is not None and u.aura_summon and u.side == side:
                n += u.aura_summon
        return n + b.summons_bought

    def summons_left(self, b: Unit) -> int:
        return self.summons_per_turn(b) - b.summons_used

    def is_loaded(self, b: Unit) -> bool:
        """Loaded by a battlecry this turn or by an adjacent Load aura (R-BARRACKS-10)."""
        return b.loaded or self.load_aura(b) is not None

    def load_aura(self, u: Unit) -> Unit | None:
        """The friendly Load aura (e.g. 总工程师) adjacent to ``u``, if any
        (R-BARRACKS-10, R-GOBLIN-3)."""
        for c in self.geo.around[u.cell]:
            v = self.state.board[c]
            if v is not None and v.side == u.side and v.aura_load:
                return v
        return None

    def captain_cost_cap(self) -> int:
        """R-BARRACKS-9: cost 1-2 from round 3, cost 3 from round 7."""
        if self.state.round >= self.rules.big_captain_round:
            return 3
        if self.state.round >= self.rules.captain_round:
            return 2
        return 0

    def captain_pool(self, b: Unit) -> list[str]:
        return list(self.captain_pool_ids(b.card))

    def captain_pool_ids(self, barracks: str) -> tuple[str, ...]:
        """The captains a barracks of this card offers now (R-BARRACKS-9), shared."""
        key = (barracks, self.captain_cost_cap())
        pool = self._pools.get(key)
        if pool is None:
            cards = self.cards
            cap = key[1]
            pool = self._pools[key] = tuple(
                c for c in cards[barracks].captains if cards[c].cost <= cap
            )
        return pool

    def captain_pool_for_race(self, race: str) -> list[str]:
        cap = max(self.captain_cost_cap(), 2)
        return [c.id for c in self.db.of("captain", race) if c.cost <= cap]

    def peasant_bonus(self, side: int) -> int:
        """R-TURN-3: +1/+2/+3 per living peasant of level 1/2/3."""
        return sum(u.peasant for u in self.state.board if u is not None and u.side == side)

    def turn_mana(self, side: int) -> int:
        """The mana a side's turn starts with: base mana + peasant bonus (R-TURN-1..3)."""
        return self.rules.base_mana + self.peasant_bonus(side)

    def destroy_immune(self, u: Unit) -> bool:
        """Immune to "destroy" (R-THRONE-5; the reading: a throne throughout the match).
        Never a legal target of an effect that destroys, a destroying cost included."""
        return u.kind == THRONE

    def skill_cost(self, caster: Unit) -> tuple[int, int]:
        """(mana, hp) a skill costs this caster; the throne pays +1 mana (R-THRONE-6)."""
        clause = self.db[caster.card].skill
        assert clause is not None
        extra = self.rules.skill_cost_from_throne if caster.kind == THRONE else 0
        return clause.mana + extra, clause.hp

    def anchor(self, side: int, source: Unit | None, target: int) -> int:
        if target >= 0:
            return target
        if source is not None:
            return source.cell
        throne = self.state.throne(side)
        return throne.cell if throne is not None else self.geo.throne_cell(side)

    # --- units ---------------------------------------------------------------

    def make_unit(self, card: Card, side: int, cell: int, from_deck: bool) -> Unit:
        st = self.state
        u = Unit(st.next_uid, card.id, side, cell, card.kind)
        st.next_uid += 1
        u.attack = card.attack
        u.hp = u.max_hp = card.hp
        u.move = 0 if card.kind in (BARRACKS, "building") else card.move
        u.range = card.range
        self.give_keywords(u, card)
        u.from_deck = from_deck
        if card.kind in (BARRACKS, "building"):
            u.level = 1
        st.board[cell] = u
        return u

    def give_keywords(self, u: Unit, card: Card) -> None:
        """A card's keywords onto ``u``: a unit it makes, or the throne of its general
        at the royal march (R-THRONE-5). Pools add up and flags stay set."""
        u.armor += card.kw("armor")
        u.shield = u.shield or bool(card.kw("shield"))
        u.siege += card.kw("siege")
        u.taunt = u.taunt or bool(card.kw("taunt"))
        u.flying = u.flying or bool(card.kw("flying"))
        u.airborne = u.airborne or u.flying
        u.pierce = u.pierce or bool(card.kw("pierce"))
        u.lifesteal = u.lifesteal or bool(card.kw("lifesteal"))
        u.formation = u.formation or bool(card.kw("formation"))
        # R-BARRACKS-8: barracks are never fortified
        u.fortified = u.fortified or (bool(card.kw("fortified")) and card.kind != BARRACKS)
        u.reborn = u.reborn or bool(card.kw("reborn"))
        u.grow += card.kw("grow")
        u.artisan = u.artisan or bool(card.kw("artisan"))
        u.aura_load = u.aura_load or bool(card.kw("aura_load"))
        u.aura_summon += card.kw("aura_summon")
        u.heal_aura += card.kw("heal_aura")
        u.regen += card.kw("regen")
        u.peasant += card.kw("peasant")

    def summon(self, card_id: str, side: int, cell: int, from_deck: bool) -> Unit:
        """Put a unit on the board and run its battlecry."""
        card = self.db[card_id]
        u = self.make_unit(card, side, cell, from_deck)
        self.emit("summon", side, actor=card_id, cell=cell)
        for clause in card.clauses("play"):
            run_clause(self, Ctx(side, card_id, u, cell), clause.calls)
        return u

    def damage(self, u: Unit, amount: int, card: str, side: int, note: str = "") -> int:
        """One damage instance: fortified, then divine shield, then armor, then HP
        (R-COMBAT-3, R-COMBAT-4, R-COMBAT-7). Returns armor + HP removed."""
        if amount <= 0 or u.hp <= 0:
            return 0
        notes = [note] if note else []
        if u.fortified:
            amount = max(0, amount - self.rules.fortified_reduction)
            notes.append("固守-1")
        if u.shield and amount > 0:
            u.shield = False
            self.emit_on("shield_break", u, card, note=note, side=side)
            return 0
        absorbed = min(u.armor, amount)
        u.armor -= absorbed
        u.hp -= amount - absorbed
        if absorbed:
            notes.append(f"护甲-{absorbed}")
        self.emit_on("damage", u, card, amount - absorbed, " ".join(notes), side)
        return amount

    def heal(self, u: Unit, amount: int, card: str, overflow: bool = False) -> int:
        """Heal up to max HP; lifesteal (``overflow``) may exceed it (R-COMBAT-6)."""
        if amount <= 0 or u.hp <= 0:
            return 0
        new = u.hp + amount if overflow else min(u.max_hp, u.hp + amount)
        gained = max(0, new - u.hp)
        if gained:
            u.hp = new
            note = "溢出上限" if u.hp > u.max_hp else ""
            self.emit_on("heal", u, card, gained, note)
        return gained

    def buff(self, u: Unit, attack: int, hp: int, card: str) -> None:
        u.attack = max(0, u.attack + attack)
        u.max_hp += hp
        u.hp += hp
        self.emit_on("buff", u, card, attack, f"+{attack}/+{hp}")

    def give_armor(self, u: Unit, amount: int, card: str) -> None:
        u.armor += amount
        self.emit_on("armor", u, card, amount)

    def give_shield(self, u: Unit, card: str) -> None:
        u.shield = True
        self.emit_on("shield", u, card)

    def destroy(self, u: Unit, card: str) -> None:
        if self.destroy_immune(u):  # R-THRONE-5 (e.g. reached by a non-chosen selector)
            self.emit_on("immune", u, card)
            return
        u.hp = 0
        self.emit_on("destroy", u, card)

    def bounce(self, u: Unit, card: str) -> None:
        if u.kind in (THRONE, BARRACKS) or u.hp <= 0:
            return
        self.state.board[u.cell] = None
        side = self.state.sides[u.side]
        self.emit_on("bounce", u, card)
        if u.from_deck:
            if len(side.hand) < self.rules.hand_limit:
                side.hand.append(u.card)
            else:
                side.grave.append(u.card)
                self.emit("hand_full", u.side, actor=u.card)

    def shift(self, u: Unit, n: int, forward: bool, card: str) -> None:
        if u.kind in (THRONE, BARRACKS, "building") or u.hp <= 0:
            return
        step = self.geo.columns * (1 if (u.side == 0) == forward else -1)
        start = u.cell
        for _ in range(n):
            nxt = u.cell + step
            if not 0 <= nxt < self.geo.size or self.state.board[nxt] is not None:
                break
            self.state.board[u.cell] = None
            u.cell = nxt
            self.state.board[nxt] = u
        if u.cell != start:
            self.emit("shift", u.side, actor=card, target=u.card, cell=start, target_cell=u.cell)

    def load(self, u: Unit, reset: bool, card: str) -> None:
        if u.kind == BARRACKS:
            u.loaded = True
            if reset:
                u.summons_used = 0
        elif u.kind == "building":
            u.uses += 1
            if u.heal_aura:
                self.heal_around(u)
        else:
            return
        self.emit_on("load", u, card, note="重新装载" if reset else "")

    def heal_around(self, u: Unit) -> None:
        for c in self.geo.around[u.cell]:
            v = self.state.board[c]
            if v is not None and v.side == u.side:
                self.heal(v, u.heal_aura, u.card)

    def gain_mana(self, side: int, n: int, card: str) -> None:
        self.state.sides[side].mana += n
        self.emit("mana", side, actor=card, amount=n)

    def spend(self, side: int, n: int) -> None:
        s = self.state.sides[side]
        s.mana -= n
        s.bump("mana_spent", n)

    def draw(self, side: int, n: int, reshuffle: bool) -> int:
        """Draw up to ``n``; only the turn-start draw reshuffles (R-TURN-5, R-TURN-6)."""
        s = self.state.sides[side]
        drawn = 0
        for _ in range(n):
            if len(s.hand) >= self.rules.hand_limit:
                self.emit("hand_full", side, note="手牌已满")
                break
            if not s.deck:
                if reshuffle and s.grave:
                    s.deck, s.grave = s.grave, []
                    self.state.rng.shuffle(s.deck)
                    self.emit("reshuffle", side, amount=len(s.deck))
                else:
                    self.emit("deck_empty", side, note="牌库已空")
                    break
            card = s.deck.pop()
            s.hand.append(card)
            drawn += 1
            self.emit("draw", side, actor=card)
        s.bump("cards_drawn", drawn)
        return drawn

    def cleanup(self) -> None:
        """Remove the dead, run deathrattles and reborn, end the match on a fallen throne."""
        st = self.state
        while True:
            dead = [u for u in st.board if u is not None and u.hp <= 0]
            if not dead:
                return
            fallen: list[int] = []
            for u in dead:
                if st.board[u.cell] is not u:
                    continue  # already handled by a nested cleanup (a deathrattle's damage)
                st.board[u.cell] = None
                self.emit("death", u.side, actor=u.card, cell=u.cell)
                if u.kind == THRONE:
                    fallen.append(u.side)
                    continue
                card = self.db[u.card]
                if u.reborn:
                    new = self.make_unit(card, u.side, u.cell, u.from_deck)
                    new.hp = 1
                    new.reborn = False
                    new.moved = new.attacked = True
                    self.emit("reborn", u.side, actor=u.card, cell=u.cell)
                elif u.from_deck:  # R-TURN-11
                    pile = (
                        st.sides[u.side].removed if u.kind == BARRACKS else st.sides[u.side].grave
                    )
                    pile.append(u.card)
                for clause in card.clauses("death"):
                    run_clause(self, Ctx(u.side, u.card, None, u.cell), clause.calls)
            if fallen:  # R-THRONE-1
                self.finish(None if len(fallen) == 2 else 1 - fallen[0], "throne")
                return

    def finish(self, winner: int | None, reason: str) -> None:
        st = self.state
        if st.phase == OVER:
            return
        st.phase = OVER
        st.winner = winner
        st.end_reason = reason
        self.emit("game_over", -1 if winner is None else winner, note=reason)

    # --- actions -------------------------------------------------------------

    def do(self, a: Action) -> None:
        """Carry out an action already known to be legal."""
        getattr(self, f"_do_{a.kind}")(a)

    def _do_move(self, a: Action) -> None:
        u = self.state.board[a.cell]
        assert u is not None
        self.state.board[a.cell] = None
        self.state.board[a.target] = u
        u.cell = a.target
        u.moved = True
        self.emit("move", u.side, actor=u.card, cell=a.cell, target_cell=a.target)

    def _do_attack(self, a: Action) -> None:
        att = self.state.board[a.cell]
        dfn = self.state.board[a.target]
        assert att is not None and dfn is not None
        self.attack(att, dfn)

    def attack(self, att: Unit, dfn: Unit) -> None:
        """R-COMBAT-*, R-SIEGE-*, R-FLY-3, R-UNIT-4."""
        rules = self.rules
        dmg = att.attack
        note = ""
        if dfn.kind == THRONE:
            bonus = rules.siege_bonus + att.siege
            dmg += bonus
            note = f"围攻+{bonus}"
        enemy = dfn.side != att.side
        counter = (
            not att.airborne
            and att.range == 1
            and enemy
            and dfn.kind not in (THRONE, BARRACKS)
            and dfn.attack > 0
        )
        if att.kind == "building" and att.uses > 0:
            att.uses -= 1
        else:
            att.attacked = True
        att.airborne = False
        self.emit(
            "attack",
            att.side,
            actor=att.card,
            cell=att.cell,
            target=dfn.card,
            target_cell=dfn.cell,
            amount=dmg,
            note=note,
        )
        dealt = self.damage(dfn, dmg, att.card, att.side)
        if att.lifesteal and dealt > 0:
            self.heal(att, dealt, att.card, overflow=True)
        victim = None
        if att.pierce:
            behind = self.geo.behind(att.cell, dfn.cell)
            victim = self.state.board[behind] if behind is not None else None
            if victim is not None and victim.side != att.side:
                self.damage(victim, att.attack, att.card, att.side, note="穿刺")
        if counter:
            self.damage(att, dfn.attack, dfn.card, dfn.side, note="反击")
        kills = sum(1 for v in (dfn, victim) if v is not None and v.side != att.side and v.hp <= 0)
        counter_kill = counter and att.hp <= 0
        self.cleanup()
        if kills and self.standing(att):
            self.grow(att, kills)
            for clause in self.db[att.card].clauses("kill"):
                run_clause(self, Ctx(att.side, att.card, att, att.cell), clause.calls)
        if counter_kill and self.standing(dfn):
            self.grow(dfn, 1)  # R-RACE-2: a kill by the counterattack counts too

    def standing(self, u: Unit) -> bool:
        """``u`` is still on the board and the match goes on."""
        return u.hp > 0 and self.state.board[u.cell] is u and self.state.phase != OVER

    def grow(self, u: Unit, kills: int) -> None:
        """Grow N (成长): +N/+N for every kill (R-RACE-2)."""
        for _ in range(kills if u.grow else 0):
            self.buff(u, u.grow, u.grow, u.card)

    def _do_play(self, a: Action) -> None:
        st = self.state
        side = st.turn
        s = st.sides[side]
        card = self.db[a.card]
        s.hand.remove(card.id)
        self.spend(side, card.cost)
        s.name_uses[card.name] = s.name_uses.get(card.name, 0) + 1
        s.bump("cards_played")
        self.emit("play", side, actor=card.id, target_cell=a.target)
        if card.kind == "spell":
            ctx = Ctx(side, card.id, None, self.anchor(side, None, a.target), a.target)
            for clause in card.clauses("play"):
                run_clause(self, ctx, clause.calls)
            s.grave.append(card.id)  # R-TURN-11
        elif card.kind == BARRACKS and st.board[a.target] is not None:
            self.repair(st.board[a.target], card)  # type: ignore[arg-type]
            s.grave.append(card.id)
        else:
            self.summon(card.id, side, a.target, from_deck=True)
        self.cleanup()

    def repair(self, b: Unit, card: Card) -> None:
        """R-BARRACKS-6: +50% max durability (rounded up), level +1 (max 3),
        max durability +4, summon count reset."""
        r = self.rules
        restore = math.ceil(b.max_hp * r.repair_fraction_percent / 100)
        before = b.hp
        b.hp = min(b.max_hp, b.hp + restore)
        b.level = min(r.max_barracks_level, b.level + 1)
        b.max_hp += r.repair_max_bonus
        b.summons_used = 0
        self.emit_on("repair", b, card.id, b.hp - before, f"Lv{b.level}")

    def _do_summon(self, a: Action) -> None:
        b = self.state.board[a.cell]
        assert b is not None
        b.summons_used += 1
        self.spend(b.side, self.db[a.card].cost)
        self.state.sides[b.side].bump("summons")
        self.summon(a.card, b.side, a.target, from_deck=False)
        self.cleanup()

    def _do_captain(self, a: Action) -> None:
        b = self.state.board[a.cell]
        assert b is not None
        if not b.offer:  # the offer is fixed for this turn: no re-rolls
            pool = self.captain_pool(b)
            k = min(self.rules.captain_offer_size, len(pool))
            b.offer = tuple(self.state.rng.sample(pool, k))
        self.state.phase = CAPTAIN
        self.state.pending = b.cell
        self.emit("captain_offer", b.side, actor=b.card, cell=b.cell, note=" ".join(b.offer))

    def _do_pick(self, a: Action) -> None:
        st = self.state
        b = st.board[st.pending]
        assert b is not None
        st.phase = MAIN
        st.pending = -1
        b.summons_used += 1
        self.spend(b.side, self.db[a.card].cost)
        st.sides[b.side].bump("summons")
        self.summon(a.card, b.side, a.target, from_deck=False)
        self.cleanup()

    def _do_cancel(self, a: Action) -> None:
        self.state.phase = MAIN
        self.state.pending = -1

    def _do_extra(self, a: Action) -> None:
        b = self.state.board[a.cell]
        assert b is not None
        self.spend(b.side, self.rules.extra_summon_cost)
        b.summons_bought += 1
        self.emit(
            "extra_summon", b.side, actor=b.card, cell=b.cell, amount=self.rules.extra_summon_cost
        )

    def _do_skill(self, a: Action) -> None:
        st = self.state
        caster = st.board[a.cell]
        assert caster is not None
        mana, hp = self.skill_cost(caster)
        self.spend(caster.side, mana)
        caster.acted = True  # R-HERO-2
        if caster.kind == THRONE:
            st.sides[caster.side].skill_cooldown = self.rules.skill_cooldown_turns + 1
        if hp:
            caster.hp -= hp  # paid, not dealt: armor and shield do not help
            self.emit("pay_hp", caster.side, actor=caster.card, cell=caster.cell, amount=hp)
        clause = self.db[caster.card].skill
        assert clause is not None
        self.emit("skill", caster.side, actor=caster.card, cell=caster.cell, target_cell=a.target)
        ctx = Ctx(
            caster.side, caster.card, caster, self.anchor(caster.side, caster, a.target), a.target
        )
        run_clause(self, ctx, clause.calls)
        self.cleanup()

    def _do_build(self, a: Action) -> None:
        st = self.state
        artisan = st.board[a.cell]
        assert artisan is not None
        side = artisan.side
        self.spend(side, self.db[a.card].cost)
        st.board[a.cell] = None  # the artisan is consumed (R-GOBLIN-2)
        if artisan.from_deck:
            st.sides[side].grave.append(artisan.card)
        self.emit("build", side, actor=artisan.card, cell=a.cell, target=a.card)
        self.summon(a.card, side, a.cell, from_deck=False)

    def _do_shuffle(self, a: Action) -> None:
        """R-TURN-7: manual shuffle, 2/4/6/8/10 then 10, never reset."""
        side = self.state.turn
        s = self.state.sides[side]
        cost = self.rules.shuffle_cost(s.shuffles)
        self.spend(side, cost)
        s.shuffles += 1
        s.deck.extend(s.grave)
        s.grave = []
        self.state.rng.shuffle(s.deck)
        self.emit("shuffle", side, amount=cost)

    def _do_end(self, a: Action) -> None:
        self.end_turn()

    # --- opening (R-OPEN-*) ---------------------------------------------------

    def _do_replace(self, a: Action) -> None:
        st = self.state
        s = st.sides[st.turn]
        s.hand.remove(a.card)
        barracks = [i for i, c in enumerate(s.deck) if self.db[c].kind == BARRACKS]
        got = s.deck.pop(st.rng.choice(barracks))
        s.deck.append(a.card)
        st.rng.shuffle(s.deck)
        s.hand.append(got)
        s.replaced += 1
        self.emit("replace", st.turn, actor=a.card, target=got)

    def _do_keep(self, a: Action) -> None:
        self.state.phase = OPEN_FOUND
        self.emit("keep", self.state.turn)

    def opening_choices(self, side: int) -> list[str]:
        """Barracks this side may still found for free (R-OPEN-3): any of its pool,
        military barracks even twice, but at most one production camp
        (「开局兵营可以免费带一座产费营」)."""
        s = self.state.sides[side]
        has_camp = any(self.db[b].is_production for b in s.founded)
        return [b for b in s.opening_pool if not (has_camp and self.db[b].is_production)]

    def _do_found(self, a: Action) -> None:
        st = self.state
        side = st.turn
        st.sides[side].founded.append(a.card)
        self.make_unit(self.db[a.card], side, a.target, from_deck=False)
        self.emit("found", side, actor=a.card, cell=a.target)
        s = st.sides[side]
        if len(s.founded) < self.rules.opening_barracks and self.opening_choices(side):
            return
        if st.turn == st.first:  # the second side now opens; then round 1 (R-TURN-12)
            st.turn = 1 - st.first
            st.phase = OPEN_REPLACE
        else:
            st.round = 1
            st.phase = MAIN
            self.start_turn(st.first)

    # --- turn flow -------------------------------------------------------------

    def start_turn(self, side: int) -> None:
        st = self.state
        r = self.rules
        st.turn = side
        if st.round == r.march_round and side == st.first and not st.marched:
            self.march()
        self.emit("turn_start", side)
        for u in st.board:
            if u is None or u.side != side:
                continue
            u.moved = u.attacked = u.acted = False
            u.airborne = u.flying  # R-FLY-1
            u.summons_used = u.summons_bought = u.uses = 0
            u.loaded = False
            u.offer = ()
        for u in [u for u in st.board if u is not None and u.side == side]:
            if u.formation:  # R-COMBAT-8
                for c in self.geo.around[u.cell]:
                    v = st.board[c]
                    if v is not None and v.side == side and v.kind not in (THRONE, BARRACKS):
                        self.give_armor(v, r.formation_armor, u.card)
            if u.heal_aura:
                self.heal_around(u)
            if u.kind == "building" and (aura := self.load_aura(u)) is not None:
                self.load(u, reset=False, card=aura.card)  # R-GOBLIN-3: one use more
            if u.regen:
                self.heal(u, u.regen, u.card)
            for clause in self.db[u.card].clauses("turn_start"):
                if u.hp > 0 and st.phase != OVER:
                    run_clause(self, Ctx(side, u.card, u, u.cell), clause.calls)
        self.cleanup()
        if st.phase == OVER:
            return
        s = st.sides[side]
        s.mana = self.turn_mana(side)  # R-TURN-1, R-TURN-2, R-TURN-3
        bonus = s.mana - r.base_mana
        second_opens = st.round == 1 and side != st.first  # R-TURN-12 (Reading: parameters)
        if second_opens:
            s.mana += r.second_first_turn_mana
        s.bump("mana_available", s.mana)
        self.emit("mana_reset", side, amount=s.mana, note=f"农民+{bonus}" if bonus else "")
        if s.skill_cooldown > 0:
            s.skill_cooldown -= 1
        s.name_uses.clear()
        extra = r.second_first_turn_draw if second_opens else 0
        self.draw(side, r.draws_for_round(st.round) + extra, reshuffle=True)  # R-TURN-4, R-TURN-6

    def march(self) -> None:
        """R-THRONE-5: at the start of the march round both thrones become generals."""
        st = self.state
        st.marched = True
        for side in (0, 1):
            t = st.throne(side)
            if t is None:
                continue
            self.march_throne(t)
            self.emit("march", side, actor=t.card, cell=t.cell, amount=t.attack)

    def march_throne(self, t: Unit) -> None:
        """R-THRONE-5: the throne becomes its general, keeping its remaining HP: the
        general card's attack +5, move +1, range and keywords (flying takes off at
        once, R-FLY-1). Not 复生: the throne's fall ends the match at once (R-THRONE-1)."""
        g = self.db[t.card]
        t.attack = g.attack + self.rules.march_attack_bonus
        t.move = g.move + self.rules.march_move_bonus
        t.range = g.range
        reborn = t.reborn
        self.give_keywords(t, g)
        t.reborn = reborn

    def end_turn(self) -> None:
        st = self.state
        side = st.turn
        self.emit("end_turn", side)
        if side != st.first:
            if st.round >= self.rules.round_limit:
                self.score_round_limit()
                return
            st.round += 1
        self.start_turn(1 - side)

    def score_round_limit(self) -> None:
        """R-END-1: throne HP, then HP ratio, then board, else a draw."""
        st = self.state
        t = [st.throne(0), st.throne(1)]
        hp = [u.hp if u else 0 for u in t]
        mx = [u.max_hp if u else 1 for u in t]
        board = [sum(u.attack + u.hp for u in st.units(s) if u.kind != THRONE) for s in (0, 1)]
        if hp[0] != hp[1]:
            self.finish(0 if hp[0] > hp[1] else 1, "round_limit:hp")
        elif hp[0] * mx[1] != hp[1] * mx[0]:
            self.finish(0 if hp[0] * mx[1] > hp[1] * mx[0] else 1, "round_limit:ratio")
        elif board[0] != board[1]:
            self.finish(0 if board[0] > board[1] else 1, "round_limit:board")
        else:
            self.finish(None, "round_limit:draw")
