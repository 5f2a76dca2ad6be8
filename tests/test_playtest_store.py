"""The playtest store (docs/playtests.md): hashed tokens, compare-and-set appends (also
across processes), leases, presence, and clear errors for a corrupt or locked file."""

from __future__ import annotations

import multiprocessing
import sqlite3
from pathlib import Path

import pytest

from throne_lib.kit.playtest.store import (
    SPECTATOR,
    NewPlaytest,
    SeatSpec,
    SqliteStore,
    StoreError,
    token_hash,
)

SEATS = (
    SeatSpec("human", "scripted", 1),
    SeatSpec("ai", "scripted", 2),
    SeatSpec("human", "scripted", 3),
)


def make(tmp_path: Path) -> tuple[SqliteStore, str, dict[int, str]]:
    st = SqliteStore(tmp_path)
    header = {"format": "throne-log", "game": "castle"}
    c = st.create(NewPlaytest("castle", header, SEATS, 0.5, 60.0, "t"))
    return st, c.playtest.id, c.tokens


def test_wal_mode_and_tokens_stored_only_hashed(tmp_path: Path) -> None:
    st, pid, tokens = make(tmp_path)
    assert st.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert set(tokens) == {0, 2, SPECTATOR}  # the AI seat has no link
    raw = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    for tok in tokens.values():
        assert len(tok) >= 22  # ≥ 128 bits in URL-safe base64
        assert tok.encode() not in raw
    rows = st.db.execute("SELECT seat, token_sha256 FROM seats WHERE playtest=?", (pid,)).fetchall()
    assert {s: h for s, h in rows if s in tokens} == {s: token_hash(t) for s, t in tokens.items()}
    assert st.seat_of(pid, tokens[2]) == 2
    assert st.seat_of(pid, tokens[SPECTATOR]) == SPECTATOR
    assert st.seat_of(pid, tokens[2] + "x") is None
    assert st.seat_of(pid, "") is None
    assert st.get(pid).seats == SEATS
    assert [p.id for p in st.playtests()] == [pid]
    with pytest.raises(KeyError):
        st.get("nope")


def test_append_is_compare_and_set(tmp_path: Path) -> None:
    st, pid, _ = make(tmp_path)
    assert st.append(pid, 1, "a", "h1", 0, "human")
    assert not st.append(pid, 1, "b", "h1b", 2, "human")  # the other click lost
    assert not st.append(pid, 3, "c", "h3", 0, "human")  # a page that missed action 2
    assert st.append(pid, 2, "c", "h2", 1, "ai")
    assert [(a.seq, a.action, a.hash, a.seat, a.by) for a in st.actions(pid)] == [
        (1, "a", "h1", 0, "human"),
        (2, "c", "h2", 1, "ai"),
    ]
    assert [a.seq for a in st.actions(pid, after=1)] == [2]
    assert st.count(pid) == 2


def _hammer(path: str, pid: str, who: int, n: int) -> None:
    st = SqliteStore(path)
    done = 0
    while done < n:
        seq = st.count(pid) + 1
        if st.append(pid, seq, f"w{who}-{done}", f"h{seq}", who, "human"):
            done += 1


def test_two_processes_appending_at_once_give_one_order(tmp_path: Path) -> None:
    st, pid, _ = make(tmp_path)
    ctx = multiprocessing.get_context("fork")
    procs = [ctx.Process(target=_hammer, args=(str(tmp_path), pid, w, 40)) for w in (0, 2)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    acts = st.actions(pid)
    assert [a.seq for a in acts] == list(range(1, 81))  # none lost, none doubled
    assert [a.hash for a in acts] == [f"h{i}" for i in range(1, 81)]
    for w in (0, 2):  # each writer's own actions in its own order
        mine = [a.action for a in acts if a.seat == w]
        assert mine == [f"w{w}-{k}" for k in range(40)]


def test_lease_one_holder_then_taken_over(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import throne_lib.kit.playtest.store as store_mod

    st, pid, _ = make(tmp_path)
    clock = [1000.0]
    monkeypatch.setattr(store_mod, "now", lambda: clock[0])
    assert st.lease(pid, "A", 3.0)
    assert not st.lease(pid, "B", 3.0)
    clock[0] += 2.0
    assert st.lease(pid, "A", 3.0)  # renewed
    clock[0] += 2.5
    assert not st.lease(pid, "B", 3.0)
    clock[0] += 1.0  # A's lease ran out: its page closed without a word
    assert st.lease(pid, "B", 3.0)
    assert not st.lease(pid, "A", 3.0)
    st.release(pid, "B")
    assert st.lease(pid, "A", 3.0)
    st.seen(pid, 2)
    assert st.last_seen(pid)[2] == clock[0]
    assert st.last_seen(pid)[0] == 0.0


def test_notes_in_order_of_their_moment(tmp_path: Path) -> None:
    st, pid, _ = make(tmp_path)
    st.add_note(pid, 5, 0, "这里不公平")
    st.add_note(pid, 2, SPECTATOR, "早")
    assert [(n.after, n.seat, n.text) for n in st.notes(pid)] == [
        (2, SPECTATOR, "早"),
        (5, 0, "这里不公平"),
    ]


def test_a_corrupt_store_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "playtests.sqlite"
    bad.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match=r"playtests\.sqlite: the playtest store is damaged"):
        SqliteStore(tmp_path)


def test_a_locked_store_is_named(tmp_path: Path) -> None:
    st, pid, _ = make(tmp_path)
    other = sqlite3.connect(str(tmp_path / "playtests.sqlite"), isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")
    try:
        st.db.execute("PRAGMA busy_timeout=100")
        with pytest.raises(StoreError, match="locked by another program"):
            st.append(pid, 1, "a", "h", 0, "human")
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert st.append(pid, 1, "a", "h", 0, "human")  # nothing lost, usable again


def test_another_schema_is_refused(tmp_path: Path) -> None:
    st, _, _ = make(tmp_path)
    st.db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    st.close()
    with pytest.raises(StoreError, match="schema 99"):
        SqliteStore(tmp_path)
