"""One page's part in a playtest, without any UI: join, follow, act, play the AI seats.

A :class:`PlaytestSession` is what a seat's dashboard (or a spectator's, or a scripted
client of the load benchmark) holds. It rebuilds the match from the playtest's log
header, applies the stored actions in order and checks the state hash after each
(:meth:`sync`), and sends its seat's actions at the sequence number it has seen
(:meth:`submit`: compare-and-set in the store, so two clicks at once give one order and
every page agrees). It shows its seat nothing but ``observation(seat)``
(:meth:`observation`); the spectator sees the public view while the match runs and
everything after it.

The AI seats have no process of their own: :meth:`tick` (called by the page's polling
loop) renews the playtest's lease, and only the page holding it plays them, after the
playtest's think time. When that page closes its lease runs out and another open page
takes over; with no page open nothing moves (the playtest is paused, nothing lost). A
human seat whose pages have all been closed for the playtest's idle limit is played by
the AI too, until its person comes back. An AI's choice at action ``n`` is made by a
fresh agent seeded from the seat's seed and ``n``, so it does not depend on which page
makes it.

A page whose game keeps its log from the engine's events (PIN's 战报) asks for
``keep_events``: :attr:`PlaytestSession.events` then holds each applied action's events
(the seat's UI filters them by what the seat may see, as in a single-player match).
"""

from __future__ import annotations

import contextlib
import time
import uuid
from collections.abc import Mapping
from typing import Any, Generic, TypeVar, overload

from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent
from throne_lib.kit.log import LogError, codec
from throne_lib.kit.playtest.store import (
    SPECTATOR,
    Note,
    Playtest,
    PlaytestStore,
    StoreError,
)
from throne_lib.kit.protocol import IllegalAction

LEASE_TTL = 3.0  # seconds an AI lease lasts without renewal (the page polls far faster)
SEEN_EVERY = 1.0  # seconds between a page's presence updates
LEASE_EVERY = 1.0  # seconds between a page's tries to take or renew the lease


class PlaytestError(Exception):
    """Why a page cannot join or act (shown on the page as it is: Chinese, one line)."""


def new_match_of(pt: Playtest) -> Any:
    """The playtest's match before its first action, rebuilt from its log header."""

    def err(msg: str) -> LogError:
        return LogError(f"playtest {pt.id}", 1, msg)

    try:
        header = codec(pt.game).parse_header(dict(pt.header), err)
        return header.new_match()
    except (LogError, ValueError) as exc:
        raise PlaytestError(f"牌局 {pt.id} 无法建立（{exc}）") from None


def has_public_view(match: Any) -> bool:
    """Whether the game shows spectators anything while its match runs."""
    return hasattr(match, "public_view")


def public_view(match: Any) -> Mapping[str, Any]:
    """What a spectator sees: the game's public view (``public_view()``) while the match
    runs, everything (``reveal_all()``) once it is over."""
    if match.is_over and hasattr(match, "reveal_all"):
        everything: Mapping[str, Any] = match.reveal_all()
        return everything
    if not has_public_view(match):
        raise PlaytestError("这个游戏没有旁观视角")
    view: Mapping[str, Any] = match.public_view()
    return view


class PlaytestSession:
    """A page joined to playtest ``pid`` with the link's ``token`` (see the module doc)."""

    def __init__(
        self,
        store: PlaytestStore,
        pid: str,
        token: str,
        holder: str | None = None,
        keep_events: bool = False,
    ) -> None:
        if not pid:
            raise PlaytestError("链接缺少牌局编号（playtest=…）")
        if not token:
            raise PlaytestError("链接缺少令牌（token=…）：请使用创建牌局时给出的完整链接")
        try:
            pt = store.get(pid)
        except KeyError:
            raise PlaytestError(f"没有编号为 {pid} 的牌局（链接过期，或牌局存放在别处）") from None
        seat = store.seat_of(pid, token)
        if seat is None:
            raise PlaytestError(f"牌局 {pid} 的令牌不对：链接不完整或已过期，请向发起人要新链接")
        self.store = store
        self.playtest = pt
        self.pid = pid
        self.seat = seat
        self.holder = holder or uuid.uuid4().hex
        self.game = registry.get(pt.game)
        self.codec = codec(pt.game)
        self.match = new_match_of(pt)
        self.seq = 0  # actions applied here
        self.last_action_at = pt.created
        self.holds_lease = False
        self._seen_at = 0.0
        self._leased_at = 0.0
        self.closed = False
        # (seq, stored at, applied here at) of each action this page learnt from the
        # store, when a list (benchmarks/playtest_load.py measures the sync latency)
        self.trace: list[tuple[int, float, float]] | None = None
        # (seq, events of that action) for every action applied here, when kept
        self.events: list[tuple[int, list[Any]]] | None = [] if keep_events else None
        self.sync()

    # --- following ----------------------------------------------------------------------
    @property
    def spectator(self) -> bool:
        return self.seat == SPECTATOR

    def sync(self) -> int:
        """Apply the actions stored since the last call, checking each hash; how many."""
        new = self.store.actions(self.pid, self.seq)
        for a in new:
            if a.seq != self.seq + 1:
                raise PlaytestError(f"牌局 {self.pid} 的记录缺少第 {self.seq + 1} 步")
            try:
                events = self.match.apply(self.match.parse(a.action))
            except (IllegalAction, ValueError) as exc:
                raise PlaytestError(
                    f"牌局 {self.pid} 第 {a.seq} 步 {a.action!r} 无法重放（{exc}）："
                    "它是用另一版规则或卡牌表记录的"
                ) from None
            if self.match.hash() != a.hash:
                raise PlaytestError(
                    f"牌局 {self.pid} 第 {a.seq} 步后的状态与记录不符（hash {a.hash[:12]}，"
                    f"本页 {self.match.hash()[:12]}）：它是用另一版规则或卡牌表记录的"
                )
            self.seq = a.seq
            self.last_action_at = a.time
            if self.events is not None:
                self.events.append((a.seq, list(events or ())))
            if self.trace is not None:
                self.trace.append((a.seq, a.time, time.time()))
        return len(new)

    def observation(self) -> Mapping[str, Any]:
        """This page's view: its seat's observation, or the spectator's view."""
        if self.spectator:
            return public_view(self.match)
        view: Mapping[str, Any] = self.match.observation(self.seat)
        return view

    @property
    def is_over(self) -> bool:
        return bool(self.match.is_over)

    def my_turn(self) -> bool:
        return not self.spectator and not self.is_over and self.match.current_seat == self.seat

    def legal(self) -> list[Any]:
        """The actions this seat may take now (none when it is not its turn)."""
        return list(self.match.legal_actions()) if self.my_turn() else []

    # --- acting -------------------------------------------------------------------------
    def submit(self, action: Any) -> bool:
        """Play ``action`` (an action or its text) for this seat at the position this page
        has seen. True: stored and applied. False: another page moved first (this page
        has caught up; the action was not played — ask again). Raises PlaytestError for a
        spectator, a seat not to move (unless the action is one of its :meth:`anytime`
        actions), or an action the rules refuse (match unchanged)."""
        if self.spectator:
            raise PlaytestError("旁观者不能行动")
        if self.is_over:
            raise PlaytestError("对局已经结束")
        action = self._parse(action)
        if action not in self.anytime():
            if self.match.current_seat != self.seat:
                raise PlaytestError("还没有轮到你")
            if action not in self.match.legal_actions():  # the rule that refuses it, or:
                self._trial(action)  # an action apply() takes from any seat (认输 of another)
                raise PlaytestError(f"不合法的行动：座位 {self.seat} 现在不能做 {action}")
        return self._append(action, self.seat, "human")

    def anytime(self) -> list[Any]:
        """What this seat may do when it is not its turn: the game's ``anytime_actions(seat)``
        (城池战's 认输, CW-WIN-4), none for a game without them."""
        if self.spectator or self.is_over or not hasattr(self.match, "anytime_actions"):
            return []
        return list(self.match.anytime_actions(self.seat))

    def _trial(self, action: Any) -> tuple[Any, Any]:
        """A copy of the match with ``action`` applied, and its events."""
        trial = self.match.copy()
        try:
            events = trial.apply(action)
        except IllegalAction as exc:
            raise PlaytestError(f"不合法的行动：{exc.reason}（{exc.rule}）") from None
        return trial, events

    def _parse(self, action: Any) -> Any:
        if not isinstance(action, str):
            return action
        try:
            return self.match.parse(action)
        except ValueError as exc:
            raise PlaytestError(f"无法识别的行动 {action!r}（{exc}）") from None

    def _append(self, action: Any, seat: int, by: str) -> bool:
        action = self._parse(action)
        trial, events = self._trial(action)
        text = self.codec.action_text(self.match, action)
        if not self.store.append(self.pid, self.seq + 1, text, trial.hash(), seat, by):
            self.sync()
            return False
        self.match = trial
        self.seq += 1
        self.last_action_at = time.time()
        if self.events is not None:
            self.events.append((self.seq, list(events or ())))
        return True

    def add_note(self, text: str) -> Note:
        """A note (「这里不公平」) at the current moment (after the last applied action)."""
        text = text.strip()
        if not text:
            raise PlaytestError("备注是空的")
        return self.store.add_note(self.pid, self.seq, self.seat, text[:2000])

    def notes(self) -> list[Note]:
        return self.store.notes(self.pid)

    # --- the AI seats -------------------------------------------------------------------
    def ai_seat_to_move(self, now: float | None = None) -> bool:
        """Whether the seat to move is played by the AI now: an AI seat, or a human seat
        none of whose pages has been open for the playtest's idle limit."""
        if self.is_over:
            return False
        seat = self.match.current_seat
        spec = self.playtest.seats[seat]
        if spec.kind != "human":
            return True
        t = time.time() if now is None else now
        last = max(self.store.last_seen(self.pid).get(seat, 0.0), self.playtest.created)
        return t - last > self.playtest.idle

    def ai_step(self) -> bool:
        """Play one AI action if the AI is to move (without waiting); True if it did."""
        if not self.ai_seat_to_move():
            return False
        seat = self.match.current_seat
        spec = self.playtest.seats[seat]
        agent = make_agent(spec.agent, spec.seed * 100_003 + self.seq + 1, self.playtest.game)
        action = agent.choose(self.match)
        return self._append(action, seat, "ai")

    def tick(self, now: float | None = None) -> bool:
        """One round of a page's polling loop: presence, new actions, the AI's move when
        this page holds the lease and the think time has passed. True if the match moved."""
        if self.closed:
            return False
        t = time.time() if now is None else now
        if not self.spectator and t - self._seen_at >= SEEN_EVERY:
            self.store.seen(self.pid, self.seat)
            self._seen_at = t
        moved = self.sync() > 0
        if self.is_over:
            if self.holds_lease:
                self.release()
            return moved
        if t - self._leased_at >= LEASE_EVERY:  # a write: not at every poll
            self.holds_lease = self.store.lease(self.pid, self.holder, LEASE_TTL)
            self._leased_at = t
        if self.holds_lease and t - self.last_action_at >= self.playtest.think:
            moved = self.ai_step() or moved
        return moved

    def release(self) -> None:
        if self.holds_lease:
            self.store.release(self.pid, self.holder)
            self.holds_lease = False

    def close(self) -> None:
        """The page closes: give the lease back at once (another page takes over)."""
        with contextlib.suppress(StoreError):  # else the lease runs out by itself
            self.release()
        self.closed = True


M = TypeVar("M")


class MatchOf(Generic[M]):
    """A class attribute that stands for ``self.<holder>.match``: a playtest page's app,
    board or controller extends a single-player one, but its match is the session's (or
    its board's, which is the session's). Assigning it, as the single-player class does,
    changes nothing."""

    def __init__(self, holder: str = "session") -> None:
        self.holder = holder

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> MatchOf[M]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> M: ...
    def __get__(self, obj: object, owner: type | None = None) -> Any:
        return self if obj is None else getattr(obj, self.holder).match

    def __set__(self, obj: object, value: object) -> None:
        pass  # the playtest's match is the session's


class EventsBoard:
    """A playtest board that builds its 战报 from the session's events (PIN's, Throne's):
    its ``page``, the page's ``session`` and the position it has seen (``_seen``)."""

    page: Any  # a kit.playtest.page.PlaytestPage
    session: PlaytestSession
    _seen: int

    def join(self, page: Any, board: str) -> None:
        """Follow ``page``'s session from where it is now; ValueError naming the ``board``
        when the page keeps no events (it must be ``PlaytestPage(keep_events=True)``)."""
        session = page.session
        assert session is not None
        if session.events is None:
            raise ValueError(
                f"the {board} board needs its page's events: PlaytestPage(keep_events=True)"
            )
        self.page = page
        self.session = session
        self._seen = session.seq
