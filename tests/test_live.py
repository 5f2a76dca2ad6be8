"""The live card table: a watcher reloads cards.csv when it changes on disk (in place or
by an atomic rename), keeps the last valid table when an edit breaks it, and a hot
swap in a running match is logged so the replay reproduces the match exactly
(R-TURN-12: a match is determined by its seed, its actions and its table swaps)."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
from pathlib import Path

import pytest

from throne_lib import Match, SideSetup
from throne_lib.games.throne.cards import DEFAULT_PATH, CardTableError
from throne_lib.games.throne.live import CardTableWatcher, TableUpdate, cards_path, hot_swap
from throne_lib.kit.agents import RandomAgent
from throne_lib.kit.carddiff import Sheet
from throne_lib.kit.log import LogError, MatchRecorder, parse_log, read_log, replay, write_log
from throne_lib.kit.textfile import write_atomic


@pytest.fixture
def table(tmp_path: Path) -> Path:
    path = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, path)
    return path


def edit(path: Path | str, card: str, **values: str) -> str:
    """The table at ``path`` (or this text) with some cells of one card changed."""
    sheet = Sheet.parse(path.read_text(encoding="utf-8") if isinstance(path, Path) else path)
    row = next(r for r in sheet.rows if r.values[0] == card)
    for col, value in values.items():
        row.values[sheet.header.index(col)] = value
    return sheet.text()


def bump_mtime(path: Path) -> None:
    """Make sure the stamp differs even on a filesystem with coarse timestamps."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))


class Seen:
    def __init__(self) -> None:
        self.updates: list[TableUpdate] = []

    def __call__(self, update: TableUpdate) -> None:
        self.updates.append(update)


def test_in_place_edit_is_reloaded_and_subscribers_see_the_new_card(table: Path) -> None:
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    seen = Seen()
    w.subscribe(seen)
    assert w.check() is False  # nothing changed yet
    old_hash = w.db.hash
    text = edit(table, "militia", hp="7")
    inode = table.stat().st_ino
    with table.open("w", encoding="utf-8") as f:  # in place: same inode
        f.write(text)
    assert table.stat().st_ino == inode
    bump_mtime(table)
    assert w.check() is True
    assert w.db["militia"].hp == 7 and w.db.hash != old_hash
    assert [u.changed for u in seen.updates] == [True]
    assert seen.updates[0].db["militia"].hp == 7 and seen.updates[0].errors == ()


def test_same_size_rewrite_within_the_timestamp_granularity_is_seen(table: Path) -> None:
    """Two in-place writes of the same size may leave (mtime, size, inode) alike on a
    coarse clock; a fresh file is compared byte for byte as well."""
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    st = table.stat()
    hp = w.db["militia"].hp
    hp2 = hp + 1 if len(str(hp + 1)) == len(str(hp)) else hp - 1
    text = edit(table, "militia", hp=str(hp2))  # same size
    assert len(text.encode()) == st.st_size
    with table.open("w", encoding="utf-8") as f:
        f.write(text)
    os.utime(table, ns=(st.st_atime_ns, st.st_mtime_ns))  # the stamp as before
    assert (table.stat().st_mtime_ns, table.stat().st_size) == (st.st_mtime_ns, st.st_size)
    assert w.check() is True and w.db["militia"].hp == hp2
    assert w.check() is False  # and then nothing more to see


def test_atomic_rename_save_is_reloaded(table: Path) -> None:
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    seen = Seen()
    w.subscribe(seen)
    inode = table.stat().st_ino
    write_atomic(table, edit(table, "militia", attack="3"))  # tempfile + os.replace
    assert table.stat().st_ino != inode
    assert w.check() is True
    assert w.db["militia"].attack == 3
    assert len(seen.updates) == 1 and seen.updates[0].changed


def test_broken_table_keeps_the_old_one_and_names_row_and_column(table: Path) -> None:
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    seen = Seen()
    w.subscribe(seen)
    good = w.db
    row = good["militia"].row
    write_atomic(table, edit(table, "militia", hp="many", race="orc"))
    assert w.check() is True
    assert w.db is good  # the last valid table stays in force
    assert f"cards.csv:{row}:hp: expected a whole number, got 'many'" in w.errors
    assert any(e.startswith(f"cards.csv:{row}:race: ") for e in w.errors)
    assert seen.updates[-1].errors == tuple(w.errors) and not seen.updates[-1].changed
    # a half-written file (cut in the middle of a quoted cell) is just another bad table
    text = table.read_text(encoding="utf-8")
    table.write_text(text[: text.index('"skill') + 8], encoding="utf-8")
    bump_mtime(table)
    assert w.check() is True
    assert w.db is good and w.errors and all(e.startswith("cards.csv:") for e in w.errors)
    # the file disappears for a moment (some editors delete then write)
    table.unlink()
    assert w.check() is True and w.errors == ["cards.csv:1:-: the file is missing (being saved?)"]
    # fixed: the next valid save applies and clears the errors
    write_atomic(table, edit(DEFAULT_PATH.read_text(encoding="utf-8"), "militia", hp="4"))
    assert w.check() is True
    assert w.errors == [] and w.db["militia"].hp == 4
    assert seen.updates[-1].changed and seen.updates[-1].errors == ()


def test_same_errors_again_do_not_notify_twice(table: Path) -> None:
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    seen = Seen()
    w.subscribe(seen)
    write_atomic(table, "id,name\n")
    assert w.check() is True
    write_atomic(table, "id,name\n")
    assert w.check() is False
    assert len(seen.updates) == 1


def test_a_failing_subscriber_does_not_stop_the_others(table: Path) -> None:
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing

    def broken(update: TableUpdate) -> None:
        raise RuntimeError("boom")

    seen = Seen()
    w.subscribe(broken)
    unsubscribe = w.subscribe(seen)
    write_atomic(table, edit(table, "militia", cost="2"))
    w.check()
    assert len(seen.updates) == 1 and "boom" in w.callback_errors[0]
    unsubscribe()
    write_atomic(table, edit(table, "militia", cost="3"))
    w.check()
    assert len(seen.updates) == 1


def test_a_broken_table_at_start_raises(tmp_path: Path) -> None:
    path = tmp_path / "cards.csv"
    path.write_text("id,name\n", encoding="utf-8")
    with pytest.raises(CardTableError):
        CardTableWatcher(path)


def test_cards_path_honours_the_environment(monkeypatch: pytest.MonkeyPatch, table: Path) -> None:
    monkeypatch.delenv("THRONE_CARDS", raising=False)
    assert cards_path() == DEFAULT_PATH
    monkeypatch.setenv("THRONE_CARDS", str(table))
    assert cards_path() == table
    assert CardTableWatcher().path == table


def test_the_polling_task_reloads_within_its_interval(table: Path) -> None:
    async def scenario() -> tuple[int, int]:
        w = CardTableWatcher(table, interval=0.01)
        got: asyncio.Queue[TableUpdate] = asyncio.Queue()
        w.subscribe(got.put_nowait)
        w.start()
        assert w.running
        await asyncio.sleep(0.03)
        write_atomic(table, edit(table, "militia", hp="9"))
        update = await asyncio.wait_for(got.get(), timeout=30)  # a bound, not a timing assert
        w.stop()
        await asyncio.sleep(0)
        return update.db["militia"].hp, w.reloads

    assert asyncio.run(scenario()) == (9, 1)


def test_follow_reads_an_edit_made_while_the_kernel_waited_then_polls(table: Path) -> None:
    """``kit.live.follow``, as a preheated page calls it when its visitor comes: the table
    edited while the kernel waited is read at once (no settling), then every watcher
    polls on the loop."""
    from throne_lib.kit.live import follow

    async def scenario() -> tuple[int, bool, int]:
        w = CardTableWatcher(table, interval=0.01, settle=60)  # the poll alone would wait
        write_atomic(table, edit(table, "militia", hp="7"))
        follow(w)
        hp_at_once, running = w.db["militia"].hp, w.running
        w.stop()
        await asyncio.sleep(0)
        return hp_at_once, running, w.reloads

    assert asyncio.run(scenario()) == (7, True, 1)


# --- hot swap in a running match ------------------------------------------------------------


def _play_until(match: Match, rec: MatchRecorder, agents: list[RandomAgent], cond: object) -> None:
    assert callable(cond)
    for _ in range(20_000):
        if match.is_over or cond(match):
            return
        rec.apply(agents[match.turn].choose(match))
    raise AssertionError("condition never met")


def _units(match: Match, card: str) -> list[tuple[int, int, int]]:
    return [(u.uid, u.attack, u.max_hp) for u in match.state.board if u and u.card == card]


def _soldier_on_board(match: Match) -> str | None:
    found = [u.card for u in match.state.board if u and match.db[u.card].kind == "soldier"]
    return found[0] if found else None


def test_edit_mid_match_then_replay_reproduces_the_final_state(table: Path) -> None:
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    db0 = w.db
    m = Match.new(db0, SideSetup.signature(db0, "human"), SideSetup.signature(db0, "undead"), 5)
    out = io.StringIO()
    rec = MatchRecorder(m, out)
    agents = [RandomAgent(50), RandomAgent(51)]
    swaps: list[str] = []
    w.subscribe(lambda u: swaps.append(hot_swap(m, u.db, rec).note) if u.changed else None)

    _play_until(m, rec, agents, lambda mm: _soldier_on_board(mm) is not None)
    card = _soldier_on_board(m)
    assert card is not None, "no soldier was summoned"
    old = db0[card]
    before = _units(m, card)
    assert before and all((a, hp) == (old.attack, old.hp) for _, a, hp in before)

    # a broken edit: the match goes on with its table
    write_atomic(table, edit(table, card, hp="x"))
    w.check()
    assert w.errors and swaps == [] and m.db is db0
    rec.apply(agents[m.turn].choose(m))

    # the fix, with a balance change: +1 attack, +3 HP
    atk, hp = old.attack + 1, old.hp + 3
    write_atomic(table, edit(table, card, attack=str(atk), hp=str(hp)))
    w.check()
    assert w.errors == [] and len(swaps) == 1 and swaps[0].endswith(f"changed: {card}")
    assert m.db is w.db and m.db[card].hp == hp
    # units already on the board keep their current stats
    still = {uid: (a, h) for uid, a, h in _units(m, card)}
    assert all(still[uid] == (a, h) for uid, a, h in before if uid in still)

    # a unit of that card summoned after the swap takes the new definition
    _play_until(m, rec, agents, lambda mm: any(h == hp for _, _, h in _units(mm, card)))
    assert any((a, h) == (atk, hp) for _, a, h in _units(m, card))
    _play_until(m, rec, agents, lambda mm: False)  # to the end
    assert m.is_over

    log = parse_log(out.getvalue())
    assert len(log.swaps) == 1 and log.swaps[0].db.hash == w.db.hash
    assert log.swaps[0].changed == (card,)
    replayed = replay(log)  # checks the state hash after every action
    assert replayed.hash() == m.hash() and replayed.db.hash == m.db.hash
    assert replayed.result_text() == m.result_text()

    # the log rebuilt from the match's history (write_log) carries the swap too
    path = table.with_name("match.jsonl")
    write_log(m, path)
    rebuilt = read_log(path)
    assert rebuilt.header.db.hash == db0.hash and [s.after for s in rebuilt.swaps] == [
        log.swaps[0].after
    ]
    assert replay(rebuilt).hash() == m.hash()

    # without the swap line the log no longer replays: the swap matters
    lines = [ln for ln in out.getvalue().splitlines() if not ln.startswith('{"swap"')]
    with pytest.raises(LogError):
        replay(parse_log("\n".join(lines) + "\n"))


def test_hot_swap_refuses_a_table_without_a_card_in_use(table: Path) -> None:
    w = CardTableWatcher(table, settle=0)  # reload semantics, not timing
    db0 = w.db
    m = Match.new(db0, SideSetup.signature(db0, "human"), SideSetup.signature(db0, "undead"), 1)
    sheet = Sheet.parse(table.read_text(encoding="utf-8"))
    sheet.rows = [r for r in sheet.rows if r.values[0] != "lionheart"]
    write_atomic(table, sheet.text())
    w.check()
    assert w.errors == [] and "lionheart" not in w.db
    with pytest.raises(ValueError, match="lionheart"):
        hot_swap(m, w.db)
    assert m.db is db0  # the match keeps its table
    assert hot_swap(m, db0).note == "unchanged"
