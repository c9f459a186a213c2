"""Spreads: books and runs (RULES.md §3.1), jokers in spreads (§1.4), held spreads (§3.4).

Pure domain code: standard library only.
"""
from __future__ import annotations

from itertools import combinations
from typing import Callable, Iterable, Iterator, Sequence

from ledger.games.tonk.cards import Card
from ledger.games.tonk.ruleset import RuleSet

MAX_BOOK = 4
MIN_SPREAD = 3


def spread_problem(cards: Sequence[Card], rules: RuleSet) -> str | None:
    """Why ``cards`` are not a valid book or run under ``rules``, or ``None`` if they are one.

    The reason is a code: ``too_short`` (fewer than 3 cards), ``too_few_real_cards`` (a joker
    with fewer than ``min_natural_cards_per_spread`` real cards), ``book_too_long`` (more than 4
    of a rank) or ``neither``; the sentences are :data:`ledger.games.tonk.validation.BAD_SPREAD`.
    A joker stands for any card the spread needs, provided the spread holds at least
    ``min_natural_cards_per_spread`` real cards (§1.4).
    """
    if len(cards) < MIN_SPREAD:
        return "too_short"
    naturals = [c for c in cards if not c.is_joker]
    jokers = len(cards) - len(naturals)
    if jokers and len(naturals) < rules.min_natural_cards_per_spread:
        return "too_few_real_cards"
    if is_book(cards):
        return None
    if is_run(cards, rules):
        return None
    if len({c.rank for c in naturals}) == 1 and len(cards) > MAX_BOOK:
        return "book_too_long"
    return "neither"


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
    smallest first, spreads of one size in the order of :func:`itertools.combinations`.

    With ``exempt_ace_books`` the books made only of aces are left out (the three-aces
    exception of §3.4). Hands hold at most 10 cards, so the subsets are enumerated, each as a
    bit mask judged as :func:`spread_masks` judges it.
    """
    bits = [1 << i for i in range(len(cards))]
    in_order = (sum(chosen) for size in range(MIN_SPREAD, len(cards) + 1) for chosen in combinations(bits, size))
    for mask in _valid_masks(cards, rules, in_order):
        subset = tuple(card for i, card in enumerate(cards) if mask >> i & 1)
        if exempt_ace_books and all(c.rank == 1 for c in subset) and is_book(subset):
            continue
        yield subset


def best_held_spreads_value(
    cards: Sequence[Card], rules: RuleSet, points: Callable[[Card], int]
) -> int:
    """The largest total of points held in disjoint valid spreads within ``cards`` (§3.4,
    ``held_spreads_count = false``); 0 when the hand holds no spread.

    Cards are numbered naturals first, jokers last, and every valid spread becomes a bit mask
    (:func:`spread_masks`). ``best(mask)``, the most points the cards of ``mask`` can hold,
    either leaves its lowest-numbered card out or puts it in one of the spreads that hold it
    as their lowest card; each ``mask`` is worked out once. Hands hold at most 10 cards, so
    there are at most 1,024 masks.
    """
    order = sorted(range(len(cards)), key=lambda i: cards[i].is_joker)
    ordered = [cards[i] for i in order]
    totals = [0]  # per subset of `ordered`: its points, built by doubling as spread_masks does
    for card in ordered:
        value = points(card)
        totals += [total + value for total in totals]
    starting: dict[int, list[tuple[int, int]]] = {}  # by the lowest card's bit
    for mask in spread_masks(ordered, rules):
        starting.setdefault(mask & -mask, []).append((mask, totals[mask]))
    known = {0: 0}

    def best(mask: int) -> int:
        found = known.get(mask)
        if found is not None:
            return found
        low = mask & -mask
        top = best(mask ^ low)
        for spread, total in starting.get(low, ()):
            if spread & mask == spread:
                held = total + best(mask ^ spread)
                if held > top:
                    top = held
        known[mask] = top
        return top

    return best((1 << len(ordered)) - 1)


def spread_masks(cards: Sequence[Card], rules: RuleSet) -> list[int]:
    """Every subset of ``cards`` that is a valid spread (exactly as :func:`spread_problem`
    judges: books, runs, jokers and the natural-card minimum), as bit masks over the positions
    of ``cards``. The ranks, suits and jokers of every subset are built by doubling (the
    subsets with card ``i`` are those without it, plus it), so each check is a few integer
    operations.

    A run's window (:func:`is_run`) is found without searching for it: some window of
    ``length`` consecutive ranks among the 13 holds every natural card exactly when ``length``
    is at most 13 and the naturals span at most ``length`` ranks (the ace counted low, or high
    after the king under ``high_or_low``)."""
    return list(_valid_masks(cards, rules, range(1 << len(cards))))


def _valid_masks(cards: Sequence[Card], rules: RuleSet, masks: Iterable[int]) -> Iterator[int]:
    """The bit masks among ``masks`` whose cards are a valid spread (see :func:`spread_masks`),
    in the order given, one by one."""
    jokers, suits, ranks = [0], [0], [0]  # per subset: jokers, a bit per suit, a bit per rank
    for card in cards:
        if card.is_joker:
            jokers += [j + 1 for j in jokers]
            suits += suits
            ranks += ranks
        else:
            suit, rank = _SUIT_BIT[card.suit], 1 << card.rank
            jokers += jokers
            suits += [s | suit for s in suits]
            ranks += [r | rank for r in ranks]
    # two naturals of one rank and suit (a second deck) are in no spread together
    twins = [1 << i | 1 << j for i in range(len(cards)) for j in range(i + 1, len(cards))
             if not cards[i].is_joker and (cards[i].rank, cards[i].suit) == (cards[j].rank, cards[j].suit)]
    minimum = rules.min_natural_cards_per_spread
    ace_high = rules.ace_in_runs == "high_or_low"
    for mask in masks:
        length = mask.bit_count()
        if length < MIN_SPREAD:
            continue
        joker_count = jokers[mask]
        naturals = length - joker_count
        if naturals == 0 or (joker_count and naturals < minimum):
            continue
        rank_bits, suit_bits = ranks[mask], suits[mask]
        distinct_ranks = rank_bits.bit_count()
        if twins and any(pair & mask == pair for pair in twins):
            continue
        if distinct_ranks == 1 and length <= MAX_BOOK and suit_bits.bit_count() == naturals:
            yield mask  # a book: one rank, every suit different, at most four cards
        elif suit_bits & (suit_bits - 1) == 0 and distinct_ranks == naturals and length <= RUN_RANKS and (
                _span(rank_bits) <= length
                or (ace_high and rank_bits & _ACE and _span((rank_bits ^ _ACE) | _ACE_HIGH) <= length)):
            yield mask  # a run: one suit, no rank twice, a window that holds them all


_SUIT_BIT = {suit: 1 << i for i, suit in enumerate("SHDC")}


RUN_RANKS = 13  # the longest run: every rank once (A-K, or 2-A with the ace high)
_ACE, _ACE_HIGH = 1 << 1, 1 << 14  # the ace's rank bit, low (rank 1) and high (after the king)


def _span(rank_bits: int) -> int:
    """How many ranks lie from the lowest to the highest rank in ``rank_bits``, both counted."""
    return rank_bits.bit_length() - (rank_bits & -rank_bits).bit_length() + 1
