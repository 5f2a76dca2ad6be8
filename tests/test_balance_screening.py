"""Screening (``Budget.screen``, :mod:`throne_lib.kit.balance.screening`): every candidate
knob's effect estimated at once from randomised variants, and the repair it guides.

The toy here is a two-seat pairing game whose true effects are known: each hero has one
card; a match's first seat wins with probability 1/2 + 0.08 x (its card's power less the
other's) + 0.05, and a card's ``luck`` does nothing. So each power knob's effect on its
hero is +8 points per step, and each luck knob's is 0."""

from __future__ import annotations

import math
import random
import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from pathlib import Path

import pytest

from throne_lib.kit.balance import (
    Budget,
    Evaluator,
    FieldSpec,
    Outcome,
    SeatResult,
    Targets,
    search_space,
    suggest,
)
from throne_lib.kit.balance.adapter import PairingAdapter
from throne_lib.kit.balance.screening import (
    SCREEN_MIN_T,
    candidate_knobs,
    learn,
    predicted_rates,
    ranked,
)

HEROES = ("h0", "h1", "h2", "h3", "h4", "h5")
# h0's card is two steps too strong: ~66% against the field, the others ~47%
TABLE = "id,name,power,luck\n" + "".join(
    f"c{i},卡{i},{3 if i == 0 else 1},2\n" for i in range(len(HEROES))
)
PER_STEP = 0.08
FIRST = 0.05


@dataclass(frozen=True)
class ToyRules:
    pass


def _parse(text: str) -> dict[str, int]:
    rows = [line.split(",") for line in text.strip().splitlines()[1:]]
    return {r[0]: int(r[2]) for r in rows}


class ToyPairs(PairingAdapter):
    """Heroes meet in pairings (``block_rounds`` a block); hero ``hN`` plays card ``cN``."""

    def __init__(self, table: str = TABLE, block_rounds: int = 10) -> None:
        fields = {"power": FieldSpec(+1, 2, 2, 0), "luck": FieldSpec(+1, 2, 2, 0)}
        super().__init__(table, fields, ToyRules(), {})
        self.closure = {h: frozenset({f"c{i}"}) for i, h in enumerate(HEROES)}
        self.block_rounds = block_rounds

    def parse_table(self, text: str) -> dict[str, int]:
        return _parse(text)

    def play_match(self, cards: dict[str, int], rules: ToyRules, item: Hashable) -> Outcome:
        a, b, seed = item  # type: ignore[misc]
        pa, pb = cards[f"c{a[1:]}"], cards[f"c{b[1:]}"]
        win = random.Random(seed).random() < 0.5 + FIRST + PER_STEP * (pa - pb)
        return Outcome((SeatResult(a, True, float(win)), SeatResult(b, False, float(not win))), 1.0)


def _run(budget: Budget, seed: int = 1, game: ToyPairs | None = None) -> object:
    g = game or ToyPairs()
    space = search_space(g)
    return suggest(g, space, Targets((0.4, 0.6), 1.0), budget, seed, backend="serial")


SCREENED = Budget(
    population=2, generations=0, blocks=20, holdout_blocks=10, verify_blocks=40,
    repair=6, aim=0.04, screen=3000, screen_p=0.15, prune=False,
)  # fmt: skip


@pytest.fixture(scope="module")
def screened() -> object:
    return _run(SCREENED)


def _screening(res: object) -> Mapping[str, object]:
    return next(h["screening"] for h in res.history if "screening" in h)  # type: ignore[attr-defined]


def test_screening_recovers_the_known_effects(screened: object) -> None:
    """Every power knob's estimated effect on its hero is +8 points per step and every
    luck knob's 0, within four standard errors; the first-seat term is +5 points."""
    got = _screening(screened)
    effects = {(k, g): (b, se) for k, g, b, se in got["effects"]}  # type: ignore[attr-defined]
    powers = [(k, g) for k, g in effects if k.endswith(".power")]
    lucks = [(k, g) for k, g in effects if k.endswith(".luck")]
    assert len(powers) >= 3 and len(lucks) >= 3, sorted(effects)
    for key in powers:
        b, se = effects[key]
        assert 0 < se < 0.03 and abs(b - PER_STEP) < 4 * se, (key, b, se)
    for key in lucks:
        b, se = effects[key]
        assert abs(b) < 4 * se, (key, b, se)
    assert abs(got["first_seat"] - FIRST) < 0.02  # type: ignore[operator]


def test_a_measured_step_predicts_itself_both_ways_in_place_of_the_screening() -> None:
    """A step a repair step measured is predicted by that measurement, in either
    direction (taking a kept move back undoes what it was measured to do); any other step
    by the screened effect, one step at a time."""
    space = search_space(ToyPairs())
    per_step = {"c0.power": {"h0": 0.08}, "c1.power": {"h1": 0.05}}
    now = {h: 0.5 for h in HEROES}
    cur = {"c0.power": 2}  # today 3: one step down
    r, used = predicted_rates(space, (), cur, now, per_step)  # back to 3
    assert r["h0"] == pytest.approx(0.58) and used == []
    learned = {("c0.power", 3, 2): {"h0": -0.30}}
    r, used = predicted_rates(space, (), cur, now, per_step, learned)
    assert r["h0"] == pytest.approx(0.80) and used == [("c0.power", 2, 3)]
    # from 3 to 1: the measured 3 -> 2, then the screened 2 -> 1; c1's knob two steps up
    r, used = predicted_rates(space, (("c0.power", 1), ("c1.power", 3)), {}, now, per_step, learned)
    assert r["h0"] == pytest.approx(0.5 - 0.30 - 0.08) and r["h1"] == pytest.approx(0.60)
    assert used == [("c0.power", 3, 2)]
    assert {h: r[h] for h in HEROES[2:]} == {h: 0.5 for h in HEROES[2:]}


class _Rates:
    def __init__(self, rates: Mapping[str, float]) -> None:
        self.rates = rates

    def rate(self, g: str) -> float:
        return self.rates[g]


def test_a_measured_move_teaches_each_step_whose_groups_no_other_knob_reaches() -> None:
    """A one-knob move teaches its step; a swap of two cards of different groups
    teaches both; knobs sharing a group, or a change taken back by two steps, teach
    nothing, nor a step whose groups have no rate."""
    space = search_space(ToyPairs())
    now = {h: 0.5 for h in HEROES}
    seen = _Rates({**now, "h0": 0.3, "h1": 0.6, "h2": math.nan})
    learned: dict[tuple[str, int, int], dict[str, float]] = {}
    learn(space, [["c0.power", 3, 2]], now, seen, learned)  # type: ignore[arg-type]
    assert learned == {("c0.power", 3, 2): {"h0": pytest.approx(-0.2)}}
    learned.clear()
    learn(space, [["c0.power", 2, 3], ["c1.power", 1, 2]], now, seen, learned)  # type: ignore[arg-type]
    assert learned == {
        ("c0.power", 2, 3): {"h0": pytest.approx(-0.2)},
        ("c1.power", 1, 2): {"h1": pytest.approx(0.1)},
    }
    learned.clear()
    learn(space, [["c0.power", 3, 2], ["c0.luck", 2, 3]], now, seen, learned)  # type: ignore[arg-type]
    learn(space, [["c1.power", 3, 1]], now, seen, learned)  # type: ignore[arg-type]
    learn(space, [["c2.power", 1, 2]], now, seen, learned)  # type: ignore[arg-type]
    assert learned == {}


def test_moves_rank_by_predicted_miss_then_fewer_changes() -> None:
    """Of two moves predicted alike, the one with fewer changes goes first (a new change
    that does nothing for the miss is no reason to prefer a swap); a lower prediction
    wins whatever its size."""
    back = (("c1.power", 2),)
    swap = (("c0.luck", 3), ("c1.power", 2))
    better = (("c0.luck", 3), ("c1.power", 2), ("c2.power", 2))
    guess = {back: 0.112, swap: 0.112 + 1e-12, better: 0.1}
    assert [o for _, o in ranked([swap, back], guess.__getitem__)] == [back, swap]
    assert ranked([back, swap, better], guess.__getitem__)[0] == (0.1, better)


def test_the_screened_repair_takes_the_strong_card_down_and_holds_on_fresh_seeds(
    screened: object,
) -> None:
    """The last proposal lowers h0's power and leaves every luck alone (no knob without
    an effect is moved); on the run's verification seeds every hero is in 40-60%."""
    last = screened.proposals[-1]  # type: ignore[attr-defined]
    changes = dict(last.changes)
    assert changes.get("c0.power", 3) < 3, changes
    assert not [k for k in changes if k.endswith(".luck")], changes
    assert last.verified is not None
    for h in HEROES:
        assert 0.4 <= last.verified.rates[h].win_rate <= 0.6, (h, last.verified.rates[h])
    steps = [h for h in screened.history if "tried" in h]  # type: ignore[attr-defined]
    assert steps and all(s["measured_miss"] >= 0 for s in steps)
    kept = [s for s in steps if s["kept"]]
    assert kept and all(s["kept"] == s["tried"] for s in kept)
    assert screened.repair_stop in {"in band", "no move", "budget"}  # type: ignore[attr-defined]


def test_with_confirm_blocks_a_screened_move_is_kept_only_if_both_samples_agree() -> None:
    """``confirm`` blocks: each step reports the miss on the confirm blocks before and
    after its move; a move is kept exactly when the miss falls on the search blocks and
    on the confirm blocks alone, and the report says both."""
    from dataclasses import replace

    from throne_lib.kit.balance_report import report_text

    res = _run(replace(SCREENED, confirm=20, repair=8))
    steps = [h for h in res.history if "tried" in h]  # type: ignore[attr-defined]
    assert steps
    for s in steps:
        falls = s["confirm_miss"] < s["confirm_miss_before"]
        assert bool(s["kept"]) == (falls and s["measured_miss"] < s["search_miss_before"]), s
        better = s["measured_miss"] < s["search_miss_before"]
        assert s["rejected"] == int(better and not falls)  # counted in the report's line
    assert any(s["kept"] for s in steps) and res.budget.confirm == 20  # type: ignore[attr-defined]
    text = report_text(res)  # type: ignore[arg-type]
    assert re.search(
        r"measured \d\.\d{3} \(confirm blocks \d\.\d{3} -> \d\.\d{3}\): (not )?kept", text
    )


def test_a_screened_run_is_reproducible_from_its_seed(screened: object) -> None:
    again = _run(SCREENED)
    assert [p.changes for p in again.proposals] == [  # type: ignore[attr-defined]
        p.changes
        for p in screened.proposals  # type: ignore[attr-defined]
    ]
    assert _screening(again) == _screening(screened)
    other = _run(SCREENED, seed=2)
    assert _screening(other)["effects"] != _screening(screened)["effects"]


def test_a_process_pool_and_a_dask_cluster_screen_as_the_serial_run_does(
    screened: object,
) -> None:
    """Screening's variants go to the workers whole (:meth:`Evaluator.whole`); a pool of
    two processes and a Dask LocalCluster (127.0.0.1) give the serial run's estimates,
    proposals and report."""
    from throne_lib.kit.balance_report import report_text

    g = ToyPairs()
    space = search_space(g)
    target = Targets((0.4, 0.6), 1.0)
    pool = suggest(g, space, target, SCREENED, 1, backend="process", workers=2)
    dask = suggest(g, space, target, SCREENED, 1, backend="dask", workers=1, chunk=64)
    for res in (pool, dask):
        assert _screening(res) == _screening(screened)
        assert report_text(res) == report_text(screened)  # type: ignore[arg-type]


def test_screening_matches_play_on_seeds_no_search_holdout_or_verification_block_uses() -> None:
    """Screening takes the last block ranges of the run seed's search range: the search
    blocks (and confirm blocks) must end below them, and its seeds are no holdout's."""
    with pytest.raises(ValueError, match="with screen, at most 900 search and confirm"):
        Budget(population=2, repair=1, screen=10, blocks=800, confirm=101)
    with pytest.raises(ValueError, match="screen needs repair steps"):
        Budget(population=2, screen=10)
    with pytest.raises(ValueError, match="screen_p 0.6"):
        Budget(population=2, repair=1, screen=10, screen_p=0.6)
    seen: list[int] = []

    class Watch(ToyPairs):
        def play(self, task):  # type: ignore[no-untyped-def]
            seen.extend(i[2] for i in task.items)
            return super().play(task)

    small = Budget(population=2, generations=0, blocks=2, holdout_blocks=2, verify_blocks=2,
                   repair=1, screen=50)  # fmt: skip
    res = _run(small, seed=3, game=Watch())
    from throne_lib.kit.balance import block_seed

    screen_lo = block_seed(3, 900)
    screen_hi = block_seed(3, 999) + 10_000
    in_screen = [s for s in seen if screen_lo <= s < screen_hi]
    assert len(in_screen) == 50 * 3  # 50 rounds of 3 matches, each seed once
    assert len(set(in_screen)) == len(in_screen)
    hold = {block_seed(3, k, holdout=True) // 10_000 for k in range(2)}
    assert not {s // 10_000 for s in in_screen} & hold
    assert res.matches_played == len(seen)  # type: ignore[attr-defined]


def test_screening_needs_a_pairing_game() -> None:
    from tests.test_balance import ToyGame

    g = ToyGame()
    with pytest.raises(ValueError, match="screening needs a two-seat game whose groups meet"):
        suggest(g, search_space(g), Targets(), Budget(population=2, generations=0, repair=1,
                screen=5), 0, backend="serial")  # fmt: skip


def test_candidates_cover_every_group_first_then_the_most_needed() -> None:
    g = ToyPairs()
    space = search_space(g)
    rates = {h: (0.7 if h == "h0" else 0.46) for h in HEROES}
    keys = candidate_knobs(space, {}, rates, HEROES, most=3, per_group=1)
    # one knob per hero first (power before luck: the same need, by name), no cap on those
    assert len(keys) == 6 and {k.split(".")[0] for k in keys} == {f"c{i}" for i in range(6)}
    assert keys[0].startswith("c0.")  # the most needed first
    # a knob that cannot move a step both ways from the start is no candidate
    at_floor = candidate_knobs(space, {"c1.power": 0}, rates, HEROES, most=20, per_group=0)
    assert "c1.power" not in at_floor and "c2.power" in at_floor


def test_whole_plays_a_variant_in_one_task_and_shares_the_cache_with_outcomes() -> None:
    g = ToyPairs()
    space = search_space(g)
    tasks: list[int] = []

    class Count(ToyPairs):
        def play(self, task):  # type: ignore[no-untyped-def]
            tasks.append(len(task.items))
            return super().play(task)

    c = Count()
    ev = Evaluator(c, space, None)
    items = [("h0", "h1", 5), ("h2", "h3", 6), ("h4", "h5", 7)]
    changes = (("c0.power", 2), ("c2.power", 2))
    got = ev.whole([(changes, items)])
    assert tasks == [3] and ev.played == 3
    assert ev.outcomes([(changes, items)]) == got and ev.played == 3  # cached, not replayed
    # the match h4-h5 touches neither changed card: it is the unchanged table's outcome
    assert ev.outcomes([((), items[2:])])[0] == got[0][2:] and ev.played == 3
    memo: dict[str, Outcome] = {}

    class Memo:
        def get(self, key: str) -> Outcome | None:
            return memo.get(key)

        def put(self, key: str, o: Outcome) -> None:
            memo[key] = o

    Evaluator(c, space, None, memo=Memo()).whole([(changes, items)])
    resumed = Evaluator(c, space, None, memo=Memo())
    assert resumed.whole([(changes, items)]) == got
    assert resumed.played == 0 and resumed.reused == 3
    assert g.groups() == list(HEROES)


def test_cli_screened_run_reports_its_screening_and_steps(tmp_path: Path) -> None:
    """``--screen`` reaches the run on the real game; the report says what screening
    played and estimated, and each screened step's move, prediction and measurement."""
    from tests.test_balance_throne import FOUR
    from throne_lib.cli import main as throne_main

    report = tmp_path / "r.txt"
    args = ["balance", "suggest", "--agent", "random", "--generals", FOUR, "--rules="]
    args += ["--population", "2", "--generations", "0", "--blocks", "2", "--holdout-blocks"]
    args += ["1", "--verify-blocks", "1", "--workers", "1", "--no-progress", "--seed", "2"]
    args += ["--repair", "2", "--screen", "40", "--screen-knobs", "20", "--screen-per-group"]
    args += ["2", "--report", str(report), "--out", str(tmp_path / "r.parquet")]
    assert throne_main(args) == 0
    text = report.read_text(encoding="utf-8")
    line = re.search(r"^screening: 40 rounds \((\d+) matches with the start's\), (\d+) candidate "
                     r"knobs a step up or down \(fewest for one group: (\d+), .+\); (\d+) with an "
                     rf"effect at \|t\| ≥ {SCREEN_MIN_T:g}; first-seat term [+-]\d+\.\d points$",
                     text, re.M)  # fmt: skip
    assert line is not None, text
    assert int(line.group(1)) > 40 * 2 and int(line.group(2)) <= 20  # 2 matches a round
    assert re.search(r"^screened repair: \d of 2 steps", text, re.M), text


def test_refresh_needs_screen_and_room_for_its_block_sets() -> None:
    with pytest.raises(ValueError, match="refresh needs screen"):
        Budget(population=2, repair=1, refresh=1)
    with pytest.raises(ValueError, match="refresh must be at least 0"):
        Budget(population=2, repair=1, screen=10, refresh=-1)
    with pytest.raises(ValueError, match="refresh_every must be at least 0"):
        Budget(population=2, repair=1, screen=10, refresh=1, refresh_every=-1)
    # 300 search + 150 confirm blocks, twice: 900, the most below screening's seeds
    Budget(population=2, repair=1, screen=10, blocks=300, confirm=150, refresh=1)
    with pytest.raises(ValueError, match="with screen and refresh 2, at most 900"):
        Budget(population=2, repair=1, screen=10, blocks=300, confirm=150, refresh=2)


def test_refresh_goes_on_from_the_table_on_blocks_no_step_chose_on() -> None:
    """``refresh``: where the screened repair would stop, it draws fresh search and confirm
    blocks (the next block indices of the run seed's search range), measures the
    unchanged table, the lever and the current table there, and goes on; the last
    proposal's search figures are those blocks'. The report says each refresh; the run
    is reproducible."""
    from dataclasses import replace

    from throne_lib.kit.balance import block_seed
    from throne_lib.kit.balance_report import report_text

    seen: list[int] = []

    class Watch(ToyPairs):
        def play(self, task):  # type: ignore[no-untyped-def]
            seen.extend(i[2] for i in task.items)
            return super().play(task)

    budget = replace(SCREENED, confirm=10, repair=8, refresh=2)
    res = _run(budget, game=Watch())
    fresh = [h for h in res.history if "refresh" in h]  # type: ignore[attr-defined]
    assert [h["refresh"] for h in fresh] == list(range(1, len(fresh) + 1)) and fresh
    per = budget.blocks + budget.confirm
    for h in fresh:
        first = h["refresh"] * per
        assert h["first_block"] == first
        lo, hi = block_seed(1, first), block_seed(1, first + per - 1) + 10_000 - 1
        assert h["seeds"] == [lo, hi]
        played = [s for s in seen if lo <= s <= hi]
        # the current table on every block of the set at least
        assert len(set(played)) >= 0.9 * per * len(HEROES) // 2 * 10
        assert h["why"] in {"in band", "no move"}
    # the first set is the run's own search and confirm blocks: none of its seeds again
    assert all(h["seeds"][0] >= block_seed(1, per) for h in fresh)
    # the search figures of the last proposal are its tally on the last block set
    last = res.proposals[-1]  # type: ignore[attr-defined]
    assert last.changes and dict(last.changes).get("c0.power", 3) < 3
    text = report_text(res)  # type: ignore[arg-type]
    assert re.search(rf"fresh blocks drawn {len(fresh)} of 2 times", text), text
    assert re.search(r"^  fresh blocks 1 \((every group in the aimed band|no move predicted "
                     r"to help) on the last ones\): blocks 30–, match seeds \d+–\d+; the "
                     r"table's aimed miss \d\.\d{3} on the last blocks, \d\.\d{3} on these", text, re.M), text  # fmt: skip
    again = _run(budget)
    assert report_text(again) == text  # type: ignore[arg-type]
    # without refresh the same seed stops where the first refresh was drawn
    plain = _run(replace(budget, refresh=0))
    assert plain.repair_stop == fresh[0]["why"]  # type: ignore[attr-defined]


def test_the_repair_s_table_is_the_recommended_proposal_in_report_file_and_show(
    screened: object, tmp_path: Path
) -> None:
    """The proposal with every move the screened repair kept is marked as the run's
    recommendation, once, in the report, in the Parquet file and in ``balance show``."""
    from throne_lib.kit.balance_report import RECOMMENDED, report_text, result_frame, save_result
    from throne_lib.kit.balance_run import load_run, show_text

    res = screened
    (best,) = [p for p in res.proposals if p.repaired]  # type: ignore[attr-defined]
    assert best.changes == res.proposals[-1].changes  # type: ignore[attr-defined]
    text = report_text(res)  # type: ignore[arg-type]
    assert text.count(RECOMMENDED) == 1
    assert f"== proposal {best.number}:" in text.split(RECOMMENDED)[0].splitlines()[-1]
    frame = result_frame(res)  # type: ignore[arg-type]
    assert set(frame[frame.repaired].proposal) == {best.number}
    rf = load_run(save_result(res, tmp_path / "run.parquet"))  # type: ignore[arg-type]
    assert rf.recommended == best.number and not rf.repaired(1 if best.number != 1 else 2)
    shown = show_text(rf)
    assert shown.count(RECOMMENDED) == 1
    assert f"== proposal {best.number}:" in shown.split(RECOMMENDED)[0].splitlines()[-1]


def test_refresh_every_draws_fresh_blocks_after_so_many_steps() -> None:
    """``refresh_every``: fresh blocks also after that many steps on the same ones (at
    most ``refresh`` times in all); the unchanged table and the lever are measured on
    the last blocks when the repair ends, so the report's search figures compare."""
    from dataclasses import replace

    from throne_lib.kit.balance_report import report_text

    budget = replace(SCREENED, aim=0.08, repair=12, refresh=3, refresh_every=2)
    res = _run(budget)
    fresh = [h for h in res.history if "refresh" in h]  # type: ignore[attr-defined]
    assert 1 <= len(fresh) <= 3
    every = [h for h in fresh if h["why"] == "every"]
    assert every and all(h["steps"] == 2 for h in every)
    steps = [h for h in res.history if "tried" in h or "refresh" in h]  # type: ignore[attr-defined]
    since = 0
    for h in steps:  # never more than 2 steps on one set of blocks while refreshes are left
        if "refresh" in h:
            assert h["why"] != "every" or since == 2
            since = 0
        else:
            since += 1
    text = report_text(res)  # type: ignore[arg-type]
    assert "(2 steps on the last ones)" in text
    # the unchanged table's search figure is its imbalance on the last blocks drawn
    from throne_lib.kit.balance import block_seed, tally

    g = ToyPairs()
    r, first = fresh[-1]["refresh"], fresh[-1]["first_block"]
    rng = random.Random(f"blocks:1:refresh{r}")
    items = [i for k in range(budget.blocks) for i in g.block(rng, block_seed(1, first + k))]
    (outs,) = Evaluator(g, search_space(g), None).outcomes([((), items)])
    want = tally(outs).imbalance(Targets((0.4, 0.6), 1.0), list(HEROES))
    assert res.before_search == pytest.approx(want)  # type: ignore[attr-defined]
