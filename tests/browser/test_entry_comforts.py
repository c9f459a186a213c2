"""Entry comforts on a real Chromium phone at 390 px (issue 23 item 5): a total selects its
value when tapped, so typing "4" into "7" gives "4"; the deal tonk's card grid shows one suit
per row, ace to king, its 13 cards sharing the width (each at least 24 px wide, 44 px tall and
24 px apart centre to centre: WCAG 2.5.8), and the page never scrolls sideways."""
from __future__ import annotations

from typing import Any

import pytest

from browser.test_phone_ui import pick_player, start_night

pytestmark = pytest.mark.browser


def test_a_tapped_total_is_replaced_by_what_is_typed(phone: Any, live_server: str, night_data: dict[str, Any]) -> None:
    page = phone
    start_night(page, live_server, night_data, "0.25")
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="knock"]').tap()
    pick_player(page, "Dee")
    for seat, total in enumerate(("7", "6", "14", "20")):
        page.locator(f"#total-{seat}").fill(total)
    page.locator("#total-1").tap()
    page.locator("#total-0").tap()
    page.keyboard.type("4")
    assert page.locator("#total-0").input_value() == "4"
    # Enter ("next") moves on to the next total, selected too
    page.keyboard.press("Enter")
    page.keyboard.type("9")
    assert page.locator("#total-1").input_value() == "9"
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    assert "total-0=4&" in page.url and "total-1=9&" in page.url
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Dee won $0.75"


def test_the_deal_tonk_grid_shows_a_suit_per_row(phone: Any, live_server: str, night_data: dict[str, Any]) -> None:
    page = phone
    start_night(page, live_server, night_data, "0.25")
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="deal_tonk"]').tap()
    pick_player(page, "Rosa")
    with page.expect_navigation():
        page.get_by_role("button", name="Next: the hands").tap()
    rows = page.locator("#seat-2 .suit-row:not(.jokers)")
    assert rows.count() == 4
    tops = []
    for row in rows.all():
        boxes = [label.bounding_box() for label in row.locator("label.chip").all()]
        assert len(boxes) == 13
        assert len({round(b["y"]) for b in boxes}) == 1  # the whole suit on one line
        assert all(b["width"] >= 24 and b["height"] >= 44 for b in boxes), boxes
        xs = [b["x"] for b in boxes]
        assert all(after - before >= 24 for before, after in zip(xs, xs[1:]))  # in order, apart
        assert boxes[-1]["x"] + boxes[-1]["width"] <= 390
        tops.append(round(boxes[0]["y"]))
    assert tops == sorted(set(tops))  # four lines, one under the other
    assert [row.get_attribute("aria-label") for row in rows.all()] == ["spades", "hearts", "diamonds", "clubs"]
    assert page.locator("#seat-2 .suit-row").first.locator("label.chip").first.inner_text().split() == ["A", "♠"]
    assert page.evaluate("document.documentElement.scrollWidth") <= 390  # the page never scrolls sideways
    assert page.locator("#seat-2 .grid").first.evaluate("g => g.scrollWidth <= g.clientWidth")
    page.locator("#seat-2").screenshot(path="/tmp/deal-tonk-grid-390.png")
    for card in ("JC", "KC", "10H", "KD", "KH"):
        page.locator(f'label[for="c-2-{card}"]').tap()
        assert page.locator(f"#c-2-{card}").is_checked()
    assert page.locator('[data-tapped="2"]').inner_text().endswith("50 pts")
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Rosa won $1.50"


def test_a_tapped_tongits_points_field_is_replaced_by_what_is_typed(phone: Any, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/")
    page.locator("#field-game label.option").filter(has_text="Tong-its").tap()
    for i, name in enumerate(["Ligaya", "Dodong", "Marisol"]):
        page.locator(f"#player-{i}").fill(name)
    page.locator("#stake").fill("5")
    page.locator("#currency").select_option("PHP")
    with page.expect_navigation():
        page.get_by_role("button", name="Start the night").tap()
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="stock_out"]').tap()
    for seat, points in enumerate(("7", "12", "20")):
        page.locator(f"#total-{seat}").fill(points)
    page.locator("#total-1").tap()
    page.locator("#total-0").tap()
    page.keyboard.type("4")
    assert page.locator("#total-0").input_value() == "4"
    page.locator("#total-2").tap()
    page.keyboard.type("9")
    assert page.locator("#total-2").input_value() == "9"
