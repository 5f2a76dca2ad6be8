#!/bin/sh
# Issue #38's acceptance runs of the screened search (`throne balance suggest --screen`,
# docs/balance.md, "The screened search"): the recommended command on run seed SEED; its
# own verification (36 blocks: 360 matches per general on seeds no step of it played) is
# what judges it. Files: results/balance/screened/screened-sSEED.{parquet,txt} with
# -show.txt and -stderr.txt. Usage: [PREFIX=NAME] sh run-screened.sh SEED [OPTION...]
# (PREFIX, default "screened", names the files: the runs with --confirm 30 of 2026-12-06
# are PREFIX=confirmed, run seeds 65-69; with --refresh 2, PREFIX=refreshed, 70-72; with
# --repair 200 --refresh 5 --refresh-every 20, PREFIX=rotated, from 75; with those and
# --max-changes 16, steps predicted by their own measurement: PREFIX=learned16 (probe, 75)
# and PREFIX=learned, from 77)
set -e
seed=${1:?usage: run-screened.sh SEED [OPTION...]}
shift
cd "$(dirname "$0")/../../.."
out=results/balance/screened/${PREFIX:-screened}-s$seed
echo "== $(date -u +%FT%H:%M:%S) load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) options: $* $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')" > $out-stderr.txt
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne balance suggest --agent standard \
    --band 0.40:0.60 --first-seat-max 0.55 \
    --population 2 --generations 0 --blocks 30 --block-rounds 10 \
    --screen 6000 --screen-p 0.15 --screen-knobs 300 --screen-per-group 12 --repair 80 \
    --holdout-blocks 20 --verify-blocks 36 --proposals 2 --max-changes 12 --aim 0.06 \
    --no-prune --time-limit 28 --seed "$seed" --workers 2 --no-progress \
    --out $out.parquet --report $out.txt "$@" 2>> $out-stderr.txt
throne balance show $out.parquet > $out-show.txt
echo "== $(date -u +%FT%H:%M:%S) done" >> $out-stderr.txt
