"""Melds of 13-card rummy: the exact classification of a group (RUMMY13.md §3.5), the valid
declaration (§3.6) and the lowest count of an unarranged hand (§4.2).

Pure domain code: standard library only.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from ledger.games.cards import Card
from ledger.games.rummy13.cards import card_points, is_wild
from ledger.games.rummy13.ruleset import RummyRules

PURE = "pure"
IMPURE = "impure"
SET = "set"
SEQUENCES = (PURE, IMPURE)


def _consecutive(ranks: list[int]) -> bool:
    ordered = sorted(ranks)
    return all(b == a + 1 for a, b in zip(ordered, ordered[1:]))


def _high(rank: int) -> int:
    return 14 if rank == 1 else rank


def classify(group: Sequence[Card], wild: int | None, rules: RummyRules) -> str | None:
    """§3.5: ``"pure"`` (pure sequence), ``"impure"`` (impure sequence), ``"set"``, or ``None``
    (not a meld) for a group of cards; ``wild`` is the wild rank (1–13) or ``None``."""
    k = len(group)
    if k < 3:
        return None
    # step 1: every card as itself, one suit, distinct consecutive ranks (ace low or high)
    if not any(c.is_joker for c in group) and len({c.suit for c in group}) == 1:
        ranks = [c.rank for c in group]
        if len(set(ranks)) == k and (_consecutive(ranks) or _consecutive([_high(r) for r in ranks])):
            return PURE
    fixed = [c for c in group if not c.is_joker and not is_wild(c, wild)]
    wilds = [c for c in group if is_wild(c, wild)]
    can_set = False
    for size in range(len(wilds) + 1):
        for chosen in combinations(wilds, size):
            naturals = fixed + list(chosen)
            if len(naturals) < rules.min_natural_cards:
                continue
            if k <= 13 and _can_be_sequence(naturals, k):
                return IMPURE
            if not can_set and k <= rules.set_max_size:
                can_set = not naturals or (
                    len({c.rank for c in naturals}) == 1 and len({c.suit for c in naturals}) == len(naturals))
    return SET if can_set else None


def _can_be_sequence(naturals: list[Card], k: int) -> bool:
    if not naturals:
        return True
    if len({c.suit for c in naturals}) != 1:
        return False
    ranks = [c.rank for c in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    high = [_high(r) for r in ranks]
    return max(ranks) - min(ranks) + 1 <= k or max(high) - min(high) + 1 <= k


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the search of §3.6/§4.2 finds in an unarranged hand: ``total`` (points of every card),
    ``best_raw`` (the lowest raw count over every arrangement of disjoint melds), ``has_pure``
    (three or more of the cards can form a pure sequence) and ``declares`` (the cards split
    entirely into melds with two sequences, one pure); ``search_states``: how many states the two
    searches looked at (a cost figure for ``bench/bench_engine.py``, not part of the result)."""

    total: int
    best_raw: int
    has_pure: bool
    declares: bool
    search_states: int = field(default=0, compare=False)


_NEG = -1 << 30


def analyse(cards: Sequence[Card], wild: int | None, rules: RummyRules) -> Analysis:
    """Search every arrangement of ``cards`` (at most 13; two decks: a card may repeat) for the
    lowest raw count (§4.2) and a valid declaration (§3.6)."""
    key = (tuple(sorted(str(c) for c in cards)), wild, rules)
    return _analyse(*key)


@lru_cache(maxsize=2048)
def _analyse(texts: tuple[str, ...], wild: int | None, rules: RummyRules) -> Analysis:
    cards = [Card.parse(t) for t in texts]
    n = len(cards)
    pts = [card_points(c, wild, rules) for c in cards]
    total = sum(pts)
    # Two decks hold copies of one card: the search runs over multisets (how many of each
    # distinct card is left), so copies swapped for one another are one state, not many.
    distinct = sorted(set(texts))
    slot = [distinct.index(t) for t in texts]
    melds: dict[tuple[tuple[int, int], ...], tuple[int, bool, bool] | None] = {}
    best_pure = -1
    for mask in range(1, 1 << n):
        if mask.bit_count() < 3:
            continue
        members = [i for i in range(n) if mask >> i & 1]
        fixed = [cards[i] for i in members if not cards[i].is_joker and not is_wild(cards[i], wild)]
        if len({c.suit for c in fixed}) > 1 and len({c.rank for c in fixed}) > 1:
            continue  # neither one suit nor one rank: no choice of jokers makes it a meld
        counts: dict[int, int] = {}
        for i in members:
            counts[slot[i]] = counts.get(slot[i], 0) + 1
        shape = tuple(sorted(counts.items()))
        if shape in melds:
            continue
        kind = classify([cards[i] for i in members], wild, rules)
        if kind is None:
            melds[shape] = None
            continue
        points = sum(pts[i] for i in members)
        melds[shape] = (points, kind in SEQUENCES, kind == PURE)
        if kind == PURE:
            best_pure = max(best_pure, points)
    # A multiset of cards is one integer: 4 bits per distinct card, the count in the low 3 bits
    # (at most 6 copies: three decks of two printed jokers) and a guard bit above it, so that
    # ``(left | GUARDS) - meld`` keeps every guard bit exactly when the meld fits in ``left``.
    guards = sum(8 << (4 * i) for i in range(len(distinct)))
    by_first: list[list[tuple[int, int, bool, bool]]] = [[] for _ in distinct]
    for shape, found in melds.items():
        if found is not None:
            packed = sum(k << (4 * i) for i, k in shape)
            by_first[shape[0][0]].append((packed, *found))

    states = 0

    def search(allow_loose: bool) -> int:
        nonlocal states

        @lru_cache(maxsize=None)
        def best(left: int, seqs: int, pure: bool) -> int:
            if left == 0:
                return 0 if seqs >= 2 and pure else _NEG
            first = ((left & -left).bit_length() - 1) // 4
            result = best(left - (1 << (4 * first)), seqs, pure) if allow_loose else _NEG
            guarded = left | guards
            for packed, points, seq, is_pure in by_first[first]:
                rest_left = guarded - packed
                if rest_left & guards == guards:
                    rest = best(rest_left ^ guards, min(2, seqs + seq), pure or is_pure)
                    if rest > _NEG and rest + points > result:
                        result = rest + points
            return result
        found = best(sum(1 << (4 * i) for i in slot), 0, False)
        states += best.cache_info().currsize
        return found

    raw = total
    melded = search(True)
    if melded > _NEG:
        raw = min(raw, total - melded)
    if rules.loser_melds_rule == "pure_first" and best_pure >= 0:
        raw = min(raw, total - best_pure)
    declares = n > 0 and search(False) > _NEG
    return Analysis(total, raw, best_pure >= 0, declares, states)


def shown_raw(melds: Sequence[Sequence[Card]], deadwood: Sequence[Card], wild: int | None,
              rules: RummyRules) -> tuple[int, bool]:
    """The raw count of a hand counted as shown (§4.2; every meld already checked) and whether
    a pure sequence is shown: ``(raw, has_pure)``."""
    kinds = [classify(m, wild, rules) for m in melds]
    total = sum(card_points(c, wild, rules) for group in (*melds, deadwood) for c in group)
    sequences = sum(k in SEQUENCES for k in kinds)
    pure = [m for m, k in zip(melds, kinds) if k == PURE]
    if sequences >= 2 and pure:
        return sum(card_points(c, wild, rules) for c in deadwood), True
    if rules.loser_melds_rule == "pure_first" and pure:
        return total - sum(card_points(c, wild, rules) for c in pure[0]), True
    return total, bool(pure)


def shown_declares(melds: Sequence[Sequence[Card]], deadwood: Sequence[Card], wild: int | None,
                   rules: RummyRules) -> str | None:
    """A declaration judged as shown (§3.6): ``None`` when valid, else the refusal code
    (``no_pure_sequence`` or ``invalid_declaration``; an invalid group is ``invalid_declaration``)."""
    kinds = [classify(m, wild, rules) for m in melds]
    if PURE not in kinds:
        return "no_pure_sequence"
    if deadwood or None in kinds or sum(k in SEQUENCES for k in kinds) < 2:
        return "invalid_declaration"
    return None
