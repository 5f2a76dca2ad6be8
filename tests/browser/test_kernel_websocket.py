"""The served kernel websocket refuses the framing Voilà's server cannot relay (issue 37:
a playtest's server is shared with other people; throne_serving's module doc).

Voilà 0.5's handler reads every binary message it relays in the v1 framing; a client of
the older framing froze the server's only thread at the first message with buffers
(``benchmarks/join_at_once.py``'s first protocol clients: every page stopped). Here a
real server: the older framing is refused at the handshake with a reason, the v1
framing the pages use gets the kernel's replies, and the server goes on serving.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import urllib.request
import uuid
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import pytest
import websockets
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)
from websockets.exceptions import InvalidStatus

pytestmark = pytest.mark.browser

V1 = "v1.kernel.websocket.jupyter.org"
CONFIG = re.compile(r'<script id="jupyter-config-data"[^>]*>(.*?)</script>', re.S)


def get(url: str) -> str:
    with urllib.request.urlopen(url, timeout=120) as response:
        body: bytes = response.read()
    return body.decode("utf-8")


def open_page(base: str) -> str:
    """Fetch the page's HTML (Voilà starts and runs its kernel); its kernel id."""
    found = CONFIG.search(get(base))
    assert found, "no jupyter-config-data in the page"
    kernel: str = json.loads(found.group(1))["kernelId"]
    return kernel


def shutdown(base: str, kernel: str) -> None:
    """What a closed page's beacon does (the form's ``_xsrf`` equal to the cookie's)."""
    token = os.urandom(16).hex()
    request = urllib.request.Request(
        f"{base}voila/api/shutdown/{kernel}",
        data=urlencode({"_xsrf": token}).encode(),
        headers={"Cookie": f"_xsrf={token}"},
    )
    urllib.request.urlopen(request, timeout=30).read()


def kernel_info_request(session: str) -> bytes:
    header = {"msg_id": uuid.uuid4().hex, "username": "test", "session": session,
              "msg_type": "kernel_info_request", "version": "5.3", "date": ""}  # fmt: skip
    parts = [header, {}, {}, {}]
    frame: bytes = serialize_msg_to_ws_v1([json.dumps(p).encode() for p in parts], "shell")
    return frame


async def legacy_refused(ws_url: str) -> Any:
    with pytest.raises(InvalidStatus) as refused:
        async with websockets.connect(ws_url, open_timeout=60):
            pass
    return refused.value.response


async def v1_reply(ws_url: str, session: str) -> tuple[str | None, dict[str, Any]]:
    async with websockets.connect(
        ws_url,
        open_timeout=60,
        subprotocols=[V1],  # type: ignore[list-item]
    ) as ws:
        await ws.send(kernel_info_request(session))
        while True:
            frame = await asyncio.wait_for(ws.recv(), timeout=60)
            assert isinstance(frame, bytes), "a text frame on a v1 websocket"
            channel, parts = deserialize_msg_from_ws_v1(frame)
            header = json.loads(parts[0])
            if header["msg_type"] == "kernel_info_reply":
                content: dict[str, Any] = json.loads(parts[3])
                return ws.subprotocol, {"channel": channel, **content}


def test_the_older_framing_is_refused_and_the_server_goes_on(
    voila_url: Callable[[str], str],
) -> None:
    base = voila_url("notebooks/index.ipynb")
    kernel = open_page(base)
    session = uuid.uuid4().hex
    ws_url = f"ws{base[4:]}api/kernels/{kernel}/channels?session_id={session}"
    try:
        response = asyncio.run(legacy_refused(ws_url))
        assert response.status_code == 400
        assert V1 in response.reason_phrase
        protocol, reply = asyncio.run(v1_reply(ws_url, session))
        assert protocol == V1
        assert reply["channel"] == "shell" and reply["status"] == "ok"
        assert reply["implementation"] == "ipython"
        other = open_page(base)  # the server still serves pages
        assert other != kernel
        shutdown(base, other)
    finally:
        shutdown(base, kernel)
