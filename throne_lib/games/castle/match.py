"""``CastleMatch``: 城堡之心 behind the kit's match protocol (throne_lib.kit.protocol)."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from typing import Any

from throne_lib.games.castle import command, death, magic, play, setup, skills, turn  # noqa: F401
from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.cards import CardTableError, CastleCards, load_castle_cards
from throne_lib.games.castle.core import PROMPTS, AnswerFn, LegalFn, run
from throne_lib.games.castle.events import Event
from throne_lib.games.castle.rules import CastleRules, from_overrides, overrides
from throne_lib.games.castle.state import State
from throne_lib.kit.protocol import DRAW, IllegalAction, check_seat

_DEFAULT_CARDS: CastleCards | None = None
_RULEBOOK = CastleRules()
# the answers that only pass: keep one's camp at turn start, decline a rescue or counter,
# not block, take the 冰风暴雨/熊之咆哮 effect, not pay (黑暗旌旗, 飞弹戒指's upkeep)
PASSES = (Act("declare", ("keep",)), Act("decline"), Act("no_block"), Act("take"), Act("no"))


def default_cards() -> CastleCards:
    global _DEFAULT_CARDS
    if _DEFAULT_CARDS is None:
        _DEFAULT_CARDS = load_castle_cards()
    return _DEFAULT_CARDS


def is_repository_cards(cards: CastleCards) -> bool:
    """``cards`` is the repository's table (a broken file on disk counts as another)."""
    if cards is _DEFAULT_CARDS:
        return True
    try:
        return cards.hash == default_cards().hash
    except CardTableError:
        return False


class CastleMatch:
    """One match of 城堡之心 for 3–8 seats. Every decision, answers included, is taken by
    ``current_seat`` from ``legal_actions()`` — a block, a rescue or a counter makes the
    asked seat current for one action, so the protocol stays single-actor."""

    game = "castle"

    def __init__(
        self,
        players: int = 5,
        seed: int = 0,
        rules: CastleRules | None = None,
        cards: CastleCards | None = None,
        *,
        state: State | None = None,
        options: dict[str, Any] | None = None,
    ) -> None:
        if state is None:
            state = setup.new_state(cards or default_cards(), rules or CastleRules(), players, seed)
            run(state)
        self.state = state
        self.actions: list[Act] = []
        self.seed = state.seed
        self.setups = [f"seat{i}" for i in range(state.n)]
        if options is not None:  # a copy or a resample: the same rules and table
            self.options: dict[str, Any] = dict(options)
        else:
            self.options = {"rules": rules_overrides(state.rules)}
            if not is_repository_cards(state.cards):  # a log must rebuild the match with its table
                self.options["cards_csv"] = state.cards.source
        self._legal: list[Act] = []
        self._legal_set: set[Act] = set()
        self._legal_for: object = None
        self._log_views: dict[int | None, list[str]] = {}

    # --- protocol ------------------------------------------------------------------
    @property
    def num_seats(self) -> int:
        return self.state.n

    @property
    def current_seat(self) -> int:
        pr = self.state.prompt
        return pr.seat if pr is not None else -1

    @property
    def is_over(self) -> bool:
        return self.state.stage == "over"

    @property
    def prompt_kind(self) -> str:
        pr = self.state.prompt
        return pr.kind if pr is not None else ""

    def legal_actions(self) -> list[Act]:
        """Every legal action of ``current_seat``. Cached per prompt: change the state
        only through :meth:`apply`."""
        pr = self.state.prompt
        if pr is None or self.is_over:
            return []
        if self._legal_for is not pr:
            self._legal = self.prompt_entry(pr.kind)[0](self.state, pr)
            self._legal_set = set(self._legal)
            self._legal_for = pr
        return list(self._legal)

    def prompt_entry(self, kind: str) -> tuple[LegalFn, AnswerFn, str]:
        """The legal actions, the answer and the rule of a prompt kind (a mode on the
        table, 城池战, adds its own)."""
        return PROMPTS[kind]

    def answer_prompt(self, act: Act) -> None:
        """Resolve the pending prompt with ``act``; IllegalAction citing the prompt's rule
        when ``act`` is not one of its legal answers."""
        s = self.state
        pr = s.prompt
        assert pr is not None
        _, handler, rule = self.prompt_entry(pr.kind)
        self.legal_actions()
        if act not in self._legal_set:
            raise IllegalAction(
                act.text(), rule, f"not a legal answer to {pr.kind} for seat {pr.seat} now"
            )
        s.prompt = None
        handler(s, pr, act)

    def parse(self, text: str) -> Act:
        return Act.parse(text)

    def forced_pass(self) -> Act | None:
        """The pass, when passing is all ``current_seat`` may do: a hero that may not
        declare at its turn start, a seat asked to block, rescue, counter or pay with nothing
        to answer with (CH-UI-3). Its UI may give it at once; the others see the same wait
        either way, since every seat is asked whether or not it holds anything."""
        legal = self.legal_actions()
        return legal[0] if len(legal) == 1 and legal[0] in PASSES else None

    def apply(self, action: Act | str) -> list[Event]:
        act = as_act(action)
        s = self.state
        if s.prompt is None or self.is_over:
            raise IllegalAction(act.text(), "CH-WIN-1", "the game is over")
        start = len(s.log)
        self.answer_prompt(act)
        run(s)
        self.actions.append(act)
        return s.log[start:]

    def copy(self) -> CastleMatch:
        m = CastleMatch(state=self.state.copy(), options=self.options)
        m.actions = list(self.actions)
        return m

    def hash(self) -> str:
        """The state's digest; a match under other rules than the rulebook's hashes them
        too, so a log whose header's rules were edited fails at line 1 (its start hash)."""
        pic: tuple[Any, ...] = canonical(self.state)
        if self.state.rules != _RULEBOOK:
            pic = (pic, repr(self.state.rules))
        return hashlib.sha256(repr(pic).encode()).hexdigest()[:16]

    @property
    def end_reason(self) -> str:
        """The rule that ended the match (CH-WIN-1), e.g. ``CH-TURN-11``; empty while it runs."""
        return self.state.end_rule

    def returns(self) -> list[float]:
        return list(self.state.result) if self.state.result else [0.0] * self.state.n

    def observation(self, seat: object) -> dict[str, Any]:
        """What ``seat`` (an int in ``0..num_seats-1``) may see (CH-UI-2). A seat argument
        is typed ``object`` and checked by ``check_seat``: compiled by mypyc, an ``int``
        annotation would take ``True`` as seat 1 before the check could refuse it."""
        from throne_lib.games.castle.view import log_for, observe

        me = check_seat(seat, self.state.n, self.game)
        lines = self._log_views.setdefault(me, [])
        if len(lines) < len(self.state.log):  # the log only grows: extend the seat's copy
            lines.extend(log_for(self.state, me, len(lines)))
        return observe(self.state, me, list(lines))

    def agent_observation(self, seat: object) -> dict[str, Any]:
        """:meth:`observation` for an agent: the same facts without the 战报 (``log`` is
        empty), the part only a reader needs. The scripted agents read this (an ISMCTS
        rollout asks it at every action of every determinization, each with a fresh log
        view to build); they never read the log, so their choices are the same."""
        from throne_lib.games.castle.view import observe

        return observe(self.state, check_seat(seat, self.state.n, self.game), [])

    def public_view(self) -> dict[str, Any]:
        """What every seat sees, nothing private (CH-UI-4: the cover screen between
        seats, a spectator)."""
        from throne_lib.games.castle.view import observe

        return observe(self.state, None)

    def reveal_all(self) -> dict[str, Any]:
        """A replay's view of everything (CH-UI-5); never for a live seat."""
        from throne_lib.games.castle.view import reveal_all

        return reveal_all(self.state)

    def resample(self, seat: object, rng: random.Random) -> CastleMatch:
        from throne_lib.games.castle.view import resample_state

        me = check_seat(seat, self.state.n, self.game)
        return CastleMatch(state=resample_state(self.state, me, rng), options=self.options)

    @property
    def history(self) -> list[Act]:
        """The actions applied so far (the match is (table, seats, seed, rules, history))."""
        return self.actions

    # --- conveniences for UI and tests ----------------------------------------------
    @classmethod
    def from_scenario(
        cls, text: str, rules: CastleRules | None = None, cards: CastleCards | None = None
    ) -> CastleMatch:
        """A match from scenario notation (see :mod:`.scenario`)."""
        from throne_lib.games.castle.scenario import from_text

        return cls(state=from_text(text, cards or default_cards(), rules))

    def to_scenario(self) -> str:
        from throne_lib.games.castle.scenario import to_text

        return to_text(self.state)

    def describe(self, action: Act) -> str:
        """The action in Chinese, e.g. ``剑攻击 拜帕（支付1张剑）``."""
        from throne_lib.games.castle.describe import describe

        return describe(self.state, action, self.prompt_kind)

    def log_lines(self, seat: object = None) -> list[str]:
        """The 战报 as ``seat`` reads it (None: the public lines only, as a spectator
        reads them; ``reveal_all()["log"]`` has every line in full)."""
        if seat is None:
            return [e.text for e in self.state.log]
        me = check_seat(seat, self.state.n, self.game)
        return [e.seen_by(me) for e in self.state.log]


def as_act(action: object) -> Act:
    """``action`` (an :class:`Act` or its text) as an Act; ``TypeError`` for anything else
    (the match is not touched: apply() calls this first)."""
    if isinstance(action, str):
        return Act.parse(action)
    if not isinstance(action, Act):
        raise TypeError(f"apply() takes an action or its text, not {type(action).__name__}")
    return action


def rules_overrides(rules: CastleRules) -> dict[str, Any]:
    """The parameters that differ from the rulebook's defaults, JSON-able (for logs)."""
    return overrides(rules)


def rules_from(value: CastleRules | Mapping[str, Any] | None) -> CastleRules:
    """A CastleRules from itself, None (defaults) or a dict of overrides (from a log)."""
    return from_overrides(CastleRules, value, "城堡之心 rules")


def canonical(s: State) -> tuple[Any, ...]:
    """A hashable, order-stable picture of the full state (hidden parts included)."""
    players = tuple(
        (
            p.seat, p.role, p.hero, p.hp, p.max_hp, p.camp, p.camp_fixed, p.declared,
            p.defected, p.revealed, tuple(p.hand), tuple(sorted(p.equip.items())),
            tuple((x.uid, x.card, x.hp, x.poison, x.curse, x.thick_turn, x.attacks, x.coward)
                  for x in p.soldiers),
            p.alive, p.dying, p.hold, p.embrace, p.stun, p.curse, p.frozen, p.poison,
            p.mirror, p.banner, p.aim, p.swift, p.shield_turn, p.sword_attacks,
            tuple(sorted(p.used)), p.leadership, p.mana, tuple(p.paid_mana),
            tuple(p.paid_mana_prev), p.last_source, tuple(sorted(p.spied.items())),
        )
        for p in s.players
    )  # fmt: skip
    return (
        players, tuple(s.pos), tuple(s.deck), tuple(s.discard), tuple(s.supply),
        tuple(s.set_aside), tuple(s.fallen), s.stage, s.step, s.turn_seat, s.turn_no,
        s.round, tuple(s.stack), s.prompt, s.result, s.rng.getstate(), len(s.log),
    )  # fmt: skip


def box_census(s: State) -> dict[str, int]:
    """Where the 140 box cards are (CH-DECK-8): must add up to the card table's counts."""
    counts: dict[str, int] = {}

    def add(cid: str) -> None:
        if cid not in ("conjured_mana",) and not s.cards[cid].kind.startswith("token"):
            counts[cid] = counts.get(cid, 0) + 1

    for zone in (s.deck, s.discard, s.supply, s.set_aside, s.fallen, s.hero_pool):
        for cid in zone:
            add(cid)
    for p in s.players:
        if p.hero:
            add(p.hero)
        for cid in p.hand:
            add(cid)
        for cid in p.equip.values():
            add(cid)
        for sol in p.soldiers:
            add(sol.card)
    return counts


def play_random(m: CastleMatch, rng: random.Random, max_actions: int = 100_000) -> int:
    """Play uniformly random legal actions to the end; returns the actions taken."""
    n = 0
    while not m.is_over and n < max_actions:
        acts: Sequence[Act] = m.legal_actions()
        m.apply(acts[rng.randrange(len(acts))])
        n += 1
    return n


def winner_label(match: CastleMatch) -> str:
    """``Game.winner_label``: the winning side's role (城主 — with its 援军 —, 敌军 or
    中立, CH-WIN-2/3), ``"draw"`` for a draw (CH-TURN-11)."""
    return match.state.winner or DRAW
