"""What every game's deck check reports: a :class:`DeckProblem` per broken deck rule
(naming the rulebook ID and the cards concerned) and :class:`DeckError` carrying them all."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class DeckProblem:
    rule: str
    message: str
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        cards = f" [{', '.join(self.cards)}]" if self.cards else ""
        return f"{self.rule}: {self.message}{cards}"


class DeckError(ValueError):
    """An illegal deck: every problem (a :class:`DeckProblem` or a line of text)."""

    def __init__(self, problems: Sequence[DeckProblem] | Sequence[str]) -> None:
        self.problems = problems
        super().__init__("illegal deck:\n" + "\n".join(str(p) for p in problems))
