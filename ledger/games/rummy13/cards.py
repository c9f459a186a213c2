"""13-card rummy cards (RUMMY13.md §1): the shared notation without ``JK=<card>``, the wild rank,
and point values.

Pure domain code: standard library only.
"""
from __future__ import annotations

from ledger.games.cards import RANKS, Card, InvalidCard

from ledger.games.rummy13.ruleset import RummyRules

MAX_COUNT = 130  # thirteen 10-point cards (§1.2)


def read_card(text: object) -> Card:
    """One card in §1.5 notation (``10H``, ``th``, ``Q♦``, ``JK``/``JOKER``/``JKR``); raises
    :class:`InvalidCard` for anything else, including the Tonk form ``JK=<card>``."""
    card = Card.parse(text)
    if card.declared is not None:
        raise InvalidCard(text, "a rummy joker takes its role from its meld")
    return card


def read_wild_rank(value: object) -> int | None:
    """``wild_rank`` (§1.4): ``None`` for no cut joker, else the rank 1 (ace) to 13 (king);
    ``"T"``, lower case and surrounding spaces accepted. Raises :class:`InvalidCard`."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InvalidCard(value, "not text")
    text = value.strip().upper()
    if text == "T":
        text = "10"
    if text not in RANKS:
        raise InvalidCard(value, "unknown rank")
    return RANKS.index(text) + 1


def is_wild(card: Card, wild: int | None) -> bool:
    """A card of the wild rank (§1.4); printed jokers are not."""
    return wild is not None and not card.is_joker and card.rank == wild


def card_points(card: Card, wild: int | None, rules: RummyRules) -> int:
    """§1.2: 2–10 face value, J/Q/K 10, ace ``ace_points``, printed jokers and the wild rank 0."""
    if card.is_joker or is_wild(card, wild):
        return 0
    if card.rank == 1:
        return rules.ace_points
    return 10 if card.rank > 10 else card.rank
