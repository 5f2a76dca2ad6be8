"""Sturdier balance runs (issue #38, items 2 and 3): proposals bounded per change (no
100% jump, no cost 0 unless allowed), each change's effect measured on the holdout,
verification on seeds no step of the run has seen, the verdict from those figures
alone, and the warning when the budget is too small to tell. On the toy game of
test_balance.py (seconds each)."""

from __future__ import annotations

import csv
import io
import re
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import matplotlib
import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_balance import TABLE, ToyGame  # noqa: E402

from throne_lib.cli import main as throne_main  # noqa: E402
from throne_lib.games.throne.cards import DEFAULT_PATH  # noqa: E402
from throne_lib.kit import balance_cli  # noqa: E402
from throne_lib.kit.balance import (  # noqa: E402
    CHECK_BASE,
    FIRST,
    MAX_BLOCKS,
    MAX_SEED,
    MAX_STEP,
    SEED_STRIDE,
    VERIFY_BASE,
    Budget,
    Outcome,
    PlayTask,
    Targets,
    Tell,
    block_seed,
    half_width,
    is_cost,
    plan_verification,
    search_space,
    step_bound,
    suggest,
)
from throne_lib.kit.balance_panel import SuggestPanel  # noqa: E402
from throne_lib.kit.balance_report import report_text, result_frame, save_result  # noqa: E402
from throne_lib.kit.balance_run import load_run, show_text  # noqa: E402

# --- bounds on a change (item 3) -----------------------------------------------------------


def test_a_bounded_space_refuses_a_100_percent_jump() -> None:
    # attack 2 may become 1 or 3 (half of 2 is 1), never 4; hp 6 may move by 3
    assert step_bound(2, MAX_STEP) == 1
    assert step_bound(6, MAX_STEP) == 3
    assert step_bound(1, MAX_STEP) == 1  # at least one step: a small integer may still move
    assert step_bound(20, MAX_STEP, step=5) == 10  # whole steps of 5
    table = TABLE.replace("monk,僧侣,5,3,", "monk,僧侣,2,1,")
    space = search_space(ToyGame(table), max_step=MAX_STEP)
    assert (space["monk.power"].low, space["monk.power"].high) == (1, 3)  # not 0..5
    assert (space["giant.power"].low, space["giant.power"].high) == (5, 11)  # ±3 by its spec
    unbounded = search_space(ToyGame(table))
    assert unbounded["monk.power"].high == 5  # the library's default: the field's own bounds
    with pytest.raises(ValueError, match="max_step"):
        step_bound(2, 0)


def test_a_cost_does_not_fall_to_zero_unless_allowed() -> None:
    table = TABLE.replace("monk,僧侣,5,3,", "monk,僧侣,5,1,")
    strict = search_space(ToyGame(table), max_step=MAX_STEP, zero_cost=False)
    assert strict["monk.cost"].low == 1 and strict["knight.cost"].low == 2
    allowed = search_space(ToyGame(table), max_step=MAX_STEP, zero_cost=True)
    assert allowed["monk.cost"].low == 0
    assert is_cost("cost") and is_cost("action_cost") and not is_cost("power")


def test_no_proposal_of_a_bounded_run_jumps_or_zeroes_a_cost() -> None:
    game = ToyGame()
    space = search_space(game, max_step=MAX_STEP, zero_cost=False)
    res = suggest(game, space, Targets(), Budget(population=4, generations=2, blocks=2,
                  holdout_blocks=4, proposals=3), seed=1, backend="serial")  # fmt: skip
    for p in res.proposals:
        for key, new in p.changes:
            k = space[key]
            if not k.is_rules:
                assert abs(new - k.base) <= step_bound(k.base, MAX_STEP, k.step)
                assert not (k.field == "cost" and new == 0)


# --- verification inside the run (item 2) --------------------------------------------------


class Recording(ToyGame):
    """The toy game that keeps every match seed it plays (serial backend: in this
    process); on the run's own verification seeds (``>= CHECK_BASE``) the giant, if
    seated, always wins, when ``giant_wins_on_check``."""

    def __init__(self, giant_wins_on_check: bool = False) -> None:
        super().__init__()
        self.seeds: list[int] = []
        self.giant_wins_on_check = giant_wins_on_check

    def play(self, task: PlayTask) -> list[Outcome]:
        out = super().play(task)
        fixed = []
        for (a, b, seed), o in zip(task.items, out, strict=True):  # type: ignore[misc]
            self.seeds.append(seed)
            if self.giant_wins_on_check and seed >= CHECK_BASE and "giant" in (a, b):
                o = Outcome(tuple(replace(s, score=float(s.group == "giant")) for s in o.seats),
                            o.length)  # fmt: skip
            fixed.append(o)
        return fixed


SMALL = Budget(population=6, generations=4, blocks=4, holdout_blocks=30, proposals=4)


def test_verification_seeds_are_disjoint_from_search_and_holdout_seeds() -> None:
    # by construction: every block's seeds lie in [block_seed, block_seed + SEED_STRIDE)
    top_run = block_seed(MAX_SEED - 1, MAX_BLOCKS - 1, holdout=True) + SEED_STRIDE
    top_verify = block_seed(MAX_SEED - 1, MAX_BLOCKS - 1, verify=True) + SEED_STRIDE
    assert top_run <= VERIFY_BASE and top_verify <= CHECK_BASE
    assert block_seed(0, 0, check=True) == CHECK_BASE
    assert block_seed(1, 0, check=True) >= block_seed(0, MAX_BLOCKS - 1, check=True) + SEED_STRIDE
    # and as played: a run's verification plays seeds no step before it played
    game = Recording()
    budget = replace(SMALL, confirm=2, repair=2, holdout_blocks=4, verify_blocks=3)
    res = suggest(game, search_space(game), Targets(), budget, seed=5, backend="serial")
    lo, hi = res.verify_seeds
    checked = [s for s in game.seeds if lo <= s <= hi]
    before = [s for s in game.seeds if not lo <= s <= hi]
    assert checked and before and not set(checked) & set(before)
    assert all(s < VERIFY_BASE for s in before)  # search, confirm and holdout seeds
    # the verification's matches: the unchanged table and each proposal on the same ones
    per_table = res.before_verified.rates[FIRST].matches  # type: ignore[union-attr]
    assert len(set(checked)) == per_table == 3 * 24


def test_the_verdict_is_the_verification_figures_not_the_holdout() -> None:
    """On the holdout a proposal meets every target; on the verification seeds the giant
    wins every match (the stub): the run must say the targets are not met."""
    game = Recording(giant_wins_on_check=True)
    res = suggest(game, search_space(game), Targets(), SMALL, seed=3, backend="serial")
    best = min(res.proposals, key=lambda p: p.after.imbalance)
    assert best.after.meets  # the holdout alone would say "meets"
    assert best.verified is not None and best.verified.rates["giant"].win_rate == 1.0
    assert best.meets is False
    text = report_text(res)
    head = next(
        line for line in text.splitlines() if line.startswith(f"== proposal {best.number}:")
    )
    assert "targets met on the verification seeds: no" in head
    assert "met on holdout" not in text
    frame = result_frame(res)
    rows = frame[frame["proposal"] == best.number]
    assert not rows["meets"].any()  # the file's verdict too
    assert (rows[rows["group"] == "giant"]["verify"] == 1.0).all()


def test_a_tiny_budget_says_it_cannot_tell_before_and_after_the_run() -> None:
    game = ToyGame()
    seen: list[dict[str, object]] = []
    budget = replace(SMALL, generations=1, holdout_blocks=2, verify_blocks=2)
    res = suggest(game, search_space(game), Targets(), budget, seed=1, backend="serial",
                  progress=seen.append)  # fmt: skip
    # before: the first thing the run tells, before any generation
    assert "plan" in seen[0] and not any("generation" in st for st in seen[:1])
    planned = seen[0]["plan"]
    assert isinstance(planned, Tell) and planned.planned and not planned.can_tell
    assert planned.matches == 2 * 12  # 12 seats per hero and block, 2 blocks
    assert res.verified_tell is not None and not res.verified_tell.can_tell
    text = report_text(res)
    assert "WARNING: the verification will play 24 matches per group" in text
    assert "WARNING: the verification played 24 matches per group" in text
    assert "BUDGET CANNOT TELL" in text and "--verify-blocks 33 would tell" in text
    assert "(but the budget cannot tell)" in text


def test_a_large_planned_budget_can_tell() -> None:
    """Planning only: one search block of the unchanged table is played to count."""
    plan, per_block = plan_verification(ToyGame(), replace(SMALL, verify_blocks=40), Targets())
    assert per_block == 12 and plan.matches == 480
    assert plan.can_tell and "CANNOT" not in plan.text(40, per_block)
    assert half_width(480) < 0.05 < half_width(24)


def test_the_dashboard_run_with_its_defaults_warns_that_its_budget_cannot_tell(
    tmp_path: Path,
) -> None:
    matplotlib.use("Agg")
    cards = tmp_path / "cards.csv"
    cards.write_text(TABLE, encoding="utf-8")
    panel = SuggestPanel(ToyGame, cards, {"giant": "巨人"}, backend="serial")
    panel.estimate()  # before the run
    assert "预算不足以判断" in panel.warning.value and "计划复核" in panel.warning.value
    warned: list[str] = []
    tick = panel._tick

    def spy(h: dict[str, object]) -> None:
        tick(h)
        warned.append(panel.warning.value)

    panel._tick = spy  # type: ignore[method-assign]
    panel.run()
    assert "预算不足以判断" in warned[0]  # said when the run starts
    assert "预算不足以判断" in panel.warning.value  # and after it
    assert "复核达标" in panel.detail_html.value and "留出对局上的效果" in panel.detail_html.value


def test_the_command_line_warns_before_and_after_and_show_gives_the_verdict(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tiny Throne run (random agent, four generals): the warning on stderr before the
    search, in the report after it, and ``show`` judges by the verification figures."""
    cards = tmp_path / "cards.csv"
    shutil.copy(DEFAULT_PATH, cards)
    out = tmp_path / "b.parquet"
    argv = ["balance", "suggest", "--cards", str(cards), "--agent", "random"]
    argv += ["--generals", "lionheart,pain_lord,saint_marshal,beast_king"]
    argv += ["--population", "4", "--generations", "1", "--blocks", "2", "--holdout-blocks", "2"]
    argv += ["--verify-blocks", "2", "--workers", "1", "--no-progress", "--out", str(out)]
    assert throne_main(argv) == 0
    got = capsys.readouterr()
    assert "warning: the verification will play" in got.err and "BUDGET CANNOT TELL" in got.err
    assert "WARNING: the verification played" in got.out
    assert "targets met on holdout" not in got.out
    assert throne_main(["balance", "show", str(out)]) == 0
    shown = capsys.readouterr().out
    assert "WARNING: the verification played" in shown
    if "== proposal 1" in shown:
        assert "targets met on the verification seeds:" in shown
        assert "before (verify)" in shown


# --- each change's effect, and pruning (item 3) ---------------------------------------------


class GiantReversedOnHoldout(ToyGame):
    """The toy game, except that on the holdout of run seed ``seed`` a change of the
    giant's power works backwards (power 8 - d plays as 8 + d): a nerf the search
    chose makes the giant stronger on data it never saw."""

    def __init__(self, seed: int) -> None:
        super().__init__()
        self.lo = block_seed(seed, 0, holdout=True)
        self.hi = self.lo + MAX_BLOCKS * SEED_STRIDE

    def play(self, task: PlayTask) -> list[Outcome]:
        out = []
        for item in task.items:
            table = task.table
            if self.lo <= item[2] < self.hi:  # type: ignore[index]
                rows = list(csv.DictReader(io.StringIO(table)))
                for r in rows:
                    if r["id"] == "giant":
                        r["power"] = str(16 - int(r["power"]))
                buf = io.StringIO()
                writer = csv.DictWriter(buf, list(rows[0]), lineterminator="\n")
                writer.writeheader()
                writer.writerows(rows)
                table = buf.getvalue()
            out += super().play(replace(task, table=table, items=(item,)))
        return out


def test_a_change_whose_holdout_effect_has_the_wrong_sign_is_dropped() -> None:
    game = GiantReversedOnHoldout(3)
    space = search_space(game, fields=["power"], rules=[])
    budget = replace(SMALL, holdout_blocks=10, verify_blocks=2)
    kept = suggest(game, space, Targets(), replace(budget, prune=False), seed=3, backend="serial")
    nerfs = [e for p in kept.proposals for e in p.effects if e.key == "giant.power"]
    assert nerfs and all(e.new < e.old and e.expected == -1 for e in nerfs)
    assert all(e.effect > 0 and e.low > 0 for e in nerfs)  # clearly the wrong way on the holdout
    pruned = suggest(game, space, Targets(), budget, seed=3, backend="serial")
    assert not any(k == "giant.power" for p in pruned.proposals for k, _ in p.changes)
    for p in pruned.proposals:  # every change kept was confirmed on the holdout
        for e in p.effects:
            assert e.kept == e.confirmed
            assert e.kept == (e.key in dict(p.changes))
    text = report_text(kept)
    assert "each change's effect on the holdout" in text
    assert re.search(
        r"giant \(巨人\)\.power 8 -> \d: 巨人 \+\d+\.\d \[\+", report_text(kept, {"giant": "巨人"})
    )


def test_effects_are_in_the_file_and_show_prints_them(tmp_path: Path) -> None:
    game = ToyGame()
    res = suggest(game, search_space(game), Targets(), replace(SMALL, verify_blocks=2), seed=3,
                  backend="serial")  # fmt: skip
    assert res.proposals and all(p.effects for p in res.proposals)
    for p in res.proposals:
        for e in p.effects:
            assert e.kept and e.confirmed and e.low <= e.effect <= e.high
    out = save_result(res, tmp_path / "r.parquet")
    shown = show_text(load_run(out))
    assert shown.count("each change's effect on the holdout") == len(res.proposals)
    assert "; kept" in shown


def test_the_docs_quote_the_kept_example_run() -> None:
    """docs/balance.md's example of a verified run is the file kept under
    results/balance/ (run-verified.sh), line for line; ``show`` re-reads it."""
    root = Path(__file__).parent.parent
    kept = root / "results" / "balance"
    docs = (root / "docs" / "balance.md").read_text(encoding="utf-8")
    quoted = docs.split("The end of the report's header and proposal 3", 1)[1]
    quoted = quoted.split("```\n", 2)[1]
    report = (kept / "verified.txt").read_text(encoding="utf-8").splitlines()
    lines = [line for line in quoted.splitlines() if line and line != "…"]
    assert len(lines) > 10 and all(line in report for line in lines)
    err = (kept / "verified-stderr.txt").read_text(encoding="utf-8").strip()
    assert err in docs and "BUDGET CANNOT TELL" in err
    shown = show_text(load_run(kept / "verified.parquet"))
    assert shown.splitlines()[-1] == (kept / "verified-show.txt").read_text().splitlines()[-1]
    assert "DROPPED: not the sign it was made for" in shown


def test_throne_dashboard_defaults_plan_a_verification_that_cannot_tell() -> None:
    """Planning only (one search block of the unchanged table, random agent: counting
    seats does not depend on the agent): the balance page's default budget gives each
    general 2 matches per block x 8 verification blocks, far under the 385 that tell
    45-55%, so the page's run warns; 193 blocks would tell."""
    h = balance_cli.hooks("throne")
    args = balance_cli.options("throne", agent="random")
    game = h.make(DEFAULT_PATH.read_text(encoding="utf-8"), args)
    plan, per_block = plan_verification(game, Budget(), Targets())
    assert per_block == 2 and plan.matches == 16 and not plan.can_tell
    assert "--verify-blocks 193 would tell" in plan.text(Budget().verify_blocks, per_block)
