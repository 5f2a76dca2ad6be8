"""A page's part in a playtest (throne_lib/kit/playtest/session.py), without a browser:
joining with a link's token, one order under racing clicks (threads and processes),
a kernel killed mid-action, reconnecting, the AI lease, the idle seat, and each seat
seeing only its own observation; over every registered game, the export replays."""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import signal
import time
from pathlib import Path

import pytest

from throne_lib.kit import registry
from throne_lib.kit.log import read_log, replay
from throne_lib.kit.playtest import manage
from throne_lib.kit.playtest.session import LEASE_TTL, PlaytestError, PlaytestSession
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore


def castle(tmp_path: Path, humans: str = "3", **kw: object) -> tuple[SqliteStore, manage.Created]:
    st = SqliteStore(tmp_path)
    return st, manage.create(st, "castle", 5, humans, think=0.0, seed=7, **kw)  # type: ignore[arg-type]


def play_all(
    sessions: list[PlaytestSession], rng: random.Random, limit: int = 20_000, stop: int = 0
) -> None:
    """Every page polls; a page whose seat is to move clicks a random legal action;
    until the end (or ``stop`` actions, when given)."""
    for _ in range(limit):
        if all(s.is_over or (stop and s.seq >= stop) for s in sessions):
            return
        for s in sessions:
            s.tick()
            if s.my_turn():
                s.submit(rng.choice(s.legal()))
    raise AssertionError("the playtest did not end")


def test_links_let_in_only_their_seat(tmp_path: Path) -> None:
    st, c = castle(tmp_path)
    pid = c.playtest.id
    assert set(c.tokens) == {0, 1, 2, SPECTATOR}
    for seat, tok in c.tokens.items():
        assert PlaytestSession(st, pid, tok).seat == seat
    with pytest.raises(PlaytestError, match="令牌不对"):
        PlaytestSession(st, pid, c.tokens[0][:-1] + ("A" if c.tokens[0][-1] != "A" else "B"))
    with pytest.raises(PlaytestError, match="缺少令牌"):
        PlaytestSession(st, pid, "")
    with pytest.raises(PlaytestError, match="没有编号为 zzz 的牌局"):
        PlaytestSession(st, "zzz", c.tokens[0])
    with pytest.raises(PlaytestError, match="缺少牌局编号"):
        PlaytestSession(st, "", c.tokens[0])
    other = manage.create(st, "castle", 5, 3, think=0.0)  # a token of another playtest
    with pytest.raises(PlaytestError, match="令牌不对"):
        PlaytestSession(st, pid, other.tokens[0])


def test_a_page_sees_only_its_seat_and_a_spectator_cannot_act(tmp_path: Path) -> None:
    st, c = castle(tmp_path)
    pid = c.playtest.id
    pages = [PlaytestSession(st, pid, c.tokens[s]) for s in (0, 1, 2)]
    spec = PlaytestSession(st, pid, c.tokens[SPECTATOR])
    rng = random.Random(3)
    for _ in range(40):
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))
    for p in pages:
        p.sync()  # the last submit (or an AI's move) is newer than the pages before it
    spec.sync()
    m = pages[0].match
    assert all(p.seq == pages[0].seq > 0 for p in pages)
    for p in pages:
        assert p.observation() == m.observation(p.seat)
        others = [m.observation(s) for s in range(5) if s != p.seat]
        assert all(p.observation() != o for o in others)  # roles and hands differ
    assert spec.observation() == m.public_view()
    with pytest.raises(PlaytestError, match="旁观者不能行动"):
        spec.submit(m.legal_actions()[0])
    waiting = next(p for p in pages if not p.my_turn())
    with pytest.raises(PlaytestError, match="还没有轮到你"):
        waiting.submit(m.legal_actions()[0])
    assert not waiting.legal()


def test_an_illegal_action_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    st, c = castle(tmp_path, humans="0,1,2,3,4")
    pid = c.playtest.id
    pages = [PlaytestSession(st, pid, c.tokens[s]) for s in range(5)]
    rng = random.Random(1)
    first = ""
    for _ in range(60):
        for p in pages:
            p.sync()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))
                first = first or st.actions(pid)[0].action
    page = next(p for p in pages if p.my_turn())
    legal = {a.text() for a in page.legal()}
    assert first and first not in legal
    before = (page.seq, page.match.hash(), st.count(pid))
    with pytest.raises(PlaytestError, match=r"不合法的行动：.*（CH-"):
        page.submit(first)  # well formed, but not legal now: names the rule
    with pytest.raises(PlaytestError, match="不合法的行动|无法识别的行动"):
        page.submit("no such action ###")
    assert (page.seq, page.match.hash(), st.count(pid)) == before


def test_two_tabs_of_one_seat_clicking_at_once_give_one_order(tmp_path: Path) -> None:
    st, c = castle(tmp_path, humans="0,1,2,3,4")
    pid = c.playtest.id
    a = PlaytestSession(st, pid, c.tokens[0])
    b = PlaytestSession(st, pid, c.tokens[0])
    drivers = [PlaytestSession(st, pid, c.tokens[s]) for s in range(1, 5)]
    rng = random.Random(5)
    clashes = 0
    while not a.is_over and a.seq < 400:
        for d in drivers:
            d.sync()
            if d.my_turn():
                d.submit(rng.choice(d.legal()))
        a.sync()
        b.sync()
        if a.my_turn():  # both tabs have seen the same position and click at once
            la, lb = a.legal(), b.legal()
            wa, wb = a.submit(rng.choice(la)), b.submit(rng.choice(lb))
            assert (wa, wb) == (True, False)  # the second click was refused, not doubled
            clashes += 1
            b.sync()
            assert b.seq == a.seq and b.match.hash() == a.match.hash()
    assert clashes >= 3
    assert [x.seq for x in st.actions(pid)] == list(range(1, a.seq + 1))


def _racer(path: str, pid: str, token: str, seed: int, stop_at: int) -> None:
    st = SqliteStore(path)
    page = PlaytestSession(st, pid, token)
    rng = random.Random(seed)
    while not page.is_over and page.seq < stop_at:
        page.tick()
        if page.my_turn():
            page.submit(rng.choice(page.legal()))


def test_pages_in_separate_processes_agree(tmp_path: Path) -> None:
    """Five pages (two tabs of seat 0, seats 1 and 2, the spectator holding the AI
    lease now and then) in five processes: one order, every hash checked by every page."""
    st, c = castle(tmp_path)
    pid = c.playtest.id
    ctx = multiprocessing.get_context("fork")
    who = [c.tokens[0], c.tokens[0], c.tokens[1], c.tokens[2], c.tokens[SPECTATOR]]
    procs = [
        ctx.Process(target=_racer, args=(str(tmp_path), pid, tok, k, 150))
        for k, tok in enumerate(who)
    ]
    for p in procs:
        p.start()
    for p in procs:
        p.join(120)
        assert p.exitcode == 0
    acts = st.actions(pid)
    assert [a.seq for a in acts] == list(range(1, len(acts) + 1)) and len(acts) >= 150
    check = PlaytestSession(st, pid, c.tokens[SPECTATOR])  # re-applies and checks every hash
    assert check.seq == len(acts)
    ai = {a.seat for a in acts if a.by == "ai"}
    assert ai <= {3, 4} and ai  # the AI played only the AI seats


def _victim(path: str, pid: str, tokens: dict[int, str], seed: int) -> None:
    st = SqliteStore(path)
    pages = [PlaytestSession(st, pid, tokens[s]) for s in sorted(tokens)]
    rng = random.Random(seed)
    while True:
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))


def kill_runs(path: Path, pid: str, tokens: dict[int, str], kills: int, seed: int) -> list[int]:
    """Kill -9 a process playing every seat ``kills`` times at random moments; the
    number of stored actions after each kill."""
    ctx = multiprocessing.get_context("fork")
    rng = random.Random(seed)
    st = SqliteStore(path)
    counts = []
    for k in range(kills):
        p = ctx.Process(target=_victim, args=(str(path), pid, tokens, seed * 1000 + k))
        p.start()
        before, deadline = st.count(pid), time.monotonic() + 30
        while st.count(pid) == before and time.monotonic() < deadline:
            time.sleep(0.01)  # it is playing: now kill it at a random moment
        time.sleep(rng.uniform(0.0, 0.1))
        assert p.pid is not None
        os.kill(p.pid, signal.SIGKILL)
        p.join()
        counts.append(st.count(pid))
    return counts


def test_a_kernel_killed_mid_action_loses_and_doubles_nothing(tmp_path: Path) -> None:
    """The bounded form of the 30-kill run (benchmarks/playtest_kill.py runs 30)."""
    st, c = castle(tmp_path, humans="0,1,2")
    pid = c.playtest.id
    counts = kill_runs(tmp_path, pid, {s: c.tokens[s] for s in range(3)}, kills=6, seed=1)
    assert counts == sorted(counts) and counts[-1] > 0
    page = PlaytestSession(st, pid, c.tokens[0])  # the playtest goes on from where it was
    assert page.seq == counts[-1]
    time.sleep(LEASE_TTL)  # the killed page's AI lease runs out; these pages take over
    play_all([page, *(PlaytestSession(st, pid, c.tokens[s]) for s in (1, 2))], random.Random(2))
    out = manage.export(st, pid, tmp_path / "k.jsonl")
    assert replay(out, check=True).is_over


def test_reconnect_shows_the_current_position(tmp_path: Path) -> None:
    st, c = castle(tmp_path)
    pid = c.playtest.id
    pages = [PlaytestSession(st, pid, c.tokens[s]) for s in (0, 1, 2)]
    rng = random.Random(4)
    for _ in range(30):
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))
    pages[1].close()
    pages[0].sync()
    again = PlaytestSession(st, pid, c.tokens[1])  # the reloaded page
    assert again.seq == pages[0].seq == st.count(pid)
    assert again.observation() == pages[0].match.observation(1)


def test_no_page_open_nothing_moves_and_the_lease_passes_on(tmp_path: Path) -> None:
    st, c = castle(tmp_path, humans="1")  # seat 0 human; seats 1-4 AI
    pid = c.playtest.id
    a = PlaytestSession(st, pid, c.tokens[0])
    b = PlaytestSession(st, pid, c.tokens[SPECTATOR])
    for _ in range(30):
        a.tick()
        b.tick()
        if a.my_turn():
            a.submit(a.legal()[0])
    assert a.holds_lease and not b.holds_lease
    by_ai = [x for x in st.actions(pid) if x.by == "ai"]
    assert by_ai and all(x.seat != 0 for x in by_ai)
    a.close()
    b.close()
    n = st.count(pid)
    PlaytestSession(st, pid, c.tokens[SPECTATOR])  # a page that opens but does not poll
    assert st.count(pid) == n  # paused: only an open, polling page plays the AI
    b2 = PlaytestSession(st, pid, c.tokens[SPECTATOR])
    for _ in range(5):
        b2.tick()
    assert b2.holds_lease  # a's lease was given back on close: taken over at once
    assert b2.seq == st.count(pid) >= n


def test_an_absent_person_is_played_by_the_ai_until_they_return(tmp_path: Path) -> None:
    st, c = castle(tmp_path, humans="0,1,2,3,4", idle=60.0)
    pid = c.playtest.id
    page = PlaytestSession(st, pid, c.tokens[0])
    seat = page.match.current_seat
    t0 = c.playtest.created
    assert not page.ai_seat_to_move(now=t0 + 30)
    assert page.ai_seat_to_move(now=t0 + 61)  # nobody opened that seat for the idle limit
    PlaytestSession(st, pid, c.tokens[seat]).tick()  # its person comes back
    assert not page.ai_seat_to_move(now=time.time() + 30)


def test_notes_are_kept_at_their_moment_in_the_export(tmp_path: Path) -> None:
    st, c = castle(tmp_path)
    pid = c.playtest.id
    pages = [PlaytestSession(st, pid, c.tokens[s]) for s in (0, 1, 2)]
    rng = random.Random(6)
    for _ in range(8):
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))
    at = pages[2].seq
    pages[2].add_note("这里不公平")
    with pytest.raises(PlaytestError):
        pages[2].add_note("   ")
    play_all(pages, rng)
    path = manage.export(st, pid, tmp_path / "t.jsonl")
    log = read_log(path)
    assert [(n.after, n.seat, n.text) for n in log.notes] == [(at, "seat2", "这里不公平")]
    assert replay(log, check=True).is_over
    lines = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]
    k = next(i for i, x in enumerate(lines) if "note" in x)
    assert lines[k - 1].get("i") == at  # right after the action it follows


def test_a_stale_link_to_a_playtest_of_other_rules_says_so(tmp_path: Path) -> None:
    st, c = castle(tmp_path)
    pid = c.playtest.id
    play_all([PlaytestSession(st, pid, c.tokens[s]) for s in (0, 1, 2)], random.Random(8), stop=5)
    st.db.execute("UPDATE actions SET hash='0000' WHERE playtest=? AND seq=3", (pid,))
    with pytest.raises(PlaytestError, match="第 3 步后的状态与记录不符"):
        PlaytestSession(st, pid, c.tokens[0])


@pytest.mark.parametrize("game", [g.name for g in registry.games()])
def test_every_game_plays_a_playtest_and_exports_it(tmp_path: Path, game: str) -> None:
    g = registry.get(game)
    st = SqliteStore(tmp_path)
    n = g.seats[0]
    c = manage.create(st, game, n, list(range(n)), think=0.0, seed=3)
    pages = [PlaytestSession(st, c.playtest.id, c.tokens[s]) for s in range(n)]
    play_all(pages, random.Random(9), stop=60)  # the whole match: the castle tests above
    for p in pages:
        p.sync()
    assert len({p.match.hash() for p in pages}) == 1
    log = read_log(manage.export(st, c.playtest.id, tmp_path / "x.jsonl"))
    assert log.game == game and len(log.records) == pages[0].seq
    assert replay(log, check=True).hash() == pages[0].match.hash()
