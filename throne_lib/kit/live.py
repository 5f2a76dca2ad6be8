"""Live card table of any game: watch a table file and hand every valid new version to
subscribers.

:class:`TableWatcher` is generic over the game's table parser ``parse(text, filename,
path)``, which returns the table (with ``hash`` and ``source``) or raises
:class:`TableError` listing ``FILE:ROW:COLUMN: message`` problems. It polls the file's ``(mtime_ns, size, inode)``, so an in-place
write and an editor's atomic save-by-rename are both seen. A changed file is adopted
only once it has stopped changing for ``settle`` seconds: a table being written in
chunks (a valid prefix parses as a shorter table) is never taken half-way. A change
that does not load (a broken table) keeps the last valid table in force and
lists the problems in :attr:`TableWatcher.errors` (``cards.csv:ROW:COLUMN: message``)
until the file loads again; subscribers are called on every change of either.

A game's own watcher (a :class:`GameTableWatcher`) fixes the parser and the default file
(Throne: :class:`throne_lib.games.throne.live.CardTableWatcher`, with ``hot_swap`` into
running matches; see ``docs/cards_live.md``).
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import os
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from throne_lib.kit.csvtable import table_file_text
from throne_lib.kit.tables import TableError

Parse = Callable[[str, str, str], Any]  # (text, filename, path) -> table; raises TableError


@dataclass(frozen=True)
class TableUpdate:
    """What a subscriber is told: the table in force, the current problems (empty when
    the file loaded) and whether the table in force changed with this update."""

    db: Any
    errors: tuple[str, ...]
    changed: bool


def problems_html(head: str, problems: Sequence[str]) -> str:
    """A refused table as the pages show it: a red box, ``head`` (HTML) in bold over its
    ``FILE:ROW:COLUMN`` problems, one a line."""
    items = "".join(f"<li><code>{html.escape(p)}</code></li>" for p in problems)
    return (
        "<div style='border:1px solid #e0b4b4;background:#fff6f6;color:#9f3a38;"
        f"padding:6px 10px'><b>{head}</b><ul style='margin:4px 0'>{items}</ul></div>"
    )


class _Problems(list[str]):
    """The problems of a load that failed (a list, told apart from a table)."""


Subscriber = Callable[[TableUpdate], None]
RECENT_NS = 2_000_000_000  # a file modified this recently is also compared byte for byte
Stamp = tuple[int, int, int]


def _stamp(path: Path) -> Stamp | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino)


class TableWatcher:
    """The current valid table of a file (parsed by ``parse``), reloaded when it changes.

    ``check()`` polls once (synchronous); ``start()`` runs the poll every
    ``interval`` seconds as an asyncio task on the running loop (the kernel's, in
    Jupyter and Voilà) and ``stop()`` ends it. The first load must succeed: a
    broken table at start raises :class:`TableError`, unless ``db`` gives the
    table to start from.
    """

    error: type[TableError] = TableError  # raised by a broken table at start

    def __init__(
        self,
        path: str | Path,
        parse: Parse,
        interval: float = 0.25,
        db: Any = None,
        settle: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.path = Path(path)
        self.parse = parse
        self.interval = interval
        self.settle = settle  # seconds a changed file must stay unchanged to be read
        self._clock = clock
        self._seen: Stamp | None = None  # the stamp at the last poll …
        self._seen_at = 0.0  # … and since when it has been the same
        self.errors: list[str] = []
        self.reloads = 0  # how many new valid tables were applied
        self.callback_errors: list[str] = []
        self._subscribers: list[Subscriber] = []
        self._stamp = _stamp(self.path)
        self._bytes: bytes | None = None  # the file's content at the last load
        self._task: asyncio.Task[None] | None = None
        if db is None:
            got = self._load()
            if isinstance(got, _Problems):
                raise self.error(list(got))
            db = got
        self.db: Any = db

    # --- loading -------------------------------------------------------------------------

    def _read(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except OSError:
            return None

    def _load(self) -> Any:
        name = self.path.name
        try:
            data = self.path.read_bytes()
        except FileNotFoundError:
            self._bytes = None
            return _Problems([f"{name}:1:-: the file is missing (being saved?)"])
        except OSError as exc:
            self._bytes = None
            return _Problems([f"{name}:1:-: cannot read the file ({exc.strerror or exc})"])
        self._bytes = data
        text, problems = table_file_text(data, name)  # a bad byte, a file cut short
        if text is None:
            return _Problems(problems)
        try:
            return self.parse(text, name, str(self.path))
        except TableError as exc:
            return _Problems(exc.problems)

    def check(self) -> bool:
        """Poll the file once; reload when its stamp changed and has then stayed the same
        for ``settle`` seconds. True when something changed (a new table applied, or the
        problems list changed)."""
        stamp = _stamp(self.path)
        now = self._clock()
        if stamp != self._seen:  # changing (again): wait until it has settled
            self._seen, self._seen_at = stamp, now
        if stamp == self._stamp:
            # Two same-size writes within the filesystem's timestamp granularity leave
            # the stamp alike: while the file is fresh, compare its bytes too.
            if stamp is None or time.time_ns() - stamp[0] > RECENT_NS:
                return False
            if self._read() == self._bytes:
                return False
            self._stamp, self._seen_at = None, now  # changed in place: let it settle
        if now - self._seen_at < self.settle:
            return False
        self._stamp = stamp
        return self.reload()

    def saved(self) -> bool:
        """The file was just written whole and atomically (the card editor's save):
        adopt it now, without waiting for it to settle."""
        self._stamp = self._seen = _stamp(self.path)
        return self.reload()

    def reload(self) -> bool:
        """Read the file now (whatever its stamp) and notify subscribers of a change."""
        got = self._load()
        if isinstance(got, _Problems):
            if got == self.errors:
                return False
            self.errors = list(got)
            self._notify(False)
            return True
        had_errors = bool(self.errors)
        self.errors = []
        same_text = getattr(got, "source", None) == getattr(self.db, "source", None)
        if got.hash == self.db.hash and same_text:  # a card table keeps its text: compare it
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


def follow(*watchers: TableWatcher) -> None:
    """A page's visitor came: read each table again (it may have been edited while a
    preheated kernel waited), then poll it on the kernel's loop."""
    for watcher in watchers:
        watcher.reload()
        watcher.start()


def env_path(var: str, default: Path) -> Path:
    """The file the environment variable ``var`` names, or ``default`` when it is unset
    or empty (the table a game's pages edit and watch)."""
    env = os.environ.get(var)
    return Path(env) if env else default


class GameTableWatcher(TableWatcher):
    """A game's watcher of its own table: the subclass fixes the parser (``parse_table``)
    and the file watched when no ``path`` is given (``table_path()``); the other
    arguments are :class:`TableWatcher`'s."""

    parse_table: ClassVar[Parse]
    table_path: ClassVar[Callable[[], Path]]

    def __init__(
        self,
        path: str | Path | None = None,
        interval: float = 0.25,
        db: Any = None,
        settle: float = 1.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        cls = type(self)
        where = path if path is not None else cls.table_path()
        super().__init__(where, cls.parse_table, interval, db, settle, clock)
