"""「对手」: a play page's choice of opponents — the game's scripted agent, or ISMCTS
(:mod:`throne_lib.kit.ismcts`) with a think time per decision — for any game.

The page asks :meth:`OpponentPicker.agent` for each AI seat when it starts a match, runs
:meth:`OpponentPicker.think` in a worker thread (``AiTurns(think=…)``) so the kernel stays
responsive while the search runs, and adds :meth:`OpponentPicker.thinking` (or, from the
agent it built, :func:`agent_thinking`) to its status line while an ISMCTS seat is to act.
A game with more agents than these two passes them as ``options``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

SCRIPTED = "scripted"
ISMCTS = "ismcts"
OPTIONS = (("规则 AI", SCRIPTED), ("信息集搜索 ISMCTS", ISMCTS))


def thinking_text(seconds: float | None = None) -> str:
    """The status line while an ISMCTS seat searches (``seconds``: its think time)."""
    about = "" if seconds is None else f"，每步约 {float(seconds):.1f} 秒"
    return f"AI 思考中（信息集搜索{about}）…"


def agent_thinking(agent: Any) -> str:
    """:func:`thinking_text` of ``agent``'s own think time when it searches (ISMCTS), else
    "" (a page whose slider has moved since the match began still says the right time)."""
    if getattr(agent, "name", "") != ISMCTS:
        return ""
    seconds = getattr(agent, "seconds", None)
    return thinking_text(None if seconds is None else float(seconds))


class OpponentPicker(W.HBox):
    """A dropdown (规则 AI / 信息集搜索) and, for ISMCTS, a think-time slider in seconds
    (CPU time of the thinking thread per decision).

    ``options``: (label, agent name) pairs instead of :data:`OPTIONS` (one of them
    :data:`ISMCTS`); ``value`` the one chosen at first."""

    def __init__(
        self,
        game: str,
        think: float = 0.5,
        css: str = "opponent-picker",
        options: Sequence[tuple[str, str]] = OPTIONS,
        value: str = SCRIPTED,
        width: str = "270px",
    ) -> None:
        self.game = game
        self.kind = W.Dropdown(
            options=list(options), value=value, description="对手", layout=W.Layout(width=width)
        )
        self.seconds = W.FloatSlider(
            value=think, min=0.1, max=3.0, step=0.1, description="思考时间(秒)",
            readout_format=".1f", layout=W.Layout(width="300px", display="none"),
        )  # fmt: skip
        self.kind.tooltip = self.seconds.tooltip = (
            "从下一局起生效"  # the running match keeps its AI
        )
        self.kind.add_class(f"{css}-kind")
        self.seconds.add_class(f"{css}-think")
        self.kind.observe(lambda _: self._show_slider(), names="value")
        super().__init__([self.kind, self.seconds])
        self.add_class(css)
        self._show_slider()

    def _show_slider(self) -> None:
        self.seconds.layout.display = "" if self.searching else "none"

    @property
    def searching(self) -> bool:
        return bool(self.kind.value == ISMCTS)

    @property
    def name(self) -> str:
        """The agent name a log records for the AI seats (the chosen option's)."""
        return str(self.kind.value)

    def agent(self, seed: int, seat: int, scripted: Callable[[int, int], Any]) -> Any:
        """The agent of an AI seat: ISMCTS with the think time, else ``scripted(seed,
        seat)`` (which builds the agent :attr:`name` names where there are more options)."""
        if not self.searching:
            return scripted(seed, seat)
        from throne_lib.kit.ismcts import IsmctsAgent

        return IsmctsAgent(seed * 16 + seat, game=self.game, seconds=float(self.seconds.value))

    def think(self, match: Any, agents: list[Any]) -> Any:
        """The next AI action, chosen on a copy of the match (run in a worker thread)."""
        sim = match.copy()
        return agents[sim.current_seat].choose(sim)

    def step_agent(self, chosen: Any, match: Any, agent: Any) -> Any:
        """What plays the AI's next action: the one ``think`` chose (still legal), else
        ``agent`` itself."""
        if chosen is not None and chosen in match.legal_actions():
            return Planned(chosen)
        return agent

    def thinking(self) -> str:
        return thinking_text(float(self.seconds.value))


class Planned:
    """An agent that plays one action chosen beforehand (by a worker thread)."""

    name = "planned"

    def __init__(self, action: Any) -> None:
        self.action = action

    def choose(self, match: Any) -> Any:
        return self.action
