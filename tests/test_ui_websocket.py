"""The kernel websocket's TCP_NODELAY (issue 17: click -> highlight).

jupyter_server's kernel websocket leaves Nagle's algorithm on: Tornado's HTTP/1
connection turns ``TCP_NODELAY`` off when the upgrade response is finished, so a click's
second reply frame waited for the browser's delayed ACK (40 ms on Linux;
``benchmarks/ui_latency_hops.py``). voila.json names
:class:`throne_serving.KernelConnection`, which turns it back on.
"""

from __future__ import annotations

import asyncio
import json
import socket
from pathlib import Path
from typing import Any

import pytest
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
from tornado.httpserver import HTTPServer
from tornado.web import Application
from tornado.websocket import WebSocketHandler, websocket_connect

from throne_serving import KernelConnection

ROOT = Path(__file__).resolve().parents[1]


def nodelay_after_open(connection_class: type[ZMQChannelsWebsocketConnection]) -> int:
    """A real Tornado websocket whose ``open`` runs ``connection_class.connect`` (as
    jupyter_server's KernelWebsocketHandler does; the kernel side is stubbed): the
    server socket's TCP_NODELAY once the client has connected and sent a frame (read then,
    not in ``open``: anything that turned it off after ``open`` would show)."""
    sockets: list[socket.socket] = []
    seen: list[int] = []

    class Handler(KernelWebsocketHandler):
        """jupyter_server's handler without its authentication and kernel lookup."""

        async def prepare(self, *args: Any, **kwargs: Any) -> None:
            pass

        def check_origin(self, origin: str) -> bool:
            return True

        async def get(self, *args: Any, **kwargs: Any) -> None:
            await WebSocketHandler.get(self, *args, **kwargs)

        def select_subprotocol(self, subprotocols: list[str]) -> None:
            return None

        def on_message(self, message: str | bytes) -> None:
            pass

        def on_close(self) -> None:
            pass

        async def open(self, *args: Any, **kwargs: Any) -> None:
            connection_class(websocket_handler=self).connect()
            sockets.append(self.ws_connection.stream.socket)  # type: ignore[union-attr]

    async def main() -> None:
        server = HTTPServer(Application([(r"/ws", Handler)]))
        sock = socket.socket()
        sock.bind(("127.0.0.1", 0))
        sock.listen(8)
        sock.setblocking(False)
        server.add_sockets([sock])
        port = sock.getsockname()[1]
        try:
            client = await websocket_connect(f"ws://127.0.0.1:{port}/ws")
            await client.write_message("ping")  # the handshake and open() are done
            await asyncio.sleep(0.05)
            seen.extend(s.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) for s in sockets)
            client.close()
        finally:
            server.stop()

    asyncio.run(main())
    assert len(seen) == 1
    return seen[0]


@pytest.fixture
def no_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """jupyter_server's connect() wires the kernel's ZMQ channels: not here."""
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: None)


@pytest.mark.usefixtures("no_kernel")
def test_jupyter_servers_own_connection_leaves_nagle_on() -> None:
    """The upstream cause: without our class the kernel websocket has Nagle on (if this
    fails, Tornado or jupyter_server now set TCP_NODELAY themselves and
    KernelConnection can go)."""
    assert nodelay_after_open(ZMQChannelsWebsocketConnection) == 0


@pytest.mark.usefixtures("no_kernel")
def test_no_delay_connection_sets_tcp_nodelay() -> None:
    assert nodelay_after_open(KernelConnection) != 0


def test_voila_json_names_the_connection_class() -> None:
    """voila.json (read by `voila` from the repository root: bench_ui, dev.py serve,
    the browser tests) makes Voilà's server use it."""
    from traitlets.config.loader import JSONFileConfigLoader
    from voila.app import Voila

    config = JSONFileConfigLoader("voila.json", path=str(ROOT)).load_config()
    assert config.Voila.kernel_websocket_connection_class == "throne_serving.KernelConnection"
    app = Voila(config=config)
    assert app.kernel_websocket_connection_class is KernelConnection
    assert json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))["Voila"]


def test_binder_server_uses_it_too(tmp_path: Path) -> None:
    """Binder serves the pages from `jupyter server` (voila/render/…): binder/start puts
    binder/jupyter_config on JUPYTER_CONFIG_PATH, whose jupyter_server_config.json names
    the class for ServerApp, the owner of that server's kernel websocket."""
    import os
    import subprocess
    import sys

    from jupyter_server.serverapp import ServerApp

    env = {k: v for k, v in os.environ.items() if k != "JUPYTER_CONFIG_PATH"}
    env["REPO_DIR"] = str(ROOT)
    script = "from jupyter_core.paths import jupyter_config_path; print(jupyter_config_path()[0])"
    first = subprocess.run(
        ["bash", str(ROOT / "binder" / "start"), sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(first) == ROOT / "binder" / "jupyter_config"
    from traitlets.config.loader import JSONFileConfigLoader

    config = JSONFileConfigLoader("jupyter_server_config.json", path=first).load_config()
    app = ServerApp(config=config, runtime_dir=str(tmp_path), config_dir=str(tmp_path))
    assert app.kernel_websocket_connection_class is KernelConnection


# Issue 37: Voilà's handler relays only the v1 framing (throne_serving's module doc).
V1 = "v1.kernel.websocket.jupyter.org"


def handshake(handler_class: type, protocols: str | None) -> Any:
    """A kernel websocket handler of that class as the handshake left it: only its
    request's headers are read before the connection's own ``prepare``."""
    from tornado.httputil import HTTPHeaders

    handler = handler_class.__new__(handler_class)
    headers = HTTPHeaders({"Sec-WebSocket-Protocol": protocols} if protocols is not None else {})
    handler.request = type("Request", (), {"headers": headers})()
    return handler


@pytest.fixture
def prepared(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """jupyter_server's own prepare (the kernel's session) records its handler instead."""
    calls: list[Any] = []

    async def record(self: ZMQChannelsWebsocketConnection) -> None:
        calls.append(self.websocket_handler)

    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "prepare", record)
    return calls


def prepare(handler: Any, **config: Any) -> None:
    asyncio.run(KernelConnection(websocket_handler=handler, **config).prepare())


@pytest.mark.parametrize("protocols", [None, "", "kernel.websocket.jupyter.org", " v2.other"])
def test_voila_refuses_a_kernel_websocket_without_the_v1_framing(
    prepared: list[Any], protocols: str | None
) -> None:
    from tornado.web import HTTPError
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    with pytest.raises(HTTPError) as refused:
        prepare(handshake(VoilaKernelWebsocketHandler, protocols))
    assert refused.value.status_code == 400
    assert V1 in (refused.value.reason or "")
    assert prepared == []  # no session registered, no kernel_info asked


@pytest.mark.parametrize("protocols", [V1, f"other, {V1}"])
def test_voila_takes_a_kernel_websocket_that_asks_for_v1(
    prepared: list[Any], protocols: str
) -> None:
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    handler = handshake(VoilaKernelWebsocketHandler, protocols)
    prepare(handler)
    assert prepared == [handler]


def test_voila_refuses_v1_when_configured_for_the_legacy_framing(prepared: list[Any]) -> None:
    """``kernel_ws_protocol = ""`` makes jupyter_server pick the legacy framing even when
    v1 is offered: Voilà's handler would freeze on it too."""
    from tornado.web import HTTPError
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    with pytest.raises(HTTPError):
        prepare(handshake(VoilaKernelWebsocketHandler, V1), kernel_ws_protocol="")
    assert prepared == []


def test_jupyter_servers_own_handler_keeps_the_legacy_framing(prepared: list[Any]) -> None:
    """Binder's ``jupyter server`` relays with jupyter_server's handler, which reads both
    framings: nothing refused there."""
    handler = handshake(KernelWebsocketHandler, None)
    prepare(handler)
    assert prepared == [handler]
