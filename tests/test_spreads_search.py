"""Held spreads (RULES.md §3.4, ``held_spreads_count = false``): the bit-mask search against
the old exhaustive one kept in ``spreads_reference``, and the spread masks against
``is_valid_spread`` subset by subset."""
from __future__ import annotations

from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spreads_reference as reference
from ledger.games.tonk import RuleSet
from ledger.games.tonk.cards import Card
from ledger.games.tonk.spreads import best_held_spreads_value, is_valid_spread, spread_masks

SEARCH = settings(max_examples=300, database=None, deadline=None)
CARD_TEXTS = ["JK"] + [f"{rank}{suit}" for rank in ("A", "2", "3", "4", "5", "9", "10", "J", "Q", "K")
                       for suit in "SHDC"]
RULES = st.builds(
    lambda minimum, ace: RuleSet.from_spec({"preset": "wikipedia", "toggles": {
        "hand_size": 9, "drop_timing": "any", "held_spreads_count": False,
        "min_natural_cards_per_spread": minimum, "ace_in_runs": ace}}),
    st.integers(1, 3), st.sampled_from(["low_only", "high_or_low"]),
)
# mostly hearts and jokers, so that runs and books overlap; repeats stand for a second deck
HANDS = st.lists(st.sampled_from(CARD_TEXTS) | st.sampled_from(["JK", "2H", "3H", "4H", "5H", "AH", "KH", "QH"]),
                 min_size=0, max_size=10).map(lambda texts: [Card.parse(t) for t in texts])


def points(card: Card) -> int:
    return 15 if card.is_joker else min(card.rank, 10)


@SEARCH
@given(HANDS, RULES)
def test_spread_masks_are_exactly_the_valid_subsets(cards: list[Card], rules: RuleSet) -> None:
    expected = {sum(1 << i for i in subset) for size in range(1, len(cards) + 1)
                for subset in combinations(range(len(cards)), size)
                if is_valid_spread([cards[i] for i in subset], rules)}
    assert set(spread_masks(cards, rules)) == expected


@SEARCH
@given(HANDS.map(lambda cards: cards[:8]), RULES)
def test_best_held_value_matches_the_old_search(cards: list[Card], rules: RuleSet) -> None:
    assert best_held_spreads_value(cards, rules, points) == reference.best_held_spreads_value(cards, rules, points)


@pytest.mark.slow
@pytest.mark.parametrize("hand", [
    ["JK", "JK", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"],
    ["JK", "JK", "4H", "5H", "6H", "7H", "8C", "8D", "8S", "9H"],
    ["JK", "JK", "AH", "AS", "AD", "KH", "QH", "JH", "10H", "9H"],
])
def test_worst_hands_we_know_match_the_old_search(hand: list[str]) -> None:
    cards = [Card.parse(text) for text in hand]
    rules = RuleSet.from_spec({"preset": "wikipedia", "toggles": {
        "hand_size": 9, "drop_timing": "any", "held_spreads_count": False, "ace_in_runs": "high_or_low"}})
    value = best_held_spreads_value(cards, rules, points)
    assert value == reference.best_held_spreads_value(cards, rules, points)
    assert value > 0
