"""Helpers of the two-seat playtest tests (docs/playtests.md), one module for all:

- what a playtest page sends to the browser, for the hidden-information tests
  (``sent``, ``sends_the_same``: tests/test_playtest_pages.py, test_playtest_pin.py,
  test_playtest_throne.py, test_playtest_cities.py);
- the pages without a browser (tests/test_playtest_throne.py, test_playtest_pin.py):
  a playtest with a round limit, a seat's page, both pages playing to the end, a page
  playing the AI seat under the lease, refused links, the export replayed;
- the pages in Chromium, played by the mouse (tests/browser/test_playtest_throne_by_mouse.py,
  test_playtest_pin_by_mouse.py): :class:`MouseSeat` (one person's browser context and
  its status line's data), opening the seat links on a server with a preheated kernel
  per seat, the checks at the end.

tests/ has no ``__init__.py``: this module is imported as ``playtest_helpers`` (pytest
puts tests/ on ``sys.path`` for tests/conftest.py, the browser tests' folder included).
Playwright is imported only by the browser helpers.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ipywidgets as W
import pytest

from throne_lib.cli import main
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.page import PlaytestPage
from throne_lib.kit.playtest.store import SqliteStore

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


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


def sends_the_same(
    b: Any, refresh: Callable[[], None], monkeypatch: pytest.MonkeyPatch, other: Any
) -> None:
    """The hidden-information proof for one page ``b``: what it sends (``refresh``
    redrawing it) is the same with its session's match replaced by ``other`` — a
    resample of what that page cannot see (so a different state)."""
    real = sent(b.root, b.canvas, refresh, monkeypatch)
    truth = b.session.match
    b.session.match = other
    assert b.session.match.hash() != truth.hash()
    assert sent(b.root, b.canvas, refresh, monkeypatch) == real


# --- the pages without a browser ---------------------------------------------------------


def create(
    tmp_path: Path, game: str, rules: Any, humans: int = 2, seed: int = 5
) -> tuple[SqliteStore, manage.Created]:
    """A two-seat playtest of ``game`` under ``rules`` (its round limit ends it), the
    AI thinking 0 s, in a store under ``tmp_path``."""
    st = SqliteStore(tmp_path)
    options = {"rules": rules}
    return st, manage.create(st, game, 2, humans, think=0.0, seed=seed, options=options)


def seat_page(st: SqliteStore, c: manage.Created, seat: int) -> PlaytestPage:
    """The playtest page of ``seat``'s link (its events kept, for the 战报 checks)."""
    query = {"playtest": c.playtest.id, "token": c.tokens[seat]}
    return PlaytestPage(query, store=st, keep_events=True)


def play_pages(boards: Sequence[Any], move: Callable[[Any], None], steps: int = 3000) -> None:
    """Each page polls the store; the page whose seat is to move makes ``move`` (as its
    clicks would), until every page shows the match over."""
    for _ in range(steps):
        if all(b.match.is_over for b in boards):
            return
        for b in boards:
            b.page.poll()
            if b.ctrl.my_turn:
                move(b)
    raise AssertionError("the match did not end")


def play_under_the_lease(
    b: Any, move: Callable[[Any], None], st: SqliteStore, pid: str, steps: int = 3000
) -> set[tuple[int, str]]:
    """One human seat's page against the AI seat: its polls play the AI (the lease,
    think 0 s) until the end, when the lease is released. The (seat, by) of playtest
    ``pid``'s stored actions."""
    for _ in range(steps):
        if b.match.is_over:
            break
        b.page.poll()
        if b.ctrl.my_turn:
            move(b)
    b.page.poll()
    assert b.match.is_over and b.session.holds_lease is False  # released at the end
    return {(a.seat, a.by) for a in st.actions(pid)}


def refused(page: Callable[..., Any], st: SqliteStore, links: Iterable[tuple[str, str]]) -> None:
    """Each (query, why): the page of that link is an error naming why."""
    for query, why in links:
        w = page(store=st, query=query)
        assert isinstance(w, W.HTML) and why in w.value and "无法加入牌局" in w.value


def export_replays(st: SqliteStore, pid: str, path: Path) -> None:
    """The playtest's export replays with ``throne replay --check``."""
    log = manage.export(st, pid, path)
    assert main(["replay", str(log), "--check"]) == 0


# --- the pages in Chromium, by the mouse ---------------------------------------------------

RENDER_TIMEOUT_MS = 300_000  # a kernel start at this machine's load
STEP_TIMEOUT_MS = 60_000


def painted(canvas: str) -> str:
    """A script: the pixel at the centre of the canvas ``canvas`` selects (or of the
    first canvas inside it) has been painted — the board drawn, its background at least."""
    return f"""(() => {{
  const e = document.querySelector('{canvas}');
  const c = e && (e.tagName === 'CANVAS' ? e : e.querySelector('canvas'));
  if (!c || !c.width) return false;
  const p = c.getContext('2d').getImageData(c.width / 2, c.height / 2, 1, 1).data;
  return p[3] > 0;
}})()"""


class MouseSeat:
    """One person's page in a browser context of its own, synchronised on the game's
    status line: ``STATE`` (its data-*, and its text with ``TEXT``), whose ``seq``
    counts the clicks and buttons the page's kernel has handled. A game's subclass sets
    ``STATE`` and ``TEXT``, prepares in :meth:`setup` (before the page opens) and acts."""

    STATE = ""  # the status line's selector
    TEXT = False  # the state has the line's text too

    def __init__(self, browser: Browser, url: str, seat: int) -> None:
        context = browser.new_context(viewport={"width": 1280, "height": 900}, locale="zh-CN")
        self.page: Page = context.new_page()
        self.seat = seat
        self.setup()
        self.page.goto(url, wait_until="commit", timeout=RENDER_TIMEOUT_MS)

    def setup(self) -> None:
        """What the page needs before it opens (a listener …)."""

    @property
    def _script(self) -> str:
        data = "{...e.dataset, text: e.textContent}" if self.TEXT else "{...e.dataset}"
        return f"const e = document.querySelector('{self.STATE}'); const s = e ? {data} : null;"

    def state(self) -> dict[str, str]:
        data = self.page.evaluate(f"(() => {{ {self._script} return s; }})()")
        return dict(data or {})

    def handled(self, click: Any) -> dict[str, str]:
        """``click``, then the state once the kernel has handled it."""
        seq = int(self.state()["seq"])
        click()
        self.page.wait_for_function(
            f"(() => {{ {self._script} return s && +s.seq > {seq}; }})()", timeout=STEP_TIMEOUT_MS
        )
        return self.state()


def open_seats(
    voila_server: Any,
    browser: Browser,
    notebook: str,
    c: manage.Created,
    seat: type[MouseSeat],
) -> list[Any]:
    """A server of notebooks/ with a preheated kernel for each of the two seat pages of
    ``notebook`` (and none for the other dashboards); each seat's link opened."""
    from urllib.parse import urlencode

    server = voila_server("notebooks", pools={notebook: 2})
    server.wait_ready()
    url = server.url + f"voila/render/{notebook}?"
    query = [{"playtest": c.playtest.id, "seat": s, "token": c.tokens[s]} for s in (0, 1)]
    return [seat(browser, url + urlencode(q), s) for s, q in enumerate(query)]


def wait_joined(page: Page, seat: int, state: str, canvas: str) -> None:
    """``page`` shows ``seat``'s playtest, the game's status line ``state`` and a painted
    board (drawn before the browser connected: redrawn when its view appears)."""
    from playwright.sync_api import expect

    expect(page.locator(".playtest-state")).to_have_attribute(
        "data-seat", str(seat), timeout=RENDER_TIMEOUT_MS
    )
    expect(page.locator(state)).to_have_count(1, timeout=RENDER_TIMEOUT_MS)
    page.wait_for_function(painted(canvas), timeout=STEP_TIMEOUT_MS)


def on_step(seats: Sequence[MouseSeat], n: int) -> None:
    """Every page shows the playtest at its stored step ``n``."""
    from playwright.sync_api import expect

    for seat in seats:
        expect(seat.page.locator(".playtest-state")).to_have_attribute("data-seq", str(n))


def screenshots(seats: Sequence[MouseSeat], canvas: str, folder: Path, game: str) -> None:
    """Each page still has its board painted: ``playtest_<game>_seat<S>.png``."""
    for s, seat in enumerate(seats):
        assert seat.page.evaluate(painted(canvas))
        seat.page.screenshot(path=str(folder / f"playtest_{game}_seat{s}.png"))


def no_errors(seats: Sequence[MouseSeat]) -> None:
    """No page shows a cell's error output."""
    for seat in seats:
        errors = seat.page.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
        assert errors.count() == 0


def close(seats: Sequence[MouseSeat]) -> None:
    for seat in seats:
        seat.page.context.close()
