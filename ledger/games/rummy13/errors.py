"""Why a 13-card rummy entry is refused: the codes of RUMMY13.md §9.1 in their order of precedence,
raised as :class:`ledger.games.errors.HandError` with named parameters (the words are the
template's; the code and its parameters are the contract).

Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Any, NoReturn

from ledger.games.errors import HandError, register_codes
from ledger.sentences import N_

# RUMMY13.md §9.1, in checking order; codes on one line belong to one step.
PRECEDENCE: tuple[tuple[str, ...], ...] = (
    ("invalid_ruleset", "invalid_entry"),
    ("too_few_players", "too_many_players"),
    ("duplicate_player",),
    ("invalid_stake",),
    ("unknown_player",),
    ("feature_disabled",),
    ("invalid_card",),
    ("joker_not_allowed",),
    ("too_many_copies",),
    ("missing_hand",),
    ("wrong_card_count",),
    ("invalid_spread",),
    ("total_out_of_range", "total_mismatch"),
    ("no_pure_sequence", "invalid_declaration"),
    ("claim_mismatch",),
    ("pool_state_missing", "eliminated_player", "rejoin_not_allowed", "pool_not_over", "split_not_allowed"),
)

ALL_CODES: frozenset[str] = frozenset(code for step in PRECEDENCE for code in step)

register_codes(ALL_CODES)

# One sentence per code (marked for the catalogue), filled from the refusal's parameters.
TEMPLATES: dict[str, str] = {
    "invalid_ruleset": N_("These rummy rules are not valid: check the preset and the house rules."),
    "invalid_entry": N_("This rummy entry is incomplete or not shaped as a score sheet entry."),
    "too_few_players": N_("These rules need at least {least} players; {count} given."),
    "too_many_players": N_("These rules seat at most {most} players; {count} given."),
    "duplicate_player": N_("{name} is seated twice."),
    "invalid_stake": N_("The point rate or entry fee must be a positive whole number of minor units."),
    "unknown_player": N_("{name} is not seated at this table."),
    "feature_disabled": N_("These rules do not allow this: check how a wrong show is played and the game's format."),
    "invalid_card": N_("{text} is not a card."),
    "joker_not_allowed": N_("{name} holds a printed joker, but this table plays without printed jokers."),
    "too_many_copies": N_("{card} appears {count} times, more than the decks hold."),
    "missing_hand": N_("Enter {name}'s result, and their points or cards."),
    "wrong_card_count": N_("{name} must show 13 cards; {count} given."),
    "invalid_spread": N_("A group of {name}'s cards is neither a sequence nor a set."),
    "total_out_of_range": N_("{name}'s count must be a whole number from 0 to 130."),
    "total_mismatch": N_("{name}'s count of {points} does not match the cards, which count {count}."),
    "no_pure_sequence": N_("{name}'s show has no pure sequence."),
    "invalid_declaration": N_("{name}'s show is not valid: it needs two sequences, one of them pure, and no loose card."),
    "claim_mismatch": N_("The entry contradicts itself about {name}."),
    "pool_state_missing": N_("{name}'s pool score must be a whole number of at least 0."),
    "eliminated_player": N_("{name} is already out of the pool."),
    "rejoin_not_allowed": N_("These rules do not allow this rejoin: a rejoiner comes back at the highest score plus 1, "
                             "and only while nobody is above the rejoin limit."),
    "pool_not_over": N_("The pool is not over: more than one player is still in."),
    "split_not_allowed": N_("A split by drops must leave at least one entry fee to share."),
}
SPLIT_NEEDS_TWO = N_("A split needs two or more players still in the pool.")
CARD_IN_HAND = N_("{text} in {name}'s hand is not a card.")
HAND_SHAPE = N_("{name}'s hand is not entered as the score sheet expects.")
WRONG_SHOW_ENDS_HAND = N_("Under these rules a wrong show ends the hand: enter it as the hand's outcome, "
                          "not as {name}'s result.")


def refuse(code: str, field: str | None, template: str | None = None, **params: Any) -> NoReturn:
    """Raise the §9.1 refusal ``code`` about ``field`` (a path into the entry, ``None`` for the
    whole entry) with ``params`` (each code's sentence names what it needs: ``name``, ``count``,
    ``card``, ``text``...)."""
    raise HandError(code, template or TEMPLATES[code], field, **params)
