"""Saving and resuming a run (R-TOWER-8).

The save is one JSON file, written after every step **atomically**: the text goes
to a temporary file in the same directory, is flushed to disk, then
``os.replace`` puts it in place, so a crash leaves either the old or the new
save, never half of one::

    {"format": "throne-tower-save", "schema": 1, "saved": "2026-…Z",
     "tables": {"cards": HASH, "relics": HASH, "events": HASH},
     "run": {seed, general, vices, deck, hp, max_hp, gold, relics, floor, node,
             screen, status, offer, shop, event, removals, seen_events, history,
             steps, notes, rules, map},
     "battle": null | {"setup": {...}, "cards_hash": H, "cards_csv": "…",
                       "actions": ["keep", "found militia_camp c2", …], "hash": H}}

A battle in progress is saved as its setup plus the actions played; loading
rebuilds it (:func:`throne_lib.games.throne.tower.battle.build_match`), replays the actions and
checks the state hash equals the saved one, so the battle continues exactly
where it was. The card table of the battle is embedded, so a battle resumes even
after ``cards.csv`` changed.

A file that cannot be read — not JSON, another format, an unknown schema, a
missing field, cards or relics the tables lack, a battle that does not replay
to its hash — raises :class:`SaveError` naming the path and the problem. The
file is left where it is; :func:`quarantine` renames it aside
(``NAME.corrupt-YYYYmmddTHHMMSS``) only when the user asks.
"""

from __future__ import annotations

import json
import os
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from throne_lib.games.throne.cards import CardTableError, parse_cards
from throne_lib.games.throne.match import IllegalAction
from throne_lib.games.throne.tower.battle import BattleSetup, build_match
from throne_lib.games.throne.tower.config import TowerRules
from throne_lib.games.throne.tower.map import TowerMap
from throne_lib.games.throne.tower.run import Battle, Run, Step, Tables

FORMAT = "throne-tower-save"
SCHEMA = 1
RUN_FIELDS = (
    "seed", "general", "vices", "deck", "hp", "max_hp", "gold", "relics", "floor",
    "node", "screen", "status", "offer", "shop", "event", "removals", "seen_events",
    "history", "notes",
)  # fmt: skip


class SaveError(ValueError):
    """A save file that cannot be loaded: ``PATH: problem``. The file is left in place."""

    def __init__(self, path: str | Path, problem: str) -> None:
        self.path = str(path)
        self.problem = problem
        super().__init__(f"{path}: {problem}")


def default_save_path() -> Path:
    """``$THRONE_TOWER_SAVE`` or ``~/.throne/tower-save.json``."""
    env = os.environ.get("THRONE_TOWER_SAVE")
    return Path(env) if env else Path.home() / ".throne" / "tower-save.json"


# --- run <-> dict ---------------------------------------------------------------------


def run_to_dict(run: Run) -> dict[str, Any]:
    t = run.tables
    data: dict[str, Any] = {"format": FORMAT, "schema": SCHEMA, "saved": _now()}
    data["tables"] = {"cards": t.cards.hash, "relics": t.relics.hash, "events": t.events.hash}
    body: dict[str, Any] = {k: getattr(run, k) for k in RUN_FIELDS}
    body["vices"] = list(run.vices)
    body["steps"] = [s.to_dict() for s in run.steps]
    body["rules"] = run.rules.to_dict()
    body["map"] = run.tmap.to_dict()
    data["run"] = body
    data["battle"] = None
    if run.battle is not None:
        m = run.battle.match
        data["battle"] = {
            "setup": run.battle.setup.to_dict(),
            "cards_hash": m.db.hash,
            "cards_csv": m.db.source,
            "actions": [a.text(m.geo) for a in m.history],
            "hash": m.hash(),
        }
    return data


def run_from_dict(data: Any, path: str | Path = "<save>", tables: Tables | None = None) -> Run:
    """Rebuild a run; raise :class:`SaveError` naming ``path`` on any problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(path, f'not a tower save (expected "format": "{FORMAT}")')
    if data.get("schema") != SCHEMA:
        raise SaveError(
            path, f"unknown save schema {data.get('schema')!r} (this version reads {SCHEMA})"
        )
    t = tables or Tables.load()
    try:
        body = data["run"]
        missing = [k for k in (*RUN_FIELDS, "steps", "rules", "map") if k not in body]
        if missing:
            raise SaveError(path, f"the run lacks field(s): {', '.join(missing)}")
        run = Run(
            tables=t,
            tmap=TowerMap.from_dict(body["map"]),
            rules=TowerRules.from_dict(body["rules"]),
            steps=[Step(**s) for s in body["steps"]],
            **{k: body[k] for k in RUN_FIELDS},
        )
        run.vices = tuple(run.vices)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise SaveError(path, f"malformed run: {type(exc).__name__}: {exc}") from None
    _check_run(run, path)
    if data.get("battle") is not None:
        run.battle = _battle_from(data["battle"], run, path)
    elif run.screen == "battle":
        raise SaveError(path, "the run is on the battle screen but the save has no battle")
    return run


def _check_run(run: Run, path: str | Path) -> None:
    t = run.tables
    unknown = sorted(
        {c for c in [run.general, *run.vices, *run.deck, *run.offer] if c not in t.cards}
    )
    if unknown:
        raise SaveError(path, f"cards not in the card table: {', '.join(unknown)}")
    bad = sorted({r for r in run.relics if r not in t.relics})
    if bad:
        raise SaveError(path, f"relics not in the relic table: {', '.join(bad)}")
    if run.event and run.event not in t.events:
        raise SaveError(path, f"event not in the event table: {run.event}")
    if run.screen not in ("map", "battle", "reward", "campfire", "shop", "event", "over"):
        raise SaveError(path, f"unknown screen {run.screen!r}")
    if run.node is not None and run.node not in run.tmap.nodes:
        raise SaveError(path, f"node {run.node!r} is not on the map")


def _battle_from(data: Any, run: Run, path: str | Path) -> Battle:
    try:
        setup = BattleSetup.from_dict(data["setup"])
        db = run.tables.cards
        if data["cards_hash"] != db.hash:
            db = parse_cards(str(data["cards_csv"]), "cards.csv (embedded in the save)")
        match = build_match(db, setup)
        actions = [str(a) for a in data["actions"]]
        want = str(data["hash"])
    except CardTableError as exc:
        raise SaveError(path, f"the battle's embedded card table: {exc}") from None
    except (KeyError, TypeError, ValueError) as exc:
        raise SaveError(path, f"malformed battle: {type(exc).__name__}: {exc}") from None
    for i, text in enumerate(actions):
        try:
            match.apply(text)
        except (IllegalAction, ValueError) as exc:
            raise SaveError(
                path, f"battle action {i + 1} {text!r} does not replay: {exc}"
            ) from None
    if match.hash() != want:
        raise SaveError(
            path, f"battle state hash mismatch: save has {want}, replay gives {match.hash()}"
        )
    return Battle(setup, match)


# --- files ------------------------------------------------------------------------------


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to a temporary file beside ``path``, fsync it, then rename it over."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, p)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return p


def save_run(run: Run, path: str | Path | None = None) -> Path:
    """Save the run atomically (R-TOWER-8); returns the path written."""
    p = Path(path) if path is not None else default_save_path()
    text = json.dumps(run_to_dict(run), ensure_ascii=False, separators=(",", ":"))
    return write_atomic(p, text)


def load_run(path: str | Path | None = None, tables: Tables | None = None) -> Run:
    """Load a save; raise :class:`SaveError` (file left in place) if it is unreadable.
    A missing file raises ``FileNotFoundError`` (there is simply no run to resume)."""
    p = Path(path) if path is not None else default_save_path()
    raw = p.read_bytes()
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaveError(p, f"not UTF-8 text ({exc.reason})") from None
    except json.JSONDecodeError as exc:
        raise SaveError(
            p, f"not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    return run_from_dict(data, p, tables)


def quarantine(path: str | Path) -> Path:
    """Rename a (corrupt) save aside to ``NAME.corrupt-YYYYmmddTHHMMSS``; returns the new path."""
    p = Path(path)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    target = p.with_name(f"{p.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        target = p.with_name(f"{p.name}.corrupt-{stamp}-{n}")
        n += 1
    os.replace(p, target)
    return target


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
