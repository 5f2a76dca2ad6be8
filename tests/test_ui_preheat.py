"""The play page's preheated kernel: it builds the page before anyone asks, waits for its
visitor with Voilà's request-info protocol, and rebuilds the board only when the last
settings or cards.csv changed while it waited (issue 17: navigation -> board)."""

from __future__ import annotations

import asyncio
import json
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import websockets

from throne_lib.games.throne.cards import DEFAULT_PATH
from throne_lib.games.throne.live import CardTableWatcher
from throne_lib.games.throne.ui.app import PlayApp
from throne_lib.ui.demo import wait_for_visitor


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
        await ws.send(json.dumps({"QUERY_STRING": "seed=5", "SERVER_PORT": "1"}))

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
    import os

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
