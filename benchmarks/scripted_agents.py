"""The scripted agents' blind spots (issue 32, item 3), measured from simulation output.

Reads what ``throne … simulate --out X.parquet --logs DIR`` wrote and prints figures
(asserts nothing). The matches are made by the CLI, so the commands that made a figure
are the CLI's; this script only counts:

    throne --game pin simulate -n 200 --seed 5000 --rotate --workers 1 --backend serial \\
        --out results/agents/after/pin.parquet --logs results/agents/after/pinlogs
    python benchmarks/scripted_agents.py pin results/agents/after/pin.parquet \\
        results/agents/after/pinlogs

    throne --game castle simulate -n 200 --players P --seed 5000 --workers 1 \\
        --backend serial --out results/agents/after/castleP.parquet \\
        --logs results/agents/after/castlelogsP          # for P = 4 … 8
    python benchmarks/scripted_agents.py castle results/agents/after

``pin``: deck win rates (with the side each deck played), 特殊 actions per match and
per deck (from the logs: the acting side is the side of the unit the log names).
``castle``: role win rates per player count, matches ended in round 1, and each hero's
pick rate per offer — the offers are asked of the engine by replaying each log's picks
(``pick_hero`` prompts' legal actions), so nothing about the offer is guessed.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import pandas as pd

from throne_lib.kit.log import read_log


def _special_sides(log_path: Path) -> Counter[int]:
    """Side (0 甲 / 1 乙) of each 特殊 action in a PIN log, replayed on the engine."""
    log = read_log(log_path)
    m = log.header.new_match()
    out: Counter[int] = Counter()
    for r in log.records:
        if r.action.startswith("special "):
            out[m.current_seat] += 1
        m.apply(r.action)
    return out


def pin(parquet: str, logs: str) -> None:
    df = pd.read_parquet(parquet)
    n = len(df)
    print(f"PIN: {n} matches, seeds {df.seed.min()}–{df.seed.max()} ({parquet})")
    first = (df.winner == "甲").mean()
    print(f"  first player (甲) wins {first:.1%}")
    specials: Counter[str] = Counter()
    per_match = []
    for _, row in df.iterrows():
        path = Path(logs) / f"match_{int(row['match']):06d}.jsonl"
        sides = _special_sides(path)
        per_match.append(sum(sides.values()))
        specials[str(row["甲_setup"])] += sides[0]
        specials[str(row["乙_setup"])] += sides[1]
    for deck in sorted(set(df["甲_setup"]) | set(df["乙_setup"])):
        as0 = df[df["甲_setup"] == deck]
        as1 = df[df["乙_setup"] == deck]
        wins = (as0.winner == "甲").sum() + (as1.winner == "乙").sum()
        print(
            f"  {deck}: wins {wins}/{len(as0) + len(as1)} = {wins / (len(as0) + len(as1)):.1%}"
            f"; 特殊 actions {specials[deck]} ({specials[deck] / n:.2f} per match)"
        )
    busy = sum(1 for k in per_match if k)
    print(f"  特殊 actions: {sum(per_match)} in all; matches with one or more: {busy}/{n}")


def _offers(log_path: Path) -> list[tuple[str, tuple[str, ...], str]]:
    """(role, heroes offered, hero kept) for every pick in a castle log."""
    log = read_log(log_path)
    m = log.header.new_match()
    out = []
    for r in log.records:
        if m.prompt_kind != "pick_hero":
            break
        seat = m.current_seat
        offered = tuple(str(a.args[0]) for a in m.legal_actions())
        out.append((m.state.players[seat].role, offered, r.action.split()[1]))
        m.apply(r.action)
    return out


def castle(folder: str) -> None:
    root = Path(folder)
    offered: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    by_role: Counter[tuple[str, str]] = Counter()
    for pq in sorted(root.glob("castle*.parquet")):
        df = pd.read_parquet(pq)
        players = int(df.players.iloc[0])
        roles: dict[str, list[float]] = {}
        for _, row in df.iterrows():
            seen = set()
            for q in range(players):
                role = row[f"seat{q}_role"]
                if role in seen:  # one figure per role per match (all of a side win together)
                    continue
                seen.add(role)
                roles.setdefault(role, []).append(float(row[f"seat{q}_return"] > 0))
        r1 = (df.rounds <= 1).mean()
        draws = (df.end_rule == "CH-TURN-11").mean() if "end_rule" in df else 0.0
        text = ", ".join(f"{k} {sum(v) / len(v):.1%}" for k, v in sorted(roles.items()))
        print(
            f"castle {players} seats, {len(df)} matches (seeds {df.seed.min()}–{df.seed.max()}):"
            f" {text}; round-1 endings {r1:.1%}; round-limit draws {draws:.1%}"
        )
        logs = root / f"castlelogs{players}"
        for path in sorted(logs.glob("match_*.jsonl")):
            for role, heroes, hero in _offers(path):
                offered.update(heroes)
                kept[hero] += 1
                by_role[(role, hero)] += 1
    if offered:
        total = sum(kept.values())
        print(f"hero picks per offer ({total} picks):")
        for hero in sorted(offered, key=lambda x: kept[x] / offered[x]):
            picks = ", ".join(
                f"{r} {by_role[(r, hero)]}"
                for r in ("lord", "enemy", "reinforcement", "neutral")
                if by_role[(r, hero)]
            )
            print(
                f"  {hero:14s} kept {kept[hero]:4d} of {offered[hero]:4d} offers"
                f" = {kept[hero] / offered[hero]:6.1%}  ({picks})"
            )
        summary = {h: [kept[h], offered[h]] for h in sorted(offered)}
        (root / "hero_picks.json").write_text(json.dumps(summary, indent=1) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pin")
    p.add_argument("parquet")
    p.add_argument("logs")
    c = sub.add_parser("castle")
    c.add_argument("folder")
    a = ap.parse_args()
    if a.cmd == "pin":
        pin(a.parquet, a.logs)
    else:
        castle(a.folder)


if __name__ == "__main__":
    main()
