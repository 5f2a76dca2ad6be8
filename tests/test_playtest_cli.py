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


def test_set_changes_the_playtests_rules(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--set round_limit=1``: a one-round PIN playtest (PIN-TURN-7) whose pages and
    export rebuild those rules from the stored header."""
    store = str(tmp_path)
    argv = ["playtest", "--store", store, "new", "--game", "pin", "--humans", "2"]
    assert main([*argv, "--set", "round_limit=1"]) == 0
    urls = re.findall(r"http://\S+", capsys.readouterr().out)
    tokens = [parse_qs(urlparse(u).query) for u in urls[:2]]
    st = SqliteStore(store)
    pages = [PlaytestSession(st, q["playtest"][0], q["token"][0]) for q in tokens]
    assert pages[0].match.rules.round_limit == 1
    rng = random.Random(2)
    while not pages[0].is_over:
        for p in pages:
            p.tick()
            if p.my_turn():
                p.submit(rng.choice(p.legal()))
    assert pages[0].match.end_reason == "round_limit" and pages[0].seq < 40
    assert main([*argv, "--set", "nope=1"]) == 1
    assert "pin has no rule field 'nope'" in capsys.readouterr().err


def test_options_the_log_header_would_lose_are_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from throne_lib.kit.playtest import manage

    real = manage.header_dict
    monkeypatch.setattr(
        manage, "header_dict", lambda g, h: {k: v for k, v in real(g, h).items() if k != "options"}
    )
    st = SqliteStore(tmp_path)
    with pytest.raises(ValueError, match="does not carry"):
        manage.create(st, "pin", 2, 2, options={"rules": {"round_limit": 1}})
    assert st.playtests() == []  # nothing stored
