#!/bin/sh
# 城堡之心: can any 城主 meet the target at 7 seats? The honest search gains +1.8 there at its
# 1 s budget of 130 iterations (110 seeds, castle_lord7_i130_20261205.sh), where the
# scripted 城主 wins 1.5% (one 援军, a 中立 and four 敌军 against him). This probe
# (benchmarks/castle_headroom.py) puts a clairvoyant search in the 城主's seat — the kit's
# ISMCTS searching the true position: identities, hands, the pile's order, the dice — at the
# same 130 iterations, against the scripted 城主 on the same seeds, every other seat
# scripted. If even clairvoyance gains less than +10, the 7-seat 城主 cell is the game's
# (the castle camp's odds at 7 seats), not the search's. `roles` instead: the role oracle
# (every hidden identity true, hands, pile and dice redrawn as the honest search's), to
# tell identities from clairvoyance. Seeds never used before (61000-), the same for both.
# Usage: sh castle_lord7_headroom_20261207.sh [cheat|roles]   RESUME=1 goes on from a
# stopped run's journal; WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
probe=${1:-cheat}
case $probe in cheat|roles) ;; *) echo "cheat or roles"; exit 2 ;; esac
echo "== $(date -u +%FT%H:%M:%S) lord7 $probe 130 iterations, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" python benchmarks/castle_headroom.py --seats 7 --role lord \
    -n 200 --seed 61000 --iterations 130 --agents $probe --workers ${WORKERS:-2} \
    --out results/ismcts/castle7_lord_${probe}_i130_s61000.parquet ${RESUME:+--resume}
