"""A kernel client for Voilà's server whose shell channel looks at its socket again every
second and, when a reply is slow to come, nudges the kernel: a page whose
``execute_reply`` was stranded finishes instead of staying at 「Executing n of m」.

``voila.json`` names :class:`WakingKernelClient` (``AsyncKernelManager.client_factory``):
Voilà's executor (nbclient) waits for each cell's ``execute_reply`` with one
``shell_channel.get_msg()`` and no timeout. About one page load in twenty
(``benchmarks/page_hang_loop.py``: home page → 城堡之心 平衡, each on a fresh server, the
shared 2-core machine at load 3–5) never got it, and the page hung with the kernel and
the server both idle. The tasks and sockets of those hangs
(``tests/browser/stackdump/sitecustomize.py``) showed nbclient's iopub task finished (the
kernel had run the cell and gone idle) and its shell poll pending while the shell socket
held a message (POLLIN): the reply had arrived and pyzmq's asyncio poll was never woken
for it. A client of our own asking such a kernel for ``kernel_info`` sometimes finished
the page (ipykernel 7.4 also had a message waiting for its main thread in
``inproc://subshellmain``); ipykernel 6.31 hung the same way.

So :meth:`WakingShellChannel.get_msg` waits in slices of :data:`LOOK_AGAIN_S` (each a new
``poll``), and after :data:`NUDGE_AFTER_S` without a message sends the kernel a
``kernel_info_request`` on the shell channel, then again after twice as long each time
(2, 4, 8, … s: a long cell gets a few, not one a second). nbclient reads the replies and
drops them (their parent is not the cell's request); the kernel answers them after the
cell. ``THRONE_SHELL_WAKE=0`` turns both off (the benchmark's reference).
"""

from __future__ import annotations

import os
import time
from queue import Empty
from typing import Any

from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from traitlets import Type

LOOK_AGAIN_S = 1.0  # a new poll of the socket this often while waiting
NUDGE_AFTER_S = 2.0  # the first kernel_info_request after this long without a message


def waking() -> bool:
    return os.environ.get("THRONE_SHELL_WAKE", "1") != "0"


class WakingShellChannel(AsyncZMQSocketChannel):
    """The asyncio shell channel, waiting in slices and nudging a silent kernel."""

    nudges = 0  # kernel_info_requests this channel sent (tests, logs)

    async def get_msg(self, timeout: float | None = None) -> dict[str, Any]:  # type: ignore[override]
        if not waking():
            return await super().get_msg(timeout)
        start = time.monotonic()
        deadline = None if timeout is None else start + timeout
        gap = NUDGE_AFTER_S
        nudge_at = start + gap
        while True:
            step = LOOK_AGAIN_S
            if deadline is not None:
                step = max(0.0, min(step, deadline - time.monotonic()))
            try:
                return await super().get_msg(timeout=step)
            except Empty:
                now = time.monotonic()
                if deadline is not None and now >= deadline:
                    raise
                if now >= nudge_at:
                    self.nudge()
                    gap *= 2
                    nudge_at = now + gap

    def nudge(self) -> None:
        """A ``kernel_info_request`` on this channel: a request the kernel's shell thread
        hands to its main thread, waking a stream that missed an earlier one."""
        assert self.socket is not None
        self.session.send(self.socket, "kernel_info_request")
        self.nudges += 1


class WakingKernelClient(AsyncKernelClient):
    """jupyter_client's asyncio kernel client with :class:`WakingShellChannel`."""

    shell_channel_class = Type(WakingShellChannel)
