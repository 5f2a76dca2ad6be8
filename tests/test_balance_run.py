"""A balance run re-read from its file (``throne balance show``), its agent recorded, and
``throne balance verify --agent B``'s table of where a conclusion flips between agents
(throne_lib/kit/balance_run.py; docs/balance.md, "Re-reading a run"). Issue #38, items
1 and 4."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from throne_lib.cli import main as throne_main
from throne_lib.games.throne.cards import DEFAULT_PATH
from throne_lib.kit import balance_cli
from throne_lib.kit.balance import FIRST, GroupRate, Measure, Targets, base_values
from throne_lib.kit.balance_run import agent_flips, agents_text, load_run
from throne_lib.kit.registry import games

FOUR = "lionheart,pain_lord,saint_marshal,beast_king"
CHANGE = re.compile(r"^  (rules|\w+)(?: \((.+?)\))?\.(\S+): (-?\d+) -> (-?\d+)$")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A tiny run through the command line (random agent, four generals, the second-seat
    rules knobs in the space), with the in-memory result ``save_result`` was given."""
    tmp = tmp_path_factory.mktemp("run")
    cards = tmp / "cards.csv"
    shutil.copy(DEFAULT_PATH, cards)
    out, report = tmp / "b.parquet", tmp / "b.txt"
    argv = ["balance", "suggest", "--cards", str(cards), "--agent", "random"]
    argv += ["--generals", FOUR, "--population", "4", "--generations", "2", "--blocks", "2"]
    argv += ["--holdout-blocks", "2", "--workers", "1", "--no-progress", "--seed", "2"]
    argv += [
        "--no-prune"
    ]  # a 2-block holdout confirms no change (pruning: test_balance_verify_run)
    argv += ["--out", str(out), "--report", str(report)]
    seen: list[Any] = []
    real = balance_cli.save_result

    def spy(res: Any, *a: Any, **k: Any) -> Path:
        seen.append(res)
        return real(res, *a, **k)

    mp = pytest.MonkeyPatch()
    mp.setattr(balance_cli, "save_result", spy)
    try:
        assert throne_main(argv) == 0
    finally:
        mp.undo()
    return {"res": seen[0], "out": out, "report": report, "cards": cards, "argv": argv}


def shown_changes(text: str) -> dict[int, list[tuple[str, str, int, int]]]:
    """``balance show``'s change lines by proposal: (card or "rules", field, old, new)."""
    out: dict[int, list[tuple[str, str, int, int]]] = {}
    number = 0
    for line in text.splitlines():
        head = re.match(r"^== proposal (\d+):", line)
        if head:
            number = int(head.group(1))
            out[number] = []
        m = CHANGE.match(line)
        if m and number:
            out[number].append((m.group(1), m.group(3), int(m.group(4)), int(m.group(5))))
    return out


def test_show_reprints_every_change_of_every_proposal(
    run: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """Round trip: the file alone gives back each proposal's full change list (card,
    field, the value it was made from, the proposed one) as the run made it."""
    res = run["res"]
    capsys.readouterr()
    assert throne_main(["balance", "show", str(run["out"])]) == 0
    text = capsys.readouterr().out
    got = shown_changes(text)
    assert sorted(got) == [p.number for p in res.proposals]
    assert sum(len(p.changes) for p in res.proposals) >= 2, text  # seed 2 finds some
    for p in res.proposals:
        base = base_values(p.changes, res.space)
        want = sorted((k.partition(".")[0], k.partition(".")[2], base[k], v) for k, v in p.changes)
        assert sorted(got[p.number]) == want, text
        assert f"imbalance search {p.search_imbalance:.3f}" in text
    # one proposal alone, with its verification figures beside the unchanged table's
    # (the verdict's figures: #38 item 2)
    one = res.proposals[-1]
    assert throne_main(["balance", "show", str(run["out"]), str(one.number)]) == 0
    alone = capsys.readouterr().out
    assert list(shown_changes(alone)) == [one.number]
    row = re.search(r"^(.{26})(.{26})(yes|NO)\s+lionheart 狮心王$", alone, re.M)
    assert row is not None, alone
    lion = one.verified.rates["lionheart"]
    assert f"{100 * lion.win_rate:5.1f}% [{100 * lion.ci_low:4.1f}" in row.group(2)


def test_the_file_records_the_run_options_agent_and_command(
    run: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    res = run["res"]
    frame = pd.read_parquet(run["out"])
    rec = json.loads(frame["run_json"].iloc[0])
    assert rec["agent"] == "random" and rec["game"] == "throne" and rec["seed"] == 2
    assert rec["command"] == "throne " + " ".join(run["argv"])
    assert rec["budget"]["population"] == 4 and rec["budget"]["holdout_blocks"] == 2
    assert rec["options"]["generals"] == FOUR
    assert rec["matches_played"] == res.matches_played
    assert len(rec["cards"]["sha256"]) == 64
    assert rec["front"] and len(rec["history"]) == res.generations_run + 1
    assert json.loads(frame["options_json"].iloc[0])["agent"] == "random"
    # every measurement: each group's holdout rate and interval, per proposal
    for p in res.proposals:
        rows = frame[frame["proposal"] == p.number].set_index("group")
        for g, r in p.after.rates.items():
            assert rows.loc[g, "after"] == pytest.approx(r.win_rate, nan_ok=True)
            assert rows.loc[g, "after_low"] == pytest.approx(r.ci_low)
            assert rows.loc[g, "matches"] == r.matches
    # the report and show name the agent and the command
    assert "agent: random (every seat)" in run["report"].read_text(encoding="utf-8")
    capsys.readouterr()
    assert throne_main(["balance", "show", str(run["out"])]) == 0
    text = capsys.readouterr().out
    assert "game: throne; agent: random (every seat); seed 2" in text
    assert f"command: {rec['command']}" in text


def test_a_runs_default_agent_is_the_games_scripted_one() -> None:
    for g in games():
        if not g.balance:
            continue
        h = balance_cli.hooks(g.name)
        assert balance_cli.options(g.name).agent == h.default_agent != "random"


def test_show_errors_name_the_problem(
    run: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "none.parquet"
    assert throne_main(["balance", "show", str(missing)]) == 1
    assert f"{missing}: no such file; expected a Parquet file" in capsys.readouterr().err
    garbage = tmp_path / "bad.parquet"
    garbage.write_bytes(b"not parquet at all")
    assert throne_main(["balance", "show", str(garbage)]) == 1
    assert "not a readable Parquet file" in capsys.readouterr().err
    cut = tmp_path / "cut.parquet"  # a real file, truncated
    data = Path(run["out"]).read_bytes()
    cut.write_bytes(data[: len(data) // 2])
    assert throne_main(["balance", "show", str(cut)]) == 1
    assert "not a readable Parquet file" in capsys.readouterr().err
    other = tmp_path / "other.parquet"  # Parquet, but not balance results
    pd.DataFrame({"winner": [0, 1]}).to_parquet(other)
    assert throne_main(["balance", "show", str(other)]) == 1
    assert "not balance results (lacks column(s) proposal" in capsys.readouterr().err
    damaged = tmp_path / "damaged.parquet"
    frame = pd.read_parquet(run["out"])
    frame["run_json"] = "{oops"
    frame.to_parquet(damaged)
    assert throne_main(["balance", "show", str(damaged)]) == 1
    assert "a damaged run record" in capsys.readouterr().err
    n = len(run["res"].proposals) + 1
    assert throne_main(["balance", "show", str(run["out"]), str(n)]) == 1
    err = capsys.readouterr().err
    assert f"no proposal {n}; there are {[p.number for p in run['res'].proposals]}" in err
    assert throne_main(["balance", "show", str(run["out"]), "0"]) == 1
    assert "no proposal 0" in capsys.readouterr().err


def test_a_file_from_before_run_records_still_shows(
    run: dict[str, Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    old = tmp_path / "old.parquet"
    frame = pd.read_parquet(run["out"])
    frame.drop(columns=["run_json", "change_list_json", "matchups_json"]).to_parquet(old)
    capsys.readouterr()
    assert throne_main(["balance", "show", str(old)]) == 0
    text = capsys.readouterr().out
    assert "predates run records" in text and "agent: random" in text
    assert throne_main(["balance", "show", str(run["out"])]) == 0
    full_text = capsys.readouterr().out
    want = {n: sorted(c) for n, c in shown_changes(full_text).items()}
    assert {n: sorted(c) for n, c in shown_changes(text).items()} == want


def _measure(rates: dict[str, float], targets: Targets) -> Measure:
    got = {g: GroupRate(g, 100, r, r - 0.1, r + 0.1) for g, r in rates.items()}
    out = 0.0
    for g, r in rates.items():
        if g == FIRST:
            out += max(0.0, r - targets.first_seat_max)
        else:
            out += max(0.0, targets.band[0] - r, r - targets.band[1])
    return Measure(got, 10.0, out, out == 0)


def test_a_conclusion_that_differs_between_agents_is_marked() -> None:
    """Constructed: under A the first seat is over its bound and 狮心王 out of band;
    under B the first seat is under it, 狮心王 in, 苦痛领主 out; 圣光元帅 is in under both."""
    t = Targets((0.40, 0.60), 0.55)
    a = _measure({"lion": 0.35, "pain": 0.50, "saint": 0.45, FIRST: 0.70}, t)
    b = _measure({"lion": 0.45, "pain": 0.65, "saint": 0.55, FIRST: 0.48}, t)
    flips = {f.group: f for f in agent_flips(["lion", "pain", "saint"], t, a, b)}
    assert [g for g, f in flips.items() if f.flips] == [FIRST, "lion", "pain"]
    assert not flips["saint"].flips and flips["saint"].ok_a and flips["saint"].ok_b
    text = agents_text(
        ["lion", "pain", "saint"],
        t,
        (a, {1: a}),
        (b, {1: b}),
        ("standard", "random"),
        {"lion": "狮心王", "pain": "苦痛领主"},
    )
    assert "== agents: standard (the run's) against random" in text
    head = "unchanged table: 3 of 4 conclusions flip (first seat, lion 狮心王, pain 苦痛领主), 1 "
    assert head + "beyond the intervals; targets met: standard no, random no" in text
    row = r"^\s+{} \[.*\] {}\s+{} \[.*\] {}\s+{}\s+{}$"
    first = row.format(r"70\.0%", "OUT", r"48\.0%", "in", "FLIPS!", "first seat")
    assert re.search(first, text, re.M), text  # 60-80 against 38-58: beyond the intervals
    lion = row.format(r"35\.0%", "OUT", r"45\.0%", "in", "FLIPS", "lion 狮心王")
    assert re.search(lion, text, re.M), text  # 25-45 against 35-55: the dice could do it
    pain = row.format(r"50\.0%", "in", r"65\.0%", "OUT", "FLIPS", "pain 苦痛领主")
    assert re.search(pain, text, re.M), text  # 40-60 against 55-75
    assert "saint" not in text and "(1 more in band under both agents)" in text
    # the same figures under both agents: nothing flips
    same = agent_flips(["lion", "pain", "saint"], t, a, a)
    assert not any(f.flips for f in same)


def test_verify_with_another_agent_shows_the_flip_table(
    run: dict[str, Any], tmp_path: Path
) -> None:
    """The run (random agent) re-measured with ``standard`` and with its own agent on
    the same fresh seeds: one flip table per table, each marked row a real flip."""
    report = tmp_path / "v.txt"
    argv = ["balance", "verify", str(run["out"]), "--cards", str(run["cards"])]
    argv += ["--agent", "standard", "--blocks", "1", "--workers", "1", "--seed", "5"]
    assert throne_main([*argv, "--report", str(report)]) == 0
    text = report.read_text(encoding="utf-8")
    assert "agent: standard (every seat)" in text
    assert "== agents: random (the run's) against standard, on the same verification" in text
    numbers = [p.number for p in run["res"].proposals]
    titles = re.findall(r"^(unchanged table|proposal \d+): (\d+) of 5 conclusions flip", text, re.M)
    assert [t for t, _ in titles] == ["unchanged table", *(f"proposal {n}" for n in numbers)]
    cell = r"(\S+%) \[\s*[\d.]+, \s*[\d.]+\] (in|OUT)"
    rows = re.findall(rf"^\s+{cell}\s+{cell}\s+(FLIPS!?)?\s+(.+)$", text, re.M)
    assert rows
    for _, va, _, vb, mark, _ in rows:
        assert bool(mark) == (va != vb)
    flipped = sum(int(n) for _, n in titles)
    assert flipped == sum(1 for r in rows if r[4])
    assert re.search(r"^matches played: \d+ \(standard\) \+ \d+ \(random\)$", text, re.M)
    # the run's own agent: no comparison
    same = tmp_path / "same.txt"
    argv[argv.index("standard")] = "random"
    assert throne_main([*argv, "--report", str(same)]) == 0
    assert "== agents:" not in same.read_text(encoding="utf-8")


def test_verify_out_writes_the_figures_the_report_prints(
    run: dict[str, Any], tmp_path: Path
) -> None:
    """``verify --out``: a row per table and group with the rate, interval, target and
    verdicts the text report prints, both agents' rows with ``--agent``; and the same
    verdict per table as the report's "targets met" line."""
    report, out = tmp_path / "v.txt", tmp_path / "v.parquet"
    argv = ["balance", "verify", str(run["out"]), "--cards", str(run["cards"]), "--blocks",
            "1", "--workers", "1", "--seed", "5", "--agent", "standard"]  # fmt: skip
    assert throne_main([*argv, "--report", str(report), "--out", str(out)]) == 0
    text = report.read_text(encoding="utf-8")
    df = pd.read_parquet(out)
    numbers = [p.number for p in run["res"].proposals]
    assert sorted(set(df["agent"])) == ["random", "standard"]
    for _agent, rows in df.groupby("agent"):
        assert sorted(set(rows["proposal"])) == [0, *numbers]
        for _, table in rows.groupby("proposal"):
            assert sorted(table["group"]) == sorted([*run["res"].groups, FIRST])
            assert (table["matches"] > 0).all() and table["meets"].nunique() == 1
    assert set(df["verify_seed"]) == {5} and set(df["results"]) == {str(run["out"])}
    ok = (df["target_low"] <= df["win_rate"]) & (df["win_rate"] <= df["target_high"])
    assert (df["on_target"] == ok).all()
    assert ((df["ci_low"] <= df["win_rate"]) & (df["win_rate"] <= df["ci_high"])).all()
    mine = df[df["agent"] == "standard"]
    met = dict(re.findall(r"^== proposal (\d+): .*targets met on the verification seeds: "
                          r"(yes|no) ==$", text, re.M))  # fmt: skip
    for n in numbers:
        table = mine[mine["proposal"] == n]
        assert met[str(n)] == ("yes" if table["meets"].iloc[0] else "no")
        for _, r in table.iterrows():
            assert f"{100 * r['win_rate']:.1f}%" in text
    lion = mine[(mine["group"] == "lionheart") & (mine["proposal"] == 0)]
    assert list(lion["name"]) == ["狮心王"]


def test_load_run_gives_the_numbers_and_agent(run: dict[str, Any]) -> None:
    rf = load_run(run["out"])
    assert rf.numbers == [p.number for p in run["res"].proposals]
    assert rf.agent == "random" and rf.names["lionheart"] == "狮心王"


def test_the_example_run_quoted_in_the_docs_is_kept_and_re_reads(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """docs/balance.md quotes proposal 3 of results/balance/small.parquet: the kept file
    gives back exactly the change lines the docs print, and names its command."""
    root = Path(__file__).resolve().parents[1]
    kept = root / "results" / "balance" / "small.parquet"
    docs = (root / "docs" / "balance.md").read_text(encoding="utf-8")
    quoted = docs.split("Its proposal 3, as `show` gives it:", 1)[1].split("before (holdout)")[0]
    lines = [ln for ln in quoted.splitlines() if CHANGE.match(ln)]
    assert len(lines) == 4, quoted
    assert throne_main(["balance", "show", str(kept), "3"]) == 0
    text = capsys.readouterr().out
    assert [ln for ln in text.splitlines() if CHANGE.match(ln)] == lines
    script = (root / "results" / "balance" / "run.sh").read_text(encoding="utf-8")
    rec = load_run(kept).run
    assert rec is not None and rec["agent"] == "standard"
    assert rec["command"].split(" --out ")[0] in " ".join(script.replace("\\\n", " ").split())
