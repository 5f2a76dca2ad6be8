#!/bin/sh
# CW-SETUP-3 re-measure (issue 33 item 9): match lengths of team games with the scripted
# agents on seeds 5000-5099, one process, niced. Run from the repository root:
#   sh results/cities/run_team_lengths.sh && python results/cities/team_lengths.py
set -e
run() {
  nice -n 15 python -m throne_lib.cli simulate --game cities --players "$1" --teams "$2" \
    -n 100 --seed 5000 --workers 1 --no-progress --out "results/cities/$3.parquet"
}
run 8 a,b,a,b,a,b,a,b teams_4v4
run 4 a,b,a,b teams_2v2
run 6 a,b,c,a,b,c teams_3x2
