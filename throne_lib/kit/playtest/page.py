"""The kit's part of a playtest page (any game): read the link, join, poll, notes.

A seat link is the game's dashboard with ``?playtest=ID&seat=K&token=…``. Voilà gives
a kernel the page's query string as ``$QUERY_STRING``; a preheated kernel (a pool of
``voila.json``, run before anyone asked) receives it only when a visitor takes it, in
:func:`~throne_lib.kit.ui.preheat.wait_for_visitor`, which :func:`link_params` calls
before it reads the link: a pool kernel reads no seat's link but its own visitor's. A
:class:`PlaytestPage` joins the playtest (:class:`~.session.PlaytestSession`), shows the
bar above the board — which playtest, which seat, the note box (「这里不公平」) and any
error — and polls the store from an asyncio task on the kernel's loop every
``interval`` seconds: new moves (and the AI's, when this page holds the lease) call
``on_change`` so the game redraws from its seat's observation. A page whose link is
wrong shows the reason and nothing of the match; so does a spectator link of a game
without a public view (PIN: each side's hand is hidden from everyone else).

:func:`seat_page` is a game notebook's one call: the game's playtest dashboard when the
page was opened from a playtest link, its single-player dashboard otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import os
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs

import ipywidgets as W

from throne_lib.kit import registry
from throne_lib.kit.playtest.session import PlaytestError, PlaytestSession, has_public_view
from throne_lib.kit.playtest.store import SPECTATOR, PlaytestStore, StoreError, open_store
from throne_lib.kit.ui.ai import event_loop
from throne_lib.kit.ui.preheat import timeline, wait_for_visitor

POLL = 0.1  # seconds between two looks at the store (sync within 0.5 s, see docs)


def link_params(query: str | None = None) -> dict[str, str] | None:
    """``playtest``/``token``/``seat`` of the page's link (``$QUERY_STRING`` by default);
    None when the page was not opened from a playtest link. In a preheated kernel it
    first waits for the page's visitor (a no-op anywhere else, and once it came)."""
    if query is None:
        wait_for_visitor()
    q = os.environ.get("QUERY_STRING", "") if query is None else query
    params = {k: v[0] for k, v in parse_qs(q.lstrip("?"), keep_blank_values=True).items()}
    if "playtest" not in params:
        return None
    return {k: params.get(k, "") for k in ("playtest", "token", "seat")}


def error_html(text: str) -> str:
    return (
        "<div class='playtest-error' style='border:1px solid #e0b4b4;background:#fff6f6;"
        f"color:#9f3a38;padding:8px 12px;font-size:15px'><b>无法加入牌局：</b>{html.escape(text)}</div>"
    )


class PlaytestPage:
    """One page joined to a playtest (see the module doc). ``session`` is None when the
    link was refused; ``error`` then says why."""

    def __init__(
        self,
        params: dict[str, str],
        on_change: Callable[[], None] = lambda: None,
        store: PlaytestStore | None = None,
        interval: float = POLL,
        keep_events: bool = False,
    ) -> None:
        self.on_change = on_change
        self.interval = interval
        self.task: asyncio.Task[None] | None = None
        self.session: PlaytestSession | None = None
        self.error = ""
        self.info = W.HTML()
        self.info.add_class("playtest-info")
        self.message = W.HTML()
        self.message.add_class("playtest-message")
        self.note_text = W.Text(
            placeholder="记下此刻的想法，例如：这里不公平", layout=W.Layout(width="320px")
        )
        self.note_text.add_class("playtest-note-text")
        self.note_btn = W.Button(description="记下", icon="sticky-note")
        self.note_btn.add_class("playtest-note")
        self.note_btn.on_click(lambda _: self.note())
        try:
            self.store = store or open_store()
            self.session = PlaytestSession(
                self.store,
                params.get("playtest", ""),
                params.get("token", ""),
                keep_events=keep_events,
            )
        except (PlaytestError, StoreError) as exc:
            self.error = str(exc)
        s = self.session
        if s is not None and s.spectator and not has_public_view(s.match):
            self.error = (
                f"{registry.get(s.playtest.game).title}没有旁观视角（每一方的手牌对其他人"
                "都是隐藏的）：请用座位链接加入，或在对局结束后导出记录复盘"
            )
            self.session = None
        if self.session is None:
            self.bar: W.Widget = W.HTML(error_html(self.error))
            return
        self.bar = W.VBox([W.HBox([self.info, self.note_text, self.note_btn]), self.message])
        self.bar.add_class("playtest-bar")
        self.show_info()

    @property
    def ok(self) -> bool:
        return self.session is not None

    def show_info(self) -> None:
        s = self.session
        if s is None:
            return
        g = registry.get(s.playtest.game)
        who = "旁观" if s.seat == SPECTATOR else g.seat_label(s.seat)
        ai = ", ".join(str(k) for k, sp in enumerate(s.playtest.seats) if sp.kind != "human")
        self.info.value = (
            f"<div class='playtest-state' data-playtest='{html.escape(s.pid)}' data-seat='{s.seat}' "
            f"data-seq='{s.seq}' data-lease='{int(s.holds_lease)}' style='padding:4px 8px'>"
            f"<b>牌局 {html.escape(s.pid)}</b> · {g.title} · 你是{who} · 第 {s.seq} 步"
            f"{' · AI 座位 ' + ai if ai else ''}</div>"
        )

    def say(self, text: str, error: bool = False) -> None:
        colour = "#9f3a38" if error else "#1e8449"
        self.message.value = (
            f"<div style='color:{colour};padding:2px 8px'>{html.escape(text)}</div>" if text else ""
        )

    # --- acting -------------------------------------------------------------------------
    def submit(self, action: Any) -> bool:
        """Send this seat's action; a refusal or a lost race is said on the page."""
        if self.session is None:
            return False
        try:
            done = self.session.submit(action)
        except (PlaytestError, StoreError) as exc:
            self.say(str(exc), error=True)
            return False
        self.say("" if done else "另一页面先行动了：请按新的局面重新选择", error=not done)
        self.show_info()
        return done

    def note(self) -> None:
        if self.session is None:
            return
        try:
            n = self.session.add_note(self.note_text.value)
        except (PlaytestError, StoreError) as exc:
            self.say(str(exc), error=True)
            return
        self.note_text.value = ""
        self.say(f"已记下（第 {n.after} 步之后）：{n.text}")

    # --- polling ------------------------------------------------------------------------
    def poll(self) -> bool:
        """One look at the store; ``on_change`` when the match moved. A store error is
        shown and polling goes on (a locked store may come back)."""
        if self.session is None:
            return False
        try:
            moved = self.session.tick()
        except (PlaytestError, StoreError) as exc:
            self.say(str(exc), error=True)
            return False
        if moved:
            self.show_info()
            self.on_change()
        return moved

    def start(self) -> None:
        """Poll from a task on the kernel's running loop (without one: do nothing)."""
        if self.session is None or self.task is not None:
            return
        loop = event_loop()
        if loop is not None:
            self.task = loop.create_task(self._run())

    async def _run(self) -> None:
        while self.session is not None and not self.session.closed:
            try:
                self.poll()
            except Exception as exc:  # noqa: BLE001 - show it, never kill the kernel loop
                self.say(f"{type(exc).__name__}: {exc}", error=True)
            await asyncio.sleep(self.interval)

    def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
        if self.session is not None:
            with contextlib.suppress(StoreError):
                self.session.close()


def seat_page(
    build: Callable[[PlaytestPage], W.Widget],
    single: Callable[[], W.Widget],
    store: PlaytestStore | None = None,
    query: str | None = None,
    keep_events: bool = False,
) -> W.Widget:
    """A game notebook's page: opened from a playtest link (``?playtest=…``, see
    :func:`link_params`), ``build`` the game's dashboard joined to the link's seat and
    start polling; a refused link shows the reason alone; no playtest link: ``single()``,
    the single-player dashboard."""
    params = link_params(query)
    if params is None:
        return single()
    page = PlaytestPage(params, store=store, keep_events=keep_events)
    if not page.ok:
        return page.bar
    widget = build(page)
    page.start()
    timeline(f"built widgets={len(getattr(W.widgets.widget, '_instances', ()))}")
    return widget
