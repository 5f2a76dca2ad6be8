#!/bin/sh
# 城堡之心: the 援军 at 6 seats with sharper belief-weighted deals (belief=3; the default is
# 0.5), against the scripted agent on the seeds of castle_headroom_20261204.sh (42000-42119),
# so it sits beside the honest default, the role oracle and the cheat on the same seeds.
# Stopped (SIGTERM) at 20:51 UTC on 2026-12-04 to free the machine for CI; its journal
# (castle6_reinforcement_belief3_s42000.parquet.journal.jsonl) holds the finished matches,
# and RESUME=1 goes on from it.
set -e
cd "$(dirname "$0")/../.."
echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats 6 --role reinforcement \
    --agents scripted,ismcts:iterations=40:belief=3 -n 120 --seed 42000 --workers 2 \
    --no-progress ${RESUME:+--resume} --out results/ismcts/castle6_reinforcement_belief3_s42000.parquet
