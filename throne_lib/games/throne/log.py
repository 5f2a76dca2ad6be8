"""Throne & Phalanx's side of the match log (:mod:`throne_lib.kit.log` owns the format).

The header carries the whole card table, the rules, the seed and both sides (and the
scenario text when the match started from one), so an old log replays after
``cards.csv`` has changed::

    {"format": "throne-log", "version": 1, "game": "throne", "cards_hash": ...,
     "cards_csv": ..., "rules": {...}, "seed": 7, "sides": [{...}, {...}],
     "start_hash": ..., "created": ..., "agents": [...], "scenario": ...}

>>> from throne_lib import load_cards, Match, SideSetup
>>> from throne_lib.kit.log import log_lines
>>> db = load_cards()
>>> m = Match.new(db, SideSetup.signature(db, "human"), SideSetup.signature(db, "beast"), 3)
>>> lines = log_lines(m)
>>> lines[0]["format"], lines[0]["game"], len(lines)
('throne-log', 'throne', 1)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.cards import CardDB, CardTableError, parse_cards
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import Rules
from throne_lib.kit.log import AgentInfo, ErrFn, LogError, LogResult, agents_of, field_of

HEADER_FIELDS = ("cards_hash", "cards_csv", "rules", "seed", "sides")


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


def embedded_table(text: str, want_hash: str, err: ErrFn, what: str, field: str) -> CardDB:
    """A card table carried by the log, loaded and checked against its recorded hash."""
    try:
        db = parse_cards(text, "cards.csv")
    except CardTableError as exc:
        raise err(f"the {what} card table does not load:\n" + "\n".join(exc.problems)) from None
    if want_hash != db.hash:
        raise err(f"{field} {want_hash} does not match the {what} table ({db.hash})")
    return db


class ThroneLogCodec:
    """The :class:`throne_lib.kit.log.LogCodec` of Throne & Phalanx."""

    def header_of(
        self, match: Match, agents: Sequence[AgentInfo], start_hash: str, created: str
    ) -> LogHeader:
        return LogHeader(
            match.initial_db,
            match.rules,
            match.seed,
            match.setups,
            start_hash,
            created,
            tuple(agents),
            match.scenario,
        )

    def parse_header(self, data: Mapping[str, Any], err: ErrFn) -> LogHeader:
        for name in HEADER_FIELDS:
            if name not in data:
                raise err(f"missing header field {name!r}")
        db = embedded_table(
            field_of(data, "cards_csv", str, err),
            field_of(data, "cards_hash", str, err),
            err,
            "embedded",
            "cards_hash",
        )
        try:
            rules = Rules.from_dict(field_of(data, "rules", dict, err))
            sides_raw = field_of(data, "sides", list, err)
            if len(sides_raw) != 2 or not all(isinstance(s, dict) for s in sides_raw):
                raise err("field 'sides': expected a list of 2 objects (blue, red)")
            sides = (SideSetup.from_dict(sides_raw[0]), SideSetup.from_dict(sides_raw[1]))
            agents = agents_of(data)
        except (KeyError, TypeError, ValueError, AssertionError) as exc:
            if isinstance(exc, LogError):
                raise
            raise err(f"bad header: {type(exc).__name__}: {exc}") from None
        return LogHeader(
            db,
            rules,
            field_of(data, "seed", int, err),
            sides,
            str(data.get("start_hash") or ""),
            str(data.get("created") or ""),
            agents,
            str(data.get("scenario") or ""),
        )

    def action_text(self, match: Match, action: Action) -> str:
        return action.text(match.geo)

    def history(self, match: Match) -> Sequence[Action]:
        return match.history

    def result(self, match: Match) -> LogResult:
        winner = None if match.winner is None else SIDE_NAMES[match.winner]
        return LogResult(winner, match.end_reason, match.round)

    def seat_names(self) -> Sequence[str]:
        return SIDE_NAMES

    def parse_table(self, text: str, want_hash: str, err: ErrFn, what: str, field: str) -> CardDB:
        return embedded_table(text, want_hash, err, what, field)

    def changed(self, old: CardDB, new: CardDB) -> tuple[str, ...]:
        return tuple(sorted(c for c in new if c not in old or old[c] != new[c]))


CODEC = ThroneLogCodec()
