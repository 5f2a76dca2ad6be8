"""Option values of ``throne balance``: a ``LOW:HIGH`` pair and a win-rate band; the
screening options of ``throne balance suggest``."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


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


def add_screen_options(budget: Callable[..., Any]) -> None:
    """The screening options (``Budget.screen`` …, ``Budget.refresh``), each added by
    ``budget(flag, help, **kw)``: the command line's helper that gives an option its
    :class:`~throne_lib.kit.balance.Budget` field's type and default."""
    budget(
        "--screen",
        "screening: play ROUNDS rounds (every group once), each on its own variant with "
        "every candidate knob a step up or down at random, fit every knob's effect on "
        "every group from all of them, and let the repair try the move those effects "
        "predict to help most (two-seat pairing games; default %(default)s: off)",
        metavar="ROUNDS",
    )
    budget("--screen-p", "screening: the chance a candidate knob is moved each way (default %(default)s)")  # fmt: skip
    budget("--screen-knobs", "screening: candidate knobs (default %(default)s)", metavar="N")
    budget(
        "--screen-per-group",
        "screening: each group's N most needed knobs are candidates whatever the ranking "
        "(default %(default)s)",
        metavar="N",
    )
    budget(
        "--refresh",
        "with --screen: where the screened repair would stop, draw fresh search blocks, "
        "re-measure the table there and go on, at most N times (default %(default)s)",
        metavar="N",
    )
    budget(
        "--refresh-every",
        "with --refresh: also draw fresh blocks after STEPS steps on the same ones "
        "(default %(default)s: only where the repair would stop)",
        metavar="STEPS",
    )
