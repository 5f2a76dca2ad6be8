"""Settings of the hypothesis fuzz tests (issue 15): fixed examples in the default run,
many fresh ones on demand.

The default run is derandomized (the same examples every time: CI does not flake).
``THRONE_FUZZ_SCALE=20 pytest tests/test_harden_*.py`` runs 20 times as many examples,
drawn afresh: the way to look for the next break.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

SCALE = max(1, int(os.environ.get("THRONE_FUZZ_SCALE", "1")))


def fuzz(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    )
