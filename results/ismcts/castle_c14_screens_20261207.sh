#!/bin/sh
# 城堡之心: does the exploration constant c = 1.4 (default 0.7), which lifted the 7-seat
# 城主 at 190 iterations (castle_lord7_c_screen_20261207.sh), lift the other seats short of
# the target at their 1 s budgets? Three screens of 100 seeds each, every one re-using the
# first 100 seeds of that seat's c = 0.7 run so the two settings pair seed by seed
# (`throne report SCREEN.parquet C07.parquet` joins them):
#   8-seat 援军 at 160 iterations, seeds 61200-61299 (castle8_reinforcement_i160_s61200)
#   7-seat 援军 at 190 iterations, seeds 61800-61899 (castle7_reinforcement_i190_s61800)
#   7-seat 中立 at 190 iterations, seeds 62000-62099 (castle7_neutral_i190_s62000)
# A setting that looks better here must be re-measured on seeds never used before.
# Usage: sh castle_c14_screens_20261207.sh   RESUME=1 goes on from a stopped run's journal;
# WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
for cell in "8 reinforcement 160 61200" "7 reinforcement 190 61800" "7 neutral 190 62000"; do
    set -- $cell
    seats=$1 role=$2 it=$3 seed=$4 n=100
    out=results/ismcts/castle${seats}_${role}_i${it}_c14screen_s$seed.parquet
    if [ -f "$out" ]; then echo "== $out exists"; continue; fi
    echo "== $(date -u +%FT%H:%M:%S) $role$seats c=1.4 screen $it iterations load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
    /usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
        --agents scripted,ismcts:iterations=$it:c=1.4 -n $n --seed $seed \
        --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
done
