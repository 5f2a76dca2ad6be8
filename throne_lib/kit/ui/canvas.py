"""Drawing on ipycanvas: a renderer returns draw *ops* (plain tuples, testable without a
browser) and :func:`run_ops` replays them on a canvas inside :func:`safe_hold`. Importing
this module loads no UI library (pure renderers may use :func:`run_ops`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

Op = tuple[object, ...]  # ("set", attribute, value) or (method, *args)


_UNSET = object()


def run_ops(canvas: Any, ops: Sequence[Op]) -> None:
    """Replay draw ops on an ipycanvas Canvas.

    A ``set`` op goes to the browser as ipycanvas' own "set" command, without the
    Python-side trait assignment ipycanvas does first (validation and change
    notification: 10 ms of a 26 ms click on a crowded board, for values nobody reads
    back), and not at all when the same attribute already holds that value earlier in
    this batch (the browser's context keeps it; ``restore`` and ``clear`` forget what
    is known).
    Anything else (a test's recording canvas, a widget value) takes the plain path.
    """
    manager: Any = getattr(canvas, "_canvas_manager", None)
    attrs: Any = getattr(canvas, "ATTRS", None)
    if manager is None or not isinstance(attrs, dict):
        attrs = {}  # not an ipycanvas Canvas: every set takes the plain path
    set_code = _set_command()
    known: dict[str, object] = {}
    for op in ops:
        if op[0] == "set":
            name, value = str(op[1]), op[2]
            if set_code is not None and name in attrs and isinstance(value, str | int | float):
                if known.get(name, _UNSET) == value:
                    continue
                known[name] = value
                manager.send_command(canvas, [set_code, [attrs[name], value]])
            else:
                setattr(canvas, name, value)
        else:
            if op[0] in ("restore", "clear"):
                known.clear()
            getattr(canvas, str(op[0]))(*op[1:])


def _set_command() -> int | None:
    try:
        from ipycanvas.canvas import COMMANDS
    except ImportError:
        return None
    code = COMMANDS.get("set")
    return code if isinstance(code, int) else None


@contextlib.contextmanager
def safe_hold() -> Iterator[None]:
    """``hold_canvas()`` that an exception cannot leave open (ipycanvas' own
    context manager skips its cleanup when the body raises), and whose batch names its
    canvas first.

    ipycanvas sends "switch canvas" only when the target differs from the last one it
    sent. A browser's canvas manager that missed that switch (created after the kernel
    drew, as on a page built before its browser connected) runs the next batch on no
    canvas, and that error stops its command queue for the rest of the page's life
    (ipycanvas issue #322): every later draw, the redraw on ``client_ready`` included,
    is dropped and the canvas stays blank. A batch that starts with its switch cannot
    depend on an earlier message having arrived."""
    from ipycanvas import canvas as _canvas_module
    from ipycanvas import hold_canvas

    manager = _canvas_module._CANVAS_MANAGER
    before = manager._caching
    if not before:  # the outermost batch: its first draw sends the switch
        manager._current_canvas = None
    try:
        with hold_canvas():
            yield
    finally:
        if manager._caching != before:
            manager._commands_cache = []
            manager._buffers_cache = []
            manager._caching = before
