"""Map property tests over many seeds (R-TOWER-1, R-TOWER-2): shape, reachability,
non-crossing paths and the placement rules of :class:`MapRules`."""

from __future__ import annotations

from collections import deque

import pytest

from throne_lib.games.throne.tower.map import KINDS, MapRules, TowerMap, generate_map

SEEDS = range(200)
VARIANTS = [
    MapRules(),
    MapRules(
        rows=12, columns=5, paths=4, fixed_rows=((0, "battle"), (5, "chest"), (-2, "campfire"))
    ),
    MapRules(floors=1, rows=4, columns=3, paths=2, min_row=(("elite", 1),)),
]


def edges_between(m: TowerMap, floor: int, row: int) -> list[tuple[int, int]]:
    return [
        (m.node(a).col, m.node(b).col)
        for a, cs in m.edges.items()
        for b in cs
        if m.node(a).floor == floor and m.node(a).row == row
    ]


def check_map(m: TowerMap) -> None:
    r = m.rules
    for floor in range(r.floors):
        # shape (R-TOWER-1): rows 0 .. rows-1, one boss on top, columns in range
        rows = {n.row for n in m if n.floor == floor}
        assert rows == set(range(r.rows))
        assert [n.kind for n in m.row(floor, r.boss_row)] == ["boss"]
        assert all(0 <= n.col < r.columns for n in m)
        assert len(m.starts(floor)) >= r.min_starts
        boss = m.boss(floor)
        assert boss.id not in m.edges
        # edges go one row up to a neighbouring column, without crossing
        for row in range(r.boss_row - 1):
            es = edges_between(m, floor, row)
            assert all(abs(a - b) <= 1 for a, b in es)
            for a, b in es:
                for c, d in es:
                    assert not (a < c and b > d), f"crossing edges {a}->{b}, {c}->{d}"
        for n in m.row(floor, r.boss_row - 1):
            assert m.edges[n.id] == (boss.id,)
        # every node reachable from a start; the boss reachable from every node
        seen = set()
        todo = deque(n.id for n in m.starts(floor))
        while todo:
            cur = todo.popleft()
            if cur not in seen:
                seen.add(cur)
                todo.extend(m.edges.get(cur, ()))
        assert seen == {n.id for n in m if n.floor == floor}
        for n in m:
            if n.floor != floor or n.kind == "boss":
                continue
            cur = n.id
            while cur != boss.id:  # every node has a child, all paths climb
                assert m.edges[cur], f"dead end at {cur}"
                cur = m.edges[cur][0]
    # placement rules (R-TOWER-2)
    for n in m:
        assert n.kind in KINDS
        if n.row == r.boss_row:
            continue
        assert n.kind != "boss"
        fixed = r.fixed_kind(n.row)
        if fixed is not None:
            assert n.kind == fixed
            continue
        assert n.row >= r.min_row_of(n.kind), f"{n.kind} on row {n.row}"
        kids = m.children(n.id)
        for k in kids:
            if k.kind in r.no_repeat:
                assert k.kind != n.kind, f"{n.kind} twice in a row at {n.id}->{k.id}"
        free_kids = [k.kind for k in kids if r.fixed_kind(k.row) is None]
        for kind in r.distinct_siblings:
            assert free_kids.count(kind) <= 1, f"siblings share {kind} under {n.id}"


@pytest.mark.parametrize("rules", VARIANTS, ids=["default", "tall", "small"])
def test_map_properties_over_many_seeds(rules: MapRules) -> None:
    """R-TOWER-1, R-TOWER-2: shape, reachability and placement over 200 seeds."""
    for seed in SEEDS:
        check_map(generate_map(seed, rules))


def test_default_map_is_three_floors_of_eight_rows_with_every_kind() -> None:
    """R-TOWER-1: 3 floors × 8 rows, a boss on top; R-TOWER-2: all seven kinds appear."""
    kinds: set[str] = set()
    for seed in range(30):
        m = generate_map(seed)
        assert m.rules.floors == 3 and m.rules.rows == 8
        assert {n.floor for n in m} == {0, 1, 2}
        kinds |= {n.kind for n in m}
        # the first row is battles, the row before the boss is campfires
        assert all(n.kind == "battle" for f in range(3) for n in m.starts(f))
        assert all(n.kind == "campfire" for f in range(3) for n in m.row(f, 6))
        assert all(n.kind != "elite" for n in m if n.row < 2)
    assert kinds == set(KINDS)


def test_map_is_a_function_of_the_seed_and_round_trips() -> None:
    a, b = generate_map(11), generate_map(11)
    assert a == b
    assert TowerMap.from_dict(a.to_dict()) == a
    assert MapRules.from_dict(a.rules.to_dict()) == a.rules
    assert len({str(generate_map(s).to_dict()["nodes"]) for s in range(20)}) == 20


def test_weights_are_data_a_designer_can_tune() -> None:
    no_events = MapRules(weights=(("battle", 1), ("event", 0), ("shop", 1)))
    for seed in range(20):
        kinds = {n.kind for n in generate_map(seed, no_events)}
        assert "event" not in kinds and "elite" not in kinds


@pytest.mark.parametrize(
    "kwargs",
    [
        {"rows": 2},
        {"weights": (("dragon", 3),)},
        {"weights": (("boss", 3),)},
        {"no_repeat": ("battle",)},
        {"min_row": (("battle", 2),)},
        {"fixed_rows": ((7, "battle"),)},
        {"min_starts": 9},
        {"weights": (("battle", -1),)},
    ],
)
def test_bad_map_rules_are_refused(kwargs: dict[str, object]) -> None:
    with pytest.raises(ValueError, match="bad MapRules"):
        MapRules(**kwargs)  # type: ignore[arg-type]
