"""Closing a club night and renaming its seats keep one answer between the night and the club:
a second close that asks for the other choice is told what the first was (409), a seat is not
renamed to another member's name, and two seats that are one member stop the close with a 422
naming them (never a 500; the night stays open)."""
from __future__ import annotations

import re
from typing import Any

from club_nights import bearer, close, make_club, won_club_night


def test_a_second_close_asking_for_the_other_choice_is_told_the_first(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus"])
    night = won_club_night(client, club, ["Dee", "Marcus"], "Dee")
    url = f"/api/v1/sessions/{night['id']}/close"
    assert close(client, night, False)["status"] == "closed"
    again = client.post(url, json={"carry_over": True}, headers=bearer(night["token"]))
    body = again.get_json()
    assert (again.status_code, body["error"], body["field"], body["carried"]) == (
        409, "session_closed", "carry_over", False)
    assert body["message"] == ("This night was already closed and settled in cash; nothing was carried into "
                               "the balances of Friday club.")
    # the same choice again, or no choice said, is the same close: 200
    assert client.post(url, json={"carry_over": False}, headers=bearer(night["token"])).status_code == 200
    assert client.post(url, headers=bearer(night["token"])).status_code == 200
    balances = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["balances"]
    assert balances == {"Dee": 0, "Marcus": 0}  # nothing carried


def test_a_second_close_on_the_phone_shows_what_the_first_did(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus"])
    night = won_club_night(client, club, ["Dee", "Marcus"], "Marcus")
    close(client, night, True)
    settle = client.get(f"/join/{night['id']}/{night['token']}", follow_redirects=True).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', settle).group(1)  # type: ignore[union-attr]
    page = client.post(f"/s/{night['id']}/close", data={"carry_over": "no", "confirmed": "yes", "csrf_token": token},
                       follow_redirects=True)
    text = page.get_data(as_text=True)
    assert "This night was already closed, and what was still owed was carried into the balances of Friday club." in text
    assert "settled in cash" not in text
    balances = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["balances"]
    assert balances["Marcus"] > 0 and balances["Marcus"] == -balances["Dee"]


def test_a_seat_is_not_renamed_to_another_members_name(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Rosa", "Tomás"])
    night = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], "Rosa")
    url = f"/api/v1/sessions/{night['id']}/players/rename"
    refused = client.post(url, json={"from": "Rosa", "to": "tomás"}, headers=bearer(night["token"]))
    body = refused.get_json()
    assert (refused.status_code, body["error"], body["field"]) == (422, "duplicate_player", "to")
    assert body["message"] == ("Tomás is another member of Friday club; a rename keeps the seat's money with its "
                               "own member. Seat Tomás on their own, or pick another name.")
    # a typo fix keeps the member, and the club and the night agree on the money
    assert client.post(url, json={"from": "Rosa", "to": "Rosie"}, headers=bearer(night["token"])).status_code == 200
    outstanding = close(client, night, True)["outstanding"]
    club_now = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert outstanding["Rosie"] > 0 and club_now["balances"]["Rosa"] == outstanding["Rosie"]
    assert club_now["balances"]["Tomás"] == 0


def test_a_guest_who_sat_in_may_be_named_as_a_member_who_is_not_at_the_table(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Tomás"])
    night = won_club_night(client, club, ["Dee", "Marcus"])
    sat = client.post(f"/api/v1/sessions/{night['id']}/players", json={"name": "Guest"},
                      headers=bearer(night["token"]))
    assert sat.status_code in (200, 201), sat.get_json()
    recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                           json={"outcome": {"kind": "tonk_out", "winner": "Guest"}})
    assert recorded.status_code == 201, recorded.get_json()
    renamed = client.post(f"/api/v1/sessions/{night['id']}/players/rename", json={"from": "Guest", "to": "Tomás"},
                          headers=bearer(night["token"]))
    assert renamed.status_code == 200, renamed.get_json()
    outstanding = close(client, night, True)["outstanding"]
    balances = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["balances"]
    assert balances["Tomás"] == outstanding["Tomás"] > 0
    assert "Guest" not in balances


def test_two_seats_that_are_one_member_stop_the_close_with_their_names(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Rosa"])
    night = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], "Rosa")
    headers = bearer(night["token"])
    assert client.post(f"/api/v1/sessions/{night['id']}/players/rename", json={"from": "Rosa", "to": "Rosie"},
                       headers=headers).status_code == 200
    sat = client.post(f"/api/v1/sessions/{night['id']}/players", json={"name": "Rosa"}, headers=headers)
    assert sat.status_code in (200, 201), sat.get_json()
    refused = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": True}, headers=headers)
    body = refused.get_json()
    assert (refused.status_code, body["error"], body["field"]) == (422, "duplicate_player", "players")
    assert body["message"] == ("Rosa and Rosie are both the club member Rosa; rename one of them before closing "
                               "the night.")
    assert client.get(f"/api/v1/sessions/{night['id']}", headers=headers).get_json()["status"] == "open"
    # renamed to a name of their own, the new player joins the club and the night closes
    assert client.post(f"/api/v1/sessions/{night['id']}/players/rename", json={"from": "Rosa", "to": "Rosa B"},
                       headers=headers).status_code == 200
    outstanding = close(client, night, True)["outstanding"]
    balances = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["balances"]
    assert balances["Rosa"] == outstanding["Rosie"] > 0 and balances["Rosa B"] == outstanding.get("Rosa B", 0)
