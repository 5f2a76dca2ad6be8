"""The inspector of the UI shell: a fixed-size panel beside a board that shows one
thing in full (a unit, a card in hand, a seat, a city). Games fill it with their own
HTML (Throne & Phalanx: :mod:`throne_lib.games.throne.ui.inspect`; 城堡之心 and 城池战:
:mod:`throne_lib.games.castle.ui.inspect`; PIN: :mod:`throne_lib.games.pin.ui.inspect`).

Names in the 战报 link to it: :func:`link_refs` wraps each known name in a
``<span class="tp-ref" data-ref="…">``; the page helpers (``throne_lib.ui.demo``) write
the ``data-ref`` of a name the visitor clicks or points at into the hidden
:class:`InspectBridge` of the same view, whose ``on_ref`` callbacks show it.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Mapping

import ipywidgets as W

PLACEHOLDER = (
    "<div style='color:#8a94a6'>把鼠标移到单位、手牌或按钮上（或点击它），这里显示完整卡牌。</div>"
)
REF_CLASS = "tp-ref"
BRIDGE_CLASS = "tp-inspect-bridge"


def panel_layout(width: int, height: int, **more: str) -> W.Layout:
    """The look of the shell's side panels (the inspector, the 战报): a fixed size, a thin
    border, scrolling down when the content is taller."""
    return W.Layout(
        width=f"{width}px",
        height=f"{height}px",
        overflow="hidden auto",
        border="1px solid #ccd3dd",
        padding="4px 8px",
        **more,
    )


class InspectorPanel(W.HTML):
    """A fixed-size panel that shows one thing in full (HTML)."""

    def __init__(self, width: int = 380, height: int = 230) -> None:
        super().__init__(PLACEHOLDER, layout=panel_layout(width, height, margin="0 0 6px 0"))
        self.add_class("tp-inspector")

    def show(self, body: str) -> None:
        self.value = f"<div style='font-size:13px;line-height:1.45'>{body}</div>"


class InspectBridge(W.Text):
    """A hidden input: the page helpers write ``<ref>#<n>`` into it when a ``tp-ref``
    name of the same view is clicked or pointed at; ``on_ref`` callbacks get ``<ref>``."""

    def __init__(self) -> None:
        super().__init__(value="", layout=W.Layout(display="none"))
        self.add_class(BRIDGE_CLASS)
        self._callbacks: list[Callable[[str], None]] = []
        self._sent = 0
        self.observe(self._changed, names="value")

    def on_ref(self, callback: Callable[[str], None]) -> None:
        self._callbacks.append(callback)

    def send(self, ref: str) -> None:
        """What the page does (and what a test without a browser calls)."""
        self._sent += 1
        self.value = f"{ref}#k{self._sent}"

    def _changed(self, change: Mapping[str, object]) -> None:
        ref = str(change["new"]).rsplit("#", 1)[0]
        if ref:
            for callback in self._callbacks:
                callback(ref)


def ref_span(ref: str, text: str) -> str:
    """``text`` (escaped) as a name that opens ``ref`` in the inspector."""
    return (
        f'<span class="{REF_CLASS}" data-ref="{html.escape(ref)}" '
        f'style="text-decoration:underline dotted #8a94a6;cursor:pointer">'
        f"{html.escape(text)}</span>"
    )


def link_refs(text: str, refs: Mapping[str, str]) -> str:
    """``text`` as HTML with every name of ``refs`` (name -> ref) a :func:`ref_span`;
    the longest name wins where names overlap (「魔导装甲」 before 「魔导」)."""
    names = sorted((n for n in refs if n), key=len, reverse=True)
    if not names:
        return html.escape(text)
    pattern = re.compile("|".join(re.escape(n) for n in names))
    out, last = [], 0
    for hit in pattern.finditer(text):
        out.append(html.escape(text[last : hit.start()]))
        out.append(ref_span(refs[hit.group(0)], hit.group(0)))
        last = hit.end()
    out.append(html.escape(text[last:]))
    return "".join(out)


def row(label: str, value: str) -> str:
    """One labelled figure of an inspector page (the value escaped)."""
    return f"<span style='color:#5d6778'>{html.escape(label)}</span> <b>{html.escape(value)}</b>"


def title(name: str, sub: str = "") -> str:
    """The head of an inspector page: a name and a grey subtitle."""
    tail = (
        f"<span style='font-size:12px;color:#5d6778;font-weight:normal'>　{html.escape(sub)}</span>"
        if sub
        else ""
    )
    return f"<div style='font-size:16px;font-weight:bold'>{html.escape(name)}{tail}</div>"


def para(text: str) -> str:
    """A paragraph of card text (escaped)."""
    return f"<div style='margin-top:3px'>{html.escape(text)}</div>" if text else ""
