"""Creating a playtest, its links, and its export as a kit log (any registered game).

``create`` builds the match of any game from the registry, stores its log header (what
rebuilds it before the first action) and one seat per player; ``links`` gives the URL of
each human seat and of the spectator (the game's play dashboard with
``?playtest=ID&seat=K&token=…``); ``export_lines`` writes the playtest as a kit JSONL log
— the same header, one record per stored action with its events and hash, the playtest
notes as ``note`` lines at their step, and the result — which ``throne replay --check``
verifies like any other log.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from throne_lib.kit import registry
from throne_lib.kit.agents import agent_names
from throne_lib.kit.log import (
    AgentInfo,
    LogError,
    LogNote,
    LogRecord,
    _events,
    codec,
    header_dict,
    header_of,
)
from throne_lib.kit.playtest.session import PlaytestError, new_match_of
from throne_lib.kit.playtest.store import (
    SPECTATOR,
    Created,
    NewPlaytest,
    PlaytestStore,
    SeatSpec,
    iso,
)

#: The base of the links (``$THRONE_PLAYTEST_URL`` overrides): a Voilà server's root.
DEFAULT_BASE = "http://127.0.0.1:8866"


@dataclass(frozen=True)
class Link:
    seat: int  # SPECTATOR for the spectator link
    url: str


def seat_label(game: registry.Game, seat: int) -> str:
    return "spectator" if seat == SPECTATOR else game.seat_name(seat)


def parse_humans(text: str | int | Sequence[int], players: int) -> list[int]:
    """Which seats are human: a count (the first N seats) or a list ``0,2,3``."""
    if isinstance(text, int):
        seats = list(range(text))
    elif isinstance(text, str):
        parts = [p for p in text.replace(" ", "").split(",") if p]
        if len(parts) == 1 and "," not in text:
            seats = list(range(int(parts[0])))
        else:
            seats = [int(p) for p in parts]
    else:
        seats = list(text)
    bad = [s for s in seats if not 0 <= s < players]
    if bad or len(set(seats)) != len(seats):
        raise ValueError(f"human seats {seats}: each must be one of 0..{players - 1}, once")
    return sorted(seats)


def create(
    store: PlaytestStore,
    game: str,
    players: int,
    humans: str | int | Sequence[int],
    agent: str | None = None,
    think: float = 0.5,
    seed: int = 1,
    cards: str | Path | None = None,
    idle: float = 120.0,
    title: str = "",
    options: Mapping[str, Any] | None = None,
) -> Created:
    """A new playtest of ``game`` for ``players`` seats; ``humans`` are played by people,
    the others by ``agent`` (default: the game's). ``cards``: a card table file the match
    carries (its text goes into the log header); ``options``: the game's match options as
    a log header stores them (e.g. castle ``{"rules": {"max_rounds": 2}}``). ValueError
    for bad parameters."""
    g = registry.get(game)
    g.check_seats(players)
    seats_h = parse_humans(humans, players)
    name = agent or g.default_agent
    if name not in agent_names(g.name):
        raise ValueError(
            f"unknown agent {name!r} for {g.name}; known: {', '.join(agent_names(g.name))}"
        )
    if think < 0 or idle <= 0:
        raise ValueError("think time must be ≥ 0 and the idle limit > 0 seconds")
    options = dict(options or {})
    if cards is not None:
        text = Path(cards).read_text(encoding="utf-8")
        if g.parse_table is None:
            raise ValueError(f"{g.name} has no card table")
        g.parse_table(text)  # a broken table is refused here, naming FILE:ROW:COLUMN
        options["cards_csv"] = text
    setups = g.default_setups(players) if g.default_setups else None
    match = g.new(setups, seed, **options)
    specs = tuple(
        SeatSpec("human" if s in seats_h else "ai", name, seed * 1000 + s) for s in range(players)
    )
    agents = [AgentInfo("human" if sp.kind == "human" else sp.agent, sp.seed) for sp in specs]
    header = header_dict(g.name, header_of(match, agents))
    _check_header(g.name, header, match)
    return store.create(NewPlaytest(g.name, header, specs, think, idle, title))


def _check_header(game: str, header: Mapping[str, Any], match: Any) -> None:
    """The header the playtest stores rebuilds ``match`` exactly (its rules changes
    included), else refuse now: every page and the export would start from another match."""

    def err(msg: str) -> LogError:
        return LogError("new playtest", 1, msg)

    try:
        rebuilt = codec(game).parse_header(dict(header), err).new_match()
    except (LogError, ValueError) as exc:
        raise ValueError(f"the playtest's log header does not rebuild its match: {exc}") from None
    if rebuilt.hash() != match.hash():
        raise ValueError(
            f"{game}: the log header does not carry these match options; "
            "a playtest of them would not replay"
        )


def dashboard(game: str) -> str:
    """The notebook a seat link opens: the game's first dashboard."""
    g = registry.get(game)
    return g.dashboards[0].notebook if g.dashboards else "index.ipynb"


def links(created: Created, base: str | None = None) -> list[Link]:
    """The human seats' links, then the spectator's."""
    root = (base or os.environ.get("THRONE_PLAYTEST_URL") or DEFAULT_BASE).rstrip("/")
    pt = created.playtest
    page = dashboard(pt.game)
    out = []
    for seat in sorted(created.tokens, key=lambda s: (s == SPECTATOR, s)):
        q = urlencode({"playtest": pt.id, "seat": seat, "token": created.tokens[seat]})
        out.append(Link(seat, f"{root}/voila/render/{page}?{q}"))
    return out


def export_lines(store: PlaytestStore, pid: str) -> list[dict[str, Any]]:
    """The playtest as a kit log (see the module doc); PlaytestError for an unknown id or
    a stored action that does not replay."""
    try:
        pt = store.get(pid)
    except KeyError:
        raise PlaytestError(f"no playtest {pid!r}") from None
    g = registry.get(pt.game)
    c = codec(pt.game)
    match = new_match_of(pt)
    notes = store.notes(pid)
    lines: list[dict[str, Any]] = [dict(pt.header)]

    def notes_at(after: int) -> None:
        for n in notes:
            if n.after == after:
                note = LogNote(after, seat_label(g, n.seat), n.text, iso(n.time))
                lines.append(note.to_dict())

    notes_at(0)
    for a in store.actions(pid):
        action = match.parse(a.action)
        text = c.action_text(match, action)
        events = match.apply(action)
        if match.hash() != a.hash:
            raise PlaytestError(f"playtest {pid}: action {a.seq} {a.action!r} does not replay")
        lines.append(LogRecord(a.seq, text, tuple(_events(events)), a.hash).to_dict())
        notes_at(a.seq)
    if match.is_over:
        lines.append(c.result(match).to_dict())
    return lines


def export(store: PlaytestStore, pid: str, path: str | Path) -> Path:
    """Write the playtest's log to ``path`` (atomically: a temporary file, then rename)."""
    p = Path(path)
    text = "".join(
        json.dumps(x, ensure_ascii=False, separators=(",", ":")) + "\n"
        for x in export_lines(store, pid)
    )
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, p)
    return p
