"""No giants (issue 35): every module under ``throne_lib/`` stays at most 800 lines.

A file over the limit is split by responsibility, not listed here; :data:`EXCEPTIONS`
names the ones that can't be yet, each with its current size as its ceiling, so it can
shrink but not grow, and an exception that is no longer needed fails too.
"""

from __future__ import annotations

from pathlib import Path

LIMIT = 800
ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "throne_lib"
# path relative to the repository -> the most lines it may have until it is split
EXCEPTIONS: dict[str, int] = {}


def line_counts() -> dict[str, int]:
    return {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(PACKAGE.rglob("*.py"))
    }


def test_no_module_under_throne_lib_is_over_800_lines() -> None:
    counts = line_counts()
    assert len(counts) > 100  # the walk found the package
    over = {path: n for path, n in counts.items() if n > EXCEPTIONS.get(path, LIMIT)}
    assert not over, f"over {LIMIT} lines (split them by responsibility): {over}"


def test_every_listed_exception_is_still_needed() -> None:
    counts = line_counts()
    stale = {path: counts.get(path) for path in EXCEPTIONS if counts.get(path, 0) <= LIMIT}
    assert not stale, f"no longer over {LIMIT} lines, remove from EXCEPTIONS: {stale}"
