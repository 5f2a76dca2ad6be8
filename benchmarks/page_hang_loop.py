"""How often a page load never finishes: home page → one dashboard, again and again, each
on a fresh Voilà server with no preheated kernel (as
``tests/browser/test_voila_balance_suggest.py`` opens the 城堡之心 balance page).

    nice .venv/bin/python benchmarks/page_hang_loop.py [--loads 60] [--timeout 60]
        [--link castle_balance] [--ready 开始搜索] [--variant NAME=KEY=VALUE[,KEY=VALUE] ...]
        [--out results/serving/page_hang_loop.jsonl]

A load *hangs* when the page's ``--ready`` button is not visible ``--timeout`` seconds
after the click. Then the server's and kernels' Python stacks are written to its log
(``tests/browser/stackdump``), and the log's path and Voilà's 「Executing n of m」 line go
into the load's record, with whether a client of our own then got a ``kernel_info_reply``
and whether that freed the page. ``--variant`` runs the loads alternating between
environments given to the server and its kernels: ``--variant stock=THRONE_SHELL_WAKE=0
--variant waking=THRONE_SHELL_WAKE=1`` (throne_serving/shell.py off and on);
``PYTHONPATH=DIR`` puts DIR first (``pip install --no-deps --target DIR ipykernel==X``:
another ipykernel). Each record names the kernels' ipykernel version. Prints hangs per variant; appends one JSON line per load to ``--out``.
Not a test: a figure.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "browser"))
import conftest as C  # noqa: E402  (the browser tests' Voilà server and Chromium flags)
from playwright.sync_api import Browser, sync_playwright  # noqa: E402


def ipykernel_version(pythonpath: str) -> str:
    """The ipykernel a kernel started with this ``PYTHONPATH`` in front imports."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (pythonpath,) if p))
    code = "import ipykernel; print(ipykernel.__version__)"
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.strip()


def probe_kernel(log: str) -> str:
    """Ask the page's kernel (the last one the server started) for its kernel_info over a
    client of our own: whether it answers on the shell channel."""
    from jupyter_client import BlockingKernelClient

    folder = re.findall(r"Storing connection files in (\S+?)\.?$", log, re.M)
    kernels = re.findall(r"Kernel started: (\S+)", log)
    if not folder or not kernels:
        return "no kernel found in the log"
    client = BlockingKernelClient()
    client.load_connection_file(str(Path(folder[-1]) / f"kernel-{kernels[-1]}.json"))
    client.start_channels()
    try:
        t0 = time.perf_counter()
        client.kernel_info()
        try:
            reply = client.get_shell_msg(timeout=10)
        except Exception:  # noqa: BLE001 - queue.Empty: no answer
            return f"kernel {kernels[-1]}: no kernel_info_reply in 10 s"
        took = time.perf_counter() - t0
        return f"kernel {kernels[-1]}: {reply['msg_type']} after {took:.2f} s"
    finally:
        client.stop_channels()


def parse_variant(text: str) -> tuple[str, dict[str, str]]:
    """``NAME=KEY=VALUE[,KEY=VALUE]`` -> (NAME, {KEY: VALUE}); ``NAME=`` -> no change."""
    name, _, rest = text.partition("=")
    pairs = (item.partition("=") for item in rest.split(",") if item)
    return name, {key: value for key, _, value in pairs}


def one_load(browser: Browser, link: str, ready: str, timeout_s: float) -> dict[str, Any]:
    server = C._VoilaServer("notebooks", pools={})
    record: dict[str, Any] = {"log": str(server.log_path.relative_to(ROOT))}
    context = browser.new_context(viewport={"width": 1440, "height": 1000}, locale="zh-CN")
    try:
        server.wait_ready()
        page = context.new_page()
        page.goto(server.url + "voila/render/index.ipynb", timeout=timeout_s * 1000)
        page.locator(f"#tp-link-{link}").click(timeout=timeout_s * 1000)
        t0 = time.perf_counter()
        button = page.get_by_role("button", name=ready)
        try:
            button.wait_for(state="visible", timeout=timeout_s * 1000)
            record |= {"hung": False, "seconds": round(time.perf_counter() - t0, 2)}
        except Exception:  # noqa: BLE001 - Playwright's timeout: the page hung
            heading = page.locator("h2").all_inner_texts()
            server.dump_stacks()
            probe = probe_kernel(server.log_path.read_text(encoding="utf-8", errors="replace"))
            try:  # did a new client's request free what was stuck?
                button.wait_for(state="visible", timeout=15_000)
                after = "the page finished after the probe"
            except Exception:  # noqa: BLE001
                after = "still hung after the probe"
            record |= {"hung": True, "seconds": None, "page": heading, "probe": probe}
            record["after_probe"] = after
    finally:
        context.close()
        server.stop()
    return record


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--loads", type=int, default=60)
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--link", default="castle_balance", help="the home page's #tp-link-…")
    ap.add_argument("--ready", default="开始搜索", help="a button the loaded page shows")
    ap.add_argument("--variant", action="append", default=[], help="NAME=PYTHONPATH")
    ap.add_argument("--out", type=Path, default=ROOT / "results/serving/page_hang_loop.jsonl")
    args = ap.parse_args()
    variants = [parse_variant(v) for v in args.variant] or [("installed", {})]
    base = dict(os.environ)
    versions = {name: ipykernel_version(env.get("PYTHONPATH", "")) for name, env in variants}
    hung: dict[str, list[int]] = {name: [0, 0] for name, _ in variants}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw, args.out.open("a", encoding="utf-8") as out:
        browser = pw.chromium.launch(
            executable_path=str(C.CHROMIUM), args=C.CHROMIUM_ARGS, headless=True
        )
        for i in range(args.loads):
            name, env = variants[i % len(variants)]
            os.environ.clear()
            os.environ.update(base | env)
            if "PYTHONPATH" in env:
                os.environ["PYTHONPATH"] = os.pathsep.join(
                    p for p in (env["PYTHONPATH"], base.get("PYTHONPATH", "")) if p
                )
            load = os.getloadavg()[0]
            record = one_load(browser, args.link, args.ready, args.timeout)
            record |= {"load": i, "variant": name, "ipykernel": versions[name]}
            record |= {"link": args.link, "loadavg": round(load, 2)}
            record["time"] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime())
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            out.flush()
            hung[name][0] += record["hung"]
            hung[name][1] += 1
            print(i, name, "HUNG" if record["hung"] else record["seconds"], flush=True)
        browser.close()
    os.environ.clear()
    os.environ.update(base)
    for name, (h, n) in hung.items():
        print(f"{name} (ipykernel {versions[name]}): {h} of {n} loads hung")


if __name__ == "__main__":
    main()
