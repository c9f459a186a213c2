"""The "nothing lost" issue in real Chromium at 390×844: the start form seats everyone the
rules allow (finding 8), and every page fits the phone's width with long names (finding 9)."""
from __future__ import annotations

import re
from typing import Any

import pytest

pytestmark = pytest.mark.browser

SIX = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


def tap_and_wait(page: Any, locator: Any) -> None:
    with page.expect_navigation():
        locator.tap()


def table_players(page: Any) -> list[str]:
    return [row.locator(".balance-name").evaluate("n => n.firstChild.textContent.trim()")
            for row in page.locator("ul.balances > li").all()]


# -- finding 8 ----------------------------------------------------------------------------------------
def test_finding_8_start_form_with_javascript_adds_seats_in_place_and_seats_six(phone: Any, live_server: str) -> None:
    page = phone
    page.goto(live_server + "/")
    assert page.locator("[data-seat-row]").count() == 4
    page.get_by_label("Name of the night").fill("Big table")
    for i, name in enumerate(SIX[:4]):
        page.locator(f"#player-{i}").fill(name)
    url = page.url
    page.get_by_role("button", name="Add a seat").tap()
    assert page.url == url and page.locator("[data-seat-row]").count() == 5  # in place, no page load
    assert page.locator("#player-4").evaluate("n => n === document.activeElement")
    assert [page.locator(f"#player-{i}").input_value() for i in range(4)] == SIX[:4]  # nothing typed lost
    assert page.get_by_text("Seat 5", exact=True).is_visible()
    # the house rules allow 8: the form offers 8 seats
    page.locator("#house-rules > summary").tap()
    page.locator("#rule-max_players").fill("8")
    page.wait_for_function("document.querySelectorAll('[data-seat-row]').length === 8")
    assert not page.get_by_role("button", name="Add a seat").is_visible()  # no rules seat a ninth
    page.locator("#player-4").fill(SIX[4])
    page.locator("#player-6").fill(SIX[5])  # a blank seat between names is skipped
    page.locator("[data-seat-row]").nth(6).locator(".deal-first").tap()
    page.locator("#stake").fill("0.25")
    tap_and_wait(page, page.get_by_role("button", name="Start the night"))
    assert re.search(r"/s/[^/?]+\?share=1$", page.url), page.url
    assert table_players(page) == SIX


def test_finding_8_start_form_without_javascript_adds_a_seat_keeping_what_was_typed(
    phone_without_js: Any, live_server: str
) -> None:
    page = phone_without_js
    page.goto(live_server + "/")
    page.get_by_label("Name of the night").fill("Big table")
    for i, name in enumerate(SIX[:4]):
        page.locator(f"#player-{i}").fill(name)
    page.locator("#stake").fill("0.25")
    tap_and_wait(page, page.get_by_role("button", name="Add a seat"))
    assert page.locator("[data-seat-row]").count() == 5
    assert [page.locator(f"#player-{i}").input_value() for i in range(4)] == SIX[:4]
    assert page.get_by_label("Name of the night").input_value() == "Big table"
    page.locator("#player-4").fill(SIX[4])
    # classic seats at most 4: refused beside the seats, every name kept
    tap_and_wait(page, page.get_by_role("button", name="Start the night"))
    assert page.locator("#err-players").inner_text().startswith("These rules seat at most 4 players and 5 names")
    assert [page.locator(f"#player-{i}").input_value() for i in range(5)] == SIX[:5]


# -- finding 9 ----------------------------------------------------------------------------------------
PHONE_WIDTH = 390
# eight 80-character names without a space to break at (the longest a night accepts)
LONG = [f"{chr(65 + i)}{'W' * 70}{'M' * 8}{i}" for i in range(8)]

FITS = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  for (const el of document.querySelectorAll('body *')) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || getComputedStyle(el).visibility === 'hidden') continue;
    const clickable = el.matches('button, .btn, input[type=submit], a.btn, summary');
    if (box.right > width + 0.5 || box.left < -0.5) {
      if (clickable || !el.closest('.visually-hidden')) wide.push((clickable ? 'BUTTON ' : '') +
        el.tagName.toLowerCase() + '.' + el.className + ' ' + Math.round(box.left) + '..' + Math.round(box.right));
    }
  }
  return {scroll: document.documentElement.scrollWidth, body: document.body.scrollWidth, wide: wide.slice(0, 8)};
}"""


def assert_fits(page: Any, what: str) -> None:
    """The page is no wider than the phone and no button or element sticks out of it."""
    page.wait_for_load_state("load")
    measured = page.evaluate(FITS)
    assert measured["scroll"] <= PHONE_WIDTH and measured["body"] <= PHONE_WIDTH and not measured["wide"], (
        what, measured)


@pytest.fixture
def long_night(app: Any) -> dict[str, Any]:
    """A night of eight 80-character names (max 8 players, spade side pot) with hands,
    a voided hand, a corrected hand and a payment, set up through the JSON API."""
    api = app.test_client()
    body = api.post("/api/v1/sessions", json={
        "name": "Night" + "N" * 115, "currency": "USD", "stake": 25,
        "ruleset": {"preset": "classic", "toggles": {"max_players": 8, "spade_side_pot": True}},
        "players": LONG, "first_dealer": LONG[7]}).get_json()
    sid, auth = body["id"], {"Authorization": f"Bearer {body['token']}"}
    for winner in (LONG[0], LONG[3], LONG[5], LONG[1]):
        entry = {"outcome": {"kind": "discard_out", "winner": winner}, "hands": {winner: {"cards": []}}}
        assert api.post(f"/api/v1/sessions/{sid}/hands", json=entry, headers=auth).status_code == 201
    assert api.post(f"/api/v1/sessions/{sid}/hands/4/void", headers=auth).status_code in (200, 201)
    amended = {"outcome": {"kind": "tonk_out", "winner": LONG[2]}, "hands": {LONG[2]: {"cards": []}}, "version": 1}
    assert api.post(f"/api/v1/sessions/{sid}/hands/2/amend", json=amended, headers=auth).status_code == 201
    paid = {"from": LONG[4], "to": LONG[0], "amount": 10}
    assert api.post(f"/api/v1/sessions/{sid}/payments", json=paid, headers=auth).status_code == 201
    return {"id": sid, "token": body["token"], "body": body}


def _walk_every_page(page: Any, base: str, night: dict[str, Any], *, javascript: bool = True) -> None:
    sid = night["id"]
    page.goto(f"{base}/join/{sid}/{night['token']}")  # the host's phone
    for path in ("", "?share=1", "/share", "/hands", "/log", "/settle", "/rules", "/hands/2/v2/correct"):
        page.goto(f"{base}/s/{sid}{path}")
        assert_fits(page, path or "table")
    page.goto(f"{base}/")
    assert_fits(page, "home with the night in 'Your tables'")
    page.goto(f"{base}/join")
    assert_fits(page, "join")
    # the record flow, step by step
    page.goto(f"{base}/s/{sid}/record")
    assert_fits(page, "record: outcome")
    tap_and_wait(page, page.locator('button[name=kind][value="knock"]'))
    page.locator("label.pick").filter(has=page.get_by_text(LONG[6], exact=True)).tap()
    assert_fits(page, "record: who knocked and the hands")
    for grid in page.locator("summary.cards-toggle").all():
        grid.tap()
        assert_fits(page, "record: the hands, one player's cards open")
    page.goto(f"{base}/s/{sid}/record")
    tap_and_wait(page, page.locator('button[name=kind][value="discard_out"]'))
    page.locator("label.pick").filter(has=page.get_by_text(LONG[6], exact=True)).tap()
    tap_and_wait(page, page.get_by_role("button", name=re.compile("^Next")))
    assert_fits(page, "record: side pot")
    for playing in page.locator("input[name=side_in]").all():  # nobody plays the side pot
        playing.uncheck()
    tap_and_wait(page, page.get_by_role("button", name="Check payouts"))
    assert page.get_by_role("button", name="Save hand").is_visible(), page.locator("main").inner_text()[:1500]
    assert_fits(page, "record: preview")
    # the start form: eight long names typed, one of them twice (refused beside it)
    page.goto(f"{base}/")
    page.get_by_label("Name of the night").fill("Long names")
    page.locator("#house-rules > summary").tap()
    page.locator("#rule-max_players").fill("8")
    if javascript:
        page.wait_for_function("document.querySelectorAll('[data-seat-row]').length === 8")
    else:
        tap_and_wait(page, page.get_by_role("button", name="Show what these rules pay"))
        assert_fits(page, "start form with the rules shown")
    for i, name in enumerate(LONG[:7] + [LONG[0]]):
        page.locator(f"#player-{i}").fill(name)
    page.locator("#stake").fill("0.25")
    assert_fits(page, "start form")
    tap_and_wait(page, page.get_by_role("button", name="Start the night"))
    assert LONG[0] in page.locator("#err-player-7").inner_text()
    assert_fits(page, "start form refused")


def test_finding_9_every_page_fits_390px_with_eight_80_character_names(
    phone: Any, live_server: str, long_night: dict[str, Any]
) -> None:
    _walk_every_page(phone, live_server, long_night)
    # a settle page with the payment's Void button on screen
    phone.goto(f"{live_server}/s/{long_night['id']}/settle")
    void = phone.get_by_role("button", name=re.compile("^Void"))
    box = void.first.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE_WIDTH


def test_finding_9_long_names_are_shortened_with_their_full_name_as_title_or_wrapped(
    phone: Any, live_server: str, long_night: dict[str, Any]
) -> None:
    """Where a name is cut short with an ellipsis, its element carries the whole name as a title."""
    page = phone
    page.goto(f"{live_server}/join/{long_night['id']}/{long_night['token']}")
    for path in ("", "/settle", "/hands"):
        page.goto(f"{live_server}/s/{long_night['id']}{path}")
        cut = page.evaluate("""() => [...document.querySelectorAll('body *')].filter(el =>
            getComputedStyle(el).textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth)
            .map(el => [el.textContent.trim(), el.getAttribute('title') || (el.closest('[title]') || {}).title || ''])""")
        assert cut, f"nothing is cut short on {path or 'the table'}; the night's 120-letter name is"
        for text, title in cut:
            assert title in [*LONG, long_night["body"]["name"]] and text in title, (path, text, title)


def test_finding_9_every_page_fits_390px_without_javascript(
    phone_without_js: Any, live_server: str, long_night: dict[str, Any]
) -> None:
    page = phone_without_js
    _walk_every_page(page, live_server, long_night, javascript=False)
    # the confirm pages that stand in for the JavaScript dialogs
    page.goto(f"{live_server}/s/{long_night['id']}/hands")
    tap_and_wait(page, page.get_by_role("button", name="Void hand 1"))
    assert page.get_by_role("button", name="Void hand 1").is_visible()
    assert_fits(page, "confirm: void a hand")
    page.goto(f"{live_server}/s/{long_night['id']}/settle")
    tap_and_wait(page, page.get_by_role("button", name=re.compile("^Void")).first)
    assert_fits(page, "confirm: void a payment")
