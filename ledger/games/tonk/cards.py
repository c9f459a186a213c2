"""Tonk's cards (RULES.md §1): the notation every game shares, in :mod:`ledger.games.cards`."""
from ledger.games.cards import (
    JOKER_TEXT,
    RANKS,
    SUIT_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    InvalidCard,
    full_deck,
)

__all__ = ["JOKER_TEXT", "RANKS", "SUIT_NAMES", "SUIT_SYMBOLS", "SUITS", "Card", "InvalidCard", "full_deck"]
