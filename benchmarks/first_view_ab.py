"""The cards editor's first view with the browser's own per-cell drawImage ("native",
the page as it was) and with the page helpers' scratch-canvas copy ("scratch"), in
alternating order, each on a freshly started server with its preheated kernel; the
measure of tests/browser/test_first_views.py (navigation -> the grid and the gallery
visible, then two animation frames: the grid painted) with the 1-minute load average
before and after (issue 36, item 8).

    .venv/bin/python benchmarks/first_view_ab.py [PAIRS] [OUT.jsonl]

Prints one JSON line per load and appends it to OUT (default
results/first_views/cards_grid_copy_ab.jsonl). Not a test: a figure.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import conftest as C  # noqa: E402  (the browser tests' Voilà server and Chromium flags)
from playwright.sync_api import expect, sync_playwright  # noqa: E402

pairs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
out_path = (
    Path(sys.argv[2])
    if len(sys.argv) > 2
    else ROOT / "results/first_views/cards_grid_copy_ab.jsonl"
)
out = out_path.open("a", encoding="utf-8")
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=C.CHROMIUM_ARGS, headless=True)
    for i in range(pairs):
        for native in (True, False) if i % 2 == 0 else (False, True):
            server = C._VoilaServer("notebooks", pools={"cards.ipynb": 1})
            server.wait_ready()
            server.wait_preheated(1, timeout=240)  # the cards page's kernel has built it
            time.sleep(1)
            ctx = b.new_context(viewport={"width": 1440, "height": 900})
            page = ctx.new_page()
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
            rec = {
                "copy": "native" if native else "scratch",
                "seconds": round(sec, 2),
                "html": round(html_s, 2),
                "visible": round(visible, 2),
                "load": round(load, 2),
                "load_after": round(os.getloadavg()[0], 2),
                "grid": page.evaluate("({...window.__tpGridBlit})"),
            }
            print(json.dumps(rec), flush=True)
            out.write(json.dumps(rec) + "\n")
            out.flush()
            ctx.close()
            server.stop()
    b.close()
