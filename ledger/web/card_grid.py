"""The tap-friendly card picker: one row per suit, one chip per card (a checkbox in a label).

Display data only: card values, symbols and points come from :mod:`ledger.games.tonk` (points via
the engine's :func:`~ledger.games.tonk.validation.card_points`, so a joker counts what the session's
rules say). The chip's checkbox value is the canonical card text (``QD``, ``10H``, ``JK``).

When jokers are declared (``joker_value_mode = declared``) each joker is a menu of what it
stands for (``JK=QH``) instead of a chip: :func:`joker_declarations`. The spade side pot's
picker offers the 13 spades, highest first under the night's ace rule: :func:`spade_choices`.
What a screen reader says for a card ("Queen of spades") and the menus' words are in the request's
language; the chips themselves show rank and suit symbol.
"""
from __future__ import annotations

from dataclasses import dataclass

from ledger.i18n import N_, _, ngettext, pgettext
from ledger.games.tonk import Card, RuleSet
from ledger.games.tonk.cards import RANKS, SUIT_SYMBOLS, SUITS
from ledger.games.tonk.validation import card_points

# A card in words, one phrase per suit so each language can order and inflect it ("Queen of spades").
SPOKEN = {
    "S": N_("{rank} of spades"),
    "H": N_("{rank} of hearts"),
    "D": N_("{rank} of diamonds"),
    "C": N_("{rank} of clubs"),
}


def rank_name(text: str) -> str:
    """A rank in words of the request's language: ``"Q"`` → ``"Queen"``; numbers as they are."""
    names = {"A": pgettext("card rank", "Ace"), "J": pgettext("card rank", "Jack"),
             "Q": pgettext("card rank", "Queen"), "K": pgettext("card rank", "King")}
    return names.get(text, text)


def suit_name(suit: str) -> str:
    """A suit in words of the request's language (``"spades"``), as a row of the grid is named."""
    names = {"S": pgettext("suit", "spades"), "H": pgettext("suit", "hearts"),
             "D": pgettext("suit", "diamonds"), "C": pgettext("suit", "clubs")}
    return names[suit]


def spoken(rank: int, suit: str) -> str:
    """``spoken(12, "S") == "Queen of spades"`` in the request's language."""
    return _(SPOKEN[suit], rank=rank_name(RANKS[rank - 1]))


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
    declared_jokers: bool = False
    joker_options: tuple[tuple[str, str, int], ...] = ()


def card_grid(rules: RuleSet) -> CardGrid:
    """The 52 cards by suit, plus the session's jokers (if its rules have any)."""
    rows = []
    joker_word = pgettext("card", "Joker")
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
                spoken=spoken(rank, suit),
                slot=str(card),
            ))
        rows.append(SuitRow(suit, SUIT_SYMBOLS[suit], suit_name(suit), suit in ("H", "D"), tuple(chips)))
    joker = Card.joker()
    jokers = tuple(
        Chip(value=str(joker), rank=joker_word, symbol="★", red=False, points=card_points(joker, rules),
             spoken=joker_word, slot=f"JK{n}")
        for n in range(1, rules.jokers + 1)
    )
    declared = bool(rules.jokers) and rules.joker_value_mode == "declared"
    return CardGrid(tuple(rows), jokers, declared, joker_declarations(rules) if declared else ())


def joker_declarations(rules: RuleSet) -> tuple[tuple[str, str, int], ...]:
    """``(value, words, points)`` of a declared joker's menu: not held, held undeclared, or
    held as any of the 52 cards (``JK=QH``, "as Q♥"); points as the engine counts them."""
    undeclared = card_points(Card.joker(), rules)
    options = [("", _("not held"), 0),
               ("JK", ngettext("held, not declared ({count} pt)", "held, not declared ({count} pts)", undeclared),
                undeclared)]
    for suit in SUITS:
        for rank in range(1, 14):
            joker = Card.joker(Card(rank, suit))
            options.append((str(joker), _("as {card}", card=Card(rank, suit).pretty()), card_points(joker, rules)))
    return tuple(options)


@dataclass(frozen=True, slots=True)
class SpadeChoice:
    value: str
    rank: str
    spoken: str


def spade_choices(rules: RuleSet) -> tuple[SpadeChoice, ...]:
    """The 13 spades, highest first (ace first when ``spade_ace_high``, else last)."""
    ranks = list(range(13, 0, -1))  # K..A
    if rules.spade_ace_high:
        ranks = [1] + ranks[:-1]
    out = []
    for rank in ranks:
        card = Card(rank, "S")
        text = RANKS[rank - 1]
        out.append(SpadeChoice(str(card), text, spoken(rank, "S")))
    return tuple(out)
