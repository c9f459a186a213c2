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
