"""Finding 13 in real Chromium: the start form sends the phone's own IANA time zone, and the
table's pages show times in it; without JavaScript the night is a UTC night."""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest
from sqlmodel import Session

from browser.conftest import _phone_page
from browser.test_phone_ui import start_night
from ledger.storage.models import GameSession

pytestmark = pytest.mark.browser


@pytest.fixture
def phone_in_los_angeles(chromium: Any) -> Iterator[Any]:
    yield from _phone_page(chromium, timezone_id="America/Los_Angeles")


def night_zone(app: Any, url: str) -> str:
    match = re.search(r"/s/([^/?]+)", url)
    assert match, url
    with Session(app.extensions["ledger.engine"]) as db:
        night = db.get(GameSession, match.group(1))
        assert night is not None
        return night.timezone


def test_finding_13_the_start_form_sends_the_phones_time_zone(
    app: Any, live_server: str, phone_in_los_angeles: Any, phone_without_js: Any, night_data: dict[str, Any]
) -> None:
    start_night(phone_in_los_angeles, live_server, night_data, "0.25")
    assert night_zone(app, phone_in_los_angeles.url) == "America/Los_Angeles"

    phone_without_js.goto(live_server + "/")
    phone_without_js.get_by_label("Name of the night").fill(night_data["name"])
    for i, name in enumerate(night_data["players"]):
        phone_without_js.locator(f"#player-{i}").fill(name)
    phone_without_js.locator("#stake").fill("0.25")
    with phone_without_js.expect_navigation():
        phone_without_js.get_by_role("button", name="Start the night").first.click()
    assert night_zone(app, phone_without_js.url) == "UTC"
