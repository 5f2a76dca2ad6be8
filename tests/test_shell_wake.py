"""throne_serving.shell: the Voilà server's kernel client waits for a shell reply in slices
and nudges a silent kernel with ``kernel_info_request`` (a page whose ``execute_reply``
was stranded finishes; see the module's doc and ``benchmarks/page_hang_loop.py``).

The kernel here is a ZMQ ROUTER of the test's own, so what the channel sends is seen and
when the reply comes is chosen. Times are bounds the test waits within, not figures."""

from __future__ import annotations

import asyncio
from pathlib import Path
from queue import Empty
from typing import Any

import pytest
import zmq
import zmq.asyncio
from jupyter_client.asynchronous.client import AsyncKernelClient
from jupyter_client.channels import AsyncZMQSocketChannel
from jupyter_client.ioloop import AsyncIOLoopKernelManager
from jupyter_client.session import Session
from traitlets.config.loader import JSONFileConfigLoader

from throne_serving import shell

ROOT = Path(__file__).resolve().parents[1]


class FakeKernel:
    """A shell ROUTER: records each request's type; ``reply_to`` answers one."""

    def __init__(self, ctx: zmq.asyncio.Context, session: Session, url: str) -> None:
        self.router = ctx.socket(zmq.ROUTER)
        self.router.bind(url)
        self.session = session
        self.seen: list[tuple[list[bytes], dict[str, Any]]] = []

    async def read(self, timeout: float) -> dict[str, Any] | None:
        if not await self.router.poll(int(timeout * 1000)):
            return None
        frames = await self.router.recv_multipart()
        idents, rest = self.session.feed_identities(frames)
        msg = self.session.deserialize(rest)
        self.seen.append((idents, msg))
        return msg

    def reply_to(self, index: int) -> None:
        idents, msg = self.seen[index]
        self.session.send(self.router, "execute_reply", {"status": "ok"}, parent=msg, ident=idents)


@pytest.fixture
def wired(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.setattr(shell, "LOOK_AGAIN_S", 0.05)
    monkeypatch.setattr(shell, "NUDGE_AFTER_S", 0.2)
    monkeypatch.delenv("THRONE_SHELL_WAKE", raising=False)

    def make(ctx: zmq.asyncio.Context) -> tuple[FakeKernel, shell.WakingShellChannel]:
        session = Session(key=b"k")
        url = f"ipc://{tmp_path}/shell"
        kernel = FakeKernel(ctx, session, url)
        dealer = ctx.socket(zmq.DEALER)
        dealer.connect(url)
        return kernel, shell.WakingShellChannel(dealer, session)

    return make


def test_a_silent_kernel_is_nudged_with_kernel_info_at_growing_gaps(wired: Any) -> None:
    async def run() -> tuple[list[str], int, str]:
        ctx = zmq.asyncio.Context()
        kernel, channel = wired(ctx)
        channel.session.send(channel.socket, "execute_request", {"code": "1"})
        assert await kernel.read(2.0) is not None
        waiting = asyncio.ensure_future(channel.get_msg())  # no timeout: as nbclient waits
        while len(kernel.seen) < 3:  # two nudges: at 0.2 s, then 0.4 s after that
            assert await kernel.read(5.0) is not None, "no nudge came"
        early = channel.nudges
        kernel.reply_to(0)  # now the cell's reply comes
        reply = await asyncio.wait_for(waiting, 5.0)
        ctx.destroy(linger=0)
        return [m["header"]["msg_type"] for _, m in kernel.seen], early, reply["msg_type"]

    types, nudges, reply = asyncio.run(run())
    assert types == ["execute_request", "kernel_info_request", "kernel_info_request"]
    assert nudges == 2
    assert reply == "execute_reply"


def test_a_timeout_is_still_kept_and_a_waiting_reply_is_returned(wired: Any) -> None:
    async def run() -> tuple[float, float]:
        ctx = zmq.asyncio.Context()
        kernel, channel = wired(ctx)
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        with pytest.raises(Empty):
            await channel.get_msg(timeout=0.3)
        waited = loop.time() - t0
        channel.session.send(channel.socket, "execute_request", {"code": "1"})
        assert await kernel.read(2.0) is not None
        kernel.reply_to(0)
        t1 = loop.time()
        await channel.get_msg(timeout=5.0)
        ctx.destroy(linger=0)
        return waited, loop.time() - t1

    waited, got = asyncio.run(run())
    assert waited >= 0.3  # Empty after the timeout, not before it (nor never: run() returned)
    assert got < 30.0  # a liveness bound, not a figure


def test_off_it_is_jupyter_clients_own_wait(wired: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("THRONE_SHELL_WAKE", "0")

    async def run() -> int:
        ctx = zmq.asyncio.Context()
        kernel, channel = wired(ctx)
        with pytest.raises(Empty):
            await channel.get_msg(timeout=0.6)  # three nudge gaps: none sent
        seen = await kernel.read(0.2)
        ctx.destroy(linger=0)
        return channel.nudges + (seen is not None)

    assert asyncio.run(run()) == 0


@pytest.mark.parametrize(
    ("folder", "name"),
    [(ROOT, "voila.json"), (ROOT / "binder" / "jupyter_config", "jupyter_server_config.json")],
)
def test_both_servers_configs_give_kernels_the_waking_client(folder: Path, name: str) -> None:
    """The config Voilà reads (repository root) and Binder's ``jupyter server``
    (binder/jupyter_config): a kernel manager built with it hands out our client, whose
    shell channel is ours (nbclient, Voilà's executor, calls ``km.client()``)."""
    config = JSONFileConfigLoader(name, path=str(folder)).load_config()
    km = AsyncIOLoopKernelManager(config=config)
    client = km.client()
    assert isinstance(client, shell.WakingKernelClient)
    assert isinstance(client, AsyncKernelClient)
    assert client.shell_channel_class is shell.WakingShellChannel
    assert issubclass(shell.WakingShellChannel, AsyncZMQSocketChannel)
