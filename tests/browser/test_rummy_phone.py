"""A 13-card rummy night on a 390 px phone in Malayalam (issue 25, step 1 on the phone): the game is
chosen on the start form, the stake read as the rate of a point, and hand 1 of the shared night
(RUMMY13.md §10 #13, ``nights/night-01.json``) entered with points on the one-page rummy form; the
table then shows the engine's nets for it, and no page is wider than the phone."""
from __future__ import annotations

import json
import re
from typing import Any

import pytest

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
