"""docs/pin.md names every effect word, keyword and counter trigger of the registry."""

from __future__ import annotations

from pathlib import Path

from throne_lib.games.pin.words import CHOSEN_WHO, COUNTER_TRIGGERS, KEYWORDS, SPECS, TRIGGERS

DOC = Path(__file__).resolve().parents[2] / "docs" / "pin.md"


def test_docs_list_every_word() -> None:
    """PIN-KW-1 / PIN-EFFECT-1: the designer's reference covers the whole registry."""
    text = DOC.read_text(encoding="utf-8")
    for word in [*SPECS, *KEYWORDS, *TRIGGERS, *COUNTER_TRIGGERS, *CHOSEN_WHO]:
        assert f"`{word}" in text, word
