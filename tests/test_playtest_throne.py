"""Throne & Phalanx's playtest page without a browser (throne_lib/games/throne/ui/playtest.py):
two seat pages play one match through the store and agree, by the same clicks as the
single-player board; the 战报 keeps the other seat's drawn and replaced cards hidden; the AI
seat plays under the lease; the spectator sees the public view (no hand) and cannot act;
and — the hidden-information proof — every byte a seat's or the spectator's page sends
(widget states and canvas commands) is the same when what that page cannot see is redrawn
(``resample``)."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path

import ipywidgets as W
import pytest
from playtest_helpers import (
    create,
    export_replays,
    play_pages,
    play_under_the_lease,
    refused,
    seat_page,
    sends_the_same,
)

from throne_lib.games.throne.actions import Action
from throne_lib.games.throne.rules import DEFAULT_RULES
from throne_lib.games.throne.ui.playtest import ThronePlaytestBoard, throne_page
from throne_lib.games.throne.ui.text import action_text, event_text
from throne_lib.kit import registry
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import PlaytestSession
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore


def setup(
    tmp_path: Path, humans: int = 2, seed: int = 5, rounds: int = 2
) -> tuple[SqliteStore, manage.Created]:
    rules = dataclasses.replace(DEFAULT_RULES, round_limit=rounds)  # R-END-1
    return create(tmp_path, "throne", rules, humans, seed)


def board(st: SqliteStore, c: manage.Created, seat: int) -> ThronePlaytestBoard:
    b = ThronePlaytestBoard(seat_page(st, c, seat))
    b.ready = True  # as if a browser had drawn the canvas: the layers are sent
    return b


def move(b: ThronePlaytestBoard, rng: random.Random) -> None:
    """One action of the seat to move, chosen at random among the legal ones and sent as
    the board's clicks send it (at most a few actions a turn before its 结束回合)."""
    legal = b.ctrl._legal()
    ends = [a for a in legal if a.kind in ("end", "keep")]
    act = ends[0] if ends and rng.random() < 0.3 else rng.choice(legal)
    b.ctrl.apply(act)


def play(boards: list[ThronePlaytestBoard], rng: random.Random) -> None:
    play_pages(boards, lambda b: move(b, rng))


def test_two_seat_pages_play_throne_to_the_end_and_agree(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    pid = c.playtest.id
    boards = [board(st, c, s) for s in (0, 1)]
    # the opening by clicks: 确定手牌 (R-OPEN-2), then a barracks on a highlighted cell
    # (R-OPEN-3) — the same handlers as the single-player board's
    for _ in range(40):
        for b in boards:
            b.page.poll()
            if b.ctrl.my_turn and b.match.phase == "replace":
                b.click_chip(0)
            elif b.ctrl.my_turn and b.match.phase == "found":
                b.click_cell(min(b.ctrl.highlights()))
    assert all(b.match.phase == "main" for b in boards)
    assert {a.by for a in st.actions(pid)} == {"human"} and st.count(pid) == 8
    play(boards, random.Random(1))
    for b in boards:
        b.page.poll()
    assert len({b.match.hash() for b in boards}) == 1
    heads = [b.result.value for b in boards]
    assert all("第 2 回合结束" in h for h in heads)
    winner = boards[0].match.winner
    if winner is not None:  # R-END-1: each page names its own side's result
        assert "你赢了" in heads[winner] and "你输了" in heads[1 - winner]
    assert all(b.handled for b in boards)
    export_replays(st, pid, tmp_path / "throne.jsonl")


def test_the_other_seats_moves_stay_lit_and_are_listed(tmp_path: Path) -> None:
    st, c = setup(tmp_path, seed=6)
    blue, red = board(st, c, 0), board(st, c, 1)
    play_to_main([blue, red])
    if not blue.ctrl.my_turn:
        blue, red = red, blue
    act = next(a for a in blue.ctrl._legal() if a.kind == "summon")  # R-BARRACKS-5
    blue.ctrl.apply(act)
    red.page.poll()
    line = action_text(act, red.match.db, red.match.geo)
    assert act.target in red.flash and act.cell in red.flash and red.ai_lines == [line]
    assert "tp-ai-line" in red.status.value and "（对手）" in red.info.value
    blue.ctrl.apply(Action("end"))
    red.page.poll()
    assert red.ctrl.my_turn and "轮到你了" in red.ctrl.status


def play_to_main(boards: list[ThronePlaytestBoard]) -> None:
    for _ in range(40):
        for b in boards:
            b.page.poll()
            if b.ctrl.my_turn and b.match.phase in ("replace", "found"):
                legal = b.ctrl._legal()
                b.ctrl.apply(next(a for a in legal if a.kind in ("keep", "found")))
    assert all(b.match.phase == "main" for b in boards)


def test_the_battle_report_hides_the_other_seats_cards(tmp_path: Path) -> None:
    st, c = setup(tmp_path, seed=8)
    boards = [board(st, c, s) for s in (0, 1)]
    play(boards, random.Random(2))
    m = boards[0].match
    events = [*m.setup_events, *(e for _, evs in boards[0].session.events or [] for e in evs)]
    private = [e for e in events if e.kind in ("draw", "replace", "opening_fill")]
    for s, b in enumerate(boards):
        log = b.log_panel.html.value
        named = {event_text(e, m.db, m.geo) for e in private if e.side != s and e.round > 0}
        assert named and not any(t in log for t in named)  # 「红方抽到「…」」 never shown
        mine = {event_text(e, m.db, m.geo) for e in private if e.side == s and e.round > 0}
        assert any(t in log for t in mine)


def test_a_seat_against_the_ai_seat_under_the_lease(tmp_path: Path) -> None:
    st, c = setup(tmp_path, humans=1, seed=3)
    b = board(st, c, 0)
    rng = random.Random(3)
    by = play_under_the_lease(b, lambda b: move(b, rng), st, c.playtest.id)
    assert by == {(0, "human"), (1, "ai")}
    assert "（AI）" in b.info.value


def test_the_spectator_sees_no_hand_and_cannot_act(tmp_path: Path) -> None:
    st, c = setup(tmp_path, seed=4)
    seats = [board(st, c, s) for s in (0, 1)]
    spec = board(st, c, SPECTATOR)
    assert spec.viewer is None and spec.ctrl.hand == [] and not spec.ctrl.my_turn
    assert spec.session.observation() == spec.match.public_view()
    assert all(side["hand"] is None for side in spec.match.public_view()["sides"])
    spec.click_cell(spec.match.geo.throne_cell(0))
    assert "旁观者不能行动" in spec.ctrl.status and spec.session.seq == 0
    assert spec.shuffle_btn.layout.display == "none" and "（玩家）" in spec.info.value
    play(seats, random.Random(5))
    spec.page.poll()
    assert spec.match.is_over and spec.match.hash() == seats[0].match.hash()
    assert "你赢了" not in spec.result.value and "你输了" not in spec.result.value
    # after the end the spectator's 战报 names every card (as a replay does)
    assert "红方抽到「" in spec.log_panel.html.value and "蓝方抽到「" in spec.log_panel.html.value


def test_links_the_throne_page_refuses_and_the_page_without_a_link(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    pid = c.playtest.id
    refused(
        throne_page,
        st,
        [
            (f"playtest={pid}&seat=0&token=wrong", "令牌不对"),
            (f"playtest=nope&seat=0&token={c.tokens[0]}", "没有编号为 nope 的牌局"),
            (f"playtest={pid}&seat=0", "缺少令牌"),
        ],
    )
    for seat in (1, SPECTATOR):
        joined = throne_page(store=st, query=f"playtest={pid}&seat={seat}&token={c.tokens[seat]}")
        assert isinstance(joined, W.VBox) and "playtest-bar" in joined.children[0]._dom_classes
        assert isinstance(joined.children[1], ThronePlaytestBoard)

    class Single(W.VBox):
        visited = 0

        def on_visit(self) -> None:
            self.visited += 1

    class Watcher:
        started = False

        def start(self) -> None:
            self.started = True

    app, watcher = Single(), Watcher()
    assert throne_page(app, watcher, query="") is app and app.visited and watcher.started
    app2, watcher2 = Single(), Watcher()
    q = f"playtest={pid}&seat=0&token={c.tokens[0]}"
    assert throne_page(app2, watcher2, store=st, query=q) is not app2
    assert not app2.visited and not watcher2.started  # the playtest's table is its header's
    assert app2.comm is None  # the unused single-player page is closed


def test_notes_are_kept_at_their_moment(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    b = board(st, c, 1)
    b.page.note_text.value = "这里不公平"
    b.page.note()
    assert [(n.after, n.seat, n.text) for n in st.notes(c.playtest.id)] == [(0, 1, "这里不公平")]


def redraw(b: ThronePlaytestBoard) -> None:
    """Everything drawn again from nothing (no layer cache, no cached prediction)."""
    b._drawn = {}
    b.ctrl._predictions.clear()
    b.refresh()


def select_something(b: ThronePlaytestBoard, step: int) -> None:
    """A unit with attack targets (their predicted results are drawn), else a hand card."""
    legal = b.ctrl._legal()
    attackers = sorted(
        {a.cell for a in legal if a.kind == "attack" and not b.ctrl._is_ally(a.target)}
    )
    if attackers and step % 2:
        b.click_cell(attackers[step % len(attackers)])
        assert b.ctrl.predictions()
        return
    hand = sorted({i for i in b.ctrl.playable()})
    if hand:
        b.click_hand(hand[step % len(hand)])


def test_a_throne_page_sends_nothing_that_depends_on_what_it_cannot_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    st, c = setup(tmp_path, seed=9, rounds=8)
    drivers = [PlaytestSession(st, c.playtest.id, c.tokens[s]) for s in (0, 1)]
    rng = random.Random(4)
    checked: dict[int, int] = {0: 0, 1: 0, SPECTATOR: 0}
    predicted = 0
    for step in range(3000):
        for d in drivers:
            d.tick()
            if d.my_turn():
                legal = d.legal()
                ends = [a for a in legal if a.kind == "end"]
                d.submit(ends[0] if ends and rng.random() < 0.15 else rng.choice(legal))
        if drivers[0].is_over or (min(checked.values()) >= 10 and predicted >= 4):
            break
        if step % 3 != 1:
            continue
        for seat in (0, 1, SPECTATOR):
            b = board(st, c, seat)
            if b.ctrl.my_turn and b.match.phase == "main":
                select_something(b, step)
                predicted += bool(b.ctrl.predictions())
            truth = b.session.match
            if seat == SPECTATOR:  # red's hidden cards redrawn, then blue's
                other = truth.resample(0, random.Random(step)).resample(1, random.Random(-step))
            else:
                other = truth.resample(seat, random.Random(step))
            sends_the_same(b, lambda b=b: redraw(b), monkeypatch, other)
            checked[seat] += 1
    assert min(checked.values()) >= 10 and predicted >= 4


def test_pages_name_the_seats_in_chinese(tmp_path: Path) -> None:
    st, c = setup(tmp_path)
    b = board(st, c, 1)
    assert "你是座位 1（红方）" in b.page.info.value and "blue" not in b.page.info.value
    labels = {g: registry.get(g).seat_label(0) for g in ("throne", "pin", "castle")}
    assert labels == {"throne": "座位 0（蓝方）", "pin": "座位 0（甲）", "castle": "座位 0"}


def test_reds_page_shows_the_board_turned(tmp_path: Path) -> None:
    """Red's rows at the bottom, column a on the right; a click lands on the cell drawn
    under it (R-OPEN-3: red founds its barracks on its own half, now the lower one)."""
    st, c = setup(tmp_path)
    blue, red, spec = (board(st, c, s) for s in (0, 1, SPECTATOR))
    assert red.px.turned and not blue.px.turned and not spec.px.turned
    geo = red.match.geo
    for cell in range(geo.size):
        assert red.px.cell_at(*red.px.cell_center(cell)) == cell
    (ax, ay), (gx, gy) = red.px.cell_xy(geo.parse("a1")), red.px.cell_xy(geo.parse("g6"))
    assert ax > gx and ay < gy  # a1 top right, g6 bottom left
    aimed: list[int] = []
    for _ in range(40):  # the opening by clicks at the cells' pixels on each board
        for b in (blue, red):
            b.page.poll()
            if b.ctrl.my_turn and b.match.phase == "replace":
                b.click_chip(0)
            elif b.ctrl.my_turn and b.match.phase == "found":
                cell = max(b.ctrl.highlights())
                b.click_cell(cell)  # at the pixel its layout draws the cell at
                assert b.match.history[-1].target == cell
                aimed += [cell] if b is red else []
    assert red.match.phase == "main" and len(aimed) == 3
    assert {int(geo.name(c)[1:]) for c in aimed} <= {4, 5, 6}  # red's half


def test_the_home_forms_throne_playtest_links_open_its_seat_pages(tmp_path: Path) -> None:
    from throne_lib.kit.playtest.form import PlaytestForm

    st = SqliteStore(tmp_path)
    form = PlaytestForm(store=st)
    form.game.value = "throne"
    assert form.players.value == 2 and form.agent.value in form.agent.options
    form.humans.value = "0,1"
    assert form.create() is not None
    assert "座位 0（蓝方）" in form.out.value and "座位 1（红方）" in form.out.value
    hrefs = [h.replace("&amp;", "&") for h in re.findall(r"href='([^']+)'", form.out.value)]
    assert len(hrefs) == 3 and all(h.startswith("play.ipynb?") for h in hrefs)
    for h, seat in zip(hrefs, (0, 1, SPECTATOR), strict=True):
        w = throne_page(store=st, query=h.split("?", 1)[1])
        b = w.children[1]
        assert isinstance(b, ThronePlaytestBoard) and b.session.seat == seat
