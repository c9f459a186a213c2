"""Revoking and rotating a club's secrets through the API (issue 20 item 6): the owner lists
the devices, removes one (its token then 401s), and renews the member and viewer links and the
club code (the old ones stop working, devices that joined go on); no one else may."""
from __future__ import annotations

from typing import Any

from club_nights import bearer, make_club


def club_url(club: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/clubs/{club['id']}{path}"


def join(client: Any, code: str) -> dict[str, str]:
    joined = client.post("/api/v1/clubs/join", json={"code": code})
    assert joined.status_code == 201, joined.get_json()
    return bearer(joined.get_json()["token"])


def test_the_owner_lists_and_removes_a_device(client: Any) -> None:
    club = make_club(client, members=["Ann", "Bo"])
    owner = bearer(club["token"])
    phone = join(client, club["table_code"])
    other = join(client, club["table_code"])
    for who in (phone, bearer(club["member_token"]), bearer(club["viewer_token"])):
        refused = client.get(club_url(club, "/devices"), headers=who)
        assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"
    listed = client.get(club_url(club, "/devices"), headers=owner).get_json()
    assert [(d["name"], d["role"]) for d in listed] == [
        ("The owner’s phone (the club’s own owner link)", "owner"), ("api client", "member"), ("api client", "member")]
    own_id, phone_id, other_id = (d["id"] for d in listed)

    refused = client.delete(club_url(club, f"/devices/{phone_id}"), headers=other)
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"
    removed = client.delete(club_url(club, f"/devices/{phone_id}"), headers=owner)
    assert removed.status_code == 200 and removed.get_json()["id"] == phone_id and removed.get_json()["revoked_at"]
    gone = client.get(club_url(club), headers=phone)
    assert gone.status_code == 401 and gone.get_json()["error"] == "token_revoked"
    assert client.get(club_url(club), headers=other).status_code == 200
    assert [d["id"] for d in client.get(club_url(club, "/devices"), headers=owner).get_json()] == [own_id, other_id]
    for missing, status, code in ((phone_id, 404, "device_not_found"), (99999, 404, "device_not_found"),
                                  (own_id, 409, "own_device")):
        response = client.delete(club_url(club, f"/devices/{missing}"), headers=owner)
        assert response.status_code == status and response.get_json()["error"] == code
    assert client.get(club_url(club), headers=owner).status_code == 200


def test_rotate_renews_the_links_and_code_and_keeps_joined_devices(client: Any) -> None:
    club = make_club(client, members=["Ann", "Bo"])
    phone = join(client, club["table_code"])
    refused = client.post(club_url(club, "/rotate"), headers=bearer(club["member_token"]))
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"

    rotated = client.post(club_url(club, "/rotate"), headers=bearer(club["token"]))
    assert rotated.status_code == 200
    new = rotated.get_json()
    share = client.get(club_url(club, "/share"), headers=bearer(new["token"])).get_json()
    assert new == share  # the shape (and values) of GET …/share
    for key in ("token", "member_token", "viewer_token", "table_code"):
        assert new[key] != club[key], key
    for token in (club["token"], club["member_token"], club["viewer_token"]):
        gone = client.get(club_url(club), headers=bearer(token))
        assert gone.status_code == 401 and gone.get_json()["error"] == "token_revoked"
    stale = client.post("/api/v1/clubs/join", json={"code": club["table_code"]})
    assert stale.status_code == 404 and stale.get_json()["error"] == "unknown_code"
    assert client.get(club_url(club), headers=phone).status_code == 200
    assert client.get(club_url(club), headers=bearer(new["member_token"])).status_code == 200
    join(client, new["table_code"])
