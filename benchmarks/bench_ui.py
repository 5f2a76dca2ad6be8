"""UI benchmark: the kernel-side time of a click with its redraw, and (``--browser``)
navigation -> board interactive and click -> highlight shown, measured in Chromium
against a local Voilà server at 1440×900.

    .venv/bin/python benchmarks/bench_ui.py [--clicks N] [--browser]

Kernel side: a crowded mid-game position (random play until the board holds many
units), a MatchWidget marked client-ready so every click really builds and sends its
canvas commands (to no browser), then clicks alternating between units: select
(highlights from legal_actions + redraw of the units and overlay layers), and a
click that plays a move on a copy. Targets (issue 17): navigation -> board interactive
≤ 3 s; click -> highlight in Chromium median ≤ 50 ms, p95 ≤ 100 ms. Prints figures
(with the machine's load average, which dominates them); asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

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


def browser_side(clicks: int, gap: float = 0.0) -> None:
    from playwright.sync_api import sync_playwright

    from throne_lib.games.throne.ui.layout import DEFAULT_LAYOUT as L

    port = _free_port()
    bin_dir = Path(sys.executable).parent
    env = dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    env["JUPYTER_PATH"] = str(ROOT / "share" / "jupyter")  # the "throne" template
    log = open(ROOT / "tests" / "artifacts" / "bench_ui_voila.log", "wb")  # noqa: SIM115
    server = subprocess.Popen(
        [str(bin_dir / "voila"), "notebooks/play.ipynb", "--no-browser", f"--port={port}",
         "--Voila.ip=127.0.0.1"],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
    )  # fmt: skip
    state = (
        "(() => { const e = document.querySelector('.tp-state'); return e ? e.dataset : null })()"
    )
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:  # wait for the server to answer
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.25)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(
                executable_path="/usr/bin/chromium",
                args=["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                      "--disable-component-update", "--disable-sync", "--no-first-run"],
            )  # fmt: skip
            # Navigation -> board interactive: the page opens on a board (the last
            # settings); interactive = the canvas is there and the status line carries
            # the match state (the kernel answered). The first load also warms the
            # server; each load starts a new kernel.
            navigations: list[float] = []
            for i in range(3):
                if i and gap:  # a later visitor: the server's kernel pool has refilled
                    time.sleep(gap)
                page = browser.new_page(viewport={"width": 1440, "height": 900})
                t0 = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}/", timeout=180_000)
                page.wait_for_selector(".tp-match canvas", timeout=180_000)
                page.wait_for_function(f"(() => {{ const s = {state}; return s && s.phase; }})()")
                navigations.append(time.perf_counter() - t0)
                page.close()
            print("navigations:", " ".join(f"{t:.2f} s" for t in navigations), f"(gap {gap:g} s)")
            stats("navigation -> board interactive", navigations)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            received: list[int] = []  # kernel -> page websocket frames, by size
            page.on(
                "websocket", lambda ws: ws.on("framereceived", lambda p: received.append(len(p)))
            )
            page.goto(f"http://127.0.0.1:{port}/", timeout=180_000)
            page.wait_for_function(
                f"(() => {{ const s = {state}; return s && s.turn === '0' && s.phase === 'replace'; }})()",
                timeout=60_000,
            )

            def click(x: float, y: float) -> None:
                box = page.locator(".tp-match canvas").first.bounding_box()
                assert box is not None
                page.mouse.click(box["x"] + x, box["y"] + y)

            click(*L.chip_center(0))  # keep
            for name in ("b2", "d2", "f2"):  # found three barracks
                page.wait_for_function(
                    f"(() => {{ const s = {state}; return s.phase === 'found' || s.phase === 'main'; }})()"
                )
                seq = int(page.evaluate(state)["seq"])
                click(*L.cell_center((int(name[1]) - 1) * 7 + ord(name[0]) - 97))
                page.wait_for_function(f"(() => +({state}).seq > {seq})()")
            page.wait_for_function(
                f"(() => {{ const s = {state}; return s.turn === '0' && s.phase === 'main'; }})()",
                timeout=120_000,
            )
            cells = [7 + 1, 7 + 3]  # b2 and d2: each click selects the other barracks
            times: list[float] = []
            page.wait_for_timeout(1000)  # the AI's turn and the founding settle
            page.evaluate(IN_PAGE_CLOCK)
            frames_before, bytes_before = len(received), sum(received)
            for i in range(clicks):
                before = page.evaluate(state)["hl"]
                t0 = time.perf_counter()
                click(*L.cell_center(cells[i % 2]))
                page.wait_for_function(
                    f"(() => ({state}).hl !== {before!r})()", polling="raf", timeout=10_000
                )
                times.append(time.perf_counter() - t0)
            page.wait_for_timeout(200)
            in_page = page.evaluate("window.__tpClock.times")
            stats("browser click -> highlight (Playwright)", times)
            stats("  same, the page's own clock", [t / 1000 for t in in_page])
            print(
                f"{'kernel -> page frames per click':<38} {(len(received) - frames_before) / clicks:.1f}"
                f" ({(sum(received) - bytes_before) / clicks / 1000:.1f} kB)"
            )
            browser.close()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(10)
        log.close()


def main() -> None:
    print(
        f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} cores"
    )
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clicks", type=int, default=300)
    parser.add_argument("--browser", action="store_true", help="also measure in Chromium")
    parser.add_argument(
        "--gap", type=float, default=0.0,
        help="seconds between the navigations (0: back to back, each one racing the "
        "refill of the play page's preheated kernel; 20: each visitor finds it warm)",
    )  # fmt: skip
    args = parser.parse_args()
    kernel_side(args.clicks)
    if args.browser:
        browser_side(min(args.clicks, 60), args.gap)


if __name__ == "__main__":
    main()
