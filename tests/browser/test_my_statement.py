"""A phone joins a table by its code, says "this is me", sees its player highlighted on the
table screen, and downloads "My statement" (real Chromium at 390x844). Screenshot:
/tmp/me-table.png."""
from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from browser.test_phone_ui import tap_and_wait

pytestmark = pytest.mark.browser


def test_join_say_this_is_me_and_download_my_statement(
    phone: Any, live_server: str, night_data: dict[str, Any], tmp_path: Path
) -> None:
    body = {k: night_data[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}
    created = phone.request.post(f"{live_server}/api/v1/sessions", data=body).json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    for hand in night_data["hands"]:
        entry = {"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]}
        assert phone.request.post(f"{live_server}/api/v1/sessions/{created['id']}/hands",
                                  data=entry, headers=headers).status == 201

    phone.goto(live_server + "/join")
    phone.locator("#code").fill(created["table_code"])
    phone.locator("#name").fill("Rosa")
    tap_and_wait(phone, phone.get_by_role("button", name="Join"))
    assert phone.url == f"{live_server}/s/{created['id']}"

    # asked once on joining: the question is open, and no player is highlighted yet
    question = phone.locator("details#this-is-me")
    assert question.get_attribute("open") is not None
    assert phone.locator("li.balance-me").count() == 0
    assert phone.locator("#my-statement").count() == 0
    phone.locator("#me-seat").select_option(label="Rosa")
    tap_and_wait(phone, phone.locator("#this-is-me-save"))

    mine = phone.locator("li.balance-me")
    assert mine.count() == 1 and "Rosa" in mine.inner_text() and "you" in mine.inner_text()
    assert question.get_attribute("open") is None  # answered: folded away, still changeable
    phone.screenshot(path="/tmp/me-table.png", full_page=True)

    with phone.expect_download() as download_info:
        phone.locator("#my-statement").tap()
    download = download_info.value
    assert download.suggested_filename.startswith(f"{night_data['name']}-")
    assert download.suggested_filename.endswith("-Rosa.pdf")
    saved = tmp_path / "mine.pdf"
    download.save_as(saved)
    text = " ".join(subprocess.run(["pdftotext", str(saved), "-"], capture_output=True, check=True)
                    .stdout.decode().split())
    assert text.startswith("Rosa Player statement")
    assert "You pay Tomás $4.00" in text and "Final net -$4.00" in text

    # the settle page offers "My statement" too, and a statement for each player's row
    phone.goto(f"{live_server}/s/{created['id']}/settle")
    assert phone.locator("#my-statement").get_attribute("href") == f"/s/{created['id']}/statements/3.pdf"
    assert phone.locator(".statement-links a").count() == len(night_data["players"])
    assert phone.locator("#night-pack").count() == 0  # the pack link is the host's
