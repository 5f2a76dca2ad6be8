"""Live card table: watch ``cards.csv`` and hand every valid new version to subscribers.

:class:`CardTableWatcher` polls the file's ``(mtime_ns, size, inode)``, so an in-place
write and an editor's atomic save-by-rename are both seen. A change that does not
load (a broken table, a half-written file) keeps the last valid table in force and
lists the problems in :attr:`CardTableWatcher.errors` (``cards.csv:ROW:COLUMN: message``)
until the file loads again; subscribers are called on every change of either.

>>> import tempfile, shutil, pathlib
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = shutil.copy(DEFAULT_PATH, d / "cards.csv")
>>> w = CardTableWatcher(d / "cards.csv")
>>> len(w.db) > 100, w.errors
(True, [])
>>> _ = (d / "cards.csv").write_text("id,name\\n", encoding="utf-8")
>>> w.check(), w.errors[0].startswith("cards.csv:1:")
(True, True)

Hot swap into running matches: :func:`hot_swap` (see ``docs/cards_live.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from throne_lib.games.throne.actions import Event
from throne_lib.games.throne.cards import DEFAULT_PATH, CardDB, CardTableError, parse_cards
from throne_lib.games.throne.match import Match

ENV_PATH = "THRONE_CARDS"  # overrides the table the notebooks edit and watch


def cards_path() -> Path:
    """The card table the notebooks use: ``$THRONE_CARDS`` or the repository's cards.csv."""
    env = os.environ.get(ENV_PATH)
    return Path(env) if env else DEFAULT_PATH


@dataclass(frozen=True)
class TableUpdate:
    """What a subscriber is told: the table in force, the current problems (empty when
    the file loaded) and whether the table in force changed with this update."""

    db: CardDB
    errors: tuple[str, ...]
    changed: bool


Subscriber = Callable[[TableUpdate], None]
RECENT_NS = 2_000_000_000  # a file modified this recently is also compared byte for byte
Stamp = tuple[int, int, int]


def _stamp(path: Path) -> Stamp | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class CardTableWatcher:
    """The current valid card table of a file, reloaded when the file changes.

    ``check()`` polls once (synchronous); ``start()`` runs the poll every
    ``interval`` seconds as an asyncio task on the running loop (the kernel's, in
    Jupyter and Voilà) and ``stop()`` ends it. The first load must succeed: a
    broken table at start raises :class:`CardTableError`, unless ``db`` gives the
    table to start from.
    """

    def __init__(
        self, path: str | Path | None = None, interval: float = 0.25, db: CardDB | None = None
    ) -> None:
        self.path = Path(path) if path is not None else cards_path()
        self.interval = interval
        self.errors: list[str] = []
        self.reloads = 0  # how many new valid tables were applied
        self.callback_errors: list[str] = []
        self._subscribers: list[Subscriber] = []
        self._stamp = _stamp(self.path)
        self._bytes: bytes | None = None  # the file's content at the last load
        self._task: asyncio.Task[None] | None = None
        if db is None:
            got = self._load()
            if isinstance(got, list):
                raise CardTableError(got)
            db = got
        self.db: CardDB = db

    # --- loading -------------------------------------------------------------------------

    def _read(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except OSError:
            return None

    def _load(self) -> CardDB | list[str]:
        name = self.path.name
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            self._bytes = None
            return [f"{name}:1:-: the file is missing (being saved?)"]
        except OSError as exc:
            self._bytes = None
            return [f"{name}:1:-: cannot read the file ({exc.strerror or exc})"]
        self._bytes = data
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            return [f"{name}:1:-: not UTF-8 text ({exc.reason})"]
        try:
            return parse_cards(text, name, str(self.path))
        except CardTableError as exc:
            return list(exc.problems)

    def check(self) -> bool:
        """Poll the file once; reload when its stamp changed. True when something
        changed (a new table applied, or the problems list changed)."""
        stamp = _stamp(self.path)
        if stamp == self._stamp:
            # Two same-size writes within the filesystem's timestamp granularity leave
            # the stamp alike: while the file is fresh, compare its bytes too.
            if stamp is None or time.time_ns() - stamp[0] > RECENT_NS:
                return False
            if self._read() == self._bytes:
                return False
        self._stamp = stamp
        return self.reload()

    def reload(self) -> bool:
        """Read the file now (whatever its stamp) and notify subscribers of a change."""
        got = self._load()
        if isinstance(got, list):
            if got == self.errors:
                return False
            self.errors = got
            self._notify(False)
            return True
        had_errors = bool(self.errors)
        self.errors = []
        if got.hash == self.db.hash and got.source == self.db.source:
            if had_errors:
                self._notify(False)
            return had_errors
        self.db = got
        self.reloads += 1
        self._notify(True)
        return True

    # --- subscribers -----------------------------------------------------------------------

    def subscribe(self, callback: Subscriber) -> Callable[[], None]:
        """Call ``callback(TableUpdate)`` on every change; returns an unsubscribe function."""
        self._subscribers.append(callback)

        def unsubscribe() -> None:
            with contextlib.suppress(ValueError):
                self._subscribers.remove(callback)

        return unsubscribe

    def _notify(self, changed: bool) -> None:
        update = TableUpdate(self.db, tuple(self.errors), changed)
        for callback in list(self._subscribers):
            try:
                callback(update)
            except Exception:  # one broken subscriber must not stop the others
                self.callback_errors.append(traceback.format_exc())

    # --- the polling task ------------------------------------------------------------------

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> asyncio.Task[None]:
        """Start polling on the running asyncio loop (the kernel's in Jupyter)."""
        if self._task is not None and not self._task.done():
            return self._task
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = asyncio.get_event_loop_policy().get_event_loop()
        self._task = loop.create_task(self._run())
        return self._task

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            self._task = None

    async def _run(self) -> None:
        while True:
            try:
                self.check()
            except Exception:  # keep watching whatever happens
                self.callback_errors.append(traceback.format_exc())
            await asyncio.sleep(self.interval)


# --- hot swap into a running match --------------------------------------------------------


class SwapRecorder(Protocol):
    """What :func:`hot_swap` needs of a match log writer (``log.MatchRecorder``)."""

    def swap(self, db: CardDB) -> Event: ...


def hot_swap(match: Match, db: CardDB, recorder: SwapRecorder | None = None) -> Event:
    """Swap ``db`` into a running match (logged through ``recorder`` when given, so a
    replay applies it at the same point). A finished match or an unchanged table is
    left alone and gives a ``cards_swap`` event with note ``unchanged``. Raises
    ``ValueError`` when the new table lacks a card the match uses (the match keeps
    its table)."""
    st = match.state
    if match.is_over or db.hash == match.db.hash:
        return Event("cards_swap", st.round, st.turn, note="unchanged")
    if recorder is not None:
        return recorder.swap(db)
    return match.swap_cards(db)
