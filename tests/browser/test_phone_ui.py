"""The phone UI in real Chromium at 390×844 with touch: start night-01's table from the home
page, tap the first six hands of the night into the record flow, and check that the table
screen and the JSON API agree with the night file."""
from __future__ import annotations

import re
from typing import Any

import pytest

from ledger.money import format_minor
from ledger.games.tonk import Card

pytestmark = pytest.mark.browser

FIRST_HANDS = 6


def signed(amount: int, currency: str) -> str:
    text = format_minor(amount, currency)
    return f"+{text}" if amount > 0 else text


def tap_and_wait(page: Any, locator: Any) -> None:
    """Tap something that submits a form or follows a link, and wait for the next page."""
    with page.expect_navigation():
        locator.tap()


def start_night(page: Any, base_url: str, night: dict[str, Any], stake: str) -> None:
    page.goto(base_url + "/")
    page.get_by_label("Name of the night").fill(night["name"])
    for i, name in enumerate(night["players"]):
        page.locator(f"#player-{i}").fill(name)
    dealer_seat = night["players"].index(night["first_dealer"])
    page.locator(".seat-row").nth(dealer_seat).locator(".deal-first").tap()
    page.locator("#stake").fill(stake)
    page.locator("#currency").select_option(night["currency"])
    assert page.locator('input[name=preset][value="classic"]').is_checked()
    tap_and_wait(page, page.get_by_role("button", name="Start the night"))


def open_cards(page: Any, seat: int) -> None:
    """Open a player's card grid ("Tap Dee's cards"): totals come first, cards are optional."""
    grid = page.locator(f"#cards-{seat}")
    if grid.count() and not grid.evaluate("d => d.open"):
        grid.locator("summary.cards-toggle").tap()


def pick_player(page: Any, name: str) -> None:
    page.locator("label.pick").filter(has=page.get_by_text(name, exact=True)).tap()


def table_balances(page: Any) -> dict[str, str]:
    out = {}
    for row in page.locator("ul.balances > li").all():
        name = row.locator(".balance-name").evaluate("n => n.firstChild.textContent.trim()")
        out[name] = row.locator(".balance-amount").inner_text().strip()
    return out


def enter_hand(page: Any, hand: dict[str, Any], players: list[str], currency: str) -> None:
    """Record one hand of a night file through the record flow, tapping every card."""
    outcome = hand["outcome"]
    kind = outcome["kind"]
    tap_and_wait(page, page.locator("#record-hand"))
    tap_and_wait(page, page.locator(f'button[name=kind][value="{kind}"]'))
    dealer_seat = str(players.index(hand["dealer"]))
    if kind == "deal_tonk":
        for name in outcome["claimants"]:
            pick_player(page, name)
    elif kind in ("tonk_out", "discard_out"):
        pick_player(page, outcome["winner"])
    elif kind == "knock":
        pick_player(page, outcome["knocker"])
    if kind != "dry_stock":
        assert page.locator("#dealer").input_value() == dealer_seat  # pre-filled: who deals next
    if kind == "deal_tonk":
        tap_and_wait(page, page.get_by_role("button", name="Next: the hands"))
    elif kind in ("tonk_out", "discard_out"):
        tap_and_wait(page, page.get_by_role("button", name="Check payouts"))
    if kind in ("deal_tonk", "knock", "dry_stock"):
        needed = outcome["claimants"] if kind == "deal_tonk" else players
        for name in needed:
            seat = players.index(name)
            entry = hand["hands"][name]
            points = 0
            if entry.get("cards"):
                open_cards(page, seat)
            for text in entry.get("cards", []):
                card = Card.parse(text)
                page.locator(f'label[for="c-{seat}-{card}"]').tap()
                assert page.locator(f"#c-{seat}-{card}").is_checked()
                points += card.points
            if entry.get("cards"):
                assert page.locator(f'[data-tapped="{seat}"]').inner_text().endswith(f"{points} pts")
            if "total" in entry and not entry.get("cards"):
                page.locator(f"#total-{seat}").fill(str(entry["total"]))
        if kind == "dry_stock":
            assert page.locator("#dealer").input_value() == dealer_seat
        tap_and_wait(page, page.get_by_role("button", name="Check payouts"))

    # The preview: who pays whom and each player's net, before anything is saved.
    assert page.get_by_role("heading", name="Check payouts").is_visible()
    expected = hand["expected"]
    payments = page.locator("ul.payments > li")
    assert payments.count() == len(expected["transfers"])
    for row, t in zip(payments.all(), expected["transfers"]):
        text = " ".join(row.inner_text().split())
        assert text == f"{t['from']} pays {t['to']} {format_minor(t['amount'], currency)}"
    shown = {
        li.locator(".balance-name").inner_text().strip(): li.locator(".balance-amount").inner_text().strip()
        for li in page.locator(".preview ul.balances > li").all()
    }
    assert shown == {p: signed(v, currency) for p, v in expected["net"].items()}
    tap_and_wait(page, page.get_by_role("button", name="Save hand"))


def test_first_hands_of_night_01_by_tapping_cards(
    phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    page = phone
    night = night_data
    players, currency = night["players"], night["currency"]
    stake = format_minor(night["stake"], currency).lstrip("$")
    assert stake == "0.25"
    start_night(page, live_server, night, stake)

    assert re.fullmatch(r".*/s/[^/?]+\?share=1", page.url)
    link = page.locator("#table-link").input_value()
    match = re.search(r"/join/([^/]+)/([^/]+)$", link)
    assert match, link
    session_id, token = match.groups()
    assert table_balances(page) == {p: format_minor(0, currency) for p in players}
    assert page.locator(".tag-dealer").locator("..").inner_text().startswith(night["first_dealer"])

    expected_net = {p: 0 for p in players}
    for number, hand in enumerate(night["hands"][:FIRST_HANDS], start=1):
        enter_hand(page, hand, players, currency)
        assert page.url.endswith(f"/s/{session_id}")
        assert page.locator(".flash").first.inner_text().startswith(f"Hand {number} recorded: ")
        for p, v in hand["expected"]["net"].items():
            expected_net[p] += v
        if number == 2:  # the record screen, mid-night, for a look
            page.locator("#record-hand").tap()
            page.wait_for_url(re.compile(r"/record$"))
            tap_and_wait(page, page.locator('button[name=kind][value="knock"]'))
            pick_player(page, "Rosa")
            for seat, cards in enumerate((["AS", "2D"], ["KH", "QH"], ["3C"], ["9C", "7S", "3H"])):
                open_cards(page, seat)
                for card in cards:
                    page.locator(f'label[for="c-{seat}-{card}"]').tap()
            page.locator("#seat-3").scroll_into_view_if_needed()
            page.screenshot(path="/tmp/ui-record.png")
            page.goto(f"{live_server}/s/{session_id}")

    assert table_balances(page) == {p: signed(v, currency) for p, v in expected_net.items()}
    assert expected_net == {"Dee": 175, "Marcus": -225, "Rosa": -225, "Tomás": 275}
    page.screenshot(path="/tmp/ui-table.png", full_page=True)

    response = page.request.get(
        f"{live_server}/api/v1/sessions/{session_id}", headers={"Authorization": f"Bearer {token}"}
    )
    assert response.status == 200
    body = response.json()
    assert body["net"] == expected_net
    assert body["hand_count"] == FIRST_HANDS
    assert body["next_dealer"] == night["hands"][FIRST_HANDS]["dealer"]


def test_duplicate_card_shows_the_error_beside_the_field_and_keeps_the_taps(
    phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    page = phone
    start_night(page, live_server, night_data, "0.25")
    tap_and_wait(page, page.locator("#record-hand"))
    tap_and_wait(page, page.locator('button[name=kind][value="knock"]'))
    pick_player(page, "Dee")

    open_cards(page, 0)
    page.locator('label[for="c-0-QD"]').tap()
    page.locator('label[for="c-0-3S"]').tap()
    assert page.locator('[data-tapped="0"]').inner_text().endswith("13 pts")
    # A card in Dee's hand cannot be tapped in Marcus's grid any more...
    assert page.locator("#c-1-QD").is_disabled()
    assert "taken" in (page.locator('label[for="c-1-QD"]').get_attribute("class") or "")
    open_cards(page, 1)
    page.locator('label[for="c-1-KH"]').tap()
    # ...but it can still be typed, and the engine refuses the duplicate.
    page.locator("#seat-1 .typed summary").tap()
    page.locator("#typed-1").fill("qd")
    page.locator("#total-2").fill("12")
    page.locator("#total-3").fill("20")
    tap_and_wait(page, page.get_by_role("button", name="Check payouts"))

    error = page.locator("#err-typed-1")
    assert error.is_visible()
    assert error.inner_text() == "The Q♦ appears in Dee's hand and in Marcus's hand; a deck has only one."
    assert page.locator("#seat-1").evaluate("(el, err) => el.contains(err)", error.element_handle())
    assert page.locator("#c-0-QD").is_checked() and page.locator("#c-0-3S").is_checked()
    assert page.locator("#c-1-KH").is_checked()
    assert page.locator("#typed-1").input_value() == "qd"
    assert page.locator("#total-2").input_value() == "12"
    page.locator("#seat-1").scroll_into_view_if_needed()
    page.screenshot(path="/tmp/ui-record-error.png")

    # Fix it: clear the typed card, check again, save.
    page.locator("#typed-1").fill("")
    tap_and_wait(page, page.get_by_role("button", name="Check payouts"))
    assert page.locator(".preview-desc").inner_text() == "Dee knocked with 13 and was caught by Marcus"
    tap_and_wait(page, page.get_by_role("button", name="Save hand"))
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Marcus won $1.00"


def test_works_without_javascript(
    phone_without_js: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    """Night-01 hand 2 (a dry stock) with JavaScript off: plain forms and server renders."""
    page = phone_without_js
    start_night(page, live_server, night_data, "0.25")
    assert page.locator("html.js").count() == 0
    hand = night_data["hands"][1]
    tap_and_wait(page, page.locator("#record-hand"))
    tap_and_wait(page, page.locator('button[name=kind][value="dry_stock"]'))
    for name in night_data["players"]:
        seat = night_data["players"].index(name)
        entry = hand["hands"][name]
        if entry.get("cards"):
            open_cards(page, seat)
        for text in entry.get("cards", []):
            page.locator(f'label[for="c-{seat}-{Card.parse(text)}"]').tap()
        if not entry.get("cards"):
            page.locator(f"#total-{seat}").fill(str(entry["total"]))
    assert page.locator('[data-tapped="0"]').inner_text() == ""  # the live count is JS only
    tap_and_wait(page, page.get_by_role("button", name="Check payouts"))
    assert page.locator(".preview-desc").inner_text() == "Dry stock: Tomás lowest with 4"
    tap_and_wait(page, page.get_by_role("button", name="Edit"))
    assert page.locator("#total-3").input_value() == "4"
    assert page.locator("#c-0-AH").is_checked() and page.locator("#c-2-8C").is_checked()
    tap_and_wait(page, page.get_by_role("button", name="Check payouts"))
    tap_and_wait(page, page.get_by_role("button", name="Save hand"))
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Tomás won $0.75"
    tap_and_wait(page, page.get_by_role("link", name="History"))
    tap_and_wait(page, page.get_by_role("button", name="Void hand 1"))
    assert page.get_by_role("heading", name="Void hand 1?").is_visible()  # the confirm page
    tap_and_wait(page, page.get_by_role("button", name="Void hand 1"))
    assert page.locator(".flash").first.inner_text() == "Hand 1 voided; it no longer counts."
    assert page.locator("#hand-1 .badge-void").inner_text().lower() == "void"
