"""The cards of an entry, read and checked (RULES.md §9.1 items 6–8): every card parsed where it
was entered (a hand, laid spreads, the final spread, a spade bet), jokers allowed and counted,
and no card entered twice. Each refusal is one whole sentence per place a card can be entered.

Used by :mod:`ledger.games.tonk.validation`. Pure domain code: standard library only.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Iterator

from ledger.games.tonk.cards import Card, InvalidCard
from ledger.games.tonk.entry import HandRecord
from ledger.games.errors import HandError
from ledger.games.tonk.ruleset import RuleSet
from ledger.sentences import N_


@dataclass(frozen=True, slots=True)
class _Owner:
    """Where a card was entered: ``kind`` is ``hand``, ``spreads`` (a player's laid spreads),
    ``final`` (the double-double's final spread) or ``spade`` (a player's spade bet)."""

    kind: str
    player: str | None = None


FINAL = _Owner("final")

# One whole sentence per place a card can be entered. Placeholders: {player}, {text} (what was
# typed, quoted), {card}.
NOT_TEXT = {
    "hand": N_("{player}'s hand lists {text}; a card is written as text, like \"10H\" or \"QD\"."),
    "spreads": N_("{player}'s spreads lists {text}; a card is written as text, like \"10H\" or \"QD\"."),
    "final": N_("The final spread lists {text}; a card is written as text, like \"10H\" or \"QD\"."),
    "spade": N_("{player}'s spade bet lists {text}; a card is written as text, like \"10H\" or \"QD\"."),
}
NOT_A_CARD = {
    "hand": N_("{player}'s hand lists {text}, which is not a card (write it like 10H, QD, A♠)."),
    "spreads": N_("{player}'s spreads lists {text}, which is not a card (write it like 10H, QD, A♠)."),
    "final": N_("The final spread lists {text}, which is not a card (write it like 10H, QD, A♠)."),
    "spade": N_("{player}'s spade bet lists {text}, which is not a card (write it like 10H, QD, A♠)."),
}
NOT_DECLARED = {
    "hand": N_("{player}'s hand declares a joker as {card}, but jokers are only declared when the house "
               "rule joker_value_mode is 'declared'."),
    "spreads": N_("{player}'s spreads declares a joker as {card}, but jokers are only declared when the house "
                  "rule joker_value_mode is 'declared'."),
    "final": N_("The final spread declares a joker as {card}, but jokers are only declared when the house "
                "rule joker_value_mode is 'declared'."),
    "spade": N_("{player}'s spade bet declares a joker as {card}, but jokers are only declared when the house "
                "rule joker_value_mode is 'declared'."),
}
NO_JOKERS = {
    "hand": N_("{player}'s hand holds a joker, but this table plays without jokers."),
    "spreads": N_("{player}'s spreads holds a joker, but this table plays without jokers."),
    "final": N_("The final spread holds a joker, but this table plays without jokers."),
    "spade": N_("A spade bet holds a joker, but this table plays without jokers."),
}
EXTRA_JOKER = {
    "hand": N_("{player}'s hand shows joker number {number}; the deck has only {jokers}."),
    "spreads": N_("{player}'s spreads shows joker number {number}; the deck has only {jokers}."),
    "final": N_("The final spread shows joker number {number}; the deck has only {jokers}."),
}
TWICE = {
    "hand": N_("{player}'s hand lists the {card} twice; a deck has only one."),
    "spreads": N_("{player}'s spreads lists the {card} twice; a deck has only one."),
    "final": N_("The final spread lists the {card} twice; a deck has only one."),
}
# (where it was first seen, where again): hands are read before spreads, spreads before the final spread
IN_TWO_PLACES = {
    ("hand", "hand"): N_("The {card} appears in {first}'s hand and in {player}'s hand; a deck has only one."),
    ("hand", "spreads"): N_("The {card} appears in {first}'s hand and in {player}'s spreads; a deck has only one."),
    ("hand", "final"): N_("The {card} appears in {first}'s hand and in the final spread; a deck has only one."),
    ("spreads", "spreads"): N_("The {card} appears in {first}'s spreads and in {player}'s spreads; a deck has "
                               "only one."),
    ("spreads", "final"): N_("The {card} appears in {first}'s spreads and in the final spread; a deck has only "
                             "one."),
}


def _owner_params(owner: _Owner) -> dict[str, Any]:
    return {} if owner.player is None else {"player": owner.player}


@dataclass
class Parsed:
    """The parsed cards of an entry by where they were entered: each ``held`` hand, each
    player's laid ``spreads``, the ``final_spread`` and the spade bet ``declarations``. Where a
    card sits (its field, for a refusal) is worked out only when something is refused."""

    held: dict[str, tuple[Card, ...]]
    spreads: dict[str, list[tuple[Card, ...]]]
    final_spread: tuple[Card, ...]
    declarations: dict[str, Card | None]
    cards: list[Card] = dataclasses.field(init=False)  # the cards of everywhere(), without where they were entered

    def __post_init__(self) -> None:
        self.cards = []
        for cards in self.held.values():
            self.cards += cards
        for spreads in self.spreads.values():
            for spread in spreads:
                self.cards += spread
        self.cards += self.final_spread

    def everywhere(self) -> Iterator[tuple[str, _Owner, Card]]:
        """``(field, owner, card)`` for every card of a hand, a laid spread or the final spread,
        hands first, then spreads, then the final spread."""
        for player, cards in self.held.items():
            owner = _Owner("hand", player)
            for i, card in enumerate(cards):
                yield f"hands.{player}.cards[{i}]", owner, card
        for player, spreads in self.spreads.items():
            owner = _Owner("spreads", player)
            for s, spread in enumerate(spreads):
                for i, card in enumerate(spread):
                    yield f"hands.{player}.spreads[{s}][{i}]", owner, card
        for i, card in enumerate(self.final_spread):
            yield f"outcome.tonker_final_spread[{i}]", FINAL, card

    def declares_a_joker(self) -> bool:
        """Whether any card entered is a joker declared as another card (``JK=QH``)."""
        return any(card.declared is not None for card in self.cards) or any(
            card is not None and card.declared is not None for card in self.declarations.values()
        )

    def held_cards(self, player: str) -> tuple[Card, ...]:
        return self.held.get(player, ())


def parse_cards(rules: RuleSet, record: HandRecord) -> Parsed:
    """Read every card text of ``record`` (§9.1 item 6).

    Raises :class:`HandError` ``invalid_card`` for the first text, in reading order (hands with
    their spreads player by player, the final spread, the spade bets), that is not a card, or
    declares a joker as a card where jokers are not declared.
    """
    try:
        parsed = _read_cards(record)
    except InvalidCard:
        parsed = None
    if parsed is None or (rules.joker_value_mode != "declared" and parsed.declares_a_joker()):
        # something is refused: read again card by card to find the first one at fault
        parsed = _read_cards_one_by_one(rules, record)
    return parsed


def _read_cards(record: HandRecord) -> Parsed:
    """The cards of ``record``, read list by list (raises :class:`InvalidCard`)."""
    held: dict[str, tuple[Card, ...]] = {}
    spreads: dict[str, list[tuple[Card, ...]]] = {}
    for player, hand in record.hands:
        if hand.cards is not None:
            held[player] = tuple(map(Card.parse, hand.cards))
        spreads[player] = []
        for spread in hand.spreads:
            spreads[player].append(tuple(map(Card.parse, spread)))
    final = tuple(map(Card.parse, record.outcome.tonker_final_spread))
    declarations: dict[str, Card | None] = {}
    if record.spade_bet is not None:
        for player, text in record.spade_bet.highest_spade:
            declarations[player] = None if text is None else Card.parse(text)
    return Parsed(held, spreads, final, declarations)


def _read_cards_one_by_one(rules: RuleSet, record: HandRecord) -> Parsed:
    """As :func:`_read_cards`, card by card with its field, so that the first card at fault
    is refused (:func:`_parse_one`)."""
    held: dict[str, tuple[Card, ...]] = {}
    spreads: dict[str, list[tuple[Card, ...]]] = {}
    for player, hand in record.hands:
        if hand.cards is not None:
            owner = _Owner("hand", player)
            held[player] = tuple(
                _parse_one(rules, t, f"hands.{player}.cards[{i}]", owner) for i, t in enumerate(hand.cards)
            )
        laid = _Owner("spreads", player)
        spreads[player] = [
            tuple(_parse_one(rules, t, f"hands.{player}.spreads[{s}][{i}]", laid) for i, t in enumerate(spread))
            for s, spread in enumerate(hand.spreads)
        ]
    final = tuple(
        _parse_one(rules, t, f"outcome.tonker_final_spread[{i}]", FINAL)
        for i, t in enumerate(record.outcome.tonker_final_spread)
    )
    declarations: dict[str, Card | None] = {}
    if record.spade_bet is not None:
        for player, text in record.spade_bet.highest_spade:
            field = f"side_bets.spade.highest_spade.{player}"
            declarations[player] = None if text is None else _parse_one(rules, text, field, _Owner("spade", player))
    return Parsed(held, spreads, final, declarations)


def _parse_one(rules: RuleSet, text: Any, field: str, owner: _Owner) -> Card:
    params = _owner_params(owner)
    if not isinstance(text, str):
        raise HandError("invalid_card", NOT_TEXT[owner.kind], field, text=repr(text), **params)
    try:
        card = Card.parse(text)
    except InvalidCard:
        raise HandError("invalid_card", NOT_A_CARD[owner.kind], field, text=repr(text), **params) from None
    if card.declared is not None and rules.joker_value_mode != "declared":  # §1.5, before §9.1 item 7
        raise HandError("invalid_card", NOT_DECLARED[owner.kind], field, card=card.declared, **params)
    return card


def check_jokers(rules: RuleSet, parsed: Parsed) -> None:
    count = 0
    for card in parsed.cards:
        if card.is_joker:
            count += 1
    declared_jokers = [p for p, c in parsed.declarations.items() if c is not None and c.is_joker]
    if rules.jokers == 0 and (count or declared_jokers):
        if count:
            field, owner = _jokers(parsed)[0]
            raise HandError("joker_not_allowed", NO_JOKERS[owner.kind], field, **_owner_params(owner))
        raise HandError("joker_not_allowed", NO_JOKERS["spade"], f"side_bets.spade.highest_spade.{declared_jokers[0]}")
    if count > rules.jokers:
        field, owner = _jokers(parsed)[rules.jokers]
        raise HandError(
            "too_many_jokers", EXTRA_JOKER[owner.kind], field,
            number=rules.jokers + 1, jokers=rules.jokers, **_owner_params(owner),
        )


def _jokers(parsed: Parsed) -> list[tuple[str, _Owner]]:
    """Where each joker was entered, in reading order."""
    return [(field, owner) for field, owner, card in parsed.everywhere() if card.is_joker]


def check_duplicates(parsed: Parsed) -> None:
    naturals, seen = 0, set()
    for card in parsed.cards:
        if not card.is_joker:
            naturals += 1
            seen.add((card.rank, card.suit))
    if len(seen) == naturals:
        return  # no card entered twice; otherwise find the first one again, with where it was seen
    first_seen: dict[str, tuple[str, _Owner]] = {}
    for field, owner, card in parsed.everywhere():
        if card.is_joker:
            continue
        key = card.identity
        if key in first_seen:
            _, first_owner = first_seen[key]
            if first_owner == owner:
                raise HandError("duplicate_card", TWICE[owner.kind], field, card=card, **_owner_params(owner))
            params = _owner_params(owner) | {"first": first_owner.player} if first_owner.player else _owner_params(owner)
            raise HandError("duplicate_card", IN_TWO_PLACES[(first_owner.kind, owner.kind)], field, card=card, **params)
        first_seen[key] = (field, owner)
