"""Melds (TONGITS.md §3.1) and the special melds the bonuses count (§3.5, §5.3): sets, runs
(ace low), escaleras, fours of a kind lying together.

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ledger.games.cards import Card


def is_set(cards: Sequence[Card]) -> bool:
    """3 or 4 cards of one rank (the cards are distinct, §1.4)."""
    return 3 <= len(cards) <= 4 and len({c.rank for c in cards}) == 1


def is_run(cards: Sequence[Card]) -> bool:
    """3 or more consecutive ranks of one suit, ace low only (§1.2): A-2-3 is a run, Q-K-A not."""
    if len(cards) < 3 or len({c.suit for c in cards}) != 1:
        return False
    ranks = sorted(c.rank for c in cards)
    return all(b == a + 1 for a, b in zip(ranks, ranks[1:]))


def is_meld(cards: Sequence[Card]) -> bool:
    """A valid set or run (§3.1)."""
    return is_set(cards) or is_run(cards)


def count_rank(cards: Iterable[Card], rank: int) -> int:
    """How many of ``cards`` have ``rank`` (1 = ace, 13 = king)."""
    return sum(1 for c in cards if c.rank == rank)


def escaleras_in_hand(cards: Sequence[Card], length: int) -> int:
    """Maximal unbroken same-suit sequences of at least ``length`` cards among ``cards`` (§5.3),
    however the hand's points were counted."""
    found = 0
    for suit in {c.suit for c in cards}:
        ranks = sorted(c.rank for c in cards if c.suit == suit)
        run = 1
        for a, b in zip(ranks, ranks[1:]):
            if b == a + 1:
                run += 1
            else:
                found += run >= length
                run = 1
        found += run >= length
    return found


def escaleras_exposed(melds: Sequence[Sequence[Card]], length: int) -> int:
    """Exposed melds that are runs of at least ``length`` cards, each counted once (§5.3)."""
    return sum(1 for meld in melds if len(meld) >= length and is_run(meld))


def fours_lying_together(cards: Sequence[Card], melds: Sequence[Sequence[Card]]) -> int:
    """The most secrets a player can declare when cards and melds are given (§3.5, §8.5 #6):
    ranks with all four cards in hand, plus exposed four-card sets."""
    in_hand = sum(1 for rank in range(1, 14) if count_rank(cards, rank) == 4)
    return in_hand + sum(1 for meld in melds if len(meld) == 4 and is_set(meld))
