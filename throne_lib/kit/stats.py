"""Confidence intervals the kit's reports share (:mod:`throne_lib.kit.analytics`,
:mod:`throne_lib.kit.ladder`, the balance search)."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(wins: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``wins / n`` (``(nan, nan)`` for n = 0)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))
