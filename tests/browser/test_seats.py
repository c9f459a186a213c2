"""Issue 13 on two phones in real Chromium at 390×844: the host seats a late arrival and cashes
out a leaver from the Seats page; the second phone, left on the table screen, sees both without
a reload. Screenshots go to /tmp/tr-seats-*.png."""
from __future__ import annotations

from typing import Any

import pytest

from browser.test_phone_ui import table_balances, tap_and_wait
from browser.test_two_phones import api, wait_until
from conftest import session_body

pytestmark = pytest.mark.browser


def test_host_seats_a_late_arrival_and_cashes_out_a_leaver_while_another_phone_watches(
    phone: Any, second_phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    host, player = phone, second_phone
    body = session_body(night_data) | {"ruleset": {"preset": "classic", "toggles": {"max_players": 5}}}
    created = host.request.post(f"{live_server}/api/v1/sessions", data=body).json()
    sid, token = created["id"], created["token"]
    url = f"{live_server}/api/v1/sessions/{sid}/hands"
    for entry in ({"outcome": {"kind": "tonk_out", "winner": "Rosa"}, "hands": {"Rosa": {"cards": []}}},
                  {"outcome": {"kind": "discard_out", "winner": "Marcus"}, "hands": {"Marcus": {"cards": []}}}):
        assert host.request.post(url, data=entry, headers={"Authorization": f"Bearer {token}"}).status == 201
    # Rosa +$1.25, Marcus +$0.25, Dee and Tomás -$0.75 each

    player.goto(created["links"]["player"])
    player.evaluate("window.__sameDocument = true")
    assert "Ed" not in table_balances(player)
    host.goto(created["links"]["host"])
    tap_and_wait(host, host.locator("#seats-link"))
    assert host.url == f"{live_server}/s/{sid}/seats"

    # A late arrival sits in after Tomás, from the next hand.
    host.locator("#sit-name").fill("Ed")
    host.locator("#sit-after").select_option("Tomás")
    tap_and_wait(host, host.locator("#sit-in"))
    assert host.locator(".flash").first.inner_text() == "Ed sits in from hand 3."
    assert [li.get_attribute("data-name") for li in host.locator("#seated > li").all()] == [
        "Dee", "Marcus", "Rosa", "Tomás", "Ed"]
    wait_until(player, "() => [...document.querySelectorAll('.balance-name')].some(n => n.firstChild.textContent.trim() === 'Ed')")
    assert player.evaluate("window.__sameDocument") is True
    assert table_balances(player)["Ed"] == "$0.00"
    assert "Ed sat in from hand 3" in player.locator(".live-news").inner_text()
    host.screenshot(path="/tmp/tr-seats-sat-in.png", full_page=True)

    # Rosa leaves: the phone shows who pays her before anything is recorded, then "Pay now".
    host.locator("#leave-name").select_option("Rosa")
    tap_and_wait(host, host.locator("#leave"))
    line = "Rosa leaves +$1.25: Dee pays Rosa $0.75; Tomás pays Rosa $0.50"
    assert host.locator("#cash-out-line").inner_text() == line
    assert api(host, live_server, f"/{sid}", token)["players"] == ["Dee", "Marcus", "Rosa", "Tomás", "Ed"]
    host.screenshot(path="/tmp/tr-seats-cash-out.png", full_page=True)
    tap_and_wait(host, host.locator("#pay-now"))
    assert host.locator(".flash").first.inner_text() == f"{line}. Paid and recorded."
    assert host.locator("#left > li").first.get_attribute("data-name") == "Rosa"
    assert "as of hand 2" in host.locator("#left").inner_text()

    # paid on leaving: the watching phone says so beside her
    wait_until(player, "() => (document.querySelector('.tag-left') || {}).textContent === 'left · as of hand 2 · paid'")
    assert player.evaluate("window.__sameDocument") is True
    assert line in player.locator(".live-news").inner_text()
    player.screenshot(path="/tmp/tr-seats-watching.png", full_page=True)

    session = api(host, live_server, f"/{sid}", token)
    assert session["players"] == ["Dee", "Marcus", "Tomás", "Ed"]
    assert session["outstanding"] == {"Dee": 0, "Marcus": 25, "Tomás": -25, "Ed": 0, "Rosa": 0}
    payments = api(host, live_server, f"/{sid}/payments", token)["payments"]
    assert [(p["from"], p["to"], p["amount"], p["kind"]) for p in payments] == [
        ("Dee", "Rosa", 75, "cash_out"), ("Tomás", "Rosa", 50, "cash_out")]
    plan = api(host, live_server, f"/{sid}/settlement", token)
    assert plan["transfers"] == [{"from": "Tomás", "to": "Marcus", "amount": 25, "because": [{"hand": 2, "amount": 25}]}]
