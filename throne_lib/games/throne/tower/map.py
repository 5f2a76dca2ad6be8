"""The tower map (R-TOWER-1, R-TOWER-2): 3 floors × 8 rows, generated from a seed.

Each floor is a grid of ``rows`` rows × ``columns`` columns. ``paths`` walks start
on row 0 and climb one row at a time to the same or a neighbouring column,
never crossing an edge already drawn (the Slay the Spire construction); every
node lies on a walk, so every node is reachable from a start and reaches the
boss, which alone fills the top row. Node kinds are then drawn row by row from
weights, under placement rules that are data (:class:`MapRules`):

* fixed rows (row 0 all battles, the row before the boss all campfires);
* a minimum row per kind (no elites or campfires in a floor's first rows);
* kinds that may not repeat along an edge (no shop after a shop, …);
* kinds that children of one node may not share (siblings of different kinds).

A kind that breaks a rule is redrawn among the allowed ones; ``fallback``
(battle) is always allowed.

>>> m = generate_map(7)
>>> len(m.floors), m.boss(0).kind
(3, 'boss')
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from throne_lib.games.throne.tower.config import Params

KINDS = ("battle", "elite", "campfire", "shop", "event", "chest", "boss")  # R-TOWER-2
KIND_ZH = {
    "battle": "战斗",
    "elite": "精英",
    "campfire": "篝火",
    "shop": "商店",
    "event": "事件",
    "chest": "宝箱",
    "boss": "首领",
}
BATTLE_KINDS = frozenset({"battle", "elite", "boss"})


@dataclass(frozen=True)
class MapRules(Params):
    """Everything a designer may tune about the map. Row indices may be negative
    (``-2`` = the row before the boss); the last row is always the boss."""

    WHAT = "map rule parameters"
    floors: int = 3  # R-TOWER-1
    rows: int = 8  # per floor, boss row included (R-TOWER-1)
    columns: int = 7
    paths: int = 6
    min_starts: int = 2  # distinct start columns at least
    weights: tuple[tuple[str, int], ...] = (
        ("battle", 45),
        ("event", 22),
        ("elite", 10),
        ("campfire", 10),
        ("shop", 7),
        ("chest", 6),
    )
    fixed_rows: tuple[tuple[int, str], ...] = ((0, "battle"), (-2, "campfire"))
    min_row: tuple[tuple[str, int], ...] = (("elite", 2), ("campfire", 2), ("shop", 1))
    no_repeat: tuple[str, ...] = ("elite", "shop", "campfire")  # along an edge
    distinct_siblings: tuple[str, ...] = ("elite", "shop", "campfire", "event", "chest")
    fallback: str = "battle"

    def __post_init__(self) -> None:
        problems: list[str] = []
        if self.floors < 1 or self.rows < 3 or self.columns < 1 or self.paths < 1:
            problems.append("floors ≥ 1, rows ≥ 3, columns ≥ 1 and paths ≥ 1")
        if self.min_starts > min(self.columns, self.paths):
            problems.append("min_starts exceeds the columns or the paths")
        named = [k for k, _ in self.weights] + [k for _, k in self.fixed_rows]
        named += [k for k, _ in self.min_row] + list(self.no_repeat) + list(self.distinct_siblings)
        bad = sorted({k for k in named if k not in KINDS or k == "boss"})
        if bad:
            problems.append(f"unknown or misplaced node kinds: {', '.join(bad)}")
        if any(w < 0 for _, w in self.weights):
            problems.append("weights must be ≥ 0")
        if self.fallback in self.no_repeat or self.fallback in self.distinct_siblings:
            problems.append(f"the fallback kind {self.fallback!r} must be free of rules")
        if self.min_row_of(self.fallback) > 0:
            problems.append(f"the fallback kind {self.fallback!r} needs no minimum row")
        for r, _ in self.fixed_rows:
            if not -self.rows < r < self.rows - 1 and r != -self.rows:
                problems.append(f"fixed row {r} is outside the floor's non-boss rows")
        if problems:
            raise ValueError("bad MapRules: " + "; ".join(problems))

    def min_row_of(self, kind: str) -> int:
        return dict(self.min_row).get(kind, 0)

    def fixed_kind(self, row: int) -> str | None:
        for r, kind in self.fixed_rows:
            if r % self.rows == row:
                return kind
        return None

    @property
    def boss_row(self) -> int:
        return self.rows - 1


DEFAULT_MAP_RULES = MapRules()


@dataclass(frozen=True, order=True)
class Node:
    """One node of the map; ``id`` is ``floor.row.col`` (rows count from a floor's bottom)."""

    floor: int
    row: int
    col: int
    kind: str = field(compare=False, default="battle")

    @property
    def id(self) -> str:
        return f"{self.floor}.{self.row}.{self.col}"

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.floor, self.row, self.col)


@dataclass(frozen=True)
class TowerMap:
    """The nodes and upward edges of every floor. Immutable."""

    seed: int
    rules: MapRules
    nodes: dict[str, Node]  # by id
    edges: dict[str, tuple[str, ...]]  # id -> ids of its children (next row)

    @property
    def floors(self) -> list[int]:
        return list(range(self.rules.floors))

    def node(self, node_id: str) -> Node:
        return self.nodes[node_id]

    def row(self, floor: int, row: int) -> list[Node]:
        return sorted(n for n in self.nodes.values() if n.floor == floor and n.row == row)

    def starts(self, floor: int) -> list[Node]:
        return self.row(floor, 0)

    def boss(self, floor: int) -> Node:
        return self.row(floor, self.rules.boss_row)[0]

    def children(self, node_id: str) -> list[Node]:
        return [self.nodes[c] for c in self.edges.get(node_id, ())]

    def parents(self, node_id: str) -> list[Node]:
        return [self.nodes[p] for p, cs in self.edges.items() if node_id in cs]

    def __iter__(self) -> Iterator[Node]:
        return iter(sorted(self.nodes.values()))

    def to_dict(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "nodes": [[n.floor, n.row, n.col, n.kind] for n in self],
            "edges": {k: list(v) for k, v in sorted(self.edges.items())},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TowerMap:
        nodes = {}
        for f, r, c, kind in data["nodes"]:
            if kind not in KINDS:
                raise ValueError(f"unknown node kind {kind!r}")
            n = Node(int(f), int(r), int(c), str(kind))
            nodes[n.id] = n
        edges = {str(k): tuple(str(x) for x in v) for k, v in data["edges"].items()}
        for k, v in edges.items():
            if k not in nodes or any(x not in nodes for x in v):
                raise ValueError(f"edge {k} -> {v} names an unknown node")
        return cls(int(data["seed"]), MapRules.from_dict(data["rules"]), nodes, edges)


def _crosses(edges: set[tuple[int, int]], a: int, b: int) -> bool:
    """Would the edge a->b (columns, one row up) cross an existing one?"""
    return any((a < c and b > d) or (a > c and b < d) for c, d in edges)


def _floor_paths(rng: random.Random, rules: MapRules) -> dict[tuple[int, int], set[int]]:
    """(row, col) -> children columns, for rows 0 .. boss_row - 2 (the last normal row
    connects to the boss)."""
    top = rules.boss_row - 1  # the last row of normal nodes
    children: dict[tuple[int, int], set[int]] = {}
    row_edges: list[set[tuple[int, int]]] = [set() for _ in range(top)]
    starts: list[int] = []
    for i in range(rules.paths):
        col = rng.randrange(rules.columns)
        if i < rules.min_starts:
            while col in starts:
                col = rng.randrange(rules.columns)
        starts.append(col)
        children.setdefault((0, col), set())
        for row in range(top):
            options = [
                c
                for c in (col - 1, col, col + 1)
                if 0 <= c < rules.columns and not _crosses(row_edges[row], col, c)
            ]
            nxt = rng.choice(options)
            row_edges[row].add((col, nxt))
            children.setdefault((row, col), set()).add(nxt)
            children.setdefault((row + 1, nxt), set())
            col = nxt
    return children


def _draw_kind(
    rng: random.Random,
    rules: MapRules,
    row: int,
    parent_kinds: list[str],
    sibling_kinds: set[str],
    child_kind: str | None,
) -> str:
    fixed = rules.fixed_kind(row)
    if fixed is not None:
        return fixed
    allowed = [
        (k, w)
        for k, w in rules.weights
        if w > 0
        and row >= rules.min_row_of(k)
        and not (k in rules.no_repeat and (k in parent_kinds or k == child_kind))
        and not (k in rules.distinct_siblings and k in sibling_kinds)
    ]
    if not allowed:
        return rules.fallback
    total = sum(w for _, w in allowed)
    x = rng.randrange(total)
    for k, w in allowed:
        if x < w:
            return k
        x -= w
    raise AssertionError("unreachable")


def generate_map(seed: int, rules: MapRules = DEFAULT_MAP_RULES) -> TowerMap:
    """The map of a run (R-TOWER-1): a pure function of ``seed`` and ``rules``."""
    rng = random.Random(f"tower-map:{seed}")
    nodes: dict[str, Node] = {}
    edges: dict[str, tuple[str, ...]] = {}
    centre = rules.columns // 2
    for floor in range(rules.floors):
        grid = _floor_paths(rng, rules)
        kinds: dict[tuple[int, int], str] = {}
        parents: dict[tuple[int, int], list[tuple[int, int]]] = {}
        for (row, col), cs in grid.items():
            for c in cs:
                parents.setdefault((row + 1, c), []).append((row, col))
        for row, col in sorted(grid):
            mine = parents.get((row, col), [])
            parent_kinds = [kinds[p] for p in mine]
            sibling_kinds = {
                kinds[(row, c)] for p in mine for c in grid[p] if (row, c) in kinds and c != col
            }
            child_kind = rules.fixed_kind(row + 1)
            kinds[(row, col)] = _draw_kind(rng, rules, row, parent_kinds, sibling_kinds, child_kind)
        boss = Node(floor, rules.boss_row, centre, "boss")
        nodes[boss.id] = boss
        for (row, col), cs in grid.items():
            n = Node(floor, row, col, kinds[(row, col)])
            nodes[n.id] = n
            if row == rules.boss_row - 1:
                edges[n.id] = (boss.id,)
            else:
                edges[n.id] = tuple(Node(floor, row + 1, c).id for c in sorted(cs))
    return TowerMap(seed, rules, nodes, edges)
