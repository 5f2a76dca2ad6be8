"""A row of card faces on a canvas, a click picks one: the tower's rewards and shop.

:func:`row_ops` and :func:`row_at` are pure (tested without a browser);
:class:`CardRow` puts them on an ipycanvas ``Canvas`` of a fixed pixel size (its CSS
size is pinned to it, so a click lands where the card was drawn).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from throne_lib.games.throne.cards import Card
from throne_lib.games.throne.ui.gallery import Op, card_face_ops
from throne_lib.games.throne.ui.layout import Strip

FACE_W, FACE_H = 150, 210  # the reward's cards (the gallery's 132×184, a bit larger)
GAP = 14
CAPTION_H = 24  # room for a caption (a price) under each card
DIM_ALPHA = 0.4  # a card that cannot be taken now
FONT = "'Noto Sans CJK SC', 'Noto Sans SC', 'Microsoft YaHei', sans-serif"


def row_size(n: int, w: int = FACE_W, h: int = FACE_H, captions: bool = False) -> tuple[int, int]:
    """Canvas size (pixels) for ``n`` cards of w×h, with a caption strip if asked."""
    return GAP + max(n, 1) * (w + GAP), GAP + h + (CAPTION_H if captions else 0) + GAP // 2


def _strip(w: int, h: int = FACE_H) -> Strip:
    return Strip(GAP, GAP, w, h, GAP)


def card_xy(i: int, w: int = FACE_W) -> tuple[int, int]:
    """Top-left pixel of the i-th card."""
    return _strip(w).xy(i)


def row_at(x: float, y: float, n: int, w: int = FACE_W, h: int = FACE_H) -> int | None:
    """The index of the card under (x, y), or None (gaps and margins hit nothing)."""
    return _strip(w, h).at(x, y, n)


def row_ops(
    cards: Sequence[Card],
    enabled: Sequence[bool] | None = None,
    captions: Sequence[str] | None = None,
    w: int = FACE_W,
    h: int = FACE_H,
) -> list[Op]:
    """The operations that draw the row: each card's face (dimmed when not enabled)
    and its caption below it."""
    width, height = row_size(len(cards), w, h, captions is not None)
    ops: list[Op] = [("clear",), ("set", "fill_style", "#fbf7ef")]
    ops += [("fill_rect", 0, 0, width, height)]
    for i, card in enumerate(cards):
        x, y = card_xy(i, w)
        on = enabled is None or enabled[i]
        ops += [("set", "global_alpha", 1.0 if on else DIM_ALPHA)]
        ops += card_face_ops(card, x, y, w, h)
        if captions is not None:
            ops += [
                ("set", "font", f"bold 15px {FONT}"),
                ("set", "text_align", "center"),
                ("set", "text_baseline", "middle"),
                ("set", "fill_style", "#5d4a2a"),
                ("fill_text", captions[i], x + w / 2, y + h + CAPTION_H / 2 + 2),
            ]
    return ops + [("set", "global_alpha", 1.0)]


class CardRow:
    """Cards on a canvas; clicking an enabled card calls ``on_pick(index)``.

    ``widget`` is the canvas. It is drawn at once and again whenever a browser
    connects (a canvas keeps no picture of its own).
    """

    def __init__(
        self,
        cards: Sequence[Card],
        on_pick: Callable[[int], None],
        enabled: Sequence[bool] | None = None,
        captions: Sequence[str] | None = None,
        w: int = FACE_W,
        h: int = FACE_H,
        css_class: str = "tp-card-row",
    ) -> None:
        import ipywidgets as W
        from ipycanvas import Canvas

        self.cards = list(cards)
        self.enabled = list(enabled) if enabled is not None else [True] * len(self.cards)
        self.captions = list(captions) if captions is not None else None
        self.w, self.h = w, h
        self.on_pick = on_pick
        width, height = row_size(len(self.cards), w, h, captions is not None)
        self.widget = Canvas(
            width=width,
            height=height,
            layout=W.Layout(width=f"{width}px", height=f"{height}px", min_width=f"{width}px"),
        )
        self.widget.add_class(css_class)
        self.widget.on_client_ready(self.draw)
        self.widget.on_mouse_down(self.click)
        self.draw()

    def ops(self) -> list[Op]:
        return row_ops(self.cards, self.enabled, self.captions, self.w, self.h)

    def draw(self) -> None:
        from throne_lib.kit.ui.canvas import run_ops, safe_hold

        with safe_hold():
            run_ops(self.widget, self.ops())

    def click(self, x: float, y: float) -> None:
        i = row_at(x, y, len(self.cards), self.w, self.h)
        if i is not None and self.enabled[i]:
            self.on_pick(i)
