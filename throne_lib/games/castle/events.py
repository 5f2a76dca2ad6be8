"""Events of a 城堡之心 match: one line of the Chinese 战报 each (CH-UI-6).

An event has a public text; a draw is public as a count, and its cards are a private
text for the drawing seat only (``private_to``), so the log of a seat never shows
another seat's hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from throne_lib.compiled import reduce_dataclass


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    text: str
    private_to: int = -1
    private_text: str = ""

    def __init__(self, kind: str, text: str, private_to: int = -1, private_text: str = "") -> None:
        # written out so that mypyc compiles it (see ``Act.__init__``)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "text", text)
        object.__setattr__(self, "private_to", private_to)
        object.__setattr__(self, "private_text", private_text)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return reduce_dataclass(self)  # pickled as a constructor call (compiled.py)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.private_to >= 0:
            d["private_to"] = self.private_to
            d["private_text"] = self.private_text
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(
            str(d["kind"]),
            str(d["text"]),
            int(d.get("private_to", -1)),
            str(d.get("private_text", "")),
        )

    def seen_by(self, seat: int | None) -> str:
        """The line ``seat`` reads; None: the whole line, private part included (a replay
        showing everything after the end, ``reveal_all``; a spectator reads ``text``)."""
        if self.private_to >= 0 and (seat is None or seat == self.private_to):
            return self.private_text or self.text
        return self.text
