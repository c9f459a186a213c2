"""Issue 23, item 6: nights are told apart. A night started without a name is named for its day
and its host (the first name typed) or its club, and a second such night of the same date gets
a number; a club's start form begins as its last night did (its members ticked, its stake and
rules)."""
from __future__ import annotations

import html
import re
from datetime import datetime, timezone
from typing import Any
from zoneinfo import ZoneInfo

from club_nights import bearer, make_club, won_club_night
from test_web_pages import api_session, csrf_of, start_night

from ledger.web.start_form import default_name

FRIDAY = datetime(2026, 1, 3, 4, 30, tzinfo=timezone.utc)  # still Friday evening in Los Angeles


def test_the_default_name_says_the_day_and_the_host_and_numbers_a_second_night() -> None:
    assert default_name("America/Los_Angeles", FRIDAY, host="  Dee ") == "Friday night at Dee's, 2 January"
    assert default_name("Europe/Paris", FRIDAY, club="Kerala Club") == "Kerala Club, Saturday 3 January"
    taken = ["Friday night at Dee's, 2 January", "Friday night at Dee's, 2 January (2)"]
    assert default_name("America/Los_Angeles", FRIDAY, host="Dee", taken=taken) == "Friday night at Dee's, 2 January (3)"
    assert default_name("America/Los_Angeles", FRIDAY, host="Dee", taken=taken[1:]) == "Friday night at Dee's, 2 January"
    long = default_name("UTC", FRIDAY, host="x" * 200, taken=[default_name("UTC", FRIDAY, host="x" * 200)])
    assert len(long) <= 120 and long.endswith(" (2)")


def test_a_phones_second_unnamed_night_of_a_date_gets_a_number(client: Any, night_data: dict[str, Any]) -> None:
    first = api_session(client, start_night(client, night_data, name="", timezone="UTC"))["name"]
    second = api_session(client, start_night(client, night_data, name="  ", timezone="UTC"))["name"]
    today = datetime.now(timezone.utc)
    assert first == f"{today:%A} night at Dee's, {today.day} {today:%B}"
    assert second == f"{first} (2)"
    assert api_session(client, start_night(client, night_data, name="", timezone="UTC"))["name"] == f"{first} (3)"


def _club_phone(client: Any, club: dict[str, Any]) -> None:
    assert client.get(f"/c/join/{club['id']}/{club['token']}").status_code == 302


def _start_club_night(client: Any, club: dict[str, Any], **fields: str) -> str:
    page = client.get(f"/c/{club['id']}").get_data(as_text=True)
    response = client.post(f"/c/{club['id']}/nights", data={"csrf_token": csrf_of(page)} | fields)
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    return response.headers["Location"].split("/s/")[1].split("?")[0]


def test_a_club_night_is_named_for_its_club_and_date_and_numbered(client: Any) -> None:
    club = make_club(client)
    _club_phone(client, club)
    won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee")
    members = {m["name"]: m["id"] for m in client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"]))
               .get_json()["members"]}
    ticked = {f"member-{members[n]}": "yes" for n in ("Dee", "Marcus")}
    first = _start_club_night(client, club, stake="0.50", preset="classic", **ticked)
    second = _start_club_night(client, club, stake="0.50", preset="classic", **ticked)
    today = datetime.now(timezone.utc).astimezone(ZoneInfo("America/Chicago"))
    name = f"Friday club, {today:%A} {today.day} {today:%B}"
    assert api_session(client, first)["name"] == name
    assert api_session(client, second)["name"] == f"{name} (2)"


def test_the_club_start_form_ticks_the_members_of_the_last_night(client: Any) -> None:
    club = make_club(client)
    _club_phone(client, club)
    page = client.get(f"/c/{club['id']}").get_data(as_text=True)
    assert " checked" not in page[page.index('id="club-seats"'):page.index("</fieldset>", page.index('id="club-seats"'))]
    won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee")
    won_club_night(client, club, ["Ed", "Rosa", "Dee"], winner="Ed")  # the last night
    page = client.get(f"/c/{club['id']}").get_data(as_text=True)
    seats = page[page.index('id="club-seats"'):page.index("</fieldset>", page.index('id="club-seats"'))]
    boxes = re.findall(r'<input type="checkbox"[^>]*>\s*<span translate="no">([^<]+)</span>', seats)
    checked = [html.unescape(n) for n in re.findall(r'<input type="checkbox"[^>]* checked>\s*<span translate="no">([^<]+)</span>', seats)]
    assert boxes == ["Dee", "Marcus", "Rosa", "Ed"]
    assert checked == ["Dee", "Rosa", "Ed"]  # Marcus sat out the last night
    assert 'id="club-stake" name="stake" type="text" inputmode="decimal" value="0.25"' in page
