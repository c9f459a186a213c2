"""Card notation (RULES.md §1.5): what parses, what is refused, and the canonical text."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from ledger.games.tonk.cards import RANKS, SUITS, Card, InvalidCard, full_deck


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AS", "AS"), ("10H", "10H"), ("TH", "10H"), ("th", "10H"), ("2d", "2D"), (" qc ", "QC"),
        ("A♠", "AS"), ("K♥", "KH"), ("7♦", "7D"), ("J♣", "JC"), ("A♤", "AS"), ("3♡", "3H"),
        ("4♢", "4D"), ("5♧", "5C"), ("Q♦\ufe0f", "QD"), ("JK", "JK"), ("joker", "JK"),
        ("JKR", "JK"), ("JK=qh", "JK=QH"),
    ],
)
def test_accepted_notation(text: str, canonical: str) -> None:
    assert str(Card.parse(text)) == canonical


@pytest.mark.parametrize("text", ["1H", "11S", "0C", "S10", "10X", "", "  ", "Q", "QQ", "AS=KH", "JK=JK", 10, None,
                                  "10 H", "a s", "A\u2660\ufe0e"])  # spaces only around a card; U+FE0F only
def test_refused_notation(text: object) -> None:
    with pytest.raises(InvalidCard):
        Card.parse(text)


def test_points_and_rank() -> None:
    assert [Card.parse(f"{r}S").points for r in RANKS] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10]
    assert Card.parse("QD").pretty() == "Q♦"
    assert repr(Card.parse("th")) == "Card.parse('10H')"
    assert len(set(full_deck())) == 52
    with pytest.raises(ValueError):
        _ = Card.parse("JK").points


@given(st.sampled_from(RANKS), st.sampled_from(SUITS), st.booleans(), st.sampled_from(["", " ", "  "]))
def test_round_trip(rank: str, suit: str, lower: bool, pad: str) -> None:
    text = f"{pad}{'T' if rank == '10' and lower else rank}{suit}{pad}"
    card = Card.parse(text.lower() if lower else text)
    assert str(card) == f"{rank}{suit}"
    assert Card.parse(str(card)) == card


@pytest.mark.parametrize("preset", ["classic", "wikipedia"])
def test_a_declared_joker_outside_declared_mode_is_an_invalid_card_whatever_the_joker_count(preset: str) -> None:
    """RULES.md §1.5: ``JK=<card>`` is accepted only when ``joker_value_mode = declared``, else
    ``invalid_card``, which §9.1 checks (item 6) before jokers are allowed at all (item 7)."""
    from ledger.games.tonk import HandError, score_entry

    with pytest.raises(HandError) as refused:
        score_entry({"players": ["A", "B", "C"], "stake": 25, "ruleset": {"preset": preset},
                     "outcome": {"kind": "knock", "knocker": "A"},
                     "hands": {"A": {"cards": ["JK=QH"]}, "B": {"total": 30}, "C": {"total": 31}}})
    assert (refused.value.code, refused.value.field) == ("invalid_card", "hands.A.cards[0]")
