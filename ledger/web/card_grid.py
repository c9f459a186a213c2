"""The tap-friendly card picker: one row per suit, one chip per card (a checkbox in a label).

Display data only: card values, symbols and points come from :mod:`ledger.rules` (points via
the engine's :func:`~ledger.rules.validation.card_points`, so a joker counts what the session's
rules say). The chip's checkbox value is the canonical card text (``QD``, ``10H``, ``JK``).
"""
from __future__ import annotations

from dataclasses import dataclass

from ledger.rules import Card, RuleSet
from ledger.rules.cards import RANKS, SUIT_NAMES, SUIT_SYMBOLS, SUITS
from ledger.rules.validation import card_points

RANK_NAMES = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}


@dataclass(frozen=True, slots=True)
class Chip:
    """One tappable card: ``value`` is posted, ``slot`` makes the HTML id unique."""

    value: str
    rank: str
    symbol: str
    red: bool
    points: int
    spoken: str
    slot: str


@dataclass(frozen=True, slots=True)
class SuitRow:
    suit: str
    symbol: str
    name: str
    red: bool
    chips: tuple[Chip, ...]


@dataclass(frozen=True, slots=True)
class CardGrid:
    rows: tuple[SuitRow, ...]
    jokers: tuple[Chip, ...]


def card_grid(rules: RuleSet) -> CardGrid:
    """The 52 cards by suit, plus the session's jokers (if its rules have any)."""
    rows = []
    for suit in SUITS:
        chips = []
        for rank in range(1, 14):
            card = Card(rank, suit)
            text = RANKS[rank - 1]
            chips.append(Chip(
                value=str(card),
                rank=text,
                symbol=SUIT_SYMBOLS[suit],
                red=suit in ("H", "D"),
                points=card_points(card, rules),
                spoken=f"{RANK_NAMES.get(text, text)} of {SUIT_NAMES[suit]}",
                slot=str(card),
            ))
        rows.append(SuitRow(suit, SUIT_SYMBOLS[suit], SUIT_NAMES[suit], suit in ("H", "D"), tuple(chips)))
    joker = Card.joker()
    jokers = tuple(
        Chip(value=str(joker), rank="Joker", symbol="★", red=False, points=card_points(joker, rules),
             spoken="Joker", slot=f"JK{n}")
        for n in range(1, rules.jokers + 1)
    )
    return CardGrid(tuple(rows), jokers)
