"""Loaded by every Python process of a test's Voilà server (the server and its kernels:
``tests/browser/conftest.py`` puts this folder on their ``PYTHONPATH``).

SIGUSR1 makes the process write the Python stack of each of its threads to the server
log: when a page hangs, the harness sends it before stopping the server, so the log
shows where each process was waiting. The file is a copy of file descriptor 2 made now,
before ipykernel redirects descriptor 2 to the page.
"""

import faulthandler
import os
import signal

_LOG = os.fdopen(os.dup(2), "w")
faulthandler.register(signal.SIGUSR1, file=_LOG, all_threads=True)
