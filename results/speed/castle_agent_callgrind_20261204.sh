#!/bin/sh
# Instructions (callgrind Ir, independent of the machine's load) of a fixed 城堡之心 workload:
# two 6-seat matches, one seat ISMCTS (5 iterations, today's default parameters), the others
# scripted — before (BEFORE: a checkout of 91de860) and after the scripted agent's cached
# suspicion scores (AFTER: a checkout of this commit). The workload's count is the run's
# minus the imports' (docs/speed.md, "Instruction counts when the machine is busy").
# Usage: sh castle_agent_callgrind_20261204.sh BEFORE AFTER
set -e
work=$(mktemp -d)/work.py
cat > "$work" <<'PY'
import sys
from throne_lib.kit import registry
from throne_lib.kit.agents import make_agent
g = registry.get("castle")
if sys.argv[1] == "work":
    for seed in range(2):
        m = g.new(g.default_setups(6), seed=seed)
        ags = [make_agent("scripted", seed*8+q, "castle") for q in range(6)]
        ags[seed] = make_agent("ismcts:iterations=5", seed, "castle")
        while not m.is_over:
            m.apply(ags[m.current_seat].choose(m))
else:
    m = g.new(g.default_setups(6), seed=0)
PY
for tree in "$@"; do for w in work imports; do
  echo "$tree $w $(PYTHONPATH=$tree valgrind --tool=callgrind --callgrind-out-file=/dev/null python "$work" $w 2>&1 | grep 'refs:')"
done; done
