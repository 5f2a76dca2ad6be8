"""Build a CityWar in a given position for scenario tests."""

from __future__ import annotations

from throne_lib.games.cities import CitiesRules, CityWar, load_city_table

TABLE = load_city_table()


def war(
    stacks: list[list[str]],
    empty: list[str] | None = None,
    grain: dict[str, int] | None = None,
    teams: list[int] | None = None,
    rules: CitiesRules | None = None,
) -> CityWar:
    """Cities by Chinese name; a stack is bottom (starting city) .. top (current)."""
    r = rules or CitiesRules()
    ids = [[TABLE[c].id for c in st] for st in stacks]
    emp = [TABLE[c].id for c in (empty or [])]
    g: dict[str, int] = {}
    for st in ids:
        for i, c in enumerate(st):
            g[c] = r.start_grain if i == 0 else r.city_grain
    for c in emp:
        g[c] = r.city_grain
    for name, v in (grain or {}).items():
        g[TABLE[name].id] = v
    n = len(stacks)
    return CityWar(
        table=TABLE,
        rules=r,
        teams=teams if teams is not None else list(range(n)),
        starting=[st[0] for st in ids],
        stacks=ids,
        empty=emp,
        grain=g,
        out=[False] * n,
    )


def cid(name: str) -> str:
    return TABLE[name].id


def names(ids: list[str]) -> list[str]:
    return [TABLE[c].name for c in ids]
