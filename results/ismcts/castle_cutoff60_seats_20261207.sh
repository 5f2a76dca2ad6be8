#!/bin/sh
# 城堡之心: castle seats short of the target (the 7-seat 城主: castle_lord7_cutoff60_20261207.sh,
# 7:lord:62400) with rollouts cut off at 60 actions (the camps' HP evaluation) and the
# ~400 iterations that buys within 1 s a decision, against the scripted
# agent in the same seat, every other seat scripted, on seeds never used before.
# Usage: sh castle_cutoff60_seats_20261207.sh [CELL...]   CELL is seats:role:first-seed
# (default: the 7-seat 援军 on 63200-63399, seeds not yet used); a finished cell is
# skipped; RESUME=1 goes on from a stopped run's journal; WORKERS=1 plays on one process (default 2); EXTRA=c=1.4 adds agent
# parameters (colon-separated; the output file name gets them with '=' and '.' removed);
# IT and RA set the iterations and the cut-off (default 400 and 60; both name the file).
set -e
cd "$(dirname "$0")/../.."
it=${IT:-400} ra=${RA:-60} n=200  # IT=550 RA=40: another budget and cut-off (own file)
tag=$(echo "${EXTRA:+_$EXTRA}" | tr -d '=.' | tr ':' '_')
for cell in ${*:-7:reinforcement:63200}; do
    seats=${cell%%:*} rest=${cell#*:}
    role=${rest%%:*} seed=${rest#*:}
    out=results/ismcts/castle${seats}_${role}_i${it}_ra${ra}${tag}_s$seed.parquet
    [ -e "$out" ] && { echo "== $out: done"; continue; }
    echo "== $(date -u +%FT%H:%M:%S) $seats seats, $role, rollout_actions=$ra${EXTRA:+:$EXTRA} $it iterations, seeds $seed+$n load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
    /usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
        --agents scripted,ismcts:iterations=$it:rollout_actions=$ra${EXTRA:+:$EXTRA} -n $n --seed $seed \
        --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
done
