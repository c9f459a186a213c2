"""A Tong-its night entered on a 390 px phone (issue 21 item 4, TONGITS.md §4, §8): the game is
chosen first, then its preset; a tong-its win takes four taps from the table; a draw with a fight
and a fold and a stock out are entered with points typed per player; one hand is entered with
the Wi-Fi gone and recorded once when it returns. Every figure the pages must show comes from
the engine, scored from the pot and dealer the previous hand left; a second phone sees the pot
change on its table screen."""
from __future__ import annotations

import re
from typing import Any

import pytest

from browser.test_offline import Wifi, go_offline, go_online, wait_until_offline_ready, wifi_server  # noqa: F401
from browser.test_phone_ui import tap_and_wait
from ledger.games import game

pytestmark = pytest.mark.browser

PLAYERS = ["Ligaya", "Dodong", "Marisol"]
FIRST_DEALER = "Dodong"
STAKE_MINOR = 500
TONGITS = game("tongits")


def peso(minor: int) -> str:
    sign = "-" if minor < 0 else ""
    minor = abs(minor)
    return f"{sign}₱{minor // 100:,}.{minor % 100:02d}"


def recorded(number: int, result: Any) -> str:
    """The message a saved hand shows, from the engine's result: the winner's gain after their
    own ante, and the pot after the hand."""
    pot = peso(result.pot.balance_after)
    if result.winner is None:
        return f"Hand {number} recorded: nobody won; the pot is at {pot}"
    gain = result.net[result.winner]
    if gain > 0:
        return f"Hand {number} recorded: {result.winner} won {peso(gain)}; the pot is at {pot}"
    return f"Hand {number} recorded: {result.winner} won, and came out even after the ante; the pot is at {pot}"


class Night:
    """The engine's view of the night: the pot state and dealer each hand is scored from."""

    def __init__(self) -> None:
        self.rules = TONGITS.rules({"preset": "classic"})
        self.state = TONGITS.initial_state(self.rules)
        self.dealer = FIRST_DEALER
        self.net = {p: 0 for p in PLAYERS}

    def score(self, entry: dict[str, Any]) -> Any:
        result = TONGITS.score(self.rules, players=PLAYERS, stake_minor=STAKE_MINOR, dealer=self.dealer,
                               state=self.state, entry=entry)
        self.dealer = TONGITS.next_dealer(self.rules, PLAYERS, self.dealer, result)
        self.state = result.state
        for p in PLAYERS:
            self.net[p] += result.net[p]
        return result


def payments(result: Any) -> list[str]:
    out = []
    for t in result.transfers:
        words = (f"{t.payer} puts into the pot" if t.payee == "pot" else f"{t.payee} takes from the pot"
                 if t.payer == "pot" else f"{t.payer} pays {t.payee}")
        out.append(f"{words} {peso(t.amount_minor)}")
    return out


def shown_payments(page: Any) -> list[str]:
    return [re.sub(r"\s+", " ", t).strip() for t in page.locator("#preview-payments li").all_inner_texts()]


class Taps:
    """Counts the taps a person makes."""

    def __init__(self, page: Any) -> None:
        self.page, self.count = page, 0

    def tap(self, locator: Any, *, navigates: bool = False) -> None:
        self.count += 1
        if navigates:
            with self.page.expect_navigation():
                locator.tap()
        else:
            locator.tap()


def who(page: Any, name: str) -> Any:
    return page.locator("#field-who label.pick").filter(has=page.get_by_text(name, exact=True))


def answer(page: Any, seat: int, words: str) -> Any:
    return page.locator(f"#field-answer-{seat} label.pick").filter(has=page.get_by_text(words, exact=True))


def test_a_tongits_night_on_the_phone(phone: Any, second_phone: Any, wifi_server: tuple[str, Wifi]) -> None:  # noqa: F811
    base, wifi = wifi_server
    page = phone
    night = Night()

    # the game first, then its presets: Tonk's part goes away once Tong-its is chosen
    page.goto(base + "/")
    assert page.locator('input[name=game][value="tonk"]').is_checked()
    assert page.locator("#field-tongits-preset").is_hidden() and page.locator("#field-preset").is_visible()
    page.locator("#field-game label.option").filter(has_text="Tong-its").tap()
    assert page.locator("#field-tongits-preset").is_visible() and page.locator("#field-preset").is_hidden()
    assert page.locator("#house-rules").is_hidden()
    assert page.locator('input[name=tongits_preset][value="classic"]').is_checked()
    for i, name in enumerate(PLAYERS):
        page.locator(f"#player-{i}").fill(name)
    page.locator(".seat-row").nth(PLAYERS.index(FIRST_DEALER)).locator(".deal-first").tap()
    page.locator("#stake").fill("5")
    page.locator("#currency").select_option("PHP")
    tap_and_wait(page, page.get_by_role("button", name="Start the night"))
    session_id = re.search(r"/s/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    link = page.locator("#table-link").input_value()
    token = link.rsplit("/", 1)[1]
    page.goto(f"{base}/s/{session_id}")
    wait_until_offline_ready(page)
    assert page.locator("#pot .pot-line").inner_text() == "Pot: ₱0.00"
    assert page.locator("#pot .pot-streak").inner_text() == "Nobody holds a streak."
    watcher = second_phone
    watcher.goto(link)
    assert watcher.locator("#pot .pot-line").inner_text() == "Pot: ₱0.00"

    # Hand 1: Marisol goes out. Outcome, winner, "Check payouts", "Save hand": four taps.
    taps = Taps(page)
    taps.tap(page.locator('.quick-outcomes button[value="tongits"]'), navigates=True)
    assert page.get_by_role("heading", name="Tong-its").is_visible()
    taps.tap(who(page, "Marisol"))
    taps.tap(page.get_by_role("button", name="Check payouts"), navigates=True)
    expected = night.score({"outcome": {"kind": "tongits", "winner": "Marisol"}, "hands": {}})
    assert shown_payments(page) == payments(expected)
    assert page.locator("#preview-pot").get_attribute("data-pot-after") == str(expected.pot.balance_after)
    assert "Marisol holds the streak: 1 win in a row." in page.locator("#preview-pot").inner_text()
    taps.tap(page.get_by_role("button", name="Save hand"), navigates=True)
    assert taps.count <= 4
    assert page.locator(".flash").first.inner_text() == recorded(1, expected)
    assert page.locator("#pot .pot-line").inner_text() == f"Pot: {peso(night.state['balance'])}"
    # the other phone's table follows
    watcher.wait_for_selector(f'#pot[data-pot-balance="{night.state["balance"]}"]')
    assert watcher.locator("#pot .pot-streak").inner_text() == "Marisol holds the streak: 1 win in a row."

    # Hand 2: Dodong calls a draw; Ligaya fights (laban), Marisol folds; points typed.
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="draw"]').tap()
    who(page, "Dodong").tap()
    answer(page, 0, "Fights (laban)").tap()
    answer(page, 2, "Folds").tap()
    page.locator("#total-1").fill("9")
    page.locator("#total-0").fill("4")
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    expected = night.score({"outcome": {"kind": "draw", "caller": "Dodong",
                                        "responses": {"Ligaya": "fight", "Marisol": "fold"}},
                            "hands": {"Ligaya": {"total": 4}, "Dodong": {"total": 9}}})
    assert expected.winner == "Ligaya"
    assert page.locator(".preview-desc").first.inner_text() == "Dodong called a draw (laban); Ligaya won"
    assert shown_payments(page) == payments(expected)
    tap_and_wait(page, page.get_by_role("button", name="Save hand"))
    assert page.locator(".flash").first.inner_text() == recorded(2, expected)

    # Hand 3: the stock runs out; Marisol is lowest but showed no meld (sunog), so Dodong wins.
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="stock_out"]').tap()
    who(page, "Ligaya").tap()
    for seat, points in enumerate(("12", "7", "3")):
        page.locator(f"#total-{seat}").fill(points)
    page.locator("#field-burned label.pick").filter(has=page.get_by_text("Marisol", exact=True)).tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    expected = night.score({"outcome": {"kind": "stock_out", "last_drawer": "Ligaya"},
                            "hands": {"Ligaya": {"total": 12, "opened": True}, "Dodong": {"total": 7, "opened": True},
                                      "Marisol": {"total": 3, "opened": False}}})
    assert expected.winner == "Dodong"
    assert shown_payments(page) == payments(expected)
    assert page.locator("#preview-pot").get_attribute("data-pot-after") == str(expected.pot.balance_after)
    tap_and_wait(page, page.get_by_role("button", name="Save hand"))
    wait_until_offline_ready(page)  # the table's copies are fresh: the next hand is number 4

    # Hand 4, with the Wi-Fi gone: Dodong goes out; kept on the phone, sent when it returns.
    # the phone keeps the hand page's own script with the table's
    script = page.locator('script[src*="tongits-entry"]').get_attribute("src")
    assert page.evaluate("src => caches.match(src).then(Boolean)", script)
    go_offline(page, wifi)
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tongits"]').tap()
    who(page, "Dodong").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    assert page.url.endswith(f"/s/{session_id}")
    assert page.locator("#offline-queue .badge-waiting").inner_text() == "1 waiting to send"
    assert page.locator("#offline-queue .queue-head").all_inner_texts() == ["Hand 4 · Tong-its"]
    expected = night.score({"outcome": {"kind": "tongits", "winner": "Dodong"}, "hands": {}})
    go_online(page, wifi)
    page.wait_for_selector("#offline-queue", state="detached")
    assert page.locator("#queue-news").inner_text() == recorded(4, expected)

    body = page.context.request.get(f"{base}/api/v1/sessions/{session_id}",
                                    headers={"Authorization": f"Bearer {token}"}).json()
    assert body["hand_count"] == 4
    assert body["net"] == night.net
    assert body["pot"] == {"balance_minor": night.state["balance"], "holder": night.state["holder"],
                           "streak": night.state["streak"]}
    assert sum(body["net"].values()) + body["pot"]["balance_minor"] == 0
    watcher.wait_for_selector(f'#pot[data-pot-balance="{night.state["balance"]}"]')
    assert watcher.locator("#pot .pot-line").inner_text() == f"Pot: {peso(night.state['balance'])}"


def test_a_tongits_hand_without_javascript(phone_without_js: Any, live_server: str) -> None:
    """Every part shows without JavaScript: the game, both games' presets, the hand's page."""
    page = phone_without_js
    night = Night()
    page.goto(live_server + "/")
    assert page.locator("#field-tongits-preset").is_visible() and page.locator("#field-preset").is_visible()
    page.locator("#field-game label.option").filter(has_text="Tong-its").tap()
    for i, name in enumerate(PLAYERS):
        page.locator(f"#player-{i}").fill(name)
    page.locator(".seat-row").nth(PLAYERS.index(FIRST_DEALER)).locator(".deal-first").tap()
    page.locator("#stake").fill("5")
    page.locator("#currency").select_option("PHP")
    tap_and_wait(page, page.get_by_role("button", name="Start the night").last)
    session_id = re.search(r"/s/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    page.goto(f"{live_server}/s/{session_id}")
    tap_and_wait(page, page.locator('.quick-outcomes button[value="draw"]'))
    who(page, "Marisol").tap()
    assert page.locator("#field-answer-2").is_visible()  # no script to hide the caller's own row: ignored
    tap_and_wait(page, page.get_by_role("button", name="Check payouts"))
    expected = night.score({"outcome": {"kind": "draw", "caller": "Marisol",
                                        "responses": {"Ligaya": "fold", "Dodong": "fold"}}, "hands": {}})
    assert page.locator(".preview-desc").first.inner_text() == "Marisol called a draw (laban) and nobody fought"
    assert shown_payments(page) == payments(expected)
    tap_and_wait(page, page.get_by_role("button", name="Save hand"))
    assert page.locator(".flash").first.inner_text() == recorded(1, expected)
    assert page.locator("#pot .pot-line").inner_text() == f"Pot: {peso(night.state['balance'])}"
