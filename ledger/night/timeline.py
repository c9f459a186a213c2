"""A night's seating and stake over time, read from what its hands were played at.

Each hand keeps the seating (clockwise) and the stake it was played at; the night keeps the
current ones (what the next hand is played at) and its ``roster`` (everyone who ever sat).
These functions derive the rest from those: the order balances are listed in, who deals next
across seating changes (RULES.md §2), where a late arrival sits by default, when each player
last played ("as of hand N"), and where the stake changed. No database access: callers pass
the hands (current versions, number order).
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ledger.storage.models import GameSession, Hand


def seat_order(night: GameSession) -> list[str]:
    """Everyone who ever sat: the current seating (clockwise), then those who left, in the
    order they first sat. Balances, exports and statements list players in this order."""
    seated = list(night.players)
    return seated + [name for name in (night.roster or []) if name not in seated]


def rotate(
    seating: Sequence[str], last_seating: Sequence[str] | None, last_dealer: str | None, first_dealer: str,
    roster: Sequence[str] = (), arrived: Collection[str] = frozenset(),
) -> str:
    """Who deals next (RULES.md §2): the deal passes one seat clockwise *in the seating of the
    last hand* (``last_seating``, dealt by ``last_dealer``) to the first player there who is
    still seated (``seating``, the current seating) and did not sit in since (``arrived``: a
    player who left and came back since is one who joins). A player who sat in since then is
    reached when the deal comes round to their seat, so one seated at the next dealer's right
    deals last; a dealer who left passes the deal on all the same. Before any hand:
    ``first_dealer``, or if they left (or came back), the next still seated after them in
    ``roster`` order."""
    if not seating:
        return ""
    if last_dealer is None:
        last_seating, last_dealer = list(roster) or list(seating), first_dealer
        if first_dealer in seating and first_dealer not in arrived:
            return first_dealer
    around = list(last_seating or ())
    if last_dealer in around:
        start = around.index(last_dealer)
        for step in range(1, len(around) + 1):
            name = around[(start + step) % len(around)]
            if name in seating and name not in arrived:
                return name
    if last_dealer in seating:
        return seating[(list(seating).index(last_dealer) + 1) % len(seating)]
    return seating[0]


def seat_for_newcomer(seating: Sequence[str], dealer: str, after: str | None = None) -> int:
    """The index at which a player sitting in is inserted into ``seating``: just after
    ``after`` when given, else at the right of the next ``dealer`` (just before them in
    clockwise order), so that the newcomer deals last (RULES.md §2)."""
    seats = list(seating)
    if after is not None:
        return seats.index(after) + 1
    if dealer not in seats or seats.index(dealer) == 0:
        return len(seats)
    return seats.index(dealer)


def last_hand_of(name: str, hands: Sequence[Hand]) -> int | None:
    """The number of the last hand ``name`` was seated at (voided hands included), or None."""
    numbers = [h.number for h in hands if name in (h.players or ())]
    return max(numbers) if numbers else None


def roster_json(night: GameSession, hands: Sequence[Hand]) -> list[dict[str, Any]]:
    """``[{"name", "seated", "as_of_hand"}]`` in :func:`seat_order`: ``as_of_hand`` is the last
    hand the player sat at (their balance is "as of hand N"), null before their first hand."""
    return roster_of(night, {name: last_hand_of(name, hands) for name in seat_order(night)})


def roster_of(night: GameSession, last_hands: Mapping[str, int | None]) -> list[dict[str, Any]]:
    """:func:`roster_json` from each player's last hand number (``last_hands``, as
    :mod:`ledger.night.figures` keeps them) instead of the hands."""
    seated = set(night.players)
    return [{"name": name, "seated": name in seated, "as_of_hand": last_hands.get(name)}
            for name in seat_order(night)]


@dataclass(frozen=True, slots=True)
class StakeChange:
    """From hand ``from_hand`` on, the stake is ``stake_minor`` (minor units)."""

    from_hand: int
    stake_minor: int

    def to_json(self) -> dict[str, int]:
        return {"from_hand": self.from_hand, "stake": self.stake_minor}


def stake_changes(night: GameSession, hands: Sequence[Hand], next_number: int) -> list[StakeChange]:
    """Where the stake changed: the first hand's stake from hand 1, then every hand whose stake
    differs from the hand before it, and the current stake from ``next_number`` when it differs
    from the last hand's. A night that never changed its stake gives one entry."""
    changes: list[StakeChange] = []
    for hand in hands:
        if not changes or changes[-1].stake_minor != hand.stake_minor:
            changes.append(StakeChange(hand.number if changes else 1, hand.stake_minor))
    if not changes or changes[-1].stake_minor != night.stake_minor:
        changes.append(StakeChange(next_number if changes else 1, night.stake_minor))
    return changes
