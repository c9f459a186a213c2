"""A language link remembers its language (issue 23 item 1), in real Chromium at 390 px: a
phone opens ``/?lang=lo``, starts a night without typing its name, plays a hand and downloads a
statement. Every page is Lao (``<html lang="lo">``, Lao words), the night's default name is made
in Lao (the weekday and the date by Babel), and so are the PDF's text (pdftotext) and its file
name. Another ``?lang=`` still wins, and is remembered in its turn."""
from __future__ import annotations

import re
import subprocess
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from babel.dates import format_date

from browser.test_phone_ui import pick_player
from ledger.i18n.catalogs import translations

pytestmark = pytest.mark.browser

LAO = re.compile(r"[\u0e80-\u0eff]")


def lao(text: str) -> str:
    return translations("lo").gettext(text)


def is_lao(page: Any) -> None:
    assert page.evaluate("document.documentElement.lang") == "lo", page.url
    assert LAO.search(page.locator("main").inner_text()), page.url


def test_a_night_started_from_a_lao_link_is_lao_throughout(
    phone: Any, live_server: str, night_data: dict[str, Any], tmp_path: Path
) -> None:
    page = phone
    page.goto(f"{live_server}/?lang=lo")
    is_lao(page)
    for i, name in enumerate(night_data["players"]):
        page.locator(f"#player-{i}").fill(name)
    page.locator("#stake").fill("0.25")
    today = datetime.now(timezone.utc)  # the phone's zone is UTC here (the context sets none)
    with page.expect_navigation():
        page.locator('button.btn-hero[name=go][value=start]').tap()
    is_lao(page)  # the table screen
    session_id = re.search(r"/s/([^/?#]+)", page.url).group(1)  # type: ignore[union-attr]
    token = page.locator("#table-link").input_value().rsplit("/", 1)[1]
    night = page.request.get(f"{live_server}/api/v1/sessions/{session_id}",
                             headers={"Authorization": f"Bearer {token}"}).json()
    # named for its day and its host, the first name typed (Dee): every other word Lao
    name = lao("{weekday} night at {host}'s, {date}").format(weekday=format_date(today, "EEEE", locale="lo"),
                                                             host="Dee", date=format_date(today, "d MMMM", locale="lo"))
    assert night["name"] == name and LAO.search(name) and not re.search(r"[A-Za-z]", name.replace("Dee", ""))
    assert name in page.title()

    # a hand, step by step: every page Lao
    with page.expect_navigation():
        page.locator('.quick-outcomes button[value="tonk_out"]').tap()
    is_lao(page)
    pick_player(page, "Dee")
    with page.expect_navigation():
        page.locator("#record-form button[name=go][value=next]").tap()
    is_lao(page)
    assert page.get_by_role("heading", name=lao("Check payouts")).is_visible()
    with page.expect_navigation():
        page.locator("button[name=go][value=save]").tap()
    is_lao(page)
    assert LAO.search(page.locator(".flash").first.inner_text())

    page.goto(f"{live_server}/s/{session_id}/hands")
    is_lao(page)
    page.goto(f"{live_server}/s/{session_id}/settle")
    is_lao(page)
    with page.expect_download() as download_info:
        page.locator(".statement-links a").first.tap()
    download = download_info.value
    assert download.suggested_filename.startswith(f"{name}-") and download.suggested_filename.endswith("-Dee.pdf")
    saved = tmp_path / "dee.pdf"
    download.save_as(saved)
    text = " ".join(subprocess.run(["pdftotext", str(saved), "-"], capture_output=True, check=True)
                    .stdout.decode().split())
    assert lao("Player statement · {night}").format(night=name) in text

    # another ?lang= wins at once, and is what the phone remembers next
    page.goto(f"{live_server}/s/{session_id}?lang=tr")
    assert page.evaluate("document.documentElement.lang") == "tr"
    page.goto(f"{live_server}/s/{session_id}/hands")
    assert page.evaluate("document.documentElement.lang") == "tr"
