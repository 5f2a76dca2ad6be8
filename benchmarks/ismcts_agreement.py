"""How often ISMCTS picks the best existing agent's move, and how its root visits spread
(issue 32: why a small budget lost). Deterministic: positions from seed 777 of
``bench_ismcts.positions``, agent seeds 0..k-1.

    python benchmarks/ismcts_agreement.py throne 40
    python benchmarks/ismcts_agreement.py throne 40 policy_prior=1 widen=0.5
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from bench_ismcts import positions  # noqa: E402

from throne_lib.kit import registry  # noqa: E402
from throne_lib.kit.agents import make_agent  # noqa: E402
from throne_lib.kit.ismcts import IsmctsAgent, action_key  # noqa: E402


def main(argv: list[str]) -> int:
    name, iterations = argv[0], int(argv[1])
    extra = {k: float(v) for k, v in (kv.split("=") for kv in argv[2:])}
    g = registry.get(name)
    pos = positions(name, 12, 777)
    agree, widths, top = 0, [], []
    for i, m in enumerate(pos):
        ref = make_agent(g.default_agent, i, name).choose(m.copy())
        agent = IsmctsAgent(i, game=name, iterations=iterations, **extra)
        pick = agent.choose(m)
        widths.append(len(m.legal_actions()))
        root = agent.search(m)
        top.append(sorted((c.visits for c in root.children.values()), reverse=True)[:3])
        agree += action_key(pick) == action_key(ref)
    print(name, iterations, extra, "agree", agree, "/", len(pos), "widths", widths, "top visits", top)  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
