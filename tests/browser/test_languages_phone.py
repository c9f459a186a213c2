"""A phone set to Lao records a hand, then switches to Malayalam and records another: every
page says its language (``<html lang>``), the text read back from the page is in the language's
script, and Chromium draws it with a real font for that script (the fonts Chromium reports for
the rendered text, so no empty boxes). Screenshots of both are kept in the test's folder."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from browser.conftest import PHONE
from browser.test_phone_ui import tap_and_wait

pytestmark = pytest.mark.browser

LAO = re.compile("[\u0e80-\u0eff]")
MALAYALAM = re.compile("[\u0d00-\u0d7f]")
PLAYERS = ["ສົມ", "ແກ້ວ", "ບຸນມີ"]


def fonts_drawing(page: Any, selector: str) -> list[dict[str, Any]]:
    """The platform fonts Chromium used to draw the text of ``selector`` (DevTools protocol)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        assert node, f"nothing matches {selector}"
        fonts: list[dict[str, Any]] = []
        children = cdp.send("DOM.describeNode", {"nodeId": node, "depth": 1})["node"].get("children", [])
        for child in [{"nodeId": node}] + [c for c in children if c.get("nodeType") == 3]:
            if "nodeId" in child:
                fonts += cdp.send("CSS.getPlatformFontsForNode", {"nodeId": child["nodeId"]})["fonts"]
        return fonts
    finally:
        cdp.detach()


def assert_written_in(page: Any, code: str, script: re.Pattern[str], family: str, shot: Path) -> None:
    assert page.evaluate("document.documentElement.lang") == code
    heading = page.locator("main h1, main h2").first.inner_text()
    flash = page.locator(".flash").first.inner_text()
    assert script.search(flash), flash
    assert script.search(heading) or script.search(page.locator("main").inner_text()), heading
    assert "1" in flash or "2" in flash, flash  # the hand's number, in the sentence
    used = fonts_drawing(page, ".flash")
    families = [f["familyName"] for f in used]
    assert any(family in name for name in families), families
    assert not any("Last Resort" in name for name in families), families
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000


def record_tonk_out(page: Any, winner: str) -> None:
    tap_and_wait(page, page.locator('.quick-outcomes button[value="tonk_out"]'))
    page.locator("label.pick").filter(has=page.get_by_text(winner, exact=True)).tap()
    tap_and_wait(page, page.locator('button[name=go][value=next]:visible').first)
    tap_and_wait(page, page.locator('button[name=go][value=save]'))


def test_a_phone_in_lao_then_malayalam_records_hands(chromium: Any, live_server: str, tmp_path: Path) -> None:
    context = chromium.new_context(**(PHONE | {"locale": "lo-LA"}))
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(live_server + "/")
        assert page.evaluate("document.documentElement.lang") == "lo"
        page.locator("#name").fill("ຄືນວັນສຸກ")
        for i, name in enumerate(PLAYERS):
            page.locator(f"#player-{i}").fill(name)
        page.locator(".seat-row").nth(0).locator(".deal-first").tap()
        page.locator("#stake").fill("1000")
        page.locator("#currency").select_option("LAK")
        tap_and_wait(page, page.locator(".btn-hero"))
        record_tonk_out(page, PLAYERS[1])
        assert_written_in(page, "lo", LAO, "Lao", tmp_path / "lao.png")
        # the winner collects 2× the stake from each of the two others, in kip written the Lao way
        balances = page.locator("ul.balances").inner_text()
        assert "4.000" in balances or "4,000" in balances, balances

        # the switch at the foot of the page, remembered for this phone
        page.locator(".lang-switch summary").tap()
        tap_and_wait(page, page.locator('.lang-switch a[lang="ml"]'))
        assert page.evaluate("document.documentElement.lang") == "ml"
        record_tonk_out(page, PLAYERS[2])
        assert_written_in(page, "ml", MALAYALAM, "Malayalam", tmp_path / "malayalam.png")
        page.goto(live_server + "/")
        assert page.evaluate("document.documentElement.lang") == "ml"
    finally:
        context.close()
