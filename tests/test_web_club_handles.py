"""A club member's payment handles on the club page (issue 22): the owner's phone keeps any member's
handles for the club's settle-up, through the same checks as ``PUT /clubs/{id}/members/{member_id}/handles``;
a refused handle shows the club again (422) with what was typed and the field's sentence beside that
member's form; a member-link phone or a viewer has no form, and a viewer's post is refused (403)."""
from __future__ import annotations

import html
import re
from typing import Any

from club_nights import bearer, close, make_club, won_club_night
from test_web_pages import csrf_of


def phone_with(app: Any, club: dict[str, Any], token: str) -> Any:
    phone = app.test_client()
    assert phone.get(f"/c/join/{club['id']}/{token}").status_code == 302
    return phone


def member_ids(client: Any, club: dict[str, Any]) -> dict[str, int]:
    members = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"]
    return {m["name"]: m["id"] for m in members}


def form_of(page: str, member_id: int) -> str:
    found = re.search(rf'<details class="member-handles" id="member-handles-{member_id}"[^>]*>(.*?)</form>', page,
                      re.DOTALL)
    assert found, f"no handles form for member {member_id}"
    return found.group(0)


def save(phone: Any, club: dict[str, Any], member_id: int, data: dict[str, str]) -> Any:
    token = csrf_of(phone.get("/").get_data(as_text=True))  # a viewer's club page has no form
    return phone.post(f"/c/{club['id']}/members/{member_id}/handles", data=data | {"csrf_token": token})


def test_the_owner_keeps_a_members_venmo_and_the_club_settle_up_hands_it_off(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Rosa"])
    close(client, won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee"), True)
    ids = member_ids(client, club)
    owner = phone_with(app, club, club["token"])
    page = owner.get(f"/c/{club['id']}").get_data(as_text=True)
    form = form_of(page, ids["Dee"])
    first, more = form.split('<details class="more-handles"')
    assert re.findall(r'name="([a-z_]+)"', first) == ["csrf_token", "venmo", "cashapp", "paypal", "qr"]  # fit USD
    assert re.findall(r'name="([a-z_]+)"', more) == ["upi", "iban", "name", "bic"]  # behind "More"
    saved = save(owner, club, ids["Dee"], {"venmo": "Dee-Santos"})
    assert saved.status_code == 302 and saved.headers["Location"].endswith(f"#member-handles-{ids['Dee']}")
    kept = client.get(f"/api/v1/clubs/{club['id']}/members/{ids['Dee']}/handles", headers=bearer(club["token"]))
    assert kept.get_json()["handles"] == {"venmo": "Dee-Santos"}
    shown = owner.get(f"/c/{club['id']}").get_data(as_text=True)
    assert "Dee's payment handles are saved." in html.unescape(shown)
    assert 'value="Dee-Santos"' in form_of(shown, ids["Dee"])
    plan = client.get(f"/api/v1/clubs/{club['id']}/settlement", headers=bearer(club["token"])).get_json()
    to_dee = [t for t in plan["transfers"] if t["to"] == "Dee"]
    assert to_dee and all(any(p["kind"] == "venmo" and "Dee-Santos" in p["url"] for p in t["pay"]) for t in to_dee)


def test_a_refused_handle_keeps_what_was_typed_beside_its_member(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus"])
    ids = member_ids(client, club)
    owner = phone_with(app, club, club["token"])
    refused = save(owner, club, ids["Marcus"], {"venmo": "marcus_r", "iban": "EE00 not an iban"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    form = form_of(page, ids["Marcus"])
    assert 'value="marcus_r"' in form and 'value="EE00 not an iban"' in form
    assert re.search(r'<details class="more-handles" open>', form), "the refused field is behind More: More opens"
    error = re.search(r'<p class="error" id="err-member-\d+-handle" role="alert">([^<]+)</p>', form)
    assert error and "IBAN" in html.unescape(error.group(1))
    assert re.search(r'id="member-\d+-handle-iban" name="iban"[^>]*aria-invalid="true"', form)
    assert client.get(f"/api/v1/clubs/{club['id']}/members/{ids['Marcus']}/handles",
                      headers=bearer(club["token"])).get_json()["handles"] == {}  # nothing kept


def test_a_member_link_or_a_viewer_has_no_form_and_a_viewer_cannot_post(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus"])
    ids = member_ids(client, club)
    member = phone_with(app, club, club["member_token"])
    assert 'class="member-handles"' not in member.get(f"/c/{club['id']}").get_data(as_text=True)
    viewer = phone_with(app, club, club["viewer_token"])
    assert 'class="member-handles"' not in viewer.get(f"/c/{club['id']}").get_data(as_text=True)
    assert save(viewer, club, ids["Dee"], {"venmo": "not-dee"}).status_code == 403
    assert save(member, club, ids["Dee"], {"venmo": "not-dee"}).status_code == 403  # a link is not Dee's phone
    assert client.get(f"/api/v1/clubs/{club['id']}/members/{ids['Dee']}/handles",
                      headers=bearer(club["token"])).get_json()["handles"] == {}
