"""``throne playtest new|list|show|export|note`` (throne_lib/kit/playtest/cli.py): links
with tokens that let in their seat, an export that ``throne replay --check`` accepts."""

from __future__ import annotations

import random
import re
from pathlib import Path
from urllib.parse import parse_qs, urlparse

import pytest

from throne_lib.cli import main
from throne_lib.kit.playtest.session import PlaytestSession
from throne_lib.kit.playtest.store import SPECTATOR, SqliteStore


def test_new_prints_a_link_per_human_seat_and_one_for_spectators(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    store = str(tmp_path / "pt")
    argv = ["playtest", "--store", store, "new", "--game", "castle", "--players", "5"]
    assert main([*argv, "--humans", "3", "--think", "0", "--base", "http://h:9/x/"]) == 0
    out = capsys.readouterr().out
    urls = re.findall(r"http://\S+", out)
    assert len(urls) == 4 and "spectator: " in out
    st = SqliteStore(store)
    for url, seat in zip(urls, [0, 1, 2, SPECTATOR], strict=True):
        u = urlparse(url)
        assert u.path == "/x/voila/render/castle.ipynb"
        q = {k: v[0] for k, v in parse_qs(u.query).items()}
        assert int(q["seat"]) == seat
        assert PlaytestSession(st, q["playtest"], q["token"]).seat == seat
    pid = parse_qs(urlparse(urls[0]).query)["playtest"][0]
    pages = [PlaytestSession(st, pid, parse_qs(urlparse(u).query)["token"][0]) for u in urls[:3]]
    rng = random.Random(1)
    while not pages[0].is_over:
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))
    assert (
        main(["playtest", "--store", store, "note", pid, "--text", "这里不公平", "--after", "3"])
        == 0
    )
    assert main(["playtest", "--store", store, "list"]) == 0
    assert main(["playtest", "--store", store, "show", pid]) == 0
    out = capsys.readouterr().out
    assert "note after action 3 (spectator): 这里不公平" in out and "over" in out
    log = tmp_path / "t.jsonl"
    assert main(["playtest", "--store", store, "export", pid, "--log", str(log)]) == 0
    assert main(["replay", str(log), "--check"]) == 0
    assert "check: OK" in capsys.readouterr().out


def test_errors_are_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    store = str(tmp_path)
    assert main(["playtest", "--store", store, "show", "nope"]) == 1
    assert "no playtest 'nope'" in capsys.readouterr().err
    bad = ["playtest", "--store", store, "new", "--game", "castle", "--players", "5"]
    assert main([*bad, "--humans", "0,7"]) == 1
    assert "each must be one of 0..4" in capsys.readouterr().err
    assert main([*bad, "--agent", "nobody"]) == 1
    assert "unknown agent 'nobody'" in capsys.readouterr().err
    assert main(["playtest", "--store", store, "new", "--game", "castle", "--players", "2"]) == 1
    assert "3..8 seats" in capsys.readouterr().err
    (tmp_path / "junk").write_text("x" * 5000)
    assert main(["playtest", "--store", str(tmp_path / "junk"), "list"]) == 1
    assert "damaged" in capsys.readouterr().err
