"""Scenario notation: a short text form of any position (like chess FEN).

Designers write puzzles and bug reports in it; tests read positions from it;
:func:`to_text` writes one back, and ``load_scenario(to_text(m))`` rebuilds
the same position (same state hash, given the same seed). See
``docs/scenarios.md``. Example::

    # 攻城巨兽 next to the red throne
    seed 7
    round 12
    turn blue
    side blue general=lionheart mana=6
    side red general=beast_king
    hand blue holy_light
    unit d5 blue siege_behemoth
    unit c5 red wolf hp=1/2 moved

Lines (``#`` starts a comment; order is free except that ``side`` lines come
before the lines that name that side):

``seed N`` · ``round N`` · ``turn blue|red`` · ``first blue|red`` ·
``phase main|replace|found|captain|over`` · ``marched yes|no`` ·
``pending CELL`` (the barracks of an open captain offer) ·
``side SIDE general=ID [mana=N] [shuffles=N] [cooldown=N] [replaced=N]
[founded=ID,ID] [pool=ID,ID] [uses=NAME:N,…] [stats=k:v,k:v]`` (``mana``: by
default the turn's own, base + peasants; ``uses``: card names used this turn,
R-TURN-9) · ``start`` (start the ``turn`` side's turn as the engine does) ·
``hand|deck|grave|removed SIDE ID ID …`` (deck: bottom first, the last is drawn next) ·
``unit CELL SIDE ID [throne] [attr=value] [flag] …``.

A unit starts as a fresh copy of its card (a throne: from the side's general
with 40 HP, auto-placed unless a ``throne`` unit line is given); attributes
then override: ``hp=CUR/MAX``, ``attack=N``, ``armor=N``, ``level=N``,
``used=N`` (summons used) …; a bare flag such as ``moved`` sets it, ``shield=no``
clears it. Every attribute of :class:`throne_lib.games.throne.state.Unit` can be written.
"""

from __future__ import annotations

from throne_lib.games.throne.board import SIDE_NAMES
from throne_lib.games.throne.cards import CardDB
from throne_lib.games.throne.engine import Engine, opening_pool
from throne_lib.games.throne.match import Match, SideSetup
from throne_lib.games.throne.rules import DEFAULT_RULES, LIMIT, Rules
from throne_lib.games.throne.state import (
    BARRACKS,
    CAPTAIN,
    MAIN,
    OPEN_FOUND,
    OPENING,
    OVER,
    PHASES_ALL,
    THRONE,
    UNIT_FIELDS,
    SideState,
    State,
    Unit,
)
from throne_lib.kit.textfile import text_lines

_ALIASES = {"used": "summons_used", "bought": "summons_bought"}
_SIDE_KEYS = {
    "general",
    "mana",
    "shuffles",
    "cooldown",
    "replaced",
    "founded",
    "pool",
    "uses",
    "stats",
}
SEED_LIMIT = 2**63 - 1
_SKIP = ("uid", "card", "side", "cell", "kind", "hp", "max_hp")


class ScenarioError(ValueError):
    """A problem in a scenario text, with its line number."""


def _side(word: str, where: str) -> int:
    if word not in SIDE_NAMES:
        raise ScenarioError(f"{where}: expected blue or red, got {word!r}")
    return SIDE_NAMES.index(word)


def load_scenario(
    text: str, db: CardDB, rules: Rules = DEFAULT_RULES, name: str = "scenario"
) -> Match:
    """Build a match from scenario text; raise :class:`ScenarioError` naming the line."""
    lines = [
        (n, raw.split("#", 1)[0].split())
        for n, raw in enumerate(text_lines(text), start=1)
        if raw.split("#", 1)[0].strip()
    ]
    header: dict[str, str] = {}
    side_opts: dict[int, dict[str, str]] = {}
    line_of: dict[str, int] = {}  # header key or "side0"/"side1" -> its line number
    piles: list[tuple[int, str, int, list[str]]] = []
    unit_lines: list[tuple[int, list[str]]] = []
    start = 0  # the line of 'start', if any
    for n, words in lines:
        where = f"{name}:{n}"
        key, rest = words[0], words[1:]
        if key == "start":
            if rest:
                raise ScenarioError(f"{where}: 'start' takes no value")
            if start:
                raise ScenarioError(f"{where}: 'start' appears twice (first on line {start})")
            start = n
        elif key in ("seed", "round", "turn", "first", "phase", "marched", "pending"):
            if len(rest) != 1:
                raise ScenarioError(f"{where}: '{key}' takes one value")
            if key in header:
                raise ScenarioError(f"{where}: '{key}' was already given on line {line_of[key]}")
            header[key] = rest[0]
            line_of[key] = n
        elif key == "side":
            if not rest:
                raise ScenarioError(f"{where}: 'side' needs blue or red")
            opts: dict[str, str] = {}
            for word in rest[1:]:
                k, sep, v = word.partition("=")
                if not sep:
                    raise ScenarioError(f"{where}: expected key=value, got {word!r}")
                opts[k] = v
            if "general" not in opts:
                raise ScenarioError(f"{where}: a side needs general=ID")
            side = _side(rest[0], where)
            if side in side_opts:
                raise ScenarioError(
                    f"{where}: side {rest[0]} was already given on line {line_of[f'side{side}']}"
                )
            side_opts[side] = opts
            line_of[f"side{side}"] = n
        elif key in ("hand", "deck", "grave", "removed"):
            if not rest:
                raise ScenarioError(f"{where}: '{key}' needs a side")
            piles.append((n, key, _side(rest[0], where), rest[1:]))
        elif key == "unit":
            unit_lines.append((n, rest))
        else:
            raise ScenarioError(f"{where}: unknown line {key!r}")
    if set(side_opts) != {0, 1}:
        raise ScenarioError(
            f"{name}: both 'side blue general=…' and 'side red general=…' are needed"
        )

    def num(key: str, default: int, lo: int = 0, hi: int = SEED_LIMIT) -> int:
        value = header.get(key)
        if value is None:
            return default
        try:
            n = _int(value)
        except ValueError:
            raise ScenarioError(
                f"{name}:{line_of[key]}: {key} must be a whole number, got {value!r}"
            ) from None
        if not lo <= n <= hi:
            raise ScenarioError(f"{name}:{line_of[key]}: {key} must be {lo}..{hi}, got {value}")
        return n

    sides: list[SideState] = []
    for side in (0, 1):
        opts = side_opts[side]
        at = f"{name}:{line_of[f'side{side}']}"
        general = opts["general"]
        if general not in db or db[general].kind != "general":
            raise ScenarioError(f"{at}: side {SIDE_NAMES[side]}: {general!r} is not a general")
        s = SideState(general, db[general].race)
        unknown = sorted(set(opts) - _SIDE_KEYS)
        if unknown:
            raise ScenarioError(f"{at}: unknown side option(s): {', '.join(unknown)}")
        field = "mana"
        try:
            s.mana = _count(opts.get("mana", "0"))  # when omitted: the turn's own, set below
            field = "shuffles"
            s.shuffles = _count(opts.get("shuffles", "0"))
            field = "cooldown"
            s.skill_cooldown = _count(opts.get("cooldown", "0"))
            field = "replaced"
            s.replaced = _count(opts.get("replaced", "0"))
            field = "stats"
            s.stats = {k: _count(v) for k, v in _pairs(opts.get("stats", ""))}
            field = "uses"
            s.name_uses = {k: _count(v) for k, v in _pairs(opts.get("uses", ""))}
        except ValueError:
            raise ScenarioError(
                f"{at}: side {SIDE_NAMES[side]}: bad {field}={opts.get(field, '')!r} "
                f"(whole numbers 0..{LIMIT}; stats as key:N,key:N)"
            ) from None
        s.founded = _list(opts.get("founded", ""))
        default_pool = opening_pool(db, s.race)
        s.opening_pool = tuple(_list(opts["pool"])) if "pool" in opts else default_pool
        for key, ids in (("founded", s.founded), ("pool", s.opening_pool)):
            bad = [c for c in ids if c not in db or db[c].kind != BARRACKS]
            if bad:
                raise ScenarioError(f"{at}: {key}: not barracks: {', '.join(bad)}")
        sides.append(s)
    state = State(rules.cells, sides, num("seed", 0, -SEED_LIMIT))
    eng = Engine(db, rules, state)
    # round 0 is the opening (R-OPEN-*); the rounds of play are 1..round_limit (R-END-1)
    opening = header.get("phase") in OPENING
    state.round = num("round", 1, 0 if opening else 1, rules.round_limit)
    state.turn = _side(header.get("turn", "blue"), f"{name}:{line_of.get('turn', 0)}: turn")
    state.first = _side(
        header.get("first", SIDE_NAMES[state.turn]), f"{name}:{line_of.get('first', 0)}: first"
    )
    state.phase = header.get("phase", "main")
    if state.phase not in PHASES_ALL:
        raise ScenarioError(
            f"{name}:{line_of['phase']}: phase must be one of {', '.join(PHASES_ALL)}"
        )
    # By default the march (R-THRONE-5) has happened from round 15 on, except that a
    # 'start' line starts a turn: round 15's march then happens at the first side's start.
    marched = state.round > rules.march_round or (
        state.round == rules.march_round and not (start and state.turn == state.first)
    )
    marched_word = header.get("marched", "yes" if marched else "no")
    if marched_word not in ("yes", "no"):
        raise ScenarioError(
            f"{name}:{line_of['marched']}: marched is yes or no, got {marched_word!r}"
        )
    state.marched = marched_word == "yes"
    for n, key, side, ids in piles:
        for cid in ids:
            if cid not in db:
                raise ScenarioError(f"{name}:{n}: unknown card id {cid!r}")
        setattr(sides[side], key, list(ids))
    explicit_thrones = set()
    unit_line: dict[int, int] = {}  # cell -> the line that put a unit there
    for n, words in unit_lines:
        u = _unit(eng, words, f"{name}:{n}")
        if state.board[u.cell] is not None:
            raise ScenarioError(f"{name}:{n}: {eng.geo.name(u.cell)} is already occupied")
        state.board[u.cell] = u
        unit_line[u.cell] = n
        if u.kind == THRONE:
            explicit_thrones.add(u.side)
    for side in (0, 1):
        # A fallen throne is absent only once the match is over (R-THRONE-1).
        if side not in explicit_thrones and state.phase != OVER:
            cell = eng.geo.throne_cell(side)
            if state.board[cell] is not None:
                raise ScenarioError(
                    f"{name}:{unit_line[cell]}: the {SIDE_NAMES[side]} throne's cell {eng.geo.name(cell)} is taken; write its throne line"
                )
            t = _throne(eng, side, cell)
            state.board[cell] = t
    if "pending" in header:
        try:
            state.pending = eng.geo.parse(header["pending"])
        except ValueError as exc:
            raise ScenarioError(f"{name}:{line_of['pending']}: pending: {exc}") from None
    _check_phase(eng, name, line_of)
    if state.phase == OVER:
        state.winner = None
    for side in (0, 1):  # mana= omitted: the turn's own (R-TURN-1..3); none in the opening
        if "mana" not in side_opts[side] and state.phase not in OPENING:
            sides[side].mana = eng.turn_mana(side)
    setups = (SideSetup(sides[0].general), SideSetup(sides[1].general))
    m = Match(eng, num("seed", 0), setups)
    if start:
        if state.phase != MAIN:
            raise ScenarioError(f"{name}:{start}: 'start' starts a turn of the main phase")
        eng.start_turn(state.turn)
        m.setup_events = eng.events
        eng.events = []
    m.scenario = text
    return m


def _check_phase(eng: Engine, name: str, line_of: dict[str, int]) -> None:
    """What the phase needs to have a legal action: an open captain offer needs its
    barracks (R-BARRACKS-9), the free barracks of the opening a pool (R-OPEN-3)."""
    st = eng.state
    at = f"{name}:{line_of.get('phase', line_of.get('pending', 0))}"
    if st.phase == CAPTAIN:
        if st.pending < 0:
            raise ScenarioError(f"{at}: phase captain needs 'pending CELL' (the offering barracks)")
        b = st.board[st.pending]
        where = f"{name}:{line_of['pending']}: pending {eng.geo.name(st.pending)}"
        if b is None or b.kind != BARRACKS:
            raise ScenarioError(f"{where}: no barracks stands there")
        if b.side != st.turn:
            raise ScenarioError(f"{where}: the barracks is not {SIDE_NAMES[st.turn]}'s")
    elif st.pending >= 0:
        raise ScenarioError(f"{name}:{line_of['pending']}: 'pending' belongs to phase captain")
    if st.phase == OPEN_FOUND:
        side = st.turn
        if not eng.opening_choices(side):
            raise ScenarioError(
                f"{at}: phase found, but {SIDE_NAMES[side]} has no barracks left to found (pool=…)"
            )
        if all(st.board[c] is not None for c in eng.geo.half(side)):
            raise ScenarioError(f"{at}: phase found, but {SIDE_NAMES[side]}'s half is full")


def _int(text: str) -> int:
    """A whole number of at most 19 digits (``int()`` of a million digits is slow)."""
    t = text.strip()
    if len(t.lstrip("+-")) > 19:
        raise ValueError(text)
    return int(t)


def _count(text: str) -> int:
    n = _int(text)
    if not 0 <= n <= LIMIT:
        raise ValueError(text)
    return n


def _pairs(value: str) -> list[tuple[str, str]]:
    out = []
    for p in _list(value):
        k, sep, v = p.partition(":")
        if not sep:
            raise ValueError(p)
        out.append((k, v))
    return out


def _list(value: str) -> list[str]:
    return [v for v in value.split(",") if v]


def _throne(eng: Engine, side: int, cell: int) -> Unit:
    general = eng.db[eng.state.sides[side].general]
    t = Unit(eng.state.next_uid, general.id, side, cell, THRONE)
    eng.state.next_uid += 1
    t.hp = t.max_hp = eng.rules.throne_hp
    t.move = 0
    t.range = general.range
    if eng.state.marched:
        eng.march_throne(t)
    return t


def _fresh(eng: Engine, card_id: str, side: int, cell: int, throne: bool) -> Unit:
    """A unit as its card makes it, without touching the board or the uid counter."""
    st = eng.state
    saved, uid = st.board[cell], st.next_uid
    if throne:
        u = _throne(eng, side, cell)
    else:
        kind = eng.db[card_id].kind
        u = eng.make_unit(
            eng.db[card_id], side, cell, from_deck=kind in ("minion", "general", BARRACKS)
        )
    st.board[cell], st.next_uid = saved, uid
    return u


def _unit(eng: Engine, words: list[str], where: str) -> Unit:
    if len(words) < 3:
        raise ScenarioError(f"{where}: expected 'unit CELL SIDE CARD_ID [attr=value …]'")
    try:
        cell = eng.geo.parse(words[0])
    except ValueError as exc:
        raise ScenarioError(f"{where}: {exc}") from None
    side = _side(words[1], where)
    card_id = words[2]
    if card_id not in eng.db:
        raise ScenarioError(f"{where}: unknown card id {card_id!r}")
    if eng.db[card_id].kind == "spell":
        raise ScenarioError(f"{where}: {card_id} is a spell, not a unit")
    rest = words[3:]
    throne = "throne" in rest
    if throne:
        if eng.state.sides[side].general != card_id:
            raise ScenarioError(
                f"{where}: a throne carries its side's general ({eng.state.sides[side].general})"
            )
        rest = [w for w in rest if w != "throne"]
    u = _fresh(eng, card_id, side, cell, throne)
    u.uid = eng.state.next_uid
    eng.state.next_uid += 1
    for word in rest:
        key, sep, value = word.partition("=")
        key = _ALIASES.get(key, key)
        if key == "hp":
            cur, _, mx = value.partition("/")
            try:
                u.hp = _count(cur)
                u.max_hp = _count(mx) if mx else max(u.max_hp, u.hp)
            except ValueError:
                raise ScenarioError(f"{where}: hp is written CUR/MAX, got {value!r}") from None
            if u.hp < 1 or u.max_hp < 1:  # above MAX is possible (buffs raise HP alone)
                raise ScenarioError(f"{where}: hp {value}: a unit on the board has HP ≥ 1")
            continue
        if key not in UNIT_FIELDS or key in _SKIP:
            raise ScenarioError(f"{where}: unknown unit attribute {key!r}")
        current = getattr(u, key)
        try:
            if isinstance(current, bool):
                new: object = True if not sep else {"yes": True, "no": False}[value]
            elif isinstance(current, int):
                new = _count(value)
            else:
                new = tuple(_list(value))
        except (KeyError, ValueError):
            raise ScenarioError(f"{where}: bad value for {key}: {value!r}") from None
        setattr(u, key, new)
    top = eng.rules.max_barracks_level
    if not (1 if u.kind == BARRACKS else 0) <= u.level <= top:
        raise ScenarioError(f"{where}: level={u.level} (a barracks has levels 1..{top})")
    pool = eng.db[card_id].captains if u.kind == BARRACKS else ()
    bad = [c for c in u.offer if c not in pool]
    if bad:  # R-BARRACKS-9: offers come from the barracks' own captain list
        raise ScenarioError(
            f"{where}: offer: not captains of {card_id}: {', '.join(bad)} (its list: {', '.join(pool) or 'none'})"
        )
    return u


def to_text(match: Match) -> str:
    """Write the position as scenario text (the inverse of :func:`load_scenario`)."""
    eng = match.eng
    st = eng.state
    out = [
        f"seed {match.seed}",
        f"round {st.round}",
        f"turn {SIDE_NAMES[st.turn]}",
        f"first {SIDE_NAMES[st.first]}",
        f"phase {st.phase}",
        f"marched {'yes' if st.marched else 'no'}",
    ]
    if st.pending >= 0:
        out.append(f"pending {eng.geo.name(st.pending)}")
    for side in (0, 1):
        s = st.sides[side]
        opts = [f"general={s.general}", f"mana={s.mana}"]
        for key, value, default in (
            ("shuffles", s.shuffles, 0),
            ("cooldown", s.skill_cooldown, 0),
            ("replaced", s.replaced, 0),
        ):
            if value != default:
                opts.append(f"{key}={value}")
        if s.founded:
            opts.append("founded=" + ",".join(s.founded))
        if s.opening_pool != opening_pool(eng.db, s.race):
            opts.append("pool=" + ",".join(s.opening_pool))
        if s.name_uses:
            opts.append("uses=" + ",".join(f"{k}:{v}" for k, v in sorted(s.name_uses.items())))
        if s.stats:
            opts.append("stats=" + ",".join(f"{k}:{v}" for k, v in sorted(s.stats.items())))
        out.append(f"side {SIDE_NAMES[side]} " + " ".join(opts))
        for pile in ("hand", "deck", "grave", "removed"):
            cards = getattr(s, pile)
            if cards:
                out.append(f"{pile} {SIDE_NAMES[side]} " + " ".join(cards))
    for u in st.board:
        if u is None:
            continue
        fresh = _fresh(eng, u.card, u.side, u.cell, u.kind == THRONE)
        words = [eng.geo.name(u.cell), SIDE_NAMES[u.side], u.card]
        if u.kind == THRONE:
            words.append("throne")
        if (u.hp, u.max_hp) != (fresh.hp, fresh.max_hp):
            words.append(f"hp={u.hp}/{u.max_hp}")
        for key in UNIT_FIELDS:
            if key in _SKIP:
                continue
            value = getattr(u, key)
            if value == getattr(fresh, key):
                continue
            if isinstance(value, bool):
                words.append(key if value else f"{key}=no")
            elif isinstance(value, tuple):
                words.append(f"{key}=" + ",".join(value))
            else:
                words.append(f"{key}={value}")
        out.append("unit " + " ".join(words))
    return "\n".join(out) + "\n"
