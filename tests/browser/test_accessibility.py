"""Accessibility: axe-core (vendored, tests/browser/vendor) finds no serious or critical
violation on any page, with and without a night, and every page still fits the phone's width
at 200 % text size."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser.test_phone_ui import start_night

pytestmark = [pytest.mark.browser, pytest.mark.slow]

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def serious_violations(page: Any) -> list[str]:
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=AXE)
    result = page.evaluate("axe.run(document, {resultTypes: ['violations']})")
    return [f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["target"][0] for n in v["nodes"][:3])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def fits_at_double_text(page: Any) -> bool:
    page.evaluate("document.documentElement.style.fontSize = '200%'")
    fits = page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    page.evaluate("document.documentElement.style.fontSize = ''")
    return bool(fits)


def test_every_page_passes_axe_and_fits_at_200_percent_text(
    phone: Any, live_server: str, night_data: dict[str, Any]
) -> None:
    page = phone
    found: dict[str, list[str]] = {}
    too_wide: list[str] = []

    def check(name: str) -> None:
        page.wait_for_load_state("load")
        found[name] = serious_violations(page)
        if not fits_at_double_text(page):
            too_wide.append(name)

    page.goto(live_server + "/")
    check("home")
    page.goto(live_server + "/join")
    check("join")
    page.goto(live_server + "/recover")
    check("recover")
    start_night(page, live_server, night_data, "0.25")
    check("table after start: recovery code and share panel")
    session = page.url.split("/s/")[1].split("?")[0]
    base = f"{live_server}/s/{session}"

    page.goto(base + "/record?kind=knock")
    check("record: knock, the hands")
    page.locator("label.pick").filter(has=page.get_by_text("Dee", exact=True)).tap()
    page.locator("#cards-0 summary.cards-toggle").tap()
    check("record: knock, a card grid open")
    for seat, total in enumerate(("3", "9", "14", "20")):
        page.locator(f"#total-{seat}").fill(total)
    with page.expect_navigation():
        page.get_by_role("button", name="Check payouts").tap()
    check("record: preview")
    with page.expect_navigation():
        page.get_by_role("button", name="Save hand").tap()
    page.goto(base + "/record")
    check("record: outcome")
    with page.expect_navigation():
        page.locator('button[name=kind][value="deal_tonk"]').tap()
    check("record: who")
    for path in ("", "/hands", "/log", "/settle", "/rules", "/share", "/phones", "/hands/1/v1/correct"):
        page.goto(base + path)
        check(path or "table")
    page.goto(base + "/nothing-here")
    check("404 page")

    # the phone's dark theme too
    page.emulate_media(color_scheme="dark")
    for path in ("", "/record?kind=knock", "/hands", "/phones"):
        page.goto(base + path)
        check("dark: " + (path or "table"))
    page.goto(live_server + "/")
    check("dark: home")

    assert {name: v for name, v in found.items() if v} == {}
    assert too_wide == []
