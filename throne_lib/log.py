"""Match logs (JSON Lines): write while playing, read back, replay and check.

A log is a complete, self-contained record of a match (see ``docs/logs.md``)::

    line 1      {"format": "throne-log", "version": 1, "cards_hash": ..., "cards_csv": ...,
                 "rules": {...}, "seed": 7, "sides": [{...}, {...}], "start_hash": ...}
    line i + 1  {"i": i, "action": "move b2 b3", "events": [...], "hash": "..."}
    a swap      {"swap": {"after": i, "hash": ..., "changed": [...], "cards_csv": ...}}
                (a hot swap of the card table after action i, see docs/cards_live.md)
    last line   {"result": {"winner": "blue", "reason": "throne", "round": 10}}  (optional)

The card table's whole text is embedded, so an old log replays after ``cards.csv``
has changed. Replaying rebuilds the match from (table, rules, seed, sides), applies
each action and compares the state hash after it (R-TURN-12: a match is determined
by its seed and its actions).

>>> from throne_lib import load_cards, Match, SideSetup
>>> db = load_cards()
>>> m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "beast"), 3)
>>> lines = log_lines(m)
>>> lines[0]["format"], len(lines)
('throne-log', 1)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from throne_lib.games.throne.actions import Action, Event
from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.cards import CardDB, CardTableError, parse_cards
from throne_lib.games.throne.match import IllegalAction, Match, SideSetup
from throne_lib.games.throne.rules import Rules

FORMAT = "throne-log"
VERSION = 1
HEADER_FIELDS = ("format", "version", "cards_hash", "cards_csv", "rules", "seed", "sides")
RECORD_FIELDS = ("i", "action", "events", "hash")


class LogError(ValueError):
    """A log that cannot be read or does not replay: ``FILE:LINE: message``."""

    def __init__(self, path: str, line: int, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        super().__init__(f"{path}:{line}: {message}")


@dataclass(frozen=True)
class AgentInfo:
    """Which agent played a side (informational; lets a match be regenerated)."""

    name: str
    seed: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name} if self.seed is None else {"name": self.name, "seed": self.seed}


@dataclass(frozen=True)
class LogHeader:
    db: CardDB
    rules: Rules
    seed: int
    sides: tuple[SideSetup, SideSetup]
    start_hash: str = ""
    created: str = ""
    agents: tuple[AgentInfo, ...] = ()
    scenario: str = ""  # the scenario text the match started from (scenario.py), if any

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "cards_hash": self.db.hash,
            "cards_csv": self.db.source,
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "sides": [s.to_dict() for s in self.sides],
            "start_hash": self.start_hash,
            "created": self.created,
        }
        if self.agents:
            data["agents"] = [a.to_dict() for a in self.agents]
        if self.scenario:
            data["scenario"] = self.scenario
        return data

    def new_match(self) -> Match:
        """The match before its first action: from the scenario text when there is
        one, else ``Match.new`` (raises ``ValueError`` when it cannot be built)."""
        if self.scenario:
            from throne_lib.games.throne.scenario import load_scenario

            return load_scenario(self.scenario, self.db, self.rules)
        return Match.new(self.db, self.sides[0], self.sides[1], self.seed, self.rules)


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
    winner: str | None  # "blue", "red" or None for a draw
    reason: str
    round: int
    line: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {"result": {"winner": self.winner, "reason": self.reason, "round": self.round}}

    @classmethod
    def of(cls, match: Match) -> LogResult:
        winner = None if match.winner is None else SIDE_NAMES[match.winner]
        return cls(winner, match.end_reason, match.round)


@dataclass(frozen=True)
class LogSwap:
    """A hot swap of the card table after action ``after`` (0: before the first)."""

    after: int
    db: CardDB
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


@dataclass
class LogFile:
    path: str
    header: LogHeader
    records: list[LogRecord] = field(default_factory=list)
    result: LogResult | None = None
    swaps: list[LogSwap] = field(default_factory=list)

    @property
    def actions(self) -> list[str]:
        return [r.action for r in self.records]


# --- writing ---------------------------------------------------------------------------


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _events(events: Iterable[Event]) -> list[dict[str, Any]]:
    return [e.to_dict() for e in events]


def header_of(
    match: Match, agents: Sequence[AgentInfo] = (), start_hash: str | None = None
) -> LogHeader:
    """The header of ``match``'s log; ``start_hash`` is the hash before any action
    (computed by rebuilding the match when it already has a history)."""
    if start_hash is None:
        start_hash = match.hash() if not match.history else _fresh(match).hash()
    return LogHeader(
        match.initial_db,
        match.rules,
        match.seed,
        match.setups,
        start_hash,
        _now(),
        tuple(agents),
        match.scenario,
    )


def _fresh(match: Match) -> Match:
    return header_of(match, start_hash="").new_match()


def _changed(old: CardDB, new: CardDB) -> tuple[str, ...]:
    return tuple(sorted(c for c in new if c not in old or old[c] != new[c]))


def _swap_lines(match: Match, fresh: Match, after: int) -> list[dict[str, Any]]:
    """Apply to ``fresh`` the swaps ``match`` made after action ``after``; their lines."""
    out = []
    for n, db in match.swaps:
        if n == after:
            old = fresh.db
            fresh.swap_cards(db)
            out.append(LogSwap(n, db, _changed(old, db)).to_dict())
    return out


def log_lines(match: Match, agents: Sequence[AgentInfo] = ()) -> list[dict[str, Any]]:
    """The whole log of ``match`` as dicts, rebuilt by replaying its history."""
    fresh = _fresh(match)
    lines: list[dict[str, Any]] = [header_of(match, agents, fresh.hash()).to_dict()]
    lines += _swap_lines(match, fresh, 0)
    for i, action in enumerate(match.history, start=1):
        events = fresh.apply(action)
        lines.append(
            LogRecord(i, action.text(fresh.geo), tuple(_events(events)), fresh.hash()).to_dict()
        )
        lines += _swap_lines(match, fresh, i)
    if fresh.is_over:
        lines.append(LogResult.of(fresh).to_dict())
    return lines


def write_log(match: Match, path: str | Path, agents: Sequence[AgentInfo] = ()) -> Path:
    """Write ``match``'s log (from its history) to ``path``."""
    p = Path(path)
    with p.open("w", encoding="utf-8") as f:
        for line in log_lines(match, agents):
            f.write(_dumps(line) + "\n")
    return p


class MatchRecorder:
    """Plays a match and writes its log as it goes, one flushed line per action.

    >>> import io
    >>> from throne_lib import load_cards, Match, SideSetup
    >>> db = load_cards()
    >>> m = Match.new(db, SideSetup.signature(db, "elf"), SideSetup.signature(db, "demon"), 1)
    >>> out = io.StringIO()
    >>> rec = MatchRecorder(m, out)
    >>> _ = rec.apply(m.legal_actions()[0])
    >>> len(out.getvalue().splitlines())
    2
    """

    def __init__(
        self,
        match: Match,
        out: str | Path | TextIO,
        agents: Sequence[AgentInfo] = (),
    ) -> None:
        self.match = match
        self._own = isinstance(out, str | Path)
        if isinstance(out, str | Path):
            self._out: TextIO = Path(out).open("w", encoding="utf-8")  # noqa: SIM115
        else:
            self._out = out
        self._result_written = False
        header = header_of(match, agents)
        self._write(header.to_dict())
        if match.history:  # catch up: rebuild the records of the actions already played
            for line in log_lines(match)[1:]:
                if "result" not in line:
                    self._write(line)
        elif match.swaps:  # swaps before the first action
            for line in log_lines(match)[1:]:
                self._write(line)

    def _write(self, data: dict[str, Any]) -> None:
        self._out.write(_dumps(data) + "\n")
        self._out.flush()

    def apply(self, action: Action | str) -> list[Event]:
        """Apply ``action`` to the match and log it (and the result once the match ends)."""
        events = self.match.apply(action)
        self.record(self.match.history[-1], events)
        return events

    def record(self, action: Action, events: Sequence[Event]) -> None:
        """Log an action that was just applied to the match."""
        m = self.match
        self._write(
            LogRecord(
                len(m.history), action.text(m.geo), tuple(_events(events)), m.hash()
            ).to_dict()
        )
        if m.is_over and not self._result_written:
            self._write(LogResult.of(m).to_dict())
            self._result_written = True

    def swap(self, db: CardDB) -> Event:
        """Hot swap ``db`` into the match (``Match.swap_cards``) and log it, so a replay
        applies it at the same point; ``ValueError`` (nothing logged) if refused."""
        old = self.match.db
        event = self.match.swap_cards(db)
        self._write(LogSwap(len(self.match.history), db, _changed(old, db)).to_dict())
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


def _field(data: dict[str, Any], name: str, kind: type | tuple[type, ...], err: Any) -> Any:
    if name not in data:
        raise err(f"missing field {name!r}")
    value = data[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        expected = kind.__name__ if isinstance(kind, type) else "/".join(k.__name__ for k in kind)
        raise err(f"field {name!r}: expected {expected}, got {type(value).__name__}")
    return value


def _parse_header(data: dict[str, Any], path: str) -> LogHeader:
    def err(msg: str) -> LogError:
        return LogError(path, 1, msg)

    fmt = data.get("format")
    if fmt != FORMAT:
        raise err(f"not a throne log (format {fmt!r}, expected {FORMAT!r})")
    version = data.get("version")
    if version != VERSION:
        raise err(f"unknown log version {version!r} (this program reads version {VERSION})")
    for name in HEADER_FIELDS:
        if name not in data:
            raise err(f"missing header field {name!r}")
    db = _embedded_table(
        _field(data, "cards_csv", str, err),
        _field(data, "cards_hash", str, err),
        err,
        "embedded",
        "cards_hash",
    )
    try:
        rules = Rules.from_dict(_field(data, "rules", dict, err))
        sides_raw = _field(data, "sides", list, err)
        if len(sides_raw) != 2 or not all(isinstance(s, dict) for s in sides_raw):
            raise err("field 'sides': expected a list of 2 objects (blue, red)")
        sides = (SideSetup.from_dict(sides_raw[0]), SideSetup.from_dict(sides_raw[1]))
        agents = tuple(AgentInfo(str(a["name"]), a.get("seed")) for a in data.get("agents") or ())
    except (KeyError, TypeError, ValueError, AssertionError) as exc:
        if isinstance(exc, LogError):
            raise
        raise err(f"bad header: {type(exc).__name__}: {exc}") from None
    return LogHeader(
        db,
        rules,
        _field(data, "seed", int, err),
        sides,
        str(data.get("start_hash") or ""),
        str(data.get("created") or ""),
        agents,
        str(data.get("scenario") or ""),
    )


def _parse_record(data: dict[str, Any], path: str, line: int, expected_i: int) -> LogRecord:
    def err(msg: str) -> LogError:
        return LogError(path, line, msg)

    for name in RECORD_FIELDS:
        if name not in data:
            raise err(f"missing field {name!r} in an action record")
    i = _field(data, "i", int, err)
    if i != expected_i:
        raise err(f"action number {i}, expected {expected_i}")
    events = _field(data, "events", list, err)
    return LogRecord(
        i, _field(data, "action", str, err), tuple(events), _field(data, "hash", str, err), line
    )


def _embedded_table(
    text: str, want_hash: str, err: Callable[[str], LogError], what: str, field: str
) -> CardDB:
    """A card table carried by the log, loaded and checked against its recorded hash."""
    try:
        db = parse_cards(text, "cards.csv")
    except CardTableError as exc:
        raise err(f"the {what} card table does not load:\n" + "\n".join(exc.problems)) from None
    if want_hash != db.hash:
        raise err(f"{field} {want_hash} does not match the {what} table ({db.hash})")
    return db


def _parse_swap(data: dict[str, Any], path: str, line: int, after: int) -> LogSwap:
    def err(msg: str) -> LogError:
        return LogError(path, line, msg)

    swap = _field(data, "swap", dict, err)
    db = _embedded_table(
        _field(swap, "cards_csv", str, err),
        _field(swap, "hash", str, err),
        err,
        "swapped-in",
        "swap hash",
    )
    if swap.get("after", after) != after:
        raise err(f"swap after action {swap.get('after')!r}, but it follows action {after}")
    changed = tuple(str(c) for c in swap.get("changed") or ())
    return LogSwap(after, db, changed, line)


def _parse_result(data: dict[str, Any], path: str, line: int) -> LogResult:
    def err(msg: str) -> LogError:
        return LogError(path, line, msg)

    res = _field(data, "result", dict, err)
    winner = res.get("winner")
    if winner is not None and winner not in SIDE_NAMES:
        raise err(f"result winner {winner!r}: expected blue, red or null")
    return LogResult(
        winner, str(_field(res, "reason", str, err)), _field(res, "round", int, err), line
    )


def read_log(path: str | Path) -> LogFile:
    """Read and validate a log file; raise :class:`LogError` naming the line."""
    p = Path(path)
    name = str(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise LogError(name, 0, f"cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise LogError(name, 1, f"not UTF-8 text ({exc.reason})") from None
    return parse_log(text, name)


def parse_log(text: str, path: str = "<log>") -> LogFile:
    """Parse the text of a log (see :func:`read_log`)."""
    lines = text.splitlines()
    if not any(line.strip() for line in lines):
        raise LogError(path, 1, "empty file: expected a throne-log header line")
    log: LogFile | None = None
    for n, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            data = json.loads(raw)
        except json.JSONDecodeError as exc:
            cut = " (truncated line?)" if n == len(lines) and not text.endswith("\n") else ""
            raise LogError(path, n, f"bad JSON{cut}: {exc.msg} at column {exc.colno}") from None
        if not isinstance(data, dict):
            raise LogError(path, n, f"expected a JSON object, got {type(data).__name__}")
        if log is None:
            if n != 1:
                raise LogError(path, n, "the header must be on line 1")
            log = LogFile(path, _parse_header(data, path))
        elif log.result is not None:
            raise LogError(path, n, f"unexpected line after the result (line {log.result.line})")
        elif "result" in data:
            log.result = _parse_result(data, path, n)
        elif "swap" in data:
            log.swaps.append(_parse_swap(data, path, n, len(log.records)))
        else:
            log.records.append(_parse_record(data, path, n, len(log.records) + 1))
    assert log is not None
    return log


# --- replaying -------------------------------------------------------------------------


def replay(log: LogFile | str | Path, check: bool = True) -> Match:
    """Rebuild the match of a log from its embedded table, rules, seed and sides and
    apply every action; with ``check``, compare the state hash after each action
    (and the result) and raise :class:`LogError` with the line on a mismatch."""
    last: Match | None = None
    for _, step in iter_replay(log, check):
        last = step
    assert last is not None
    return last


def iter_replay(
    log: LogFile | str | Path, check: bool = True
) -> Iterator[tuple[LogRecord | None, Match]]:
    """Step through a log: yield ``(None, match)`` after the setup, then
    ``(record, match)`` after each action (the same, mutating match object:
    copy it to keep a step). Checks as :func:`replay` does."""
    lf = log if isinstance(log, LogFile) else read_log(log)
    h = lf.header
    try:
        match = h.new_match()
    except ValueError as exc:
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
                match.swap_cards(sw.db)
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
            match.apply(rec.action)
        except IllegalAction as exc:
            raise LogError(lf.path, rec.line, f"action {rec.i}: {exc}") from None
        except ValueError as exc:
            raise LogError(lf.path, rec.line, f"action {rec.i}: {exc}") from None
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
        got = LogResult.of(match) if match.is_over else None
        want = (lf.result.winner, lf.result.reason, lf.result.round)
        if got is None or (got.winner, got.reason, got.round) != want:
            have = match.result_text()
            raise LogError(
                lf.path, lf.result.line, f"result {want} does not match the replay ({have})"
            )
