"""The inspector of the UI shell: a fixed-size panel beside a board that shows one
thing in full (a unit, a card in hand, a button's card). Games fill it with their own
HTML (Throne & Phalanx: :mod:`throne_lib.games.throne.ui.inspect`)."""

from __future__ import annotations

import ipywidgets as W

PLACEHOLDER = (
    "<div style='color:#8a94a6'>把鼠标移到单位、手牌或按钮上（或点击它），这里显示完整卡牌。</div>"
)


class InspectorPanel(W.HTML):
    """A fixed-size panel that shows one thing in full (HTML)."""

    def __init__(self, width: int = 380, height: int = 230) -> None:
        super().__init__(
            PLACEHOLDER,
            layout=W.Layout(
                width=f"{width}px",
                height=f"{height}px",
                overflow="hidden auto",
                border="1px solid #ccd3dd",
                padding="4px 8px",
                margin="0 0 6px 0",
            ),
        )
        self.add_class("tp-inspector")

    def show(self, body: str) -> None:
        self.value = f"<div style='font-size:13px;line-height:1.45'>{body}</div>"
