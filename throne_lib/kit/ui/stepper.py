"""The replay viewer's controls, for any game: first / previous / next / last, a slider
over every step, jump to round N, and play/pause at a chosen speed. The game's viewer
draws step ``value`` whenever ``on_step`` is called."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import ipywidgets as W

SPEEDS = {"慢 0.5×": 1.2, "标准 1×": 0.6, "快 2×": 0.3, "极快 4×": 0.15}  # seconds per step
BUTTONS = ("« 首", "◀ 上", "下 ▶", "末 »")


class Stepper(W.HBox):
    """Steps 0..``last``; ``rounds[i]`` is the round of step i (for 回合 jumps)."""

    def __init__(
        self,
        last: int,
        on_step: Callable[[int], None],
        rounds: Sequence[int] = (),
        slider_width: str = "420px",
    ) -> None:
        self.last = last
        self.rounds = list(rounds)
        self.on_step = on_step
        self._task: asyncio.Task[None] | None = None
        self.slider = W.IntSlider(
            0,
            min=0,
            max=last,
            description="步",
            continuous_update=False,
            layout=W.Layout(width=slider_width),
        )
        self.slider.observe(lambda ch: self.on_step(int(ch["new"])), names="value")
        b = {k: W.Button(description=k, layout=W.Layout(width="64px")) for k in BUTTONS}
        b["« 首"].on_click(lambda _: self.go(0))
        b["◀ 上"].on_click(lambda _: self.go(self.value - 1))
        b["下 ▶"].on_click(lambda _: self.go(self.value + 1))
        b["末 »"].on_click(lambda _: self.go(self.last))
        self.buttons = b
        kids: list[W.Widget] = [*b.values(), self.slider]
        if self.rounds:
            self.round_box = W.BoundedIntText(
                value=1,
                min=1,
                max=max(1, max(self.rounds)),
                description="回合",
                layout=W.Layout(width="150px"),
            )
            jump = W.Button(description="跳转", layout=W.Layout(width="60px"))
            jump.on_click(lambda _: self.jump_to_round(int(self.round_box.value)))
            kids += [self.round_box, jump]
        self.play = W.ToggleButton(description="▶ 播放", layout=W.Layout(width="90px"))
        self.play.observe(self._on_play, names="value")
        self.speed = W.Dropdown(
            options=list(SPEEDS), value="标准 1×", layout=W.Layout(width="110px")
        )
        super().__init__([*kids, self.play, self.speed])

    def hand_over(self, to: Stepper) -> None:
        """This stepper's view is being replaced by ``to`` (a log opened again): a click
        that reached it meanwhile (queued while the kernel read the log) moves ``to``
        instead of being lost."""
        self.play.value = False
        self.last = to.last
        self.slider.max = max(self.slider.max, to.last)
        self.on_step = to.go

    @property
    def value(self) -> int:
        return int(self.slider.value)

    def go(self, index: int) -> None:
        self.slider.value = max(0, min(self.last, index))

    def jump_to_round(self, round_no: int) -> None:
        """Land on the first step (after the setup, step 0) of round ``round_no``."""
        for index, rnd in enumerate(self.rounds):
            if rnd >= round_no and index > 0:
                self.go(index)
                return

    def _on_play(self, change: dict[str, Any]) -> None:
        if change["new"]:
            self.play.description = "⏸ 暂停"
            if self.value >= self.last:
                self.go(0)
            self._task = asyncio.ensure_future(self._run())
        else:
            self.play.description = "▶ 播放"
            if self._task is not None:
                self._task.cancel()
                self._task = None

    async def _run(self) -> None:
        try:
            while self.play.value and self.value < self.last:
                await asyncio.sleep(SPEEDS[self.speed.value])
                self.go(self.value + 1)
        finally:
            self.play.value = False


REVEAL = -1  # a seat menu's choice 全部公开 (the reviewer's view)


class SeatReplay:
    """What the replay viewers with a seat menu share (城堡之心, 城池战, PIN, the kit's viewer
    for any game): the stepping controls, their buttons marked for the pages' tests
    (``replay-first`` … ``replay-last``), and the seat menu whose value is a seat or
    :data:`REVEAL`. A viewer calls :meth:`make_controls` with its number of steps and
    its ``show``, and builds ``seat_pick`` with its own labels."""

    controls: Stepper
    seat_pick: W.Dropdown

    def make_controls(self, last: int, show: Callable[[int], None]) -> Stepper:
        self.controls = Stepper(last, show, slider_width="340px")
        for widget, css in zip(
            self.controls.buttons.values(), ("first", "back", "forward", "last"), strict=True
        ):
            widget.add_class(f"replay-{css}")
        return self.controls

    @property
    def index(self) -> int:
        """The step shown."""
        return self.controls.value

    @property
    def seat(self) -> int | None:
        """The seat whose view is shown, None for 全部公开."""
        v = int(self.seat_pick.value)
        return None if v == REVEAL else v

    def go(self, index: int) -> None:
        self.controls.go(index)
