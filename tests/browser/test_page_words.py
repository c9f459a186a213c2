"""The scripts speak the page's language, in real Chromium (390×844): the words come from the page
(ledger/web/js_words.py through ``window.tonkWords``), a count takes the plural form the server's
catalogue gives for it (``Intl.PluralRules`` on the phone, CLDR on the server), and the page a
phone shows offline for an address it never kept is written in the language of the last page
it opened."""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from browser.test_offline import Wifi, go_offline, go_online, wait_until_offline_ready, wifi_server  # noqa: F401  (fixture)
from conftest import session_body
from ledger import create_app
from ledger.i18n import LANGUAGES, PSEUDO, use_language
from ledger.i18n.pseudo import pseudo
from ledger.web import js_words
import words_catalogues
from test_pseudo_pages import catalogue_template_is_current

pytestmark = pytest.mark.browser

COUNTS = list(range(0, 112)) + [1_000, 1_000_000, 3_000_000]


@pytest.fixture
def app(database_url: str) -> Iterator[Any]:
    """The app with the pseudo language (``?lang=en-XA``) switched on."""
    catalogue_template_is_current()
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "I18N_PSEUDO": True})
    yield app
    app.extensions["ledger.engine"].dispose()


@pytest.fixture
def counted_catalogues() -> Iterator[None]:
    yield from words_catalogues.installed()


def test_a_count_takes_the_plural_form_the_server_would_write(
    phone: Any, live_server: str, counted_catalogues: None
) -> None:
    for code in sorted(LANGUAGES):
        phone.goto(f"{live_server}/join?lang={code}")
        assert phone.locator("html").get_attribute("lang") == code
        shown = phone.evaluate("(counts) => counts.map((n) => window.tonkWords('points', {count: n}))", COUNTS)
        with use_language(code):
            expected = [js_words.COUNTED["points"](n).replace("{count}", str(n)) for n in COUNTS]
        assert shown == expected, code


def test_the_scripts_write_in_the_pseudo_language(phone: Any, live_server: str) -> None:
    page = phone
    page.goto(f"{live_server}/language/{PSEUDO}?next=/")
    # seats.js: a seat added in place is named in the page's language
    page.get_by_role("button", name=pseudo("Add a seat")).tap()
    assert page.locator(".seat-label").nth(4).inner_text() == pseudo("Seat {number}").format(number=5)
    # house-rules.js: the count of house changes, a counted sentence
    page.locator("#house-rules summary").tap()
    page.locator('[data-control="rule-max_players"] input').fill("7")
    page.locator('[data-control="rule-max_players"] input').dispatch_event("change")
    page.wait_for_function("(want) => document.querySelector('[data-hr-count]').textContent === want",
                           arg=pseudo("{count} changed").format(count=1))


def test_the_offline_page_is_in_the_language_of_the_last_page(
    phone: Any, wifi_server: tuple[str, Wifi], night_data: dict[str, Any]  # noqa: F811
) -> None:
    base, wifi = wifi_server
    page = phone
    created = page.request.post(f"{base}/api/v1/sessions", data=session_body(night_data)).json()
    page.goto(f"{base}/language/{PSEUDO}?next=/")
    page.goto(f"{base}/join/{created['id']}/{created['token']}")
    wait_until_offline_ready(page)
    page.locator("[data-live-status]").wait_for()
    page.wait_for_function("(want) => document.querySelector('[data-live-status]').textContent === want",
                           arg=pseudo("Live"))

    go_offline(page, wifi)
    try:
        page.goto(f"{base}/s/{created['id']}/log")  # never kept on this phone
        assert page.locator("h1").inner_text() == pseudo("You are offline")
        assert page.title() == pseudo("Offline · Tonk Ledger")
        assert page.get_by_role("link", name=pseudo("Your nights")).get_attribute("href") == "/"
        # the table, kept in the language it was read in
        page.goto(f"{base}/s/{created['id']}")
        assert page.evaluate("document.documentElement.hasAttribute('data-kept-copy')")
        assert re.fullmatch(r"⟦.*⟧", page.locator("#quick-title").inner_text())
    finally:
        go_online(page, wifi)
