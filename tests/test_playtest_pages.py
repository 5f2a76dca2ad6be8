"""Playtest pages without a browser (throne_lib/kit/playtest/page.py and the castle
dashboard joined to a seat): a link's query string, a refused link that shows nothing
of the match, moves arriving by polling, and — the hidden-information proof — every
byte the page would send to the browser (widget states and canvas commands) is the
same when everything hidden from its seat is redrawn (``resample``)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import ipywidgets as W
import pytest
from playtest_helpers import sent as sent_by

from throne_lib.games.castle.ui.playtest import CastlePlaytestApp, castle_page
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.page import PlaytestPage, link_params
from throne_lib.kit.playtest.session import PlaytestSession
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore


def setup(tmp_path: Path) -> tuple[SqliteStore, manage.Created]:
    st = SqliteStore(tmp_path)
    return st, manage.create(st, "castle", 5, 3, think=0.0, seed=11)


def page(st: SqliteStore, c: manage.Created, seat: int) -> CastlePlaytestApp:
    return CastlePlaytestApp(
        PlaytestPage({"playtest": c.playtest.id, "token": c.tokens[seat]}, store=st)
    )


def test_link_params() -> None:
    assert link_params("") is None
    assert link_params("foo=1") is None
    assert link_params("playtest=ab12&seat=2&token=x-y_z") == {
        "playtest": "ab12",
        "token": "x-y_z",
        "seat": "2",
    }
    assert link_params("?playtest=ab12") == {"playtest": "ab12", "token": "", "seat": ""}


def test_a_refused_link_shows_the_reason_and_nothing_else(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st, c = setup(tmp_path)
    pid = c.playtest.id
    for query, why in [
        (f"playtest={pid}&seat=0&token=wrong", "令牌不对"),
        (f"playtest={pid}&seat=0", "缺少令牌"),
        (f"playtest=nope&seat=0&token={c.tokens[0]}", "没有编号为 nope 的牌局"),
    ]:
        w = castle_page(store=st, query=query)
        assert isinstance(w, W.HTML) and why in w.value and "无法加入牌局" in w.value
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "playtests.sqlite").write_bytes(b"garbage" * 999)
    monkeypatch.setenv("THRONE_PLAYTESTS", str(tmp_path / "bad"))
    p = PlaytestPage({"playtest": pid, "token": c.tokens[0]})
    assert not p.ok and "damaged" in p.bar.value


def test_moves_reach_the_other_pages_by_polling(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    apps = [page(st, c, s) for s in (0, SPECTATOR)]
    others = [PlaytestSession(st, c.playtest.id, c.tokens[s]) for s in (1, 2)]
    rng = random.Random(2)
    for _ in range(5000):
        if all(a.match.is_over for a in apps):
            break
        for o in others:
            o.tick()
            if o.my_turn():
                o.submit(rng.choice(o.legal()))
        for a in apps:
            a.page.poll()
            if a.my_turn():
                a.press(rng.choice(a.legal()))
    assert all(a.match.is_over for a in apps)
    assert len({a.match.hash() for a in apps}) == 1
    assert 'data-over="1"' in apps[1].status.value and "全部公开" in apps[1].status.value
    assert "playtest-state" in apps[0].page.info.value
    assert manage.export_lines(st, c.playtest.id)[-1].get("result")


def sent(app: CastlePlaytestApp, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    return sent_by(app.widget, app.canvas, app.refresh, monkeypatch)


def test_a_page_sends_nothing_that_depends_on_what_its_seat_cannot_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st, c = setup(tmp_path)
    drivers = [PlaytestSession(st, c.playtest.id, c.tokens[s]) for s in (0, 1, 2)]
    rng = random.Random(4)
    checked = 0
    for step in range(150):
        for d in drivers:
            d.tick()
            if d.my_turn():
                d.submit(rng.choice(d.legal()))
        if drivers[0].is_over:
            break
        if step % 30 != 7:
            continue
        for seat in (0, 2, SPECTATOR):
            app = page(st, c, seat)
            real = sent(app, monkeypatch)
            truth = app.session.match
            app.session.match = truth.resample(max(seat, 0), random.Random(step))
            assert app.session.match.hash() != truth.hash()
            assert sent(app, monkeypatch) == real
            checked += 1
    assert checked >= 9


def test_the_home_page_form_creates_a_playtest_with_working_links(tmp_path: Path) -> None:
    import re
    from urllib.parse import parse_qs

    from throne_lib.kit.playtest.form import PlaytestForm

    st = SqliteStore(tmp_path)
    form = PlaytestForm(store=st)
    form.game.value = "castle"
    assert form.players.min == 3 and form.agent.value == "scripted"
    form.players.value = 5
    form.humans.value = "0,9"
    assert form.create() is None and "0..4" in form.out.value and not st.playtests()
    form.humans.value = "0,2,3"
    form.think.value = 0.3
    created = form.create()
    assert created is not None and created.playtest.think == 0.3
    hrefs = re.findall(r"href='([^']+)'", form.out.value)
    assert len(hrefs) == 4 and all(h.startswith("castle.ipynb?") for h in hrefs)
    seats = []
    for h in hrefs:
        q = {k: v[0] for k, v in parse_qs(h.split("?", 1)[1].replace("&amp;", "&")).items()}
        seats.append(PlaytestSession(st, q["playtest"], q["token"]).seat)
    assert seats == [0, 2, 3, SPECTATOR]
    form.game.value = "pin"
    assert form.players.value == 2 and form.agent.value in form.agent.options


def test_the_replay_shows_a_playtest_note_at_its_step(tmp_path: Path) -> None:
    from throne_lib.games.castle.ui.replay import CastleReplay

    st, c = setup(tmp_path)
    pages = [PlaytestSession(st, c.playtest.id, c.tokens[s]) for s in (0, 1, 2)]
    rng = random.Random(3)
    while pages[0].seq < 12:
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))
    pages[1].sync()
    at = pages[1].seq
    pages[1].add_note("这里不公平")
    replay = CastleReplay(manage.export(st, c.playtest.id, tmp_path / "n.jsonl"))
    replay.go(at)
    assert "replay-note" in replay.log_html.value and "seat1：这里不公平" in replay.log_html.value
    replay.go(at + 12 if at + 12 < len(replay.steps) else 0)
    assert "这里不公平" not in replay.log_html.value  # a note stays at its moment
