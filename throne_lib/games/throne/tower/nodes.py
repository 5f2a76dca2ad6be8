"""What happens at the tower's nodes (R-TOWER-2..6): rewards, campfires, shops,
events and chests. Functions of a :class:`~throne_lib.games.throne.tower.run.Run`; the run
checks a choice is legal before calling :func:`apply`."""

from __future__ import annotations

from typing import TYPE_CHECKING

from throne_lib.games.throne.tower.deck import can_add, rewardable
from throne_lib.games.throne.tower.map import Node

if TYPE_CHECKING:
    from throne_lib.games.throne.tower.run import Run


def _size(run: Run) -> tuple[int, int]:
    return (run.rules.deck_min, run.rules.deck_max)


def addable(run: Run) -> list[str]:
    """Cards that may join the deck now (R-TOWER-4, R-TOWER-5 quotas)."""
    db = run.tables.cards
    return [
        c
        for c in rewardable(db, run.general)
        if can_add(db, run.general, run.vices, run.deck, c, _size(run))
    ]


def price(run: Run, base: int) -> int:
    """A shop price after the relics' discount (R-TOWER-6)."""
    discount = min(100, run.relic_total("shop_discount"))
    return max(0, (base * (100 - discount) + 50) // 100)


def random_relic(run: Run, purpose: str, rarities: tuple[str, ...] = ()) -> str | None:
    """A relic not owned, preferring ``rarities`` in order; None when all are owned."""
    free = [r for r in run.tables.relics.values() if r.id not in run.relics]
    rng = run.rng(purpose)
    for rarity in rarities:
        some = sorted(r.id for r in free if r.rarity == rarity)
        if some:
            return rng.choice(some)
    return rng.choice(sorted(r.id for r in free)) if free else None


def _leave(run: Run, result: str) -> None:
    """Back to the map; after a boss, the next floor opens (R-TOWER-6) or the run is won."""
    step = run.steps[-1]
    step.hp_after, step.max_hp, step.gold = run.hp, run.max_hp, run.gold
    step.result = step.result or result
    run.offer, run.shop, run.event = [], {}, ""
    run.screen = "map"
    here = run.here()
    if here is not None and here.kind == "boss":
        if run.floor + 1 < run.tmap.rules.floors:
            run.floor += 1
            run.node = None
            run.note(f"首领倒下，第{run.floor + 1}层开启。")
        else:
            run.status, run.screen = "won", "over"
            run.note("王座之塔已被征服！")


# --- battles -------------------------------------------------------------------------


def battle_rewards(run: Run, kind: str) -> None:
    """R-TOWER-6: gold and 1 of 3 cards; elites a relic too; a boss a (boss) relic."""
    low, high, per_floor = run.rules.row("gold", kind)
    rng = run.rng("gold")
    gold = rng.randint(low, high) + per_floor * run.floor
    gold = gold * (100 + run.relic_total("gold_bonus")) // 100
    run.gold += gold
    run.note(f"战斗胜利：获得 {gold} 金币。")
    if kind in ("elite", "boss"):
        rid = random_relic(run, "relic", ("boss", "rare") if kind == "boss" else ("rare", "common"))
        if rid is not None:
            run.gain_relic(rid)
    pool = addable(run)
    n = run.rules.card_choices + run.relic_total("card_choices")
    run.offer = run.rng("offer").sample(pool, min(n, len(pool)))
    run.screen = "reward"


# --- entering a non-battle node -------------------------------------------------------


def enter(run: Run, node: Node) -> None:
    if node.kind == "campfire":
        run.screen = "campfire"
    elif node.kind == "shop":
        _stock_shop(run)
        run.screen = "shop"
    elif node.kind == "event":
        events = sorted(run.tables.events)
        fresh = [e for e in events if e not in run.seen_events] or events
        run.event = run.rng("event").choice(fresh)
        run.seen_events.append(run.event)
        run.screen = "event"
    elif node.kind == "chest":
        _open_chest(run)
    else:  # pragma: no cover - battles are entered by the run
        raise AssertionError(node.kind)


def _open_chest(run: Run) -> None:
    """A chest holds a relic (``chest_relic_percent``) or gold."""
    rng = run.rng("chest")
    rid = None
    if rng.randrange(100) < run.rules.chest_relic_percent:
        rid = random_relic(run, "chest-relic", ("common", "rare"))
    if rid is not None:
        run.gain_relic(rid)
        _leave(run, f"relic {rid}")
    else:
        gold = rng.randint(*run.rules.chest_gold)
        run.gold += gold
        run.note(f"宝箱里有 {gold} 金币。")
        _leave(run, f"gold {gold}")


def _stock_shop(run: Run) -> None:
    r = run.rules
    rng = run.rng("shop")
    pool = addable(run)
    cards = rng.sample(pool, min(r.shop_cards, len(pool)))
    db = run.tables.cards
    relics = sorted(x.id for x in run.tables.relics.values() if x.id not in run.relics)
    relics = rng.sample(relics, min(r.shop_relics, len(relics)))
    run.shop = {
        "cards": {
            c: price(run, r.shop_card_base + r.shop_card_per_cost * db[c].cost) for c in cards
        },
        "relics": {x: price(run, run.tables.relics[x].price) for x in relics},
        "heal": price(run, r.shop_heal_price),
        "remove": price(run, r.shop_remove_base + r.shop_remove_step * run.removals),
    }


# --- choices on the node screens --------------------------------------------------------


def choices(run: Run) -> list[str]:
    if run.screen == "reward":
        db = run.tables.cards
        ok = [c for c in run.offer if can_add(db, run.general, run.vices, run.deck, c, _size(run))]
        return [f"pick {c}" for c in ok] + ["skip"]
    if run.screen == "campfire":
        return ["rest", "fortify"]
    if run.screen == "event":
        ev = run.tables.events[run.event]
        return [f"option {i + 1}" for i, o in enumerate(ev.options) if o.gold_cost <= run.gold]
    if run.screen == "shop":
        return _shop_choices(run)
    return []


def _shop_choices(run: Run) -> list[str]:
    s = run.shop
    db = run.tables.cards
    out = [
        f"buy {c}"
        for c, p in s["cards"].items()
        if p <= run.gold and can_add(db, run.general, run.vices, run.deck, c, _size(run))
    ]
    out += [f"relic {x}" for x, p in s["relics"].items() if p <= run.gold]
    if "heal" in s and s["heal"] <= run.gold and run.hp < run.max_hp:
        out.append("heal")
    if "remove" in s and s["remove"] <= run.gold and len(run.deck) > run.rules.deck_min:
        out += [f"remove {c}" for c in sorted(set(run.deck))]
    return out + ["leave"]


def apply(run: Run, verb: str, arg: str) -> None:
    db = run.tables.cards
    if verb == "pick":
        run.deck.append(arg)
        run.note(f"「{db[arg].name}」加入牌组。")
        _leave(run, "won")
    elif verb == "skip":
        _leave(run, "won")
    elif verb == "rest":
        pct = run.rules.campfire_heal_percent
        got = run.heal(-(-run.max_hp * pct // 100) + run.relic_total("campfire_heal"))
        run.note(f"篝火休息：回复 {got} 点生命。")
        _leave(run, "rest")
    elif verb == "fortify":
        run.raise_max_hp(run.rules.campfire_max_hp)
        run.note(f"篝火锻炼：生命上限 +{run.rules.campfire_max_hp}。")
        _leave(run, "fortify")
    elif verb == "option":
        _event_option(run, int(arg) - 1)
    else:
        _shop_apply(run, verb, arg)


def _shop_apply(run: Run, verb: str, arg: str) -> None:
    s = run.shop
    db = run.tables.cards
    if verb == "buy":
        run.gold -= s["cards"].pop(arg)
        run.deck.append(arg)
        run.note(f"买下「{db[arg].name}」。")
    elif verb == "relic":
        run.gold -= s["relics"].pop(arg)
        run.gain_relic(arg)
    elif verb == "heal":
        run.gold -= s.pop("heal")
        run.note(f"商店治疗：回复 {run.heal(run.rules.shop_heal)} 点生命。")
    elif verb == "remove":
        run.gold -= s.pop("remove")
        run.deck.remove(arg)
        run.removals += 1
        run.note(f"移除「{db[arg].name}」。")
    elif verb == "leave":
        _leave(run, "shop")


def _event_option(run: Run, index: int) -> None:
    ev = run.tables.events[run.event]
    opt = ev.options[index]
    rng = run.rng("event-option")
    db = run.tables.cards
    for call in opt.effects:
        n = call.value
        if call.name == "gold":
            run.gold = max(0, run.gold + n)
        elif call.name == "heal":
            run.heal(n)
        elif call.name == "damage":
            run.hp = max(1, run.hp - n)
        elif call.name == "max_hp":
            run.raise_max_hp(n)
        elif call.name == "relic":
            rid = random_relic(run, "event-relic")
            if rid is not None:
                run.gain_relic(rid)
        elif call.name == "card":
            pool = addable(run)
            if pool:
                cid = rng.choice(pool)
                run.deck.append(cid)
                run.note(f"「{db[cid].name}」加入牌组。")
        elif call.name == "remove_card" and len(run.deck) > run.rules.deck_min:
            cid = rng.choice(sorted(run.deck))
            run.deck.remove(cid)
            run.note(f"移除「{db[cid].name}」。")
    run.note(f"{ev.name}：{opt.label}")
    _leave(run, f"option {index + 1}")
