"""Five people open their seat links of one playtest in the same second (issue 37, item 5).

    nice .venv/bin/python benchmarks/join_at_once.py [--rounds 4] [--seats 5] [--game castle]
        [--label after] [--compare] [--fill-delay S] [--before CHECKOUT] [--browsers K]

Serves ``notebooks/`` the way ``python3 dev.py serve`` does (tree mode, ``voila.json`` from
the repository root, the ``throne`` template), with the playtest store in a temporary
folder. It waits until every preheated kernel of ``voila.json``'s pools has built its
page (the ``[throne] page built, waiting for a visitor`` lines of
``throne_lib.ui.demo.wait_for_visitor`` in the server log), then, each round: creates a
playtest of ``--game`` with ``--seats`` seats, all human (seed = the round), and opens
the seat links in as many Chromium contexts at the same moment (asyncio, one browser):
the contexts — the people's running browsers — are created before, the tabs at the
moment (``--contexts-at-once``: both at the moment, as until 2026-12-03; ``--warm-browser``:
the browser draws a page of Chinese text once before the first round). Time to interactive, per page: from that moment until the page shows its seat
(``.playtest-state[data-seat=K]``) and the game's status line — widgets drawn from the
kernel's state, so the kernel connection is up and a click reaches it. Also recorded:
when the page's HTML was complete (the kernel had run the notebook), how many pages got a
preheated kernel (the server log's ``Using pre-heated kernel`` lines), the load average
before and after. Between rounds the pages stop their kernels (as a closed tab does) and
the pools refill before the next round. ``--compare`` alternates, round by round, with a
server without the game's pool (each page starts its kernel, as before the pools);
``--fill-delay S`` adds a server whose pools refill S s after a page takes a kernel;
``--before CHECKOUT`` a server with that checkout's ``voila.json`` and template (the
page-load cuts of 2026-12-03: ``git worktree add --detach /tmp/before 9d2a00b``, then
``--rounds 3 --before /tmp/before --timeline --label page-load-ab``).
With several configurations each round starts a server per configuration, in an order
that alternates from round to round.

``--timeline`` adds, per page, each step's time after the moment: navigation start, the
pool kernel's visitor and page built (``[throne] timeline`` lines,
``throne_lib.kit.ui.preheat.timeline``), HTML complete, DOMContentLoaded, scripts
fetched, ``load``, the kernel websocket open, the first comm message, the widget states,
the first widget view, interactive; the websocket's frames and bytes until then; the
page's renderer main-thread time (CDP ``Performance.getMetrics``); the CPU seconds over
the round of chromium's processes, Playwright, Voilà and the kernels.

``--browsers K`` opens only K of the links in Chromium (seats moving round by round) and
the others as pages whose browsers run on their people's own computers: the server's
part of such a page, driven over HTTP and the kernel websocket as the page's script
drives it (``protocol_seat``: the files a browser page of the link asked for, learned
from one visit before the first round, and the kernel websocket in the v1 framing),
with no browser on this machine. Five people at a playtest bring five computers; five
Chromiums on the server's two cores measure the server's machine drawing every
person's page as well as serving it.

Prints one line per round and a summary; appends one JSON line per page to
``results/join_at_once/<label>.jsonl`` (the command, the round, seat, seconds, load).
Asserts nothing: the figures depend on the machine's load.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import quote, urlencode

# the kernel websocket's framing the browser page asks for (JupyterLab's services do);
# the served websocket refuses any other (throne_serving's module doc says why)
from throne_serving import V1_PROTOCOL

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
from voila_pools import pools_args  # noqa: E402 - the browser tests' helper (see its docstring)

NOTEBOOKS = ROOT / "notebooks"
BUILT = "[throne] page built, waiting for a visitor"
TAKEN = "Using pre-heated kernel"
STATUS = {"castle": ".castle-status", "cities": ".castle-status", "pin": ".pin-status"}
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]  # fmt: skip


def load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def voila_pools() -> dict[str, Any]:
    """``voila.json``'s ``kernel_pools_config`` ({} when kernels are not preheated)."""
    cfg = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    if not cfg.get("VoilaConfiguration", {}).get("preheat_kernel"):
        return {}
    pools: dict[str, Any] = cfg.get("VoilaKernelManager", {}).get("kernel_pools_config", {})
    return pools


def pool_sizes(pools: dict[str, Any]) -> dict[str, int]:
    """Kernels kept preheated per notebook of ``notebooks/`` (tree mode: every notebook
    gets a pool, of the ``default`` size unless named)."""
    default = int(pools.get("default", {}).get("pool_size", 0))
    sizes = {nb.name: int(pools.get(nb.name, {}).get("pool_size", default)) for nb in
             sorted(NOTEBOOKS.glob("*.ipynb"))}  # fmt: skip
    return {k: v for k, v in sizes.items() if v > 0}


def cpu_by_kind(root: int) -> dict[str, float]:
    """CPU seconds (user + system) so far of ``root`` and its descendants, by kind: chromium's
    process types (renderer, gpu-process, browser …), ipykernel, voila, other."""
    parent: dict[int, int] = {}
    stats: dict[int, tuple[str, float]] = {}
    tick = os.sysconf("SC_CLK_TCK")
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
            cmd = (
                (stat.parent / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            )
        except OSError:
            continue
        pid = int(stat.parent.name)
        parent[pid] = int(fields[1])
        kind = "other"
        if "chrom" in cmd:
            m = re.search(r"--type=([\w-]+)", cmd)
            kind = f"chromium-{m.group(1) if m else 'browser'}"
        elif "playwright" in cmd or "node" in cmd.split(" ")[0]:
            kind = "playwright"
        elif "ipykernel" in cmd:
            kind = "kernels"
        elif "voila" in cmd:
            kind = "voila"
        stats[pid] = (kind, (int(fields[11]) + int(fields[12])) / tick)
    out: dict[str, float] = {}
    for pid, (kind, cpu) in stats.items():
        p = pid
        while p > 1 and p != root:
            p = parent.get(p, 0)
        if p == root:
            out[kind] = out.get(kind, 0.0) + cpu
    return out


def cpu_delta(a: dict[str, float], b: dict[str, float]) -> dict[str, float]:
    return {k: round(b.get(k, 0.0) - a.get(k, 0.0), 2) for k in sorted(set(a) | set(b))}


def kernel_timeline(server: Server, epoch0: float) -> dict[str, dict[str, Any]]:
    """The pool kernels' ``[throne] timeline`` lines (``$THRONE_TIMELINE``): per kernel id,
    each event's time in s after ``epoch0``."""
    server._log.flush()
    out: dict[str, dict[str, Any]] = {}
    for m in re.finditer(r"\[throne\] timeline (\S+) (\S+)(?: widgets=(\d+))? ([\d.]+)",
                         server.log_path.read_text(encoding="utf-8", errors="replace")):  # fmt: skip
        k = out.setdefault(m.group(1), {})
        k[m.group(2)] = round(float(m.group(4)) - epoch0, 3)
        if m.group(3):
            k["widgets"] = int(m.group(3))
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``voila notebooks/`` as ``dev.py serve`` starts it; the log in tests/artifacts/."""

    def __init__(
        self,
        store: Path,
        label: str,
        pools: dict[str, Any],
        fill_delay: float | None,
        timeline: bool = False,
        serving: Path = ROOT,
    ) -> None:
        """``serving``: the checkout whose ``voila.json`` (the cwd) and ``throne``
        template (``JUPYTER_PATH``) serve; the notebooks and code are this tree's."""
        self.port = free_port()
        self.warm = sum(pool_sizes(pools).values())  # pool kernels when all are heated
        bin_dir = Path(sys.executable).parent
        env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
        env["JUPYTER_PATH"] = str(serving / "share" / "jupyter")
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
        env["THRONE_PLAYTESTS"] = str(store)  # the kernels inherit it
        if timeline:
            env["THRONE_TIMELINE"] = "1"  # preheat.timeline: visitor came, page built
        artifacts = ROOT / "tests" / "artifacts"
        artifacts.mkdir(exist_ok=True)
        self.log_path = artifacts / f"join_at_once-{label}-{self.port}.log"
        self._log = self.log_path.open("wb")
        # as dev.py serve: kernel sockets as files where there are Unix sockets
        extra = ["--KernelManager.transport=ipc"] if os.name == "posix" else []
        # the pools in a voila.json of the server's own, searched first: its whole dict
        # replaces the root's (tests/browser/voila_pools.py: no deprecated dict literal)
        extra += [  # the serving checkout's voila.json, not this tree's, after the pools'
            a.replace(f"={ROOT}", f"={serving}") if a.endswith(f"={ROOT}") else a
            for a in pools_args(pools, store.parent / f"voila-pools-{self.port}", env)
        ]
        if fill_delay is not None:
            extra.append(f"--VoilaKernelManager.fill_delay={fill_delay}")
        self.proc = subprocess.Popen(
            [str(bin_dir / "voila"), str(NOTEBOOKS), "--no-browser", f"--port={self.port}",
             "--Voila.ip=127.0.0.1", *extra],
            cwd=serving, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def count(self, text: str) -> int:
        self._log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace").count(text)

    def waiting(self) -> int:
        """Preheated kernels whose page is built and not yet handed out."""
        return self.count(BUILT) - self.count(TAKEN)

    def wait_warm(self, kernels: int, timeout: float = 600.0) -> float:
        t0 = time.monotonic()
        while self.waiting() < kernels:
            if self.proc.poll() is not None:
                raise RuntimeError(f"Voilà exited: see {self.log_path}")
            if time.monotonic() - t0 > timeout:
                raise RuntimeError(
                    f"{self.waiting()} of {kernels} pool kernels ready after {timeout:.0f} s"
                )
            time.sleep(0.5)
        return time.monotonic() - t0

    def kernels_memory(self) -> list[float]:
        """Proportional set size (MB) of each of the server's kernels (its children)."""
        sizes = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                if int(stat.read_text().rpartition(")")[2].split()[1]) != self.proc.pid:
                    continue
                rollup = (stat.parent / "smaps_rollup").read_text()
            except (OSError, IndexError, ValueError):
                continue
            pss = re.search(r"^Pss:\s+(\d+) kB", rollup, re.M)
            if pss and "ipykernel" in (stat.parent / "cmdline").read_text(errors="replace"):
                sizes.append(int(pss.group(1)) / 1024)
        return sorted(sizes)

    def stop(self) -> None:
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self._log.close()


# Page-side marks (``--timeline``): performance.now() of DOMContentLoaded, of the first
# rendered widget view, and when the last script finished loading.
MARKS = """
window.__tpMarks = {};
document.addEventListener('DOMContentLoaded', () => { __tpMarks.dcl = performance.now(); });
window.addEventListener('load', () => { __tpMarks.load = performance.now(); });
new MutationObserver((_, obs) => {
  if (!__tpMarks.widget && document.querySelector('.jupyter-widgets.widget-box, .jupyter-widgets.widget-inline-hbox, .jupyter-widgets.widget-html')) {
    __tpMarks.widget = performance.now(); obs.disconnect();
  }
}).observe(document, {childList: true, subtree: true});
"""
MSG_TYPE = re.compile(rb'"msg_type":\s*"(\w+)"')
METHOD = re.compile(rb'"method":\s*"(\w+)"')


async def new_context(browser: Any) -> Any:
    return await browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")


# A page of the game's words, drawn once before the first round (see warm_browser).
WARM_PAGE = "data:text/html;charset=utf-8," + quote(
    "<body style='font-family:sans-serif'><h1>王座与方阵</h1><p>城堡之心 城池战 PIN 架空战争"
    " 轮到你了 AI 思考中</p><button>结束回合</button></body>"
)


async def warm_browser(browser: Any) -> None:
    """Draw a page of Chinese text in a throwaway context and close it: the people's
    browsers have run before, so the browser's own first use (its first renderer, the
    CJK fonts read and parsed) is not theirs to wait for at the moment. No request
    reaches the server, so its caches stay cold (``--warm-browser``; no effect measured:
    ``results/join_at_once/browser-warmup-ab2-*.jsonl``)."""
    context = await new_context(browser)
    page = await context.new_page()
    await page.goto(WARM_PAGE)
    await page.screenshot()  # headless Chromium paints (and loads the fonts) on demand
    await context.close()


# What a running Chromium keeps in memory: its installed files and the CJK font it draws with.
BROWSER_FILES = (Path("/usr/lib/chromium"), Path("/usr/share/fonts/opentype/noto"))


def read_browser_files() -> int:
    """Read Chromium's installed files (binary, resources, ICU and V8 data) and the Noto
    fonts once, so the page cache holds them as it does for a person's running browser.
    This sandbox keeps little in its page cache: ten minutes after a run, 2.4 MB of
    Chromium's 266 MB binary was still resident (``fincore``), so the first round after
    other work read it from disk while the pages loaded. Returns the bytes read."""
    total = 0
    for root in BROWSER_FILES:
        for f in sorted(root.rglob("*")) if root.is_dir() else ():
            if f.is_file() and not f.is_symlink():
                with f.open("rb") as fh:
                    while chunk := fh.read(1 << 20):
                        total += len(chunk)
    return total


async def host_visit(browser: Any, server: Server) -> float:
    """The host's visit before the moment: the home page opened in a context of its own
    until its dashboard cards are drawn, then closed. In real use a playtest is made
    from the home page (or by someone at the server's command line), so the server has
    served a page before the seat links are opened. Returns the seconds it took."""
    t0 = time.perf_counter()
    context = await new_context(browser)
    page = await context.new_page()
    await page.goto(f"http://127.0.0.1:{server.port}/voila/render/index.ipynb")
    await page.locator(".tp-card").first.wait_for(timeout=300_000)
    await context.close()
    return time.perf_counter() - t0


async def open_seat(
    browser: Any,
    url: str,
    seat: int,
    status: str,
    t0: float,
    timeline: bool = False,
    context: Any = None,
    profile: bool = False,
) -> dict[str, Any]:
    """Open one seat link in ``context`` (a browser already running, as a person's is),
    or in a new context created now (``--contexts-at-once``: the browser profile's start
    counted in the time, as before)."""
    if context is None:
        context = await new_context(browser)
    page = await context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)[:200]))
    origin = url.split("/voila/")[0]
    fetched: list[str] = []  # the server's files this page asked for (its HTML aside)
    page.on("request", lambda q: fetched.append(q.url[len(origin):])
            if q.url.startswith(origin) and q.method == "GET" and q.url != url
            and "/api/" not in q.url else None)  # fmt: skip
    ws_log: dict[str, Any] = {"frames": 0, "bytes": 0, "types": {}}
    cdp = None
    if timeline:
        await page.add_init_script(MARKS)
        cdp = await context.new_cdp_session(page)
        await cdp.send("Performance.enable")

        def on_ws(ws: Any) -> None:
            if "/channels" not in ws.url:
                return
            ws_log.setdefault("ws_open", time.perf_counter() - t0)

            def on_frame(payload: Any, sent: bool = False) -> None:
                data = payload if isinstance(payload, bytes) else str(payload).encode()
                now = time.perf_counter() - t0
                if sent:
                    ws_log.setdefault("first_sent", now)
                    return
                ws_log["frames"] += 1
                ws_log["bytes"] += len(data)
                m = MSG_TYPE.search(data)
                kind = m.group(1).decode() if m else "?"
                if kind.startswith("comm"):
                    ws_log.setdefault("first_comm", now)
                    meth = METHOD.search(data)
                    if meth and meth.group(1) == b"update_states":
                        ws_log["states_s"] = now
                        ws_log["states_bytes"] = len(data)
                ws_log["types"][kind] = ws_log["types"].get(kind, 0) + 1
                ws_log["last_frame"] = now

            ws.on("framereceived", on_frame)
            ws.on("framesent", lambda p: on_frame(p, sent=True))

        page.on("websocket", on_ws)
        if profile:  # V8's sampling profiler on the page's main thread
            await cdp.send("Profiler.enable")
            await cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            await cdp.send("Profiler.start")
    epoch0 = time.time() - (time.perf_counter() - t0)  # wall clock of t0
    await page.goto(url, wait_until="commit", timeout=300_000)
    await page.locator(f".playtest-state[data-seat='{seat}']").wait_for(timeout=300_000)
    await page.locator(status).first.wait_for(timeout=300_000)
    tti = time.perf_counter() - t0
    nav = await page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0];"
        " return [n.responseEnd, n.loadEventEnd]; })()"
    )
    row: dict[str, Any] = {
        "seat": seat, "client": "browser", "interactive_s": round(tti, 3), "html_s": round(nav[0] / 1000, 3),
        "loaded_s": round(nav[1] / 1000, 3), "context": context, "page": page,
        "page_errors": errors, "files_fetched": fetched,
    }  # fmt: skip
    if timeline and cdp is not None:
        marks = await page.evaluate(
            "(() => { const s = performance.getEntriesByType('resource')"
            ".filter(e => e.initiatorType === 'script');"
            " return {origin: performance.timeOrigin, ...window.__tpMarks,"
            " scripts: s.length, script_kb: s.reduce((a, e) => a + e.encodedBodySize, 0) / 1024,"
            " scripts_end: Math.max(0, ...s.map(e => e.responseEnd))}; })()"
        )
        nav_start = marks["origin"] / 1000 - epoch0  # navigation start, s after t0

        def at(key: str) -> float | None:
            v = marks.get(key)
            return None if v is None else round(nav_start + v / 1000, 3)

        metrics = {m["name"]: m["value"] for m in
                   (await cdp.send("Performance.getMetrics"))["metrics"]}  # fmt: skip
        row["timeline"] = {
            "navigation": round(nav_start, 3),
            "html": round(nav_start + nav[0] / 1000, 3),
            "dom_content_loaded": at("dcl"),
            "scripts_fetched": at("scripts_end"),
            "load_event": at("load"),
            "kernel_ws_open": ws_log.get("ws_open"),
            "first_comm_msg": ws_log.get("first_comm"),
            "widget_states": ws_log.get("states_s"),
            "first_widget_view": at("widget"),
            "interactive": round(tti, 3),
        }
        if profile:
            row["profile"] = profile_summary((await cdp.send("Profiler.stop"))["profile"])
        row["kernel_id"] = await page.evaluate(
            "JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
        )
        row["scripts"] = marks.get("scripts")
        row["script_kb"] = round(marks.get("script_kb", 0))
        row["ws_frames"] = ws_log["frames"]
        row["ws_kb"] = round(ws_log["bytes"] / 1024, 1)
        row["states_kb"] = round(ws_log.get("states_bytes", 0) / 1024, 1)
        row["ws_types"] = ws_log["types"]
        row["renderer_cpu_s"] = {  # this page's main thread, until interactive
            k: round(metrics.get(k, 0.0), 3)
            for k in ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
        }
    return row


CONFIG_DATA = re.compile(r'<script id="jupyter-config-data"[^>]*>(.*?)</script>', re.S)
# the page's own files (scripts and styles), as its HTML names them
ASSETS = re.compile(r'(?:src|href)="(/[^"]+?\.(?:js|css)(?:\?[^"]*)?)"')


def fetch_text(url: str, headers: dict[str, str] | None = None) -> str:
    import urllib.request

    with urllib.request.urlopen(urllib.request.Request(url, headers=headers or {}),
                                timeout=300) as response:  # fmt: skip
        body: bytes = response.read()
    return body.decode("utf-8", errors="replace")


def kernel_message(
    msg_type: str, content: dict[str, Any], session: str, metadata: dict[str, Any] | None = None
) -> bytes:
    """A shell message as the page's widget manager sends it over the kernel websocket
    (the v1 framing: Jupyter Server's ``serialize_msg_to_ws_v1``)."""
    import uuid

    from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1

    header = {"msg_id": uuid.uuid4().hex, "username": "benchmark", "session": session,
              "msg_type": msg_type, "version": "5.3", "date": time.strftime("%Y-%m-%dT%H:%M:%SZ")}  # fmt: skip
    parts = [header, {}, metadata or {}, content]
    frame: bytes = serialize_msg_to_ws_v1([json.dumps(p).encode() for p in parts], "shell")
    return frame


def decode_frame(frame: str | bytes) -> dict[str, Any]:
    """A kernel websocket frame in the v1 framing: the channel, then header, parent
    header, metadata and content as JSON, then the buffers (not needed here)."""
    from jupyter_server.services.kernels.connection.base import deserialize_msg_from_ws_v1

    if isinstance(frame, str):
        raise RuntimeError(f"a text frame on a {V1_PROTOCOL} websocket: {frame[:80]}")
    channel, parts = deserialize_msg_from_ws_v1(frame)
    header, parent, metadata, content = (json.loads(p) for p in parts[:4])
    return {"channel": channel, "header": header, "parent_header": parent,
            "metadata": metadata, "content": content, "msg_type": header.get("msg_type")}  # fmt: skip


def seat_drawn(states: dict[str, Any], seat: int, status: str) -> bool:
    """The widget states hold what the browser test waits for: the seat's bar
    (``.playtest-state[data-seat=K]``) and the game's status line (its CSS class)."""
    values = [str(m.get("state", {}).get("value", "")) for m in states.values()]
    classes = [c for m in states.values() for c in m.get("state", {}).get("_dom_classes", [])]
    bar = any("playtest-state" in v and f"data-seat='{seat}'" in v for v in values)
    return bar and status.lstrip(".") in classes


async def protocol_seat(
    url: str, seat: int, status: str, t0: float, files: list[str]
) -> dict[str, Any]:
    """``--browsers K``: a person whose browser runs on their own computer. Only the
    server's part runs here, as the page's script asks for it: the HTML (the pool kernel
    takes its visitor and builds the page), the scripts and styles the HTML names, the
    kernel websocket, the widget states (the widget manager's ``request_states`` on
    ``jupyter.widget.control``) and each canvas's ``client_ready``. Interactive: when
    the states hold the seat's bar and the status line, what the browser page waits
    for. ``files``: every file a browser page of the same link asked the server for
    (``learn_files``), fetched six at a time as a browser does over HTTP/1.1; the
    browser fetches the extensions' files later, once its scripts run: fetched here
    before the websocket, the server does the same work in all. Not here: the browser's
    own work."""
    import uuid

    import websockets

    origin = url.split("/voila/")[0]
    page = await asyncio.to_thread(fetch_text, url)
    html_s = time.perf_counter() - t0
    assets = sorted(set(ASSETS.findall(page)) | set(files))
    connections = asyncio.Semaphore(6)  # a browser's connections to one host

    async def fetch(path: str) -> None:
        async with connections:
            await asyncio.to_thread(fetch_text, origin + path)

    await asyncio.gather(*(fetch(a) for a in assets))
    found = CONFIG_DATA.search(page)
    if found is None:
        raise RuntimeError(f"seat {seat}: no jupyter-config-data in the page")
    kernel = json.loads(found.group(1))["kernelId"]
    session = uuid.uuid4().hex
    ws_url = f"ws{origin[4:]}/api/kernels/{kernel}/channels?session_id={session}"
    # open while the page is, as a tab keeps it (close_protocol_seat closes it)
    ws = await websockets.connect(
        ws_url,
        max_size=None,
        open_timeout=300,
        subprotocols=[V1_PROTOCOL],  # type: ignore[list-item]
    )
    ws_s = time.perf_counter() - t0
    # ipywidgets' control comm, as @jupyter-widgets/base 6 opens it, then its request
    control = uuid.uuid4().hex
    opening = {"comm_id": control, "target_name": "jupyter.widget.control", "data": {}}
    await ws.send(kernel_message("comm_open", opening, session, {"version": "1.0.0"}))
    request = {"comm_id": control, "data": {"method": "request_states"}}
    await ws.send(kernel_message("comm_msg", request, session))
    frames = 0
    while True:
        msg = decode_frame(await ws.recv())
        frames += 1
        data = msg.get("content", {}).get("data", {})
        if msg.get("msg_type") == "comm_msg" and data.get("method") == "update_states":
            break
    states: dict[str, Any] = data["states"]
    states_s = time.perf_counter() - t0
    for model_id, model in states.items():  # ipycanvas' views say they are ready
        if model.get("model_name") == "CanvasModel":
            ready = {"comm_id": model_id,
                     "data": {"method": "custom", "content": {"event": "client_ready"}}}  # fmt: skip
            await ws.send(kernel_message("comm_msg", ready, session))
    if not seat_drawn(states, seat, status):
        raise RuntimeError(f"seat {seat}: the widget states lack its bar or {status}")
    tti = time.perf_counter() - t0
    return {"seat": seat, "client": "protocol", "interactive_s": round(tti, 3),
            "html_s": round(html_s, 3), "loaded_s": round(ws_s, 3),
            "states_s": round(states_s, 3), "assets": len(assets), "ws_frames": frames,
            "widgets": len(states), "kernel_id": kernel, "origin": origin, "ws": ws}  # fmt: skip


async def close_protocol_seat(row: dict[str, Any]) -> None:
    """The page's ``pagehide``: Voilà's shutdown of its kernel (the form's ``_xsrf`` equal
    to the cookie's, as ``throne_lib.ui.demo``'s script sends it with ``sendBeacon``)."""
    import urllib.request

    origin, kernel, ws = row.pop("origin"), row["kernel_id"], row.pop("ws")
    token = os.urandom(16).hex()
    req = urllib.request.Request(f"{origin}/voila/api/shutdown/{kernel}",
                                 data=urlencode({"_xsrf": token}).encode(),
                                 headers={"Cookie": f"_xsrf={token}"})  # fmt: skip

    def send() -> None:  # a beacon: the page does not wait for the answer
        with contextlib.suppress(OSError):  # a timeout too: Voilà may answer much later
            urllib.request.urlopen(req, timeout=10).read()

    await asyncio.to_thread(send)
    await ws.close()


def profile_summary(prof: dict[str, Any], top: int = 12) -> dict[str, Any]:
    """A V8 CPU profile's self time (s) by kind — ``(program)`` (the browser's native work:
    parsing, compiling, style, layout, paint), ``(garbage collector)``, ``(idle)`` — by
    script file and by function (the ``top`` largest)."""
    nodes = {n["id"]: n["callFrame"] for n in prof["nodes"]}
    by_file: dict[str, float] = {}
    by_function: dict[str, float] = {}
    for sample, delta in zip(prof["samples"], prof["timeDeltas"], strict=True):
        frame = nodes[sample]
        name = frame["functionName"] or "(anonymous)"
        file = frame["url"].rsplit("/", 1)[-1].split("?")[0]
        key = name if name.startswith("(") and not file else f"{name} @{file or '-'}"
        file_key = file or (name if name.startswith("(") else "(no file)")
        by_file[file_key] = by_file.get(file_key, 0.0) + delta / 1e6
        by_function[key] = by_function.get(key, 0.0) + delta / 1e6

    def largest(d: dict[str, float]) -> dict[str, float]:
        return {k: round(v, 3) for k, v in sorted(d.items(), key=lambda kv: -kv[1])[:top]}

    return {"total_s": round(sum(by_file.values()), 3), "by_file": largest(by_file),
            "by_function": largest(by_function)}  # fmt: skip


async def close_seat(result: dict[str, Any], keep_context: bool = False) -> None:
    page = result.pop("page")
    context = result.pop("context")
    try:  # the page helpers' kernel stop (as on pagehide), then the tab closes
        await page.evaluate("window.__tpStopKernel && window.__tpStopKernel()")
        await page.wait_for_timeout(300)
    finally:
        await (page.close() if keep_context else context.close())


# The files a browser page of the game's seat link asked the server for (learn_files).
LEARNED: list[str] = []


async def learn_files(args: argparse.Namespace, browser: Any, server: Server, st: Any) -> int:
    """Open one seat link of a playtest of its own in Chromium before the first round
    and keep the list of files its page asked for, for ``protocol_seat``: the bundles'
    hashed names are the checkout's, the same on every server of the run. Returns the
    number of files."""
    from throne_lib.kit.playtest import manage

    c = manage.create(st, args.game, args.players, args.players, think=0.5, seed=0)
    link = f"http://127.0.0.1:{server.port}/voila/render/{args.game}.ipynb?" + urlencode(
        {"playtest": c.playtest.id, "seat": 0, "token": c.tokens[0]}
    )
    row = await open_seat(browser, link, 0, STATUS[args.game], time.perf_counter())
    await close_seat(row)
    LEARNED[:] = sorted(set(row["files_fetched"]))
    return len(LEARNED)


async def one_round(
    args: argparse.Namespace, browser: Any, server: Server, st: Any, r: int, name: str
) -> list[dict[str, Any]]:
    """Open the seat links of a new playtest at once; one row per page."""
    from throne_lib.kit.playtest import manage

    base = f"http://127.0.0.1:{server.port}/voila/render/{args.game}.ipynb?"
    c = manage.create(st, args.game, args.players, args.players, think=0.5, seed=r)
    links = [
        base + urlencode({"playtest": c.playtest.id, "seat": s, "token": c.tokens[s]})
        for s in range(args.seats)
    ]
    if args.html_only:
        return await html_only(args, server, links, r, name)
    # --browsers K: K seats (moving round by round) in Chromium, the others' browsers elsewhere
    k = args.seats if args.browsers is None else args.browsers
    in_browser = {(r - 1 + i) % args.seats for i in range(k)}
    taken0 = server.count(TAKEN)
    before = load()
    contexts: list[Any] = [None] * len(links)
    if not args.contexts_at_once:  # the people's browsers are running: only the tab is new
        contexts = list(await asyncio.gather(
            *(new_context(browser) if s in in_browser else asyncio.sleep(0)
              for s in range(len(links)))))  # fmt: skip
    if args.warm_visits:  # people who opened the page before: the browser's caches are warm
        status = STATUS[args.game]
        for _ in range(args.warm_visits):
            for (s, u), c in zip(enumerate(links), contexts, strict=True):
                if s not in in_browser:
                    continue
                row = await open_seat(browser, u, s, status, time.perf_counter(), False, c)
                await close_seat(row, keep_context=True)
        server.wait_warm(server.warm)  # the pools refilled before the moment
        time.sleep(args.settle)
    taken0 = server.count(TAKEN)  # the pages of the moment only
    cpu0 = cpu_by_kind(os.getpid()), cpu_by_kind(server.proc.pid)
    t0 = time.perf_counter()
    epoch0 = time.time()
    got = await asyncio.gather(
        *(open_seat(browser, u, s, STATUS[args.game], t0, args.timeline, c, args.profile)
          if s in in_browser else protocol_seat(u, s, STATUS[args.game], t0, LEARNED)
          for (s, u), c in zip(enumerate(links), contexts, strict=True))
    )  # fmt: skip
    after = load()
    mine = cpu_delta(cpu0[0], cpu_by_kind(os.getpid()))  # the browser's and the server's
    cpu = {"browser": {k: v for k, v in mine.items() if k.startswith(("chromium", "playwright"))},
           "server": cpu_delta(cpu0[1], cpu_by_kind(server.proc.pid))}  # fmt: skip
    if args.timeline:
        kernels = kernel_timeline(server, epoch0)
        for g in got:
            g["kernel"] = kernels.get(g.get("kernel_id", ""), {})
        print_timeline([g for g in got if "timeline" in g], cpu, time.perf_counter() - t0)
    preheated = server.count(TAKEN) - taken0
    await asyncio.gather(
        *(close_seat(g) if g["client"] == "browser" else close_protocol_seat(g) for g in got)
    )
    times = [g["interactive_s"] for g in got]
    print(  # a page whose browser is elsewhere marked p
        f"round {r} {name:>9}: interactive "
        + " ".join(f"{g['interactive_s']:5.2f}{'p' if g['client'] != 'browser' else ''}"
                   for g in got)
        + f" s (max {max(times):.2f}); HTML complete "
        + " ".join(f"{g['html_s']:.2f}" for g in got)
        + " s; scripts loaded "
        + " ".join(f"{g['loaded_s']:.2f}" for g in got)
        + f" s; {preheated}/{args.seats} preheated; load {before[0]:.2f} -> {after[0]:.2f}",
        flush=True,
    )  # fmt: skip
    return [{"round": r, "config": name, **g, "preheated_pages": preheated,
             "load_before": before, "load_after": after,
             "cpu_round_s": cpu if args.timeline else None} for g in got]  # fmt: skip


async def html_only(
    args: argparse.Namespace, server: Server, links: list[str], r: int, name: str
) -> list[dict[str, Any]]:
    """``--html-only``: the server's part alone — the links fetched at once by plain HTTP
    clients (no browser on this machine, as when the people's browsers are their own):
    until each page's HTML is complete, and the pool kernel's visitor/built marks."""
    import urllib.request

    def fetch(url: str, t0: float) -> float:
        with urllib.request.urlopen(url, timeout=300) as response:
            response.read()
        return time.perf_counter() - t0

    taken0 = server.count(TAKEN)
    before = load()
    cpu0 = cpu_by_kind(server.proc.pid)
    t0 = time.perf_counter()
    epoch0 = time.time()
    done = await asyncio.gather(*(asyncio.to_thread(fetch, u, t0) for u in links))
    cpu = cpu_delta(cpu0, cpu_by_kind(server.proc.pid))
    after = load()
    kernels = list(kernel_timeline(server, epoch0).values())
    fresh = sorted((k for k in kernels if k.get("visitor", -1) >= 0), key=lambda k: k["visitor"])
    preheated = server.count(TAKEN) - taken0
    print(f"round {r} {name:>9}: HTML complete " + " ".join(f"{t:.2f}" for t in done)
          + " s; visitor " + " ".join(f"{k['visitor']:.2f}" for k in fresh)
          + " s; built " + " ".join(f"{k.get('built', -1):.2f}" for k in fresh)
          + f" s; {preheated}/{args.seats} preheated; server CPU {cpu}; load {before[0]:.2f}"
          f" -> {after[0]:.2f}", flush=True)  # fmt: skip
    return [{"round": r, "config": name, "seat": s, "html_only": True, "client": "html-only",
             "interactive_s": t, "html_s": t, "preheated_pages": preheated,
             "kernels": fresh, "cpu_round_s": {"server": cpu},
             "load_before": before, "load_after": after} for s, t in enumerate(done)]  # fmt: skip


def print_timeline(got: list[dict[str, Any]], cpu: dict[str, Any], span: float) -> None:
    """One line per page: each mark's seconds after the links were opened."""
    for g in got:
        tl, k = g["timeline"], g.get("kernel", {})
        marks = [("nav", tl["navigation"]), ("visitor", k.get("visitor")),
                 ("built", k.get("built")), ("html", tl["html"]),
                 ("dcl", tl["dom_content_loaded"]), ("js", tl["scripts_fetched"]),
                 ("load", tl["load_event"]), ("ws", tl["kernel_ws_open"]),
                 ("comm", tl["first_comm_msg"]), ("states", tl["widget_states"]),
                 ("view", tl["first_widget_view"]), ("ready", tl["interactive"])]  # fmt: skip
        print(f"  seat {g['seat']}: " + " ".join(
            f"{n} {v:.2f}" if isinstance(v, float) else f"{n} -" for n, v in marks)
            + f"; {k.get('widgets', '?')} widgets, {g['ws_frames']} frames {g['ws_kb']} kB"
            f" (states {g['states_kb']} kB), {g['scripts']} scripts {g['script_kb']} kB;"
            f" renderer main thread {g['renderer_cpu_s']['TaskDuration']:.2f} s"
            f" (script {g['renderer_cpu_s']['ScriptDuration']:.2f})", flush=True)  # fmt: skip
        if "profile" in g:
            print(f"    profile {g['profile']['total_s']} s: {g['profile']['by_function']}")
    print(
        f"  CPU s over the {span:.1f} s round: browser {cpu['browser']}, server {cpu['server']}",
        flush=True,
    )


def configs(args: argparse.Namespace) -> dict[str, tuple[dict[str, Any], float | None]]:
    """The pools and refill delay of each configuration measured: voila.json's
    ("preheated"); with ``--compare`` also the same without the game's pool ("cold": a
    kernel started per visitor, as before issue 37 item 5); with ``--fill-delay S`` also
    voila.json's pools refilled S seconds after a page takes a kernel ("refill-S"); with
    ``--before CHECKOUT`` also the pools served with that checkout's ``voila.json`` and
    template ("before")."""
    pools = voila_pools()
    out: dict[str, tuple[dict[str, Any], float | None]] = {"preheated": (pools, None)}
    if args.compare:
        out["cold"] = ({k: v for k, v in pools.items() if k != f"{args.game}.ipynb"}, None)
    for delay in args.fill_delay:
        out[f"refill-{delay:g}s"] = (pools, delay)
    if args.before:  # the same pools, served with that checkout's voila.json and template
        out["before"] = (pools, None)
    return out


async def rounds(args: argparse.Namespace, store: Path, label: str) -> list[dict[str, Any]]:
    from playwright.async_api import async_playwright

    from throne_lib.kit.playtest.store import SqliteStore

    st = SqliteStore(store)
    rows: list[dict[str, Any]] = []
    named = configs(args)
    # threads for the protocol clients' HTTP fetches: six each at once, as browsers
    asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(max_workers=64))
    if args.resident_browser:
        print(f"read {read_browser_files() / 1e6:.0f} MB of the browser's files", flush=True)
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path="/usr/bin/chromium",
                                           args=CHROMIUM_ARGS)  # fmt: skip
        if args.warm_browser:
            await warm_browser(browser)
        server: Server | None = None
        try:
            for r in range(1, args.rounds + 1):
                order = list(named) if r % 2 else list(reversed(named))
                for name in order:
                    pools, delay = named[name]
                    warm = sum(pool_sizes(pools).values())
                    if server is None or len(named) > 1:  # several: a server per round
                        if server is not None:
                            server.stop()
                        serving = args.before if name == "before" else ROOT
                        server = Server(store, label, pools, delay, args.timeline, serving)
                        ready = server.wait_warm(warm)
                        protocol = args.browsers is not None and args.browsers < args.seats
                        if protocol and not LEARNED:
                            n = await learn_files(args, browser, server, st)
                            print(f"a seat page asks the server for {n} files", flush=True)
                            ready = server.wait_warm(warm)
                        if args.host_visit:
                            took = await host_visit(browser, server)
                            print(f"the host's home page drawn in {took:.1f} s", flush=True)
                            ready = server.wait_warm(warm)
                        mb = server.kernels_memory()
                        print(
                            f"{name}: pools {pool_sizes(pools)} warm {ready:.0f} s after "
                            f"the server started; {len(mb)} kernels, PSS median "
                            f"{statistics.median(mb) if mb else 0:.0f} MB, total "
                            f"{sum(mb):.0f} MB; load {load()}",
                            flush=True,
                        )
                    else:
                        server.wait_warm(warm)
                    if args.settle:
                        time.sleep(args.settle)
                    rows += await one_round(args, browser, server, st, r, name)
        finally:
            if server is not None:
                server.stop()
        await browser.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--players", type=int, default=5, help="seats, all human")
    parser.add_argument("--seats", type=int, default=5, help="seat links opened at once")
    parser.add_argument("--game", default="castle", choices=sorted(STATUS))
    parser.add_argument(
        "--browsers",
        type=int,
        default=None,
        help="open only this many of the seat links in Chromium (which seats moves round "
        "by round); the others as a page whose browser runs on its person's own "
        "computer: the server's part only (protocol_seat). Default: every seat",
    )
    parser.add_argument("--label", default="run", help="results/join_at_once/LABEL.jsonl")
    parser.add_argument(
        "--settle",
        type=float,
        default=5.0,
        help="seconds to wait after the pools are warm (the refill's tail)",
    )
    parser.add_argument(
        "--compare",
        action="store_true",
        help="alternate rounds with and without the game's pool (a server per round)",
    )
    parser.add_argument(
        "--fill-delay",
        type=float,
        action="append",
        default=[],
        help="also measure voila.json's pools with this refill delay (repeatable)",
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="per page: navigation, visitor, page built, HTML, DOMContentLoaded, scripts, "
        "load, kernel websocket, first comm message, widget states, first widget view, "
        "interactive; widget messages and bytes; renderer and server CPU",
    )
    parser.add_argument(
        "--html-only",
        action="store_true",
        help="fetch the links by plain HTTP at once, no browser: the server's part alone "
        "(interactive_s = html_s = HTML complete); needs --timeline for the kernel marks",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="with --timeline: V8's sampling profile of each page until interactive, "
        "self time by kind, script file and function, in the rows",
    )
    parser.add_argument(
        "--warm-visits",
        type=int,
        default=0,
        help="before the moment, each context opens its seat link this many times (one "
        "after another): a person who has opened the page before, the browser's HTTP and "
        "code caches warm",
    )
    parser.add_argument(
        "--contexts-at-once",
        action="store_true",
        help="create each page's browser context at the moment too (as before "
        "2026-12-03: the profile's start counted in the time); by default the contexts "
        "exist before and only the tabs open at the moment",
    )
    parser.add_argument(
        "--host-visit",
        action="store_true",
        help="after each server starts, open its home page once (the host making the "
        "playtest) and wait for the pools again before the first round",
    )
    parser.add_argument(
        "--resident-browser",
        action="store_true",
        help="before launching Chromium, read its installed files and the CJK fonts "
        "once (a person's running browser has them in memory; this sandbox's page "
        "cache drops them within minutes)",
    )
    parser.add_argument(
        "--warm-browser",
        action="store_true",
        help="before the first round, draw a page of Chinese text once in a throwaway "
        "context, as a person's running browser has (alternated with and without on "
        "2026-12-03: no difference measured)",
    )
    parser.add_argument(
        "--before",
        type=lambda p: Path(p).resolve(),
        help="also serve with this checkout's voila.json and throne template, alternated "
        "round by round (a server per round): the page-load cuts' before/after",
    )
    args = parser.parse_args()
    if args.before and not (args.before / "voila.json").is_file():
        parser.error(f"--before: expected a checkout with a voila.json, got {args.before}")
    if args.warm_visits and args.contexts_at_once:
        parser.error("--warm-visits needs the contexts created before the moment")
    if args.profile and not args.timeline:
        parser.error("--profile needs --timeline")
    if args.browsers is not None and not 0 <= args.browsers <= args.seats:
        parser.error(f"--browsers: 0 to --seats ({args.seats})")
    print(f"load {load()} on {os.cpu_count()} cores")
    out = ROOT / "results" / "join_at_once" / f"{args.label}.jsonl"
    out.parent.mkdir(parents=True, exist_ok=True)
    command = " ".join(["benchmarks/join_at_once.py", *sys.argv[1:]])
    with tempfile.TemporaryDirectory() as tmp:
        rows = asyncio.run(rounds(args, Path(tmp), args.label))
    with out.open("a", encoding="utf-8") as f:
        for row in rows:
            if "files_fetched" in row:  # the list is the same for every page: its count
                row["files_fetched"] = len(row["files_fetched"])
            f.write(json.dumps({"command": command, **row}) + "\n")
    for name in configs(args):
        for client in ("browser", "protocol", "html-only"):
            mine = [r for r in rows if r["config"] == name and r.get("client", "browser") == client]
            if not mine:
                continue
            times = sorted(r["interactive_s"] for r in mine)
            html = sorted(r["html_s"] for r in mine)
            within = sum(t <= 5.0 for t in times)
            print(
                f"{name:>9}, {client:>8}: {len(times)} pages, interactive median "
                f"{statistics.median(times):.2f} s, max {times[-1]:.2f} s, {within}/{len(times)} "
                f"within 5 s; HTML complete median {statistics.median(html):.2f} s, max "
                f"{html[-1]:.2f} s"
            )
    print(f"load now {load()}; rows appended to {out.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
