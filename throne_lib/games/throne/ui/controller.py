"""What a click means: selection, highlights and chips of the play UI, without any widget.

Every highlight comes from ``match.legal_actions()`` (filtered by cell, kind and
card); a click on a highlighted cell applies the matching legal Action; any other
click changes nothing in the match and explains itself in ``status`` (the rule from
:func:`throne_lib.games.throne.explain.explain_illegal`). No rule is re-implemented here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.explain import explain_illegal
from throne_lib.games.throne.match import IllegalAction, Match
from throne_lib.games.throne.state import BARRACKS, CAPTAIN, MAIN, OPEN_FOUND, OPEN_REPLACE, THRONE
from throne_lib.games.throne.ui.text import action_text, illegal_text

MAX_CHIPS = 5

# Highlight styles of a cell (render.py gives them colours).
MOVE, ATTACK, TARGET, PLACE, SUMMON, SKILL = "move", "attack", "target", "place", "summon", "skill"
ALLY = "ally"  # friendly fire (R-UNIT-4): only in the 「误伤友军」 mode


@dataclass(frozen=True, slots=True)
class Chip:
    """One button of the tray under the board."""

    key: str  # "tier:militia", "captain", "extra", "skill", "build:turret", "pick:ID", ...
    label: str
    sub: str = ""
    enabled: bool = True
    selected: bool = False
    why: str = ""  # why a disabled chip is disabled (Chinese, from explain_illegal)


@dataclass(frozen=True, slots=True)
class View:
    """Everything the renderer needs besides the match: a snapshot of the UI state."""

    human: int = 0
    selected_cell: int = -1
    selected_hand: int = -1
    highlights: dict[int, str] = field(default_factory=dict)
    chips: tuple[Chip, ...] = ()
    can_act: frozenset[int] = frozenset()
    playable: frozenset[int] = frozenset()  # hand indices with a legal play/replace
    flash: tuple[int, ...] = ()
    drag_hand: int = -1
    drag_cell: int = -1
    hint: str = ""
    predictions: dict[int, str] = field(default_factory=dict)  # attack target -> badge
    hover_cell: int = -1


@dataclass(frozen=True, slots=True)
class Prediction:
    """What an attack would do, read from the events of a copy of the match with the
    attack applied (never a second copy of the combat rules)."""

    dealt: int
    taken: int
    target_dies: bool
    attacker_dies: bool
    line: str  # the 战报 line the attack would write

    @property
    def badge(self) -> str:
        out = f"-{self.dealt}"
        if self.taken:
            out += f" 反{self.taken}"
        if self.target_dies:
            out += " 亡"
        return out


def predict(match: Match, action: Action) -> Prediction:
    """Apply ``action`` (a legal attack) to a copy of the match and read the result."""
    from throne_lib.games.throne.ui.text import log_blocks

    events = match.copy().apply(action)
    dealt = sum(
        e.amount
        for e in events
        if e.kind == "damage" and e.target_cell == action.target and "反击" not in e.note
    )
    taken = sum(
        e.amount
        for e in events
        if e.kind == "damage" and e.target_cell == action.cell and action.cell != action.target
    )
    dies = {e.cell for e in events if e.kind == "death"}
    lines = [t for _, ls in log_blocks(events, match.db, match.geo) for _, t in ls]
    return Prediction(
        dealt, taken, action.target in dies, action.cell in dies, lines[0] if lines else ""
    )


class Controller:
    """The play UI's state machine over one match; the human plays ``human``."""

    def __init__(self, match: Match, human: int = 0) -> None:
        self.match = match
        self.human = human
        self.selected_cell = -1
        self.selected_hand = -1
        self.choice = ""  # the selected chip that decides the highlight mode
        self.status = ""
        self.status_error = False
        self.events: list[Event] = list(match.setup_events)
        self.last_action: Action | None = None
        self.on_events: Callable[[Action, list[Event]], None] | None = None
        # What the inspector shows: ("cell", n), ("hand", i), ("chip", i) or ().
        self.inspected: tuple[str, int] | tuple[()] = ()
        self._predictions: dict[tuple[Action, int], Prediction] = {}
        self._auto_choice()

    # --- queries ---------------------------------------------------------------------

    @property
    def my_turn(self) -> bool:
        return not self.match.is_over and self.match.turn == self.human

    @property
    def hand(self) -> list[str]:
        return self.match.state.sides[self.human].hand

    def _legal(self) -> list[Action]:
        return list(self.match.legal_actions()) if self.my_turn else []

    def _unit_actions(self, cell: int) -> list[Action]:
        return [a for a in self._legal() if a.cell == cell and a.kind != "end"]

    def highlights(self) -> dict[int, str]:
        """Cell -> style for the current selection; empty when nothing is selected."""
        legal = self._legal()
        phase = self.match.phase
        kind, _, card = self.choice.partition(":")
        if phase == OPEN_FOUND and kind == "found":
            return {a.target: PLACE for a in legal if a.kind == "found" and a.card == card}
        if phase == CAPTAIN and kind == "pick":
            return {a.target: SUMMON for a in legal if a.kind == "pick" and a.card == card}
        if self.selected_hand >= 0 and self.selected_hand < len(self.hand):
            return self.play_highlights(self.selected_hand)
        if self.selected_cell < 0:
            return {}
        out: dict[int, str] = {}
        for a in legal:
            if a.cell != self.selected_cell:
                continue
            if kind == "tier" and a.kind == "summon" and a.card == card:
                out[a.target] = SUMMON
            elif kind == "skill" and a.kind == "skill" and a.target >= 0:
                out[a.target] = SKILL
            elif kind == ALLY and a.kind == ATTACK and self._is_ally(a.target):
                out[a.target] = ALLY
            elif kind == "" and a.kind == MOVE:
                out[a.target] = MOVE
            elif kind == "" and a.kind == ATTACK and not self._is_ally(a.target):
                out[a.target] = ATTACK
        return out

    def prediction(self, target: int, style: str = "") -> Prediction | None:
        """The predicted result of the selected unit attacking ``target`` (cached per
        position: the key is the action and the length of the match history).
        ``style``: the target's highlight when the caller has it already."""
        if self.selected_cell < 0:
            return None
        if (style or self.highlights().get(target)) not in (ATTACK, ALLY):
            return None
        a = Action(ATTACK, self.selected_cell, target)
        key = (a, len(self.match.history))
        if key not in self._predictions:
            if len(self._predictions) > 64:
                self._predictions.clear()
            self._predictions[key] = predict(self.match, a)
        return self._predictions[key]

    def predictions(self, highlights: dict[int, str] | None = None) -> dict[int, str]:
        """Badges for every attack target of the selected unit."""
        out = {}
        hl = self.highlights() if highlights is None else highlights
        for cell, style in hl.items():
            if style in (ATTACK, ALLY):
                p = self.prediction(cell, style)
                if p is not None:
                    out[cell] = p.badge
        return out

    def _is_ally(self, cell: int) -> bool:
        u = self.match.state.board[cell]
        return u is not None and u.side == self.human

    def play_highlights(self, index: int) -> dict[int, str]:
        """Legal target cells of hand card ``index`` (also shown while it is dragged)."""
        if not self.my_turn or self.match.phase != MAIN or index >= len(self.hand):
            return {}
        card = self.hand[index]
        style = TARGET if self.match.db[card].kind == "spell" else PLACE
        return {
            a.target: style
            for a in self._legal()
            if a.kind == "play" and a.card == card and a.target >= 0
        }

    def can_act(self) -> frozenset[int]:
        return frozenset(a.cell for a in self._legal() if a.cell >= 0)

    def playable(self) -> frozenset[int]:
        legal = self._legal()
        kinds = ("replace",) if self.match.phase == OPEN_REPLACE else ("play",)
        cards = {a.card for a in legal if a.kind in kinds}
        return frozenset(i for i, c in enumerate(self.hand) if c in cards)

    def chips(self) -> tuple[Chip, ...]:
        if not self.my_turn:
            return ()
        m, db, legal = self.match, self.match.db, self._legal()
        side = m.state.sides[self.human]
        out: list[Chip] = []
        if m.phase == OPEN_REPLACE:
            out.append(
                Chip("keep", "确定手牌", f"已换 {side.replaced}/{m.rules.opening_max_replace}")
            )
        elif m.phase == OPEN_FOUND:
            cards = dict.fromkeys(a.card for a in legal if a.kind == "found")
            out += [Chip(f"found:{c}", db[c].name, "开局免费 · 不占手牌") for c in cards]
        elif m.phase == CAPTAIN:
            b = m.state.board[m.state.pending]
            for c in b.offer if b is not None else ():
                ok = any(a.kind == "pick" and a.card == c for a in legal)
                why = "" if ok else f"不可行：「{db[c].name}」需要 {db[c].cost} 法力"
                out.append(Chip(f"pick:{c}", db[c].name, f"{db[c].cost} 法力 · 队长", ok, why=why))
            out.append(Chip("cancel", "取消", "放弃队长"))
        elif self.selected_hand >= 0 and self.selected_hand < len(self.hand):
            card = self.hand[self.selected_hand]
            if Action("play", -1, -1, card) in m.legal_actions():
                out.append(Chip("cast", f"施放{db[card].name}", f"{db[card].cost} 法力"))
        elif self.selected_cell >= 0:
            out += self._unit_chips(self.selected_cell, legal)
        out = [
            Chip(c.key, c.label, c.sub, c.enabled, c.key == self.choice, c.why)
            for c in out[:MAX_CHIPS]
        ]
        return tuple(out)

    def _unit_chips(self, cell: int, legal: list[Action]) -> list[Chip]:
        m, db = self.match, self.match.db
        u = m.state.board[cell]
        if u is None:
            return []
        mine = [a for a in legal if a.cell == cell]
        out: list[Chip] = []
        if u.kind == BARRACKS:
            free = [c for c in m.geo.around[cell] if m.state.board[c] is None]
            for i, t in enumerate(db[u.card].tiers):
                ok = any(a.kind == "summon" and a.card == t for a in mine)
                sub = f"{db[t].cost} 法力" if i < u.level else f"Lv{i + 1} 解锁"
                why = ""
                if not ok:
                    attempt = Action("summon", cell, free[0] if free else cell, t)
                    why = illegal_text(*explain_illegal(m.eng, attempt))
                out.append(Chip(f"tier:{t}", db[t].name, sub, ok, why=why))
            if any(a.kind == "captain" for a in mine):
                out.append(Chip("captain", "队长", "三选一"))
            if any(a.kind == "extra" for a in mine):
                out.append(Chip("extra", "加派", f"{m.rules.extra_summon_cost} 法力"))
        if any(a.kind == ATTACK and self._is_ally(a.target) for a in mine):
            out.append(Chip(ALLY, "误伤友军", "攻击己方单位"))
        skills = [a for a in mine if a.kind == "skill"]
        label = "王座技能" if u.kind == THRONE else "技能"
        if db[u.card].skill is not None:
            mana, hp = m.eng.skill_cost(u)
            cost = f"{mana} 法力" + (f" {hp} 生命" if hp else "")
        if skills:
            out.append(Chip("skill", label, cost))
            if any(a.kind in (MOVE, ATTACK) for a in mine):
                out.append(Chip("", "移动/攻击", "行动"))
        elif db[u.card].skill is not None and u.kind in (THRONE, "general") and m.phase == MAIN:
            short, why = self._skill_reason(cell)
            out.append(Chip("skill", label, f"{cost} · {short}", False, why=why))
        out += [
            Chip(f"build:{a.card}", f"建造{db[a.card].name}", f"{db[a.card].cost} 法力")
            for a in mine
            if a.kind == "build"
        ]
        return out

    def _skill_reason(self, cell: int) -> tuple[str, str]:
        """A short reason for the chip and the whole one for the status line."""
        rule, reason = explain_illegal(self.match.eng, Action("skill", cell))
        short = {
            "R-THRONE-6": "冷却中",
            "R-TURN-1": "法力不足",
            "R-UNIT-5": "无目标",
            "R-HERO-2": "已行动",
        }.get(rule, "不可用")
        return short, illegal_text(rule, reason)

    def view(self, flash: tuple[int, ...] = (), drag_hand: int = -1, drag_cell: int = -1) -> View:
        highlights = self.play_highlights(drag_hand) if drag_hand >= 0 else self.highlights()
        return View(
            human=self.human,
            selected_cell=self.selected_cell,
            selected_hand=self.selected_hand,
            highlights=highlights,
            chips=self.chips(),
            can_act=self.can_act(),
            playable=self.playable(),
            flash=flash,
            drag_hand=drag_hand,
            drag_cell=drag_cell,
            hint=self.hint(),
            predictions=self.predictions(highlights) if drag_hand < 0 else {},
        )

    def hint(self) -> str:
        m = self.match
        if m.is_over:
            return "对局已结束"
        if not self.my_turn:
            return "对手行动中……"
        if m.phase == OPEN_REPLACE:
            return "换牌：点击非兵营手牌替换（最多 3 张），然后点「确定手牌」"
        if m.phase == OPEN_FOUND:
            return self.found_prompt()
        if m.phase == CAPTAIN:
            return "选择一名队长，再点击兵营周围的空格"
        return "点击单位、兵营、王座或手牌；拖动法术到目标格"

    def found_prompt(self) -> str:
        """The opening's second step (R-OPEN-3), with the count so far."""
        st, total = self.match.state, self.match.rules.opening_barracks
        built = sum(1 for u in st.units(self.human) if u.kind == BARRACKS)
        return (
            f"建立开局兵营（第 {min(built + 1, total)}/{total} 座）：开局免费赠送，"
            "不是手牌（R-OPEN-3）。选一种兵营，再点己方半场（1–3 行）的空格"
        )

    # --- clicks ----------------------------------------------------------------------

    def _say(self, text: str, error: bool = False) -> None:
        self.status = text
        self.status_error = error

    def _refuse(self, action: Action) -> None:
        rule, reason = explain_illegal(self.match.eng, action)
        self._say(illegal_text(rule, reason), error=True)

    def _not_now(self) -> bool:
        if self.match.is_over:
            self._say("对局已结束", error=True)
            return True
        if not self.my_turn:
            self._say("现在是对手的回合，请稍候", error=True)
            return True
        return False

    def clear(self) -> None:
        self.selected_cell = -1
        self.selected_hand = -1
        self.choice = ""
        self._auto_choice()

    def click_cell(self, cell: int) -> list[Event]:
        if self._not_now():
            return []
        m = self.match
        hl = self.highlights()
        if cell in hl:
            return self._act_on(cell, hl[cell])
        u = m.state.board[cell]
        name = m.geo.name(cell)
        if m.phase == MAIN and u is not None and u.side == self.human:
            if cell == self.selected_cell:
                self.clear()
                self._say("已取消选择")
                return []
            self._select_unit(cell)
            return []
        attempt = self._attempt(cell)
        if attempt is not None:
            self._refuse(attempt)
        elif u is not None:
            card = m.db[u.card]
            self._say(f"{card.name} {name}：攻 {u.attack} / 血 {u.hp}/{u.max_hp} {card.text}")
        else:
            self._say(f"{name}：空格")
        return []

    def _attempt(self, cell: int) -> Action | None:
        """The action a click on a non-highlighted cell would have meant (to explain it)."""
        m = self.match
        kind, _, card = self.choice.partition(":")
        if m.phase == OPEN_FOUND and kind == "found":
            return Action("found", -1, cell, card)
        if m.phase == CAPTAIN and kind == "pick":
            return Action("pick", -1, cell, card)
        if m.phase in (OPEN_REPLACE, OPEN_FOUND, CAPTAIN):
            return Action("move", cell, cell)  # explains the pending phase
        if self.selected_hand >= 0 and self.selected_hand < len(self.hand):
            return Action("play", -1, cell, self.hand[self.selected_hand])
        if self.selected_cell >= 0:
            if kind == "tier":
                return Action("summon", self.selected_cell, cell, card)
            if kind == "skill":
                return Action("skill", self.selected_cell, cell)
            occupied = m.state.board[cell] is not None
            return Action(ATTACK if occupied else MOVE, self.selected_cell, cell)
        return None

    def _select_unit(self, cell: int) -> None:
        m = self.match
        u = m.state.board[cell]
        assert u is not None
        self.selected_hand = -1
        self.selected_cell = cell
        self.choice = ""
        mine = self._unit_actions(cell)
        name = m.db[u.card].name
        if u.kind == BARRACKS:
            tiers = [a.card for a in mine if a.kind == "summon"]
            self.choice = f"tier:{tiers[0]}" if tiers else ""
            left = m.eng.summons_left(u)
            self._say(f"{name}：还可召唤 {max(left, 0)} 次；选择兵种，点击周围空格")
        elif any(a.kind == "skill" for a in mine) and not any(a.kind == ATTACK for a in mine):
            self.choice = "skill"
            self._say(f"{name}：点击技能目标，或点「技能」按钮")
        elif mine:
            moves = any(a.kind == MOVE for a in mine)
            attacks = any(a.kind == ATTACK and not self._is_ally(a.target) for a in mine)
            how = "、".join(
                w
                for w, ok in (
                    ("绿点格可移动", moves),
                    ("红框单位可攻击（角标是预计结果）", attacks),
                )
                if ok
            )
            self._say(f"{name}：{how or '点按钮选择行动'}")
        else:
            self._say(f"{name} 本回合没有可用的行动")

    def _act_on(self, cell: int, style: str) -> list[Event]:
        m = self.match
        kind, _, card = self.choice.partition(":")
        candidates: list[Action] = []
        if m.phase == OPEN_FOUND:
            candidates = [Action("found", -1, cell, card)]
        elif m.phase == CAPTAIN:
            candidates = [Action("pick", -1, cell, card)]
        elif self.selected_hand >= 0:
            candidates = [Action("play", -1, cell, self.hand[self.selected_hand])]
        elif style == SUMMON:
            candidates = [Action("summon", self.selected_cell, cell, card)]
        elif style == SKILL:
            candidates = [Action("skill", self.selected_cell, cell)]
        elif style == ALLY:
            candidates = [Action(ATTACK, self.selected_cell, cell)]
        else:
            candidates = [Action(style, self.selected_cell, cell)]
        for a in candidates:
            if a in m.legal_actions():
                return self.apply(a)
        self._refuse(candidates[0])
        return []

    def click_hand(self, index: int) -> list[Event]:
        if self._not_now():
            return []
        m = self.match
        if not 0 <= index < len(self.hand):
            return []
        card = self.hand[index]
        name = m.db[card].name
        if m.phase == OPEN_REPLACE:
            a = Action("replace", card=card)
            if a in m.legal_actions():
                return self.apply(a)
            self._refuse(a)
            return []
        if m.phase != MAIN:
            self._refuse(Action("play", -1, -1, card))
            return []
        plays = [a for a in m.legal_actions() if a.kind == "play" and a.card == card]
        if not plays:
            self.clear()  # nothing stays selected that the player did not choose now
            target = -1 if m.db[card].play_target is None else self._any_cell()
            self._refuse(Action("play", -1, target, card))
            return []
        if index == self.selected_hand:
            if Action("play", -1, -1, card) in plays:
                return self.apply(Action("play", -1, -1, card))
            self.clear()
            self._say("已取消选择")
            return []
        self.clear()
        self.selected_hand = index
        if Action("play", -1, -1, card) in plays:
            self._say(f"「{name}」无需目标：再点一次或点「施放」，也可拖到棋盘上")
        else:
            self._say(f"「{name}」：点击高亮格，或把牌拖到目标格")
        return []

    def start_drag(self, index: int) -> None:
        """A hand card is being dragged: say where it can go (or why it cannot)."""
        card = self.hand[index]
        name = self.match.db[card].name
        self.clear()
        plays = [a for a in self.match.legal_actions() if a.kind == "play" and a.card == card]
        if any(a.target >= 0 for a in plays):
            self._say(f"拖动「{name}」：在高亮格上松开")
        elif plays:
            self._say(f"拖动「{name}」：在棋盘上任意处松开即施放")
        else:
            target = -1 if self.match.db[card].play_target is None else self._any_cell()
            self._refuse(Action("play", -1, target, card))

    def _any_cell(self) -> int:
        return self.match.geo.throne_cell(self.human)

    def drop_hand(self, index: int, cell: int | None) -> list[Event]:
        """A hand card dragged and released over ``cell`` (None: off the board)."""
        if self._not_now() or not 0 <= index < len(self.hand):
            return []
        m = self.match
        card = self.hand[index]
        if cell is None:
            self._say("已取消：请把牌拖到棋盘的格子上")
            return []
        for a in (Action("play", -1, cell, card), Action("play", -1, -1, card)):
            if m.phase == MAIN and a in m.legal_actions():
                self.clear()
                return self.apply(a)
        self._refuse(Action("play", -1, cell, card))
        return []

    def click_chip(self, index: int) -> list[Event]:
        if self._not_now():
            return []
        chips = self.chips()
        if not 0 <= index < len(chips):
            return []
        chip = chips[index]
        m = self.match
        if not chip.enabled:
            self._say(chip.why or f"「{chip.label}」现在不可用：{chip.sub}", error=True)
            return []
        kind, _, card = chip.key.partition(":")
        cell = self.selected_cell
        direct = {
            "keep": Action("keep"),
            "cancel": Action("cancel"),
            "captain": Action("captain", cell),
            "extra": Action("extra", cell),
            "build": Action("build", cell, -1, card),
        }
        if kind == "cast" and self.selected_hand >= 0:
            return self.apply(Action("play", -1, -1, self.hand[self.selected_hand]))
        if kind in direct:
            return self.apply(direct[kind])
        if kind == "skill" and Action("skill", cell) in m.legal_actions():
            return self.apply(Action("skill", cell))
        self.choice = chip.key
        if kind in ("found", "pick", "tier"):
            self._say(f"「{chip.label}」：点击高亮的格子")
        elif kind == "skill":
            self._say("技能：点击高亮的目标")
        elif kind == ALLY:
            self._say("误伤友军（R-UNIT-4）：点击橙色的己方单位攻击它，被攻击的友军不反击")
        return []

    def end_turn(self) -> list[Event]:
        return self._button(Action("end"))

    def shuffle(self) -> list[Event]:
        return self._button(Action("shuffle"))

    def _button(self, action: Action) -> list[Event]:
        """A button that is one action (结束回合, 洗牌): applied when legal, else the
        engine's reason is said."""
        if self._not_now():
            return []
        if action not in self.match.legal_actions():
            self._refuse(action)
            return []
        return self.apply(action)

    # --- applying --------------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Apply a legal action (either side's) and keep the selection sensible."""
        m = self.match
        pending = m.state.pending
        by_human = m.turn == self.human
        committed = self._commit(action)
        if committed is None:
            return []
        events = committed
        m = self.match  # a playtest's match may be a new object after the action
        self.events.extend(events)
        self.last_action = action
        follow = -1
        if action.kind in ("summon", "extra", "captain", "attack", "skill"):
            follow = action.cell
        elif action.kind == MOVE:
            follow = action.target
        elif action.kind in ("pick", "cancel"):
            follow = pending
        self.selected_hand = -1
        self.selected_cell = -1
        self.choice = ""
        if self.my_turn and m.phase == MAIN and follow >= 0 and self._unit_actions(follow):
            self._select_unit(follow)
        self._auto_choice()
        if by_human:
            done = action_text(action, m.db, m.geo)
            swapped = [e for e in events if e.kind == "replace"]
            if swapped:
                e = swapped[0]
                done = f"换掉「{m.db[e.actor].name}」，换入「{m.db[e.target].name}」"
            waiting = "，对手行动中……" if not m.is_over and m.turn != self.human else ""
            follow_up = ""
            if self.my_turn and m.phase == OPEN_FOUND:
                follow_up = "。下一步：" + self.found_prompt()
            self._say(f"已执行：{done}{waiting}{follow_up}")
        if self.on_events is not None:
            self.on_events(action, events)
        return events

    def _commit(self, action: Action) -> list[Event] | None:
        """Carry out ``action`` on the match: its events, or None when it was refused
        (said in the status line). A playtest's controller sends it to the store instead
        (:mod:`throne_lib.games.throne.ui.playtest`)."""
        try:
            return self.match.apply(action)
        except IllegalAction as error:
            self._say(illegal_text(error.rule, error.reason), error=True)
            return None

    def _auto_choice(self) -> None:
        """Preselect the first chip where a chip must be chosen before a cell."""
        if not self.my_turn or self.choice:
            return
        if self.match.phase in (OPEN_FOUND, CAPTAIN):
            for chip in self.chips():
                if chip.enabled and chip.key.startswith(("found:", "pick:")):
                    self.choice = chip.key
                    return
