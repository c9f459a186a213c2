"""Table comforts on a real Chromium phone: the screen stays awake while a night is open
(Screen Wake Lock), a save buzzes the phone (navigator.vibrate), and after a correction its
message is on screen beside the corrected hand.

Nothing is stubbed: an init script wraps the browser's own ``navigator.wakeLock.request`` and
``navigator.vibrate`` so that each call is written down and then made for real; the page's
``data-wake-lock`` attribute says the real lock is held."""
from __future__ import annotations

import re
from typing import Any

import pytest

from browser.test_phone_ui import pick_player, start_night

pytestmark = pytest.mark.browser

RECORD_CALLS = """
window.__calls = [];
if (navigator.wakeLock) {
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => { window.__calls.push(["wakeLock", type]); return request(type); };
}
if (navigator.vibrate) {
  const vibrate = navigator.vibrate.bind(navigator);
  navigator.vibrate = (pattern) => { window.__calls.push(["vibrate", pattern]); return vibrate(pattern); };
}
"""


def calls(page: Any) -> list[list[Any]]:
    return page.evaluate("window.__calls")


def session_of(page: Any) -> str:
    return re.search(r"/s/([^/?#]+)", page.url).group(1)  # type: ignore[union-attr]


def save_tonk_out(page: Any, winner: str) -> None:
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tonk_out"]').tap()
    pick_player(page, winner)
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()


def test_the_screen_stays_awake_while_the_night_is_open(
    phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    page = phone
    page.add_init_script(RECORD_CALLS)
    start_night(page, live_server, night_data, "0.25")
    page.wait_for_function("document.documentElement.dataset.wakeLock === 'on'")  # the real lock is held
    assert calls(page) == [["wakeLock", "screen"]]
    session_id = session_of(page)

    # every page of the open night keeps it (here the history)
    page.goto(f"{live_server}/s/{session_id}/hands")
    page.wait_for_function("document.documentElement.dataset.wakeLock === 'on'")
    assert calls(page) == [["wakeLock", "screen"]]

    # once the night is closed, the screen may sleep again
    page.goto(f"{live_server}/s/{session_id}/settle")
    page.once("dialog", lambda dialog: dialog.accept())
    with page.expect_navigation():
        page.get_by_role("button", name="Close the night").tap()
    page.goto(f"{live_server}/s/{session_id}")
    assert page.locator("body").get_attribute("data-night-status") == "closed"
    page.wait_for_function("document.readyState === 'complete'")
    assert calls(page) == []
    assert page.evaluate("document.documentElement.dataset.wakeLock") is None


def test_a_save_buzzes_the_phone(phone: Any, live_server: str, night_data: dict[str, Any]) -> None:
    page = phone
    page.add_init_script(RECORD_CALLS)
    start_night(page, live_server, night_data, "0.25")
    assert ["vibrate", 40] not in calls(page)  # starting a night is not a save
    save_tonk_out(page, "Dee")
    assert page.locator(".flash").first.inner_text() == "Hand 1 recorded: Dee won $1.50"
    page.wait_for_function("window.__calls.some(c => c[0] === 'vibrate')")
    assert [c for c in calls(page) if c[0] == "vibrate"] == [["vibrate", 40]]
    page.reload()  # the same table again, nothing saved: no buzz
    page.wait_for_function("document.documentElement.dataset.wakeLock === 'on'")
    assert [c for c in calls(page) if c[0] == "vibrate"] == []


def test_after_a_correction_its_message_is_on_screen(
    phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    page = phone
    start_night(page, live_server, night_data, "0.25")
    session_id = session_of(page)
    token = page.locator("#table-link").input_value().rsplit("/", 1)[1]
    auth = {"Authorization": f"Bearer {token}"}
    for winner in ("Dee", "Marcus", "Rosa", "Tomás") * 4:
        response = page.request.post(f"{live_server}/api/v1/sessions/{session_id}/hands", headers=auth,
                                     data={"outcome": {"kind": "tonk_out", "winner": winner}})
        assert response.status == 201
    # the host corrects hand 9 (Dee's), in the middle of a long history (newest first)
    page.goto(f"{live_server}/s/{session_id}/hands")
    with page.expect_navigation():
        page.locator("#hand-9").get_by_role("link", name="Correct").tap()
    with page.expect_navigation():
        page.locator('button[name=kind][value="discard_out"]').tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Save correction to hand 9").tap()
    assert page.url.endswith(f"/s/{session_id}/hands#hand-9")
    flash = page.locator(".flash").first
    assert flash.inner_text() == "Hand 9 corrected (version 2): Dee won $0.75"
    assert page.evaluate("document.documentElement.scrollHeight") > 2 * 844  # the top is out of reach
    page.wait_for_function("window.scrollY > 0")
    # in the viewport, below the sticky bar, and not covered by anything
    assert flash.evaluate("""el => {
        const box = el.getBoundingClientRect();
        const bar = document.querySelector('.bar').getBoundingClientRect();
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return box.top >= bar.bottom && box.bottom <= window.innerHeight && el.contains(hit);
    }""") is True
