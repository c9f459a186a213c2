"""Removing a phone on real phones (issue 20 item 6): the host opens Phones, taps Remove on the
friend's phone, confirms, and the friend's phone no longer opens the night."""
from __future__ import annotations

from typing import Any

import pytest

from browser.test_phone_ui import start_night, tap_and_wait

pytestmark = pytest.mark.browser


def test_the_host_removes_a_friends_phone(phone: Any, second_phone: Any, live_server: str,
                                          night_data: dict[str, Any]) -> None:
    host, friend = phone, second_phone
    start_night(host, live_server, night_data, "0.25")
    friend.goto(host.locator("#table-link").input_value())
    table_url = friend.url.split("?")[0]
    assert friend.goto(table_url).status == 200

    tap_and_wait(host, host.get_by_role("link", name="Phones and co-hosts"))
    assert host.locator(".phone").count() == 2
    assert host.locator(".phone").nth(0).get_by_role("button", name="Remove", exact=False).count() == 0
    tap_and_wait(host, host.locator(".phone").nth(1).get_by_role("button", name="Remove", exact=False))
    assert host.locator("h1").inner_text().startswith("Remove ")
    tap_and_wait(host, host.locator("button.btn-danger"))
    assert host.locator(".flash").first.inner_text().endswith("was removed: it no longer opens this night.")
    assert host.locator(".phone").count() == 1
    assert friend.goto(table_url).status == 403
    host.goto(host.url.split("/phones")[0] + "/log")
    assert "removed from the night" in host.locator("main").inner_text()
