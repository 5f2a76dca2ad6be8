"""UI benchmark: the kernel-side time of a click with its redraw, and (``--browser``)
navigation -> board interactive and click -> highlight shown, measured in Chromium
against a local Voilà server at 1440×900.

    .venv/bin/python benchmarks/bench_ui.py [--clicks N] [--browser] [--floor] [--gap S]

Kernel side: a crowded mid-game position (random play until the board holds many
units), a MatchWidget marked client-ready so every click really builds and sends its
canvas commands (to no browser), then clicks alternating between units: select
(highlights from legal_actions + redraw of the units and overlay layers), and a
click that plays a move on a copy. Targets (issue 17): navigation -> board interactive
≤ 3 s; click -> highlight in Chromium median ≤ 50 ms, p95 ≤ 100 ms. Prints figures
(with the machine's load average, which dominates them); asserts nothing.

``--floor`` measures the same on a page of one canvas and one HTML widget served the
same way: what Voilà and the browser cost on this machine before the play page adds
anything.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from throne_lib import Match, SideSetup, load_cards
from throne_lib.games.throne.ui.widget import MatchWidget
from throne_lib.kit.agents import RandomAgent

ROOT = Path(__file__).resolve().parents[1]


def crowded_match(min_units: int = 22) -> Match:
    """Random play (seeded) until blue is to act in the main phase on a crowded board."""
    db = load_cards()
    for seed in range(100):
        m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "demon"), seed)
        agents = (RandomAgent(seed), RandomAgent(seed + 1))
        while not m.is_over and m.round < 12:
            crowded = len(m.state.units()) >= min_units and len(m.legal_actions()) > 30
            if m.turn == 0 and m.phase == "main" and crowded:
                return m
            m.apply(agents[m.turn].choose(m))
    raise RuntimeError("no crowded position found")


def stats(name: str, seconds: list[float]) -> None:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    print(
        f"{name:<38} n={len(ms):4d}  median {statistics.median(ms):6.2f} ms"
        f"  p95 {p95:6.2f} ms  max {ms[-1]:6.2f} ms"
    )


def kernel_side(clicks: int) -> None:
    m = crowded_match()
    units = sorted({a.cell for a in m.legal_actions() if a.cell >= 0})
    print(
        f"position: round {m.round}, {len(m.state.units())} units, "
        f"{len(m.legal_actions())} legal actions, {len(units)} blue pieces can act"
    )
    w = MatchWidget(m, RandomAgent(0), ai_mode="manual")
    w._on_client_ready()
    select: list[float] = []
    for i in range(clicks):
        select.append(w.timed_click(units[i % len(units)]))
    stats("click -> select + highlight + redraw", select)
    act: list[float] = []
    movers = [a for a in m.legal_actions() if a.kind == "move"]
    for i in range(min(clicks, 200)):
        a = movers[i % len(movers)]
        copy = MatchWidget(m.copy(), RandomAgent(0), ai_mode="manual")
        copy.ready = True
        copy.click_cell(a.cell)
        act.append(copy.timed_click(a.target))
    stats("click -> apply move + redraw", act)
    t0 = time.perf_counter()
    for _ in range(50):
        w.view_ops()
    print(
        f"{'pure render (units + overlay ops)':<38} {(time.perf_counter() - t0) / 50 * 1000:.2f} ms"
    )


def _free_port() -> int:
    """A free port of 127.0.0.1 ($THRONE_BENCH_PORT when set: a shared machine's range)."""
    if os.environ.get("THRONE_BENCH_PORT"):
        return int(os.environ["THRONE_BENCH_PORT"])
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# The page's own clock for click -> highlight: from the mousedown on the match canvas to
# the first animation frame after the status line's highlight list changed (the canvas
# overlay is drawn from an earlier message of the same click). Playwright's own figure
# also counts its round trips to the browser (the click's input events, the polling).
IN_PAGE_CLOCK = """() => {
  const clock = { down: 0, hl: null, times: [] };
  window.__tpClock = clock;
  document.addEventListener("mousedown", (e) => {
    if (e.target instanceof HTMLCanvasElement && e.target.closest(".tp-match")) {
      clock.down = performance.now();
    }
  }, true);
  const read = () => { const e = document.querySelector(".tp-state"); return e ? e.dataset.hl : null; };
  clock.hl = read();
  new MutationObserver(() => {
    const hl = read();
    if (hl === clock.hl) { return; }
    clock.hl = hl;
    if (!clock.down) { return; }
    const down = clock.down;
    clock.down = 0;
    requestAnimationFrame(() => clock.times.push(performance.now() - down));
  }).observe(document.body, { subtree: true, childList: true, attributes: true });
}"""


# The floor: what Voilà itself costs on this machine, for the same server settings (the
# throne template, voila.json's pool of one preheated kernel for a "play.ipynb") with a
# page of one MultiCanvas and one HTML widget; a mouse release draws a square and bumps
# the status line's data-hl. The play page cannot be faster than this.
FLOOR_NOTEBOOK = """import ipywidgets as W
from ipycanvas import MultiCanvas, hold_canvas
from throne_lib.ui.demo import install_page, wait_for_visitor

install_page("play.ipynb")
canvas = MultiCanvas(4, width=620, height=660)
canvas.layout = W.Layout(width="620px", height="660px")
state = W.HTML('<div class="tp-state" data-phase="floor" data-hl="0"></div>')
box = W.VBox([state, canvas])
box.add_class("tp-match")
clicks = 0


def released(x, y):
    global clicks
    clicks += 1
    with hold_canvas():
        canvas[3].clear()
        canvas[3].fill_rect(x - 5, y - 5, 10, 10)
    state.value = f'<div class="tp-state" data-phase="floor" data-hl="{clicks}"></div>'


canvas.on_mouse_down(lambda x, y: None)
canvas.on_mouse_up(released)
wait_for_visitor()
box"""

STATE = "(() => { const e = document.querySelector('.tp-state'); return e ? e.dataset : null })()"


@contextlib.contextmanager
def voila(notebook: Path, log_name: str, extra_args: Sequence[str] = ()) -> Iterator[int]:
    """A Voilà server for ``notebook`` (cwd: the repository, for voila.json); its port.
    ``extra_args``: more command-line options (``ui_latency_hops.py``'s probe)."""
    port = _free_port()
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    env["JUPYTER_PATH"] = str(ROOT / "share" / "jupyter")  # the "throne" template
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    artifacts = ROOT / "tests" / "artifacts"
    artifacts.mkdir(exist_ok=True)  # absent in a fresh clone until the browser tests run
    log = open(artifacts / log_name, "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [str(bin_dir / "voila"), str(notebook), "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1", *extra_args],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # wait for the server to answer
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.25)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
        log.close()


def navigations(browser: Any, port: int, gap: float, name: str) -> None:
    """Navigation -> board interactive: the canvas is there and the status line carries
    the state (the kernel answered). Three first visits (each in a fresh browser
    profile: nothing cached), the first right after the server start (its pool kernel
    may still be heating), then three visits in one profile (a designer coming back:
    the JavaScript is in the browser's cache). ``gap`` seconds before each visit but
    the first let the pool refill. Also printed: when the page's HTML was complete (the
    kernel had run the notebook up to its visitor); the rest is the browser's."""
    for series, shared in (("new profile", False), ("same profile", True)):
        context = browser.new_context(viewport={"width": 1440, "height": 900})
        times: list[float] = []
        html_done: list[float] = []  # the page's HTML complete: the kernel ran the notebook
        for i in range(3):
            if gap and (i or shared):
                time.sleep(gap)
            if not shared and i:
                context.close()
                context = browser.new_context(viewport={"width": 1440, "height": 900})
            page = context.new_page()
            t0 = time.perf_counter()
            page.goto(f"http://127.0.0.1:{port}/", timeout=180_000)
            page.wait_for_selector(".tp-match canvas", timeout=180_000)
            page.wait_for_function(f"(() => {{ const s = {STATE}; return s && s.phase; }})()")
            times.append(time.perf_counter() - t0)
            html_done.append(
                page.evaluate("performance.getEntriesByType('navigation')[0].responseEnd") / 1000
            )
            page.close()
        context.close()
        print(
            f"{name} navigations, {series}:",
            " ".join(f"{t:.2f} s" for t in times),
            f"(gap {gap:g} s); page HTML complete after",
            " ".join(f"{t:.2f} s" for t in html_done),
        )
        stats(f"{name} navigation ({series})", times)


def timed_clicks(page: Any, cells: list[tuple[float, float]], clicks: int, name: str) -> None:
    """Click the canvas pixels ``cells`` in turn; each click waits until the status
    line's data-hl changed. Prints Playwright's figure and the page's own clock."""
    page.evaluate(IN_PAGE_CLOCK)
    times: list[float] = []
    for i in range(clicks):
        before = page.evaluate(STATE)["hl"]
        box = page.locator(".tp-match canvas").first.bounding_box()
        assert box is not None
        x, y = cells[i % len(cells)]
        t0 = time.perf_counter()
        page.mouse.click(box["x"] + x, box["y"] + y)
        page.wait_for_function(
            f"(() => ({STATE}).hl !== {before!r})()", polling="raf", timeout=10_000
        )
        times.append(time.perf_counter() - t0)
    page.wait_for_timeout(200)
    in_page = page.evaluate("window.__tpClock.times")
    stats(f"{name} click -> highlight (Playwright)", times)
    stats(f"{name}   same, the page's own clock", [t / 1000 for t in in_page])


def launch(pw: Any) -> Any:
    return pw.chromium.launch(
        executable_path="/usr/bin/chromium",
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
              "--disable-component-update", "--disable-sync", "--no-first-run"],
    )  # fmt: skip


def play_setup(page: Any) -> list[tuple[float, float]]:
    """bench_ui's play position: keep the hand, found three barracks; the clicks then
    alternate between two barracks (each selects the other)."""
    from throne_lib.games.throne.ui.layout import DEFAULT_LAYOUT as L

    page.wait_for_function(
        f"(() => {{ const s = {STATE}; return s && s.turn === '0' && s.phase === 'replace'; }})()",
        timeout=60_000,
    )

    def click(x: float, y: float) -> None:
        box = page.locator(".tp-match canvas").first.bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + x, box["y"] + y)

    click(*L.tray.center(0))
    for name in ("b2", "d2", "f2"):
        page.wait_for_function(
            f"(() => {{ const s = {STATE}; return s.phase === 'found' || s.phase === 'main'; }})()"
        )
        seq = int(page.evaluate(STATE)["seq"])
        click(*L.cell_center((int(name[1]) - 1) * 7 + ord(name[0]) - 97))
        page.wait_for_function(f"(() => +({STATE}).seq > {seq})()")
    page.wait_for_function(
        f"(() => {{ const s = {STATE}; return s.turn === '0' && s.phase === 'main'; }})()",
        timeout=120_000,
    )
    return [L.cell_center(7 + 1), L.cell_center(7 + 3)]


def browser_side(clicks: int, gap: float = 0.0) -> None:
    from playwright.sync_api import sync_playwright

    with (
        voila(ROOT / "notebooks" / "play.ipynb", "bench_ui_voila.log") as port,
        sync_playwright() as pw,
    ):
        browser = launch(pw)
        navigations(browser, port, gap, "play")
        page = browser.new_page(viewport={"width": 1440, "height": 900})
        received: list[int] = []  # kernel -> page websocket frames, by size
        page.on("websocket", lambda ws: ws.on("framereceived", lambda p: received.append(len(p))))
        page.goto(f"http://127.0.0.1:{port}/", timeout=180_000)
        cells = play_setup(page)
        page.wait_for_timeout(1000)  # the AI's turn and the founding settle
        frames_before, bytes_before = len(received), sum(received)
        # b2 and d2: each click selects the other barracks
        timed_clicks(page, cells, clicks, "play")
        print(
            f"{'kernel -> page frames per click':<38} {(len(received) - frames_before) / clicks:.1f}"
            f" ({(sum(received) - bytes_before) / clicks / 1000:.1f} kB)"
        )
        browser.close()


def floor_side(clicks: int, gap: float) -> None:
    """The same measurements on Voilà's floor page (:data:`FLOOR_NOTEBOOK`)."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        notebook = Path(tmp) / "play.ipynb"  # voila.json preheats a "play.ipynb"
        cell = {"cell_type": "code", "execution_count": None, "id": "floor", "metadata": {},
                "outputs": [], "source": FLOOR_NOTEBOOK}  # fmt: skip
        nb = json.loads((ROOT / "notebooks" / "play.ipynb").read_text(encoding="utf-8"))
        nb["cells"] = [cell]
        notebook.write_text(json.dumps(nb), encoding="utf-8")
        with voila(notebook, "bench_ui_floor.log") as port, sync_playwright() as pw:
            browser = launch(pw)
            navigations(browser, port, gap, "floor")
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.goto(f"http://127.0.0.1:{port}/", timeout=180_000)
            page.wait_for_selector(".tp-match canvas", timeout=60_000)
            page.wait_for_timeout(1000)
            timed_clicks(page, [(100.0, 100.0), (300.0, 300.0)], clicks, "floor")
            browser.close()


def main() -> None:
    print(
        f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--browser", action="store_true", help="also measure in Chromium")
    parser.add_argument(
        "--floor", action="store_true",
        help="also measure Voilà's floor: a page of one canvas and one HTML widget",
    )  # fmt: skip
    parser.add_argument(
        "--gap", type=float, default=0.0,
        help="seconds between the navigations (0: back to back, each one racing the "
        "refill of the play page's preheated kernel; 20: each visitor finds it warm)",
    )  # fmt: skip
    args = parser.parse_args()
    kernel_side(args.clicks)
    if args.browser:
        browser_side(min(args.clicks, 60), args.gap)
    if args.floor:
        floor_side(min(args.clicks, 60), args.gap)
    print(f"load average at the end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
