"""A Tong-its entry as the engine reads it (TONGITS.md §8.1): the seating, the pot state, the
outcome and each player's hand, parsed and checked by :mod:`ledger.games.tongits.validation`.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ledger.games.cards import Card
from ledger.games.tongits.points import points

KINDS: tuple[str, ...] = ("tongits", "draw", "stock_out", "redeal", "close_pot")
PLAYED_KINDS = frozenset({"tongits", "draw", "stock_out"})
RESPONSES: tuple[str, ...] = ("fight", "fold", "auto_fold")
CLOSE_REASONS: tuple[str, ...] = ("end_of_night", "seat_change")
POT = "pot"  # the pot's name as a party of the netting (§0); no player may take it


@dataclass(frozen=True, slots=True)
class PotState:
    """§4.8: ``balance`` (minor units before this deal's antes), ``holder`` (the hitter or
    ``None``) and ``streak`` (≥ 1 exactly when there is a holder)."""

    balance: int = 0
    holder: str | None = None
    streak: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"balance": self.balance, "holder": self.holder, "streak": self.streak}


@dataclass(frozen=True, slots=True)
class PlayerHand:
    """One player's hand entry (§8.1), checked. ``cards`` and ``melds`` are ``None`` when not
    given; ``total`` the declared points; ``opened`` as entered; the declared bonus counts."""

    cards: tuple[Card, ...] | None = None
    melds: tuple[tuple[Card, ...], ...] | None = None
    total: int | None = None
    opened: bool | None = None
    aces: int | None = None
    kings: int | None = None
    escaleras: int | None = None
    secrets: int = 0


@dataclass(frozen=True, slots=True)
class Outcome:
    """§8.1 outcome: ``kind`` and the fields of that kind (``None`` where not given).
    ``responses`` maps every non-caller to ``fight``/``fold``/``auto_fold`` in a draw;
    ``claimed`` is whether ``claimed_winner`` was given (it may be ``None``: nobody)."""

    kind: str
    winner: str | None = None
    caller: str | None = None
    responses: dict[str, str] = field(default_factory=dict)
    caller_locked: bool = False
    last_drawer: str | None = None
    reason: str | None = None
    claimed: bool = False
    claimed_winner: str | None = None


@dataclass(frozen=True, slots=True)
class Entry:
    """A checked entry: ``players`` in turn order, ``stake`` c (minor units), ``dealer`` (or
    ``None``), the input ``pot``, the ``outcome`` and ``hands`` (player → hand, only those given),
    and ``opened`` (every player → opened at the end, §4.5, secret fighters included)."""

    players: tuple[str, ...]
    stake: int
    dealer: str | None
    pot: PotState
    outcome: Outcome
    hands: dict[str, PlayerHand]
    opened: dict[str, bool]

    def hand(self, player: str) -> PlayerHand:
        """``player``'s hand entry (an empty one when not given)."""
        return self.hands.get(player) or PlayerHand()

    def points_of(self, player: str) -> int | None:
        """The player's points: the ``total`` if given, else counted from ``cards`` (§3.2), else
        ``None``."""
        hand = self.hand(player)
        if hand.total is not None:
            return hand.total
        if hand.cards is not None:
            return points(hand.cards)
        return None
