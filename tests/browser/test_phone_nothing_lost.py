"""The "nothing lost" issue in real Chromium at 390×844: the start form seats everyone the
rules allow (finding 8), and every page fits the phone's width with long names (finding 9)."""
from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

SIX = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


def tap_and_wait(page: Any, locator: Any) -> None:
    with page.expect_navigation():
        locator.tap()


def table_players(page: Any) -> list[str]:
    return [row.locator(".balance-name").evaluate("n => n.firstChild.textContent.trim()")
            for row in page.locator("ul.balances > li").all()]


# -- finding 8 ----------------------------------------------------------------------------------------
def test_finding_8_start_form_with_javascript_adds_seats_in_place_and_seats_six(phone: Any, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/")
    assert page.locator("[data-seat-row]").count() == 4
    page.get_by_label("Name of the night").fill("Big table")
    for i, name in enumerate(SIX[:4]):
        page.locator(f"#player-{i}").fill(name)
    url = page.url
    page.get_by_role("button", name="Add a seat").tap()
    assert page.url == url and page.locator("[data-seat-row]").count() == 5  # in place, no page load
    assert page.locator("#player-4").evaluate("n => n === document.activeElement")
    assert [page.locator(f"#player-{i}").input_value() for i in range(4)] == SIX[:4]  # nothing typed lost
    assert page.get_by_text("Seat 5", exact=True).is_visible()
    # the house rules allow 8: the form offers 8 seats
    page.locator("#house-rules > summary").tap()
    page.locator("#rule-max_players").fill("8")
    page.wait_for_function("document.querySelectorAll('[data-seat-row]').length === 8")
    assert not page.get_by_role("button", name="Add a seat").is_visible()  # no rules seat a ninth
    page.locator("#player-4").fill(SIX[4])
    page.locator("#player-6").fill(SIX[5])  # a blank seat between names is skipped
    page.locator("[data-seat-row]").nth(6).locator(".deal-first").tap()
    page.locator("#stake").fill("0.25")
    tap_and_wait(page, page.get_by_role("button", name="Start the night"))
    assert re.search(r"/s/[^/?]+\?share=1$", page.url), page.url
    assert table_players(page) == SIX


def test_finding_8_start_form_without_javascript_adds_a_seat_keeping_what_was_typed(
    phone_without_js: Any, live_server: str
) -> None:
    page = phone_without_js
    page.goto(live_server + "/")
    page.get_by_label("Name of the night").fill("Big table")
    for i, name in enumerate(SIX[:4]):
        page.locator(f"#player-{i}").fill(name)
    page.locator("#stake").fill("0.25")
    tap_and_wait(page, page.get_by_role("button", name="Add a seat"))
    assert page.locator("[data-seat-row]").count() == 5
    assert [page.locator(f"#player-{i}").input_value() for i in range(4)] == SIX[:4]
    assert page.get_by_label("Name of the night").input_value() == "Big table"
    page.locator("#player-4").fill(SIX[4])
    # classic seats at most 4: refused beside the seats, every name kept
    tap_and_wait(page, page.get_by_role("button", name="Start the night"))
    assert page.locator("#err-players").inner_text().startswith("These rules seat at most 4 players and 5 names")
    assert [page.locator(f"#player-{i}").input_value() for i in range(5)] == SIX[:5]
