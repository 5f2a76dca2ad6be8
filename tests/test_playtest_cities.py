"""城池战's playtest page without a browser (throne_lib/games/cities/ui/playtest.py): seat
pages and the spectator follow one match by polling and agree, AI seats play under the
lease, 认输 (CW-WIN-4) goes to the store out of turn but only for the page's own seat, a
refused link shows the reason alone, and every byte a seat's (or the spectator's) page
sends is the same when what it cannot see is redrawn (``resample``)."""

from __future__ import annotations

import random
from pathlib import Path

import ipywidgets as W
import pytest
from playtest_helpers import sent

from throne_lib.cli import main
from throne_lib.games.castle.actions import Act
from throne_lib.games.cities.ui.playtest import CitiesPlaytestApp, cities_page
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.page import PlaytestPage
from throne_lib.kit.playtest.session import PlaytestError, PlaytestSession
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore


def setup(
    tmp_path: Path, players: int = 4, humans: int = 2, seed: int = 3
) -> tuple[SqliteStore, manage.Created]:
    st = SqliteStore(tmp_path)
    rules = {"rules": {"max_rounds": 2}}  # CW-TURN-1's round limit keeps it short
    return st, manage.create(st, "cities", players, humans, think=0.0, seed=seed, options=rules)


def page(st: SqliteStore, c: manage.Created, seat: int) -> CitiesPlaytestApp:
    return CitiesPlaytestApp(
        PlaytestPage({"playtest": c.playtest.id, "token": c.tokens[seat]}, store=st)
    )


def test_seat_pages_and_the_spectator_follow_a_cities_playtest(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    apps = [page(st, c, s) for s in (0, 1, SPECTATOR)]
    rng = random.Random(1)
    for _ in range(5000):
        if all(a.match.is_over for a in apps):
            break
        for a in apps:
            a.page.poll()  # one of them holds the lease and plays seats 2 and 3
            if a.my_turn():
                a.press(rng.choice(a.legal()))
    assert all(a.match.is_over for a in apps)
    assert len({a.match.hash() for a in apps}) == 1
    assert "全部公开" in apps[2].status.value and 'data-over="1"' in apps[0].status.value
    assert apps[2].concede_b.layout.display == "none" and apps[0].concede_b.layout.display != "none"
    by = {(a.seat, a.by) for a in st.actions(c.playtest.id)}
    assert by == {(0, "human"), (1, "human"), (2, "ai"), (3, "ai")}
    log = manage.export(st, c.playtest.id, tmp_path / "cities.jsonl")
    assert main(["replay", str(log), "--check"]) == 0


def test_concede_goes_out_of_turn_and_only_for_the_own_seat(tmp_path: Path) -> None:
    st, c = setup(tmp_path, players=3, humans=3)
    pid = c.playtest.id
    sessions = [PlaytestSession(st, pid, c.tokens[s]) for s in range(3)]
    now = sessions[0].match.current_seat
    waiting = [s for s in range(3) if s != now]
    with pytest.raises(PlaytestError, match="现在不能做"):  # on its turn, not for another
        sessions[now].submit(Act("concede", (waiting[0],)))
    with pytest.raises(PlaytestError, match="还没有轮到你"):  # out of turn, not for another
        sessions[waiting[0]].submit(Act("concede", (now,)))
    assert st.count(pid) == 0
    app = page(st, c, waiting[1])
    assert not app.concede_b.disabled
    app.concede()  # CW-WIN-4: any time
    stored = st.actions(pid)
    assert [(a.action, a.seat, a.by) for a in stored] == [
        (f"concede {waiting[1]}", waiting[1], "human")
    ]
    assert app.concede_b.disabled and app.session.seq == 1


def test_links_the_cities_page_refuses_and_the_page_without_a_link(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    pid = c.playtest.id
    for query, why in [
        (f"playtest={pid}&seat=0&token=wrong", "令牌不对"),
        (f"playtest={pid}&seat=0", "缺少令牌"),
    ]:
        w = cities_page(store=st, query=query)
        assert isinstance(w, W.HTML) and why in w.value and "无法加入牌局" in w.value
    spectator = cities_page(store=st, query=f"playtest={pid}&seat=-1&token={c.tokens[SPECTATOR]}")
    assert "cities-app" in spectator._dom_classes
    assert "cities-app" in cities_page(query="", players=3)._dom_classes


def test_a_cities_page_sends_nothing_that_depends_on_what_its_seat_cannot_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st, c = setup(tmp_path, players=4, humans=3, seed=5)
    drivers = [PlaytestSession(st, c.playtest.id, c.tokens[s]) for s in (0, 1, 2)]
    rng = random.Random(4)
    checked = 0
    for step in range(300):
        for d in drivers:
            d.tick()
            if d.my_turn():
                d.submit(rng.choice(d.legal()))
        if drivers[0].is_over:
            break
        if step % 20 != 7:
            continue
        for seat in (0, 2, SPECTATOR):
            app = page(st, c, seat)
            real = sent(app.widget, app.canvas, app.refresh, monkeypatch)
            truth = app.session.match
            app.session.match = truth.resample(max(seat, 0), random.Random(step))
            assert app.session.match.hash() != truth.hash()
            assert sent(app.widget, app.canvas, app.refresh, monkeypatch) == real
            checked += 1
    assert checked >= 6


def test_the_piles_in_the_table_head_are_the_viewers_or_the_shared_ones() -> None:
    """CW-DECK-1: a seat sees its own draw and discard piles' counts; a spectator, who has
    none, sees no pile counts with personal piles (each box shows its 牌组), the shared
    pile with shared ones — never the 「牌组 0 弃牌 0」 of a viewer without a pile."""
    from throne_lib.games.cities.match import CitiesMatch
    from throne_lib.games.cities.rules import CitiesRules
    from throne_lib.games.cities.ui.table import piles_text

    m = CitiesMatch(players=3, seed=1)
    own = m.observation(1)
    assert piles_text(own) == f" · 牌组 {own['deck_size']} 弃牌 {own['discard_size']}"
    assert own["deck_size"] > 0
    assert piles_text(m.public_view()) == "" and piles_text(m.reveal_all()) == ""
    shared = CitiesMatch(players=3, seed=1, rules=CitiesRules(deck_mode="shared"))
    n = shared.observation(0)["deck_size"]
    assert n > 0 and piles_text(shared.public_view()) == f" · 牌组 {n} 弃牌 0"
