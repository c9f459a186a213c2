"""Tong-its cards (TONGITS.md §1): the notation every game shares (:mod:`ledger.games.cards`),
with no jokers, and the card facts the melds and bonuses need.

Pure domain code: standard library only.
"""
from __future__ import annotations

from ledger.games.cards import RANKS, SUITS, Card, InvalidCard, full_deck

__all__ = ["RANKS", "SUITS", "Card", "InvalidCard", "full_deck", "read_card", "NotACard", "IsAJoker"]


class NotACard(ValueError):
    """``text`` is not a card in the §1.3 notation."""

    def __init__(self, text: object) -> None:
        super().__init__(text)
        self.text = text


class IsAJoker(NotACard):
    """``text`` is a joker token (``JK``, ``JOKER``, ``JKR``): Tong-its has no jokers (§1.1)."""


def read_card(text: object) -> Card:
    """The card written ``text`` (``"10H"``, ``"th"``, ``" A♠️ "``), canonical.

    Raises :class:`NotACard` for anything else (``1H``, ``11S``, ``S10``, a non-text), and
    :class:`IsAJoker` for a joker (both are ``invalid_card``, §1.3)."""
    try:
        card = Card.parse(text)
    except InvalidCard:
        raise NotACard(text) from None
    if card.is_joker:
        raise IsAJoker(text)
    return card
