"""Money: exact parsing of typed amounts into int minor units, and display through Babel."""
from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ledger.money import format_minor, format_plain, minor_digits, parse_amount


@pytest.mark.parametrize(
    ("currency", "digits"), [("USD", 2), ("EUR", 2), ("JPY", 0), ("BHD", 3), ("KWD", 3)]
)
def test_minor_digits(currency, digits):
    assert minor_digits(currency) == digits


@pytest.mark.parametrize("currency", ["XYZ", "usd", "", "US", "DOLLARS"])
def test_minor_digits_unknown_currency(currency):
    with pytest.raises(ValueError, match="unknown currency code"):
        minor_digits(currency)


@pytest.mark.parametrize(
    ("text", "currency", "minor"),
    [
        ("0.25", "USD", 25),
        ("5", "USD", 500),
        ("5", "JPY", 5),
        ("1500", "JPY", 1500),
        ("5.0", "JPY", 5),
        (" 12.5 ", "EUR", 1250),
        ("0.250", "EUR", 25),
        ("5.", "USD", 500),
        (".75", "USD", 75),
        ("0", "USD", 0),
        ("1.234", "BHD", 1234),
        ("0.5", "BHD", 500),
        ("2", "BHD", 2000),
        ("12345678901234567890123456789.99", "USD", 1234567890123456789012345678999),
    ],
)
def test_parse_amount(text, currency, minor):
    value = parse_amount(text, currency)
    assert type(value) is int
    assert value == minor


@pytest.mark.parametrize(
    ("text", "currency", "message"),
    [
        ("0.255", "EUR", r"'0\.255' has more decimals than EUR allows \(2\)"),
        ("5.5", "JPY", r"'5\.5' has more decimals than JPY allows \(0\)"),
        ("1.2345", "BHD", r"more decimals than BHD allows \(3\)"),
        ("-1", "USD", "must not be negative"),
        (" -0.25", "USD", "must not be negative"),
        ("", "USD", "empty"),
        ("   ", "USD", "empty"),
        ("1,0000", "USD", r"'1,0000' has more decimals than USD allows \(2\)"),
        ("0,255", "EUR", r"'0,255' has more decimals than EUR allows \(2\)"),  # not a thousands group
        ("1,2345", "BHD", r"more decimals than BHD allows \(3\)"),
        ("1,000.50", "USD", "not an amount"),
        ("1,2,3", "EUR", "not an amount"),
        ("$5", "USD", "not an amount"),
        ("+5", "USD", "not an amount"),
        ("1e3", "USD", "not an amount"),
        ("NaN", "USD", "not an amount"),
        ("Infinity", "USD", "not an amount"),
        ("1.2.3", "USD", "not an amount"),
        (".", "USD", "not an amount"),
        ("\u0665", "USD", "not an amount"),  # ARABIC-INDIC DIGIT FIVE: ASCII digits only
        ("5", "XYZ", "unknown currency code"),
        ("5", "XXX", "unknown currency code"),
        ("5", "XAU", "unknown currency code"),
    ],
)
def test_parse_amount_rejects(text, currency, message):
    with pytest.raises(ValueError, match=message):
        parse_amount(text, currency)


@pytest.mark.parametrize(
    ("minor", "currency", "locale", "text"),
    [
        (2550, "USD", "en_US", "$25.50"),
        (-525, "USD", "en_US", "-$5.25"),
        (0, "USD", "en_US", "$0.00"),
        (5, "USD", "en_US", "$0.05"),
        (500, "JPY", "en_US", "¥500"),
        (1234, "BHD", "en_US", "BHD1.234"),
        (-5, "BHD", "en_US", "-BHD0.005"),
        (123456789, "EUR", "en_US", "€1,234,567.89"),
        (2550, "EUR", "de_DE", "25,50\xa0€"),
        (10**30 + 1, "USD", "en_US", "$10,000,000,000,000,000,000,000,000,000.01"),
    ],
)
def test_format_minor(minor, currency, locale, text):
    assert format_minor(minor, currency, locale=locale) == text


def test_format_minor_default_locale_is_en_us():
    assert format_minor(2550, "USD") == "$25.50"


@pytest.mark.parametrize(
    ("minor", "currency", "text"),
    [
        (2550, "USD", "25.50"),
        (0, "USD", "0.00"),
        (7, "USD", "0.07"),
        (-525, "USD", "-5.25"),
        (5, "JPY", "5"),
        (1, "BHD", "0.001"),
        (123456789, "EUR", "1234567.89"),
    ],
)
def test_format_plain(minor, currency, text):
    assert format_plain(minor, currency) == text


@pytest.mark.parametrize("bad", [25.5, True, Decimal("25"), "25", None])
@pytest.mark.parametrize("formatter", [format_minor, format_plain])
def test_formatters_reject_non_int(formatter, bad):
    with pytest.raises(ValueError, match="must be an int"):
        formatter(bad, "USD")


@pytest.mark.parametrize("formatter", [format_minor, format_plain])
def test_formatters_reject_unknown_currency(formatter):
    with pytest.raises(ValueError, match="unknown currency code 'XYZ'"):
        formatter(100, "XYZ")


@settings(max_examples=300, database=None)
@given(st.integers(min_value=0, max_value=10**40), st.sampled_from(["USD", "JPY", "BHD", "EUR"]))
def test_plain_text_round_trips_through_parse(minor, currency):
    assert parse_amount(format_plain(minor, currency), currency) == minor


@pytest.mark.parametrize(("text", "currency", "minor"), [("1,50", "EUR", 150), (" 0,25 ", "EUR", 25), ("7,5", "BRL", 750)])
def test_parse_amount_accepts_a_decimal_comma(text, currency, minor):
    assert parse_amount(text, currency) == minor


@pytest.mark.parametrize(("text", "currency", "thousands", "small"), [
    ("1.000", "TRY", "1000", "1.00"),  # a thousand lira typed the Turkish way: never ₺1.00
    ("1.500", "EUR", "1500", "1.50"),
    ("25.500", "USD", "25500", "25.50"),
    ("1.000", "JPY", "1000", "1"),
    ("1,000", "USD", "1000", "1.00"),  # a thousand dollars typed the English way: never $1.00
    ("1,500", "USD", "1500", "1.50"),
    ("1,000", "JPY", "1000", "1"),
])
def test_a_dot_that_may_group_thousands_is_refused_not_guessed(text: str, currency: str, thousands: str,
                                                               small: str) -> None:
    from ledger.i18n import use_language
    from ledger.money import AmountError

    with pytest.raises(AmountError) as refused:
        parse_amount(text, currency)
    assert refused.value.params["thousands"] == thousands and refused.value.params["small"] == small
    assert refused.value.message == f"'{text}' could mean {thousands} or {small}: type it without a thousands separator."
    with use_language("tr"):
        assert refused.value.message != refused.value.args[0] and thousands in refused.value.message
    # unambiguous amounts are read as before
    assert parse_amount("0.250", "EUR") == 25 and parse_amount("1.234", "BHD") == 1234
    assert parse_amount(thousands, currency) == int(thousands) * (1 if currency == "JPY" else 100)


@pytest.mark.parametrize(("text", "currency"), [("1.005", "EUR"), ("12.345", "USD"), ("1,005", "USD")])
def test_a_grouped_looking_amount_with_more_decimals_than_the_currency_is_refused_for_its_decimals(
    text: str, currency: str
) -> None:
    """"1.005" in EUR is not "1005 or 1.00": its decimal reading is no amount in EUR at all."""
    from ledger.money import AmountError

    with pytest.raises(AmountError) as refused:
        parse_amount(text, currency)
    assert refused.value.message == f"'{text}' has more decimals than {currency} allows (2)."
