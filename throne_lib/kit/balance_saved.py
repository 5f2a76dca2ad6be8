"""What the 「调平建议」 panel (:mod:`throne_lib.kit.balance_panel`) knows before any run:
the last run, shown when the page opens, and how fast this machine plays a block, for
the estimate of a first run (issue 36, item 9).

Where things are, for a card table ``T.csv`` in folder ``D``:

- ``D/logs/balance/suggest-T.parquet`` (``$THRONE_BALANCE_LOGS`` instead of
  ``D/logs/balance`` when set): the panel's last run (:func:`saved_path`; the
  file ``throne balance suggest --out`` writes, so ``throne balance show`` and
  ``verify`` read it too). Without one, the newest run for ``T.csv`` under
  ``D/results/balance/`` (:func:`shipped_runs`: the runs the repository keeps).
- ``D/logs/balance/speed.json``: the seconds per match measured on this machine by
  「估算用时」 and by every run, per table (:func:`record_speed`); without one,
  ``D/results/balance/speed.json``, measured by ``benchmarks/balance_speed.py``
  (:func:`measure_speed`) and kept with the repository.

A speed record: ``seconds_per_match`` (one process; a run on several processes counts
its wall time × processes), ``matches_per_block`` (the blocks of the table's default
options), when and how it was measured and the machine's 1-minute load then.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import html
import json
import math
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from throne_lib.kit.balance import FIRST
from throne_lib.kit.balance_run import RunFile, load_run
from throne_lib.kit.textfile import write_atomic

SPEED_FILE = "speed.json"


LOGS_ENV = "THRONE_BALANCE_LOGS"


def runs_dir(cards: str | Path) -> Path:
    """``logs/balance/`` beside the card table (git-ignored: this machine's runs), or
    the folder ``$THRONE_BALANCE_LOGS`` names (the browser tests' own)."""
    if os.environ.get(LOGS_ENV):
        return Path(os.environ[LOGS_ENV])
    return Path(cards).resolve().parent / "logs" / "balance"


def saved_path(cards: str | Path) -> Path:
    """Where the panel saves its runs on the table ``cards``."""
    return runs_dir(cards) / f"suggest-{Path(cards).stem}.parquet"


def shipped_runs(cards: str | Path) -> list[Path]:
    """The repository's own runs on this table (``results/balance/*.parquet`` whose run
    record names a table of this file name), those with a verification first, then by
    name."""
    folder = Path(cards).resolve().parent / "results" / "balance"
    found: list[tuple[bool, str, Path]] = []
    for path in sorted(folder.glob("*.parquet")):
        try:
            run = load_run(path).run or {}
        except ValueError:
            continue
        table = Path(str((run.get("cards") or {}).get("path", ""))).name
        if table == Path(cards).name:
            found.append(("verification" not in run, path.name, path))
    return [p for _, _, p in sorted(found)]


def latest_run(cards: str | Path, shipped: Sequence[Path] | None = None) -> RunFile | None:
    """The panel's own last run on ``cards``, else the first readable of ``shipped``
    (default :func:`shipped_runs`); None when there is none."""
    own = saved_path(cards)
    for path in [own] + list(shipped_runs(cards) if shipped is None else shipped):
        if path.is_file():
            try:
                return load_run(path)
            except ValueError:
                continue  # a damaged file: the next one (the panel's next run replaces it)
    return None


def table_sha256(cards: str | Path) -> str:
    return hashlib.sha256(Path(cards).read_bytes()).hexdigest()


# --- how fast this machine plays ----------------------------------------------------------


def _speed_files(cards: str | Path) -> list[Path]:
    base = Path(cards).resolve().parent
    return [runs_dir(cards) / SPEED_FILE, base / "results" / "balance" / SPEED_FILE]


def read_speed(cards: str | Path) -> dict[str, Any] | None:
    """The speed record for the table ``cards``: this machine's, else the repository's,
    with ``source`` (the file it came from) and ``mine`` (this machine's); None when
    neither has one."""
    for path in _speed_files(cards):
        try:
            record = json.loads(path.read_text(encoding="utf-8")).get(Path(cards).name)
        except (OSError, ValueError, AttributeError):
            continue
        if isinstance(record, dict) and float(record.get("seconds_per_match", 0)) > 0:
            return {**record, "source": str(path), "mine": path == _speed_files(cards)[0]}
    return None


def record_speed(
    cards: str | Path, seconds_per_match: float, matches_per_block: int, how: str
) -> dict[str, Any]:
    """Keep a measured speed for ``cards`` in this machine's speed file; returns it."""
    record = {
        "seconds_per_match": round(seconds_per_match, 5),
        "matches_per_block": int(matches_per_block),
        "how": how,
        "measured": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "load": round(os.getloadavg()[0], 2),
        "build": _build(),
    }
    path = _speed_files(cards)[0]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        data = data if isinstance(data, dict) else {}
    except (OSError, ValueError):
        data = {}
    data[Path(cards).name] = record
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, json.dumps(data, ensure_ascii=False, indent=1, sort_keys=True) + "\n")
    return {**record, "source": str(path), "mine": True}


def _build() -> str:
    """The engine build this process runs: ``compiled`` (mypyc) or ``pure``."""
    from throne_lib.compiled import decide

    return decide()[0]


def duration_zh(seconds: float) -> str:
    """``42 秒`` / ``3.5 分钟`` / ``1.2 小时``."""
    if seconds < 90:
        return f"{seconds:.0f} 秒"
    if seconds < 5400:
        return f"{seconds / 60:.1f} 分钟"
    return f"{seconds / 3600:.1f} 小时"


def estimate_seconds(speed: Mapping[str, Any], blocks: int, workers: int) -> float:
    """A run of at most ``blocks`` blocks on ``workers`` processes at the recorded speed."""
    per_block = float(speed["seconds_per_match"]) * int(speed["matches_per_block"])
    return per_block * blocks / max(1, workers)


def estimate_html(speed: Mapping[str, Any] | None, blocks: int, workers: int) -> str:
    """The panel's line before a run: how long it may take at the recorded speed, or how
    to get a figure when there is none."""
    if speed is None:
        return (
            "<span style='color:#5d6778'>本机还没有测速记录：点「估算用时」按本机的速度估计一次搜索的用时"
            "（测一个区块）；第一代完成后进度条旁也会给出剩余时间</span>"
        )
    total = estimate_seconds(speed, blocks, workers)
    where = "本机" if speed.get("mine") else "仓库记录"
    procs = f"，{workers} 个进程" if workers > 1 else ""
    build = {"pure": "，纯 Python 引擎", "compiled": "，编译引擎"}.get(str(speed.get("build")), "")
    return (
        f"按当前预算，一次搜索预计最多约 <b>{duration_zh(total)}</b>（{blocks} 个区块 × "
        f"每区块 {speed['matches_per_block']} 局 × 每局 {float(speed['seconds_per_match']):.2f} 秒"
        f"{procs}；{where} {html.escape(str(speed.get('measured', '?')))} 测得，"
        f"当时负载 {speed.get('load', '?')}{build}）"
    )


# --- a saved run, in the panel's words ------------------------------------------------------


def _pct(rate: float, low: float, high: float) -> str:
    if math.isnan(rate):
        return "–"
    return f"{100 * rate:.1f}% [{100 * low:.0f}–{100 * high:.0f}]"


def run_head_html(rf: RunFile, cards: str | Path) -> str:
    """Which run is shown: its file, command, seed and size, and whether the card table
    has changed since (its proposals were made from the table it names)."""
    run = rf.run or {}
    first = rf.frame[rf.frame["proposal"] == 0]
    seed = int(first["seed"].iloc[0]) if "seed" in first.columns else None
    when = f"，{html.escape(str(run['finished']))}" if run.get("finished") else ""
    command = run.get("command") or "看板「开始搜索」"
    parts = [
        f"<b>上次的搜索结果</b>（<code>{html.escape(shown_path(rf.path, cards))}</code>{when}）：",
        f"{html.escape(str(command))}",
        f" · 种子 {seed} · {run.get('matches_played', '?')} 局"
        f" · {len(rf.numbers)} 个方案。点「开始搜索」重新运行。",
    ]
    sha = (run.get("cards") or {}).get("sha256")
    if sha and Path(cards).is_file() and sha != table_sha256(cards):
        parts.append(
            "<br><span style='color:#b35c00'>卡表在这次搜索之后改动过：方案基于旧表，"
            "「应用此方案」会拒绝已改动的字段</span>"
        )
    return "<p style='font-size:13px'>" + "".join(parts) + "</p>"


def shown_path(path: Path, cards: str | Path) -> str:
    """``path`` from the card table's folder (the repository's root) when it lies under it."""
    try:
        return str(path.resolve().relative_to(Path(cards).resolve().parent))
    except ValueError:
        return str(path)


def saved_detail_html(rf: RunFile, number: int) -> str:
    """Proposal ``number`` of a saved run (0: the unchanged table, when the run has no
    proposal): its changes, its verdict and each group's rate before and after, on the
    verification seeds when the run has them (else on the holdout)."""
    names = rf.names
    rows = rf.rows(number)
    base = rf.rows(0).iloc[0]
    run = rf.run or {}
    t = run.get("targets") or {}
    lo, hi = (t.get("band") or [0.45, 0.55])[:2]
    first_max = float(t.get("first_seat_max", 1.0))
    verified = "verify" in rows.columns and not rows["verify"].isna().all()
    b_col, a_col = ("verify_before", "verify") if verified else ("before", "after")
    where = "复核" if verified else "留出对局"
    out = []
    if number > 0:
        items = []
        for c in rf.changes(number):
            who = "规则" if not c.get("card") else (c.get("name") or c["card"])
            items.append(
                f"<li>{html.escape(str(who))} <code>{html.escape(str(c['key']))}</code>："
                f"{c.get('old')} → {c.get('new')}</li>"
            )
        r = rows.iloc[0]
        line = (
            f"失衡度 {float(base['holdout_imbalance']):.3f} → "
            f"{float(r['holdout_imbalance']):.3f}（留出对局）"
        )
        if verified:
            meets = "是" if bool(r.get("meets", False)) else "否"
            line += (
                f"；复核 {float(base['verify_imbalance']):.3f} → "
                f"{float(r['verify_imbalance']):.3f} · 复核达标：{meets}"
            )
        out.append(f"<p>方案 {number}：{len(items)} 处改动</p><ul>{''.join(items)}</ul>")
        out.append(f"<p>{line}</p>")
    else:
        out.append("<p>这次搜索没有找到比现状更平衡的方案；下表是现状的胜率。</p>")
    if number > 0:
        cols = [
            (b_col, f"调整前 before（{where}）", False),
            (a_col, f"调整后 after（{where}）", True),
        ]
    else:  # the unchanged table: on the holdout, and on the verification seeds if any
        cols = [("after", "现状（留出对局）", not verified)]
        cols += [("verify", "现状（复核）", True)] if verified else []
    table = []
    for _, r in rows.iterrows():
        g = str(r["group"])
        first = g == FIRST
        cells = []
        for col, _, judged in cols:
            rate = float(r[col])
            ok = rate <= first_max if first else lo <= rate <= hi
            colour = (
                "#5d6778" if math.isnan(rate) or not judged else ("#1e8449" if ok else "#c0392b")
            )
            shown = _pct(rate, float(r[f"{col}_low"]), float(r[f"{col}_high"]))
            cells.append(f"<td style='color:{colour}'>{shown}</td>")
        label = "先手 first seat" if first else names.get(g, g)
        table.append(f"<tr><td>{html.escape(label)}</td>{''.join(cells)}</tr>")
    head = "<tr><th></th>" + "".join(f"<th>{title}</th>" for _, title, _ in cols) + "</tr>"
    out.append(f"<table style='font-size:12px'>{head}{''.join(table)}</table>")
    return "".join(out)


# --- measuring (the repository's record) ---------------------------------------------------


def measure_speed(game: Any, seed: int = 0) -> tuple[float, int]:
    """Play one block of ``game`` (a :class:`~throne_lib.kit.balance.BalanceGame`) on
    the unchanged table in this process: (seconds per match, matches per block)."""
    import random
    import time

    from throne_lib.kit.balance import Evaluator, block_seed, search_space

    space = search_space(game, freeze=[])
    block = game.block(random.Random(0), block_seed(seed, 0))
    started = time.perf_counter()
    Evaluator(game, space, None).outcomes([((), block)])
    return (time.perf_counter() - started) / max(1, len(block)), len(block)
