"""Why a Tonk entry is refused: the error codes of RULES.md §9.1, in their order of precedence.

Pure domain code: standard library only.
"""
from __future__ import annotations


from ledger.games.errors import register_codes

# RULES.md §9.1, in checking order. Codes on one line share a precedence level.
PRECEDENCE: tuple[tuple[str, ...], ...] = (
    ("too_few_players", "too_many_players"),
    ("duplicate_player",),
    ("invalid_stake",),
    ("unknown_player",),
    ("feature_disabled",),
    ("invalid_card",),
    ("joker_not_allowed", "too_many_jokers"),
    ("duplicate_card",),
    ("missing_hand",),
    ("wrong_card_count", "winner_has_cards", "empty_hand", "too_many_cards"),
    ("total_mismatch", "total_out_of_range"),
    ("invalid_spread",),
    ("held_spread",),
    (
        "not_a_deal_tonk", "unclaimed_deal_tonk", "deal_tonk_preempted", "ambiguous_claim",
        "missing_final_turn", "knock_while_locked", "claim_mismatch",
        "double_double_needs_two_players", "not_a_double_double", "invalid_side_bet",
    ),
)

# Refusals that come before §9.1: the entry or the rule set is not even well formed.
STRUCTURAL_CODES: tuple[str, ...] = ("invalid_entry", "invalid_ruleset")

ALL_CODES: frozenset[str] = frozenset(c for level in PRECEDENCE for c in level) | frozenset(
    STRUCTURAL_CODES
)


register_codes(ALL_CODES)
