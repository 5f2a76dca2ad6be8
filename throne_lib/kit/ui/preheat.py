"""A preheated Voilà kernel waits for its visitor before reading the page's link.

``voila.json`` keeps kernels of some dashboards heated (``preheat_kernel``, a pool per
notebook): Voilà starts each and runs its notebook before anyone asks, so a visitor skips
the kernel start and the imports. Such a kernel does not know its page's URL until a
visitor takes it: Voilà then sends the request's environment (``QUERY_STRING`` …) over a
websocket (``voila.utils.wait_for_request``). :func:`wait_for_visitor` is that wait; a
notebook calls it after its imports and before it reads anything of its visitor — a
playtest seat link (``?playtest=…&token=…``), the last settings.

Voilà starts the kernel that refills a pool with the *previous* visitor's URL in
``$VOILA_REQUEST_URL`` (``VoilaKernelManager.get_rendered_notebook`` passes it on as an
extra environment variable), which for a playtest seat carries that seat's token; the
wait drops it, so the kernel's next page never reads another seat's link.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import sys
import threading
import time

LOG = logging.getLogger("throne.demo")

# Kernel ids of this process that received their visitor: a second call returns at once.
_visited: set[str] = set()


def timeline(event: str) -> None:
    """With ``$THRONE_TIMELINE`` set (``benchmarks/join_at_once.py --timeline``), write
    ``[throne] timeline <kernel id> <event> <wall-clock s>`` to the server's log: when a
    pool kernel's visitor came, when its page was built. Nothing of the page is written."""
    if os.environ.get("THRONE_TIMELINE") and sys.__stderr__ is not None:
        kernel_id = os.environ.get("VOILA_KERNEL_ID", "-")
        sys.__stderr__.write(f"[throne] timeline {kernel_id} {event} {time.time():.3f}\n")
        sys.__stderr__.flush()


def preheated() -> bool:
    """This is a Voilà pool kernel (its page may not be known yet)."""
    return os.environ.get("VOILA_PREHEAT", "False") != "False"


def visitor_pending() -> bool:
    """A pool kernel whose visitor has not come yet: ``$QUERY_STRING`` is not the page's."""
    return preheated() and os.environ.get("VOILA_KERNEL_ID", "") not in _visited


def server_log(line: str) -> None:
    """Write ``line`` to the kernel process's own stderr, which the Voilà server logs,
    and never to the page: ipykernel captures file descriptor 2 and forwards what is
    written there (``sys.__stderr__`` included) to the running cell's output, which
    Voilà shows the visitor as a pink error box. The descriptor ipykernel keeps for the
    terminal is the way past that capture."""
    fd = getattr(sys.stderr, "_original_stdstream_copy", None)  # ipykernel's OutStream
    if isinstance(fd, int):
        os.write(fd, line.encode())
    elif sys.__stderr__ is not None:  # no capture: fd 2 is the process's stderr
        sys.__stderr__.write(line)
        sys.__stderr__.flush()


def wait_for_visitor() -> None:
    """Pause a preheated kernel until a page claims it (a no-op anywhere else, and once
    the visitor came).

    The notebook builds what does not depend on its visitor, then calls this; what it
    must read when the page is opened (the link, the last settings, the card table) it
    reads after. While it waits the kernel is busy, and the idle culler (``cull_busy``
    off) leaves it alone: a pool kernel culled while idle would be handed to the next
    visitor dead.

    This speaks Voilà's protocol (``voila.utils.wait_for_request``: a websocket to
    ``voila/query/<kernel id>`` that receives the request's environment) without
    importing ``voila.utils``: that module imports jupyter_server and jupyterlab_server,
    2.5 s on the loaded 2-core machine, and the first visitor after a server start,
    who arrives while the pool kernel is still heating, waited for it (8.5 s from the
    notebook's imports to the visitor, 0.02 s with this).
    """
    if not visitor_pending():
        return  # JupyterLab, nbval, a plain or non-pooled Voilà kernel, a second call
    kernel_id = os.environ.get("VOILA_KERNEL_ID", "")
    os.environ.pop("VOILA_REQUEST_URL", None)  # the previous visitor's (see the module doc)
    os.environ.pop("QUERY_STRING", None)  # only the visitor's own may be read
    protocol = os.environ.get("VOILA_WS_PROTOCOL", "ws")
    host = os.environ.get("VOILA_APP_IP", "127.0.0.1")
    port = os.environ.get("VOILA_APP_PORT", "8866")
    base = os.environ.get("VOILA_WS_BASE_URL", os.environ.get("VOILA_SERVER_URL", "/"))
    url = f"{protocol}://{host}:{port}{base}voila/query/{kernel_id}"
    received: list[str] = []
    # The server log says when a pool kernel is ready (Voilà's "pool is filled" comes
    # when the kernel starts, before its notebook ran): benchmarks and tests wait for it.
    server_log(f"[throne] page built, waiting for a visitor: kernel {kernel_id}\n")

    async def receive() -> None:
        import websockets  # Voilà's own dependency

        try:
            async with websockets.connect(url, open_timeout=5) as ws:
                message = await ws.recv()
        except (OSError, TimeoutError, websockets.WebSocketException) as error:
            LOG.warning("no request info from %s: %r", url, error)
            return
        received.append(message if isinstance(message, str) else message.decode())

    # The kernel's own loop is running this cell: the wait gets a loop of its own.
    thread = threading.Thread(target=lambda: asyncio.run(receive()), name="wait-for-visitor")
    thread.start()
    thread.join()
    _visited.add(kernel_id)
    timeline("visitor")
    if received:
        for key, value in json.loads(received[0]).items():
            os.environ[str(key)] = str(value)
