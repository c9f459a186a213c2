"""Checks an entry against the rules, in the order of RULES.md §9.1, and counts every hand.

:func:`check_entry` either returns a :class:`CheckedHand` (cards parsed, counts known) or raises
the first :class:`~ledger.games.tonk.errors.HandError` by §9.1 precedence. The outcome-specific
checks of §9.1 item 14 live with the payouts in :mod:`ledger.games.tonk.payouts`.

Pure domain code: standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ledger.games.tonk.card_entries import Parsed, check_duplicates, check_jokers, parse_cards
from ledger.games.tonk.cards import Card
from ledger.games.tonk.entry import HandEntry, HandRecord
from ledger.games.errors import HandError
from ledger.games.tonk.ruleset import RuleSet
from ledger.games.tonk.spreads import best_held_spreads_value, layable_spreads, spread_problem
from ledger.sentences import N_, Cards


@dataclass(slots=True)
class PlayerHand:
    """One player's checked hand: parsed ``cards`` (``None`` if only a total was given), laid
    ``spreads``, and ``count``, the points that count against them (§0)."""

    cards: tuple[Card, ...] | None
    spreads: tuple[tuple[Card, ...], ...]
    count: int


@dataclass(slots=True)
class CheckedHand:
    """An entry that passed §9.1 items 1–13: ``stake`` is a positive int (minor units);
    ``counts`` holds each hand's ``count``, by player in entry order."""

    rules: RuleSet
    record: HandRecord
    players: tuple[str, ...]
    stake: int
    hands: dict[str, PlayerHand]
    counts: dict[str, int]
    final_spread: tuple[Card, ...]
    spade_declarations: dict[str, Card | None]

    def count(self, player: str) -> int:
        return self.counts[player]

    def shown_with(self, card: Card) -> str | None:
        """The player the entry shows ``card`` with: in their hand, their laid spreads, or (the
        player who went out) the final spread; ``None`` when it shows the card nowhere. A joker
        standing for the card is not the card."""
        for player, hand in self.hands.items():
            if card in (hand.cards or ()) or any(card in spread for spread in hand.spreads):
                return player
        return _went_out(self.record) if card in self.final_spread else None


def joker_points(card: Card, rules: RuleSet) -> int:
    """Points of a joker held in hand (§1.4): the declared card's value in ``declared`` mode
    when a card is declared, else ``joker_hand_value``."""
    if rules.joker_value_mode == "declared" and card.declared is not None:
        return card.declared.points
    return rules.joker_hand_value


def card_points(card: Card, rules: RuleSet) -> int:
    """Points of any card held in hand under ``rules`` (§1.1, §1.4)."""
    return joker_points(card, rules) if card.is_joker else card.points


def hand_points(cards: tuple[Card, ...], rules: RuleSet) -> int:
    """Points of ``cards`` held in hand: :func:`card_points` of each, added up."""
    total = 0
    for card in cards:
        total += joker_points(card, rules) if card.is_joker else card.points
    return total


def describe_cards(cards: tuple[Card, ...]) -> Cards:
    """``cards`` as one sentence parameter, shown side by side ("K♠ Q♥ J♦")."""
    return Cards(tuple(cards))


def check_entry(rules: RuleSet, record: HandRecord) -> CheckedHand:
    """Run §9.1 items 1–13 on ``record`` and count every hand given.

    Returns a :class:`CheckedHand`; raises :class:`HandError` with the first failing code.
    """
    players = record.players
    check_table(rules, players)
    stake = check_stake(record.stake)
    _check_names(record)
    _check_features(rules, record)
    parsed = parse_cards(rules, record)
    check_jokers(rules, parsed)
    check_duplicates(parsed)
    _check_required_hands(record)
    _check_card_counts(rules, record, parsed)
    hands, counts = _count_hands(rules, record, parsed)
    _check_spreads(rules, parsed)
    _check_held_spreads(rules, record, parsed)
    return CheckedHand(
        rules=rules,
        record=record,
        players=players,
        stake=stake,
        hands=hands,
        counts=counts,
        final_spread=parsed.final_spread,
        spade_declarations=parsed.declarations,
    )


# -- 1–3: table and stake ---------------------------------------------------------------------
def check_table(rules: RuleSet, players: tuple[str, ...]) -> None:
    """§9.1 items 1–2 for a seating: raises :class:`HandError` ``too_few_players``,
    ``too_many_players`` or ``duplicate_player`` (field ``players``/``players[i]``)."""
    if len(players) < rules.min_players:
        raise HandError(
            "too_few_players",
            N_("Tonk needs at least {least} players at this table; {count} given."),
            "players", least=rules.min_players, count=len(players),
        )
    if len(players) > rules.max_players:
        raise HandError(
            "too_many_players",
            N_("These rules seat at most {most} players; {count} given."),
            "players", most=rules.max_players, count=len(players),
        )
    if len(set(players)) == len(players):
        return
    seen: set[str] = set()
    for index, name in enumerate(players):
        if name in seen:
            raise HandError("duplicate_player", N_("{name} is seated twice."), f"players[{index}]", name=name)
        seen.add(name)


# A stake above ten million units (in a 2-decimal currency) is a typing slip, and keeping every
# balance far below 2**53 lets any JSON client hold amounts exactly.
MAX_STAKE_MINOR = 10**9


# a stake refused as too large is quoted when shorter than this (a number of thousands of digits
# is named 'too large' instead: Python will not even turn it into text)
SHOWN_BELOW = 10**18

# what check_stake refuses, by what is checked: (value shown, value too large)
STAKE_REFUSALS = {
    "stake": (
        N_("The stake must be a positive whole number of minor units (cents) up to {most}; got {shown}."),
        N_("The stake must be a positive whole number of minor units (cents) up to {most}; got 'too large'."),
    ),
    "side_stake": (
        N_("The spade side stake must be a positive whole number of minor units (cents) up to {most}; got {shown}."),
        N_("The spade side stake must be a positive whole number of minor units (cents) up to {most}; "
           "got 'too large'."),
    ),
}


def check_stake(stake: Any, field: str = "stake", code: str = "invalid_stake", what: str = "stake") -> int:
    """A stake in minor units: a whole number from 1 to :data:`MAX_STAKE_MINOR` (§0), else
    :class:`HandError` ``code`` naming ``field``; ``what`` is ``"stake"`` or ``"side_stake"``
    (which sentence names it)."""
    if type(stake) is not int or not 0 < stake <= MAX_STAKE_MINOR:
        shown, too_large = STAKE_REFUSALS[what]
        most = f"{MAX_STAKE_MINOR:,}"
        if type(stake) is int and stake >= SHOWN_BELOW:
            raise HandError(code, too_large, field, most=most)
        raise HandError(code, shown, field, most=most, shown=repr(stake))
    return stake


# -- 4–5: names and features ------------------------------------------------------------------
def _check_names(record: HandRecord) -> None:
    """Every name in the outcome, then every hand's, then every spade bet's, is seated."""
    seated = set(record.players)
    for field, name in record.outcome.named_players():
        if name not in seated:
            raise _unknown_player(field, name)
    for name, _ in record.hands:
        if name not in seated:
            raise _unknown_player(f"hands.{name}", name)
    if record.spade_bet is not None:
        for name, _ in record.spade_bet.highest_spade:
            if name not in seated:
                raise _unknown_player(f"side_bets.spade.highest_spade.{name}", name)


def _unknown_player(field: str, name: str) -> HandError:
    return HandError("unknown_player", N_("{name} is not seated at this table."), field, name=name)


def _check_features(rules: RuleSet, record: HandRecord) -> None:
    if record.outcome.kind == "double_double" and not rules.double_double:
        raise HandError(
            "feature_disabled",
            N_("Double-double is not played at this table (house rule double_double is off)."),
            "outcome.kind",
        )
    if record.spade_bet is not None and not rules.spade_side_pot:
        raise HandError(
            "feature_disabled",
            N_("The spade side pot is not played at this table (house rule spade_side_pot is off)."),
            "side_bets.spade",
        )


# -- 6–8: cards (ledger.games.tonk.card_entries) ---------------------------------------------------
# -- 9–10: which hands, how many cards ---------------------------------------------------------
def _check_required_hands(record: HandRecord) -> None:
    outcome = record.outcome
    if outcome.kind == "deal_tonk":
        for name in outcome.claimants:
            hand = record.hand(name)
            if hand is None or hand.cards is None:
                raise HandError(
                    "missing_hand",
                    N_("{name} claims a deal tonk: enter {name}'s dealt cards, not just a total."),
                    f"hands.{name}", name=name,
                )
    elif outcome.kind in ("knock", "dry_stock"):
        given = dict(record.hands)
        for name in record.players:
            if name not in given:
                raise HandError(
                    "missing_hand",
                    N_("A knock is paid on every count: enter {name}'s cards or total.") if outcome.kind == "knock"
                    else N_("A dry stock is paid on every count: enter {name}'s cards or total."),
                    f"hands.{name}", name=name,
                )
    elif outcome.kind == "double_double":
        hand = record.hand(outcome.responder or "")
        if hand is None or hand.cards is None:
            raise HandError(
                "missing_hand",
                N_("A double-double needs the cards {name} still holds."),
                f"hands.{outcome.responder}", name=outcome.responder,
            )


def _went_out(record: HandRecord) -> str | None:
    outcome = record.outcome
    if outcome.kind in ("tonk_out", "discard_out"):
        return outcome.winner
    if outcome.kind == "double_double":
        return outcome.first_tonker
    return None


def _check_card_counts(rules: RuleSet, record: HandRecord, parsed: Parsed) -> None:
    outcome = record.outcome
    out_player = _went_out(record)
    for player, hand in record.hands:
        n = len(hand.cards) if hand.cards is not None else None
        if outcome.kind == "deal_tonk":
            # every dealt hand shown, claimant or not, is the whole deal (§8.1, §9.1 item 10)
            if n is not None and n != rules.hand_size:
                raise HandError(
                    "wrong_card_count",
                    N_("{player}'s dealt hand shows {count} cards; the deal is {size} cards."),
                    f"hands.{player}.cards", player=player, count=n, size=rules.hand_size,
                )
            if hand.spreads:
                raise HandError(
                    "wrong_card_count",
                    N_("{player} shows a laid spread, but a deal tonk ends the hand before anyone "
                       "plays: show only the {size} dealt cards."),
                    f"hands.{player}.spreads", player=player, size=rules.hand_size,
                )
            continue
        if player == out_player:
            if (n is not None and n > 0) or (hand.total is not None and hand.total != 0):
                raise HandError(
                    "winner_has_cards",
                    N_("{player} went out, so {player}'s hand must be empty.") if outcome.kind == "discard_out"
                    else N_("{player} tonked out, so {player}'s hand must be empty."),
                    f"hands.{player}.cards" if n else f"hands.{player}", player=player,
                )
            continue
        if n is None:
            continue
        if n == 0:
            raise HandError(
                "empty_hand",
                N_("{player} holds no cards, but only the player who went out can have an empty hand."),
                f"hands.{player}.cards", player=player,
            )
        limit = rules.max_hand_cards(knocker=(outcome.kind == "knock" and player == outcome.knocker))
        if n > limit:
            raise HandError(
                "too_many_cards",
                N_("{player}'s hand shows {count} cards; at most {most} can be held at the end of a hand."),
                f"hands.{player}.cards", player=player, count=n, most=limit,
            )
    _check_final_turn(rules, record)
    _check_final_spread(rules, record)


def _check_final_turn(rules: RuleSet, record: HandRecord) -> None:
    """A tonk out's final turn (§4.3) empties a hand of 1 to ``hand_size`` cards plus the card
    drawn, so it puts down 2 to ``hand_size`` + 1 cards; new spreads take at least 3 of them."""
    outcome = record.outcome
    turn = outcome.final_turn
    if outcome.kind != "tonk_out" or turn is None:
        return
    winner, used, most = outcome.winner, turn.spread_cards + turn.hit_cards, rules.hand_size + 1
    if used > most:
        raise HandError(
            "too_many_cards",
            N_("{player}'s final turn puts down {count} cards, but a turn holds at most {most}: "
               "{size} in hand and the card drawn."),
            "outcome.final_turn", player=winner, count=used, most=most, size=rules.hand_size,
        )
    if 0 < turn.spread_cards < 3:
        raise HandError(
            "wrong_card_count",
            N_("{player}'s final turn lays new spreads of {count} cards in all; a new "
               "spread has at least 3 cards."),
            "outcome.final_turn.spread_cards", player=winner, count=turn.spread_cards,
        )
    if used < 2:
        raise HandError(
            "wrong_card_count",
            N_("{player}'s final turn puts down {count} of its cards, but a tonk out empties a hand of "
               "at least 2: a card kept from the turn before and the card drawn."),
            "outcome.final_turn", player=winner, count=used,
        )


def _check_final_spread(rules: RuleSet, record: HandRecord) -> None:
    """A double-double's final run (§4.9) is laid in one turn: at most ``hand_size`` + 1 cards."""
    outcome = record.outcome
    most = rules.hand_size + 1
    if outcome.kind == "double_double" and len(outcome.tonker_final_spread) > most:
        raise HandError(
            "too_many_cards",
            N_("{player}'s final run lays {count} cards, but a "
               "turn holds at most {most}: {size} in hand and the card drawn."),
            "outcome.tonker_final_spread", player=outcome.first_tonker, count=len(outcome.tonker_final_spread),
            most=most, size=rules.hand_size,
        )


# -- 11: counts --------------------------------------------------------------------------------
def _count_hands(
    rules: RuleSet, record: HandRecord, parsed: Parsed
) -> tuple[dict[str, PlayerHand], dict[str, int]]:
    """Every hand given, checked and counted (§9.1 item 11), and its count, by player."""
    out: dict[str, PlayerHand] = {}
    counts: dict[str, int] = {}
    is_deal = record.outcome.kind == "deal_tonk"
    for player, hand in record.hands:
        spreads = tuple(parsed.spreads.get(player, ()))
        cards = None if hand.cards is None else parsed.held_cards(player)
        if cards is not None:
            count = hand_points(cards, rules)
            if not rules.held_spreads_count and not is_deal:
                count -= best_held_spreads_value(cards, rules, lambda c: card_points(c, rules))
            if hand.total is not None and hand.total != count:
                raise HandError(
                    "total_mismatch",
                    N_("{player}'s cards ({cards}) count {count}, not {total}.") if cards
                    else N_("{player}'s cards (no cards) count {count}, not {total}."),
                    f"hands.{player}.total", player=player, cards=describe_cards(cards), count=count,
                    total=hand.total,
                )
        else:
            count = _check_total_range(rules, record, player, hand)
        out[player] = PlayerHand(cards, spreads, count)
        counts[player] = count
    return out, counts


def _check_total_range(rules: RuleSet, record: HandRecord, player: str, hand: HandEntry) -> int:
    total = hand.total
    assert total is not None
    if player == _went_out(record):
        return total  # already checked to be 0
    outcome = record.outcome
    lowest, highest = total_range(rules, outcome.kind, knocker=outcome.kind == "knock" and player == outcome.knocker)
    if not lowest <= total <= highest:
        raise HandError(
            "total_out_of_range",
            N_("{player}'s total of {total} is impossible: a hand here counts {lowest} to {highest}."),
            f"hands.{player}.total", player=player, total=total, lowest=lowest, highest=highest,
        )
    return total


def total_range(rules: RuleSet, kind: str, *, knocker: bool = False) -> tuple[int, int]:
    """``(lowest, highest)`` total a hand still held at the end of a ``kind`` hand can declare
    (§9.1 item 11; §1.1 and §1.4 for the points): at most the most cards it can hold (one more
    for a ``knocker`` when ``drop_timing`` is ``any``) at 10 points each, or a joker's value if
    higher; at least 1, or 0 where a joker counts 0 or held spreads do not count; a dealt hand
    at least :func:`lowest_deal_total`. The phone's total fields take the same bounds."""
    max_cards = rules.hand_size if kind == "deal_tonk" else rules.max_hand_cards(knocker=knocker)
    per_card = max(10, rules.joker_hand_value if rules.jokers else 0)
    if kind == "deal_tonk":
        return lowest_deal_total(rules), per_card * max_cards
    can_be_zero = (rules.jokers and rules.joker_hand_value == 0) or not rules.held_spreads_count
    return (0 if can_be_zero else 1), per_card * max_cards


def lowest_deal_total(rules: RuleSet) -> int:
    """The least a dealt hand of ``hand_size`` cards from one pack can count (§1.1, §1.4):
    6 for five cards without jokers (four aces and a 2)."""
    joker = min(rules.joker_hand_value, 1) if rules.joker_value_mode == "declared" else rules.joker_hand_value
    pack = [joker] * rules.jokers + [value for value in range(1, 10) for _ in range(4)] + [10] * 16
    return sum(sorted(pack)[: rules.hand_size])


# -- 12–13: spreads ----------------------------------------------------------------------------
# why a laid spread is refused, by the problem :func:`spread_problem` names
BAD_SPREAD = {
    "too_short": N_("{player}'s spread {cards} is not valid: a spread needs at least 3 cards."),
    "too_few_real_cards": N_("{player}'s spread {cards} is not valid: a spread with a joker needs at least "
                             "{least} real cards."),
    "book_too_long": N_("{player}'s spread {cards} is not valid: a book has at most 4 cards."),
    "neither": N_("{player}'s spread {cards} is not valid: the cards are neither a book (same rank) nor a run "
                  "(consecutive ranks of one suit)."),
}

def _check_spreads(rules: RuleSet, parsed: Parsed) -> None:
    for player, spreads in parsed.spreads.items():
        for index, cards in enumerate(spreads):
            problem = spread_problem(cards, rules)
            if problem is not None:
                raise HandError(
                    "invalid_spread", BAD_SPREAD[problem], f"hands.{player}.spreads[{index}]",
                    player=player, cards=describe_cards(cards), least=rules.min_natural_cards_per_spread,
                )


def _check_held_spreads(rules: RuleSet, record: HandRecord, parsed: Parsed) -> None:
    if not rules.must_lay_spreads or record.outcome.kind not in ("knock", "dry_stock"):
        return
    for player, _ in record.hands:
        cards = parsed.held_cards(player)
        if not cards:
            continue
        found = next(layable_spreads(cards, rules, exempt_ace_books=rules.three_aces_exception), None)
        if found is not None:
            raise HandError(
                "held_spread",
                N_("{player} still holds the spread {cards}; at this table "
                   "spreads must be laid down."),
                f"hands.{player}.cards", player=player, cards=describe_cards(found),
            )
