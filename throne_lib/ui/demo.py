"""Public-demo settings for the dashboards: a friendly error panel instead of a
traceback (the traceback goes to the server log), a notice when the kernel
connection drops, and mouse moves coalesced in the browser.

Each dashboard's first cell calls :func:`install_error_panel`. Voilà's own
``show_tracebacks: false`` (``voila.json``) is the second line of defence.
"""

from __future__ import annotations

import html
import logging
import traceback
from types import TracebackType
from typing import Any

from throne_lib.kit.ui.preheat import server_log
from throne_lib.kit.ui.preheat import wait_for_visitor as wait_for_visitor  # the notebooks' name

LOG = logging.getLogger("throne.demo")

PANEL = """
<div class="tp-error" style="border:1px solid #e0b4b4;background:#fff6f6;color:#9f3a38;
 padding:12px 16px;border-radius:6px;font-family:'Noto Sans CJK SC',sans-serif;max-width:720px">
 <b>抱歉，这个页面出了点问题。</b> 请刷新页面重试；如果问题仍在，请把下面这行发给开发者。<br>
 <span style="color:#555">Sorry, something went wrong. Reload the page to try again.</span><br>
 <code style="color:#333">{what}</code>
</div>
"""

# Page helpers, run once per page by the browser (Voilà renders this output as HTML):
# 1. a banner when the kernel is gone: every 5 s the page asks the server for its kernel
#    (GET {baseUrl}api/kernels/{kernelId}); a failed request or a non-200 answer (the
#    server stopped, the network dropped, the kernel was culled) shows the banner;
# 2. mouse moves over the match canvas are coalesced before ipycanvas sends them to the
#    kernel: hover moves (no button pressed; the inspector follows them) at most every
#    150 ms, drag moves at most every 40 ms — a slow remote kernel (Binder) is not
#    flooded; mouse down/up carry their own coordinates, so nothing is lost;
# 3. the kernel stops when the page closes: Voilà's own page sends
#    POST voila/api/shutdown/{kernelId} on ``beforeunload`` with the ``_xsrf`` cookie's
#    value, but Voilà never sets that cookie, so the server refuses it (403) and the
#    kernel lives until the idle cull. The helpers set a random ``_xsrf`` cookie (the
#    double-submit token Tornado compares with the form field) when there is none, and
#    send the same request on ``pagehide`` too (a closed tab, a navigation, a phone);
# 4. on a Voilà page a view fits the window's height: when a play board (top bar,
#    prompt line, board, tray and hand) or a view marked by
#    ``kit.ui.shell.fit_to_window`` (a replay board, the tower map) would end below the
#    fold (1280×720), it is zoomed out (CSS ``zoom``, at least 0.6) so its main part
#    stays in view; ipycanvas reads a click's canvas pixel from the canvas' on-screen
#    box, so clicks still land where things were drawn;
# 5. names in the 战报 link to the inspector (``kit.ui.inspector``): a click on (or the
#    pointer entering) a ``.tp-ref`` writes its ``data-ref`` into the nearest hidden
#    ``.tp-inspect-bridge`` input up the page and fires its ``input`` event, which the
#    Text widget sends to the kernel; hover canvases marked ``tp-hover`` (the castle
#    table, the PIN board) have their moves coalesced like the play board's;
# 6. a card table grid (ipydatagrid, on Lumino's DataGrid) paints fast: Lumino draws each
#    cell into an off-screen buffer canvas and copies it to the screen with one
#    ``drawImage(buffer, …)`` per cell. Chromium's canvas keeps a snapshot of a source
#    canvas per ``drawImage`` and copies the whole buffer (1536×512 px) when the next cell
#    is drawn into it, so one paint of the cards editor's grid (≈250 cells) cost 1–4.6 s
#    on the loaded 2-core machine in headless Chromium — half the page's first view (issue
#    36, item 8). Inside a ``.lm-DataGrid`` such a copy (a canvas source, whole-pixel
#    rectangles of the same size) reads the cell's pixels (``getImageData``, no snapshot)
#    into a small scratch canvas and draws that instead: the same pixels composited the
#    same way (source-over, the target's transform), at ~1/30 of the cost.
#    ``window.__tpGridBlit`` counts the copies done so; ``window.__tpGridBlitOff = true``
#    (set before the page loads) keeps the browser's own ``drawImage`` — the browser test
#    compares the two pictures.
PAGE_HELPERS = r"""
<div id="tp-conn" style="display:none;position:fixed;top:0;left:0;right:0;z-index:1000;
 background:#9f3a38;color:#fff;padding:8px 16px;font-family:'Noto Sans CJK SC',sans-serif">
 与服务器的连接已断开（内核已停止或网络中断）：请刷新页面继续。
 · Connection to the server lost — reload the page.
</div>
<script>
(function () {
  if (window.__tpHelpers) { return; }
  window.__tpHelpers = true;
  let cfg = {};
  try { cfg = JSON.parse(document.getElementById("jupyter-config-data").textContent); }
  catch (e) { cfg = {}; }
  const base = cfg.baseUrl || "/";
  function lost() {
    const el = document.getElementById("tp-conn");
    if (el) { el.style.display = "block"; }
  }
  if (cfg.kernelId) {
    const url = base + "api/kernels/" + cfg.kernelId;
    const timer = setInterval(function () {
      fetch(url, { redirect: "manual", cache: "no-store" })
        .then(function (r) { if (r.status !== 200) { clearInterval(timer); lost(); } })
        .catch(function () { clearInterval(timer); lost(); });
    }, 5000);
  }
  if (!/(^|;\s*)_xsrf=/.test(document.cookie)) {
    const bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    const token = Array.from(bytes, function (b) { return b.toString(16).padStart(2, "0"); }).join("");
    document.cookie = "_xsrf=" + token + "; path=/; SameSite=Strict";
  }
  let stopped = false;
  function stopKernel() {
    if (stopped || !cfg.kernelId) { return; }
    stopped = true;
    const m = document.cookie.match(/(^|;\s*)_xsrf=([^;]*)/);
    const form = new FormData();
    form.append("_xsrf", m ? m[2] : "");
    navigator.sendBeacon(base + "voila/api/shutdown/" + cfg.kernelId, form);
  }
  window.addEventListener("pagehide", stopKernel);
  window.__tpStopKernel = stopKernel;
  function fitMatch() {
    // Voilà's page scrolls #rendered_cells; in JupyterLab (no such element) a notebook
    // panel scrolls and the views keep their size.
    const view = document.getElementById("rendered_cells");
    if (!view) { return; }
    const viewBox = view.getBoundingClientRect();
    const visible = function (e) { return e.getClientRects().length > 0; };
    document.querySelectorAll(".tp-match, .tp-fit").forEach(function (m) {
      if (!visible(m)) { return; }
      // What must be in view: the first visible .tp-fit-end inside (kit.ui.shell's
      // fit_to_window), for a play board its canvas (the hand is drawn at its bottom).
      let end = Array.from(m.querySelectorAll(".tp-fit-end")).find(visible);
      if (!end && m.classList.contains("tp-match")) { end = m.querySelector("canvas"); }
      const zoom = parseFloat(m.style.zoom) || 1;
      if (!end) { if (zoom !== 1) { m.style.zoom = ""; } return; }
      const box = m.getBoundingClientRect();
      const top = box.top - viewBox.top + view.scrollTop;  // from the top of the page
      const need = (end.getBoundingClientRect().bottom - box.top) / zoom;
      const fit = Math.max(0.6, Math.min(1, (view.clientHeight - top - 8) / need));
      if (Math.abs(fit - zoom) > 0.005) { m.style.zoom = fit < 1 ? String(fit) : ""; }
    });
  }
  let fitQueued = false;
  function queueFit() {
    if (fitQueued) { return; }
    fitQueued = true;
    requestAnimationFrame(function () { fitQueued = false; fitMatch(); });
  }
  window.addEventListener("resize", queueFit);
  const sizes = new ResizeObserver(queueFit);  // widgets render, panels open and close
  sizes.observe(document.body);
  const cells = document.getElementById("rendered_cells");
  if (cells) { sizes.observe(cells); if (cells.firstElementChild) { sizes.observe(cells.firstElementChild); } }
  window.__tpFitMatch = fitMatch;
  const gate = { forwarded: 0, dropped: 0 };
  window.__tpMoveGate = gate;
  let last = 0;
  document.addEventListener("mousemove", function (ev) {
    const t = ev.target;
    if (!(t instanceof HTMLCanvasElement) || !t.closest(".tp-match, .tp-hover")) { return; }
    const now = performance.now();
    if (now - last < (ev.buttons === 0 ? 150 : 40)) {
      ev.stopImmediatePropagation();
      gate.dropped += 1;
      return;
    }
    last = now;
    gate.forwarded += 1;
  }, true);
  let refSeq = 0;
  let lastRef = null;
  function openRef(ev) {
    const t = ev.target instanceof Element ? ev.target.closest(".tp-ref[data-ref]") : null;
    if (!t || (ev.type === "mouseover" && t === lastRef)) { return; }
    lastRef = t;
    let root = t.parentElement;
    let input = null;
    while (root && !(input = root.querySelector(".tp-inspect-bridge input"))) { root = root.parentElement; }
    if (!input) { return; }
    refSeq += 1;
    input.value = t.dataset.ref + "#" + refSeq;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }
  document.addEventListener("click", openRef);
  document.addEventListener("mouseover", openRef);
  const blit = { fast: 0, native: 0 };
  window.__tpGridBlit = blit;
  const drawImage = CanvasRenderingContext2D.prototype.drawImage;
  const inGrid = new WeakSet();
  let scratch = null;
  CanvasRenderingContext2D.prototype.drawImage = function (src, sx, sy, sw, sh, dx, dy, dw, dh) {
    if (arguments.length !== 9 || window.__tpGridBlitOff || !(src instanceof HTMLCanvasElement)
        || sw !== dw || sh !== dh || !Number.isInteger(sx) || !Number.isInteger(sy)
        || !Number.isInteger(sw) || !Number.isInteger(sh) || sw <= 0 || sh <= 0 || sx < 0
        || sy < 0 || sx + sw > src.width || sy + sh > src.height) {
      return drawImage.apply(this, arguments);
    }
    if (!inGrid.has(this)) {
      if (!(this.canvas instanceof HTMLCanvasElement && this.canvas.closest(".lm-DataGrid"))) {
        return drawImage.apply(this, arguments);
      }
      inGrid.add(this);
    }
    const from = src.getContext("2d");
    if (!from) { blit.native += 1; return drawImage.apply(this, arguments); }
    if (!scratch || scratch.width < sw || scratch.height < sh) {
      const canvas = document.createElement("canvas");
      canvas.width = Math.max(sw, scratch ? scratch.width : 0, 256);
      canvas.height = Math.max(sh, scratch ? scratch.height : 0, 64);
      scratch = canvas.getContext("2d");
    }
    scratch.putImageData(from.getImageData(sx, sy, sw, sh), 0, 0);
    blit.fast += 1;
    return drawImage.call(this, scratch.canvas, 0, 0, sw, sh, dx, dy, dw, dh);
  };
})();
</script>
"""


def _handler(
    shell: Any,
    etype: type[BaseException],
    value: BaseException,
    tb: TracebackType | None,
    tb_offset: int | None = None,
) -> None:
    """IPython custom exception handler: log the traceback, show the panel."""
    from IPython.display import HTML, display

    text = "".join(traceback.format_exception(etype, value, tb))
    LOG.error("dashboard cell failed:\n%s", text)
    server_log(text)  # the Voilà server's log, not the page
    display(HTML(PANEL.format(what=html.escape(f"{etype.__name__}: {value}"))))


def install_error_panel() -> None:
    """Show a friendly panel instead of a traceback for any failing cell, and install
    the page helpers (:data:`PAGE_HELPERS`)."""
    from IPython import get_ipython
    from IPython.display import HTML, display

    ip = get_ipython()
    if ip is None:
        return
    ip.set_custom_exc((Exception,), _handler)
    display(HTML(PAGE_HELPERS))


def install_page(notebook: str) -> None:
    """A dashboard's first cell: :func:`install_error_panel`, then the navigation line
    (its title and a link back to the home page, :func:`throne_lib.ui.home.nav_html`)."""
    from IPython.display import HTML, display

    from throne_lib.ui.home import nav_html

    install_error_panel()
    display(HTML(nav_html(notebook)))
