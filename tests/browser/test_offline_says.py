"""Offline says what it does (issue 23 item 3), in real Chromium at 390 px: the phone goes
offline (``context.set_offline``, the server unreachable too), two hands are kept, the phone
comes back. Beside "Check payouts" the phone says the payouts come when the hand is sent, and
after keeping one the table says which hand was kept; the next entry is numbered after the hands
kept; the status reads "Offline" while offline and "Live" once back; the offline note goes
within a poll once the hands are sent; each hand's confirmation is a line of its own."""
from __future__ import annotations

from typing import Any

import pytest

from browser.test_offline import Wifi, go_offline, go_online, table_ready_offline, wifi_server  # noqa: F401

pytestmark = pytest.mark.browser

STATUS = "[data-live-status]"


def status_is(page: Any, text: str) -> None:
    page.wait_for_function("(want) => document.querySelector('[data-live-status]').textContent === want", arg=text)


def keep_a_tonk_out(page: Any, winner: str, number: int) -> None:
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tonk_out"]').tap()
    # the entry's own number comes after the hands kept
    page.wait_for_function("(n) => document.querySelector('p.step-count').textContent.startsWith(`Hand ${n} · `)",
                           arg=number)
    hint = page.locator("[data-offline-keep-hint]")
    assert hint.is_visible()
    assert hint.inner_text() == ("You are offline: this hand is kept on this phone, and its payouts are shown "
                                 "when it is sent.")
    page.locator("label.pick").filter(has=page.get_by_text(winner, exact=True)).tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()


def test_offline_the_phone_says_what_it_does(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]  # noqa: F811
) -> None:
    base, wifi = wifi_server
    page = phone
    session_id = table_ready_offline(page, base, night_data)
    status_is(page, "Live")
    assert page.locator("#quick-title").inner_text() == "Hand 1: how did it end?"

    go_offline(page, wifi)
    status_is(page, "Offline")  # at once, not after failed polls
    keep_a_tonk_out(page, "Dee", 1)
    assert page.url.endswith(f"/s/{session_id}")  # back on the table, as last seen
    status_is(page, "Offline")
    assert page.locator("#queue-news").inner_text() == (
        "Hand 1 is kept on this phone; its payouts are shown when it is sent.")
    page.wait_for_function("document.getElementById('quick-title').textContent === 'Hand 2: how did it end?'")
    assert page.locator("[data-offline-note]").is_visible()

    keep_a_tonk_out(page, "Rosa", 2)
    page.wait_for_function("document.getElementById('quick-title').textContent === 'Hand 3: how did it end?'")
    assert page.locator("#queue-news").inner_text() == (
        "Hand 2 is kept on this phone; its payouts are shown when it is sent.")
    assert page.locator("#offline-queue .badge-waiting").inner_text() == "2 waiting to send"
    status_is(page, "Offline")

    go_online(page, wifi)
    page.wait_for_selector("#offline-queue", state="detached")
    assert page.locator("#queue-news li").all_inner_texts() == [
        "Hand 1 recorded: Dee won $1.50", "Hand 2 recorded: Rosa won $1.50"]
    # the page asks the server at once: the note goes, the status is live, the next hand is 3
    page.wait_for_selector("[data-offline-note]", state="hidden")
    status_is(page, "Live")
    assert page.evaluate("document.documentElement.hasAttribute('data-kept-copy')") is False
    assert page.locator("#quick-title").inner_text() == "Hand 3: how did it end?"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # online, the record page says nothing of keeping
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tonk_out"]').tap()
    assert page.locator("[data-offline-keep-hint]").is_hidden()
    assert page.locator("p.step-count").text_content().startswith("Hand 3 · ")
