"""Preheated kernels: the play page builds its page before anyone asks, waits for its
visitor with Voilà's request-info protocol, and rebuilds the board only when the last
settings or cards.csv changed while it waited (issue 17: navigation -> board); a
playtest seat page reads its link only from its own visitor (issue 37, item 5)."""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import ipywidgets as W
import pytest
import websockets

from throne_lib.games.throne.cards import DEFAULT_PATH
from throne_lib.games.throne.live import CardTableWatcher
from throne_lib.games.throne.ui.app import PlayApp
from throne_lib.kit.playtest.page import link_params, seat_page
from throne_lib.kit.ui.preheat import timeline, visitor_pending
from throne_lib.ui.demo import wait_for_visitor

ROOT = Path(__file__).resolve().parents[1]
# What the test server sends as the request's environment (a test may change it).
PAYLOAD = {"QUERY_STRING": "seed=5", "SERVER_PORT": "1"}


@pytest.fixture
def query_server() -> Iterator[tuple[int, list[str]]]:
    """A websocket server on 127.0.0.1 speaking Voilà's side of the protocol
    (voila/query/<kernel id> answers with the request's environment as JSON)."""
    paths: list[str] = []
    ready = threading.Event()
    port: list[int] = []
    stop: list[asyncio.Future[None]] = []

    async def handler(ws: websockets.ServerConnection) -> None:
        paths.append(ws.request.path if ws.request is not None else "")
        await ws.send(json.dumps(PAYLOAD))

    async def serve() -> None:
        # close_timeout: a client that leaves without a closing handshake must not hold
        # the server's shutdown (the default 10 s outlived the join below in CI)
        async with websockets.serve(handler, "127.0.0.1", 0, close_timeout=1) as server:
            port.append(server.sockets[0].getsockname()[1])
            stop.append(asyncio.get_running_loop().create_future())
            ready.set()
            await stop[0]

    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_until_complete, args=(serve(),))
    thread.start()
    assert ready.wait(10)
    yield port[0], paths
    loop.call_soon_threadsafe(stop[0].set_result, None)
    thread.join(60)
    assert not thread.is_alive(), "the query server did not stop"
    loop.close()


def test_wait_for_visitor_is_a_no_op_outside_a_pool_kernel(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("VOILA_PREHEAT", raising=False)
    monkeypatch.setenv("VOILA_APP_PORT", "1")  # nothing listens there: must not be asked
    wait_for_visitor()


def test_wait_for_visitor_takes_the_request_info(
    monkeypatch: pytest.MonkeyPatch, query_server: tuple[int, list[str]]
) -> None:
    port, paths = query_server
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_KERNEL_ID", "k-123")
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    monkeypatch.setenv("VOILA_SERVER_URL", "/base/")
    monkeypatch.delenv("VOILA_WS_BASE_URL", raising=False)
    monkeypatch.delenv("QUERY_STRING", raising=False)
    wait_for_visitor()
    assert paths == ["/base/voila/query/k-123"]
    assert os.environ["QUERY_STRING"] == "seed=5"
    monkeypatch.delenv("QUERY_STRING")
    monkeypatch.delenv("SERVER_PORT")


def test_wait_for_visitor_without_a_server_goes_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """No server to ask (a refused connection): the page is still shown, not hung."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        free = s.getsockname()[1]
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_KERNEL_ID", "k")
    monkeypatch.setenv("VOILA_APP_PORT", str(free))
    wait_for_visitor()


def test_a_page_built_before_its_visitor_follows_what_changed_meanwhile(
    tmp_path: Path,
) -> None:
    table = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, table)
    settings = tmp_path / "play_settings.json"
    watcher = CardTableWatcher(table, settle=0)
    app = PlayApp(ai_mode="manual", watcher=watcher, autostart=True, settings=settings)
    first = app.match_widget
    assert first is not None
    app.on_visit()  # nothing changed: the board built while heated is the one shown
    assert app.match_widget is first
    # another page started a match with other choices while this kernel waited
    settings.write_text(
        json.dumps({"blue": "elf_queen", "seed": 42, "rules": "quick"}), encoding="utf-8"
    )
    app.on_visit()
    second = app.match_widget
    assert second is not None and second is not first
    assert second.match.state.sides[0].general == "elf_queen" and second.match.seed == 43
    assert second.match.rules.round_limit == 5
    # cards.csv was edited while it waited: the new board uses the new table
    text = table.read_text(encoding="utf-8")
    row = next(line for line in text.splitlines() if line.startswith("holy_light,"))
    fields = row.split(",")
    fields[4] = str(int(fields[4]) + 1)
    table.write_text(text.replace(row, ",".join(fields), 1), encoding="utf-8")
    app.on_visit()
    third = app.match_widget
    assert third is not None and third is not second
    assert third.match.db["holy_light"].cost == int(fields[4])
    assert third.match.seed == 43


def pool_kernel(monkeypatch: pytest.MonkeyPatch, port: int, kernel_id: str) -> None:
    """This process as a Voilà pool kernel that Voilà started to refill the pool after
    another seat's page took the previous one: it carries that page's URL."""
    monkeypatch.setenv("VOILA_PREHEAT", "True")
    monkeypatch.setenv("VOILA_KERNEL_ID", kernel_id)
    monkeypatch.setenv("VOILA_APP_PORT", str(port))
    monkeypatch.setenv("VOILA_SERVER_URL", "/")
    monkeypatch.delenv("VOILA_WS_BASE_URL", raising=False)
    monkeypatch.setenv(
        "VOILA_REQUEST_URL", "http://h/voila/render/castle.ipynb?playtest=P1&seat=0&token=t0"
    )
    monkeypatch.setenv("QUERY_STRING", "playtest=P1&seat=0&token=t0")  # never read
    monkeypatch.setenv("SERVER_PORT", "1")  # restored with the rest


def test_a_pool_kernel_reads_its_own_visitors_link_only(
    monkeypatch: pytest.MonkeyPatch, query_server: tuple[int, list[str]]
) -> None:
    port, paths = query_server
    pool_kernel(monkeypatch, port, "k-seat")
    monkeypatch.setitem(PAYLOAD, "QUERY_STRING", "playtest=P2&seat=3&token=t3")
    assert visitor_pending()
    # reading the link waits for the visitor first: seat 3's link, not seat 0's
    assert link_params() == {"playtest": "P2", "token": "t3", "seat": "3"}
    assert paths == ["/voila/query/k-seat"]
    assert "VOILA_REQUEST_URL" not in os.environ  # the previous seat's token is gone
    assert not visitor_pending()
    assert link_params() == {"playtest": "P2", "token": "t3", "seat": "3"}
    assert paths == ["/voila/query/k-seat"]  # the visitor came once: no second wait
    monkeypatch.delenv("QUERY_STRING")


def test_the_timeline_names_the_kernel_and_event_only_when_asked(
    monkeypatch: pytest.MonkeyPatch,
    query_server: tuple[int, list[str]],
    capfd: pytest.CaptureFixture[str],
) -> None:
    """benchmarks/join_at_once.py --timeline sets $THRONE_TIMELINE: a pool kernel logs
    when its visitor came (kernel id, event, wall clock), never the visitor's link."""
    port, _ = query_server
    monkeypatch.delenv("THRONE_TIMELINE", raising=False)
    timeline("built")
    assert "[throne] timeline" not in capfd.readouterr().err
    monkeypatch.setenv("THRONE_TIMELINE", "1")
    pool_kernel(monkeypatch, port, "k-time")
    monkeypatch.setitem(PAYLOAD, "QUERY_STRING", "playtest=P9&seat=1&token=secret-t1")
    assert link_params() == {"playtest": "P9", "token": "secret-t1", "seat": "1"}
    err = capfd.readouterr().err
    assert re.search(r"^\[throne\] timeline k-time visitor \d+\.\d{3}$", err, re.M), err
    assert "secret-t1" not in err and "P9" not in err
    monkeypatch.delenv("QUERY_STRING")


def test_a_pool_kernel_opened_without_a_link_shows_the_single_player_page(
    monkeypatch: pytest.MonkeyPatch, query_server: tuple[int, list[str]]
) -> None:
    port, paths = query_server
    pool_kernel(monkeypatch, port, "k-single")
    monkeypatch.setitem(PAYLOAD, "QUERY_STRING", "")
    single = W.HTML("single")
    joined: list[object] = []
    assert seat_page(joined.append, lambda: single) is single
    assert joined == [] and paths == ["/voila/query/k-single"]
    monkeypatch.delenv("QUERY_STRING")


def pooled_notebooks() -> list[str]:
    cfg = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    assert cfg["VoilaConfiguration"]["preheat_kernel"] is True
    pools = cfg["VoilaKernelManager"]["kernel_pools_config"]
    assert pools["default"]["pool_size"] == 0
    return sorted(k for k, v in pools.items() if k != "default" and v["pool_size"] > 0)


def test_the_seat_pages_are_preheated_for_a_playtest() -> None:
    """Five people of a 城堡之心 or 城池战 playtest, two of a PIN or Throne duel, find a
    kernel each."""
    cfg = json.loads((ROOT / "voila.json").read_text(encoding="utf-8"))
    pools = cfg["VoilaKernelManager"]["kernel_pools_config"]
    assert pools["castle.ipynb"]["pool_size"] >= 5
    assert pools["cities.ipynb"]["pool_size"] >= 5
    assert pools["pin.ipynb"]["pool_size"] >= 2
    assert pools["play.ipynb"]["pool_size"] >= 2


@pytest.mark.parametrize("notebook", pooled_notebooks())
def test_a_pooled_notebook_waits_for_its_visitor(notebook: str) -> None:
    """A pool kernel runs its notebook before anyone asks: without the wait the page
    would be built for nobody (no link, no settings of its visitor). A seat page reads
    its link after the wait (``link_params`` also waits, whatever the notebook does)."""
    nb = json.loads((ROOT / "notebooks" / notebook).read_text(encoding="utf-8"))
    code = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")
    assert "wait_for_visitor()" in code
    before = code[: code.index("wait_for_visitor()")]
    assert not re.search(r"\b(seat_page|castle_page|pin_page|cities_page|throne_page)\(", before)
