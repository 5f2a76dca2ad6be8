"""What a request costs Chromium on this machine, whatever its size: the same JavaScript
fetched as N scripts or as one, in alternating order, each in a fresh browser context,
with the CPU seconds of Chromium's processes (browser, renderer, network service, GPU),
of the server (Tornado's StaticFileHandler, as Voilà serves its files) and Playwright's.

    nice .venv/bin/python benchmarks/request_cost.py [--rounds 4] [--chunks 100]
        [--out results/first_views/request_cost.jsonl]

The scripts are the first N chunks of Voilà's own bundle (2.5 MB for 100), each wrapped
in a function that is never called: parsed, not run. Why the page bundles
(``throne_serving.bundles``): a Voilà page made 85–141 such requests. Not a test: a
figure.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
from join_at_once import CHROMIUM_ARGS, cpu_by_kind, cpu_delta, free_port, load  # noqa: E402

SERVER = """
import sys, tornado.web, tornado.ioloop
app = tornado.web.Application([(r"/(.*)", tornado.web.StaticFileHandler, {"path": sys.argv[2]})])
app.listen(int(sys.argv[1]), "127.0.0.1")
tornado.ioloop.IOLoop.current().start()
"""


def write_pages(folder: Path, n: int) -> int:
    """``many.html`` (n scripts) and ``one.html`` (their concatenation); the bytes."""
    from throne_serving.bundles import voila_static

    static = voila_static()
    if static is None:
        raise SystemExit("Voilà's static files not found (JUPYTER_PATH?)")
    chunks = sorted(static.glob("*.voila.js"))[:n]
    (folder / "chunks").mkdir()
    bodies = []
    for i, chunk in enumerate(chunks):
        body = f"self.__c{i} = function () {{\n{chunk.read_text(encoding='utf-8')}\n}};\n"
        (folder / "chunks" / f"{i}.js").write_text(body, encoding="utf-8")
        bodies.append(body)
    (folder / "all.js").write_text("".join(bodies), encoding="utf-8")
    tags = "".join(f"<script src='chunks/{i}.js'></script>" for i in range(len(chunks)))
    done = "<div id=done>done</div></body></html>"
    (folder / "many.html").write_text(f"<html><body>{tags}{done}", encoding="utf-8")
    (folder / "one.html").write_text(f"<html><body><script src='all.js'></script>{done}")
    return len(chunks)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--chunks", type=int, default=100)
    parser.add_argument("--out", type=Path, default=ROOT / "results/first_views/request_cost.jsonl")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    command = " ".join(["benchmarks/request_cost.py", *sys.argv[1:]])
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        n = write_pages(Path(tmp), args.chunks)
        port = free_port()
        server = subprocess.Popen([sys.executable, "-c", SERVER, str(port), tmp])
        time.sleep(1.0)
        try:
            with sync_playwright() as p:
                b = p.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
                for r in range(args.rounds):
                    for name in ("many", "one") if r % 2 == 0 else ("one", "many"):
                        ctx = b.new_context()
                        page = ctx.new_page()
                        time.sleep(0.5)
                        before = load()
                        mine0, srv0 = cpu_by_kind(os.getpid()), cpu_by_kind(server.pid)
                        t0 = time.perf_counter()
                        page.goto(f"http://127.0.0.1:{port}/{name}.html")
                        page.locator("#done").wait_for()
                        seconds = time.perf_counter() - t0
                        time.sleep(0.3)
                        mine = cpu_delta(mine0, cpu_by_kind(os.getpid()))
                        srv = cpu_delta(srv0, cpu_by_kind(server.pid))
                        row = {
                            "command": command, "round": r, "page": name,
                            "requests": n if name == "many" else 1, "seconds": round(seconds, 3),
                            "chromium_cpu_s": round(sum(v for k, v in mine.items()
                                                        if k.startswith("chromium")), 2),
                            "server_cpu_s": round(sum(srv.values()), 2),
                            "playwright_cpu_s": mine.get("playwright", 0.0),
                            "by_process": {k: v for k, v in mine.items() if v},
                            "load": before,
                        }  # fmt: skip
                        print(json.dumps(row), flush=True)
                        rows.append(row)
                        ctx.close()
                b.close()
        finally:
            server.terminate()
            server.wait(10)
    with args.out.open("a", encoding="utf-8") as f:
        for row in rows:
            f.write(json.dumps(row) + "\n")
    for name in ("many", "one"):
        got = [r for r in rows if r["page"] == name]
        print(
            f"{name}: chromium {statistics.median(r['chromium_cpu_s'] for r in got):.2f} CPU-s,"
            f" server {statistics.median(r['server_cpu_s'] for r in got):.2f},"
            f" {statistics.median(r['seconds'] for r in got):.2f} s (medians of {len(got)})"
        )


if __name__ == "__main__":
    main()
