"""The phone pages fit the phone in every language (issue 23 item 2), at 390 and 320 CSS px (WCAG 1.4.10
reflow) and at 200 % zoom on a 390 px phone (195 CSS px), with 30-character names in Malayalam and Lao: the
start form (a seat's name field keeps 5 em or more), the table screen (a name keeps 8 em, its amount below it
when there is no room), the settle page (each "Mark paid" row's amount input at least 3 em with its value seen
whole, it was 24 px wide in Malayalam, and the button inside the row), the club page and its standings, the
host's settle page with "Void the whole night", its confirm page, a voided night's table and settle page, and the
log with a correction (issue 23 items 4 and 6). No page
scrolls sideways, no visible input, button or select reaches past the screen's edge, and axe finds nothing
serious or critical. Screenshots: ``<page>-<lang>-<width>.png`` in the test's tmp dir."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browser.test_accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# 30-character names where the script is long (Malayalam, Lao); ordinary names elsewhere
PLAYERS = {
    "ml": ["അനൂപ് കൃഷ്ണൻ നായർ പുത്തൻവീട്ടിൽ", "ബിന്ദു രാധാകൃഷ്ണൻ മേനോൻ കോട്ടയം", "ചാക്കോ വർഗീസ് തോമസ് പാലക്കാട്ട്"],
    "lo": ["ສົມສັກ ພົມມະຈັນ ວົງສະຫວັນ ສີສຸ", "ບົວພັນ ແກ້ວມະນີ ສຸລິຍະວົງ ພັນທະ", "ຄຳພອນ ສີສຸວັນ ພົມວິຫານ ຈັນທະລາ"],
}
LANGUAGES = ("en", "fil", "et", "lo", "ml", "tr", "es")
CONTROLS_INSIDE = """() => {
  const out = [];
  for (const el of document.querySelectorAll('input:not([type=hidden]), button, select, textarea, a.btn')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;  // not shown (hidden)
    const shut = el.closest('details:not([open])');
    if (shut && !el.closest('summary')) continue;  // inside a closed <details>: not shown
    if (r.left < -1 || r.right > innerWidth + 1) out.push(`${el.tagName}#${el.id}.${el.className} ${r.left}..${r.right}`);
  }
  const body = parseFloat(getComputedStyle(document.body).fontSize);
  const names = [...document.querySelectorAll('.balances .balance-name')].map(n => {
    const row = (n.closest('.balance') || n.parentElement).getBoundingClientRect().width;
    return n.getBoundingClientRect().width >= Math.min(8 * body, 0.8 * row);
  });
  return {outside: out, scroll: document.documentElement.scrollWidth, width: innerWidth, names_kept: names};
}"""
LAYOUT = """() => {
  const rows = [...document.querySelectorAll('.pay-form')].map(form => {
    const input = form.querySelector('.pay-amount-input'), button = form.querySelector('button');
    const row = form.getBoundingClientRect(), i = input.getBoundingClientRect(), b = button.getBoundingClientRect();
    const em = parseFloat(getComputedStyle(input).fontSize);
    return {input_em: i.width / em, input_inside: i.left >= row.left - 1 && i.right <= row.right + 1,
            button_inside: b.left >= row.left - 1 && b.right <= row.right + 1 && b.right <= innerWidth + 1,
            value_fits: input.scrollWidth <= input.clientWidth + 1};
  });
  return {rows, scroll: document.documentElement.scrollWidth, width: innerWidth};
}"""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_start_table_and_settle_fit_at_390_320_and_200_percent_zoom(phone: Any, live_server: str, lang: str, tmp_path: Path) -> None:
    players = PLAYERS.get(lang, ["Marcus", "Dee", "Rosa"])
    api = f"{live_server}/api/v1/sessions"
    created = phone.request.post(api, data={
        "name": "Friday", "currency": "INR" if lang == "ml" else "USD", "stake": 25, "ruleset": {"preset": "classic"},
        "players": players, "first_dealer": players[0]}).json()
    host = {"Authorization": f"Bearer {created['token']}"}
    night = f"{api}/{created['id']}"
    assert phone.request.post(f"{night}/hands", headers=host,
                              data={"outcome": {"kind": "tonk_out", "winner": players[1]}}).status == 201
    phone.goto(f"{live_server}/?lang={lang}")  # the start form, names typed in
    for i, name in enumerate(players):
        phone.locator(f"#player-{i}").fill(name)
    for width in (320, 195):
        phone.set_viewport_size({"width": width, "height": 800})
        phone.screenshot(path=str(tmp_path / f"start-{lang}-{width}.png"), full_page=True)
        start = phone.evaluate(CONTROLS_INSIDE)
        assert start["scroll"] <= start["width"] + 1 and start["outside"] == [], (lang, width, start)
        names = phone.evaluate("[...document.querySelectorAll('.seat-row input[type=text]')].map("
                               "i => i.getBoundingClientRect().width / parseFloat(getComputedStyle(i).fontSize))")
        assert names and min(names) >= 5, (lang, width, names)  # a name field never shrinks to a sliver
    phone.set_viewport_size({"width": 390, "height": 800})
    phone.goto(f"{live_server}/join?lang={lang}")
    phone.locator("#code").fill(created["table_code"])
    phone.locator("#name").fill(players[0])
    with phone.expect_navigation():
        phone.locator("#code").evaluate("input => input.form.requestSubmit()")
    assert phone.evaluate("document.documentElement.lang") == lang
    for width in (390, 320, 195):  # the table screen, open, with its buttons; 195: 200 % zoom on a 390 px phone
        phone.set_viewport_size({"width": width, "height": 800})
        phone.screenshot(path=str(tmp_path / f"table-{lang}-{width}.png"), full_page=True)
        table = phone.evaluate(CONTROLS_INSIDE)
        assert table["scroll"] <= table["width"] + 1 and table["outside"] == [], (lang, width, table)
        assert table["names_kept"] and all(table["names_kept"]), (lang, width, table)  # never squeezed to a column
    assert serious_violations(phone) == []
    phone.set_viewport_size({"width": 390, "height": 800})
    assert phone.request.post(f"{night}/close", headers=host, data={}).status == 200
    phone.goto(f"{live_server}/s/{created['id']}/settle")
    assert phone.evaluate("document.documentElement.lang") == lang
    assert phone.locator(".pay-form").count() == 2  # two losers pay the winner
    for width in (390, 320):
        phone.set_viewport_size({"width": width, "height": 800})
        phone.screenshot(path=str(tmp_path / f"settle-{lang}-{width}.png"), full_page=True)
        layout = phone.evaluate(LAYOUT)
        settle = phone.evaluate(CONTROLS_INSIDE)
        assert settle["outside"] == [], (lang, width, settle)
        assert layout["scroll"] <= layout["width"] + 1, (lang, width, layout)
        for row in layout["rows"]:
            assert row["input_em"] >= 3 and row["input_inside"] and row["button_inside"], (lang, width, row)
            assert row["value_fits"], (lang, width, row)  # the typed amount is seen whole
    assert serious_violations(phone) == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_club_standings_fit_at_320_and_200_percent_zoom(phone: Any, live_server: str, lang: str, tmp_path: Path) -> None:
    """The club page and its standings, with a carried night, stay inside a 320 px phone and a 390 px phone at
    200 % zoom (195 CSS px), names kept whole, in every language."""
    players = PLAYERS.get(lang, ["Marcus", "Dee", "Rosa"])
    club = phone.request.post(f"{live_server}/api/v1/clubs", data={
        "name": "Friday club", "currency": "USD", "timezone": "UTC", "members": players}).json()
    owner = {"Authorization": f"Bearer {club['token']}"}
    night = phone.request.post(f"{live_server}/api/v1/sessions", headers=owner, data={
        "name": "Club night", "stake": 25, "ruleset": {"preset": "classic"}, "players": players,
        "club": club["id"]}).json()
    host = {"Authorization": f"Bearer {night['token']}"}
    url = f"{live_server}/api/v1/sessions/{night['id']}"
    assert phone.request.post(f"{url}/hands", headers=host,
                              data={"outcome": {"kind": "tonk_out", "winner": players[1]}}).status == 201
    assert phone.request.post(f"{url}/close", headers=host, data={"carry_over": True}).status == 200
    phone.goto(f"{live_server}/c/join/{club['id']}/{club['token']}?lang={lang}")
    for path, label in ((f"/c/{club['id']}", "club"), (f"/c/{club['id']}/standings", "standings")):
        phone.goto(live_server + path)
        assert phone.evaluate("document.documentElement.lang") == lang
        for width in (320, 195):
            phone.set_viewport_size({"width": width, "height": 800})
            phone.screenshot(path=str(tmp_path / f"{label}-{lang}-{width}.png"), full_page=True)
            found = phone.evaluate(CONTROLS_INSIDE)
            assert found["scroll"] <= found["width"] + 1 and found["outside"] == [], (lang, label, width, found)
        phone.set_viewport_size({"width": 390, "height": 800})
        assert serious_violations(phone) == []


def _fits(phone: Any, tmp_path: Path, name: str, lang: str) -> None:
    """At 390 and 320 px the page scrolls not sideways and shows no control past the edge (a screenshot
    of each, ``<name>-<lang>-<width>.png``); axe finds nothing serious or critical."""
    for width in (390, 320):
        phone.set_viewport_size({"width": width, "height": 800})
        phone.screenshot(path=str(tmp_path / f"{name}-{lang}-{width}.png"), full_page=True)
        shown = phone.evaluate(CONTROLS_INSIDE)
        assert shown["scroll"] <= shown["width"] + 1 and shown["outside"] == [], (lang, name, width, shown)
    assert serious_violations(phone) == [], (lang, name)
    phone.set_viewport_size({"width": 390, "height": 800})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_night_undone_as_a_whole_and_its_log_fit_at_390_and_320(
    phone: Any, live_server: str, lang: str, tmp_path: Path
) -> None:
    """Issue 23 items 4, 5 and 6 on the phone: the entry pages (a knock's totals with a card grid open, a
    deal tonk's grid), the host's settle page with "Void the whole night", its confirm
    page, the voided table (its note) and settle page ("Restore the night"), and the log with a correction
    naming the total it changed; 30-character names in Malayalam and Lao."""
    players = PLAYERS.get(lang, ["Marcus", "Dee", "Rosa"])
    api = f"{live_server}/api/v1/sessions"
    created = phone.request.post(api, data={
        "name": "Friday", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic"},
        "players": players, "first_dealer": players[0]}).json()
    host = {"Authorization": f"Bearer {created['token']}"}
    night = f"{api}/{created['id']}"
    out = {"outcome": {"kind": "discard_out", "winner": players[1]}, "hands": {players[2]: {"total": 7}}}
    assert phone.request.post(f"{night}/hands", headers=host, data=out).status == 201
    out["hands"][players[2]]["total"] = 47
    assert phone.request.post(f"{night}/hands/1/amend", headers=host, data=out | {"version": 1}).status == 201
    phone.goto(f"{live_server}/join/{created['id']}/{created['token']}?lang={lang}")  # the host's own link
    for kind in ("knock", "deal_tonk"):  # the entry pages (item 5): totals, and a card grid opened
        phone.set_viewport_size({"width": 390, "height": 800})
        phone.goto(f"{live_server}/s/{created['id']}/record?kind={kind}&whole=1&lang={lang}")
        grid = phone.locator("details.cards summary, summary.cards-toggle").first
        if grid.count():
            grid.tap()
        _fits(phone, tmp_path, f"record-{kind}", lang)
    pages = [("settle", "/settle"), ("log", "/log")]
    for name, path in pages:
        phone.goto(f"{live_server}/s/{created['id']}{path}?lang={lang}")
        if name == "settle":
            assert phone.locator("#night-void button").count() == 1
        _fits(phone, tmp_path, name, lang)
    phone.goto(f"{live_server}/s/{created['id']}/settle?lang={lang}")
    with phone.expect_navigation():
        phone.locator("#night-void form, form#night-void").first.evaluate("form => form.requestSubmit()")
    assert phone.locator("input[name=confirmed]").count() == 1  # the confirm page
    assert serious_violations(phone) == [], (lang, "confirm")
    with phone.expect_navigation():
        phone.locator("form button[type=submit]").last.tap()
    assert phone.request.get(night, headers=host).json()["status"] == "voided"
    for name, path in (("voided-table", ""), ("voided-settle", "/settle")):
        phone.goto(f"{live_server}/s/{created['id']}{path}?lang={lang}")
        if name == "voided-table":
            assert phone.locator("#night-void-note").is_visible() and phone.locator(".quick-outcomes").count() == 0
        _fits(phone, tmp_path, name, lang)
    assert phone.locator("#night-void button").count() == 1  # "Restore the night"
