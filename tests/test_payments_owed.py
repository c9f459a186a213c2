"""Payments are checked against what is owed (issue 7, finding 11): paying more than the payer
owes, or paying someone who is owed nothing, is refused with 422 ``overpayment`` unless the
request confirms it; every total stays inside what JavaScript reads exactly."""
from __future__ import annotations

import re
from typing import Any

import pytest

from test_web_pages import csrf_of, errors_in, flashes
from test_web_rules import ABC, Phone, start, text_of

JS_EXACT = 2**53 - 1
TONK = {"outcome": {"kind": "tonk_out", "winner": "Dee"}}  # Dee +150, every other seat -50


def pay(client: Any, night: dict[str, Any], body: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/sessions/{night['id']}/payments", json=body, headers=night["headers"])


def outstanding(client: Any, night: dict[str, Any]) -> dict[str, int]:
    return client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"]).get_json()["outstanding"]


@pytest.fixture
def tonked(client: Any, open_night: dict[str, Any]) -> dict[str, Any]:
    recorded = client.post(f"/api/v1/sessions/{open_night['id']}/hands", json=TONK, headers=open_night["headers"])
    assert recorded.status_code == 201
    return open_night


@pytest.mark.parametrize(("body", "field"), [
    ({"from": "Rosa", "to": "Dee", "amount": 60}, "amount"),  # Rosa owes only 50
    ({"from": "Dee", "to": "Rosa", "amount": 10}, "from"),  # Dee owes nothing
    ({"from": "Rosa", "to": "Marcus", "amount": 10}, "to"),  # Marcus is owed nothing
])
def test_finding_11_a_payment_beyond_what_is_owed_is_refused_unless_confirmed(
    client: Any, tonked: dict[str, Any], body: dict[str, Any], field: str
) -> None:
    before = outstanding(client, tonked)
    refused = pay(client, tonked, body)
    assert refused.status_code == 422, refused.get_json()
    answer = refused.get_json()
    assert (answer["error"], answer["field"]) == ("overpayment", field)
    assert outstanding(client, tonked) == before
    assert pay(client, tonked, body | {"confirm": False}).status_code == 422

    confirmed = pay(client, tonked, body | {"confirm": True})
    assert confirmed.status_code == 201, confirmed.get_json()
    after = confirmed.get_json()["outstanding"]
    assert after[body["from"]] == before[body["from"]] + body["amount"]
    assert after[body["to"]] == before[body["to"]] - body["amount"]


def test_finding_11_payments_within_what_is_owed_need_no_confirmation(client: Any, tonked: dict[str, Any]) -> None:
    assert pay(client, tonked, {"from": "Rosa", "to": "Dee", "amount": 20}).status_code == 201
    assert pay(client, tonked, {"from": "Rosa", "to": "Dee", "amount": 30}).status_code == 201  # exactly the rest
    again = pay(client, tonked, {"from": "Rosa", "to": "Dee", "amount": 1})  # now square
    assert again.status_code == 422 and again.get_json()["error"] == "overpayment"
    not_boolean = pay(client, tonked, {"from": "Marcus", "to": "Dee", "amount": 5, "confirm": "yes"})
    assert not_boolean.status_code == 422
    assert (not_boolean.get_json()["error"], not_boolean.get_json()["field"]) == ("invalid_entry", "confirm")


def test_finding_11_confirmed_payments_keep_every_total_within_javascripts_exact_range(
    client: Any, tonked: dict[str, Any]
) -> None:
    statuses = [pay(client, tonked, {"from": "Rosa", "to": "Dee", "amount": 10**15, "confirm": True}).status_code
                for _ in range(10)]
    assert statuses[:9] == [201] * 9
    assert statuses[9] == 422
    last = pay(client, tonked, {"from": "Rosa", "to": "Dee", "amount": 10**15, "confirm": True}).get_json()
    assert (last["error"], last["field"]) == ("invalid_payment", "amount")
    left = outstanding(client, tonked)
    assert all(abs(v) <= JS_EXACT for v in left.values()), left
    assert sum(left.values()) == 0


def test_finding_11_the_settle_page_asks_before_recording_an_overpayment(client: Any) -> None:
    session_id = start(client, ABC, "1.00")
    phone = Phone(client, session_id).open().outcome("discard_out").next(who="1").press(("go", "save"))
    assert phone.status == 302  # B won: A and C each owe B $1.00
    page = client.get(f"/s/{session_id}/settle").get_data(as_text=True)
    token = csrf_of(page)

    typed = {"csrf_token": token, "kind": "other", "from": "A", "to": "B", "amount": "5"}
    asked = client.post(f"/s/{session_id}/payments", data=typed)
    assert asked.status_code == 422
    text = text_of(asked.get_data(as_text=True))
    assert "A owes only $1.00. Record $5.00 anyway?" in text
    assert not flashes(asked.get_data(as_text=True))
    confirm = re.search(r'<form method="post" action="/s/[^"]+/payments" class="[^"]*confirm-payment[^"]*">(.*?)</form>',
                        asked.get_data(as_text=True), flags=re.S)
    assert confirm, "no confirmation form"
    hidden = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', confirm.group(1)))
    assert {k: hidden.get(k) for k in ("from", "to", "amount", "kind", "confirm")} == {
        "from": "A", "to": "B", "amount": "5", "kind": "other", "confirm": "yes"}
    # what was typed is still in the form too
    assert re.search(r'id="pay-amount" name="amount"[^>]*value="5"', asked.get_data(as_text=True))

    nobody = client.post(f"/s/{session_id}/payments", data=typed | {"from": "B", "to": "C", "amount": "2"})
    assert "B owes nothing. Record $2.00 anyway?" in text_of(nobody.get_data(as_text=True))
    to_nobody = client.post(f"/s/{session_id}/payments", data=typed | {"from": "A", "to": "C", "amount": "0.50"})
    assert "C is owed nothing. Record $0.50 anyway?" in text_of(to_nobody.get_data(as_text=True))

    recorded = client.post(f"/s/{session_id}/payments", data=hidden | {"csrf_token": token})
    assert recorded.status_code == 302, errors_in(recorded.get_data(as_text=True))
    settle = client.get(f"/s/{session_id}/settle").get_data(as_text=True)
    assert "A paid B $5.00." in flashes(settle)
