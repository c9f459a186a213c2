"""Why a typed amount was refused, as a sentence in the reader's language.

:func:`ledger.money.parse_amount` raises ``ValueError`` with a fixed English detail (a message
for developers); the phone gets the matching catalogue sentence with the typed text, the
currency and its decimals as parameters. English reads as before: the detail as a sentence.
"""
from __future__ import annotations

import re

from ledger.i18n import _

_NEGATIVE = re.compile(r"amount must not be negative, got (?P<amount>.*)", re.S)
_DECIMALS = re.compile(r"(?P<amount>.*) has more decimals than (?P<currency>\S+) allows \((?P<digits>\d+)\)", re.S)
_NOT_AN_AMOUNT = re.compile(r"not an amount: (?P<amount>.*); write digits with '\.' as the decimal separator, "
                            r"e\.g\. '0\.25'", re.S)
_CURRENCY = re.compile(r"unknown currency code (?P<currency>.*)", re.S)


def amount_message(detail: str) -> str:
    """``parse_amount``'s refusal ``detail`` as a sentence for the phone ("'0.255' has more
    decimals than USD allows (2)."); an empty amount asks for the stake."""
    if detail == "amount is empty":
        return _("Type the stake, e.g. 0.25.")
    if found := _NEGATIVE.fullmatch(detail):
        return _("Amount must not be negative, got {amount}.", **found.groupdict())
    if found := _DECIMALS.fullmatch(detail):
        return _("{amount} has more decimals than {currency} allows ({digits}).", **found.groupdict())
    if found := _NOT_AN_AMOUNT.fullmatch(detail):
        return _("Not an amount: {amount}; write digits with '.' as the decimal separator, e.g. '0.25'.",
                 **found.groupdict())
    if found := _CURRENCY.fullmatch(detail):
        return _("Unknown currency code {currency}.", **found.groupdict())
    return detail[:1].upper() + detail[1:] + "."
