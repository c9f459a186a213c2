"""Amounts prefilled in the phone's payment inputs are written as the reader types them
(issue 23 item 5): Turkish "7,40", as the money shown beside it ("₺7,40"), English "7.40";
the parser reads back what it prefilled, and the payment is recorded in exact minor units."""
from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ledger.money import format_minor, format_typed, parse_amount
from test_web_pages import csrf_of

LOCALES = ["en_US", "es", "et", "fil", "lo", "ml", "tr"]


@pytest.mark.parametrize(("locale", "currency", "minor", "typed"), [
    ("tr", "TRY", 740, "7,40"),
    ("tr", "USD", 123450, "1234,50"),
    ("es", "EUR", 25, "0,25"),
    ("et", "EUR", 5, "0,05"),
    ("lo", "USD", 740, "7,40"),
    ("lo", "LAK", 5000, "5000"),
    ("en_US", "USD", 740, "7.40"),
    ("fil", "PHP", 740, "7.40"),
    ("ml", "INR", 740, "7.40"),
    ("tr", "JPY", 5, "5"),
    ("tr", "BHD", 1500, "1,500"),
])
def test_typed_amount_in_the_readers_format(locale: str, currency: str, minor: int, typed: str) -> None:
    assert format_typed(minor, currency, locale) == typed
    assert parse_amount(typed, currency) == minor


def test_the_turkish_typed_amount_matches_the_money_shown() -> None:
    assert format_minor(740, "TRY", "tr") == "₺7,40"
    assert format_typed(740, "TRY", "tr") == "7,40"


@given(st.integers(min_value=0, max_value=10**12), st.sampled_from(["USD", "EUR", "TRY", "JPY", "BHD", "LAK"]),
       st.sampled_from(LOCALES))
def test_every_typed_amount_reads_back(minor: int, currency: str, locale: str) -> None:
    assert parse_amount(format_typed(minor, currency, locale), currency) == minor


def test_the_turkish_settle_page_prefills_turkish_amounts_and_records_them(
    client: Any, open_night: dict[str, Any]
) -> None:
    night = open_night
    hand = {"outcome": {"kind": "tonk_out", "winner": "Dee"}}  # Dee +$1.50, each other seat -$0.50
    assert client.post(f"/api/v1/sessions/{night['id']}/hands", json=hand, headers=night["headers"]).status_code == 201
    client.get(f"/join/{night['id']}/{night['token']}")
    page = client.get(f"/s/{night['id']}/settle?lang=tr").get_data(as_text=True)
    form = re.search(r'<form[^>]*class="pay-form">(.*?)</form>', page, re.S).group(1)  # type: ignore[union-attr]
    fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form))
    assert fields["amount"] == "0,50"  # beside "$0,50" in the plan line
    assert "$0,50" in page
    assert 'placeholder="0,25"' in page  # "Another payment": the stake, typed the Turkish way
    response = client.post(f"/s/{night['id']}/payments?lang=tr", data=fields | {"csrf_token": csrf_of(page)})
    assert response.status_code in (302, 303), response.get_data(as_text=True)[:500]
    payments = client.get(f"/api/v1/sessions/{night['id']}/payments", headers=night["headers"]).get_json()
    assert [(p["from"], p["to"], p["amount"]) for p in payments["payments"]] == [(fields["from"], "Dee", 50)]
