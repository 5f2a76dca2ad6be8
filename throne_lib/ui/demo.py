"""Public-demo settings for the dashboards: a friendly error panel instead of a
traceback (the traceback goes to the server log), and a notice when the kernel
connection drops.

Each dashboard's first cell calls :func:`install_error_panel`. Voilà's own
``show_tracebacks: false`` (``voila.json``) is the second line of defence.
"""

from __future__ import annotations

import html
import logging
import sys
import traceback
from types import TracebackType
from typing import Any

LOG = logging.getLogger("throne.demo")

PANEL = """
<div class="tp-error" style="border:1px solid #e0b4b4;background:#fff6f6;color:#9f3a38;
 padding:12px 16px;border-radius:6px;font-family:'Noto Sans CJK SC',sans-serif;max-width:720px">
 <b>抱歉，这个页面出了点问题。</b> 请刷新页面重试；如果问题仍在，请把下面这行发给开发者。<br>
 <span style="color:#555">Sorry, something went wrong. Reload the page to try again.</span><br>
 <code style="color:#333">{what}</code>
</div>
"""

# Shown by the browser itself when the kernel's websocket closes (Voilà keeps the
# page but widgets stop answering): a fixed banner, hidden until then.
CONNECTION_WATCH = """
<div id="tp-conn" style="display:none;position:fixed;top:0;left:0;right:0;z-index:1000;
 background:#9f3a38;color:#fff;padding:8px 16px;font-family:'Noto Sans CJK SC',sans-serif">
 与服务器的连接已断开（内核已停止或网络中断）：请刷新页面继续。
 · Connection to the server lost — reload the page.
</div>
<script>
(function () {
  if (window.__tpConnWatch) { return; }
  window.__tpConnWatch = true;
  const Native = window.WebSocket;
  function Watched(url, protocols) {
    const ws = protocols === undefined ? new Native(url) : new Native(url, protocols);
    if (String(url).indexOf("/channels") >= 0) {
      ws.addEventListener("close", function () {
        const el = document.getElementById("tp-conn");
        if (el) { el.style.display = "block"; }
      });
    }
    return ws;
  }
  Watched.prototype = Native.prototype;
  Object.assign(Watched, Native);
  window.WebSocket = Watched;
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
    real_stderr = sys.__stderr__  # the kernel's own stderr: the Voilà server log
    if real_stderr is not None:
        real_stderr.write(text)
        real_stderr.flush()
    display(HTML(PANEL.format(what=html.escape(f"{etype.__name__}: {value}"))))


def install_error_panel() -> None:
    """Show a friendly panel instead of a traceback for any failing cell."""
    from IPython import get_ipython
    from IPython.display import HTML, display

    ip = get_ipython()
    if ip is None:
        return
    ip.set_custom_exc((Exception,), _handler)
    display(HTML(CONNECTION_WATCH))
