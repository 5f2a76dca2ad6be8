"""Drawing on ipycanvas: a renderer returns draw *ops* (plain tuples, testable without a
browser) and :func:`run_ops` replays them on a canvas inside :func:`safe_hold`. Importing
this module loads no UI library (pure renderers may use :func:`run_ops`)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

Op = tuple[object, ...]  # ("set", attribute, value) or (method, *args)


def run_ops(canvas: Any, ops: Sequence[Op]) -> None:
    """Replay draw ops on an ipycanvas Canvas."""
    for op in ops:
        if op[0] == "set":
            setattr(canvas, str(op[1]), op[2])
        else:
            getattr(canvas, str(op[0]))(*op[1:])


@contextlib.contextmanager
def safe_hold() -> Iterator[None]:
    """``hold_canvas()`` that an exception cannot leave open (ipycanvas' own
    context manager skips its cleanup when the body raises)."""
    from ipycanvas import canvas as _canvas_module
    from ipycanvas import hold_canvas

    manager = _canvas_module._CANVAS_MANAGER
    before = manager._caching
    try:
        with hold_canvas():
            yield
    finally:
        if manager._caching != before:
            manager._commands_cache = []
            manager._buffers_cache = []
            manager._caching = before
