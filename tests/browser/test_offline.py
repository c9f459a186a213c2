"""Offline-first at the table: the Wi-Fi goes (the server unreachable and the phone offline),
two hands are saved on the phone, and when the connection returns each is recorded exactly
once, in order, and shows on a second phone."""
from __future__ import annotations

import re
import threading
from typing import Any, Iterator

import pytest

from browser.test_phone_ui import start_night
from live_server import JoinedServer

pytestmark = pytest.mark.browser


class Wifi:
    """The app behind a switch: with the Wi-Fi down every request gets 503, as from a server
    the phone cannot reach."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.up = True

    def __call__(self, environ: Any, start_response: Any) -> Any:
        if not self.up:
            start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
            return [b"unreachable"]
        return self.app(environ, start_response)


@pytest.fixture
def wifi_server(app: Any) -> Iterator[tuple[str, Wifi]]:
    wifi = Wifi(app)
    server = JoinedServer(wifi)
    thread = threading.Thread(target=server.serve_forever, name="wifi-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", wifi
    finally:
        server.stop()
        thread.join(timeout=10)


# The service worker's first install fetches and keeps the app's files, many requests at once;
# it gets longer than other waits (20 s): the condition waited for is the same, only the patience
# is longer.
OFFLINE_READY_MS = 30_000


def wait_until_offline_ready(page: Any, *, controlled: bool = True) -> None:
    """Wait until the page says the phone can work offline (``data-offline-ready``), and, when
    ``controlled``, that the service worker controls the page."""
    condition = "document.documentElement.dataset.offlineReady === '1'"
    if controlled:
        condition += " && !!navigator.serviceWorker.controller"
    page.wait_for_function(condition, timeout=OFFLINE_READY_MS)


def table_ready_offline(page: Any, base: str, night_data: dict[str, Any]) -> str:
    """Start a night on ``page`` (stake 0.25), open its table and wait until the phone can work
    offline; returns the night's id."""
    start_night(page, base, night_data, "0.25")
    session_id = re.search(r"/s/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    page.goto(f"{base}/s/{session_id}")
    wait_until_offline_ready(page)
    return session_id


def go_offline(page: Any, wifi: Wifi) -> None:
    wifi.up = False
    page.context.set_offline(True)


def go_online(page: Any, wifi: Wifi) -> None:
    wifi.up = True
    page.context.set_offline(False)


def test_two_hands_saved_offline_are_recorded_once_each_when_back_online(
    phone: Any, second_phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]
) -> None:
    base, wifi = wifi_server
    page = phone
    start_night(page, base, night_data, "0.25")
    session_id = re.search(r"/s/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    token = page.locator("#table-link").input_value().rsplit("/", 1)[1]
    page.goto(f"{base}/s/{session_id}")
    wait_until_offline_ready(page)
    manifest = page.request.get(f"{base}/manifest.webmanifest").json()
    assert {icon["sizes"] for icon in manifest["icons"]} >= {"192x192", "512x512"}

    other = second_phone
    other.goto(page.locator("#table-link").input_value() if page.locator("#table-link").count() else
               f"{base}/join/{session_id}/{token}")
    assert other.locator("ul.balances").is_visible()

    go_offline(page, wifi)
    # Hand 1: a knock Dee won, by totals, on the entry page the phone kept.
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="knock"]').tap()
    assert page.get_by_role("heading", name="Knock (drop)").is_visible()
    page.locator("label.pick").filter(has=page.get_by_text("Dee", exact=True)).tap()
    for seat, total in enumerate(("3", "9", "14", "20")):
        page.locator(f"#total-{seat}").fill(total)
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    assert page.url.endswith(f"/s/{session_id}")  # back on the table, as last seen
    assert page.locator("#offline-queue .badge-waiting").inner_text() == "1 waiting to send"
    assert page.locator("[data-offline-note]").is_visible()
    # Hand 2: Rosa tonked out; the dealer moved on from hand 1's.
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tonk_out"]').tap()
    page.wait_for_function("document.getElementById('dealer').value === '0'")  # Tomás dealt hand 1, Dee deals 2
    page.locator("label.pick").filter(has=page.get_by_text("Rosa", exact=True)).tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    page.wait_for_selector("#offline-queue .badge-waiting")
    assert page.locator("#offline-queue .badge-waiting").inner_text() == "2 waiting to send"
    assert page.locator("#offline-queue .queue-head").all_inner_texts() == [
        "Hand 1 · Knock (drop)", "Hand 2 · Tonk out"]
    hands = page.context.request  # the API is unreachable too: nothing was recorded yet
    wifi.up = True
    assert other.request.get(f"{base}/api/v1/sessions/{session_id}/hands",
                             headers={"Authorization": f"Bearer {token}"}).json()["hands"] == []
    wifi.up = False

    go_online(page, wifi)
    page.wait_for_selector("#offline-queue", state="detached", timeout=20_000)
    assert page.locator("#queue-news li").all_inner_texts() == [  # one line per hand (issue 23 item 3)
        "Hand 1 recorded: Dee won $0.75", "Hand 2 recorded: Rosa won $1.50"]
    body = hands.get(f"{base}/api/v1/sessions/{session_id}/hands", headers={"Authorization": f"Bearer {token}"}).json()
    assert [(h["number"], h["outcome"]["kind"], h["dealer"]) for h in body["hands"]] == [
        (1, "knock", "Tomás"), (2, "tonk_out", "Dee")]
    # sending again (another page load) records nothing twice
    page.reload()
    wait_until_offline_ready(page, controlled=False)
    body = hands.get(f"{base}/api/v1/sessions/{session_id}", headers={"Authorization": f"Bearer {token}"}).json()
    assert body["hand_count"] == 2 and body["net"] == {"Dee": 25, "Marcus": -75, "Rosa": 125, "Tomás": -75}
    # and the other phone shows both
    other.wait_for_selector("#hand-2", timeout=15_000)
    assert other.locator("#hand-1").count() == 1


def test_a_hand_kept_offline_that_another_phone_recorded_first_comes_back_with_the_message(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]
) -> None:
    base, wifi = wifi_server
    page = phone
    start_night(page, base, night_data, "0.25")
    session_id = re.search(r"/s/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    token = page.locator("#table-link").input_value().rsplit("/", 1)[1]
    page.goto(f"{base}/s/{session_id}")
    wait_until_offline_ready(page)
    go_offline(page, wifi)
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="discard_out"]').tap()
    page.locator("label.pick").filter(has=page.get_by_text("Marcus", exact=True)).tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    # meanwhile another phone, still online, records hand 1
    wifi.up = True
    recorded = page.context.request.post(
        f"{base}/api/v1/sessions/{session_id}/hands", headers={"Authorization": f"Bearer {token}"},
        data={"outcome": {"kind": "tonk_out", "winner": "Dee"}, "number": 1})
    assert recorded.status == 201
    go_online(page, wifi)
    error = page.locator("#offline-queue .queue-item.is-refused .error")
    error.wait_for(timeout=20_000)
    assert error.inner_text() == "Hand 1 was already recorded by another phone; check it before entering again."
    assert page.locator("#offline-queue .badge-refused").inner_text() == "1 needs a look"
    # the entry is kept: "Fix and save" opens one screen: what the other phone recorded beside
    # this entry's payouts as hand 2, dealt by the next dealer (Dee, after Tomás dealt hand 1)
    with page.expect_navigation():
        page.get_by_role("link", name="Fix and save hand 1").tap()
    assert page.get_by_role("heading", name="Hand 1 is already recorded").is_visible()
    assert page.locator(".preview-desc").first.inner_text() == "Marcus went out by discard"
    with page.expect_navigation():
        page.get_by_role("button", name="Save as hand 2").tap()
    assert page.locator(".flash").first.inner_text() == "Hand 2 recorded: Marcus won $0.75"
    hands = page.context.request.get(f"{base}/api/v1/sessions/{session_id}/hands",
                                     headers={"Authorization": f"Bearer {token}"}).json()["hands"]
    assert [(h["number"], h["dealer"]) for h in hands] == [(1, "Tomás"), (2, "Dee")]


def test_a_deal_tonk_entered_offline_step_by_step_is_recorded_once(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]
) -> None:
    """Every step of an entry opens offline: the deal tonk's card page (after "Next: the
    hands") comes from the outcome's whole entry kept on the phone, filled in with what the
    first step chose."""
    base, wifi = wifi_server
    page = phone
    start_night(page, base, night_data, "0.25")
    session_id = re.search(r"/s/([^/?]+)", page.url).group(1)  # type: ignore[union-attr]
    token = page.locator("#table-link").input_value().rsplit("/", 1)[1]
    page.goto(f"{base}/s/{session_id}")
    wait_until_offline_ready(page)

    # Hand 1: the first step online, then the Wi-Fi goes before the cards
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="deal_tonk"]').tap()
    page.locator("label.pick").filter(has=page.get_by_text("Rosa", exact=True)).tap()
    go_offline(page, wifi)
    with page.expect_navigation():
        page.get_by_role("button", name="Next: the hands").tap()
    assert page.get_by_role("heading", name="Tonk on the deal").is_visible()
    assert page.locator('input[name=claimant][value="2"]').is_checked()
    assert page.locator("#dealer").input_value() == "3"  # Tomás deals hand 1, as the first step said
    assert [page.locator(f"#seat-{s}").is_visible() for s in range(4)] == [False, False, True, False]
    for card in ("JC", "KC", "10H", "KD", "KH"):
        page.locator(f'label[for="c-2-{card}"]').tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    assert page.url.endswith(f"/s/{session_id}")
    assert page.locator("#offline-queue .badge-waiting").inner_text() == "1 waiting to send"

    # Hand 2: offline from the start; the claimant's hand shows once ticked
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="deal_tonk"]').tap()
    page.wait_for_function("document.getElementById('dealer').value === '0'")  # Dee deals hand 2
    assert page.locator("#seat-0").is_hidden()
    page.locator("label.pick").filter(has=page.get_by_text("Dee", exact=True)).tap()
    assert page.locator("#seat-0").is_visible()
    for card in ("10S", "JS", "QS", "KS", "10C"):
        page.locator(f'label[for="c-0-{card}"]').tap()
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    page.wait_for_selector("#offline-queue .badge-waiting")
    assert page.locator("#offline-queue .badge-waiting").inner_text() == "2 waiting to send"
    assert page.locator("#offline-queue .queue-head").all_inner_texts() == [
        "Hand 1 · Tonk on the deal", "Hand 2 · Tonk on the deal"]

    go_online(page, wifi)
    page.wait_for_selector("#offline-queue", state="detached", timeout=20_000)
    assert page.locator("#queue-news li").all_inner_texts() == [  # one line per hand (issue 23 item 3)
        "Hand 1 recorded: Rosa won $1.50", "Hand 2 recorded: Dee won $1.50"]
    page.reload()  # sending again (another page load) records nothing twice
    wait_until_offline_ready(page, controlled=False)
    auth = {"Authorization": f"Bearer {token}"}
    hands = page.request.get(f"{base}/api/v1/sessions/{session_id}/hands", headers=auth).json()["hands"]
    assert [(h["number"], h["outcome"], h["dealer"], h["hands"]) for h in hands] == [
        (1, {"kind": "deal_tonk", "claimants": ["Rosa"]}, "Tomás", {"Rosa": {"cards": ["10H", "KH", "KD", "JC", "KC"]}}),
        (2, {"kind": "deal_tonk", "claimants": ["Dee"]}, "Dee", {"Dee": {"cards": ["10S", "JS", "QS", "KS", "10C"]}}),
    ]
    assert page.request.get(f"{base}/api/v1/sessions/{session_id}", headers=auth).json()["hand_count"] == 2


def test_the_table_kept_on_the_phone_is_marked_when_the_server_does_not_answer(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]
) -> None:
    """The phone still has its Wi-Fi but the server does not answer (503): after trying again,
    the service worker shows the kept table, marked as the last known state."""
    base, wifi = wifi_server
    page = phone
    session_id = table_ready_offline(page, base, night_data)
    assert page.locator("[data-offline-note]").is_hidden()
    wifi.up = False
    page.reload()
    assert page.locator("html").get_attribute("data-kept-copy") == ""
    assert page.evaluate("navigator.onLine") is True
    page.locator("[data-offline-note]").wait_for()
    assert page.locator("[data-offline-note]").inner_text().startswith("You are offline: this is the table as this phone last saw it")
    wifi.up = True
    page.reload()
    assert page.locator("html").get_attribute("data-kept-copy") is None
    assert page.locator("[data-offline-note]").is_hidden()


def test_a_page_opened_past_the_service_worker_is_taken_under_it_before_it_says_ready(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]
) -> None:
    """A page the service worker does not control (opened while the worker was still starting,
    or reloaded past it, as a hard reload does) asks the worker to take it, and says it can
    work offline only once it is taken: saving a hand offline then goes back to the table's
    kept copy, as on every other page."""
    base, wifi = wifi_server
    page = phone
    session_id = table_ready_offline(page, base, night_data)
    # a reload that bypasses the service worker: the page it gives is not controlled
    cdp = page.context.new_cdp_session(page)
    with page.expect_navigation():
        cdp.send("Page.reload", {"ignoreCache": True})
    cdp.detach()  # an open session of its own would keep the page's network as it was (online)
    wait_until_offline_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL") == f"{base}/sw.js"

    go_offline(page, wifi)
    try:
        with page.expect_navigation():
            page.locator('.quick-outcomes button[value="discard_out"]').tap()
        page.locator("label.pick").filter(has=page.get_by_text("Marcus", exact=True)).tap()
        with page.expect_navigation():
            page.get_by_role("button", name="Check payouts").tap()
        assert page.url.endswith(f"/s/{session_id}")  # back on the table, as last seen
        assert page.locator("#offline-queue .badge-waiting").inner_text() == "1 waiting to send"
    finally:
        go_online(page, wifi)
