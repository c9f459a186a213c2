"""Why a 13-card rummy entry is refused: the codes of RUMMY13.md §9.1 in their order of precedence,
raised as :class:`ledger.games.errors.HandError` with named parameters (the words are the
template's; the code and its parameters are the contract).

Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Any, NoReturn

from ledger.games.errors import HandError, register_codes

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

# One English template per code, filled from the refusal's parameters (``field`` is always one).
TEMPLATES: dict[str, str] = {
    "invalid_ruleset": "The rummy rules at {field} are not valid.",
    "invalid_entry": "The rummy entry is not shaped as RUMMY13.md §8 asks, at {field}.",
    "too_few_players": "These rules need at least {least} players; {count} given.",
    "too_many_players": "These rules seat at most {most} players; {count} given.",
    "duplicate_player": "{name} is seated twice.",
    "invalid_stake": "The stake must be a positive whole number of minor units, at {field}.",
    "unknown_player": "{name} is not seated at this table.",
    "feature_disabled": "These rules do not allow what is entered at {field}.",
    "invalid_card": "The card at {field} is not a card.",
    "joker_not_allowed": "This table plays without printed jokers, but {field} is one.",
    "too_many_copies": "The card {card} appears more often than the decks hold.",
    "missing_hand": "The hand of {name} is needed, at {field}.",
    "wrong_card_count": "The cards of {name} must be 13; {count} given.",
    "invalid_spread": "The group at {field} is not a meld.",
    "total_out_of_range": "The count of {name} must be a whole number from 0 to 130.",
    "total_mismatch": "The count of {name} does not agree with the cards given.",
    "no_pure_sequence": "The show of {name} has no pure sequence.",
    "invalid_declaration": "The show of {name} is not a valid declaration.",
    "claim_mismatch": "The entry contradicts itself at {field}.",
    "pool_state_missing": "The pool score at {field} is missing or not a whole number.",
    "eliminated_player": "{name} is already out of the pool.",
    "rejoin_not_allowed": "The rejoin at {field} is not allowed by these rules.",
    "pool_not_over": "The pool is not over: more than one player is still in.",
    "split_not_allowed": "A split by drops leaves less than one entry fee to share.",
}


def refuse(code: str, field: str | None, **params: Any) -> NoReturn:
    """Raise the §9.1 refusal ``code`` about ``field`` (a path into the entry) with ``params``."""
    params.setdefault("field", field or "entry")
    raise HandError(code, TEMPLATES[code], field, **params)
