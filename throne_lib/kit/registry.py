"""The game registry: where the CLI, the simulator, the log reader and the home page find
the games of the kit.

A game is a package under ``throne_lib/games/`` whose ``__init__.py`` calls
:func:`register` with a :class:`Game`. The kit never imports a game by name: the first
lookup (:func:`get`, :func:`games`) imports every subpackage of the packages listed in
:data:`GAME_PACKAGES` (by default ``throne_lib.games``), so adding a game touches no kit
file and no shared list. A game defined elsewhere (a test, a notebook) may simply call
:func:`register` itself; ``Game.module`` names the module that registers it, which is what
a worker process imports to find the game again.

>>> from throne_lib.kit import registry
>>> g = registry.get("throne")
>>> g.title, g.seats, g.rule_prefix
('王座与方阵', (2, 2), 'R-')
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from throne_lib.kit.protocol import DRAW, GameMatch, check_identity

#: Packages whose subpackages are games; each is imported on the first lookup.
GAME_PACKAGES: list[str] = ["throne_lib.games"]
#: The game the command line and the dashboards mean when none is named.
DEFAULT_GAME = "throne"
#: The repository, where :func:`declare` finds a game's card tables by file name.
ROOT = Path(__file__).resolve().parents[2]

T = TypeVar("T")


@dataclass(frozen=True)
class Dashboard:
    """One dashboard notebook of a game, as the home page shows it."""

    notebook: str  # path under notebooks/, e.g. "play.ipynb"
    title: str  # Chinese title
    subtitle: str  # English title
    zh: str  # one Chinese line
    en: str  # one English line


NewMatch = Callable[[Sequence[Any], int, Mapping[str, Any]], GameMatch]


@dataclass(frozen=True)
class Game:
    """What a game tells the kit about itself (declared once, like OpenSpiel's GameType).

    ``new_match(setups, seed, options)`` builds a match: ``setups`` holds one entry per
    seat (whatever the game's setup objects are: Throne's ``SideSetup``, a role, a
    name), ``options`` the game's parameters (e.g. ``{"rules": Rules(...)}``); its
    length decides the number of seats and must lie in ``seats``.
    ``default_setups(n)`` gives setups for ``n`` seats; ``resolve_setup`` turns one
    command-line word into a setup. ``agents`` maps the game's own
    agent names to factories ``(seed, **params) -> agent`` (the kit adds ``random`` and
    ``search`` for every game). The hooks (``log_codec``, ``sim_hooks``, ``review``,
    ``cli``, ``balance``) may be "module:attr" strings, imported on first use, so
    registering imports no UI, pandas or command-line code.

    The match ``new_match`` returns names its game and keeps what rebuilds it
    (:data:`throne_lib.kit.protocol.IDENTITY`: ``game``, ``seed``, ``setups``,
    ``history``); :meth:`new` checks it (:class:`~throne_lib.kit.protocol.ContractError`).
    """

    name: str  # command-line name: "throne"
    title: str  # Chinese title: "王座与方阵"
    title_en: str  # "Throne & Phalanx"
    rule_prefix: str  # rulebook ID prefix: "R-", "CH-", "PIN-"
    module: str  # the module that registers the game (workers import it)
    seats: tuple[int, int]  # (min, max) number of seats
    new_match: NewMatch
    card_tables: tuple[Path, ...] = ()
    default_setups: Callable[[int], list[Any]] | None = None
    # one command-line word (a deck file, a general, a race …) -> a setup: the kit's
    # ``throne play --setups A,B`` and benchmarks/soak.py's varied setups read it
    resolve_setup: Callable[[str], Any] | None = None
    seat_names: tuple[str, ...] = ()  # e.g. ("blue", "red"); default "seat0", "seat1" …
    # what a page calls each seat (Chinese), e.g. ("蓝方", "红方"); default: seat_names
    seat_titles: tuple[str, ...] = ()
    agents: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    default_agent: str = "random"
    dashboards: tuple[Dashboard, ...] = ()
    rulebook: str = ""  # file name of the rulebook under the shared specs, e.g. "RULES.md"
    log_codec: Any = None  # a kit.log.LogCodec or "module:attr"; None: kit.log.SimpleCodec
    sim_hooks: Any = None  # a kit.sim.SimHooks or "module:attr"; None: the kit's rows only
    review: Any = None  # a kit.review.ReviewHooks or "module:attr"; None: the kit's event rows
    # card-table text (and optionally its file name, for the errors) -> the game's table
    parse_table: Callable[..., Any] | None = None
    # the other tables of ``card_tables``: file name -> (text, file name) -> table; a bad
    # table raises ValueError naming FILE:ROW:COLUMN (the kit's fuzz tests load them all)
    table_parsers: Mapping[str, Callable[[str, str], Any]] = field(default_factory=dict)
    cli: Any = None  # a kit.cli.CliHooks or "module:attr"; None: the kit's commands only
    # ``throne balance … --game NAME``: the game's kit.balance_cli.BalanceHooks (or
    # "module:attr"), which build its kit.balance.BalanceGame adapter; None: no balance assistant
    balance: Any = None
    # the game's kit.ismcts.IsmctsHooks (rollout policy, cut-off evaluation, priors) or
    # "module:attr"; None: the default agent's rollouts scored by returns()
    ismcts: Any = None
    # the label of a finished match's winner (result tables: ``throne simulate``'s
    # ``winner`` column and summary, ``throne play``): (match) -> str, or "module:attr";
    # :data:`DRAW` only for a real draw. None: the winning seats' names (:func:`seat_winner`)
    winner_label: Any = None
    # the game's rule parameters: the default instance of a frozen dataclass (or the class,
    # when its defaults are the rulebook's), or "module:attr"; ``throne simulate/compare
    # --set field=value`` changes its fields and passes the result as ``options["rules"]``
    # (:mod:`throne_lib.kit.variants`). None: the game has no rules to --set
    rules: Any = None

    def load_table(self, path: str | Path) -> Any:
        """The game's card table in the file ``path``, parsed by ``parse_table`` with the
        file's own name in every ``FILE:ROW:COLUMN`` problem (when the parser takes a
        file name, as ``parse_table(text, filename)``); a file that cannot be read, is not
        UTF-8 or is cut short raises the kit's ``TableError`` naming its line."""
        from throne_lib.kit.csvtable import table_file_text
        from throne_lib.kit.tables import TableError

        if self.parse_table is None:
            raise ValueError(f"{self.name} has no card table")
        p = Path(path)
        try:
            data = p.read_bytes()
        except OSError as exc:
            problem = f"{p.name}:1:-: cannot read the file ({exc.strerror or exc})"
            raise TableError([problem]) from None
        text, problems = table_file_text(data, p.name)
        if text is None:
            raise TableError(problems)
        parse: Callable[..., Any] = self.parse_table
        try:
            inspect.signature(parse).bind(text, p.name)
        except (TypeError, ValueError):  # a parser of the text alone
            return parse(text)
        return parse(text, p.name)

    def hook(self, name: str) -> Any:
        """The hook field ``name``, importing it first when it is a "module:attr" string."""
        return load(getattr(self, name))

    def winner(self, match: GameMatch) -> str:
        """The label of ``match``'s winner: the game's own (a role, a team, a side …), or
        the names of the seats with the best return; :data:`DRAW` for a draw, "" while
        the match runs."""
        if not match.is_over:
            return ""
        own = self.hook("winner_label")
        if own is not None:
            return str(own(match))
        return seat_winner(match.returns(), self.seat_name)

    def seat_name(self, seat: int) -> str:
        return self.seat_names[seat] if seat < len(self.seat_names) else f"seat{seat}"

    def seat_label(self, seat: int) -> str:
        """A seat on a page: 「座位 K（title）」, the title from ``seat_titles`` (else a
        declared seat name); 「座位 K」 alone for a game that names no seats."""
        titles = self.seat_titles or self.seat_names
        return f"座位 {seat}（{titles[seat]}）" if 0 <= seat < len(titles) else f"座位 {seat}"

    def check_seats(self, n: int) -> None:
        lo, hi = self.seats
        if not lo <= n <= hi:
            raise ValueError(f"{self.name} is played by {lo}..{hi} seats, not {n}")

    def new(self, setups: Sequence[Any] | None = None, seed: int = 0, **options: Any) -> GameMatch:
        """A new match: ``setups`` (default: ``default_setups`` for the minimum seats)."""
        if setups is None:
            if self.default_setups is None:
                raise ValueError(f"{self.name} needs explicit setups")
            setups = self.default_setups(self.seats[0])
        self.check_seats(len(setups))
        match = self.new_match(list(setups), seed, options)
        check_identity(match, self.name)
        return match


def winning_seats(returns: Sequence[float]) -> list[int]:
    """The seats with the best return; none when every seat has it (a draw)."""
    r = list(returns)
    if not r or max(r) == min(r):
        return []
    return [s for s, v in enumerate(r) if v == max(r)]


def seat_winner(returns: Sequence[float], seat_name: Callable[[int], str]) -> str:
    """The kit's winner label: the winning seats' names joined by "+" (one seat: its
    name), :data:`DRAW` when every seat has the same return."""
    won = winning_seats(returns)
    return "+".join(seat_name(s) for s in won) if won else DRAW


def load(ref: Any) -> Any:
    """``ref`` itself, or the attribute a "module:attr" string names (imported now)."""
    if not isinstance(ref, str) or not ref:
        return ref if ref != "" else None
    module, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(module)
    for part in attr.split(".") if attr else ():
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Lazy:
    """A callable standing for the "module:attr" ``ref``, imported on the first call and
    called with the same arguments: a game's agent factories (``(seed, **params)``) and
    table parsers, without importing the engine, the agents or pandas at registration.
    Its signature is the target's (``Game.load_table`` reads it)."""

    ref: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return load(self.ref)(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(load(self.ref))


# the Game fields that may be "module:attr" strings, loaded by Game.hook on first use
_HOOKS = ("log_codec", "sim_hooks", "review", "cli", "balance", "ismcts", "winner_label", "rules")


def declare(
    package: str | None,
    *,
    tables: Sequence[str] = (),
    word_setups: str = "",
    **fields: Any,
) -> Game:
    """The :class:`Game` of the game package ``package`` (the declaring module's
    ``__package__``), the kit's conventions filled in so that a game states only what
    is its own:

    - the game is named after its package (``throne_lib.games.castle``: ``castle``),
      which is ``Game.module``;
    - ``tables``: its card tables' file names in the repository (``card_tables``);
    - a hook (``sim_hooks``, ``cli`` …), an agent factory or a table parser given as
      ``".module:attr"`` is found in the package (agents and parsers load on first
      call, as :class:`Lazy`);
    - ``default_agent``: the first of ``agents``;
    - ``word_setups="seat{}"``: a setup is just a word; ``default_setups(n)`` formats
      ``0 … n-1`` and ``resolve_setup`` keeps a command-line word as it is.

    Any other field of :class:`Game` is passed as it is (and may override these)."""
    if not package:
        raise ValueError("declare() takes the game module's __package__")

    def ref(value: Any) -> Any:
        return package + value if isinstance(value, str) and value.startswith(".") else value

    def lazy(value: Any) -> Any:
        return Lazy(ref(value)) if isinstance(value, str) else value

    own: dict[str, Any] = {
        "name": package.rpartition(".")[2],
        "module": package,
        "card_tables": tuple(ROOT / t for t in tables),
    }
    if word_setups:
        own["default_setups"] = lambda n, options=None: [word_setups.format(i) for i in range(n)]
        own["resolve_setup"] = lambda word, options=None: word
    agents = {k: lazy(v) for k, v in fields.pop("agents", {}).items()}
    if agents:
        own |= {"agents": agents, "default_agent": next(iter(agents))}
    if "parse_table" in fields:
        fields["parse_table"] = lazy(fields["parse_table"])
    if "table_parsers" in fields:
        fields["table_parsers"] = {k: lazy(v) for k, v in fields["table_parsers"].items()}
    fields |= {k: ref(fields[k]) for k in _HOOKS if k in fields}
    return Game(**(own | fields))


def option(options: Mapping[str, Any], key: str, default: Callable[[], T]) -> T:
    """``options[key]``, or ``default()`` when it is missing or None: e.g. a game's card
    table, the one a log or a test hands to ``new_match``, else the repository's."""
    value = options.get(key)
    return value if value is not None else default()


_GAMES: dict[str, Game] = {}
_discovered = False


def register(game: Game) -> Game:
    """Add (or replace, when a module is reloaded) a game; returns it for chaining."""
    if not game.name.isidentifier():
        raise ValueError(f"game name {game.name!r} must be an identifier")
    lo, hi = game.seats
    if not 1 <= lo <= hi:
        raise ValueError(f"game {game.name!r}: bad seat range {game.seats}")
    _GAMES[game.name] = game
    return game


def unregister(name: str) -> None:
    """Remove a game (tests that register a throw-away game clean up with this)."""
    _GAMES.pop(name, None)


def discover() -> None:
    """Import every game package under :data:`GAME_PACKAGES` (once)."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    for root in GAME_PACKAGES:
        pkg = importlib.import_module(root)
        for info in pkgutil.iter_modules(getattr(pkg, "__path__", []), root + "."):
            if info.ispkg:
                importlib.import_module(info.name)


def get(name: str) -> Game:
    """The game registered as ``name``; ValueError listing the known ones otherwise."""
    if name not in _GAMES:
        discover()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise ValueError(f"unknown game {name!r}; known: {known}") from None


def ensure(name: str, module: str) -> Game:
    """The game ``name``, importing ``module`` first if needed (how a worker process finds
    a game registered outside the game packages, e.g. by a test module). A module that
    defines the :class:`Game` without registering it on import is registered here."""
    if name not in _GAMES:
        mod = importlib.import_module(module)
        if name not in _GAMES:
            for value in vars(mod).values():
                if isinstance(value, Game) and value.name == name:
                    register(value)
                    break
    return get(name)


def games() -> list[Game]:
    """Every registered game: the default game first, then in name order."""
    discover()
    return sorted(_GAMES.values(), key=lambda g: (g.name != DEFAULT_GAME, g.name))


def names() -> list[str]:
    return [g.name for g in games()]
