"""Fixtures for browser tests: Voilà servers on localhost and Debian's Chromium via Playwright.

    def test_something(voila_url, page):
        page.goto(voila_url("notebooks/play.ipynb"))

`voila_url(notebook)` starts one Voilà server per notebook (per test session) on a free
port of 127.0.0.1 and returns its URL; every server is stopped at the end of the session.
Browser tests never skip: a missing Chromium or Playwright is a failure.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

import pytest
from voila_pools import pools_args

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
VENV_BIN = Path(sys.executable).parent
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# A server starting six preheated castle kernels did not answer within 60 s on the 2 shared
# cores at load 4 (a ladder beside the test run, 2026-12-06): the wait is a bound, not a
# figure, so it leaves room.
START_TIMEOUT_S = 120.0
NAVIGATION_TIMEOUT_MS = 120_000  # a goto or reload renders the notebook (page fixture)
# Preheated kernels per notebook in the test servers: voila.json's pools, each cut to this
# size (a tree-mode server would otherwise start every pool's kernels at once — 14 — on
# CI's 2 cores); a test that needs a bigger pool names it (``pools=``).
TEST_POOL_SIZE = 1
BUILT = "[throne] page built, waiting for a visitor"  # throne_lib.kit.ui.preheat
TAKEN = "Using pre-heated kernel"  # Voilà's log, a pool kernel handed to a page
STACKDUMP = Path(__file__).resolve().parent / "stackdump"


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def server_pools(pools: dict[str, int] | None = None) -> dict[str, dict[str, int]]:
    """The ``kernel_pools_config`` a test server gets: ``pools`` (notebook -> size, every
    other notebook none) or voila.json's, each at most :data:`TEST_POOL_SIZE`."""
    if pools is not None:
        return {"default": {"pool_size": 0}} | {k: {"pool_size": v} for k, v in pools.items()}
    cfg = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    own: dict[str, dict[str, int]] = cfg["VoilaKernelManager"]["kernel_pools_config"]
    return {k: {"pool_size": min(v.get("pool_size", 0), TEST_POOL_SIZE)} for k, v in own.items()}


def _answers_http(url: str) -> bool:
    # Any HTTP answer means the server is up. Ask for a static path that 404s cheaply:
    # a GET on "/" would start a kernel and execute the notebook.
    try:
        with urllib.request.urlopen(url + "voila/static/", timeout=2):
            return True
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False


class _VoilaServer:
    def __init__(
        self,
        notebook: str,
        bin_dir: Path = VENV_BIN,
        show_tracebacks: bool = True,
        pools: dict[str, int] | None = None,
    ) -> None:
        """Serve ``notebook`` (a file, or a folder for Voilà's tree mode) with the
        ``voila`` of ``bin_dir``; ``show_tracebacks=False`` keeps the public-demo
        setting of voila.json; ``pools``: preheated kernels per notebook (see
        :func:`server_pools`)."""
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}/"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.log_path = ARTIFACTS / f"voila-{Path(notebook).stem or 'tree'}-{self.port}.log"
        self._log: IO[bytes] = self.log_path.open("wb")
        env = dict(os.environ)
        env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
        env.setdefault("JUPYTER_PLATFORM_DIRS", "1")
        # stackdump/sitecustomize.py: SIGUSR1 writes each process's Python stacks to the
        # log (see stop()). The kernels inherit the server's environment.
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (str(STACKDUMP), env.get("PYTHONPATH", "")) if p
        )
        env["JUPYTER_PATH"] = os.pathsep.join(  # the "throne" Voilà template (voila.json)
            p for p in (str(ROOT / "share" / "jupyter"), env.get("JUPYTER_PATH", "")) if p
        )
        self._config_dir = Path(tempfile.mkdtemp(prefix="voila-pools-"))
        if (ROOT / notebook).is_dir():  # Voilà 0.5.8's tree mode needs an absolute root
            notebook = str(ROOT / notebook)
        self.proc = subprocess.Popen(
            [
                str(bin_dir / "voila"),
                notebook,
                "--no-browser",
                f"--port={self.port}",
                "--Voila.ip=127.0.0.1",
                # Tests want to see a cell's traceback in the page and the screenshot.
                f"--VoilaConfiguration.show_tracebacks={show_tracebacks}",
                # Kernel sockets as files named by the kernel's id, not TCP ports picked
                # by bind-and-close while other test servers start kernels (docs/ui.md).
                "--KernelManager.transport=ipc",
                # the pools in a voila.json of the server's own, searched first: its whole
                # dict replaces the root's (voila_pools.py: not a deprecated dict literal)
                *pools_args(server_pools(pools), self._config_dir, env),
            ],
            cwd=ROOT,  # voila.json at the repository root is read from here
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so its kernels stop with it
        )

    def wait_ready(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = self.log_tail()
                self.stop()
                pytest.fail(f"Voilà exited with {self.proc.returncode}:\n{tail}")
            if _answers_http(self.url):
                return
            time.sleep(0.25)
        tail = self.log_tail()  # before stop() closes the log
        self.stop()
        pytest.fail(f"Voilà did not answer on {self.url} in {START_TIMEOUT_S}s:\n{tail}")

    def log_count(self, text: str) -> int:
        """How often ``text`` is in the server's log so far."""
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace").count(text)

    def wait_preheated(self, kernels: int, timeout: float = 300.0) -> None:
        """Until ``kernels`` preheated kernels have built their page and wait for a
        visitor (``wait_for_visitor`` logs each; Voilà logs each handed out)."""
        deadline = time.monotonic() + timeout
        while True:
            waiting = self.log_count(BUILT) - self.log_count(TAKEN)
            if waiting >= kernels:
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"{waiting} of {kernels} preheated kernels ready:\n{self.log_tail()}")
            time.sleep(0.5)

    def log_tail(self, lines: int = 40) -> str:
        if not self._log.closed:  # stop() closes it; the file keeps what was written
            self._log.flush()
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        return "\n".join(text.splitlines()[-lines:])

    def dump_stacks(self) -> None:
        """Write the Python stacks of the server and of its kernels (its child processes,
        each in a session of its own) to the server log."""
        pids = [self.proc.pid]
        for stat in Path("/proc").glob("[0-9]*/stat"):
            with contextlib.suppress(OSError, IndexError, ValueError):
                # "pid (comm) state ppid ...": comm may hold spaces, so split after ")".
                if int(stat.read_text().rpartition(")")[2].split()[1]) == self.proc.pid:
                    pids.append(int(stat.parent.name))
        for pid in pids:  # one at a time, so that their stacks do not interleave
            with contextlib.suppress(OSError):
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
                self._log.write(b"--- Python stacks of pid %d: %s\n" % (pid, cmdline[:200]))
                self._log.flush()  # the same open file as the server's output: in order
                os.kill(pid, signal.SIGUSR1)
                time.sleep(0.5)  # faulthandler writes from its signal handler
                self._log.write(b"--- asyncio tasks of pid %d\n" % pid)
                self._log.flush()
                os.kill(pid, signal.SIGUSR2)  # stackdump: each task's awaited coroutines
                time.sleep(0.5)

    def stop(self) -> None:
        """SIGTERM the server's process group (Voilà and its kernels), then SIGKILL leftovers.

        Called while an exception propagates (a test's ``finally`` after a timeout), it
        first writes every process's Python stacks to the log: where a hung page waits."""
        dumped = sys.exc_info()[0] is not None and self.proc.poll() is None
        if dumped:
            with contextlib.suppress(OSError):
                self.dump_stacks()
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)
        self._log.close()
        shutil.rmtree(self._config_dir, ignore_errors=True)
        if dumped:  # into the failure's report (captured output): CI keeps no artifacts
            print(self.stacks_report())

    def stacks_report(self, lines: int = 400) -> str:
        """The server log from its first stack dump on (at most ``lines`` lines), after
        the log's last lines before it: what each process was doing when the page hung."""
        text = self.log_path.read_text(encoding="utf-8", errors="replace")
        before, marker, after = text.partition("--- Python stacks of pid")
        head = "\n".join(before.splitlines()[-40:])
        tail = "\n".join((marker + after).splitlines()[:lines])
        return f"=== {self.log_path.name}: the log before the stacks ===\n{head}\n{tail}"


@pytest.fixture(scope="session")
def voila_url() -> Iterator[Callable[[str], str]]:
    """Factory: voila_url("notebooks/play.ipynb") -> "http://127.0.0.1:PORT/"."""
    # One server per notebook *and* card table: a test that points THRONE_CARDS at a copy
    # must never reach a server started earlier on the real cards.csv (it would edit it).
    servers: dict[tuple[str, str | None], _VoilaServer] = {}

    def start(notebook: str) -> str:
        if not (ROOT / notebook).is_file():
            pytest.fail(f"no notebook at {ROOT / notebook}")
        key = (notebook, os.environ.get("THRONE_CARDS"))
        if key not in servers:
            server = _VoilaServer(notebook)
            servers[key] = server
            server.wait_ready()
        return servers[key].url

    try:
        yield start
    finally:
        for server in servers.values():
            server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's Chromium, headless, driven by Playwright (never a downloaded browser).

    Module-scoped on purpose: while Playwright's sync API is open its event loop counts
    as running in this thread, so a session-long browser would break every later test
    that calls ``asyncio.run`` (the library tests run after tests/browser/)."""
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium fonts-noto-cjk")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as error:  # pragma: no cover - a broken environment
        pytest.fail(f"playwright is not installed ({error}): pip install -e .[test]")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    """A fresh browser context and page per test, in Chinese locale."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="zh-CN")
    # Voilà fires a page's "load" only once its kernel has started and run every cell:
    # a navigation (goto, reload) is a render, which Playwright's default 30 s cut short
    # under CI's load (a castle balance reload, 2026-12-06). A bound, not a figure.
    context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
    try:
        yield context.new_page()
    finally:
        context.close()


@pytest.fixture
def artifacts_dir() -> Path:
    """tests/artifacts/ (git-ignored): screenshots and server logs go here."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    return ARTIFACTS


@pytest.fixture(scope="session")
def voila_server() -> Iterator[Callable[..., _VoilaServer]]:
    """A server factory, for tests that need their own settings (another virtual
    environment's ``voila``, tree mode, the public-demo traceback setting):
    ``server = voila_server("notebooks", bin_dir=..., show_tracebacks=False)``; call
    ``wait_ready()`` and ``stop()``. Any server a test forgot to stop is stopped when the
    session ends (a forgotten one kept running after CI)."""
    started: list[_VoilaServer] = []

    def start(*args: Any, **kwargs: Any) -> _VoilaServer:
        server = _VoilaServer(*args, **kwargs)
        started.append(server)
        return server

    yield start
    for server in started:
        if server.proc.poll() is None:
            server.stop()


@pytest.fixture
def open_notebook(
    voila_server: Callable[..., _VoilaServer], page: Page, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Callable[..., _VoilaServer]]:
    """Serve one notebook with its own settings and open it in ``page``:
    ``server = open_notebook("notebooks/pin.ipynb", env={"PIN_CARDS": str(copy)})``.

    ``env`` is set for the server (a temporary table or logs folder, so the repository's
    files are never touched); ``viewport`` is the page's size. The server stops when the
    test ends, whatever its outcome."""
    started: list[_VoilaServer] = []

    def start(
        notebook: str, env: dict[str, str] | None = None, viewport: tuple[int, int] = (1300, 1100)
    ) -> _VoilaServer:
        for name, value in (env or {}).items():
            monkeypatch.setenv(name, value)
        server = voila_server(notebook)
        started.append(server)
        server.wait_ready()
        page.set_viewport_size({"width": viewport[0], "height": viewport[1]})
        page.goto(server.url)
        return server

    try:
        yield start
    finally:
        for server in started:
            server.stop()
