"""Points in hand (TONGITS.md §3.2): the value of the cards not in melds, with the melds chosen
as favourably as possible; exact.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache
from itertools import combinations

from ledger.games.cards import SUITS, Card

_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def _bit(rank: int, suit: int) -> int:
    # rank 1..13, suit 0..3: cards ordered by rank, then suit (bit 4·(rank-1) + suit)
    return 1 << (4 * (rank - 1) + suit)


def card_value(card: Card) -> int:
    """§1.1: ace 1, 2 to 10 face value, J Q K 10."""
    return card.points


def points(cards: Iterable[Card]) -> int:
    """The minimum, over every way of choosing disjoint valid melds among ``cards``, of the sum
    of the values of the cards not chosen (§3.2). ``cards`` are distinct real cards; at most 13
    (any number works)."""
    mask = 0
    for card in cards:
        mask |= _bit(card.rank, _SUIT_INDEX[card.suit])
    return _deadwood(mask)


@lru_cache(maxsize=1 << 16)
def _deadwood(mask: int) -> int:
    """§3.2's exact method: the lowest remaining card either stays unmelded, or is in a set with
    2 or 3 other cards of its rank, or starts a run upward in its suit."""
    if mask == 0:
        return 0
    low = (mask & -mask).bit_length() - 1  # the lowest card: by rank, then suit
    rank, suit = low // 4 + 1, low % 4
    rest = mask & ~(1 << low)
    best = min(rank, 10) + _deadwood(rest)
    others = [_bit(rank, s) for s in range(4) if s != suit and mask & _bit(rank, s)]
    for size in (2, 3):
        for chosen in combinations(others, size):
            taken = sum(chosen)
            best = min(best, _deadwood(rest & ~taken))
    run = 0
    next_rank = rank + 1
    while next_rank <= 13 and mask & _bit(next_rank, suit):
        run |= _bit(next_rank, suit)
        if next_rank - rank >= 2:
            best = min(best, _deadwood(rest & ~run))
        next_rank += 1
    return best
