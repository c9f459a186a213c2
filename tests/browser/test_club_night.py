"""A club night from the phone in real Chromium (issue 9): open the club by its owner link,
start a night for four members, record night-01's first hand by tapping, close the night with
carry-over, and find the carried balance on the club page and the standings page."""
from __future__ import annotations

import re
from typing import Any

import pytest

from ledger.money import format_minor
from browser.test_phone_ui import enter_hand, tap_and_wait

pytestmark = pytest.mark.browser


def test_start_a_club_night_close_it_with_carry_over_and_see_the_standings(
    app: Any, phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    players, currency = night_data["players"], night_data["currency"]
    created = app.test_client().post("/api/v1/clubs", json={"name": "Friday club", "currency": "USD",
                                                             "members": [*players, "Ed"]})
    assert created.status_code == 201
    club = created.get_json()
    page = phone
    page.goto(f"{live_server}/c/join/{club['id']}/{club['token']}")
    assert page.get_by_role("heading", name="Friday club").is_visible()

    page.locator("#club-night-name").fill("Friday 1")
    for member in club["members"]:
        if member["name"] in players:
            page.locator(f'input[name="member-{member["id"]}"]').check()
    page.locator("#club-first-dealer").select_option(night_data["first_dealer"])
    page.locator("#club-stake").fill("0.25")
    tap_and_wait(page, page.get_by_role("button", name="Start the club night"))
    match = re.fullmatch(r".*/s/([^/?]+)", page.url)
    assert match, page.url

    hand = night_data["hands"][0]
    enter_hand(page, hand, players, currency)

    page.goto(f"{live_server}/s/{match.group(1)}/settle")
    page.locator('#carry-choice input[value="yes"]').check()
    page.once("dialog", lambda dialog: dialog.accept())
    tap_and_wait(page, page.get_by_role("button", name="Close the night"))
    assert "carried into the balances of Friday club" in page.content()

    page.goto(f"{live_server}/c/{club['id']}")
    shown = {li.locator(".balance-name").inner_text().strip(): li.locator(".balance-amount").inner_text().strip()
             for li in page.locator("#club-balances > li").all()}
    net = hand["expected"]["net"]
    assert shown == {p: (f"+{format_minor(v, currency)}" if v > 0 else format_minor(v, currency))
                     for p, v in net.items()} | {"Ed": format_minor(0, currency)}
    assert "carried" in page.locator("#club-nights").inner_text()

    tap_and_wait(page, page.locator("#club-standings"))
    first = page.locator("#standings tbody tr").first
    winner = max(net, key=lambda p: net[p])
    assert first.locator(".standing-name").inner_text() == winner
    assert first.locator(".standing-net").inner_text() == f"+{format_minor(net[winner], currency)}"
    assert (first.locator(".standing-nights").inner_text(), first.locator(".standing-hands").inner_text()) == ("1", "1")
