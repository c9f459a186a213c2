"""Payment handles through the API (issue 22): a night player's and a club member's, set by the
player's own phone, a host or the club's owner; a viewer and another player's phone refused; a bad
handle 422 naming its field; read only with that night's or club's tokens."""
from __future__ import annotations

from typing import Any

from club_nights import bearer, make_club

IBAN = "EE382200221020145685"


def join(client: Any, code: str, name: str) -> dict[str, str]:
    response = client.post("/api/v1/join", json={"code": code, "name": name})
    assert response.status_code in (200, 201), response.get_json()
    return bearer(response.get_json()["token"])


def viewer_headers(night: dict[str, Any]) -> dict[str, str]:
    link = night["body"]["links"]["viewer"]
    return bearer(link.rstrip("/").rsplit("/", 1)[-1])


def test_a_host_sets_and_reads_a_players_handles(client: Any, open_night: dict[str, Any]) -> None:
    url = f"/api/v1/sessions/{open_night['id']}/players/Dee/handles"
    assert client.get(url, headers=open_night["headers"]).get_json() == {"player": "Dee", "handles": {}}
    put = client.put(url, headers=open_night["headers"],
                     json={"venmo": "@Dee-Santos", "cashapp": "$dee", "iban": "ee38 2200 2210 2014 5685",
                           "name": "Dee Santos", "upi": ""})
    assert put.status_code == 200, put.get_json()
    expected = {"player": "Dee", "handles": {"venmo": "Dee-Santos", "cashapp": "dee", "iban": IBAN,
                                             "name": "Dee Santos"}}
    assert put.get_json() == expected
    assert client.get(url, headers=open_night["headers"]).get_json() == expected
    # the body replaces every handle
    assert client.put(url, headers=open_night["headers"], json={"paypal": "deesantos"}).get_json()["handles"] == {
        "paypal": "deesantos"}
    history = client.get(f"/api/v1/sessions/{open_night['id']}/history", headers=open_night["headers"]).get_json()
    shown = [e for e in history["events"] if e["action"] == "handles_set"]
    assert len(shown) == 2 and IBAN not in str(history)  # the history names the kinds, never the details


def test_only_the_players_own_phone_a_host_may_set_them(client: Any, open_night: dict[str, Any]) -> None:
    code = open_night["body"]["table_code"]
    dee = join(client, code, "Dee")
    marcus = join(client, code, "Marcus")
    url = f"/api/v1/sessions/{open_night['id']}/players/Dee/handles"
    assert client.put(url, headers=dee, json={"venmo": "dee_s"}).status_code == 200
    refused = client.put(url, headers=marcus, json={"venmo": "marcus_s"})
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"
    viewer = client.put(url, headers=viewer_headers(open_night), json={"venmo": "viewer_x"})
    assert viewer.status_code == 403 and viewer.get_json()["error"] == "role_forbidden"
    assert client.get(url, headers=marcus).get_json()["handles"] == {"venmo": "dee_s"}
    assert client.get(url, headers=viewer_headers(open_night)).get_json()["handles"] == {"venmo": "dee_s"}


def test_bad_handles_are_422_naming_the_field(client: Any, open_night: dict[str, Any]) -> None:
    url = f"/api/v1/sessions/{open_night['id']}/players/Rosa/handles"
    cases = [({"iban": "EE382200221020145686", "name": "Rosa"}, "iban"), ({"upi": "rosa.okaxis"}, "upi"),
             ({"qr": "00020101021163041234"}, "qr"), ({"iban": IBAN}, "name"), ({"zelle": "x"}, "zelle"),
             ({"venmo": 5}, "venmo")]
    for body, field in cases:
        response = client.put(url, headers=open_night["headers"], json=body)
        assert response.status_code == 422, (body, response.get_json())
        assert response.get_json()["error"] == "invalid_handle" and response.get_json()["field"] == field
        assert response.get_json()["message"]
    assert client.get(url, headers=open_night["headers"]).get_json()["handles"] == {}
    missing = client.put(f"/api/v1/sessions/{open_night['id']}/players/Nobody/handles",
                         headers=open_night["headers"], json={"venmo": "nobody"})
    assert missing.status_code == 404 and missing.get_json()["error"] == "player_not_found"


def test_another_nights_token_cannot_read_them(client: Any, open_night: dict[str, Any],
                                               night_data: dict[str, Any]) -> None:
    from conftest import session_body

    url = f"/api/v1/sessions/{open_night['id']}/players/Dee/handles"
    client.put(url, headers=open_night["headers"], json={"venmo": "dee_s"})
    other = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    for method in (client.get, client.put):
        response = method(url, headers=bearer(other["token"]), json={"venmo": "x_x_x"})
        assert response.status_code == 403 and response.get_json()["error"] == "forbidden"
    assert client.get(url).status_code == 401


def test_a_club_members_handles(client: Any) -> None:
    club = make_club(client, currency="EUR", members=["Dee", "Marcus"])
    members = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"]
    dee = next(m for m in members if m["name"] == "Dee")
    url = f"/api/v1/clubs/{club['id']}/members/{dee['id']}/handles"
    put = client.put(url, headers=bearer(club["token"]), json={"iban": IBAN, "name": "Dee Tamm", "bic": "habaee2x"})
    assert put.status_code == 200, put.get_json()
    expected = {"member_id": dee["id"], "name": "Dee",
                "handles": {"iban": IBAN, "name": "Dee Tamm", "bic": "HABAEE2X"}}
    assert put.get_json() == expected
    assert client.get(url, headers=bearer(club["viewer_token"])).get_json() == expected
    viewer = client.put(url, headers=bearer(club["viewer_token"]), json={"venmo": "dee_s"})
    assert viewer.status_code == 403 and viewer.get_json()["error"] == "role_forbidden"
    shared_link = client.put(url, headers=bearer(club["member_token"]), json={"venmo": "dee_s"})
    assert shared_link.status_code == 403  # the members' shared link is nobody's own phone
    phone = client.post("/api/v1/clubs/join", json={"code": club["table_code"], "name": "Dee"}).get_json()
    own = client.put(url, headers=bearer(phone["token"]), json={"iban": IBAN, "name": "Dee Tamm"})
    assert own.status_code == 200 and own.get_json()["handles"] == {"iban": IBAN, "name": "Dee Tamm"}
    bad = client.put(url, headers=bearer(club["token"]), json={"iban": "EE382200221020145686", "name": "Dee"})
    assert bad.status_code == 422 and bad.get_json()["field"] == "iban"
    other = make_club(client)
    assert client.get(url, headers=bearer(other["token"])).status_code == 403
    assert client.get(f"/api/v1/clubs/{club['id']}/members/999999/handles",
                      headers=bearer(club["token"])).status_code == 404
