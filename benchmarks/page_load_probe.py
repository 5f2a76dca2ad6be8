"""What the browser spends one Voilà page load on: every request (size, status, cache
headers, served from the browser's cache or not), the renderer main thread's time
(CDP ``Performance.getMetrics``: script, layout, style), the widget models the page
received and their state's size, and the same for a second load of the page in the same
browser context (a person who opened it before).

    nice .venv/bin/python benchmarks/page_load_probe.py [NOTEBOOK ...] [--out OUT.jsonl]
        [--loads 2] [--trace DIR] [--profile] [--before CHECKOUT] [--label L]

Serves ``notebooks/`` as the browser tests do (tests/browser/conftest.py: tree mode,
voila.json, the ``throne`` template, one preheated kernel per named notebook); default
notebook ``cards.ipynb``. Prints a summary per load (bytes by kind and by extension,
304s, cache hits, Cache-Control values) and appends one JSON line per load to OUT
(default results/first_views/page_load_probe.jsonl). ``--trace DIR`` also writes a
Chrome trace (devtools.timeline) per load, for chrome://tracing or Perfetto;
``--profile`` V8's sampling profile (self time by file and function; it costs CPU
itself); ``--before CHECKOUT`` serves with that checkout's ``voila.json`` and template
(the kernels run this tree's code).
Not a test: a figure.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
sys.path.insert(0, str(ROOT / "benchmarks"))
import conftest as C  # noqa: E402  (the browser tests' Voilà server and Chromium flags)
from playwright.sync_api import sync_playwright  # noqa: E402

READY = {  # a selector drawn from the kernel's widget state: the page is interactive
    "cards.ipynb": ".throne-editor .lm-DataGrid",
    "castle.ipynb": ".castle-status",
    "cities.ipynb": ".castle-status",
    "pin.ipynb": ".pin-status",
    "play.ipynb": ".tp-home-link",
}


def kind_of(url: str) -> str:
    path = url.split("?")[0]
    if "/voila/labextensions/" in path:
        return "labext:" + path.split("/voila/labextensions/")[1].split("/static/")[0]
    if "/voila/static/" in path:
        return "voila-static"
    if "/voila/api/themes" in path:
        return "theme"
    if "/voila/render/" in path:
        return "html"
    return "other:" + path.rsplit("/", 1)[-1][:40]


def one_load(
    ctx: Any, url: str, ready: str, trace_to: Path | None, profile: bool = False
) -> dict[str, Any]:
    page = ctx.new_page()
    cdp = ctx.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Performance.enable")
    reqs: dict[str, dict[str, Any]] = {}
    frames = {"n": 0, "bytes": 0, "states_bytes": 0, "comm_open": 0}

    def on_request(ev: dict[str, Any]) -> None:
        reqs[ev["requestId"]] = {"url": ev["request"]["url"], "t0": ev["timestamp"]}

    def on_response(ev: dict[str, Any]) -> None:
        r = reqs.setdefault(ev["requestId"], {"url": ev["response"]["url"]})
        resp = ev["response"]
        h = {k.lower(): v for k, v in resp.get("headers", {}).items()}
        r.update(
            status=resp["status"],
            cache_control=h.get("cache-control", "-"),
            etag="etag" in h,
            from_cache=bool(resp.get("fromDiskCache") or resp.get("fromMemoryCache")),
            mime=resp.get("mimeType", ""),
        )

    def on_served_from_cache(ev: dict[str, Any]) -> None:
        reqs.setdefault(ev["requestId"], {})["from_cache"] = True

    def on_finished(ev: dict[str, Any]) -> None:
        r = reqs.setdefault(ev["requestId"], {})
        r["bytes"] = ev["encodedDataLength"]
        r["t1"] = ev["timestamp"]

    def on_ws_frame(ev: dict[str, Any]) -> None:
        data = ev["response"].get("payloadData", "")
        if ev["response"].get("opcode") == 2:  # binary (jupyter's v1 protocol): base64
            data = base64.b64decode(data).decode("utf-8", "replace")
        frames["n"] += 1
        frames["bytes"] += len(data)
        if '"update_states"' in data:
            frames["states_bytes"] += len(data)
        if '"msg_type": "comm_open"' in data or '"msg_type":"comm_open"' in data:
            frames["comm_open"] += 1

    cdp.on("Network.requestWillBeSent", on_request)
    cdp.on("Network.responseReceived", on_response)
    cdp.on("Network.requestServedFromCache", on_served_from_cache)
    cdp.on("Network.loadingFinished", on_finished)
    cdp.on("Network.webSocketFrameReceived", on_ws_frame)
    if trace_to is not None:
        cdp.send(
            "Tracing.start",
            {
                "categories": "devtools.timeline,v8.execute,disabled-by-default-devtools.timeline,blink.user_timing",
                "transferMode": "ReturnAsStream",
            },
        )
    if profile:  # V8's sampling profiler on the page's main thread
        cdp.send("Profiler.enable")
        cdp.send("Profiler.setSamplingInterval", {"interval": 200})
        cdp.send("Profiler.start")
    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit", timeout=120_000)
    page.locator(ready).first.wait_for(state="visible", timeout=120_000)
    page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
    interactive = time.perf_counter() - t0
    page.wait_for_load_state("networkidle")  # late requests (fonts, lazy chunks)
    prof = None
    if profile:
        from join_at_once import profile_summary

        prof = profile_summary(cdp.send("Profiler.stop")["profile"], top=25)
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    nav = page.evaluate(
        "(() => { const n = performance.getEntriesByType('navigation')[0];"
        " return {html: n.responseEnd, dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd}; })()"
    )
    dom = page.evaluate(
        "({nodes: document.getElementsByTagName('*').length,"
        " widgets: document.querySelectorAll('.jupyter-widgets').length,"
        " mathjax: !!window.MathJax, styles: document.styleSheets.length,"
        " fonts: [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)})"
    )
    if trace_to is not None:
        done: dict[str, Any] = {}
        cdp.on("Tracing.tracingComplete", lambda ev: done.update(ev))
        cdp.send("Tracing.end")
        while "stream" not in done:
            page.wait_for_timeout(100)
        chunks = []
        while True:
            part = cdp.send("IO.read", {"handle": done["stream"]})
            chunks.append(part["data"])
            if part.get("eof"):
                break
        cdp.send("IO.close", {"handle": done["stream"]})
        trace_to.write_text("".join(chunks), encoding="utf-8")
    page.close()
    by_kind: dict[str, dict[str, float]] = defaultdict(lambda: {"n": 0, "kb": 0.0})
    cache_controls: dict[str, int] = defaultdict(int)
    statuses: dict[str, int] = defaultdict(int)
    for r in reqs.values():
        if "url" not in r or r["url"].startswith("data:"):
            continue
        k = kind_of(r["url"])
        by_kind[k]["n"] += 1
        by_kind[k]["kb"] = round(by_kind[k]["kb"] + r.get("bytes", 0) / 1024, 1)
        cache_controls[f"{k.split(':')[0]} {r.get('cache_control', '-')}"] += 1
        statuses[str(r.get("status", "?")) + (" cache" if r.get("from_cache") else "")] += 1
    return {
        "interactive_s": round(interactive, 3),
        "nav_ms": {k: round(v) for k, v in nav.items()},
        "load": round(load, 2),
        "load_after": round(os.getloadavg()[0], 2),
        "requests": sum(v["n"] for v in by_kind.values()),
        "transferred_kb": round(sum(r.get("bytes", 0) for r in reqs.values()) / 1024, 1),
        "statuses": dict(statuses),
        "by_kind": dict(by_kind),
        "cache_control": dict(cache_controls),
        "renderer_s": {
            k: round(metrics.get(k, 0.0), 3)
            for k in ("TaskDuration", "ScriptDuration", "LayoutDuration", "RecalcStyleDuration")
        },
        "layouts": metrics.get("LayoutCount"),
        "style_recalcs": metrics.get("RecalcStyleCount"),
        "js_heap_mb": round(metrics.get("JSHeapUsedSize", 0) / 2**20, 1),
        "ws": frames,
        "profile": prof,
        "dom": dom,
        "core_chunks": sorted(  # Voilà's own chunks the page fetched (throne_serving.bundles)
            {
                r["url"].split("?")[0].rsplit("/", 1)[-1]
                for r in reqs.values()
                if "/voila/static/" in r.get("url", "")
                and r["url"].split("?")[0].endswith(".voila.js")
            }
        ),
        "labext_chunks": sorted(  # the extensions' chunks it fetched (not their remoteEntry)
            {
                r["url"].split("?")[0].split("/voila/labextensions/")[1]
                for r in reqs.values()
                if "/voila/labextensions/" in r.get("url", "") and "/remoteEntry." not in r["url"]
            }
        ),
        "largest": sorted(
            (
                (round(r.get("bytes", 0) / 1024, 1), r["url"].split("/voila/")[-1][:90])
                for r in reqs.values()
                if "url" in r
            ),
            reverse=True,
        )[:12],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", default=["cards.ipynb"])
    parser.add_argument("--loads", type=int, default=2, help="loads per context")
    parser.add_argument("--label", default="probe")
    parser.add_argument("--out", default=str(ROOT / "results/first_views/page_load_probe.jsonl"))
    parser.add_argument("--trace", help="a folder for one Chrome trace per load")
    parser.add_argument(
        "--before", help="serve with this checkout's voila.json and template instead"
    )
    parser.add_argument(
        "--profile", action="store_true", help="V8's sampling profile (costs CPU itself)"
    )
    args = parser.parse_args()
    command = " ".join(["benchmarks/page_load_probe.py", *sys.argv[1:]])
    with sync_playwright() as p:
        b = p.chromium.launch(
            executable_path="/usr/bin/chromium", args=C.CHROMIUM_ARGS, headless=True
        )
        for nb in args.notebooks:
            server = start_server(nb, args.before)
            try:  # one browser context per notebook: its second load finds its caches
                ctx = b.new_context(viewport={"width": 1440, "height": 900}, locale="zh-CN")
                for i in range(args.loads):
                    if nb in READY:  # a notebook that waits for its visitor (preheat.py)
                        server.wait_preheated(1, timeout=240)  # the pool has refilled
                    time.sleep(1)
                    trace = Path(args.trace) / f"{nb}-{i}.json" if args.trace else None
                    url = server.url + "voila/render/" + nb
                    rec = one_load(ctx, url, READY.get(nb, ".jupyter-widgets"), trace, args.profile)
                    rec = {"command": command, "label": args.label, "notebook": nb,
                           "visit": i + 1, **rec}  # fmt: skip
                    print(json.dumps(rec, ensure_ascii=False, indent=1), flush=True)
                    with Path(args.out).open("a", encoding="utf-8") as out:
                        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
                ctx.close()
            finally:
                server.stop()
        b.close()


def start_server(notebook: str, before: str | None) -> C._VoilaServer:
    """``notebooks/`` served with one preheated kernel, for ``notebook`` only; with
    ``before``, that checkout's voila.json (the server's cwd) and template (JUPYTER_PATH)."""
    own_root = C.ROOT
    import voila_pools  # the config search path names the root too (conftest's helper)

    if before:
        C.ROOT = Path(before).resolve()
        voila_pools.ROOT = C.ROOT
    try:
        server = C._VoilaServer("notebooks", pools={notebook: 1} if notebook in READY else {})
    finally:
        C.ROOT = voila_pools.ROOT = own_root
    server.wait_ready()
    return server


if __name__ == "__main__":
    main()
