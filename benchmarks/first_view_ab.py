"""The cards editor's first view with the browser's own per-cell drawImage ("native",
the page as it was) and with the page helpers' scratch-canvas copy ("scratch"), in
alternating order, each on a freshly started server with its preheated kernel; the
measure of tests/browser/test_first_views.py (navigation -> the grid and the gallery
visible, then two animation frames: the grid painted) with the 1-minute load average
before and after (issue 36, item 8).

    .venv/bin/python benchmarks/first_view_ab.py [PAIRS] [OUT.jsonl]

Prints one JSON line per load and appends it to OUT (default
results/first_views/cards_grid_copy_ab.jsonl). Not a test: a figure.

``--before DIR`` compares serving configurations instead of the two copies (both loads
with the scratch copy): "before" is served with DIR's ``voila.json`` and ``throne``
template (a checkout of an earlier commit: ``git worktree add --detach DIR COMMIT``),
"after" with this tree's; the kernels run this tree's code either way. Each record also
has the page's renderer main-thread time (CDP ``Performance.getMetrics``) and its
requests and page errors. The page-load cuts of 2026-12-03 (no MathJax and no
jupyterlab_pygments, the front end as bundles: docs/ui.md, *Page load*) were measured
so, alternated, at the machine's load:

    git worktree add --detach /tmp/before 9d2a00b
    nice .venv/bin/python benchmarks/first_view_ab.py 4 \
        results/first_views/cards_page_load_ab.jsonl --before /tmp/before
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import conftest as C  # noqa: E402  (the browser tests' Voilà server and Chromium flags)
from playwright.sync_api import expect, sync_playwright  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
parser.add_argument("pairs", nargs="?", type=int, default=3)
parser.add_argument(
    "out", nargs="?", type=Path, default=ROOT / "results/first_views/cards_grid_copy_ab.jsonl"
)
parser.add_argument("--before", type=Path, help="a checkout served as the 'before' arm")
opts = parser.parse_args()
before_root: Path | None = opts.before.resolve() if opts.before else None
if before_root is not None and not (before_root / "voila.json").is_file():
    parser.error(f"--before: expected a checkout with a voila.json, got {before_root}")
pairs, out_path = opts.pairs, opts.out
command = " ".join(["benchmarks/first_view_ab.py", *sys.argv[1:]])
arms = ("before", "after") if before_root is not None else ("native", "scratch")


def start_server(arm: str) -> C._VoilaServer:
    """A fresh server of the arm's configuration with the cards page's kernel heated."""
    own_root = C.ROOT
    import voila_pools  # the config search path names the root too (conftest's helper)

    if arm == "before":  # DIR's voila.json (the cwd) and template (JUPYTER_PATH)
        C.ROOT = before_root
        voila_pools.ROOT = C.ROOT
    try:
        server = C._VoilaServer("notebooks", pools={"cards.ipynb": 1})
    finally:
        C.ROOT = voila_pools.ROOT = own_root
    server.wait_ready()
    server.wait_preheated(1, timeout=240)  # the cards page's kernel has built it
    return server


out = out_path.open("a", encoding="utf-8")
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=C.CHROMIUM_ARGS, headless=True)
    for i in range(pairs):
        for arm in arms if i % 2 == 0 else arms[::-1]:
            native = arm == "native"
            server = start_server(arm)
            time.sleep(1)
            ctx = b.new_context(viewport={"width": 1440, "height": 900})
            page = ctx.new_page()
            cdp = ctx.new_cdp_session(page)
            cdp.send("Performance.enable")
            errors: list[str] = []
            page.on("pageerror", lambda e, errors=errors: errors.append(str(e)[:200]))
            if native:
                page.add_init_script("window.__tpGridBlitOff = true")
            load = os.getloadavg()[0]
            st = time.perf_counter()
            page.goto(server.url + "voila/render/cards.ipynb", wait_until="commit", timeout=120000)
            page.locator(".tp-home-link").wait_for(state="attached", timeout=120000)
            html_s = time.perf_counter() - st
            expect(page.locator(".throne-editor .lm-DataGrid").first).to_be_visible(timeout=120000)
            expect(page.locator(".throne-gallery canvas").first).to_be_visible(timeout=120000)
            visible = time.perf_counter() - st
            page.evaluate(
                "new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"
            )  # painted
            sec = time.perf_counter() - st
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            rec = {
                "copy": "native" if native else "scratch",
                "seconds": round(sec, 2),
                "html": round(html_s, 2),
                "visible": round(visible, 2),
                "load": round(load, 2),
                "load_after": round(os.getloadavg()[0], 2),
                "grid": page.evaluate("({...window.__tpGridBlit})"),
            }
            if before_root is not None:
                rec = {
                    "config": arm,
                    **rec,
                    "renderer_s": {
                        k: round(metrics.get(k, 0.0), 3)
                        for k in ("TaskDuration", "ScriptDuration", "LayoutDuration")
                    },
                    "requests": page.evaluate("performance.getEntriesByType('resource').length"),
                    "page_errors": errors,
                    "command": command,
                }
            print(json.dumps(rec), flush=True)
            out.write(json.dumps(rec) + "\n")
            out.flush()
            ctx.close()
            server.stop()
    b.close()
