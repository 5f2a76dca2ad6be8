"""Where a playtest (牌局) lives: its seats, the sequence of its actions and its notes.

A playtest is one match of any registered game played by several pages (browser kernels,
scripted clients) at once. The store is the one place they share: every page rebuilds
the match from the playtest's log header and applies the stored actions in order, each
checked against the state hash stored with it. :class:`PlaytestStore` is the interface
(a Protocol, so another database can be added); :class:`SqliteStore` is the embedded
default, one SQLite file in WAL mode under ``playtests/``.

- **Seats** carry a random token (``secrets.token_urlsafe(24)``: 192 bits) stored only
  as its SHA-256; seat ``-1`` (:data:`SPECTATOR`) is the spectator link.
- **Appending** is compare-and-set on the sequence number, in one transaction: an
  action is stored as number ``seq`` only if the playtest has exactly ``seq - 1``
  actions, so two clicks at once give one order and the loser learns it lost.
- **Leases**: the AI seats are played by the one page that holds the playtest's lease;
  a lease not renewed within its time runs out and another page takes it over.
- **Presence**: each page says when it last saw its seat; a human seat not seen for the
  playtest's idle limit is played by the AI until its person comes back.
- A file that is not a playtest store, or one locked by another program for longer than
  the timeout, raises :class:`StoreError` with the file and what went wrong.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import secrets
import sqlite3
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

SPECTATOR = -1  # the seat number of the spectator link
# the repository's playtests/ (gitignored): the same folder for the command line (run at
# the root) and for the dashboards' kernels (run in notebooks/)
DEFAULT_DIR = Path(__file__).resolve().parents[3] / "playtests"
DEFAULT_FILE = "playtests.sqlite"
SCHEMA_VERSION = 1


class StoreError(RuntimeError):
    """The store cannot be used: corrupt, locked, unwritable — names the file."""


def now() -> float:
    return time.time()


def iso(t: float) -> str:
    return datetime.fromtimestamp(t, UTC).isoformat(timespec="seconds")


def new_token() -> str:
    """A seat link's secret: 24 random bytes (192 bits), URL-safe."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class SeatSpec:
    """Who plays a seat: a person (``human``) or an agent of the game (``ai``)."""

    kind: str  # "human" | "ai"
    agent: str  # the agent that plays it when it is an AI seat (or its person is away)
    seed: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "agent": self.agent, "seed": self.seed}


@dataclass(frozen=True)
class NewPlaytest:
    """What a new playtest is made of (:meth:`PlaytestStore.create`): the game, the log
    header that rebuilds its match before the first action, its seats, the AI's think
    time, the human idle limit (seconds) and a title."""

    game: str
    header: Mapping[str, Any]
    seats: tuple[SeatSpec, ...]
    think: float = 0.5
    idle: float = 120.0
    title: str = ""


@dataclass(frozen=True)
class Playtest:
    """A playtest as stored: the game, the log header that rebuilds its match before the
    first action, its seats, the AI's think time and the human idle limit (seconds)."""

    id: str
    game: str
    header: Mapping[str, Any]
    seats: tuple[SeatSpec, ...]
    think: float = 0.5
    idle: float = 120.0
    created: float = 0.0
    title: str = ""

    @property
    def humans(self) -> list[int]:
        return [s for s, spec in enumerate(self.seats) if spec.kind == "human"]


@dataclass(frozen=True)
class StoredAction:
    seq: int  # 1 = the first action
    action: str  # its text form (what a log stores)
    hash: str  # the state hash after it
    seat: int  # who acted (the seat whose page sent it, or the AI's seat)
    by: str  # "human" or "ai"
    time: float


@dataclass(frozen=True)
class Note:
    """A playtest note (「这里不公平」) at the moment after action ``after``."""

    after: int
    seat: int  # SPECTATOR for the spectator link
    text: str
    time: float
    id: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"after": self.after, "seat": self.seat, "text": self.text, "time": iso(self.time)}


@dataclass
class Created:
    """A new playtest and the secrets of its links (shown once, stored only hashed)."""

    playtest: Playtest
    tokens: dict[int, str] = field(default_factory=dict)  # seat (or SPECTATOR) -> token


class PlaytestStore(Protocol):
    """What the playtest pages need from a database."""

    def create(self, new: NewPlaytest) -> Created:
        """Store ``new`` as a playtest with a fresh id and a link (token) for each of its
        human seats and for the spectator."""
        ...

    def get(self, pid: str) -> Playtest:
        """The playtest ``pid``; KeyError when there is none."""
        ...

    def playtests(self) -> list[Playtest]: ...

    def seat_of(self, pid: str, token: str) -> int | None:
        """The seat (or SPECTATOR) whose link carries ``token``; None for any other."""
        ...

    def actions(self, pid: str, after: int = 0) -> list[StoredAction]: ...

    def count(self, pid: str) -> int: ...

    def append(self, pid: str, seq: int, action: str, hash: str, seat: int, by: str) -> bool:
        """Store the action as number ``seq`` if the playtest has ``seq - 1`` actions
        (one transaction); False, nothing stored, if another page got there first."""
        ...

    def add_note(self, pid: str, after: int, seat: int, text: str) -> Note: ...

    def notes(self, pid: str) -> list[Note]: ...

    def lease(self, pid: str, holder: str, ttl: float) -> bool:
        """Take or renew the AI lease for ``ttl`` seconds; False while another holds it."""
        ...

    def release(self, pid: str, holder: str) -> None: ...

    def seen(self, pid: str, seat: int) -> None:
        """A page of ``seat`` is open now."""
        ...

    def last_seen(self, pid: str) -> dict[int, float]: ...

    def close(self) -> None: ...


_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS playtests (
    id TEXT PRIMARY KEY, game TEXT NOT NULL, header TEXT NOT NULL, think REAL NOT NULL,
    idle REAL NOT NULL, created REAL NOT NULL, title TEXT NOT NULL DEFAULT '');
CREATE TABLE IF NOT EXISTS seats (
    playtest TEXT NOT NULL REFERENCES playtests(id), seat INTEGER NOT NULL,
    kind TEXT NOT NULL, agent TEXT NOT NULL, seed INTEGER NOT NULL,
    token_sha256 TEXT NOT NULL, last_seen REAL NOT NULL DEFAULT 0,
    PRIMARY KEY (playtest, seat));
CREATE TABLE IF NOT EXISTS actions (
    playtest TEXT NOT NULL REFERENCES playtests(id), seq INTEGER NOT NULL,
    action TEXT NOT NULL, hash TEXT NOT NULL, seat INTEGER NOT NULL, by TEXT NOT NULL,
    time REAL NOT NULL, PRIMARY KEY (playtest, seq));
CREATE TABLE IF NOT EXISTS notes (
    id INTEGER PRIMARY KEY AUTOINCREMENT, playtest TEXT NOT NULL REFERENCES playtests(id),
    after INTEGER NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL, time REAL NOT NULL);
CREATE TABLE IF NOT EXISTS leases (
    playtest TEXT PRIMARY KEY REFERENCES playtests(id), holder TEXT NOT NULL,
    expires REAL NOT NULL);
"""


class SqliteStore:
    """The embedded store: one SQLite file (WAL) shared by every page on the machine."""

    def __init__(self, path: str | Path | None = None, timeout: float = 5.0) -> None:
        p = Path(path) if path is not None else DEFAULT_DIR / DEFAULT_FILE
        if p.is_dir():
            p = p / DEFAULT_FILE
        self.path = p
        try:
            p.parent.mkdir(parents=True, exist_ok=True)
            # autocommit mode: every transaction below is explicit (BEGIN IMMEDIATE)
            self.db = sqlite3.connect(
                str(p), timeout=timeout, isolation_level=None, check_same_thread=False
            )
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")
            self.db.execute("PRAGMA foreign_keys=ON")
            with self._tx() as c:
                for stmt in _SCHEMA.split(";"):
                    if stmt.strip():
                        c.execute(stmt)
                row = c.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    c.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
                elif row[0] != str(SCHEMA_VERSION):
                    raise StoreError(
                        f"{p}: playtest store of schema {row[0]}, this program reads {SCHEMA_VERSION}"
                    )
        except sqlite3.DatabaseError as exc:
            raise self._error(exc) from None
        except OSError as exc:
            raise StoreError(f"{p}: cannot open the playtest store: {exc}") from None

    def _error(self, exc: Exception) -> StoreError:
        msg = str(exc)
        if "locked" in msg or "busy" in msg:
            return StoreError(
                f"{self.path}: the playtest store is locked by another program ({msg}); "
                "try again, or close what holds it"
            )
        if "not a database" in msg or "malformed" in msg or "corrupt" in msg:
            return StoreError(
                f"{self.path}: the playtest store is damaged ({msg}); "
                "move it away to start a new one (the playtests in it are lost)"
            )
        return StoreError(f"{self.path}: playtest store error: {msg}")

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One write transaction, taken at once (BEGIN IMMEDIATE): no other writer
        can come between its read and its write."""
        try:
            self.db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            raise self._error(exc) from None
        try:
            yield self.db
        except BaseException:
            self._rollback()
            raise
        else:
            try:
                self.db.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                self._rollback()
                raise self._error(exc) from None

    def _rollback(self) -> None:
        with contextlib.suppress(sqlite3.DatabaseError):  # SQLite may have rolled back
            self.db.execute("ROLLBACK")

    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        try:
            return self.db.execute(sql, tuple(args)).fetchall()
        except sqlite3.DatabaseError as exc:
            raise self._error(exc) from None

    # --- playtests ----------------------------------------------------------------------
    def create(self, new: NewPlaytest) -> Created:
        pt = Playtest(
            secrets.token_hex(4), new.game, dict(new.header), tuple(new.seats),
            new.think, new.idle, now(), new.title,
        )  # fmt: skip
        seats = pt.seats
        tokens = {s: new_token() for s in [*range(len(seats)), SPECTATOR]}
        try:
            with self._tx() as c:
                c.execute(
                    "INSERT INTO playtests VALUES (?,?,?,?,?,?,?)",
                    (
                        pt.id,
                        pt.game,
                        json.dumps(pt.header, ensure_ascii=False),
                        pt.think,
                        pt.idle,
                        pt.created,
                        pt.title,
                    ),
                )
                for s, tok in tokens.items():
                    spec = seats[s] if s >= 0 else SeatSpec("spectator", "", 0)
                    c.execute(
                        "INSERT INTO seats (playtest, seat, kind, agent, seed, token_sha256)"
                        " VALUES (?,?,?,?,?,?)",
                        (pt.id, s, spec.kind, spec.agent, spec.seed, token_hash(tok)),
                    )
        except sqlite3.DatabaseError as exc:
            raise self._error(exc) from None
        human = {s: tok for s, tok in tokens.items() if s < 0 or seats[s].kind == "human"}
        return Created(pt, human)

    def _playtest(self, row: Any, seats: list[Any]) -> Playtest:
        pid, game, header, think, idle, created, title = row
        specs = tuple(SeatSpec(k, a, sd) for s, k, a, sd in seats if s >= 0)
        return Playtest(pid, game, json.loads(header), specs, think, idle, created, title)

    def get(self, pid: str) -> Playtest:
        rows = self._read("SELECT * FROM playtests WHERE id=?", (pid,))
        if not rows:
            raise KeyError(pid)
        seats = self._read(
            "SELECT seat, kind, agent, seed FROM seats WHERE playtest=? ORDER BY seat", (pid,)
        )
        return self._playtest(rows[0], seats)

    def playtests(self) -> list[Playtest]:
        ids = self._read("SELECT id FROM playtests ORDER BY created DESC")
        return [self.get(r[0]) for r in ids]

    def seat_of(self, pid: str, token: str) -> int | None:
        if not token:
            return None
        want = token_hash(token)
        for seat, have in self._read(
            "SELECT seat, token_sha256 FROM seats WHERE playtest=?", (pid,)
        ):
            if hmac.compare_digest(want, have):
                return int(seat)
        return None

    # --- actions ------------------------------------------------------------------------
    def actions(self, pid: str, after: int = 0) -> list[StoredAction]:
        rows = self._read(
            "SELECT seq, action, hash, seat, by, time FROM actions"
            " WHERE playtest=? AND seq>? ORDER BY seq",
            (pid, after),
        )
        return [StoredAction(*r) for r in rows]

    def count(self, pid: str) -> int:
        return int(self._read("SELECT COUNT(*) FROM actions WHERE playtest=?", (pid,))[0][0])

    def append(self, pid: str, seq: int, action: str, hash: str, seat: int, by: str) -> bool:
        with self._tx() as c:
            n = c.execute("SELECT COUNT(*) FROM actions WHERE playtest=?", (pid,)).fetchone()[0]
            if n != seq - 1:
                return False
            c.execute(
                "INSERT INTO actions VALUES (?,?,?,?,?,?,?)",
                (pid, seq, action, hash, seat, by, now()),
            )
        return True

    # --- notes --------------------------------------------------------------------------
    def add_note(self, pid: str, after: int, seat: int, text: str) -> Note:
        t = now()
        with self._tx() as c:
            cur = c.execute(
                "INSERT INTO notes (playtest, after, seat, text, time) VALUES (?,?,?,?,?)",
                (pid, after, seat, text, t),
            )
            nid = int(cur.lastrowid or 0)
        return Note(after, seat, text, t, nid)

    def notes(self, pid: str) -> list[Note]:
        rows = self._read(
            "SELECT after, seat, text, time, id FROM notes WHERE playtest=? ORDER BY after, id",
            (pid,),
        )
        return [Note(*r) for r in rows]

    # --- leases and presence ------------------------------------------------------------
    def lease(self, pid: str, holder: str, ttl: float) -> bool:
        t = now()
        with self._tx() as c:
            row = c.execute(
                "SELECT holder, expires FROM leases WHERE playtest=?", (pid,)
            ).fetchone()
            if row is not None and row[0] != holder and row[1] > t:
                return False
            c.execute(
                "INSERT INTO leases VALUES (?,?,?) ON CONFLICT(playtest)"
                " DO UPDATE SET holder=excluded.holder, expires=excluded.expires",
                (pid, holder, t + ttl),
            )
        return True

    def release(self, pid: str, holder: str) -> None:
        with self._tx() as c:
            c.execute("DELETE FROM leases WHERE playtest=? AND holder=?", (pid, holder))

    def seen(self, pid: str, seat: int) -> None:
        with self._tx() as c:
            c.execute(
                "UPDATE seats SET last_seen=? WHERE playtest=? AND seat=?", (now(), pid, seat)
            )

    def last_seen(self, pid: str) -> dict[int, float]:
        rows = self._read("SELECT seat, last_seen FROM seats WHERE playtest=?", (pid,))
        return {int(s): float(t) for s, t in rows}

    def close(self) -> None:
        self.db.close()


def open_store(path: str | Path | None = None) -> SqliteStore:
    """The store at ``path`` (a file or a folder), default the repository's
    ``playtests/playtests.sqlite`` (``$THRONE_PLAYTESTS`` overrides the default)."""
    import os

    if path is None and os.environ.get("THRONE_PLAYTESTS"):
        path = os.environ["THRONE_PLAYTESTS"]
    return SqliteStore(path)
