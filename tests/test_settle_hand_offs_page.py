"""The settle page's hand-offs (issue 22): per line the payee's app buttons and QR code, and
"Did {payer} pay {payee} {amount}?" that records the payment only when answered yes (once, by
the form's submission key)."""
from __future__ import annotations

import html
import re
from typing import Any

from club_nights import bearer
from conftest import session_body


def test_the_page_offers_the_apps_and_asks_before_recording(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    body = session_body(night_data) | {"ruleset": {"preset": "classic"}}
    night = client.post("/api/v1/sessions", json=body).get_json()
    headers = bearer(night["token"])
    assert client.post(f"/api/v1/sessions/{night['id']}/hands", headers=headers,
                       json={"outcome": {"kind": "tonk_out", "winner": "Dee"}}).status_code == 201
    assert client.put(f"/api/v1/sessions/{night['id']}/players/Dee/handles", headers=headers,
                      json={"venmo": "Dee-Santos", "cashapp": "deesantos"}).status_code == 200
    phone = app.test_client()
    assert phone.get(f"/join/{night['id']}/{night['token']}").status_code == 302
    page = phone.get(f"/s/{night['id']}/settle").get_data(as_text=True)
    plan = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=headers).get_json()
    first = plan["transfers"][0]
    assert html.escape(first["pay"][0]["url"]) in page and html.escape(first["pay"][1]["url"]) in page
    dollars = f"${first['amount'] // 100}.{first['amount'] % 100:02d}"
    assert html.escape(f"Did {first['from']} pay Dee {dollars}?") in page
    # opening the page (and the hand-off) marked nothing paid
    assert client.get(f"/api/v1/sessions/{night['id']}/payments", headers=headers).get_json()["payments"] == []
    qr = phone.get(f"/s/{night['id']}/settle/1/qr.svg?kind=venmo")
    assert qr.status_code == 200 and qr.mimetype == "image/svg+xml"
    assert phone.get(f"/s/{night['id']}/settle/99/qr.svg").status_code == 404
    form = re.search(r'<form method="post" action="([^"]+)" class="did-you-pay">(.*?)</form>', page, re.S)
    fields = dict(re.findall(r'name="([^"]+)" value="([^"]*)"', form.group(2)))
    fields = {k: html.unescape(v) for k, v in fields.items()}
    assert fields["from"] == first["from"] and fields["to"] == "Dee"
    for _ in range(2):  # a double tap on "Yes, paid" is one payment
        assert phone.post(form.group(1), data=fields).status_code == 302
    payments = client.get(f"/api/v1/sessions/{night['id']}/payments", headers=headers).get_json()["payments"]
    assert [(p["from"], p["to"], p["amount"]) for p in payments] == [(first["from"], "Dee", first["amount"])]
    after = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=headers).get_json()["transfers"]
    assert [(t["from"], t["amount"]) for t in after] == [(t["from"], t["amount"]) for t in plan["transfers"][1:]]


def test_the_page_shares_the_settle_up_text_in_its_language(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    body = session_body(night_data) | {"ruleset": {"preset": "classic"}}
    night = client.post("/api/v1/sessions", json=body).get_json()
    headers = bearer(night["token"])
    assert client.post(f"/api/v1/sessions/{night['id']}/hands", headers=headers,
                       json={"outcome": {"kind": "tonk_out", "winner": "Dee"}}).status_code == 201
    assert client.put(f"/api/v1/sessions/{night['id']}/players/Dee/handles", headers=headers,
                      json={"venmo": "Dee-Santos"}).status_code == 200
    phone = app.test_client()
    assert phone.get(f"/join/{night['id']}/{night['player_token']}").status_code == 302
    for lang in ("en", "es"):
        page = phone.get(f"/s/{night['id']}/settle?lang={lang}").get_data(as_text=True)
        button = re.search(r'<button type="button" class="btn btn-block js-only" id="share-settle-up" '
                           r'data-text="([^"]*)"', page)
        link = re.search(r'<a href="([^"]+)" id="settle-text-link">', page)
        assert button and link
        text = phone.get(html.unescape(link.group(1)))
        assert text.status_code == 200 and text.mimetype == "text/plain"
        assert html.unescape(button.group(1)) == text.get_data(as_text=True)  # the button shares what the link shows
        api = client.get(f"/api/v1/sessions/{night['id']}/settlement.txt?lang={lang}", headers=headers)
        assert text.get_data(as_text=True) == api.get_data(as_text=True)
        assert "(Venmo @Dee-Santos)" in api.get_data(as_text=True)
    english = client.get(f"/api/v1/sessions/{night['id']}/settlement.txt?lang=en", headers=headers)
    assert english.get_data(as_text=True).splitlines()[0] == f"Settle up: {night_data['name']}"
    assert api.get_data(as_text=True).splitlines()[0] != f"Settle up: {night_data['name']}"  # Spanish
    assert app.test_client().get(f"/s/{night['id']}/settle.txt").status_code in (403, 404)  # no token: no text
