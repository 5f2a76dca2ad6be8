"""暗标夺宝 (Goofspiel): the rules, the match protocol and the registry entry, in one file.

Rules (IDs ``GS-…``, cited by the tests):

- GS-SETUP-1: each seat holds the cards 1..N (``GoofRules.cards``, default 8; also the
  option ``cards``); the N prize cards are shuffled by the seed, face down.
- GS-BID-1: each round the top prize is turned up; seat 0 bids a card of its hand face
  down, then seat 1 does. A bid is hidden from the other seat until both have bid.
- GS-BID-2: both bids are then shown and discarded: the higher bid scores the prize's
  value; equal bids score nothing (the prize is discarded).
- GS-END-1: after N rounds the higher score wins (+1/-1), equal scores draw (0/0).
"""

from __future__ import annotations

import copy
import hashlib
import random
from dataclasses import dataclass
from typing import Any

from throne_lib.kit.protocol import IllegalAction, check_seat
from throne_lib.kit.registry import Dashboard, declare


@dataclass(frozen=True)
class GoofRules:
    """The rule parameters (``throne simulate --game goofspiel --set cards=6``)."""

    cards: int = 8  # GS-SETUP-1


@dataclass(frozen=True)
class Bid:
    """Bid the card ``card`` (an int; a bool or float is refused)."""

    card: int

    def __post_init__(self) -> None:
        if type(self.card) is not int:
            raise TypeError(f"a bid is an int card, not {type(self.card).__name__} {self.card!r}")

    def text(self) -> str:
        return f"bid {self.card}"

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card}


@dataclass(frozen=True)
class Event:
    kind: str  # "bid" (hidden card), "win" or "tie" (both bids shown), "end"
    seat: int  # the seat that bid / won (-1: none)
    prize: int
    bids: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "prize": self.prize, "bids": list(self.bids)}


class GoofMatch:
    """One match of 暗标夺宝 for two seats (the kit's ``GameMatch``)."""

    game = "goofspiel"
    num_seats = 2

    def __init__(self, setups: list[Any], seed: int, options: dict[str, Any]) -> None:
        self.setups, self.seed = list(setups), seed
        rules = options.get("rules") or GoofRules()
        n = int(options.get("cards", rules.cards))
        if not 1 <= n <= 13:
            raise ValueError(f"cards: 1..13, not {n} (GS-SETUP-1)")
        self.options = {"cards": n} if n != 8 else {}
        self.rng = random.Random(seed)
        self.prizes = list(range(1, n + 1))
        self.rng.shuffle(self.prizes)  # GS-SETUP-1: the top prize is prizes[0]
        self.hands = [list(range(1, n + 1)) for _ in range(2)]
        self.scores = [0, 0]
        self.pending: int | None = None  # seat 0's hidden bid (GS-BID-1)
        self.shown: list[tuple[int, int, int]] = []  # (prize, bid 0, bid 1) per round
        self.history: list[Bid] = []

    @property
    def current_seat(self) -> int:
        return 0 if self.pending is None else 1

    @property
    def is_over(self) -> bool:
        return not self.prizes

    def legal_actions(self) -> list[Bid]:
        return [] if self.is_over else [Bid(c) for c in self.hands[self.current_seat]]

    def parse(self, text: str) -> Bid:
        if not isinstance(text, str):
            raise TypeError(f"an action text is a str, not {type(text).__name__}")
        word, _, card = text.strip().partition(" ")
        if word != "bid" or not card.strip().isdigit():
            raise ValueError(f"{text!r}: expected 'bid N'")
        return Bid(int(card))

    def apply(self, action: Bid | str) -> list[Event]:
        bid = self.parse(action) if isinstance(action, str) else action
        if not isinstance(bid, Bid):
            raise TypeError(f"not a goofspiel action: {type(action).__name__} {action!r}")
        if self.is_over:
            raise IllegalAction(bid.text(), "GS-END-1", "the match is over")
        seat, prize = self.current_seat, self.prizes[0]
        if bid.card not in self.hands[seat]:
            raise IllegalAction(bid.text(), "GS-BID-1", f"card {bid.card} is not in the hand")
        self.hands[seat].remove(bid.card)
        self.history.append(bid)
        if seat == 0:
            self.pending = bid.card
            return [Event("bid", 0, prize)]
        bids = (self.pending or 0, bid.card)
        self.pending = None
        self.prizes.pop(0)
        self.shown.append((prize, *bids))
        win = -1 if bids[0] == bids[1] else (0 if bids[0] > bids[1] else 1)
        if win >= 0:
            self.scores[win] += prize  # GS-BID-2
        out = [Event("bid", 1, prize), Event("win" if win >= 0 else "tie", win, prize, bids)]
        if self.is_over:
            out.append(Event("end", self.winner, 0, tuple(self.scores)))
        return out

    @property
    def winner(self) -> int:  # -1: a draw, or not over (GS-END-1)
        a, b = self.scores
        return -1 if not self.is_over or a == b else (0 if a > b else 1)

    def copy(self) -> GoofMatch:
        return copy.deepcopy(self)  # a small state: lists, frozen bids and the RNG

    def hash(self) -> str:
        """The whole state, hidden parts (prize order, pending bid) and the RNG included."""
        key = (self.prizes, self.hands, self.scores, self.pending, self.shown,
               self.rng.getstate())  # fmt: skip
        return hashlib.sha256(repr(key).encode()).hexdigest()[:16]

    def returns(self) -> list[float]:
        w = self.winner
        return [0.0, 0.0] if w < 0 else [1.0 if s == w else -1.0 for s in (0, 1)]

    def observation(self, seat: int) -> dict[str, Any]:
        """What ``seat`` sees: the cards not yet shown of both hands, scores, the prize
        turned up, the rounds so far, its own pending bid; not the prize order."""
        seat = check_seat(seat, 2, self.game)
        hands = [h[:] for h in self.hands]
        if seat == 1 and self.pending is not None:  # seat 0's face-down card: not shown yet
            hands[0] = sorted(hands[0] + [self.pending])
        return {
            "seat": seat,
            "to_bid": None if self.is_over else self.current_seat,
            "prize": self.prizes[0] if self.prizes else None,
            "prizes_left": sorted(self.prizes),
            "hands": hands,
            "scores": self.scores[:],
            "rounds": [list(r) for r in self.shown],
            "my_bid": self.pending if seat == 0 else None,
            "bid_placed": self.pending is not None,
        }

    def resample(self, seat: int, rng: random.Random) -> GoofMatch:
        """A copy with what ``seat`` cannot see redrawn: the order of the prizes under
        the top one, the RNG and, for seat 1, seat 0's pending bid (a card it still had)."""
        seat = check_seat(seat, 2, self.game)
        c = self.copy()
        c.prizes[1:] = rng.sample(c.prizes[1:], len(c.prizes[1:]))
        c.rng.seed(rng.getrandbits(64))  # the match RNG's future draws are hidden too
        if seat == 1 and c.pending is not None:
            c.hands[0].append(c.pending)
            c.pending = rng.choice(sorted(c.hands[0]))
            c.hands[0].remove(c.pending)
        return c


GAME = declare(
    __package__,
    title="暗标夺宝",
    title_en="Goofspiel (the kit's example game)",
    rule_prefix="GS-",
    seats=(2, 2),
    seat_titles=("甲", "乙"),  # what its pages call the seats (the play page: 甲 is you)
    new_match=lambda setups, seed, options: GoofMatch(list(setups), seed, dict(options)),
    default_setups=lambda n: ["player"] * n,
    rules=GoofRules(),
    dashboards=(
        Dashboard(
            "goofspiel.ipynb",
            "暗标夺宝",
            "Goofspiel",
            "kit 的示例游戏：每轮暗中出价争夺翻开的奖牌。",
            "The kit's example game: bid a card in secret for each turned-up prize.",
        ),
        Dashboard(
            "goofspiel_replay.ipynb",
            "暗标夺宝 复盘",
            "Goofspiel replay",
            "kit 给任何游戏的复盘页：逐步查看每个座位当时看到的内容。",
            "The kit's replay page for any game: each seat's view at every step.",
        ),
    ),
)
