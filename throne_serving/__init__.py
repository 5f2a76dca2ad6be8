"""Code the dashboards' server process imports: the kernel websocket without Nagle's
algorithm (issue 17: click -> highlight), and only in the framing Voilà's server can
relay (issue 37: a playtest's server shared with other people).

A package of its own, beside ``throne_lib``: importing ``throne_lib`` loads the engine
and pandas (0.7 s and 80 MB in the Voilà server, which never plays a match); this
imports only jupyter_server, which the server has loaded already.

jupyter_server relays each kernel message to the page as its own websocket frame: a
click on the play board sends about eight (busy, the canvas batch, the status line, the
inspector, idle, …), a few hundred bytes each. Tornado leaves the websocket's TCP socket
with Nagle's algorithm on (its HTTP/1 connection turns ``TCP_NODELAY`` off again when
the upgrade response is finished, and neither Tornado's ``WebSocketHandler`` nor
jupyter_server turns it back on). So the second small frame of a click waits in the
server's send buffer until the browser acknowledges the first one, and the browser's
TCP stack delays that acknowledgement (Linux: 40 ms) hoping to piggyback it on data it
never sends. Measured on localhost (``benchmarks/ui_latency_hops.py``): the kernel's
update reached the page 44.5 ms (median) after the kernel sent it, of a 62.5 ms
click -> highlight; the kernel's own work is under 1 ms on the floor page. With
``TCP_NODELAY`` the same hop takes 4 ms.

:class:`KernelConnection` is jupyter_server's own connection class that sets
``TCP_NODELAY`` on the websocket once it is open (Tornado's documented remedy:
``WebSocketHandler.set_nodelay``). ``voila.json`` names it
(``Voila.kernel_websocket_connection_class``), for every ``voila`` started from the
repository root (``dev.py serve``, the browser tests, ``benchmarks/bench_ui.py``).
Tested by ``tests/test_ui_websocket.py``, which also checks that jupyter_server still
leaves Nagle on (when it no longer does, that part can go).

It also refuses, on Voilà's server, a kernel websocket that does not ask for the
``v1.kernel.websocket.jupyter.org`` framing (every page's script asks for it, as
JupyterLab's does). Voilà's handler (``VoilaKernelWebsocketHandler.write_message``)
reads every binary message it relays in that framing, to drop ``execute_input``; given
a message with buffers (an ipycanvas drawing) in the older framing, it reads a count of
billions from the first eight bytes and loops on it, holding the server's only thread:
every page of every playtest stops until the server is killed. Found by
``benchmarks/join_at_once.py``'s first protocol clients (Voilà 0.5.8). The refusal is an
HTTP 400 that names the framing, before the upgrade. ``jupyter server`` (Binder) relays
with its own handler, which reads both framings: nothing is refused there.

Importing the package also builds the pages' script bundles when the installed front end
changed (:mod:`throne_serving.bundles`) when Voilà imports it (at the server's start,
before the first page; not in tests that import the connection class). ``THRONE_BUNDLES=0`` skips that (pages then load as Voilà ships them unless a
bundle was built before; ``bundles.html.j2`` in the template decides).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from typing import Any

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from tornado import web

LOG = logging.getLogger("throne.websocket")

if "voila.app" in sys.modules and os.environ.get("THRONE_BUNDLES", "1") != "0":
    from throne_serving.bundles import ensure_built

    ensure_built()


V1_PROTOCOL = "v1.kernel.websocket.jupyter.org"


def offered_protocols(handler: Any) -> list[str]:
    """The websocket subprotocols the client's handshake asks for."""
    header = handler.request.headers.get("Sec-WebSocket-Protocol", "")
    return [p.strip() for p in header.split(",") if p.strip()]


def relayed_by_voila(handler: Any) -> bool:
    """The handler is Voilà's, which reads the v1 framing only (see the module doc)."""
    return any(c.__module__.startswith("voila.") for c in type(handler).__mro__)


class KernelConnection(ZMQChannelsWebsocketConnection):
    """jupyter_server's kernel websocket connection with ``TCP_NODELAY`` on its socket
    (each kernel message reaches the browser when it is written, not after the browser's
    delayed acknowledgement of the previous one), refused on Voilà's server unless it
    will speak the v1 framing."""

    async def prepare(self) -> None:
        handler = self.websocket_handler
        # jupyter_server picks v1 when it is offered, unless configured for another framing
        speaks_v1 = self.kernel_ws_protocol in (None, V1_PROTOCOL) and (
            V1_PROTOCOL in offered_protocols(handler)
        )
        if relayed_by_voila(handler) and not speaks_v1:
            self.log.warning("refused a kernel websocket without the %s framing", V1_PROTOCOL)
            raise web.HTTPError(
                400,
                reason=f"this server relays kernel messages only in the {V1_PROTOCOL} "
                "framing (Sec-WebSocket-Protocol); the page's own script asks for it",
            )
        await super().prepare()

    # The signature of ZMQChannelsWebsocketConnection.connect, which itself differs from
    # its base's (a coroutine there).
    def connect(self) -> asyncio.Future[None] | None:  # type: ignore[override]
        try:
            self.websocket_handler.set_nodelay(True)
        except (AssertionError, AttributeError, OSError) as error:  # a closed stream
            LOG.debug("could not set TCP_NODELAY on the kernel websocket: %r", error)
        return super().connect()
