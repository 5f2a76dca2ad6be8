"""Match logs (JSON Lines) for any game: write while playing, read back, replay and check.

A log is a complete, self-contained record of a match (see ``docs/logs.md``)::

    line 1      {"format": "throne-log", "version": 1, "game": "throne", ...the game's
                 header fields..., "start_hash": ..., "created": ..., "agents": [...]}
    line i + 1  {"i": i, "action": "move b2 b3", "events": [...], "hash": "..."}
    a swap      {"swap": {"after": i, "hash": ..., "changed": [...], "cards_csv": ...}}
                (a hot swap of the card table after action i, see docs/cards_live.md)
    a note      {"note": {"after": i, "seat": "seat2", "text": "这里不公平", "time": ...}}
                (a playtest note at the moment after action i; replay skips it)
    last line   {"result": {"winner": "blue", "reason": "throne", "round": 10}}  (optional)
                (a game without its own codec also writes "seats", the seats that won:
                {"result": {"winner": "敌军", "seats": ["seat1", "seat3"], ...}})

The kit owns the framing (lines, numbering, hashes, ``FILE:LINE`` errors, replay); the
game owns its header through a :class:`LogCodec` (``Game.log_codec`` in the registry):
which fields rebuild the match before its first action, how an action is written, what
the result line says. A header without ``game`` is a Throne & Phalanx log (every log
written before the kit held more than one game). Replaying rebuilds the match from the
header, applies each action and compares the state hash after it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Protocol, TextIO

from throne_lib.kit import registry
from throne_lib.kit.protocol import DRAW, GameMatch, IllegalAction, check_identity
from throne_lib.kit.textfile import TextFileError, read_text, text_lines, write_atomic

FORMAT = "throne-log"
VERSION = 1
# The game of a header without a "game" field: the registry's default game (every log
# written before the kit held more than one game is one of its logs).
LEGACY_GAME = registry.DEFAULT_GAME
RECORD_FIELDS = ("i", "action", "events", "hash")

ErrFn = Callable[[str], "LogError"]


class LogError(ValueError):
    """A log that cannot be read or does not replay: ``FILE:LINE: message``."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        super().__init__(f"{path}:{line}: {message}")


@dataclass(frozen=True)
class AgentInfo:
    """Which agent played a seat (informational; lets a match be regenerated)."""

    name: str
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name} if self.seed is None else {"name": self.name, "seed": self.seed}


class Header(Protocol):
    """A game's parsed log header: what rebuilds the match before its first action."""

    @property
    def start_hash(self) -> str: ...

    @property
    def created(self) -> str: ...

    @property
    def agents(self) -> tuple[AgentInfo, ...]: ...

    def to_dict(self) -> dict[str, Any]: ...

    def new_match(self) -> Any:
        """The match before its first action (ValueError when it cannot be built)."""
        ...


class LogCodec(Protocol):
    """What a game gives the log (``Game.log_codec``). Card-table swaps are optional:
    a game whose matches have ``swaps`` and ``swap_cards(table)`` gives ``parse_table``
    and ``changed``; the others return ``None``/``()`` there."""

    def header_of(
        self, match: Any, agents: Sequence[AgentInfo], start_hash: str, created: str
    ) -> Header: ...

    def parse_header(self, data: Mapping[str, Any], err: ErrFn) -> Header: ...

    def action_text(self, match: Any, action: Any) -> str: ...

    def history(self, match: Any) -> Sequence[Any]: ...

    def result(self, match: Any) -> LogResult: ...

    def seat_names(self) -> Sequence[str]: ...

    def parse_table(self, text: str, want_hash: str, err: ErrFn, what: str, field: str) -> Any:
        """A card table carried by the log, loaded and checked against its hash."""
        ...

    def changed(self, old: Any, new: Any) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class LogRecord:
    """One applied action: its number (1 = first), text, events and the hash after it."""

    i: int
    action: str
    events: tuple[dict[str, Any], ...]
    hash: str
    line: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"i": self.i, "action": self.action, "events": list(self.events), "hash": self.hash}


@dataclass(frozen=True)
class LogResult:
    """The result line. ``winner``: the winner as result tables label it
    (``Game.winner``: a seat name, a side, a role, a team …) or None when nobody won (a
    draw). ``seats``: the names of the seats that won ([] for a draw); None for a line
    without them (Throne's codec, whose winner is a seat, and logs written before a win
    by several seats was named: their ``winner`` is a seat name or null)."""

    winner: str | None
    reason: str
    round: int
    line: int = 0
    seats: tuple[str, ...] | None = None

    def to_dict(self) -> dict[str, Any]:
        res: dict[str, Any] = {"winner": self.winner}
        if self.seats is not None:
            res["seats"] = list(self.seats)
        res.update(reason=self.reason, round=self.round)
        return {"result": res}

    def same(self, other: LogResult) -> bool:
        """The same result, whichever line each was read from."""
        key = (self.winner, self.seats, self.reason, self.round)
        return key == (other.winner, other.seats, other.reason, other.round)

    @classmethod
    def of(cls, match: Any, game: str | None = None) -> LogResult:
        """The result line of a finished ``match`` of ``game`` (default: the match's)."""
        return codec(game or game_of(match)).result(match)


@dataclass(frozen=True)
class LogSwap:
    """A hot swap of the card table after action ``after`` (0: before the first)."""

    after: int
    db: Any  # the game's table object (Throne: a CardDB); has ``hash`` and ``source``
    changed: tuple[str, ...] = ()
    line: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "swap": {
                "after": self.after,
                "hash": self.db.hash,
                "changed": list(self.changed),
                "cards_csv": self.db.source,
            }
        }


@dataclass(frozen=True)
class LogNote:
    """A playtest note (docs/playtests.md) at the moment after action ``after``
    (0: before the first); ``seat`` is a seat name or "spectator". Replay ignores notes."""

    after: int
    seat: str
    text: str
    time: str = ""
    line: int = 0

    def to_dict(self) -> dict[str, Any]:
        note = {"after": self.after, "seat": self.seat, "text": self.text, "time": self.time}
        return {"note": note}


@dataclass
class LogFile:
    path: str
    header: Any  # the game's Header (Throne: games.throne.log.LogHeader)
    records: list[LogRecord] = field(default_factory=list)
    result: LogResult | None = None
    swaps: list[LogSwap] = field(default_factory=list)
    game: str = LEGACY_GAME
    notes: list[LogNote] = field(default_factory=list)

    @property
    def actions(self) -> list[str]:
        return [r.action for r in self.records]


@dataclass(frozen=True)
class SimpleHeader:
    """The header of a game without its own codec: seed, setups, options (all JSON)."""

    game: str
    seed: int
    setups: tuple[Any, ...]
    options: Mapping[str, Any]
    start_hash: str = ""
    created: str = ""
    agents: tuple[AgentInfo, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seed": self.seed,
            "setups": list(self.setups),
            "options": dict(self.options),
            "start_hash": self.start_hash,
            "created": self.created,
        }
        if self.agents:
            data["agents"] = [a.to_dict() for a in self.agents]
        return data

    def new_match(self) -> Any:
        return registry.get(self.game).new(list(self.setups), self.seed, **dict(self.options))


class SimpleCodec:
    """The log codec of a game that registers none: its matches keep ``seed``,
    ``setups`` (JSON-able) and ``options`` (JSON-able) attributes and a ``history`` of
    actions with a ``text()`` form; no card-table swaps. The result line names the
    winner as result tables do (``Game.winner``; None for a draw), the seats that won,
    the match's ``end_reason`` when it has one (else "over"), and ``round`` is the
    number of actions."""

    def __init__(self, game: registry.Game) -> None:
        self.game = game

    def header_of(
        self, match: Any, agents: Sequence[AgentInfo], start_hash: str, created: str
    ) -> SimpleHeader:
        options = dict(getattr(match, "options", {}) or {})
        return SimpleHeader(
            self.game.name,
            match.seed,
            tuple(match.setups),
            options,
            start_hash,
            created,
            tuple(agents),
        )

    def parse_header(self, data: Mapping[str, Any], err: ErrFn) -> SimpleHeader:
        setups = field_of(data, "setups", list, err)
        try:
            self.game.check_seats(len(setups))
        except ValueError as exc:
            raise err(f"field 'setups': {exc}") from None
        options = data.get("options") or {}
        if not isinstance(options, dict):
            raise err(f"field 'options': expected an object, got {type(options).__name__}")
        return SimpleHeader(
            self.game.name,
            field_of(data, "seed", int, err),
            tuple(setups),
            dict(options),
            str(data.get("start_hash") or ""),
            str(data.get("created") or ""),
            agents_of(data),
        )

    def action_text(self, match: Any, action: Any) -> str:
        return str(action.text())

    def history(self, match: Any) -> Sequence[Any]:
        h: Sequence[Any] = match.history
        return h

    def result(self, match: Any) -> LogResult:
        label = self.game.winner(match)
        won = () if label == DRAW else registry.winning_seats(match.returns())
        reason = str(getattr(match, "end_reason", "") or "over")
        seats = tuple(self.game.seat_name(s) for s in won)
        return LogResult(label if seats else None, reason, len(self.history(match)), 0, seats)

    def legacy_result(self, match: Any) -> LogResult:
        """The result line as written before it named a win by several seats (the one
        seat with the best return, else null; reason "over"): old logs check against it."""
        r = list(match.returns())
        win = [s for s, v in enumerate(r) if v == max(r)]
        winner = self.game.seat_name(win[0]) if len(win) == 1 else None
        return LogResult(winner, "over", len(self.history(match)))

    def seat_names(self) -> Sequence[str]:
        return [self.game.seat_name(s) for s in range(self.game.seats[1])]

    def parse_table(self, text: str, want_hash: str, err: ErrFn, what: str, field: str) -> Any:
        raise err(f"{self.game.name} has no card table to swap")

    def changed(self, old: Any, new: Any) -> tuple[str, ...]:
        return ()


def codec(game: str) -> LogCodec:
    """The log codec of ``game`` (its own, or :class:`SimpleCodec`)."""
    g = registry.get(game)
    own = g.hook("log_codec")
    c: LogCodec = own if own is not None else SimpleCodec(g)
    return c


def game_of(match: Any) -> str:
    """The registry name of ``match``'s game (its ``game`` attribute);
    :class:`~throne_lib.kit.protocol.ContractError` when it lacks what a log needs."""
    check_identity(match)
    return str(match.game)


# --- writing ---------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _events(events: Iterable[Any]) -> list[dict[str, Any]]:
    """Events in the form the log stores them: JSON values (a game's tuple is a list)."""
    out: list[dict[str, Any]] = json.loads(json.dumps([e.to_dict() for e in events]))
    return out


def header_dict(game: str, header: Header) -> dict[str, Any]:
    data = header.to_dict()
    return {"format": FORMAT, "version": VERSION, "game": game, **data}


def header_of(match: Any, agents: Sequence[AgentInfo] = (), start_hash: str | None = None) -> Any:
    """The header of ``match``'s log; ``start_hash`` is the hash before any action
    (computed by rebuilding the match when it already has a history)."""
    c = codec(game_of(match))
    if start_hash is None:
        start_hash = match.hash() if not c.history(match) else _fresh(match).hash()
    return c.header_of(match, tuple(agents), start_hash, _now())


def _fresh(match: Any) -> Any:
    return header_of(match, start_hash="").new_match()


def _swap_lines(c: LogCodec, match: Any, fresh: Any, after: int) -> list[dict[str, Any]]:
    """Apply to ``fresh`` the swaps ``match`` made after action ``after``; their lines."""
    out = []
    for n, db in getattr(match, "swaps", ()):
        if n == after:
            old = fresh.db
            fresh.swap_cards(db)
            out.append(LogSwap(n, db, c.changed(old, db)).to_dict())
    return out


def log_lines(match: Any, agents: Sequence[AgentInfo] = ()) -> list[dict[str, Any]]:
    """The whole log of ``match`` as dicts, rebuilt by replaying its history."""
    game = game_of(match)
    c = codec(game)
    fresh = _fresh(match)
    lines: list[dict[str, Any]] = [header_dict(game, header_of(match, agents, fresh.hash()))]
    lines += _swap_lines(c, match, fresh, 0)
    for i, action in enumerate(c.history(match), start=1):
        events = fresh.apply(action)
        text = c.action_text(fresh, action)
        lines.append(LogRecord(i, text, tuple(_events(events)), fresh.hash()).to_dict())
        lines += _swap_lines(c, match, fresh, i)
    if fresh.is_over:
        lines.append(c.result(fresh).to_dict())
    return lines


def write_log(match: Any, path: str | Path, agents: Sequence[AgentInfo] = ()) -> Path:
    """Write ``match``'s log (from its history) to ``path``."""
    p = Path(path)
    text = "".join(_dumps(line) + "\n" for line in log_lines(match, agents))
    write_atomic(p, text)  # a match that cannot be logged leaves no file behind
    return p


def match_log(match: Any, agents: Sequence[AgentInfo] = (), name: str = "本局") -> LogFile:
    """The log of a match played here, in memory (``name`` stands for its path in
    errors and titles): a page's 复盘 of the match just played."""
    return parse_log("".join(_dumps(line) + "\n" for line in log_lines(match, agents)), name)


class MatchRecorder:
    """Plays a match and writes its log as it goes, one flushed line per action."""

    def __init__(
        self, match: Any, out: str | Path | TextIO, agents: Sequence[AgentInfo] = ()
    ) -> None:
        self.match = match
        self.game = game_of(match)
        self.codec = codec(self.game)
        # the header line before any file opens: a match that cannot be logged leaves none
        header = _dumps(header_dict(self.game, header_of(match, agents)))
        self._own = isinstance(out, str | Path)
        if isinstance(out, str | Path):
            self._out: TextIO = Path(out).open("w", encoding="utf-8")  # noqa: SIM115
        else:
            self._out = out
        self._result_written = False
        self._out.write(header + "\n")
        self._out.flush()
        if self.codec.history(match):  # catch up: the records of the actions already played
            for line in log_lines(match)[1:]:
                if "result" not in line:
                    self._write(line)
        elif getattr(match, "swaps", None):  # swaps before the first action
            for line in log_lines(match)[1:]:
                self._write(line)

    def _write(self, data: dict[str, Any]) -> None:
        self._out.write(_dumps(data) + "\n")
        self._out.flush()

    def apply(self, action: Any) -> list[Any]:
        """Apply ``action`` to the match and log it (and the result once the match ends)."""
        events: list[Any] = self.match.apply(action)
        self.record(self.codec.history(self.match)[-1], events)
        return events

    def record(self, action: Any, events: Sequence[Any]) -> None:
        """Log an action that was just applied to the match."""
        m = self.match
        n = len(self.codec.history(m))
        text = self.codec.action_text(m, action)
        self._write(LogRecord(n, text, tuple(_events(events)), m.hash()).to_dict())
        if m.is_over and not self._result_written:
            self._write(self.codec.result(m).to_dict())
            self._result_written = True

    def swap(self, db: Any) -> Any:
        """Hot swap ``db`` into the match (``swap_cards``) and log it, so a replay applies
        it at the same point; ``ValueError`` (nothing logged) if refused."""
        old = self.match.db
        event = self.match.swap_cards(db)
        n = len(self.codec.history(self.match))
        self._write(LogSwap(n, db, self.codec.changed(old, db)).to_dict())
        return event

    def close(self) -> None:
        if self._own:
            self._out.close()

    def __enter__(self) -> MatchRecorder:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


# --- reading ---------------------------------------------------------------------------


def field_of(data: Mapping[str, Any], name: str, kind: type | tuple[type, ...], err: ErrFn) -> Any:
    """``data[name]`` checked against ``kind``; ``err(message)`` otherwise (for codecs)."""
    if name not in data:
        raise err(f"missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise err(f"field {name!r}: expected {expected}, got {type(value).__name__}")
    return value


def agents_of(data: Mapping[str, Any]) -> tuple[AgentInfo, ...]:
    return tuple(AgentInfo(str(a["name"]), a.get("seed")) for a in data.get("agents") or ())


def _parse_header(data: dict[str, Any], path: str) -> tuple[str, Header]:
    def err(msg: str) -> LogError:
        return LogError(path, 1, msg)

    fmt = data.get("format")
    if fmt != FORMAT:
        raise err(f"not a throne log (format {fmt!r}, expected {FORMAT!r})")
    version = data.get("version")
    if version != VERSION:
        raise err(f"unknown log version {version!r} (this program reads version {VERSION})")
    game = data.get("game", LEGACY_GAME)
    try:
        c = codec(str(game))
    except ValueError as exc:
        raise err(str(exc)) from None
    return str(game), c.parse_header(data, err)


def _parse_record(data: dict[str, Any], path: str, line: int, expected_i: int) -> LogRecord:
    def err(msg: str) -> LogError:
        return LogError(path, line, msg)

    for name in RECORD_FIELDS:
        if name not in data:
            raise err(f"missing field {name!r} in an action record")
    i = field_of(data, "i", int, err)
    if i != expected_i:
        raise err(
            f"action number {str(i)[:20]}{'…' if len(str(i)) > 20 else ''}, expected {expected_i}"
        )
    events = field_of(data, "events", list, err)
    return LogRecord(
        i, field_of(data, "action", str, err), tuple(events), field_of(data, "hash", str, err), line
    )


def _parse_swap(c: LogCodec, data: dict[str, Any], path: str, line: int, after: int) -> LogSwap:
    def err(msg: str) -> LogError:
        return LogError(path, line, msg)

    swap = field_of(data, "swap", dict, err)
    db = c.parse_table(
        field_of(swap, "cards_csv", str, err),
        field_of(swap, "hash", str, err),
        err,
        "swapped-in",
        "swap hash",
    )
    if swap.get("after", after) != after:
        raise err(f"swap after action {swap.get('after')!r}, but it follows action {after}")
    changed = tuple(str(c) for c in swap.get("changed") or ())
    return LogSwap(after, db, changed, line)


def _parse_result(c: LogCodec, data: dict[str, Any], path: str, line: int) -> LogResult:
    def err(msg: str) -> LogError:
        return LogError(path, line, msg)

    res = field_of(data, "result", dict, err)
    winner = res.get("winner")
    names = list(c.seat_names())
    seats: tuple[str, ...] | None = None
    if "seats" in res:  # the winner is the game's label (a side, a team …), seats name seats
        listed = res["seats"]
        if not isinstance(listed, list):
            raise err(f"result seats {listed!r}: expected a list of seat names")
        for seat in listed:
            if seat not in names:
                raise err(f"result seats: {seat!r} is no seat: expected {', '.join(names)}")
        seats = tuple(listed)
        if winner is not None and not (isinstance(winner, str) and winner):
            raise err(f"result winner {winner!r}: expected the winner's name or null")
    elif winner is not None and winner not in names:
        raise err(f"result winner {winner!r}: expected {', '.join(names)} or null")
    reason, rnd = str(field_of(res, "reason", str, err)), field_of(res, "round", int, err)
    return LogResult(winner, reason, rnd, line, seats)


def _parse_note(data: dict[str, Any], path: str, line: int, after: int) -> LogNote:
    def err(msg: str) -> LogError:
        return LogError(path, line, msg)

    note = field_of(data, "note", dict, err)
    if note.get("after", after) != after:
        raise err(f"note after action {note.get('after')!r}, but it follows action {after}")
    return LogNote(
        after,
        str(note.get("seat", "")),
        field_of(note, "text", str, err),
        str(note.get("time", "")),
        line,
    )


REPOSITORY_LOGS = Path(__file__).resolve().parents[2] / "logs"


def logs_dir(env: str) -> Path:
    """Where a game's play page writes its matches' logs and its replay page lists them:
    the folder the environment variable ``env`` names (``THRONE_LOGS``, ``CASTLE_LOGS``
    for 城堡之心 and 城池战, ``PIN_LOGS``, ``GOOFSPIEL_LOGS``), else the repository's ``logs/``."""
    import os

    value = os.environ.get(env)
    return Path(value) if value else REPOSITORY_LOGS


def log_files(folder: Path, game: str) -> list[Path]:
    """The logs of ``game`` in ``folder`` (``*.jsonl`` whose header names it; a header
    without ``game`` is Throne's), newest first (their names sort by time). A file whose
    first line is not a header of any game is left out: another tool's JSON Lines."""
    out = []
    for p in sorted(folder.glob("*.jsonl"), reverse=True):
        try:
            with p.open(encoding="utf-8") as f:
                head = json.loads(f.readline() or "{}")
        except (OSError, ValueError):
            continue
        if (
            isinstance(head, dict)
            and head.get("format") == FORMAT
            and head.get("game", LEGACY_GAME) == game
        ):
            out.append(p)
    return out


def read_log(path: str | Path) -> LogFile:
    """Read and validate a log file; raise :class:`LogError` naming the line."""
    p = Path(path)
    name = str(path)
    try:
        text = read_text(p, name)
    except OSError as exc:
        raise LogError(name, 0, f"cannot read: {exc.strerror or exc}") from None
    except TextFileError as exc:  # at the line of the bad byte, not always line 1
        raise LogError(name, exc.line, f"column {exc.column}: {exc.problem}") from None
    return parse_log(text, name)


def parse_log(text: str, path: str = "<log>") -> LogFile:
    """Parse the text of a log (see :func:`read_log`)."""
    lines = text_lines(text)
    if not any(line.strip() for line in lines):
        raise LogError(path, 1, "empty file: expected a throne-log header line")
    log: LogFile | None = None
    c: LogCodec | None = None
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            cut = " (truncated line?)" if n == len(lines) and not text.endswith("\n") else ""
            raise LogError(path, n, f"bad JSON{cut}: {exc.msg} at column {exc.colno}") from None
        except RecursionError:
            raise LogError(path, n, "bad JSON: nested too deeply") from None
        except ValueError as exc:  # e.g. an integer of more than 4300 digits
            raise LogError(path, n, f"bad JSON: {exc}") from None
        if not isinstance(data, dict):
            raise LogError(path, n, f"expected a JSON object, got {type(data).__name__}")
        if log is None or c is None:
            if n != 1:
                raise LogError(path, n, "the header must be on line 1")
            game, header = _parse_header(data, path)
            log, c = LogFile(path, header, game=game), codec(game)
        elif log.result is not None:
            raise LogError(path, n, f"unexpected line after the result (line {log.result.line})")
        elif "result" in data:
            log.result = _parse_result(c, data, path, n)
        elif "swap" in data:
            log.swaps.append(_parse_swap(c, data, path, n, len(log.records)))
        elif "note" in data:
            log.notes.append(_parse_note(data, path, n, len(log.records)))
        else:
            log.records.append(_parse_record(data, path, n, len(log.records) + 1))
    assert log is not None
    return log


# --- replaying -------------------------------------------------------------------------


def _first_difference(logged: list[Any], replayed: list[dict[str, Any]]) -> str:
    for k, (a, b) in enumerate(zip(logged, replayed, strict=False), start=1):
        if a != b:
            return f"event {k}: log has {json.dumps(a, ensure_ascii=False)[:120]}, replay gives {json.dumps(b, ensure_ascii=False)[:120]}"
    return f"log has {len(logged)} events, replay gives {len(replayed)}"


def replay(log: LogFile | str | Path, check: bool = True) -> Any:
    """Rebuild the match of a log from its header and apply every action; with
    ``check``, compare the state hash after each action (and the result) and raise
    :class:`LogError` with the line on a mismatch."""
    last: Any = None
    for _, step in iter_replay(log, check):
        last = step
    assert last is not None
    return last


def iter_replay(
    log: LogFile | str | Path, check: bool = True
) -> Iterator[tuple[LogRecord | None, Any]]:
    """Step through a log: yield ``(None, match)`` after the setup, then
    ``(record, match)`` after each action (the same, mutating match object:
    copy it to keep a step). Checks as :func:`replay` does."""
    lf = log if isinstance(log, LogFile) else read_log(log)
    c = codec(lf.game)
    h = lf.header
    try:
        match: GameMatch = h.new_match()
    except (ValueError, TypeError, KeyError) as exc:  # the header's fields, as the game reads them
        raise LogError(lf.path, 1, f"cannot set up the match: {exc}") from None
    if check and h.start_hash and match.hash() != h.start_hash:
        raise LogError(
            lf.path, 1, f"start hash mismatch: log has {h.start_hash}, setup gives {match.hash()}"
        )
    swaps = sorted(lf.swaps, key=lambda s: s.after)

    def apply_swaps(after: int) -> None:
        while swaps and swaps[0].after <= after:
            sw = swaps.pop(0)
            try:
                match.swap_cards(sw.db)  # type: ignore[attr-defined]
            except ValueError as exc:
                raise LogError(lf.path, sw.line, f"swap: {exc}") from None

    apply_swaps(0)
    yield None, match
    for rec in lf.records:
        apply_swaps(rec.i - 1)
        if match.is_over:
            raise LogError(
                lf.path, rec.line, f"action {rec.i} {rec.action!r} after the match ended"
            )
        try:
            events = match.apply(rec.action)
        except IllegalAction as exc:
            raise LogError(lf.path, rec.line, f"action {rec.i}: {exc}") from None
        except ValueError as exc:
            raise LogError(lf.path, rec.line, f"action {rec.i}: {exc}") from None
        if check:  # the events too: a log whose events were edited disagrees with itself
            replayed = _events(events)
            if replayed != list(rec.events):
                raise LogError(
                    lf.path,
                    rec.line,
                    f"events of action {rec.i} {rec.action!r} differ from "
                    f"the replay: {_first_difference(list(rec.events), replayed)}",
                )
        if check and match.hash() != rec.hash:
            raise LogError(
                lf.path,
                rec.line,
                f"state hash mismatch after action {rec.i} {rec.action!r}: "
                f"log has {rec.hash}, replay gives {match.hash()}",
            )
        apply_swaps(rec.i)
        yield rec, match
    apply_swaps(len(lf.records))
    if check and lf.result is not None:
        got = c.result(match) if match.is_over else None
        legacy = getattr(c, "legacy_result", None)
        if got is not None and lf.result.seats is None and got.seats is not None and legacy:
            got = legacy(match)  # a line written before results named several seats
        if got is None or not got.same(lf.result):
            have = getattr(match, "result_text", lambda: "not over")()
            want = lf.result.to_dict()["result"]
            raise LogError(
                lf.path, lf.result.line, f"result {want} does not match the replay ({have})"
            )
