"""A hand kept on a phone while the table changed (issue 20 items 1 and 2): the stake went up,
or the winner left, before the phone could send it. The kept hand is never recorded at the new
stake or for someone else: the queue says what changed, and "Fix and save" shows the hand at the
table as it is now, to be checked and saved again."""
from __future__ import annotations

from typing import Any

import pytest

from browser.test_offline import Wifi, go_offline, go_online, wait_until_offline_ready, wifi_server  # noqa: F401
from browser.test_phone_ui import pick_player
from conftest import session_body

pytestmark = pytest.mark.browser


def keep_tonk_out(page: Any, winner: str) -> None:
    """Offline: enter "``winner`` tonked out" and keep it on the phone."""
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tonk_out"]').tap()
    pick_player(page, winner)
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    page.wait_for_selector("#offline-queue .badge-waiting")
    assert page.locator("#offline-queue .badge-waiting").inner_text() == "1 waiting to send"


def host_table(page: Any, base: str, night_data: dict[str, Any]) -> tuple[str, dict[str, str]]:
    """A night at stake 0.25 started through the API, its table open on ``page`` through the
    host's link and ready to work offline: its API address and the host's headers (the host's
    other phone)."""
    created = page.request.post(f"{base}/api/v1/sessions", data=session_body(night_data)).json()
    page.goto(created["links"]["host"])
    page.goto(f"{base}/s/{created['id']}")
    wait_until_offline_ready(page)
    return f"{base}/api/v1/sessions/{created['id']}", {"Authorization": f"Bearer {created['token']}"}


def test_a_hand_kept_at_one_stake_is_not_recorded_at_the_next(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]  # noqa: F811
) -> None:
    base, wifi = wifi_server
    page = phone
    api, headers = host_table(page, base, night_data)  # stake 0.25
    go_offline(page, wifi)
    keep_tonk_out(page, "Rosa")
    # meanwhile the host, on another phone, raises the stake to 1.00 from the next hand
    wifi.up = True
    raised = page.context.request.post(f"{api}/stake", headers=headers, data={"stake": 100})
    assert raised.status == 200, raised.text()
    go_online(page, wifi)
    error = page.locator("#offline-queue .queue-item.is-refused .error")
    error.wait_for(timeout=20_000)
    assert error.inner_text() == (
        "The stake changed since this hand was entered: it was entered at 0.25 USD, and the stake is "
        "now 1.00 USD. Check the hand against the table as it is now and enter it again.")
    hands = page.context.request.get(f"{api}/hands", headers=headers).json()["hands"]
    assert hands == []  # nothing was recorded at 1.00 on the phone's behalf

    # "Fix and save": the hand at the table as it is now, its payouts at the stake now, and what changed
    with page.expect_navigation():
        page.get_by_role("link", name="Fix and save hand 1").tap()
    assert page.locator("#err-form").inner_text() == (
        "The stake changed since this hand was entered: it was entered at 0.25 USD, and the stake is "
        "now 1.00 USD. Check the hand against the table as it is now and enter it again.")
    assert page.locator(".preview-desc").inner_text() == "Rosa tonked out (2×)"
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Rosa won $6.00"
    hand = page.context.request.get(f"{api}/hands", headers=headers).json()["hands"][0]
    assert (hand["outcome"], hand["stake"]) == ({"kind": "tonk_out", "winner": "Rosa"}, 100)


def test_a_hand_kept_for_a_winner_who_left_asks_for_the_winner_again(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]  # noqa: F811
) -> None:
    base, wifi = wifi_server
    page = phone
    api, headers = host_table(page, base, night_data)
    go_offline(page, wifi)
    keep_tonk_out(page, "Marcus")
    wifi.up = True
    left = page.context.request.post(f"{api}/players/leave", headers=headers, data={"name": "Marcus"})
    assert left.status == 200, left.text()
    go_online(page, wifi)
    error = page.locator("#offline-queue .queue-item.is-refused .error")
    error.wait_for(timeout=20_000)
    assert error.inner_text() == (
        "The seating changed since this hand was entered: it was entered for Dee, Marcus, Rosa and Tomás, "
        "and the table is now Dee, Rosa and Tomás. Check the hand against the table as it is now and "
        "enter it again.")
    assert page.context.request.get(f"{api}/hands", headers=headers).json()["hands"] == []

    with page.expect_navigation():
        page.get_by_role("link", name="Fix and save hand 1").tap()
    # Marcus is no longer at the table: the hand asks who tonked out, among the three seated now
    assert page.locator("#err-form").inner_text().startswith("The seating changed since this hand was entered")
    assert [p.strip() for p in page.locator("label.pick").all_inner_texts()] == ["Dee", "Rosa", "Tomás"]
    pick_player(page, "Rosa")
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    assert page.locator(".preview-desc").inner_text() == "Rosa tonked out (2×)"
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Rosa won $1.00"
    hand = page.context.request.get(f"{api}/hands", headers=headers).json()["hands"][0]
    assert (hand["players"], hand["net"]) == (["Dee", "Rosa", "Tomás"], {"Dee": -50, "Rosa": 100, "Tomás": -50})
