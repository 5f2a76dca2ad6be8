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

import glob
import json
import os
import re
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from throne_lib.games.throne.cards import CardTableError, parse_cards
from throne_lib.games.throne.match import IllegalAction
from throne_lib.games.throne.tower.battle import BattleSetup, build_match
from throne_lib.games.throne.tower.config import TowerRules
from throne_lib.games.throne.tower.map import TowerMap
from throne_lib.games.throne.tower.run import Battle, Run, Step, Tables
from throne_lib.kit.textfile import write_atomic as kit_write_atomic

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
    body = data.get("run")
    if not isinstance(body, dict):
        raise SaveError(path, '"run" must be an object')
    missing = [k for k in (*RUN_FIELDS, "steps", "rules", "map") if k not in body]
    if missing:
        raise SaveError(path, f"the run lacks field(s): {', '.join(missing)}")
    _check_types(body, path)
    try:
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


# The JSON type of every run field: a type, a (type, None) pair for "or null", or a
# one-item list for "a list of". Checked before anything is built (``"hp": "40"`` is
# reported as such, not found later by the arithmetic of a campfire).
_FIELD_TYPES: dict[str, Any] = {
    "seed": int, "general": str, "vices": [str], "deck": [str], "hp": int, "max_hp": int,
    "gold": int, "relics": [str], "floor": int, "node": (str, None), "screen": str,
    "status": str, "offer": [str], "shop": dict, "event": str, "removals": int,
    "seen_events": [str], "history": [str], "notes": [str], "steps": [dict], "rules": dict,
    "map": dict,
}  # fmt: skip
_STEP_TYPES = {
    "floor": int, "row": int, "kind": str, "hp_before": int, "hp_after": int,
    "max_hp": int, "gold": int, "result": str, "node": str,
}  # fmt: skip
_BIG = 10**9  # no run field (HP, gold, seed) is larger in any honest save


def _type_name(want: Any) -> str:
    if isinstance(want, list):
        return f"a list of {_type_name(want[0])}"
    if isinstance(want, tuple):
        return f"{_type_name(want[0])} or null"
    return {int: "a whole number", str: "a string", dict: "an object"}[want]


def _has_type(value: Any, want: Any) -> bool:
    if isinstance(want, list):
        return isinstance(value, list) and all(_has_type(v, want[0]) for v in value)
    if isinstance(want, tuple):
        return value is None or _has_type(value, want[0])
    if want is int:  # bool is an int to Python, not to a save
        return type(value) is int and -_BIG <= value <= _BIG
    return isinstance(value, want)


def _check_types(body: dict[str, Any], path: str | Path) -> None:
    for key, want in _FIELD_TYPES.items():
        if not _has_type(body[key], want):
            raise SaveError(path, f"run.{key}: expected {_type_name(want)}, got {body[key]!r:.60}")
    for i, step in enumerate(body["steps"]):
        for key, want in _STEP_TYPES.items():
            if key in step and not _has_type(step[key], want):
                raise SaveError(
                    path,
                    f"run.steps[{i}].{key}: expected {_type_name(want)}, got {step[key]!r:.60}",
                )
        unknown = sorted(set(step) - set(_STEP_TYPES))
        if unknown:
            raise SaveError(path, f"run.steps[{i}]: unknown field(s) {', '.join(unknown)}")
    shop = body["shop"]
    for key in ("cards", "relics"):
        prices = shop.get(key, {})
        if not isinstance(prices, dict) or not all(_has_type(v, int) for v in prices.values()):
            raise SaveError(path, f"run.shop.{key}: expected an object of id: price")
    for key in ("heal", "remove"):
        if key in shop and not _has_type(shop[key], int):
            raise SaveError(path, f"run.shop.{key}: expected a whole number")


def _check_run(run: Run, path: str | Path) -> None:
    """Ids, ranges and cross-field consistency: what a run reached by legal choices
    satisfies (``hp`` 1..max_hp while playing, a known screen, a floor of the map …)."""
    t = run.tables
    r = run.rules
    unknown = sorted(
        {c for c in [run.general, *run.vices, *run.deck, *run.offer] if c not in t.cards}
    )
    if unknown:
        raise SaveError(path, f"cards not in the card table: {', '.join(unknown)}")
    bad = sorted({x for x in run.relics if x not in t.relics})
    if bad:
        raise SaveError(path, f"relics not in the relic table: {', '.join(bad)}")
    if run.event and run.event not in t.events:
        raise SaveError(path, f"event not in the event table: {run.event}")
    if run.screen not in ("map", "battle", "reward", "campfire", "shop", "event", "over"):
        raise SaveError(path, f"unknown screen {run.screen!r}")
    if run.node is not None and run.node not in run.tmap.nodes:
        raise SaveError(path, f"node {run.node!r} is not on the map")
    if t.cards[run.general].kind != "general":
        raise SaveError(path, f"run.general: {run.general!r} is not a general")
    if run.max_hp < 1:
        raise SaveError(path, f"run.max_hp: {run.max_hp} (at least 1)")
    low = 1 if run.status == "playing" else 0
    if not low <= run.hp <= run.max_hp:
        raise SaveError(path, f"run.hp: {run.hp} (expected {low}..max_hp {run.max_hp})")
    for key in ("gold", "removals", "seed"):
        if getattr(run, key) < 0:
            raise SaveError(path, f"run.{key}: {getattr(run, key)} (at least 0)")
    if run.status not in ("playing", "dead", "won"):
        raise SaveError(path, f"run.status: {run.status!r} (playing, dead or won)")
    if (run.status != "playing") != (run.screen == "over"):
        raise SaveError(path, f"run.status {run.status!r} does not fit run.screen {run.screen!r}")
    if not 0 <= run.floor < run.tmap.rules.floors:
        raise SaveError(path, f"run.floor: {run.floor} (the map has {run.tmap.rules.floors})")
    if not r.deck_min <= len(run.deck) <= r.deck_max:
        raise SaveError(
            path, f"run.deck: {len(run.deck)} cards (the tower allows {r.deck_min}-{r.deck_max})"
        )
    if len(run.vices) > 2 or len(set(run.vices)) != len(run.vices) or run.general in run.vices:
        raise SaveError(path, "run.vices: up to 2 different vice generals, not the main general")
    if (run.screen == "event") != bool(run.event):
        raise SaveError(path, f"run.event {run.event!r} does not fit run.screen {run.screen!r}")
    if run.node is not None and run.tmap.node(run.node).floor != run.floor:
        raise SaveError(path, f"run.node {run.node} is not on floor {run.floor}")


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
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
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
    """The kit's atomic write, creating the save folder first; the writer's pid in the
    temporary file's name lets a later save or load remove it once that process is gone."""
    return kit_write_atomic(path, text, parents=True)


def _writer_gone(tmp: Path) -> bool:
    """The temp file names its writer (``.NAME.pidN.….tmp``) and no process N runs now."""
    m = re.search(r"\.pid(\d+)\.", tmp.name)
    if m is None or int(m.group(1)) == os.getpid():
        return False
    try:
        os.kill(int(m.group(1)), 0)  # signal 0: only asks whether the process exists
    except ProcessLookupError:
        return True
    except (OSError, OverflowError):  # another user's process, or not a pid: keep
        return False
    return False


def remove_stale_temps(path: str | Path, min_age: float = 60.0) -> list[Path]:
    """Remove the ``.NAME.*.tmp`` files a killed :func:`write_atomic` left beside ``path``:
    at once when the process that wrote one is gone (its pid is in the name), otherwise
    once idle for ``min_age`` seconds (a save in another process takes milliseconds).
    Called by every :func:`save_run` and :func:`load_run`. Returns the paths removed."""
    p = Path(path)
    removed = []
    now = time.time()
    for tmp in p.parent.glob(f".{glob.escape(p.name)}.*.tmp"):
        try:
            if _writer_gone(tmp) or now - tmp.stat().st_mtime >= min_age:
                tmp.unlink()
                removed.append(tmp)
        except OSError:  # gone already, or not ours to remove: leave it
            continue
    return removed


def save_run(run: Run, path: str | Path | None = None) -> Path:
    """Save the run atomically (R-TOWER-8); returns the path written."""
    p = Path(path) if path is not None else default_save_path()
    text = json.dumps(run_to_dict(run), ensure_ascii=False, separators=(",", ":"))
    if p.parent.is_dir():
        remove_stale_temps(p)  # a killed earlier save's temp file
    return write_atomic(p, text)


def load_run(path: str | Path | None = None, tables: Tables | None = None) -> Run:
    """Load a save; raise :class:`SaveError` (file left in place) if it is unreadable.
    A missing file raises ``FileNotFoundError`` (there is simply no run to resume).
    Temporary files a killed :func:`write_atomic` left beside it are removed first."""
    p = Path(path) if path is not None else default_save_path()
    remove_stale_temps(p)
    raw = p.read_bytes()
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SaveError(p, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except RecursionError:
        raise SaveError(p, "not a tower save: JSON nested too deeply") from None
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
