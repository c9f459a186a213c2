"""The club owner's devices page (issue 20 item 6): removing a device after a confirm step,
renewing the club's links and code; a member's phone is refused."""
from __future__ import annotations

import re
from typing import Any

from club_nights import make_club
from test_web_pages import csrf_of, flashes


def joined_by_code(app: Any, club: dict[str, Any]) -> Any:
    phone = app.test_client()
    token = csrf_of(phone.get("/clubs/join").get_data(as_text=True))
    assert phone.post("/clubs/join", data={"code": club["table_code"], "csrf_token": token}).status_code == 302
    return phone


def owner_phone(app: Any, club: dict[str, Any]) -> Any:
    phone = app.test_client()
    assert phone.get(f"/c/join/{club['id']}/{club['token']}").status_code == 302
    return phone


def test_the_owner_removes_a_device_after_a_confirm_step(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Rosa"])
    owner, member = owner_phone(app, club), joined_by_code(app, club)
    assert 'id="club-devices-link"' in owner.get(f"/c/{club['id']}").get_data(as_text=True)
    assert member.get(f"/c/{club['id']}/devices").status_code == 403
    page = owner.get(f"/c/{club['id']}/devices").get_data(as_text=True)
    ids = re.findall(r'id="device-(\d+)"', page)
    assert len(ids) == 2 and f"/devices/{ids[0]}/remove" not in page  # never this phone
    asked = owner.post(f"/c/{club['id']}/devices/{ids[1]}/remove", data={"csrf_token": csrf_of(page)})
    assert asked.status_code == 200 and 'name="confirmed" value="yes"' in asked.get_data(as_text=True)
    assert member.get(f"/c/{club['id']}").status_code == 200
    assert owner.post(f"/c/{club['id']}/devices/{ids[1]}/remove", data={"confirmed": "yes"}).status_code == 400
    done = owner.post(f"/c/{club['id']}/devices/{ids[1]}/remove",
                      data={"confirmed": "yes", "csrf_token": csrf_of(page)})
    assert done.status_code == 302
    after = owner.get(done.headers["Location"]).get_data(as_text=True)
    assert flashes(after)[0].endswith("was removed: it no longer opens the club.")
    assert re.findall(r'id="device-(\d+)"', after) == ids[:1]
    assert member.get(f"/c/{club['id']}").status_code == 403


def test_the_owner_renews_the_clubs_links_and_code(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Rosa"])
    owner, member = owner_phone(app, club), joined_by_code(app, club)
    page = owner.get(f"/c/{club['id']}/devices").get_data(as_text=True)
    asked = owner.post(f"/c/{club['id']}/rotate", data={"csrf_token": csrf_of(page)})
    assert asked.status_code == 200 and "stop working at once" in asked.get_data(as_text=True)
    done = owner.post(f"/c/{club['id']}/rotate", data={"confirmed": "yes", "csrf_token": csrf_of(page)})
    assert done.status_code == 302
    club_page = owner.get(done.headers["Location"]).get_data(as_text=True)
    assert 'id="club-share"' in club_page and club["member_token"] not in club_page
    assert member.get(f"/c/{club['id']}").status_code == 200  # a device that joined goes on
    stranger = app.test_client()
    assert stranger.get(f"/c/join/{club['id']}/{club['member_token']}").status_code == 403
    token = csrf_of(stranger.get("/clubs/join").get_data(as_text=True))
    assert stranger.post("/clubs/join", data={"code": club["table_code"], "csrf_token": token}).status_code == 422
