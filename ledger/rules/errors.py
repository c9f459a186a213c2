"""Why an entry is refused: the error codes of RULES.md §9.1, in their order of precedence.

Pure domain code: standard library only.
"""
from __future__ import annotations

from typing import Any

from ledger.rules.words import english, render

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


class HandError(ValueError):
    """An entry the rules refuse.

    ``code`` is a RULES.md §9.1 code (or ``invalid_entry`` / ``invalid_ruleset`` for input that
    is not shaped like an entry or names an unknown toggle); ``template`` is an English sentence
    with named placeholders, marked for the catalogue with ``N_``, and ``params`` fill it;
    ``message`` is that sentence in the reader's language (see :mod:`ledger.rules.words`),
    ``str()`` of it the English one (put into words only when asked for);
    ``field`` is the path of the offending part of the entry, e.g. ``"hands.Dee.cards[2]"``,
    or ``None`` when the entry as a whole is at fault.
    """

    def __init__(self, code: str, template: str, field: str | None = None, /, **params: Any) -> None:
        if code not in ALL_CODES:
            raise ValueError(f"unknown error code {code!r}")
        super().__init__(code)
        self.code = code
        self.template = template
        self.params = params
        self.field = field

    def __str__(self) -> str:
        # the English sentence, put into words only when asked for (a log, a traceback): the
        # rules refuse entries often, and the web and API layers read ``message`` instead
        return english(self.template, self.params)

    @property
    def message(self) -> str:
        """The sentence in the language being written now (English outside a request)."""
        return render(self.template, self.params)

    def to_json(self) -> dict[str, str | None]:
        return {"error": self.code, "message": self.message, "field": self.field}

    def __repr__(self) -> str:
        return f"HandError({self.code!r}, {str(self)!r}, field={self.field!r})"

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pickled whole (a refusal raised in a worker process comes back as it was raised)
        return _rebuilt, (self.code, self.template, self.field, self.params)


def _rebuilt(code: str, template: str, field: str | None, params: dict[str, Any]) -> HandError:
    return HandError(code, template, field, **params)
