"""Two phones at one table, in real Chromium at 390×844: the host starts night-01 and shows the
table code; a second phone joins by typing it on /join. A hand recorded on one phone appears on
the other without a reload; a double tap on "Save hand" records one hand; a hand the host voids
shows struck through on both phones. Screenshots go to /tmp/tr-*.png."""
from __future__ import annotations

import re
from typing import Any

import pytest

from browser.test_phone_ui import enter_hand, pick_player, start_night, table_balances, tap_and_wait
from ledger.money import format_minor

pytestmark = pytest.mark.browser

LIVE_WITHIN_MS = 5_000


def api(page: Any, base: str, path: str, token: str) -> Any:
    response = page.request.get(f"{base}/api/v1/sessions{path}", headers={"Authorization": f"Bearer {token}"})
    assert response.status == 200
    return response.json()


def struck(page: Any, number: int) -> bool:
    """Whether hand ``number`` is shown voided and its description struck through."""
    row = page.locator(f"#hand-{number}")
    if "is-void" not in (row.get_attribute("class") or ""):
        return False
    line = row.locator(".hand-desc").first.evaluate("n => getComputedStyle(n).textDecorationLine")
    return "line-through" in line


def wait_until(page: Any, script: str, arg: Any = None) -> None:
    page.wait_for_function(script, arg=arg, timeout=LIVE_WITHIN_MS)


def test_two_phones_follow_one_night(
    phone: Any, second_phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    host, player = phone, second_phone
    players, currency = night_data["players"], night_data["currency"]
    start_night(host, live_server, night_data, "0.25")
    session_id = re.search(r"/s/([^/?]+)", host.url).group(1)  # type: ignore[union-attr]

    # The host's share panel: QR code, the code in big type, the players' link.
    assert host.locator("details#share").get_attribute("open") is not None
    assert host.locator("figure.qr svg.qr-svg").first.is_visible()
    code = host.locator("#table-code").get_attribute("data-code") or ""
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    assert host.locator("#table-code").inner_text() == f"{code[:3]} {code[3:]}"
    qr_box = host.locator("figure.qr").first.bounding_box()
    assert qr_box and qr_box["width"] >= 250  # big enough to scan across a table
    player_token = host.locator("#table-link").input_value().rsplit("/", 1)[1]
    host.screenshot(path="/tmp/tr-share.png", full_page=True)

    # The second phone types the code, as read aloud, on the join page.
    player.goto(live_server + "/join")
    player.locator("#code").fill(f"{code[:3].lower()} {code[3:].lower()}")
    player.locator("#name").fill("Rosa")
    player.screenshot(path="/tmp/tr-join.png")
    tap_and_wait(player, player.get_by_role("button", name="Join"))
    assert player.url == f"{live_server}/s/{session_id}"
    assert player.locator(".flash").first.inner_text() == f"You joined {night_data['name']}."
    assert player.locator("[data-live-refresh]").is_hidden()  # live, so no Refresh link needed
    assert player.locator("[data-live-status]").inner_text() == "Live"

    # A hand tapped in on the player's phone shows on the host's table, with no reload.
    host.goto(f"{live_server}/s/{session_id}")
    host.evaluate("window.__sameDocument = true")
    enter_hand(player, night_data["hands"][0], players, currency)
    expected = {p: format_minor(v, currency) for p, v in night_data["hands"][0]["expected"]["net"].items()}
    expected = {p: f"+{t}" if night_data["hands"][0]["expected"]["net"][p] > 0 else t for p, t in expected.items()}
    wait_until(host, "n => document.querySelector('#hand-1') !== null")
    assert host.evaluate("window.__sameDocument") is True
    assert table_balances(host) == expected
    assert host.locator(".live-news").inner_text() == "Hand 1 recorded: Tomás tonked out (2×)"
    host.screenshot(path="/tmp/tr-host-live.png", full_page=True)

    # A double tap on "Save hand" records one hand.
    hand = night_data["hands"][2]  # Tomás tonks out, Marcus deals
    tap_and_wait(player, player.locator("#record-hand"))
    tap_and_wait(player, player.locator(f'button[name=kind][value="{hand["outcome"]["kind"]}"]'))
    pick_player(player, hand["outcome"]["winner"])
    player.locator("#dealer").select_option(str(players.index(hand["dealer"])))
    tap_and_wait(player, player.get_by_role("button", name="Check payouts"))
    save = player.get_by_role("button", name="Save hand")
    with player.expect_navigation():
        save.dblclick()
    assert player.locator(".flash").first.inner_text().startswith("Hand 2 recorded")
    assert api(player, live_server, f"/{session_id}", player_token)["hand_count"] == 2
    wait_until(host, "n => document.querySelector('#hand-2') !== null")

    # Two copies of one form sent at the same instant (no JavaScript guard involved): still one.
    tap_and_wait(player, player.locator("#record-hand"))
    tap_and_wait(player, player.locator('button[name=kind][value="discard_out"]'))
    pick_player(player, "Rosa")
    tap_and_wait(player, player.get_by_role("button", name="Check payouts"))
    statuses = player.evaluate("""async () => {
        const button = document.querySelector('button[name=go][value=save]');
        const send = () => { const data = new FormData(button.form); data.set('go', 'save');
            return fetch(button.form.action, {method: 'POST', body: data, redirect: 'manual'}); };
        const answers = await Promise.all([send(), send()]);
        return answers.map(a => a.type);
    }""")
    assert statuses == ["opaqueredirect", "opaqueredirect"]  # both answered "saved" (302 to the table)
    assert api(player, live_server, f"/{session_id}", player_token)["hand_count"] == 3

    # The host voids hand 1 from the history; both phones show it struck through.
    player.goto(f"{live_server}/s/{session_id}/hands")
    player.evaluate("window.__sameDocument = true")
    assert not struck(player, 1)
    host.goto(f"{live_server}/s/{session_id}/hands")
    host.once("dialog", lambda dialog: dialog.accept())
    tap_and_wait(host, host.get_by_role("button", name="Void hand 1"))
    assert host.locator(".flash").first.inner_text() == "Hand 1 voided; it no longer counts."
    assert struck(host, 1)
    wait_until(player, "() => document.querySelector('#hand-1.is-void') !== null")
    assert struck(player, 1) and player.evaluate("window.__sameDocument") is True
    assert "Hand 1 voided" in player.locator(".live-news").inner_text()
    player.screenshot(path="/tmp/tr-player-voided.png", full_page=True)
    host.screenshot(path="/tmp/tr-host-history.png", full_page=True)
    body = api(player, live_server, f"/{session_id}", player_token)
    assert body["hand_count"] == 2  # hands 2 and 3 count, hand 1 no longer
    assert body["net"]["Tomás"] == night_data["hands"][2]["expected"]["net"]["Tomás"] - 25

    # The host's log names who did what, with before → after.
    host.goto(f"{live_server}/s/{session_id}/log")
    voided = host.locator(".event-hand_voided").first
    assert "Tomás: +$1.50 → not counted" in " ".join(voided.inner_text().split())
    recorded = " ".join(host.locator(".event-hand_recorded").last.inner_text().split())
    assert "Player Rosa" in recorded  # role and the name the phone joined with
    host.screenshot(path="/tmp/tr-log.png", full_page=True)

    # The player marks a part payment at settle-up; the host's plan shrinks by itself.
    host.goto(f"{live_server}/s/{session_id}/settle")
    host.evaluate("window.__sameDocument = true")
    player.goto(f"{live_server}/s/{session_id}/settle")
    before = [" ".join(li.inner_text().split()) for li in host.locator("ol.plan .plan-line").all()]
    assert "Dee pays Tomás $0.75" in before  # Dee lost $0.50 and $0.25 in the hands that count
    line = player.locator("ol.plan > li").filter(has_text="Dee pays Tomás")
    assert line.locator("input[name=amount]").input_value() == "0.75"  # pre-filled: the whole line
    line.locator("input[name=amount]").fill("0.25")
    tap_and_wait(player, line.get_by_role("button", name="Mark paid"))
    assert player.locator(".flash").first.inner_text() == "Dee paid Tomás $0.25."
    # what Dee still owes drops from $0.75 to $0.50 on the host's phone, by itself
    wait_until(host, """() => { const left = document.querySelector('[aria-label="Still owed after payments"]');
        return left !== null && left.textContent.replace(/\\s+/g, ' ').includes('Dee -$0.50'); }""")
    assert host.evaluate("window.__sameDocument") is True
    owed = api(player, live_server, f"/{session_id}/payments", player_token)["outstanding"]
    assert owed["Dee"] == -50 and sum(owed.values()) == 0
    host.screenshot(path="/tmp/tr-settle.png", full_page=True)


def test_without_javascript_a_refresh_link_brings_the_news(
    phone_without_js: Any, second_phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    """The live table needs JavaScript; without it the page offers a Refresh link."""
    host, watcher = second_phone, phone_without_js
    start_night(host, live_server, night_data, "0.25")
    viewer_link = host.locator("#viewer-link").input_value()
    watcher.goto(viewer_link)
    refresh = watcher.get_by_role("link", name="Refresh")
    assert refresh.is_visible()
    enter_hand(host, night_data["hands"][0], night_data["players"], night_data["currency"])
    assert watcher.locator("#hand-1").count() == 0
    tap_and_wait(watcher, refresh)
    assert watcher.locator("#hand-1").count() == 1
    assert "it cannot record hands" in watcher.locator("main").inner_text()
    watcher.screenshot(path="/tmp/tr-viewer-nojs.png", full_page=True)


def test_a_hidden_tab_stops_asking(phone: Any, live_server: str, night_data: dict[str, Any]) -> None:
    """Polling runs only while the page is visible, and catches up at once when it is shown.
    The page's clock is Playwright's: the test moves it, and waits for the page's own signs
    (a poll request, the region no longer ``aria-busy``), never for a duration."""
    page = phone
    page.clock.install()
    start_night(page, live_server, night_data, "0.25")
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    polls: list[str] = []
    page.on("request", lambda request: polls.append(request.url) if "/state?" in request.url else None)

    def asks(request: Any) -> bool:
        return "/state?" in request.url

    def answered() -> None:  # no poll under way: the next one is on the page's clock
        page.wait_for_function("() => !document.querySelector('[data-live-region]').hasAttribute('aria-busy')")

    def show(hidden: bool) -> None:
        page.evaluate("""hidden => {
            Object.defineProperty(document, 'hidden', {configurable: true, get: () => hidden});
            document.dispatchEvent(new Event('visibilitychange'));
        }""", hidden)

    answered()
    for _ in range(2):  # every 2 s while visible
        with page.expect_request(asks):
            page.clock.run_for(2_000)
        answered()
    show(hidden=True)
    polls.clear()
    page.clock.run_for(60_000)  # a minute in a pocket
    answered()
    assert polls == []  # a phone in a pocket costs nothing
    with page.expect_request(asks):
        show(hidden=False)
        page.clock.run_for(0)  # at once: no time passes
