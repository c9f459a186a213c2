"""The hand history follows the night row by row in real Chromium (390×844): a phone showing
page 1 of a 51-hand night gets each new hand as one row at the top while the page keeps fifty,
and a hand voided on another phone is struck through in place, without a reload and without the
whole page being sent again."""
from __future__ import annotations

from typing import Any

import pytest

from conftest import session_body

pytestmark = pytest.mark.browser


def test_history_takes_new_and_voided_hands_row_by_row(
    phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    created = phone.request.post(f"{live_server}/api/v1/sessions", data=session_body(night_data))
    assert created.status == 201
    night = created.json()
    headers = {"Authorization": f"Bearer {night['token']}"}

    def record(index: int) -> None:
        hand = night_data["hands"][index % len(night_data["hands"])]
        answer = phone.request.post(f"{live_server}/api/v1/sessions/{night['id']}/hands", headers=headers,
                                    data={"outcome": hand["outcome"], "hands": hand["hands"]})
        assert answer.status == 201, answer.text()

    for index in range(51):
        record(index)
    answers: list[dict[str, Any]] = []
    phone.on("response", lambda r: answers.append(r.json()) if "/state" in r.url and r.status == 200 else None)
    phone.goto(f"{live_server}/join/{night['id']}/{night['player_token']}")
    phone.goto(f"{live_server}/s/{night['id']}/hands")
    phone.evaluate("window.__sameDocument = true")
    rows = "[data-live-rows] > li.hand"
    assert phone.locator(rows).count() == 50 and phone.locator(rows).first.get_attribute("id") == "hand-51"

    record(51)
    phone.wait_for_function("() => document.querySelector('[data-live-rows] > li.hand').id === 'hand-52'",
                            timeout=5_000)
    assert phone.locator(rows).count() == 50
    assert phone.locator("#hand-2").count() == 0 and phone.locator("#hand-3").count() == 1  # page 1: 3 to 52
    assert phone.locator(rows).nth(1).get_attribute("id") == "hand-51"

    voided = phone.request.post(f"{live_server}/api/v1/sessions/{night['id']}/hands/50/void", headers=headers)
    assert voided.status == 200
    phone.wait_for_function("() => document.querySelector('#hand-50.is-void') !== null", timeout=5_000)
    assert phone.locator(rows).count() == 50 and phone.locator(rows).nth(2).get_attribute("id") == "hand-50"
    assert phone.evaluate("window.__sameDocument") is True
    row_answers = [a for a in answers if "rows" in a]
    assert [[r["number"] for r in a["rows"]] for a in row_answers] == [[52], [50]]
    assert all("regions" not in a for a in row_answers)
    phone.screenshot(path="/tmp/tr-history-rows.png", full_page=True)
