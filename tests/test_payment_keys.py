"""A payment sent twice is recorded once (a double tap on "Mark paid", a retry after a lost
answer): the API takes an ``Idempotency-Key`` on night and club payments (201, then 200 with the
same payment; 409 ``idempotency_key_reused`` for another payment under the key), and every
payment form on the phone carries a submission key of its own."""
from __future__ import annotations

import re
from typing import Any

import pytest

from club_nights import bearer, close, make_club, won_club_night
from test_web_pages import csrf_of, flashes

TONK = {"outcome": {"kind": "tonk_out", "winner": "Dee"}}  # Dee +150, every other seat -50


@pytest.fixture
def tonked(client: Any, open_night: dict[str, Any]) -> dict[str, Any]:
    assert client.post(f"/api/v1/sessions/{open_night['id']}/hands", json=TONK,
                       headers=open_night["headers"]).status_code == 201
    return open_night


def _pay(client: Any, night: dict[str, Any], body: dict[str, Any], key: str | None) -> Any:
    headers = night["headers"] | ({"Idempotency-Key": key} if key is not None else {})
    return client.post(f"/api/v1/sessions/{night['id']}/payments", json=body, headers=headers)


def test_a_night_payment_sent_twice_under_one_key_is_recorded_once(client: Any, tonked: dict[str, Any]) -> None:
    body = {"from": "Rosa", "to": "Dee", "amount": 50}
    first = _pay(client, tonked, body, "pay-rosa-1")
    assert first.status_code == 201, first.get_json()
    again = _pay(client, tonked, body, "pay-rosa-1")  # Rosa owes nothing now: without the key, an overpayment
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["id"] == first.get_json()["id"]
    assert again.get_json()["outstanding"] == first.get_json()["outstanding"] == {
        "Dee": 100, "Marcus": -50, "Rosa": 0, "Tomás": -50}
    payments = client.get(f"/api/v1/sessions/{tonked['id']}/payments", headers=tonked["headers"]).get_json()
    assert [(p["from"], p["to"], p["amount"]) for p in payments["payments"]] == [("Rosa", "Dee", 50)]

    other = _pay(client, tonked, {"from": "Marcus", "to": "Dee", "amount": 50}, "pay-rosa-1")
    answer = other.get_json()
    assert (other.status_code, answer["error"], answer["field"]) == (409, "idempotency_key_reused", "Idempotency-Key")
    assert answer["existing"]["id"] == first.get_json()["id"]
    bad = _pay(client, tonked, {"from": "Marcus", "to": "Dee", "amount": 50}, "é" * 3)
    assert (bad.status_code, bad.get_json()["error"], bad.get_json()["field"]) == (
        422, "invalid_entry", "Idempotency-Key")
    assert _pay(client, tonked, {"from": "Marcus", "to": "Dee", "amount": 50}, None).status_code == 201


def test_a_club_payment_sent_twice_under_one_key_is_recorded_once(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus"])
    close(client, won_club_night(client, club, ["Dee", "Marcus"], "Dee"), True)
    url = f"/api/v1/clubs/{club['id']}/payments"
    owed = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["balances"]["Dee"]
    body = {"from": "Marcus", "to": "Dee", "amount": owed}
    headers = bearer(club["member_token"]) | {"Idempotency-Key": "club-pay-1"}
    first = client.post(url, json=body, headers=headers)
    again = client.post(url, json=body, headers=headers)
    assert (first.status_code, again.status_code) == (201, 200), again.get_json()
    assert again.get_json()["id"] == first.get_json()["id"]
    assert again.get_json()["balances"] == {"Dee": 0, "Marcus": 0}
    reused = client.post(url, json=body | {"amount": 1, "confirm": True}, headers=headers)
    assert (reused.status_code, reused.get_json()["error"]) == (409, "idempotency_key_reused")
    listed = client.get(url, headers=bearer(club["token"])).get_json()["payments"]
    assert [p["amount"] for p in listed] == [owed]


def test_the_plans_mark_paid_tapped_twice_records_one_payment(client: Any, tonked: dict[str, Any]) -> None:
    client.get(f"/join/{tonked['id']}/{tonked['token']}")
    page = client.get(f"/s/{tonked['id']}/settle").get_data(as_text=True)
    form = re.search(r'<form[^>]*class="pay-form">(.*?)</form>', page, re.S).group(1)  # type: ignore[union-attr]
    fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form))
    assert fields["kind"] == "plan" and len(fields["key"]) >= 20
    keys = re.findall(r'name="key" value="([^"]+)"', page)
    assert len(keys) == len(set(keys)) >= 4  # every form its own key (three plan lines and "Another payment")
    data = fields | {"csrf_token": csrf_of(page)}
    first = client.post(f"/s/{tonked['id']}/payments", data=data, follow_redirects=True)
    second = client.post(f"/s/{tonked['id']}/payments", data=data, follow_redirects=True)
    assert first.status_code == second.status_code == 200
    paid = f"{fields['from']} paid {fields['to']} $0.50."
    assert flashes(first.get_data(as_text=True)) == flashes(second.get_data(as_text=True)) == [paid]
    payments = client.get(f"/api/v1/sessions/{tonked['id']}/payments", headers=tonked["headers"]).get_json()
    assert [(p["from"], p["amount"]) for p in payments["payments"]] == [(fields["from"], 50)]


def test_the_club_pay_form_sent_twice_records_one_payment(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus"])
    close(client, won_club_night(client, club, ["Dee", "Marcus"], "Dee"), True)
    client.get(club["links"]["owner"])
    page = client.get(f"/c/{club['id']}").get_data(as_text=True)
    key = re.search(r'id="club-pay">.*?name="key" value="([^"]+)"', page, re.S).group(1)  # type: ignore[union-attr]
    data = {"csrf_token": csrf_of(page), "key": key, "from": "Marcus", "to": "Dee", "amount": "0.10"}
    for _ in range(2):
        assert client.post(f"/c/{club['id']}/payments", data=data).status_code == 302
    listed = client.get(f"/api/v1/clubs/{club['id']}/payments", headers=bearer(club["token"])).get_json()["payments"]
    assert [p["amount"] for p in listed] == [10]


def test_an_empty_key_on_a_night_or_club_payment_is_refused_naming_the_header(client: Any, tonked: dict[str, Any]) -> None:
    """An empty ``Idempotency-Key`` is not "no key": 422 ``invalid_entry`` naming the header, and
    the payment is not recorded (a retry under it would have recorded a second one)."""
    body = {"from": "Rosa", "to": "Dee", "amount": 50}
    for _attempt in (1, 2):
        refused = _pay(client, tonked, body, "")
        answer = refused.get_json()
        assert (refused.status_code, answer.get("error"), answer.get("field")) == (
            422, "invalid_entry", "Idempotency-Key"), answer
    payments = client.get(f"/api/v1/sessions/{tonked['id']}/payments", headers=tonked["headers"]).get_json()
    assert payments["payments"] == []

    club = make_club(client, members=["Dee", "Marcus"])
    close(client, won_club_night(client, club, ["Dee", "Marcus"], "Dee"), True)
    url = f"/api/v1/clubs/{club['id']}/payments"
    for _attempt in (1, 2):
        refused = client.post(url, json={"from": "Marcus", "to": "Dee", "amount": 1},
                              headers=bearer(club["member_token"]) | {"Idempotency-Key": ""})
        answer = refused.get_json()
        assert (refused.status_code, answer.get("error"), answer.get("field")) == (
            422, "invalid_entry", "Idempotency-Key"), answer
    assert client.get(url, headers=bearer(club["token"])).get_json()["payments"] == []
