#!/bin/sh
# 城堡之心: how much one seat's play can change its camp's fate (benchmarks/castle_headroom.py):
# the scripted agent, the honest ISMCTS default, a role oracle (true identities, the rest
# redrawn) and a cheating ISMCTS that searches the true position, each in the seat dealt
# the 援军 at 6 seats, the other seats scripted, on the same seeds 42000-42119 (never used
# before). Two runs: `cheat` (honest + cheat) and `roles` (the role oracle).
# The cheat run was stopped (SIGTERM) at 20:51 UTC on 2026-12-04 to free the machine for
# CI; its journal (castle6_reinforcement_headroom_s42000.parquet.journal.jsonl) holds the
# matches it finished, `throne report JOURNAL` prints them, and RESUME=1 goes on from it.
# Usage: [RESUME=1] sh castle_headroom_20261204.sh [cheat|roles]...
set -e
cd "$(dirname "$0")/../.."
[ $# -gt 0 ] || set -- cheat roles
for run in "$@"; do
    case $run in
        cheat) agents=ismcts,cheat out=castle6_reinforcement_headroom_s42000 ;;
        roles) agents=roles out=castle6_reinforcement_roles_s42000 ;;
        *) echo "run?"; exit 2 ;;
    esac
    echo "== $(date -u +%FT%H:%M:%S) $run load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD)"
    python benchmarks/castle_headroom.py --seats 6 --role reinforcement -n 120 --seed 42000 \
        --iterations 40 --agents $agents --workers 2 ${RESUME:+--resume} \
        --out results/ismcts/$out.parquet
done
