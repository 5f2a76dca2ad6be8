"""Loaded by every Python process of a test's Voilà server (the server and its kernels:
``tests/browser/conftest.py`` puts this folder on their ``PYTHONPATH``).

SIGUSR1 makes the process write the Python stack of each of its threads to the server
log, SIGUSR2 the stack of each asyncio task of its running loop and each open ZMQ socket
(type, endpoint, whether a message waits in it): when a page hangs, the harness sends
both before stopping the server, so the log shows where each process was waiting and
where a message sat unread. The file is a copy of file descriptor 2 made now, before
ipykernel redirects descriptor 2 to the page.
"""

import faulthandler
import os
import signal

_LOG = os.fdopen(os.dup(2), "w")
faulthandler.register(signal.SIGUSR1, file=_LOG, all_threads=True)


def _dump_tasks(_signum: int, _frame: object) -> None:
    """SIGUSR2: the stack of every asyncio task of the loop running in this thread (what
    a coroutine awaits; faulthandler shows threads only)."""
    import asyncio

    try:
        tasks = asyncio.all_tasks()
    except RuntimeError:  # no loop running here
        _LOG.write("(no running asyncio loop)\n")
        _LOG.flush()
        return
    for task in tasks:
        _LOG.write(f"Task {task.get_name()}: {task!r:.300}\n")
        task.print_stack(limit=25, file=_LOG)
    _dump_sockets()
    _LOG.flush()


def _dump_sockets() -> None:
    """Each open ZMQ socket's type, endpoint and whether a message waits in it (POLLIN):
    a reply that arrived but whose reader was never woken shows here."""
    import gc

    try:
        import zmq
    except ImportError:
        return
    for obj in gc.get_objects():
        if isinstance(obj, zmq.Socket) and not obj.closed:
            try:
                kind = zmq.SocketType(obj.socket_type).name
                events = obj.get(zmq.EVENTS)
                endpoint = obj.get(zmq.LAST_ENDPOINT).decode(errors="replace")
            except zmq.ZMQError as error:
                _LOG.write(f"socket {type(obj).__name__}: {error}\n")
                continue
            waiting = "POLLIN" if events & zmq.POLLIN else "-"
            _LOG.write(f"socket {type(obj).__name__} {kind} {endpoint} {waiting}\n")


signal.signal(signal.SIGUSR2, _dump_tasks)
