"""Where a click's round trip goes, hop by hop, on the floor page or the play page.

    .venv/bin/python benchmarks/ui_latency_hops.py [--page floor|play] [--clicks N]
        [--nagle] [--pause MS] [--dump FILE] [--analyse FILE]

Starts a Voilà server like ``bench_ui.py --browser`` (same voila.json, template and
preheated pool kernel) on a copy of the page's notebook with a first cell that records,
in the kernel, the wall-clock time (``time.time()``) of every comm message received
(before and after its handler) and of every message the kernel sends. The server's
kernel websocket connection is a probe subclass of voila.json's
(``throne_serving.KernelConnection``; ``--nagle``: jupyter_server's own, Nagle's
algorithm on) that records when each message arrives from the page and from the kernel
and when its frame is written. The page gets an init script that records the wall-clock
time (``performance.timeOrigin + performance.now()``) of the mouse events, every
websocket frame sent and received (with its ``msg_id``: the three sides are matched by
it), the status line's change and the next animation frame. Same machine, same clock:
the hops line up. Clicks follow each other back to back, as in bench_ui (``--pause``).

Prints, per hop, the median and p95 over the clicks (ms):

  pw -> mousedown          Playwright's click call until the page sees mousedown
  mousedown -> mouseup     the page's mouseup (the kernel acts on the release)
  mouseup -> ws send       ipycanvas' handler until its frame is on the websocket
  ws send -> kernel        browser -> jupyter_server -> ZMQ -> kernel handler entry
    page -> server         ... until the server's on_message
    server -> kernel       ... from there to the kernel's comm handler (ZMQ, ipykernel's
                           shell channel thread, the main thread's event loop)
  kernel handler           the comm handler (the click's own work, with the inspector's
                           update sent after the highlight)
  kernel: receipt -> hl send  until the status line's update is sent
  kernel send -> ws recv   the status line's update: kernel -> page
    kernel -> server       ipykernel's IOPub thread, ZMQ, until the server has it
    server relays          the server's handling and websocket write
    server -> page         TCP, Chromium's network service, until the page's onmessage
                           (Nagle + the browser's delayed ACK: 40 ms here, before the fix)
  ws recv -> DOM           the widget manager applies it (MutationObserver)
  DOM -> frame             the next animation frame after the change
  mousedown -> frame       bench_ui's "page's own clock"
  pw total                 bench_ui's Playwright figure
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ui import FLOOR_NOTEBOOK, ROOT, STATE, launch, play_setup, voila  # noqa: E402

# The kernel's probe: a first cell. Writes JSON lines to $TP_HOPS_LOG.
KERNEL_PROBE = r"""def _tp_install_probe():
    import json as _json, os as _os, time as _time
    from IPython import get_ipython

    path = _os.environ.get("TP_HOPS_LOG")
    kernel = getattr(get_ipython(), "kernel", None)
    if not path or kernel is None:
        return
    out = open(path, "a", buffering=1)
    handle = kernel.shell_handlers["comm_msg"]

    def comm_msg(stream, ident, msg):
        t = _time.time()
        data = msg["content"].get("data") or {}
        inner = data.get("content") if isinstance(data.get("content"), dict) else {}
        result = handle(stream, ident, msg)
        out.write(_json.dumps({"k": "krecv", "t": t, "end": _time.time(),
            "id": msg["header"]["msg_id"], "ev": inner.get("event") or data.get("method")}) + "\n")
        return result

    kernel.shell_handlers["comm_msg"] = comm_msg
    send = kernel.session.send

    def session_send(stream, msg_or_type, *args, **kwargs):
        t = _time.time()
        msg = send(stream, msg_or_type, *args, **kwargs)
        if msg is not None:
            content = msg.get("content") or {}
            state = ((content.get("data") or {}).get("state") or {}) if isinstance(content, dict) else {}
            out.write(_json.dumps({"k": "ksend", "t": t, "id": msg["header"]["msg_id"],
                "mt": msg["header"]["msg_type"], "hl": "data-hl" in str(state.get("value", ""))}) + "\n")
        return msg

    kernel.session.send = session_send

_tp_install_probe()
"""

# The server's probe: the kernel websocket connection class voila.json names (or, with
# --nagle, jupyter_server's own) recording when each message arrives from the page and
# from the kernel and when its frame is written. Written to a temporary module the
# server imports (--Voila.kernel_websocket_connection_class).
SERVER_PROBE = r"""import json, os, re, time

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

from throne_serving import KernelConnection

BASE = KernelConnection if os.environ.get("TP_HOPS_NAGLE") != "1" else ZMQChannelsWebsocketConnection
OUT = open(os.environ["TP_HOPS_SERVER_LOG"], "a", buffering=1)
MSG_ID = re.compile(rb'"msg_id":\s*"([^"]+)"')


def msg_id(frames):
    for frame in frames:
        found = MSG_ID.search(frame if isinstance(frame, bytes) else bytes(frame))
        if found:
            return found.group(1).decode()
    return None


class HopsConnection(BASE):
    def handle_incoming_message(self, message):
        t = time.time()
        result = super().handle_incoming_message(message)
        raw = message if isinstance(message, bytes) else message.encode()
        OUT.write(json.dumps({"k": "s_in", "t": t, "end": time.time(), "id": msg_id([raw])}) + "\n")
        return result

    def handle_outgoing_message(self, stream, outgoing_msg):
        t = time.time()
        result = super().handle_outgoing_message(stream, outgoing_msg)
        OUT.write(json.dumps({"k": "s_out", "t": t, "end": time.time(),
                              "id": msg_id(outgoing_msg)}) + "\n")
        return result
"""

PAGE_PROBE = r"""(() => {
  const now = () => performance.timeOrigin + performance.now();
  const log = [];
  window.__hops = log;
  const dec = new TextDecoder();
  const text = (d) => typeof d === "string" ? d
    : (d instanceof ArrayBuffer || ArrayBuffer.isView(d)) ? dec.decode(d) : "";
  const info = (s) => {
    const id = /"msg_id":\s*"([^"]+)"/.exec(s);
    const mt = /"msg_type":\s*"([^"]+)"/.exec(s);
    const ev = /"event":\s*"([^"]+)"/.exec(s);
    return { id: id && id[1], mt: mt && mt[1], ev: ev && ev[1], n: s.length };
  };
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    const t = now();
    const r = send.call(this, d);
    if (this.url.includes("/channels")) { log.push(Object.assign({ k: "ws_send", t }, info(text(d)))); }
    return r;
  };
  const desc = Object.getOwnPropertyDescriptor(WebSocket.prototype, "onmessage");
  Object.defineProperty(WebSocket.prototype, "onmessage", {
    configurable: true,
    get() { return desc.get.call(this); },
    set(fn) {
      const ws = this;
      desc.set.call(this, fn && function (e) {
        const t = now();
        const r = fn.call(this, e);
        if (ws.url.includes("/channels")) {
          log.push(Object.assign({ k: "ws_recv", t, created: performance.timeOrigin + e.timeStamp,
                                   done: now() }, info(text(e.data))));
        }
        return r;
      });
    },
  });
  for (const type of ["mousedown", "mouseup", "mousemove"]) {
    document.addEventListener(type, (e) => {
      if (e.target instanceof HTMLCanvasElement) {
        log.push({ k: type, t: now(), created: performance.timeOrigin + e.timeStamp });
      }
    }, true);
  }
  let hl = null;
  const read = () => { const e = document.querySelector(".tp-state"); return e ? e.dataset.hl : null; };
  new MutationObserver(() => {
    const v = read();
    if (v === hl) { return; }
    hl = v;
    const t = now();
    log.push({ k: "dom", t, hl: v });
    requestAnimationFrame(() => log.push({ k: "frame", t: now(), hl: v }));
  }).observe(document, { subtree: true, childList: true, attributes: true });
})();"""


def summarise(rows: dict[str, list[float]]) -> None:
    for name, values in rows.items():
        if not values:
            print(f"{name:<26} (no data)")
            continue
        ms = sorted(values)
        p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
        print(
            f"{name:<26} n={len(ms):3d}  median {statistics.median(ms):6.2f}  p95 {p95:6.2f}"
            f"  min {ms[0]:6.2f}  max {ms[-1]:6.2f}"
        )


def analyse(
    clicks: list[dict[str, Any]],
    page_log: list[dict[str, Any]],
    kernel_log: list[dict[str, Any]],
    server_log: list[dict[str, Any]],
) -> None:
    """Per click: the events between its Playwright start and end, hop by hop (ms)."""
    recv_by_id = {e["id"]: e for e in page_log if e["k"] == "ws_recv" and e.get("id")}
    krecv_by_id = {e["id"]: e for e in kernel_log if e["k"] == "krecv"}
    s_in = {e["id"]: e for e in server_log if e["k"] == "s_in"}
    s_out = {e["id"]: e for e in server_log if e["k"] == "s_out"}
    rows: dict[str, list[float]] = {k: [] for k in (
        "pw -> mousedown", "mousedown event age", "mousedown -> mouseup", "mouseup -> ws send",
        "ws send -> kernel", "  page -> server", "  server -> kernel", "kernel handler",
        "kernel: receipt -> hl send", "kernel send -> ws recv", "  kernel -> server",
        "  server relays", "  server -> page", "ws recv queued (event age)", "ws recv -> DOM",
        "DOM -> frame", "mousedown -> frame", "pw total", "frames in per click",
        "frames out per click")}  # fmt: skip
    for c in clicks:
        t0, t1 = c["t0"] * 1000, c["t1"] * 1000
        ev = [e for e in page_log if t0 - 1 <= e["t"] <= t1 + 50]
        down = next((e for e in ev if e["k"] == "mousedown"), None)
        up = next((e for e in ev if e["k"] == "mouseup"), None)
        if down is None or up is None:
            continue
        sent_up = next((e for e in ev if e["k"] == "ws_send" and e.get("ev") == "mouse_up"), None)
        dom = next((e for e in ev if e["k"] == "dom" and e["t"] >= up["t"]), None)
        frame = next((e for e in ev if e["k"] == "frame" and e["t"] >= up["t"]), None)
        rows["pw -> mousedown"].append(down["t"] - t0)
        rows["mousedown event age"].append(down["t"] - down["created"])
        rows["mousedown -> mouseup"].append(up["t"] - down["t"])
        rows["pw total"].append(t1 - t0)
        rows["frames in per click"].append(
            sum(1 for e in ev if e["k"] == "ws_recv" and e["t"] <= (frame or up)["t"])
        )
        rows["frames out per click"].append(sum(1 for e in ev if e["k"] == "ws_send"))
        if sent_up:
            rows["mouseup -> ws send"].append(sent_up["t"] - up["t"])
            k = krecv_by_id.get(sent_up["id"])
            si = s_in.get(sent_up["id"])
            if si:
                rows["  page -> server"].append(si["t"] * 1000 - sent_up["t"])
            if k and si:
                rows["  server -> kernel"].append((k["t"] - si["end"]) * 1000)
            if k:
                rows["ws send -> kernel"].append(k["t"] * 1000 - sent_up["t"])
                rows["kernel handler"].append((k["end"] - k["t"]) * 1000)
                sends = [s for s in kernel_log if s["k"] == "ksend" and s.get("hl")
                         and k["t"] <= s["t"] <= k["end"] + 0.5]  # fmt: skip
                if sends:
                    s = sends[0]
                    rows["kernel: receipt -> hl send"].append((s["t"] - k["t"]) * 1000)
                    r = recv_by_id.get(s["id"])
                    so = s_out.get(s["id"])
                    if so:
                        rows["  kernel -> server"].append((so["t"] - s["t"]) * 1000)
                        rows["  server relays"].append((so["end"] - so["t"]) * 1000)
                    if r and so:
                        rows["  server -> page"].append(r["t"] - so["end"] * 1000)
                    if r:
                        rows["kernel send -> ws recv"].append(r["t"] - s["t"] * 1000)
                        rows["ws recv queued (event age)"].append(r["t"] - r["created"])
                        if dom:
                            rows["ws recv -> DOM"].append(dom["t"] - r["t"])
        if dom and frame:
            rows["DOM -> frame"].append(frame["t"] - dom["t"])
        if frame:
            rows["mousedown -> frame"].append(frame["t"] - down["t"])
    summarise(rows)


def run(page_name: str, clicks: int, dump: Path | None, nagle: bool, pause: float) -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "kernel_hops.jsonl"
        server_log_path = Path(tmp) / "server_hops.jsonl"
        (Path(tmp) / "tp_hops_server.py").write_text(SERVER_PROBE, encoding="utf-8")
        os.environ["TP_HOPS_LOG"] = str(log_path)
        os.environ["TP_HOPS_SERVER_LOG"] = str(server_log_path)
        os.environ["TP_HOPS_NAGLE"] = "1" if nagle else "0"
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [tmp, os.environ.get("PYTHONPATH")])
        )
        probe_class = "--Voila.kernel_websocket_connection_class=tp_hops_server.HopsConnection"
        nb = json.loads((ROOT / "notebooks" / "play.ipynb").read_text(encoding="utf-8"))
        probe = {"cell_type": "code", "execution_count": None, "id": "probe", "metadata": {},
                 "outputs": [], "source": KERNEL_PROBE}  # fmt: skip
        if page_name == "floor":
            nb["cells"] = [{**probe, "id": "floor", "source": FLOOR_NOTEBOOK}]
        nb["cells"].insert(0, probe)
        notebook = Path(tmp) / "play.ipynb"  # voila.json preheats a "play.ipynb"
        notebook.write_text(json.dumps(nb), encoding="utf-8")
        with (
            voila(notebook, f"hops_{page_name}.log", [probe_class]) as port,
            sync_playwright() as pw,
        ):
            browser = launch(pw)
            page = browser.new_page(viewport={"width": 1440, "height": 900})
            page.add_init_script(PAGE_PROBE)
            page.goto(f"http://127.0.0.1:{port}/", timeout=180_000)
            if page_name == "floor":
                cells = [(100.0, 100.0), (300.0, 300.0)]
                page.wait_for_selector(".tp-match canvas", timeout=60_000)
            else:
                cells = play_setup(page)
            page.wait_for_timeout(1000)
            records = []
            for i in range(clicks):
                before = page.evaluate(STATE)["hl"]
                box = page.locator(".tp-match canvas").first.bounding_box()
                assert box is not None
                x, y = cells[i % len(cells)]
                t0 = time.time()
                page.mouse.click(box["x"] + x, box["y"] + y)
                t_click = time.time()
                page.wait_for_function(
                    f"(() => ({STATE}).hl !== {before!r})()", polling="raf", timeout=10_000
                )
                records.append({"t0": t0, "t_click": t_click, "t1": time.time()})
                if pause:
                    page.wait_for_timeout(pause)
            page.wait_for_timeout(300)
            page_log = page.evaluate("window.__hops")
            browser.close()
        kernel_log = [json.loads(line) for line in log_path.read_text().splitlines()]
        server_log = [json.loads(line) for line in server_log_path.read_text().splitlines()]
    if dump:
        dump.write_text(json.dumps({"clicks": records, "page": page_log, "kernel": kernel_log,
                                    "server": server_log}))  # fmt: skip
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    websocket = "Nagle on (jupyter_server's default)" if nagle else "TCP_NODELAY (voila.json)"
    print(f"{page_name}: {clicks} clicks, kernel websocket {websocket}; load average {load}")
    analyse(records, page_log, kernel_log, server_log)
    pw_click = [(r["t_click"] - r["t0"]) * 1000 for r in records]
    summarise({"pw mouse.click() call": pw_click})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--page", choices=["floor", "play"], default="floor")
    parser.add_argument("--clicks", type=int, default=40)
    parser.add_argument("--dump", type=Path, help="write the raw timestamps (JSON) here")
    parser.add_argument(
        "--nagle", action="store_true",
        help="jupyter_server's own websocket connection (Nagle's algorithm on), for comparison",
    )  # fmt: skip
    parser.add_argument(
        "--pause", type=float, default=0.0,
        help="ms between a click's highlight and the next click (0: back to back, as bench_ui)",
    )  # fmt: skip
    parser.add_argument("--analyse", type=Path, help="only analyse a --dump file")
    args = parser.parse_args()
    if args.analyse:
        d = json.loads(args.analyse.read_text())
        analyse(d["clicks"], d["page"], d["kernel"], d["server"])
        return
    run(args.page, args.clicks, args.dump, args.nagle, args.pause)


if __name__ == "__main__":
    main()
