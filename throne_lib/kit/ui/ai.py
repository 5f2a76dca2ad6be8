"""The AI seats' turns in a dashboard, for any game: one action at a time at a tempo, in
an asyncio task, so the page stays responsive and the human sees each action.

Modes: ``"async"`` (a task on the kernel's event loop, for the browser), ``"sync"``
(every AI action at once, for tests and benchmarks; also where no event loop runs) and
``"manual"`` (nothing happens until the game calls its step itself).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from typing import Any


def event_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's running loop, else this thread's loop, else None (no loop at all)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        try:
            return asyncio.get_event_loop()
        except RuntimeError:
            return None


@dataclass(eq=False)  # eq=False: an instance is one live runner, compared by identity
class AiTurns:
    """Runs ``step()`` while ``to_move()`` (an AI seat is to act), waiting ``delay()``
    seconds before each action and calling ``after()`` after each (a redraw).

    Optional hooks: ``think()`` chooses the next action in a worker thread (the time it
    takes counts into the delay; the game's ``step`` reads what it chose); ``gate()`` is
    awaited before each action and returns False to stop (a 「下一步」 button);
    ``finish()`` is awaited when the AI seats are done; ``on_error(exc)`` shows an error
    instead of killing the kernel's loop.
    """

    to_move: Callable[[], bool]
    step: Callable[[], Any]
    after: Callable[[], None] = lambda: None
    delay: Callable[[], float] = lambda: 0.0
    mode: str = "async"
    _: KW_ONLY
    think: Callable[[], Any] | None = None
    gate: Callable[[], Awaitable[bool]] | None = None
    finish: Callable[[], Awaitable[None]] | None = None
    on_error: Callable[[Exception], None] | None = None
    # State, not arguments: what think() chose for the next step, and the running task.
    chosen: Any = field(default=None, init=False, repr=False)
    task: asyncio.Task[None] | None = field(default=None, init=False, repr=False)

    @property
    def running(self) -> bool:
        return self.task is not None and not self.task.done()

    def run_now(self) -> None:
        """Every AI action at once (no waiting), then one ``after()``."""
        while self.to_move():
            self.step()
        self.after()

    def start(self) -> None:
        """Let the AI seats play if one is to act (in the way of ``mode``)."""
        if self.mode == "manual" or not self.to_move():
            return
        if self.mode == "sync":
            self.run_now()
            return
        if self.running:
            return
        loop = event_loop()
        if loop is None:  # no loop at all: play at once
            self.run_now()
            return
        self.task = loop.create_task(self.run())

    async def run(self) -> None:
        """Play the AI seats to the end of their turns (what the task runs)."""
        try:
            loop = asyncio.get_running_loop()
            gated = False
            while not gated:
                while self.to_move():
                    if self.gate is not None and not await self.gate():
                        gated = True
                        break
                    t0 = time.perf_counter()
                    if self.think is not None:
                        self.chosen = await loop.run_in_executor(None, self.think)
                    await asyncio.sleep(max(0.0, self.delay() - (time.perf_counter() - t0)))
                    if self.to_move():
                        self.step()
                        self.after()
                if self.finish is not None:
                    await self.finish()
                else:
                    self.after()
                # While finish() was awaited the human may have ended their turn: start()
                # saw this task still running and left the AI's new turn to it.
                if not self.to_move():
                    break
        except Exception as error:  # noqa: BLE001 - show it, never kill the kernel loop
            if self.on_error is None:
                raise
            self.on_error(error)
