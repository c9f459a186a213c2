"""Template filters: money in the session's currency and cards with suit symbols.

Display only. Amounts are ``int`` minor units and go through :func:`ledger.money.format_minor`.
"""
from __future__ import annotations

from flask import current_app

from ledger.money import format_minor, format_plain
from ledger.rules import Card, InvalidCard
from ledger.web.blueprint import bp


def money(amount_minor: int, currency: str) -> str:
    """``money(75, "USD") == "$0.75"`` in the app's ``LOCALE``."""
    return format_minor(int(amount_minor), currency, current_app.config.get("LOCALE", "en_US"))


@bp.app_template_filter("money")
def money_filter(amount_minor: int, currency: str) -> str:
    return money(amount_minor, currency)


@bp.app_template_filter("signed_money")
def signed_money(amount_minor: int, currency: str) -> str:
    """``+$0.75``, ``-$0.25``, ``$0.00``: a balance with an explicit sign."""
    text = money(amount_minor, currency)
    return f"+{text}" if amount_minor > 0 else text


@bp.app_template_filter("plain_money")
def plain_money(amount_minor: int, currency: str) -> str:
    """``"5.25"``: an amount as a form value that :func:`ledger.money.parse_amount` reads back."""
    return format_plain(int(amount_minor), currency)


@bp.app_template_filter("tone")
def tone(amount_minor: int) -> str:
    """CSS class of a signed amount: ``pos``, ``neg`` or ``zero``."""
    return "pos" if amount_minor > 0 else "neg" if amount_minor < 0 else "zero"


@bp.app_template_filter("card")
def pretty_card(text: str) -> str:
    """``"QD"`` → ``"Q♦"``; text that is not a card is shown as typed."""
    try:
        return Card.parse(text).pretty()
    except InvalidCard:
        return str(text)


@bp.app_template_filter("red_card")
def is_red(text: str) -> bool:
    try:
        return Card.parse(text).suit in ("H", "D")
    except InvalidCard:
        return False
