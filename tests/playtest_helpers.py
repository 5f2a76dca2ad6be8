"""What a playtest page sends to the browser, for the hidden-information tests
(tests/test_playtest_pages.py, tests/test_playtest_pin.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import ipywidgets as W
import pytest


def sent(
    root: W.Widget, canvas: Any, refresh: Callable[[], None], monkeypatch: pytest.MonkeyPatch
) -> list[Any]:
    """Everything a page sends: every custom message (the canvas' drawing commands) while
    ``refresh`` redraws it, then each widget's state under ``root`` (tree order, model ids
    blanked)."""
    out: list[Any] = []
    monkeypatch.setattr(
        W.Widget,
        "send",
        lambda self, content, buffers=None: out.append(
            (content, [bytes(b) for b in buffers or []])
        ),
    )
    canvas._canvas_manager._current_canvas = None
    refresh()

    def walk(w: Any) -> None:
        state = w.get_state()
        clean = {
            k: ("ref" if isinstance(v, str) and v.startswith("IPY_MODEL_") else v)
            for k, v in state.items()
            if k not in ("children", "layout", "style", "_view_count")
        }
        out.append((type(w).__name__, repr(sorted(clean.items(), key=lambda kv: kv[0]))))
        for child in getattr(w, "children", ()):
            walk(child)

    walk(root)
    return out
