"""A 13-card rummy night on a 390 px phone in Malayalam (issue 25, step 1 on the phone): the game is
chosen on the start form, the stake read as the rate of a point, and hand 1 of the shared night
(RUMMY13.md §10 #13, ``nights/night-01.json``) entered with points on the one-page rummy form; the
table then shows the engine's nets for it, and no page is wider than the phone. A loser's cards are
tapped on the card grid (two printed jokers, a card twice from the two decks), on line and kept
offline."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

from browser.test_offline import Wifi, go_offline, go_online, wait_until_offline_ready, wifi_server  # noqa: F401
from browser.test_phone_ui import tap_and_wait
from tests.conftest import TESTS

pytestmark = pytest.mark.browser

NIGHT = json.loads((TESTS / "nights" / "rummy13" / "night-01.json").read_text(encoding="utf-8"))


def rupees(minor: int) -> str:
    sign = "-" if minor < 0 else "+" if minor > 0 else ""
    return f"{sign}₹{abs(minor) // 100:,}.{abs(minor) % 100:02d}"


def fits_the_phone(page: Any) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_rummy_night_on_the_phone_in_malayalam(phone: Any, live_server: str) -> None:
    page = phone
    page.goto(f"{live_server}/language/ml?next=/")
    page.locator('#field-game input[name=game][value="rummy13"]').check()
    assert page.locator("#field-rummy-preset").is_visible() and page.locator("#field-tongits-preset").is_hidden()
    assert page.locator('input[name=rummy_preset][value="points_rummy"]').is_checked()
    for i, name in enumerate(NIGHT["players"]):
        page.locator(f"#player-{i}").fill(name)
    page.locator(".seat-row").nth(NIGHT["players"].index(NIGHT["first_dealer"])).locator(".deal-first").tap()
    page.locator("#stake").fill("0.50")
    page.locator("#currency").select_option("INR")
    assert fits_the_phone(page)
    tap_and_wait(page, page.locator('button.btn-hero[name=go][value=start]'))
    session_id = re.search(r"/s/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    page.goto(f"{live_server}/s/{session_id}")
    tap_and_wait(page, page.locator('.quick-outcomes button[value="show"]'))
    assert page.locator('input[name=kind][value="show"]').is_checked()
    assert page.locator("legend").first.inner_text().strip() != "How did the hand end?"  # in Malayalam
    assert fits_the_phone(page)

    page.locator("#winner").select_option("Anoop")
    page.locator("#wild_rank").select_option("7")
    seat = {name: i for i, name in enumerate(NIGHT["players"])}
    page.locator(f'select[name="result-{seat["Bindu"]}"]').select_option("lost")
    page.locator(f'input[name="points-{seat["Bindu"]}"]').fill("50")
    page.locator(f'select[name="result-{seat["Chacko"]}"]').select_option("first_drop")
    page.locator(f'select[name="result-{seat["Devi"]}"]').select_option("lost")
    page.locator(f'input[name="points-{seat["Devi"]}"]').fill("23")
    tap_and_wait(page, page.locator("#rummy-form button[type=submit]"))

    expected = NIGHT["hands"][0]["expected"]["net"]
    shown = {page.locator(".balance .balance-name").nth(i).evaluate("e => e.firstChild.textContent.trim()"):
             page.locator(".balance .balance-amount").nth(i).inner_text().strip()
             for i in range(len(NIGHT["players"]))}
    assert shown == {name: rupees(amount) for name, amount in expected.items()}
    assert fits_the_phone(page)


# Bindu lost holding two printed jokers and both decks' king of hearts (wild rank 2: no other wild
# card). Best arrangement (RUMMY13.md §3.5): 3♣4♣5♣ pure, 8♥9♥+JK and J♦Q♦+JK impure; left K♥ K♥
# 6♠ A♣ = 10 + 10 + 6 + 10 = 36 points (a set never holds one card twice, §3.2).
BINDU = "3C 4C 5C 8H 9H JK JK KH KH QD JD 6S AC".split()
CARDS_HAND_NET = {"Anoop": 50 * (36 + 20 + 23), "Bindu": -50 * 36, "Chacko": -50 * 20, "Devi": -50 * 23}


def open_rummy_night(page: Any, base: str) -> dict[str, Any]:
    """A points-rummy night at ₹0.50 a point opened through the API; the page holds its host link."""
    body = {k: NIGHT[k] for k in ("name", "players", "first_dealer")} | {
        "game": "rummy13", "currency": "INR", "stake": 50, "ruleset": {"preset": "points_rummy"}}
    created = page.request.post(f"{base}/api/v1/sessions", data=body)
    assert created.status == 201, created.text()
    night = created.json()
    page.goto(f"{base}/join/{night['id']}/{night['token']}")
    return night


def enter_cards_hand(page: Any) -> None:
    """Hand 1 on the rummy page: Anoop shows, Bindu's cards tapped on the grid, Chacko drops first,
    Devi counts 23."""
    seat = {name: i for i, name in enumerate(NIGHT["players"])}
    page.locator("#winner").select_option("Anoop")
    page.locator("#wild_rank").select_option("2")
    page.locator(f'select[name="result-{seat["Bindu"]}"]').select_option("lost")
    cards = page.locator(".rummy-cards").nth(seat["Bindu"])
    cards.locator("summary").tap()
    for card in BINDU:
        cards.locator(f'button[data-card="{card}"]').tap()
    page.locator(f'select[name="result-{seat["Chacko"]}"]').select_option("first_drop")
    page.locator(f'select[name="result-{seat["Devi"]}"]').select_option("lost")
    page.locator(f'input[name="points-{seat["Devi"]}"]').fill("23")


def test_a_losers_cards_with_two_jokers_on_the_grid_in_malayalam(phone: Any, live_server: str) -> None:
    page = phone
    night = open_rummy_night(page, live_server)
    page.goto(f"{live_server}/language/ml?next=/s/{night['id']}/record%3Fkind%3Dshow")
    assert page.locator("html").get_attribute("lang") == "ml"
    enter_cards_hand(page)
    bindu = page.locator(".rummy-cards").nth(NIGHT["players"].index("Bindu"))
    assert bindu.locator(".rummy-card-field").input_value() == " ".join(BINDU)
    # two decks: the second joker and the second king of hearts are the last of them
    for card in ("JK", "KH"):
        chip = bindu.locator(f'button[data-card="{card}"]')
        assert chip.is_disabled() and chip.locator(".chip-count").inner_text() == "×2"
    assert not bindu.locator('button[data-card="QH"]').is_disabled()
    assert fits_the_phone(page)  # the grid open, at 390 px
    bindu.locator("button[data-undo]").tap()  # the last card taken back, and tapped again
    assert not bindu.locator('button[data-card="AC"]').locator(".chip-count").inner_text()
    bindu.locator('button[data-card="AC"]').tap()
    tap_and_wait(page, page.locator("#rummy-form button[type=submit]"))
    assert page.url.endswith(f"/s/{night['id']}")
    shown = {page.locator(".balance .balance-name").nth(i).evaluate("e => e.firstChild.textContent.trim()"):
             page.locator(".balance .balance-amount").nth(i).inner_text().strip()
             for i in range(len(NIGHT["players"]))}
    assert shown == {name: rupees(amount) for name, amount in CARDS_HAND_NET.items()}
    hand = page.request.get(f"{live_server}/api/v1/sessions/{night['id']}/hands/1",
                            headers={"Authorization": f"Bearer {night['token']}"}).json()
    assert hand["points"]["Bindu"] == 36 and hand["hands"]["Bindu"]["cards"] == BINDU
    assert fits_the_phone(page)


def test_a_rummy_hand_kept_offline_is_recorded_once_when_back_online(
        phone: Any, wifi_server: tuple[str, Wifi]) -> None:
    base, wifi = wifi_server
    page = phone
    night = open_rummy_night(page, base)
    page.goto(f"{base}/language/ml?next=/s/{night['id']}")
    wait_until_offline_ready(page)
    go_offline(page, wifi)
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="show"]').tap()
    assert page.locator("#rummy-form").is_visible()  # the entry page the phone kept
    enter_cards_hand(page)  # the grid's script came with the kept page: the taps fill the field
    assert page.locator(".rummy-card-field").nth(1).input_value() == " ".join(BINDU)
    with page.expect_navigation():
        page.locator("#rummy-form button[type=submit]").tap()
    assert page.url.endswith(f"/s/{night['id']}")  # back on the table, as last seen
    page.wait_for_selector("#offline-queue .badge-waiting")
    wifi.up = True  # the API answers again, the phone is still offline: nothing was recorded yet
    auth = {"Authorization": f"Bearer {night['token']}"}
    assert page.context.request.get(f"{base}/api/v1/sessions/{night['id']}/hands", headers=auth).json()["hands"] == []
    go_online(page, wifi)
    page.wait_for_selector("#offline-queue", state="detached", timeout=20_000)
    body = page.context.request.get(f"{base}/api/v1/sessions/{night['id']}", headers=auth).json()
    assert body["hand_count"] == 1 and body["net"] == CARDS_HAND_NET
    page.reload()  # sending again (another page load) records nothing twice
    wait_until_offline_ready(page, controlled=False)
    assert page.context.request.get(f"{base}/api/v1/sessions/{night['id']}", headers=auth).json()["hand_count"] == 1
    assert fits_the_phone(page)


def test_without_javascript_the_cards_are_typed(phone_without_js: Any, live_server: str) -> None:
    page = phone_without_js
    night = open_rummy_night(page, live_server)
    page.goto(f"{live_server}/s/{night['id']}/record?kind=show")
    bindu = page.locator(".rummy-cards").nth(1)
    bindu.locator("summary").tap()
    assert bindu.locator(".rummy-card-field").is_visible() and bindu.locator(".rummy-grid").is_hidden()
    page.locator("#winner").select_option("Anoop")
    page.locator("#wild_rank").select_option("2")
    bindu.locator(".rummy-card-field").fill(" ".join(BINDU).lower())
    page.locator('select[name="result-2"]').select_option("first_drop")
    page.locator('input[name="points-3"]').fill("23")
    tap_and_wait(page, page.locator("#rummy-form button[type=submit]"))
    body = page.request.get(f"{live_server}/api/v1/sessions/{night['id']}",
                            headers={"Authorization": f"Bearer {night['token']}"}).json()
    assert body["net"] == CARDS_HAND_NET
