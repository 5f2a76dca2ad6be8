"""Read the verification reports of run-dashboard.sh (``dashboard-sSEED-verify.txt``):
per run seed, the first seat and the generals outside 40-60% before and after the
proposal, on the same 360 matches a general. Usage: python summary.py"""

from __future__ import annotations

import re
from pathlib import Path

ROW = re.compile(r"^\s*([\d.]+)% \[[\d. ,]+\]\s+([\d.]+)% \[[\d. ,]+\]\s+(?:yes|NO)\s+(.+)$")
LOW, HIGH = 40.0, 60.0


def main() -> None:
    here = Path(__file__).parent
    print(
        "run seed | proposal | first seat before -> after | generals outside 40-60% before -> after"
    )
    for path in sorted(here.glob("dashboard-s*-verify.txt")):
        seed = path.name.split("-")[1][1:]
        text = path.read_text(encoding="utf-8")
        changes = [ln for ln in text.splitlines() if ln.startswith(("rules:", "~ ", "+ ", "- "))]
        before: list[str] = []
        after: list[str] = []
        first = ""
        for line in text.splitlines():
            m = ROW.match(line)
            if not m:
                continue
            b, a, name = float(m[1]), float(m[2]), m[3].strip()
            if name == "first seat":
                first = f"{b:.1f}% -> {a:.1f}%"
                continue
            if not LOW <= b <= HIGH:
                before.append(f"{name.split()[-1]} {b:.1f}")
            if not LOW <= a <= HIGH:
                after.append(f"{name.split()[-1]} {a:.1f}")
        print(f"{seed} | {'; '.join(changes)} | {first} | {len(before)} -> {len(after)}")
        print(f"    before: {', '.join(before)}")
        print(f"    after:  {', '.join(after)}")


if __name__ == "__main__":
    main()
