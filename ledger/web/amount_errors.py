"""Why a typed amount was refused, as a sentence in the reader's language.

:func:`ledger.money.parse_amount` raises :class:`~ledger.money.AmountError`, whose ``message`` is
the catalogue sentence with the typed text, the currency and its decimals as parameters.
"""
from __future__ import annotations

from ledger.i18n import _
from ledger.money import AmountError
from ledger.games.tonk.validation import MAX_STAKE_MINOR
from ledger.web.formatting import money


def amount_message(error: ValueError) -> str:
    """The sentence for the phone about a refused amount ("'0.255' has more decimals than USD
    allows (2)."); any other ``ValueError`` asks for an amount like 0.25."""
    if isinstance(error, AmountError):
        return error.message
    return _("Not an amount: {amount}; write digits with '.' as the decimal separator, e.g. '0.25'.",
             amount=str(error))


def stake_range_message(currency: str) -> str:
    """The refusal of a typed stake out of range, in ``currency``'s money as the phone typed it
    (the engine's own sentence counts minor units): the start form and the seats page."""
    return _("The stake must be more than zero and at most {largest}.", largest=money(MAX_STAKE_MINOR, currency))
