"""A club kept from two phones in real Chromium (issue 9): the first phone starts the club and
its roster, plays a club night carried into the balances; the second phone joins by the club
code and records a payment (and one more than is owed, after the question); the owner voids
that one; the standings page's period picker. axe-core checks every new page."""
from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

import pytest

from browser.test_accessibility import fits_at_double_text, serious_violations
from browser.test_phone_ui import enter_hand, tap_and_wait

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def balances_shown(page: Any) -> dict[str, str]:
    return {li.locator(".balance-name").inner_text().strip(): li.locator(".balance-amount").inner_text().strip()
            for li in page.locator("#club-balances > li").all()}


def plan_shown(page: Any) -> list[str]:
    return [" ".join(li.inner_text().split()) for li in page.locator("#club-plan ol.plan > li").all()]


def test_a_club_from_two_phones_night_payment_and_standings(
    phone: Any, second_phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    players, hand = night_data["players"], night_data["hands"][0]
    axe: dict[str, list[str]] = {}
    owner = phone

    # the first phone starts the club from the home page
    owner.goto(live_server + "/")
    tap_and_wait(owner, owner.locator("#start-club"))
    axe["start a club"] = serious_violations(owner)
    owner.get_by_label("Name of the club").fill("Friday club")
    owner.get_by_label("Currency of every club night").select_option("USD")
    assert owner.get_by_label("Time zone").input_value()  # the phone's zone, filled in by the page
    tap_and_wait(owner, owner.get_by_role("button", name="Start the club"))
    assert owner.get_by_role("heading", name="Friday club").is_visible()
    assert owner.locator("#club-share").get_attribute("open") is not None
    code = owner.locator("#club-code-shown").get_attribute("data-code")
    assert code and re.fullmatch(r"[A-Z0-9]{6}", code)
    axe["club page, owner, share panel open"] = serious_violations(owner)

    for name in players:
        owner.get_by_label("Add a member").fill(name)
        tap_and_wait(owner, owner.get_by_role("button", name="Add the member"))
    owner.get_by_label("Add a member").fill(players[0].upper())
    tap_and_wait(owner, owner.get_by_role("button", name="Add the member"))
    assert owner.locator("#err-new-member").inner_text() == (
        f"{players[0]} is already a member of this club; choose a name that is easy to tell apart.")
    assert owner.get_by_label("Add a member").input_value() == players[0].upper()
    assert [n.inner_text() for n in owner.locator("#member-list .member-name").all()] == players

    # a club night, carried into the balances
    for name in players:
        owner.locator("#club-seats label").filter(has_text=name).locator("input").check()
    owner.locator("#club-first-dealer").select_option(night_data["first_dealer"])
    owner.locator("#club-stake").fill("0.25")
    tap_and_wait(owner, owner.get_by_role("button", name="Start the club night"))
    night_id = re.fullmatch(r".*/s/([^/?]+)", owner.url).group(1)
    enter_hand(owner, hand, players, night_data["currency"])
    owner.goto(f"{live_server}/s/{night_id}/settle")
    owner.locator('#carry-choice input[value="yes"]').check()
    owner.once("dialog", lambda dialog: dialog.accept())
    tap_and_wait(owner, owner.get_by_role("button", name="Close the night"))

    # the second phone joins by the club code and pays a line of the plan
    member = second_phone
    member.goto(live_server + "/")
    tap_and_wait(member, member.locator("#join-club"))
    axe["join a club"] = serious_violations(member)
    member.get_by_label("Club code").fill(code.lower())
    tap_and_wait(member, member.get_by_role("button", name="Join the club"))
    assert member.get_by_role("heading", name="Friday club").is_visible()
    assert member.locator("#club-share").count() == 0
    assert balances_shown(member) == {"Dee": "-$0.50", "Marcus": "-$0.50", "Rosa": "-$0.50", "Tomás": "+$1.50"}
    assert plan_shown(member) == ["Dee pays Tomás $0.50", "Marcus pays Tomás $0.50", "Rosa pays Tomás $0.50"]
    axe["club page, member"] = serious_violations(member)
    assert fits_at_double_text(member)
    member.locator("#club-pay-from").select_option("Dee")
    member.locator("#club-pay-to").select_option("Tomás")
    member.locator("#club-pay-amount").fill("0.50")
    tap_and_wait(member, member.get_by_role("button", name="Save the payment"))
    assert "Dee paid Tomás $0.50." in member.locator(".flashes").inner_text()
    assert plan_shown(member) == ["Marcus pays Tomás $0.50", "Rosa pays Tomás $0.50"]

    # more than Dee owes: asked first, recorded when confirmed
    member.locator("#club-pay-from").select_option("Dee")
    member.locator("#club-pay-to").select_option("Tomás")
    member.locator("#club-pay-amount").fill("0.25")
    tap_and_wait(member, member.get_by_role("button", name="Save the payment"))
    assert member.locator("#err-club-pay").inner_text() == "Dee owes the club nothing. Record $0.25 anyway?"
    assert member.locator("#club-pay-amount").input_value() == "0.25"
    axe["club page, overpayment question"] = serious_violations(member)
    tap_and_wait(member, member.get_by_role("button", name="Record it anyway"))
    assert balances_shown(member)["Dee"] == "+$0.25"
    assert member.locator("#club-payments-made button").count() == 0  # only the owner voids

    # the owner voids it; the balances go back
    owner.goto(live_server + "/")
    tap_and_wait(owner, owner.locator("#your-clubs a").first)
    owner.once("dialog", lambda dialog: dialog.accept())
    tap_and_wait(owner, owner.locator("#club-payments-made li").first.get_by_role("button"))
    assert balances_shown(owner) == {"Dee": "$0.00", "Marcus": "-$0.50", "Rosa": "-$0.50", "Tomás": "+$1.00"}
    assert owner.locator("#club-payments-made li").first.locator(".badge-void").count() == 1

    # the standings' period picker
    tap_and_wait(owner, owner.locator("#club-standings"))
    owner.get_by_label("The last nights").check()
    owner.get_by_label("How many nights").fill("1")
    tap_and_wait(owner, owner.get_by_role("button", name="Show these nights"))
    assert "period=last" in owner.url and "last=1" in owner.url
    assert "1 counted night" in owner.locator("#standings-counted").inner_text()
    first = owner.locator("#standings tbody tr").first
    assert (first.locator(".standing-name").inner_text(), first.locator(".standing-net").inner_text()) == (
        "Tomás", "+$1.50")
    assert owner.locator("#standings-chart li.multiple").count() == 4
    assert owner.get_by_label("How many nights").input_value() == "1"
    axe["standings"] = serious_violations(owner)
    assert fits_at_double_text(owner)
    owner.get_by_label("Between two dates").check()
    owner.get_by_label("From").fill((date.today() + timedelta(days=2)).isoformat())
    tap_and_wait(owner, owner.get_by_role("button", name="Show these nights"))
    assert "0 counted nights" in owner.locator("#standings-counted").inner_text()
    assert "No counted nights in this period yet." in owner.locator("#standings-chart").inner_text()

    assert axe == {name: [] for name in axe}
