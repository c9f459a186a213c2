"""One tap from "you owe" to paid, on a 390 px phone in real Chromium (issue 22): the phone says
"This is me" and keeps a Venmo handle, the night closes, the settle page's Venmo button opens the
payee's pre-filled link (the venmo.com page is intercepted), coming back asks "Did … pay …?",
and only "Yes, paid" records it: exactly one payment, and the plan loses that line. Conditions
only, never sleeps. Screenshots: /tmp/my-handles.png, /tmp/settle-hand-off.png."""
from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl, urlsplit

import pytest

from browser.test_phone_ui import tap_and_wait

pytestmark = pytest.mark.browser


def test_set_a_handle_close_tap_the_hand_off_come_back_and_answer_yes(phone: Any, live_server: str) -> None:
    api = f"{live_server}/api/v1/sessions"
    created = phone.request.post(api, data={
        "name": "Friday at Dee's", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic"},
        "players": ["Marcus", "Dee", "Rosa"], "first_dealer": "Marcus"}).json()
    host = {"Authorization": f"Bearer {created['token']}"}
    night = f"{api}/{created['id']}"
    assert phone.request.post(f"{night}/hands", headers=host,
                              data={"outcome": {"kind": "tonk_out", "winner": "Dee"}}).status == 201

    # Dee's phone joins by the table code and says "This is me"
    phone.goto(live_server + "/join")
    phone.locator("#code").fill(created["table_code"])
    phone.locator("#name").fill("Dee")
    tap_and_wait(phone, phone.get_by_role("button", name="Join"))
    phone.locator("#me-seat").select_option(label="Dee")
    tap_and_wait(phone, phone.locator("#this-is-me-save"))

    # "Your payment handles": USD shows Venmo first; UPI (INR) waits behind "More"
    phone.locator("#my-handles > summary").tap()
    assert phone.locator("#handle-venmo").is_visible()
    assert not phone.locator("#handle-upi").is_visible()
    phone.locator("#handle-venmo").fill("@Dee-Santos")
    phone.locator("#my-handles").screenshot(path="/tmp/my-handles.png")
    tap_and_wait(phone, phone.locator("#my-handles-save"))
    assert phone.request.get(f"{night}/players/Dee/handles", headers=host).json()["handles"] == {"venmo": "Dee-Santos"}

    assert phone.request.post(f"{night}/close", headers=host, data={}).status == 200
    plan = phone.request.get(f"{night}/settlement", headers=host).json()["transfers"]
    first = plan[0]
    dollars = f"{first['amount'] // 100}.{first['amount'] % 100:02d}"
    assert first["to"] == "Dee" and [p["kind"] for p in first["pay"]] == ["venmo"]

    # the app's web page is intercepted: the phone leaves for it and comes back
    phone.route("https://venmo.com/**", lambda route: route.fulfill(
        status=200, content_type="text/html", body="<!doctype html><title>Venmo</title><p>Pay</p>"))
    phone.goto(f"{live_server}/s/{created['id']}/settle")
    line = phone.locator("details#hand-off-1")
    line.locator("summary").tap()
    app = line.locator("a.hand-off-app[data-kind=venmo]")
    with phone.expect_navigation(url=lambda url: url.startswith("https://venmo.com/")):
        app.tap()
    link = urlsplit(phone.url)
    assert link.path == "/Dee-Santos"
    assert dict(parse_qsl(link.query)) == {"txn": "pay", "amount": dollars, "note": "Tonk · Friday at Dee's"}
    phone.go_back(wait_until="load")
    assert phone.url == f"{live_server}/s/{created['id']}/settle"

    # back on the page: the question for that line is asked, and nothing is marked paid yet
    question = phone.locator("details#hand-off-1 form.did-you-pay.asking")
    question.wait_for(state="visible")
    assert question.locator(".did-you-pay-question").inner_text() == f"Did {first['from']} pay Dee ${dollars}?"
    assert phone.request.get(f"{night}/payments", headers=host).json()["payments"] == []
    phone.screenshot(path="/tmp/settle-hand-off.png", full_page=True)
    with phone.expect_navigation(url=f"{live_server}/s/{created['id']}/settle"):
        question.get_by_role("button", name="Yes, paid").dblclick()  # a double tap is one payment

    payments = phone.request.get(f"{night}/payments", headers=host).json()["payments"]
    assert [(p["from"], p["to"], p["amount"]) for p in payments] == [(first["from"], "Dee", first["amount"])]
    after = phone.request.get(f"{night}/settlement", headers=host).json()["transfers"]
    assert [(t["from"], t["to"], t["amount"]) for t in after] == [(t["from"], t["to"], t["amount"]) for t in plan[1:]]
    paid = phone.locator(".payments-made li .paid-text")
    assert paid.count() == 1 and paid.inner_text() == f"{first['from']} paid Dee ${dollars}"
    assert phone.locator("details#hand-off-1 form.did-you-pay .did-you-pay-question").inner_text() != (
        f"Did {first['from']} pay Dee ${dollars}?")  # that line is gone from the plan
    assert phone.locator("form.did-you-pay.asking").count() == 0  # asked once, not again


SHARE_SHEET = """() => {
  window.__shared = null;
  Object.defineProperty(navigator, "share", {configurable: true, value: (data) => {
    window.__shared = data.text; return Promise.resolve(); }});
}"""
NO_SHARE_SHEET = """() => {
  window.__copied = null;
  Object.defineProperty(navigator, "share", {configurable: true, value: undefined});
  Object.defineProperty(navigator, "clipboard", {configurable: true, value: {writeText: (text) => {
    window.__copied = text; return Promise.resolve(); }}});
}"""


def test_share_the_settle_up_with_the_share_sheet_or_the_clipboard(phone: Any, live_server: str) -> None:
    api = f"{live_server}/api/v1/sessions"
    created = phone.request.post(api, data={
        "name": "Friday at Dee's", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic"},
        "players": ["Marcus", "Dee", "Rosa"], "first_dealer": "Marcus"}).json()
    host = {"Authorization": f"Bearer {created['token']}"}
    night = f"{api}/{created['id']}"
    assert phone.request.post(f"{night}/hands", headers=host,
                              data={"outcome": {"kind": "tonk_out", "winner": "Dee"}}).status == 201
    assert phone.request.put(f"{night}/players/Dee/handles", headers=host, data={"venmo": "Dee-Santos"}).status == 200
    text = phone.request.get(f"{night}/settlement.txt?lang=en", headers=host).text()
    assert "(Venmo @Dee-Santos)" in text
    phone.goto(f"{live_server}/join/{created['id']}/{created['token']}")
    phone.goto(f"{live_server}/s/{created['id']}/settle")
    button = phone.locator("#share-settle-up")
    assert button.is_visible() and phone.locator("#settle-text-link").is_visible()

    phone.evaluate(SHARE_SHEET)
    button.tap()
    phone.wait_for_function("() => window.__shared !== null")
    assert phone.evaluate("() => window.__shared") == text

    phone.evaluate(NO_SHARE_SHEET)
    button.tap()
    phone.locator("#share-settle-status", has_text="Copied: paste it into the group chat.").wait_for()
    assert phone.evaluate("() => window.__copied") == text


def test_without_javascript_the_text_link_stays(phone_without_js: Any, live_server: str) -> None:
    page = phone_without_js
    api = f"{live_server}/api/v1/sessions"
    created = page.request.post(api, data={
        "name": "Friday at Dee's", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic"},
        "players": ["Marcus", "Dee"], "first_dealer": "Marcus"}).json()
    host = {"Authorization": f"Bearer {created['token']}"}
    assert page.request.post(f"{api}/{created['id']}/hands", headers=host,
                             data={"outcome": {"kind": "tonk_out", "winner": "Dee"}}).status == 201
    page.goto(f"{live_server}/join/{created['id']}/{created['token']}")
    page.goto(f"{live_server}/s/{created['id']}/settle")
    assert not page.locator("#share-settle-up").is_visible()  # it needs JavaScript
    page.locator("#settle-text-link").tap()
    page.wait_for_url(lambda url: "/settle.txt" in url)
    assert page.locator("body").inner_text().splitlines()[0] == "Settle up: Friday at Dee's"
