"""Option values of ``throne balance``: a ``LOW:HIGH`` pair and a win-rate band."""

from __future__ import annotations

import argparse


def _pair(text: str, what: str) -> tuple[float, float]:
    try:
        lo, hi = text.split(":")
        return float(lo), float(hi)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} {text!r}: expected LOW:HIGH") from None


def parse_band(text: str) -> tuple[float, float]:
    """A win-rate band, ``LOW:HIGH`` or ``LOW,HIGH``, as fractions (``0.4:0.6``) or
    percentages (``40,60``: read as percentages when either number is above 1)."""
    parts = text.replace(",", ":").split(":")
    try:
        lo, hi = (float(x) for x in parts)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"band {text!r}: expected LOW:HIGH or LOW,HIGH, e.g. 0.4:0.6 or 40,60"
        ) from None
    if max(lo, hi) > 1:
        lo, hi = lo / 100, hi / 100
    if not 0 <= lo <= hi <= 1:
        raise argparse.ArgumentTypeError(
            f"band {text!r}: expected 0 <= LOW <= HIGH <= 1 (or percentages up to 100)"
        )
    return lo, hi
