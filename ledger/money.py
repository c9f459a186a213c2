"""Money in and out: parse what a person types into ``int`` minor units, and display minor units.

Every amount is an ``int`` in the minor unit of an ISO 4217 currency (cents for USD, yen for JPY,
fils for BHD). Conversions go through :class:`decimal.Decimal` and never through ``float``. The
number of minor digits per currency comes from Babel's CLDR data, the only non-stdlib dependency.
"""
from __future__ import annotations

import re
from decimal import Context, Decimal, localcontext
from functools import lru_cache

from babel.numbers import format_currency, format_decimal, get_currency_precision, get_decimal_symbol, is_currency

from ledger.sentences import N_, render

_AMOUNT = re.compile(r"[0-9]+(?:\.[0-9]*)?|\.[0-9]+")
# one to three digits (not starting with 0), a separator, then exactly three digits: "1.000", "25.500"
_GROUPED = re.compile(r"([1-9][0-9]{0,2})\.([0-9]{3})")
"""ASCII digits with an optional '.' decimal separator: "5", "0.25", "5.", ".25"."""


NOT_MONEY = frozenset({
    "XXX", "XTS",  # "no currency" and the testing code
    "XAU", "XAG", "XPT", "XPD",  # gold, silver, platinum, palladium
    "XDR", "XSU", "XUA", "XBA", "XBB", "XBC", "XBD",  # accounting units
})
"""ISO 4217 codes that are not money anyone plays cards for."""

POINTS = "PTS"
"""What a night or a club kept in points instead of money stores as its currency (issue 25: where
playing for money is not allowed, the score sheet): no ISO 4217 code, so it names no money;
its "minor unit" is one point (no decimals), shown as a bare number in the reader's locale."""


def is_points(currency: str | None) -> bool:
    """Whether ``currency`` is :data:`POINTS` (a score sheet: no settle-up, no payments)."""
    return currency == POINTS


# the refusal of a currency code Babel does not know (the API and the club form show it)
UNKNOWN_CURRENCY = N_("unknown currency code {code}")


@lru_cache(maxsize=512)
def minor_digits(currency: str) -> int:
    """Number of decimal digits of ``currency``'s minor unit (USD 2, JPY 0, BHD 3).

    ``currency`` is an upper-case ISO 4217 code. Raises ``ValueError`` if Babel does not know it
    or it is one of :data:`NOT_MONEY` (a refusal is not remembered; an answer is).
    """
    if currency == POINTS:
        return 0
    if not is_currency(currency) or currency in NOT_MONEY:
        raise AmountError(f"unknown currency code {currency!r}", UNKNOWN_CURRENCY, code=repr(currency))
    return get_currency_precision(currency)


class AmountError(ValueError):
    """A typed amount refused by :func:`parse_amount`. ``str(err)`` is the detail for developers
    (it quotes the input); ``template`` (an English sentence marked for the catalogue) and
    ``params`` make the sentence a person reads, ``message`` in the current language."""

    def __init__(self, detail: str, template: str, **params: object) -> None:
        super().__init__(detail)
        self.template = template
        self.params = params

    @property
    def message(self) -> str:
        return render(self.template, self.params)


def parse_amount(text: str, currency: str) -> int:
    """Parse a non-negative amount typed by a person into ``int`` minor units of ``currency``.

    Accepts ASCII digits with an optional decimal separator and surrounding spaces. The
    separator is '.', or a single ',' when there is no '.' (``"1,50"`` as typed in most of
    Europe is 150 cents; ``"1,000"`` in USD is refused as it could mean 1000 or 1.00, never guessed):
    ``parse_amount("0.25", "USD") == 25``, ``parse_amount("5", "USD") == 500``,
    ``parse_amount("5", "JPY") == 5``. Trailing zeros beyond the currency's digits are fine
    (``"0.250"`` in EUR is 25); a value that needs more digits is refused. ``"1.000"``,
    ``"1.500"`` or ``"1,000"`` in a currency of fewer than three decimals is refused too: where a
    dot groups thousands (Turkish, Spanish) or a comma does (English), it means a thousand, and a
    guess either way could be 1000× off.

    Raises :class:`AmountError` (a ``ValueError``; its text quotes the input) for empty text, a negative amount, anything
    that is not a plain decimal number (no ',' separators, signs or symbols), more decimals than
    ``currency`` allows (``"0.255"`` in EUR), or an unknown currency.
    """
    digits = minor_digits(currency)
    cleaned = text.strip()
    if not cleaned:
        raise AmountError("amount is empty", N_("Type the stake, e.g. 0.25."))
    if cleaned.startswith("-"):
        raise AmountError(f"amount must not be negative, got {text!r}",
                          N_("Amount must not be negative, got {amount}."), amount=repr(text))
    if "." not in cleaned and cleaned.count(",") == 1:
        whole, _, decimals = cleaned.partition(",")
        cleaned = f"{whole}.{decimals}"
        # "1,000" could mean a thousand (as typed in English): refused as a dot that may group
        # thousands is, below; other decimals beyond the currency's are refused here
        if len(decimals) > digits and not (digits < 3 and _GROUPED.fullmatch(cleaned)):
            raise _too_precise(text, currency, digits)
    if not _AMOUNT.fullmatch(cleaned):
        raise AmountError(
            f"not an amount: {text!r}; write digits with '.' as the decimal separator, e.g. '0.25'",
            N_("Not an amount: {amount}; write digits with '.' as the decimal separator, e.g. '0.25'."),
            amount=repr(text),
        )
    grouped = _GROUPED.fullmatch(cleaned)
    scaled = _scale(Decimal(cleaned), digits)
    # "1.000" or "1.500": a thousands separator where it is a dot (tr, es, de), or an amount with
    # its zeros written out; "1.005" in EUR can only be the first, and is refused below as more
    # decimals than EUR has, as "0.255" is
    if grouped and digits < 3 and scaled == scaled.to_integral_value():
        thousands = grouped.group(1) + grouped.group(2)
        raise AmountError(
            f"{text.strip()!r} could be {thousands} with a thousands separator; refused rather than guessed",
            N_("{amount} could mean {thousands} or {small}: type it without a thousands separator."),
            amount=repr(text.strip()), thousands=thousands, small=format_plain(int(scaled), currency),
        )
    if scaled != scaled.to_integral_value():
        raise _too_precise(text, currency, digits)
    return int(scaled)


def _too_precise(text: str, currency: str, digits: int) -> AmountError:
    """The refusal of an amount with more decimals than ``currency`` has (points have none)."""
    if currency == POINTS:  # a score sheet names no currency
        return AmountError(f"{text.strip()!r} is not a whole number of points",
                           N_("{amount} is not a whole number of points."), amount=repr(text.strip()))
    return AmountError(f"{text.strip()!r} has more decimals than {currency} allows ({digits})",
                       N_("{amount} has more decimals than {currency} allows ({digits})."),
                       amount=repr(text.strip()), currency=currency, digits=digits)


def format_minor(amount_minor: int, currency: str, locale: str = "en_US") -> str:
    """Display ``amount_minor`` (signed ``int`` minor units) as money in ``locale``.

    ``format_minor(2550, "USD") == "$25.50"``, ``format_minor(-525, "USD") == "-$5.25"``,
    ``format_minor(500, "JPY") == "¥500"``. Raises ``ValueError`` if the amount is not an ``int``
    (``bool`` included) or the currency is unknown.
    """
    _to_decimal(amount_minor, currency)  # checked first: the cache below would take True for 1
    return _formatted(amount_minor, currency, locale)


@lru_cache(maxsize=8192)
def _formatted(amount_minor: int, currency: str, locale: str) -> str:
    """Babel's text of ``amount_minor`` (a page shows the same few amounts many times, and
    each costs Babel ~0.1 ms: remembered)."""
    value = _to_decimal(amount_minor, currency)
    # Babel quantizes in the current decimal context; give it room for every digit so that
    # large amounts are shown exactly instead of failing (default precision is 28 digits).
    with localcontext(Context(prec=max(28, len(value.as_tuple().digits) + 1))):
        if currency == POINTS:  # a score: the number alone, grouped as the reader groups digits
            return format_decimal(value, locale=locale)
        return format_currency(value, currency, locale=locale)


def format_plain(amount_minor: int, currency: str) -> str:
    """Plain decimal text of ``amount_minor`` with exactly the currency's digits and no symbol
    or grouping, for form inputs: ``format_plain(2550, "USD") == "25.50"``, ``format_plain(5,
    "JPY") == "5"``, ``format_plain(-525, "USD") == "-5.25"``. For amounts >= 0 it round-trips
    through :func:`parse_amount`. Raises ``ValueError`` like :func:`format_minor`.
    """
    return format(_to_decimal(amount_minor, currency), "f")


def format_typed(amount_minor: int, currency: str, locale: str = "en_US") -> str:
    """An amount as a person of ``locale`` types it into a form: the currency's digits, no symbol
    or grouping, and the locale's decimal separator when it is a comma (Turkish ``"7,40"``,
    beside Babel's ``"₺7,40"``), else a dot: ``format_typed(740, "TRY", "tr") == "7,40"``,
    ``format_typed(740, "USD") == "7.40"``, ``format_typed(5, "JPY", "tr") == "5"``. For
    amounts >= 0 it round-trips through :func:`parse_amount` (which reads one ',' without a '.'
    as the decimal separator). Raises ``ValueError`` like :func:`format_minor`.
    """
    text = format_plain(amount_minor, currency)
    return text.replace(".", ",") if _decimal_comma(locale) else text


@lru_cache(maxsize=64)
def _decimal_comma(locale: str) -> bool:
    try:
        return get_decimal_symbol(locale) == ","
    except (ValueError, LookupError):  # a locale Babel does not know: the dot
        return False


def _to_decimal(amount_minor: int, currency: str) -> Decimal:
    """Exact ``Decimal`` value of ``amount_minor`` minor units (``2550`` USD -> ``25.50``)."""
    if type(amount_minor) is not int:
        raise ValueError(f"amount must be an int in minor units, got {amount_minor!r}")
    return _scale(Decimal(amount_minor), -minor_digits(currency))


def _scale(value: Decimal, places: int) -> Decimal:
    """``value * 10**places`` exactly: the coefficient is kept whole, whatever its length."""
    precision = max(1, len(value.as_tuple().digits))
    return value.scaleb(places, context=Context(prec=precision))


def divide_rounded(total_minor: int, count: int) -> int:
    """``total_minor / count`` rounded to the nearest minor unit, half-way cases away from zero
    (``divide_rounded(200, 3) == 67``, ``divide_rounded(-200, 3) == -67``,
    ``divide_rounded(1, 2) == 1``, ``divide_rounded(-1, 2) == -1``). Integer arithmetic only.

    Raises ``ValueError`` when ``count`` is not positive."""
    if count <= 0:
        raise ValueError("count must be positive")
    quotient, remainder = divmod(abs(total_minor), count)
    if 2 * remainder >= count:
        quotient += 1
    return quotient if total_minor >= 0 else -quotient
