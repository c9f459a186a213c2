""""Your payment handles" on the "This is me" screen (issue 22): once a phone said which player it
is, it keeps that player's handles through the same checks as the API; a refused one shows the
form again with what was typed and the field's sentence; the fields that fit the night's currency
come first, the others behind "More"; the PDF opt-in is kept."""
from __future__ import annotations

import html
import re
from typing import Any

from club_nights import bearer
from conftest import session_body

IBAN = "EE382200221020145685"


def player_phone(app: Any, client: Any, night_data: dict[str, Any], currency: str) -> tuple[Any, dict[str, Any]]:
    """A night in ``currency`` and a phone that joined it with the players' link."""
    night = client.post("/api/v1/sessions", json=session_body(night_data) | {"currency": currency}).get_json()
    phone = app.test_client()
    assert phone.get(f"/join/{night['id']}/{night['player_token']}").status_code == 302
    return phone, night


def post(phone: Any, url: str, table: str, data: dict[str, str]) -> Any:
    """Send a form of the table screen, with the page's CSRF token."""
    token = re.search(r'name="csrf_token" value="([^"]+)"', phone.get(table).get_data(as_text=True)).group(1)
    return phone.post(url, data=data | {"csrf_token": token})


def form_of(page: str) -> str:
    found = re.search(r'<form method="post" action="[^"]+/me/handles"[^>]*>(.*?)</form>', page, re.DOTALL)
    assert found, "no handles form"
    return found.group(1)


def test_the_form_appears_once_the_phone_says_who_it_is_and_keeps_the_handles(
        app: Any, client: Any, night_data: dict[str, Any]) -> None:
    phone, night = player_phone(app, client, night_data, "EUR")
    table = f"/s/{night['id']}"
    assert "/me/handles" not in phone.get(table).get_data(as_text=True)  # not said yet: no form
    seat = night_data["players"].index("Marcus") + 1
    assert post(phone, f"{table}/me", table, {"seat": str(seat)}).status_code == 302
    form = form_of(phone.get(table).get_data(as_text=True))
    first, more = form.split('id="more-handles"')
    # EUR: the IBAN group first; Venmo, Cash App and UPI (USD, INR) behind "More"; PayPal takes EUR
    assert [f for f in re.findall(r'name="([a-z_]+)"', first) if f != "csrf_token"] == [
        "paypal", "iban", "name", "bic", "qr"]
    assert re.findall(r'name="([a-z_]+)"', more) == ["venmo", "cashapp", "upi", "in_pdf"]

    bad = post(phone, f"{table}/me/handles", table, {"iban": "EE382200221020145686", "name": "Marcus Rebane",
                                                   "paypal": "marcusr"})
    assert bad.status_code == 422
    page = bad.get_data(as_text=True)
    assert "This IBAN is not valid: check its country code and check digits." in page
    again = form_of(page)
    assert 'value="EE382200221020145686"' in again and 'value="Marcus Rebane"' in again  # what was typed
    assert re.search(r'id="handle-iban"[^>]*aria-invalid="true"', again)
    headers = bearer(night["token"])
    kept = client.get(f"/api/v1/sessions/{night['id']}/players/Marcus/handles", headers=headers).get_json()
    assert kept["handles"] == {}  # nothing stored from a refused form

    saved = post(phone, f"{table}/me/handles", table, {"iban": "ee38 2200 2210 2014 5685", "name": "Marcus Rebane",
                                                     "paypal": "marcusr", "in_pdf": "yes"})
    assert saved.status_code == 302
    kept = client.get(f"/api/v1/sessions/{night['id']}/players/Marcus/handles", headers=headers).get_json()
    assert kept["handles"] == {"iban": IBAN, "name": "Marcus Rebane", "paypal": "marcusr"}
    shown = form_of(phone.get(table).get_data(as_text=True))
    assert f'value="{IBAN}"' in shown and re.search(r'name="in_pdf" value="yes" id="handle-in-pdf" checked', shown)
    history = client.get(f"/api/v1/sessions/{night['id']}/history", headers=headers).get_json()["events"]
    assert [e["detail"] for e in history if e["action"] == "handles_set"] == [
        {"player": "Marcus", "kinds": ["iban", "name", "paypal"], "in_pdf": True}]


def test_a_bad_handle_behind_more_opens_more_and_a_viewer_has_no_form(
        app: Any, client: Any, night_data: dict[str, Any]) -> None:
    phone, night = player_phone(app, client, night_data, "USD")
    table = f"/s/{night['id']}"
    assert post(phone, f"{table}/me/handles", table, {"venmo": "dee_santos"}).status_code == 409  # said no seat yet
    assert post(phone, f"{table}/me", table, {"seat": "1"}).status_code == 302
    bad = post(phone, f"{table}/me/handles", table, {"upi": "no-at-sign"})
    assert bad.status_code == 422
    page = bad.get_data(as_text=True)
    assert html.escape("A UPI ID looks like name@bank.") in page
    assert re.search(r'<details class="more-handles" id="more-handles" open>', page)
    viewer = app.test_client()
    assert viewer.get(f"/join/{night['id']}/{night['viewer_token']}").status_code == 302
    assert "/me/handles" not in viewer.get(table).get_data(as_text=True)


def test_the_statement_shows_the_handles_only_when_ticked(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    from test_club_languages import pdf_text

    phone, night = player_phone(app, client, night_data, "USD")
    table = f"/s/{night['id']}"
    seat = night_data["players"].index("Marcus") + 1
    assert post(phone, f"{table}/me", table, {"seat": str(seat)}).status_code == 302
    handles = {"venmo": "Marcus-R", "upi": "marcus@okaxis"}  # UPI does not fit a USD night
    assert post(phone, f"{table}/me/handles", table, handles).status_code == 302
    statement = f"/api/v1/sessions/{night['id']}/statements/{seat}.pdf"
    headers = bearer(night["token"])
    unticked = pdf_text(client.get(statement, headers=headers).data)
    assert "Marcus-R" not in unticked and "Pay Marcus" not in unticked
    assert post(phone, f"{table}/me/handles", table, handles | {"in_pdf": "yes"}).status_code == 302
    ticked = pdf_text(client.get(statement, headers=headers).data)
    assert "Pay Marcus: Venmo @Marcus-R" in ticked and "okaxis" not in ticked
    others = pdf_text(client.get(f"/api/v1/sessions/{night['id']}/statements/1.pdf", headers=headers).data)
    assert "Marcus-R" not in others  # only in Marcus's own statement


def test_another_phone_saying_this_is_me_cannot_replace_the_handles(
        app: Any, client: Any, night_data: dict[str, Any]) -> None:
    phone, night = player_phone(app, client, night_data, "USD")
    table = f"/s/{night['id']}"
    seat = str(night_data["players"].index("Marcus") + 1)
    assert post(phone, f"{table}/me", table, {"seat": seat}).status_code == 302
    assert post(phone, f"{table}/me/handles", table, {"venmo": "Marcus-R"}).status_code == 302
    other = app.test_client()
    assert other.get(f"/join/{night['id']}/{night['player_token']}").status_code == 302
    assert post(other, f"{table}/me", table, {"seat": seat}).status_code == 302
    refused = post(other, f"{table}/me/handles", table, {"venmo": "Not-Marcus"})
    assert refused.status_code == 403
    assert ("Marcus's payment handles were set from another phone; only that phone or the host can change them."
            in html.unescape(refused.get_data(as_text=True)))
    url = f"/api/v1/sessions/{night['id']}/players/Marcus/handles"
    headers = bearer(night["token"])
    assert client.get(url, headers=headers).get_json()["handles"] == {"venmo": "Marcus-R"}
    assert post(phone, f"{table}/me/handles", table, {"venmo": "Marcus-Rb"}).status_code == 302  # its own, again
    assert client.put(url, headers=headers, json={"venmo": "Marcus-Host"}).status_code == 200  # the host may
    assert post(phone, f"{table}/me/handles", table, {"venmo": "Marcus-R"}).status_code == 403  # now the host's
