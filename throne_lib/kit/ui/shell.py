"""The frame of a play dashboard, the same for every game: a top bar (the match at a
glance + the game's buttons), a result panel (hidden until the match ends), the status
line (the prompt, a refusal, the machine-readable state for browser tests) and the body:
the game's board next to a side column ending in the 战报 (battle log).

A game fills the pieces with its own text and brings its own board widget and action
panel; the pieces only lay out and format. CSS classes are given by the game (``tp-…``,
``pin-…``) so its browser tests keep finding them.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence

import ipywidgets as W

from throne_lib.kit.ui.inspector import link_refs, panel_layout

# One turn of the 战报: its heading (or None) and its lines as (seat or None, text).
LogBlock = tuple[str | None, Sequence[tuple[int | None, str]]]
NEUTRAL = "#333"


# The page helpers (``throne_lib.ui.demo``) zoom a view with FIT_CLASS out (CSS ``zoom``,
# not below 0.6) until its first visible FIT_END_CLASS element ends above the fold.
FIT_CLASS = "tp-fit"
FIT_END_CLASS = "tp-fit-end"


def fit_to_window(view: W.DOMWidget, end: W.DOMWidget) -> None:
    """Keep ``view`` down to ``end`` (its board, its main chart) in the window without
    scrolling: the page helpers every dashboard installs zoom ``view`` out when ``end``
    would end below the fold (1280×720), and back to 1 when it fits. A view without a
    visible ``end`` (another screen of the page is shown) is not zoomed."""
    view.add_class(FIT_CLASS)
    end.add_class(FIT_END_CLASS)


def data_attrs(data: Mapping[str, object]) -> str:
    """``data-KEY="value"`` attributes (escaped) for the state a browser test reads."""
    return " ".join(f'data-{k}="{html.escape(str(v))}"' for k, v in data.items())


def log_html(
    blocks: Sequence[LogBlock],
    colours: Sequence[str] = (),
    font_size: int = 13,
    heading_class: str = "tp-log-turn",
    refs: Mapping[str, str] | None = None,
) -> str:
    """The 战报 as HTML, blocks in the order given (a game passes the newest first).
    With seat ``colours`` every line carries its seat's colour bar (a line of no seat or
    an unknown one the neutral bar); without, lines are plain. With ``refs`` (name ->
    inspector ref) every known name links to the inspector (:func:`link_refs`)."""
    names = refs or {}
    out = []
    for heading, lines in blocks:
        if heading is not None:
            out.append(
                f'<div class="{heading_class}" style="color:#5d6778;margin-top:6px;'
                f'font-weight:bold">{html.escape(heading)}</div>'
            )
        for seat, line in lines:
            if colours:
                colour = colours[seat] if seat is not None and 0 <= seat < len(colours) else NEUTRAL
                out.append(
                    f'<div style="border-left:3px solid {colour};padding-left:5px">'
                    f"{link_refs(line, names)}</div>"
                )
            else:
                out.append(f"<div>{link_refs(line, names)}</div>")
    return f'<div style="font-size:{font_size}px;line-height:1.5">{"".join(out)}</div>'


class LogPanel(W.VBox):
    """The 战报: a title over a scrolling box. ``html`` holds the entries."""

    def __init__(
        self,
        width: int = 380,
        height: int = 400,
        title: str = "<b>战报</b>（最新回合在上）",
        css: str = "tp-log",
        colours: Sequence[str] = (),
    ) -> None:
        self.colours = tuple(colours)
        self.html = W.HTML()
        self.html.add_class(css)
        self.title = W.HTML(title)
        self.box = W.Box([self.html], layout=panel_layout(width, height))
        super().__init__([self.title, self.box])

    def show(self, blocks: Sequence[LogBlock], refs: Mapping[str, str] | None = None) -> None:
        """Show ``blocks`` (newest first); names in ``refs`` link to the inspector."""
        self.html.value = log_html(blocks, self.colours, refs=refs)

    def show_lines(self, lines: Sequence[str], refs: Mapping[str, str] | None = None) -> None:
        """Show plain lines (newest first), no headings or seats."""
        self.show([(None, [(None, line) for line in lines])], refs)


class StatusLine(W.HTML):
    """The prompt line above the board. Its state ``div`` (class ``state_class``) carries
    ``data-…`` attributes for browser tests; a refusal shows in red; ``extra`` is HTML
    under the prompt (e.g. what the AI just did)."""

    def __init__(self, css: str, state_class: str, width: int | None = None, height: int = 52):
        layout = (
            W.Layout(width=f"{width}px", height=f"{height}px", overflow="hidden")
            if width is not None
            else W.Layout()
        )
        super().__init__(layout=layout)
        self.state_class = state_class
        self.add_class(css)

    def show(
        self,
        text: str,
        data: Mapping[str, object],
        error: bool = False,
        tone: tuple[str, str] | None = None,
        extra: str = "",
    ) -> None:
        """``tone``: (background, bar colour) instead of the default yellow (red on an
        error), e.g. the other seat's colour while it plays; an error's text stays red."""
        colour = "#b03a2e" if error else "#1b1b1b"
        bg, border = tone or (("#fdecea", "#b03a2e") if error else ("#fff8e1", "#c9a100"))
        self.value = (
            f'<div style="background:{bg};border-left:5px solid {border};padding:3px 10px">'
            f'<div class="{self.state_class}" {data_attrs(data)} style="color:{colour};'
            f'font-size:15px;font-weight:bold">{html.escape(text)}</div>{extra}</div>'
        )


class ResultPanel(W.VBox):
    """The end of a match: a gold-framed box with the result (``html``) and buttons
    (e.g. 再来一局), hidden until :meth:`show`."""

    def __init__(self, css: str = "tp-result", buttons: Sequence[W.Widget] = ()) -> None:
        self.html = W.HTML()
        self.html.add_class(css)
        self.buttons = W.HBox(list(buttons))
        super().__init__(
            [self.html, self.buttons],
            layout=W.Layout(
                display="none", border="2px solid #c9a100", padding="8px", margin="8px 0"
            ),
        )

    def show(self, body: str) -> None:
        self.html.value = body
        self.layout.display = "flex"

    def hide(self) -> None:
        self.layout.display = "none"

    @property
    def shown(self) -> bool:
        return str(self.layout.display) != "none"


class TopBar(W.HBox):
    """The match at a glance (``info``, HTML) and the game's controls next to it."""

    def __init__(self, controls: Sequence[W.Widget] = (), info_width: int = 430) -> None:
        self.info = W.HTML(layout=W.Layout(min_width=f"{info_width}px", margin="0 12px 0 0"))
        self.controls = W.HBox(
            list(controls), layout=W.Layout(align_items="center", flex_flow="row wrap")
        )
        super().__init__(
            [self.info, self.controls],
            layout=W.Layout(margin="0 0 4px 0", align_items="center", flex_flow="row wrap"),
        )


def frame(
    topbar: W.Widget,
    result: W.Widget,
    status: W.Widget,
    board: W.Widget,
    side: Sequence[W.Widget],
) -> list[W.Widget]:
    """The children of a play dashboard: top bar, result, status line, then the board
    with the side column (action panel, inspector, 战报 …) at its right."""
    column = W.VBox(list(side))
    column.layout.margin = "0 0 0 12px"
    return [topbar, result, status, W.HBox([board, column])]
