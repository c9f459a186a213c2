"""No single point of failure, on real phones: the host makes another phone a co-host, which
then voids and restores a hand; a third phone recovers the host's rights with the recovery
code shown when the night started; an undo is redone."""
from __future__ import annotations

import re
from typing import Any

import pytest

from browser.conftest import PHONE
from browser.test_phone_ui import start_night, tap_and_wait

pytestmark = pytest.mark.browser


def record_tonk_out(page: Any, winner: str) -> None:
    tap_and_wait(page, page.locator('.quick-outcomes button[value="tonk_out"]'))
    page.locator("label.pick").filter(has=page.get_by_text(winner, exact=True)).tap()
    tap_and_wait(page, page.get_by_role("button", name="Check payouts"))
    tap_and_wait(page, page.get_by_role("button", name="Save hand"))


def test_co_host_recovery_restore_and_redo(
    phone: Any, second_phone: Any, chromium: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    host, friend = phone, second_phone
    for page in (host, friend):
        page.on("dialog", lambda dialog: dialog.accept())
    start_night(host, live_server, night_data, "0.25")
    code = host.locator("#recovery-code").inner_text()
    table_code = host.locator("#table-code").get_attribute("data-code")
    friend.goto(host.locator("#table-link").input_value())
    host.reload()
    assert host.locator("#recovery-code").count() == 0  # shown once
    record_tonk_out(host, "Dee")

    # The host makes the friend's phone a co-host.
    tap_and_wait(host, host.get_by_role("link", name="Phones and co-hosts"))
    assert host.locator(".phone").count() == 2
    tap_and_wait(host, host.locator(".phone").nth(1).get_by_role("button", name=re.compile(r"^Make .* a co-host$")))
    assert host.locator(".flash").first.inner_text().endswith("is now a co-host: it can correct, void, restore, undo and close.")
    assert host.locator(".phone").nth(1).locator(".role").inner_text() == "host"

    # The co-host voids hand 1, then restores it.
    friend.goto(friend.url.split("?")[0] + "/hands")
    tap_and_wait(friend, friend.get_by_role("button", name="Void hand 1"))
    assert friend.locator("#hand-1 .badge-void").count() == 1
    tap_and_wait(friend, friend.get_by_role("button", name="Restore hand 1"))
    assert friend.locator(".flash").first.inner_text() == "Hand 1 restored; it counts again."
    assert friend.locator("#hand-1 .badge-void").count() == 0

    # The host's phone dies: a new phone types the recovery code and is the host.
    context = chromium.new_context(**PHONE)
    try:
        new = context.new_page()
        new.on("dialog", lambda dialog: dialog.accept())
        new.goto(live_server + "/recover")
        new.get_by_label("Recovery code").fill(code.lower())
        tap_and_wait(new, new.get_by_role("button", name="Make this phone the host"))
        assert new.locator(".flash").first.inner_text() == f"This phone is now the host of {night_data['name']}."
        # the host's own link is never handed out: the old links stay with the lost phone
        assert new.locator("#table-code").count() == 0
        # undo the last hand, then undo the undo
        tap_and_wait(new, new.locator("#undo-last"))
        assert new.locator(".flash").first.inner_text().startswith("Hand 1 undone")
        tap_and_wait(new, new.get_by_role("button", name="Redo: count hand 1 again"))
        assert new.locator(".flash").first.inner_text() == "Hand 1 counts again."
        tap_and_wait(new, new.get_by_role("link", name="Log"))
        log = new.locator("main").inner_text()
        assert "Host recovered on a new phone with the recovery code" in log
        assert "Hand 1 restored" in log
        # it makes new links and code: the table shows them, the old code is gone
        new.goto(live_server + new.url.split(live_server)[1].split("/log")[0] + "/phones")
        tap_and_wait(new, new.locator("#rotate"))
        tap_and_wait(new, new.get_by_role("button", name="Make new links and code"))
        shown = new.locator("#table-code").get_attribute("data-code")
        assert shown and shown != table_code
    finally:
        context.close()
