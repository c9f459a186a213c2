"""Why a Tong-its entry is refused: the error codes of TONGITS.md §9.1, in their order of
precedence (raised as :class:`ledger.games.errors.HandError`).

Pure domain code: standard library only.
"""
from __future__ import annotations

from ledger.games.errors import register_codes

# TONGITS.md §9.1, in checking order; codes on one line are one step, checked in the order given
# (each code for every player in seat order before the next code, §8.5 #1).
PRECEDENCE: tuple[tuple[str, ...], ...] = (
    ("invalid_ruleset",),
    ("too_few_players", "too_many_players"),
    ("invalid_player_name",),
    ("duplicate_player",),
    ("invalid_stake",),
    ("unknown_player",),
    ("invalid_outcome",),
    ("invalid_pot_state",),
    ("invalid_card",),
    ("duplicate_card",),
    ("missing_hand",),
    ("too_many_cards", "empty_hand", "tongits_winner_has_cards"),
    ("total_out_of_range", "total_mismatch"),
    ("invalid_spread",),
    ("opened_mismatch",),
    ("bonus_mismatch",),
    ("caller_not_opened", "caller_locked", "invalid_response", "burned_cannot_fight", "claim_mismatch"),
)

ALL_CODES: frozenset[str] = frozenset(code for step in PRECEDENCE for code in step)

register_codes(ALL_CODES)
