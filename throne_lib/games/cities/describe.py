"""Chinese text for every 城池战 action (the castle's, with cities named; CW-UI-5)."""

from __future__ import annotations

from throne_lib.games.castle.actions import Act
from throne_lib.games.castle.describe import describe as castle_describe
from throne_lib.games.castle.state import State
from throne_lib.games.cities.engine import CITY, is_city, war_of

OWN = {"keep": "不弃守，继续回合", "abandon": "弃守当前城池"}


def describe(s: State, act: Act, prompt_kind: str = "") -> str:
    """``Act('attack', ('c:luoyang', 0, 'sword'))`` -> ``剑攻击 城池洛阳（支付1张剑）``."""
    w = war_of(s)
    k, a = act.kind, act.args
    if k in OWN:
        city = w.current(s.prompt.seat) if s.prompt is not None else None
        return OWN[k] + (f"（{w.table[city].name}）" if k == "abandon" and city else "")
    if k == "concede":
        return f"{s.hero_name(int(a[0]))} 认输"
    if k == "nanpi":
        return f"南皮：支付8粮草，令 {s.name(str(a[0]))} 阵亡"
    if k == "retrieve":
        return f"取回 {s.cards[str(a[0])].name}"
    if k == "deploy":
        return f"免费部署 {s.cards[str(a[0])].name}"
    if k == "capture_order":
        return f"先结算并叠放 {w.table[str(a[0]).removeprefix(CITY)].name}"
    if k == "strike":
        return f"对 {s.name(str(a[0]))} 造成1点伤害"
    named = tuple(f"城池{w.table[str(x).removeprefix(CITY)].name}" if is_city(x) else x for x in a)
    return castle_describe(s, Act(k, named), prompt_kind)
