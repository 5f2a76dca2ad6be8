#!/bin/sh
# 城堡之心: how much room the 敌军 leaves among searching tablemates at 4 and 7 seats.
# At 5 and 6 seats the 敌军's seat was measured among tablemates that search at 10
# iterations (castle_enemy{5,6}_..._mates10_20261206.sh); at 8 seats the same
# (castle_enemy8_i100_mates10_20261206.sh). At 4 and 7 seats the scripted 敌军 wins 99.8% and
# 98.5% among scripted tablemates. Before spending its 1 s budget (~320 / ~130 iterations,
# ~1.5-2 CPU-hours a run) this asks the cheap question first: among ismcts:iterations=10
# tablemates, how often does the scripted 敌军 seat win, i.e. how many points could any
# agent gain there at most? The seat is played by scripted and by ismcts:iterations=10 on
# the same seeds (never used before: 60600- at 4 seats, 60800- at 7).
# Usage: sh castle_enemy_room_mates10_20261207.sh 4|7   RESUME=1 goes on from a stopped
# run's journal; WORKERS=1 plays on one process (default 2).
set -e
cd "$(dirname "$0")/../.."
seats=$1
case $seats in
    4) seed=60600 n=200 ;;
    7) seed=60800 n=100 ;;
    *) echo "seats: 4 or 7"; exit 2 ;;
esac
role=enemy it=10
out=results/ismcts/castle${seats}_${role}_i${it}_mates10_s$seed.parquet
echo "== $(date -u +%FT%H:%M:%S) enemy$seats room: $it iterations, tablemates 10, load $(cut -d' ' -f1-3 /proc/loadavg) at $(git rev-parse --short HEAD) $(python -c 'import throne_lib.compiled as c; print(c.loaded_build())')"
/usr/bin/time -f "wall %e s, CPU %U+%S s" throne ladder --game castle --seats $seats --role $role \
    --agents scripted,ismcts:iterations=$it --tablemates ismcts:iterations=10 -n $n --seed $seed \
    --workers ${WORKERS:-2} --no-progress --out $out ${RESUME:+--resume}
