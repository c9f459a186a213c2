"""A tonk out keeps its few taps, and the losers' cards can be entered too (collapsed,
optional): the rules engine checks them (duplicates across hands, card counts; RULES.md §9.1),
a refusal shows beside the field with everything typed kept, the payout does not change, and
the hand keeps the cards (its history row and the API show them)."""
from __future__ import annotations

import re
from typing import Any

import pytest

from browser.test_phone_ui import open_cards, pick_player, start_night

pytestmark = pytest.mark.browser


def tap_cards(page: Any, seat: int, cards: list[str]) -> None:
    for card in cards:
        page.locator(f'label[for="c-{seat}-{card}"]').tap()


def check_payouts(page: Any) -> None:
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()


def test_a_tonk_outs_losers_cards_are_checked_kept_and_shown(
    phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    page = phone
    start_night(page, live_server, night_data, "0.25")
    session_id = re.search(r"/s/([^/?#]+)", page.url).group(1)  # type: ignore[union-attr]
    token = page.locator("#table-link").input_value().rsplit("/", 1)[1]
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tonk_out"]').tap()
    pick_player(page, "Dee")
    other = page.locator("#other-hands")
    assert other.evaluate("d => d.open") is False  # collapsed: the outcome keeps its taps
    assert other.locator("summary").first.inner_text() == "Add the other hands’ cards (optional)"
    other.locator("summary").first.tap()
    assert page.locator("#seat-0").is_hidden()  # Dee went out: no hand of hers to enter
    assert [page.locator(f"#seat-{s} .hand-name").inner_text() for s in (1, 2, 3)] == ["Marcus", "Rosa", "Tomás"]

    # Marcus: six cards tapped (one too many); Rosa: typed, with Marcus's 3♥ in it
    open_cards(page, 1)
    tap_cards(page, 1, ["3H", "8S", "4H", "QC", "KD", "2C"])
    open_cards(page, 2)
    page.locator("#seat-2 details.typed summary").tap()
    page.locator("#typed-2").fill("9S 3H")
    check_payouts(page)
    # §9.1: a duplicate card is reported before a card count, beside Rosa's typed cards
    error = page.locator("#seat-2 #err-typed-2")
    assert error.inner_text() == "The 3♥ appears in Marcus's hand and in Rosa's hand; a deck has only one."
    assert page.locator("#error-summary").inner_text().startswith("Please check Rosa’s hand")
    assert page.locator("#other-hands").evaluate("d => d.open") is True
    # both grids with cards stay open (opening one by hand closes the others; the page does not)
    assert [page.locator(f"#cards-{s}").evaluate("d => d.open") for s in (1, 2, 3)] == [True, True, False]
    # everything typed is kept
    assert page.locator("input[name=who]:checked").get_attribute("value") == "0"
    assert page.locator("#typed-2").input_value() == "9S 3H"
    assert sorted(page.locator("#seat-1 .chip-input:checked").evaluate_all("xs => xs.map(x => x.value)")) == [
        "2C", "3H", "4H", "8S", "KD", "QC"]

    page.locator("#typed-2").fill("9S 9D")
    check_payouts(page)
    error = page.locator("#seat-1 #err-cards-1")
    assert error.inner_text() == "Marcus's hand shows 6 cards; at most 5 can be held at the end of a hand."
    assert page.locator("#typed-2").input_value() == "9S 9D"

    tap_cards(page, 1, ["2C"])  # untapped: five cards
    check_payouts(page)
    assert page.get_by_role("heading", name="Check payouts").is_visible()
    shown = page.locator(".preview ul.shown li")
    assert [" ".join(li.inner_text().split()) for li in shown.all()] == [
        "Marcus 8♠ 3♥ 4♥ K♦ Q♣ 35 pts", "Rosa 9♠ 9♦ 18 pts"]
    # the payout is the tonk out's: each other player pays Dee twice the stake
    assert page.locator(".preview ul.payments li").all_inner_texts() == [
        "Marcus pays Dee\n$0.50", "Rosa pays Dee\n$0.50", "Tomás pays Dee\n$0.50"]
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Dee won $1.50"

    # the hand keeps the cards: its row in the history, and the API
    page.goto(f"{live_server}/s/{session_id}/hands")
    cards = page.locator("#hand-1 .hand-cards li")
    assert [" ".join(li.inner_text().split()) for li in cards.all()] == ["Marcus 8♠ 3♥ 4♥ K♦ Q♣", "Rosa 9♠ 9♦"]
    hand = page.request.get(f"{live_server}/api/v1/sessions/{session_id}/hands",
                            headers={"Authorization": f"Bearer {token}"}).json()["hands"][0]
    assert hand["hands"] == {"Dee": {"cards": []}, "Marcus": {"cards": ["8S", "3H", "4H", "KD", "QC"]},
                             "Rosa": {"cards": ["9S", "9D"]}}
    assert hand["net"] == {"Dee": 150, "Marcus": -50, "Rosa": -50, "Tomás": -50}
