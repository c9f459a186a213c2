"""The held-spreads search as it was (every subset checked, then every disjoint choice of
spreads tried), kept as an independent reference for :mod:`ledger.games.tonk.spreads`."""
from __future__ import annotations

from itertools import combinations
from typing import Callable, Iterator, Sequence

from ledger.games.tonk.cards import Card
from ledger.games.tonk.ruleset import RuleSet

MAX_BOOK = 4
MIN_SPREAD = 3


def spread_problem(cards: Sequence[Card], rules: RuleSet) -> str | None:
    """Why ``cards`` are not a valid book or run under ``rules``, or ``None`` if they are one.

    The reason is a short phrase for a player ("a book has at most 4 cards").
    A joker stands for any card the spread needs, provided the spread holds at least
    ``min_natural_cards_per_spread`` real cards (§1.4).
    """
    if len(cards) < MIN_SPREAD:
        return "a spread needs at least 3 cards"
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    if jokers and len(naturals) < rules.min_natural_cards_per_spread:
        return f"a spread with a joker needs at least {rules.min_natural_cards_per_spread} real cards"
    if is_book(cards):
        return None
    if is_run(cards, rules):
        return None
    if len({c.rank for c in naturals}) == 1 and len(cards) > MAX_BOOK:
        return "a book has at most 4 cards"
    return "the cards are neither a book (same rank) nor a run (consecutive ranks of one suit)"


def is_valid_spread(cards: Sequence[Card], rules: RuleSet) -> bool:
    return spread_problem(cards, rules) is None


def is_book(cards: Sequence[Card]) -> bool:
    """3 or 4 cards of one rank (jokers fill in; natural-card minimum checked by the caller)."""
    naturals = [c for c in cards if not c.is_joker]
    if not MIN_SPREAD <= len(cards) <= MAX_BOOK or not naturals:
        return False
    ranks = {c.rank for c in naturals}
    suits = [c.suit for c in naturals]
    return len(ranks) == 1 and len(set(suits)) == len(suits)


def is_run(cards: Sequence[Card], rules: RuleSet) -> bool:
    """3 or more consecutive ranks of one suit, jokers filling gaps or ends, never wrapping.

    With ``ace_in_runs = high_or_low`` the ace may rank above the king (Q-K-A) but never both
    low and high in one run (§1.2, §3.1).
    """
    naturals = [c for c in cards if not c.is_joker]
    if len(cards) < MIN_SPREAD or not naturals:
        return False
    if len({c.suit for c in naturals}) != 1:
        return False
    ace_positions = (1, 14) if rules.ace_in_runs == "high_or_low" else (1,)
    for ace_as in ace_positions:
        ranks = sorted(ace_as if c.rank == 1 else c.rank for c in naturals)
        if len(set(ranks)) != len(ranks):
            continue
        low_bound, high_bound = (1, 13) if ace_as == 1 else (2, 14)
        length = len(cards)
        if length > high_bound - low_bound + 1:
            continue
        # a window of `length` consecutive ranks inside the bounds that holds every natural card
        start_min = max(low_bound, ranks[-1] - length + 1)
        start_max = min(ranks[0], high_bound - length + 1)
        if start_min <= start_max:
            return True
    return False


def layable_spreads(
    cards: Sequence[Card], rules: RuleSet, *, exempt_ace_books: bool = False
) -> Iterator[tuple[Card, ...]]:
    """Every valid spread that can be formed from a subset of ``cards`` (an end hand),
    smallest first, generated lazily.

    With ``exempt_ace_books`` the books made only of aces are left out (the three-aces
    exception of §3.4). Hands hold at most 10 cards, so the subsets are enumerated.
    """
    for size in range(MIN_SPREAD, len(cards) + 1):
        for subset in combinations(cards, size):
            if not is_valid_spread(subset, rules):
                continue
            if exempt_ace_books and all(c.rank == 1 for c in subset) and is_book(subset):
                continue
            yield subset


def best_held_spreads_value(
    cards: Sequence[Card], rules: RuleSet, points: Callable[[Card], int]
) -> int:
    """The largest total of points held in disjoint valid spreads within ``cards`` (§3.4,
    ``held_spreads_count = false``); 0 when the hand holds no spread."""
    candidates = [
        (frozenset(range_indexes), sum(points(cards[i]) for i in range_indexes))
        for range_indexes in _spread_index_sets(cards, rules)
    ]
    best = 0

    def search(start: int, used: frozenset[int], total: int) -> None:
        nonlocal best
        best = max(best, total)
        for index in range(start, len(candidates)):
            members, value = candidates[index]
            if not members & used:
                search(index + 1, used | members, total + value)

    search(0, frozenset(), 0)
    return best


def _spread_index_sets(cards: Sequence[Card], rules: RuleSet) -> list[tuple[int, ...]]:
    out = []
    indexes = range(len(cards))
    for size in range(MIN_SPREAD, len(cards) + 1):
        for subset in combinations(indexes, size):
            if is_valid_spread([cards[i] for i in subset], rules):
                out.append(subset)
    return out
