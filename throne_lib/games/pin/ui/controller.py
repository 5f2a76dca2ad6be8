"""What a click means on the PIN board: selections, highlights and the legal action a
click applies. Every choice comes from ``legal_actions()`` (PIN-UI-5, -6, -7); the
controller never decides legality and never reads the opponent's hidden cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from throne_lib.games.pin import ui_model as ui
from throne_lib.games.pin.actions import PinAction, PinEvent
from throne_lib.games.pin.hexes import label
from throne_lib.games.pin.match import PinMatch


@dataclass
class Selection:
    unit: str = ""  # a unit ref
    card: str = ""  # a hand card id
    mulligan: list[str] = field(default_factory=list)  # cards picked to change


class PinController:
    def __init__(self, match: PinMatch, human: int = 0) -> None:
        self.match = match
        self.human = human
        self.sel = Selection()
        self.log: list[str] = []  # the 战报 the human may see
        self.message = ""
        # told of every action applied here (either seat's), after it: the page's log file
        self.on_applied: Callable[[list[PinEvent]], None] | None = None

    # --- queries -----------------------------------------------------------------
    @property
    def my_turn(self) -> bool:
        return not self.match.is_over and self.match.current_seat == self.human

    def legal(self) -> list[PinAction]:
        return self.match.legal_actions() if self.my_turn else []

    def highlights(self) -> dict[str, list[str]]:
        """Cells to mark: moves (green), targets (red), deploy cells (gold; a full one
        ``full``: the unit would retreat at once), retreat ends."""
        out: dict[str, list[str]] = {
            "move": [], "target": [], "deploy": [], "full": [], "retreat": []
        }  # fmt: skip
        legal = self.legal()
        m = self.match
        if self.sel.unit:
            for a in legal:
                if a.args and a.args[0] == self.sel.unit:
                    if a.kind == "move":
                        out["move"].append(a.args[1])
                    elif a.kind in ("attack", "special") and a.args[1] != "-":
                        out["target"].append(self._cell_of(a.args[1]))
        if self.sel.card:
            slots = m.observation(self.human)["slots"]
            for a in legal:
                if a.args and a.args[0] == self.sel.card:
                    if a.kind == "deploy":  # a full cell: the unit would retreat (PIN-STACK)
                        full = len(slots.get(a.args[1], [])) >= m.rules.slots_per_cell
                        out["full" if full else "deploy"].append(a.args[1])
                    elif a.kind in ("play", "counter") and a.args[1] != "-":
                        out["target"].append(self._cell_of(a.args[1]))
        d = m.state.pending
        if d is not None and d.kind == "retreat" and self.my_turn:
            out["retreat"] = [a.args[1] for a in legal if a.args[1] != "hand"]
        return {k: sorted(set(v)) for k, v in out.items()}

    def _cell_of(self, target: str) -> str:
        if target[0].isdigit():
            return target
        from throne_lib.games.pin.state import parse_ref

        return label(self.match.state.units[parse_ref(target)].cell)

    def buttons(self) -> list[tuple[str, PinAction | str]]:
        """The prompt's buttons: (label, action or a UI command)."""
        legal = self.legal()
        m = self.match
        d = m.state.pending
        if not legal:
            return []
        if d is not None and d.kind == "mulligan":
            picked = "、".join(m.db[c].name for c in self.sel.mulligan) or "不换牌"
            return [(f"确认换牌：{picked}", "confirm_mulligan")]
        if d is not None:
            return [(m.describe(a), a) for a in legal]
        out: list[tuple[str, PinAction | str]] = []
        if self.sel.unit:
            menu = ui.unit_menu(m, self.sel.unit)
            if menu["activate"] is not None:
                out.append((menu["activate"]["label"], menu["activate"]["action"]))
            for a in menu["specials"]:
                out.append((m.describe(a), a))
        if self.sel.card:
            out += [
                (m.describe(a), a)
                for a in legal
                if a.kind == "play" and a.args[0] == self.sel.card and a.args[1] == "-"
            ]
        if PinAction("end") in legal:
            out.append(("结束回合", PinAction("end")))
        return out

    # --- input -------------------------------------------------------------------
    def press(self, choice: PinAction | str) -> list[PinEvent]:
        if choice == "confirm_mulligan":
            text = "+".join(sorted(self.sel.mulligan)) or "-"
            self.sel = Selection()
            return self.apply(PinAction("mulligan", (text,)))
        assert isinstance(choice, PinAction)
        return self.apply(choice)

    def click_card(self, card: str) -> None:
        """A hand card: in the mulligan, toggle it; otherwise select it (PIN-UI-6)."""
        d = self.match.state.pending
        if d is not None and d.kind == "mulligan":
            if card in self.sel.mulligan:
                self.sel.mulligan.remove(card)
            else:
                self.sel.mulligan.append(card)
            return
        self.sel = Selection(card="" if self.sel.card == card else card)

    def click_cell(self, cell: int, slot: int | None = None) -> list[PinEvent]:
        """A board click: deploy / move / attack / retreat if legal, else (re)select."""
        m = self.match
        name = label(cell)
        legal = self.legal()
        refs = m.observation(self.human)["slots"].get(name, [])
        picked = refs[slot] if slot is not None and slot < len(refs) else None
        d = m.state.pending
        if d is not None and d.kind == "retreat":
            hit = next((a for a in legal if a.args[1] == name), None)
            return self.apply(hit) if hit else []
        if self.sel.card:
            for a in legal:
                if a.args and a.args[0] == self.sel.card:
                    if a.kind == "deploy" and a.args[1] == name:
                        return self.apply(a)
                    aimed = a.args[1] in (name, picked) or (picked is None and a.args[1] in refs)
                    if a.kind in ("play", "counter") and aimed:
                        return self.apply(a)
        if self.sel.unit:
            for a in legal:
                if a.args and a.args[0] == self.sel.unit:
                    if a.kind == "move" and a.args[1] == name:
                        return self.apply(a)
                    if a.kind in ("attack", "special") and (
                        a.args[1] == picked or (picked is None and a.args[1] in refs)
                    ):
                        return self.apply(a)
        mine = [r for r in refs if r.startswith("u") and self._side(r) == self.human]
        if picked is not None and picked in mine:
            self.sel = Selection(unit=str(picked))
        elif mine:
            self.sel = Selection(unit=mine[0])
        else:
            self.sel = Selection()
        return []

    def _side(self, ref: str) -> int:
        from throne_lib.games.pin.state import parse_ref

        return self.match.state.units[parse_ref(ref)].side

    def apply(self, action: PinAction) -> list[PinEvent]:
        events = self.match.apply(action)
        self._record(events)
        keep = self.sel.unit if action.kind in ("activate", "move", "attack", "special") else ""
        self.sel = Selection(unit=keep if keep and self._alive(keep) else "")
        return events

    def _alive(self, ref: str) -> bool:
        from throne_lib.games.pin.state import parse_ref

        return parse_ref(ref) in self.match.state.units

    def _record(self, events: list[PinEvent]) -> None:
        for e in events:
            if e.private is None or e.private == self.human:
                self.log.append(e.text)
        if self.on_applied is not None:
            self.on_applied(events)

    def ai_step(self, agent: Any) -> list[PinEvent]:
        """One action of the agent playing the other seat."""
        events = self.match.apply(agent.choose(self.match))
        self._record(events)
        return events
