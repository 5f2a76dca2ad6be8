"""The kit's dashboard shell (issue 13): the pieces every game's dashboard is built
from, driven without a browser."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from throne_lib.kit.ui.ai import AiTurns
from throne_lib.kit.ui.canvas import run_ops
from throne_lib.kit.ui.shell import (
    FIT_CLASS,
    FIT_END_CLASS,
    LogPanel,
    ResultPanel,
    StatusLine,
    fit_to_window,
    log_html,
)
from throne_lib.kit.ui.stepper import Stepper


class Counter:
    """A match whose AI seat acts ``left`` more times."""

    def __init__(self, left: int) -> None:
        self.left = left
        self.steps = 0
        self.redraws = 0

    def to_move(self) -> bool:
        return self.left > 0

    def step(self) -> None:
        self.left -= 1
        self.steps += 1

    def after(self) -> None:
        self.redraws += 1


def test_ai_turns_sync_plays_everything_at_once_and_manual_nothing() -> None:
    c = Counter(3)
    AiTurns(c.to_move, c.step, c.after, mode="manual").start()
    assert c.steps == 0
    AiTurns(c.to_move, c.step, c.after, mode="sync").start()
    assert (c.steps, c.left, c.redraws) == (3, 0, 1)


def test_ai_turns_async_waits_the_tempo_and_thinks_off_the_loop() -> None:
    c = Counter(3)
    chosen: list[object] = []

    def step() -> None:
        chosen.append(ai.chosen)
        c.step()

    ai = AiTurns(c.to_move, step, c.after, delay=lambda: 0.01, think=lambda: c.left * 10)

    async def run() -> None:
        ai.start()
        assert ai.running
        assert ai.task is not None
        await ai.task

    asyncio.run(run())
    assert c.steps == 3 and chosen == [30, 20, 10]  # each step read what think() chose
    assert c.redraws == 4  # after each action, and once when done


def test_ai_turns_gate_stops_and_errors_are_shown_not_raised() -> None:
    c = Counter(5)

    async def gate() -> bool:
        return c.steps < 2

    asyncio.run(AiTurns(c.to_move, c.step, gate=gate).run())
    assert c.steps == 2
    shown: list[Exception] = []

    def boom() -> None:
        raise RuntimeError("boom")

    asyncio.run(AiTurns(c.to_move, boom, on_error=shown.append).run())
    assert [str(e) for e in shown] == ["boom"]
    with pytest.raises(RuntimeError):
        asyncio.run(AiTurns(c.to_move, boom).run())


def test_ai_turns_plays_a_turn_that_began_while_it_was_finishing() -> None:
    """R-AI-3: the human may end their turn while the AI task awaits ``finish()`` (its
    last redraw); ``start()`` then sees the task still running, so the task itself must
    play the AI's new turn, not leave the AI seat to act forever."""
    c = Counter(2)
    finished = 0

    async def finish() -> None:
        nonlocal finished
        finished += 1
        await asyncio.sleep(0.01)
        if finished == 1:  # the human's turn, ended meanwhile: the AI is to act again
            c.left = 3
            ai.start()  # what the page does after the human's action: a no-op now

    ai = AiTurns(c.to_move, c.step, c.after, think=lambda: None, finish=finish)

    async def run() -> None:
        ai.start()
        assert ai.task is not None
        await ai.task

    asyncio.run(run())
    assert (c.steps, c.left, finished) == (5, 0, 2)


def test_stepper_moves_within_bounds_and_jumps_to_a_round() -> None:
    seen: list[int] = []
    s = Stepper(5, seen.append, rounds=[0, 1, 1, 2, 3, 3])
    s.buttons["末 »"].click()
    s.buttons["下 ▶"].click()  # already last: stays
    s.buttons["◀ 上"].click()
    s.go(-4)
    s.jump_to_round(3)
    s.jump_to_round(9)  # no such round: stays
    assert seen == [5, 4, 0, 4] and s.value == 4
    assert not hasattr(Stepper(2, seen.append), "round_box")  # no rounds, no jump box


def test_log_html_colours_lines_by_seat_and_escapes_text() -> None:
    out = log_html([("第 1 回合", [(0, "a<b"), (1, "c"), (None, "d")])], ("#111", "#222"))
    assert "a&lt;b" in out and "第 1 回合" in out
    assert out.index("#111") < out.index("#222") < out.index("#333")
    plain = log_html([(None, [(None, "x")])])
    assert "<div>x</div>" in plain and "border-left" not in plain
    panel = LogPanel(css="my-log")
    panel.show_lines(["new", "old"])
    assert panel.html.value.index("new") < panel.html.value.index("old")
    assert "my-log" in panel.html._dom_classes


def test_status_line_carries_the_state_and_result_panel_shows_and_hides() -> None:
    status = StatusLine("g-status", "g-state")
    status.show("轮到你 <", {"seat": 1, "hl": 'a"b'}, error=True)
    assert 'class="g-state" data-seat="1" data-hl="a&quot;b"' in status.value
    assert "轮到你 &lt;" in status.value and "#b03a2e" in status.value
    result = ResultPanel("g-result")
    assert not result.shown
    result.show("<b>胜利</b>")
    assert result.shown and result.html.value == "<b>胜利</b>"
    result.hide()
    assert not result.shown


def test_run_ops_sets_attributes_and_calls_methods() -> None:
    class Canvas:
        fill_style = ""

        def __init__(self) -> None:
            self.calls: list[tuple[object, ...]] = []

        def fill_rect(self, *args: object) -> None:
            self.calls.append(args)

    c = Canvas()
    run_ops(c, [("set", "fill_style", "#fff"), ("fill_rect", 1, 2, 3, 4)])
    assert c.fill_style == "#fff" and c.calls == [(1, 2, 3, 4)]


def test_run_ops_on_ipycanvas_sends_each_set_once_per_batch() -> None:
    """On a real ipycanvas Canvas a set op becomes ipycanvas' own "set" command (the
    Python trait is not assigned: issue 17's click speed), and a set that repeats the
    value the attribute already holds in this batch is not sent; the browser gets the
    same drawing as with plain attribute assignments."""
    from ipycanvas import Canvas, hold_canvas
    from ipycanvas import canvas as cv

    ops = [
        ("clear",),
        ("set", "fill_style", "#ff0000"),
        ("fill_rect", 0, 0, 4, 4),
        ("set", "fill_style", "#ff0000"),  # already red: dropped
        ("fill_rect", 4, 0, 4, 4),
        ("set", "fill_style", "#0000ff"),
        ("fill_rect", 8, 0, 4, 4),
        ("clear",),
        ("set", "fill_style", "#0000ff"),  # after a clear: sent again
        ("fill_rect", 8, 0, 4, 4),
    ]

    def commands(replay: Callable[[Canvas], None]) -> list[object]:
        canvas = Canvas(width=16, height=16)
        with hold_canvas():
            replay(canvas)
            sent = list(cv._CANVAS_MANAGER._commands_cache)
        return sent[1:]  # after the switch to this canvas

    def plain(canvas: Canvas) -> None:
        for op in ops:
            if op[0] == "set":
                setattr(canvas, str(op[1]), op[2])
            else:
                getattr(canvas, str(op[0]))(*op[1:])

    fast = commands(lambda canvas: run_ops(canvas, ops))
    slow = commands(plain)
    set_code = cv.COMMANDS["set"]
    assert [c for c in slow if c != [set_code, [Canvas.ATTRS["fill_style"], "#ff0000"]]] == [
        c for c in fast if c != [set_code, [Canvas.ATTRS["fill_style"], "#ff0000"]]
    ]
    reds = [c for c in fast if c == [set_code, [Canvas.ATTRS["fill_style"], "#ff0000"]]]
    assert len(reds) == 1 and len(fast) == len(slow) - 1


def test_fit_to_window_marks_the_view_and_its_end_for_the_page_helpers() -> None:
    """The page helpers (throne_lib.ui.demo) zoom what fit_to_window marks (issue 17,
    1280×720; tests/browser/test_fit_window.py checks the zoom in Chromium)."""
    import ipywidgets as W

    from throne_lib.ui.demo import PAGE_HELPERS

    end = W.HTML("board")
    view = W.VBox([W.HTML("controls"), end])
    fit_to_window(view, end)
    assert FIT_CLASS in view._dom_classes and FIT_END_CLASS not in view._dom_classes
    assert FIT_END_CLASS in end._dom_classes
    assert f".{FIT_CLASS}" in PAGE_HELPERS and f".{FIT_END_CLASS}" in PAGE_HELPERS


def test_link_refs_wraps_known_names_longest_first_and_escapes() -> None:
    from throne_lib.kit.ui.inspector import link_refs

    out = link_refs("魔导装甲<攻击>魔导", {"魔导": "card:a", "魔导装甲": "card:b"})
    assert out.count('class="tp-ref"') == 2
    assert 'data-ref="card:b" ' in out and out.index("card:b") < out.index("card:a")
    assert "&lt;攻击&gt;" in out
    assert link_refs("x<y", {}) == "x&lt;y"
    assert 'data-ref="seat:1"' in log_html([(None, [(0, "唐纳 攻击")])], refs={"唐纳": "seat:1"})


def test_inspect_bridge_calls_back_with_the_ref_each_time() -> None:
    from throne_lib.kit.ui.inspector import InspectBridge

    bridge = InspectBridge()
    got: list[str] = []
    bridge.on_ref(got.append)
    bridge.send("card:a")
    bridge.send("card:a")  # the same name twice opens it twice
    bridge.value = "seat:2#17"  # what the page helpers write
    assert got == ["card:a", "card:a", "seat:2"]
    assert "tp-inspect-bridge" in bridge._dom_classes and bridge.layout.display == "none"
