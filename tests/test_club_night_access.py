"""A club token opens the club's nights (issue 9): exchanged for a night token of the holder's
own in the role the club role gives (owner → host, member → player, viewer → viewer), through
the API and from the club page on a phone; never for a night outside the club."""
from __future__ import annotations

from typing import Any

from club_nights import NIGHT, bearer, close, make_club, play_part
from conftest import session_body


def night_token(client: Any, club: dict[str, Any], token: str, session_id: str) -> Any:
    return client.post(f"/api/v1/clubs/{club['id']}/nights/{session_id}/token", headers=bearer(token))


def test_each_club_role_gets_its_night_role(client: Any) -> None:
    club = make_club(client)
    night = play_part(client, club, 0)
    roles = {}
    for name in ("token", "member_token", "viewer_token"):
        answer = night_token(client, club, club[name], night["id"])
        assert answer.status_code == 201
        body = answer.get_json()
        assert body["id"] == night["id"] and body["token"] not in (club[name], night["token"])
        roles[name] = body
    assert [roles[n]["role"] for n in ("token", "member_token", "viewer_token")] == ["host", "player", "viewer"]
    hand = NIGHT["hands"][10]
    entry = {"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]}
    recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(roles["member_token"]["token"]),
                           json=entry)
    assert recorded.status_code == 201 and recorded.get_json()["number"] == 11
    refused = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(roles["viewer_token"]["token"]),
                          json=entry)
    assert (refused.status_code, refused.get_json()["error"]) == (403, "role_forbidden")
    assert client.get(f"/api/v1/sessions/{night['id']}", headers=bearer(roles["viewer_token"]["token"])).status_code == 200
    member_voids = client.post(f"/api/v1/sessions/{night['id']}/hands/11/void",
                               headers=bearer(roles["member_token"]["token"]))
    assert member_voids.status_code == 403
    owner_voids = client.post(f"/api/v1/sessions/{night['id']}/hands/11/void", headers=bearer(roles["token"]["token"]))
    assert owner_voids.status_code == 200
    closed = client.post(f"/api/v1/sessions/{night['id']}/close", headers=bearer(roles["token"]["token"]),
                         json={"carry_over": True})
    assert closed.status_code == 200
    # a closed night still opens to read
    assert night_token(client, club, club["viewer_token"], night["id"]).status_code == 201


def test_a_club_token_opens_no_other_night(client: Any, open_night: dict[str, Any]) -> None:
    club, other = make_club(client), make_club(client)
    theirs = play_part(client, other, 0)
    for session_id in (open_night["id"], theirs["id"], "nope"):
        refused = night_token(client, club, club["token"], session_id)
        assert (refused.status_code, refused.get_json()["error"]) == (404, "session_not_found")
    assert night_token(client, club, other["token"], theirs["id"]).status_code == 403  # another club's token
    assert client.post(f"/api/v1/clubs/{club['id']}/nights/{theirs['id']}/token").status_code == 401
    assert client.post("/api/v1/sessions", json=session_body(NIGHT)).status_code == 201


def test_the_club_page_opens_a_night_with_the_phones_club_role(app: Any, client: Any) -> None:
    club = make_club(client)
    night = play_part(client, club, 0)
    member = app.test_client()
    member.get(f"/c/join/{club['id']}/{club['member_token']}")
    assert member.get(f"/s/{night['id']}").status_code == 403  # the club token alone is not the night's
    page = member.get(f"/c/{club['id']}").get_data(as_text=True)
    assert f'href="/c/{club["id"]}/nights/{night["id"]}"' in page
    opened = member.get(f"/c/{club['id']}/nights/{night['id']}")
    assert opened.status_code == 302 and opened.headers["Location"] == f"/s/{night['id']}"
    table = member.get(f"/s/{night['id']}")
    assert table.status_code == 200 and f'/s/{night["id"]}/record' in table.get_data(as_text=True)
    phones = client.get(f"/api/v1/sessions/{night['id']}/phones", headers=bearer(night["token"])).get_json()
    member.get(f"/c/{club['id']}/nights/{night['id']}")  # again: the token kept is used, none minted
    again = client.get(f"/api/v1/sessions/{night['id']}/phones", headers=bearer(night["token"])).get_json()
    assert len(again) == len(phones) and sum(p["role"] == "player" for p in again) == 1
    close(client, night, carry_over=False)
    viewer = app.test_client()
    viewer.get(f"/c/join/{club['id']}/{club['viewer_token']}")
    viewer.get(f"/c/{club['id']}/nights/{night['id']}")
    assert viewer.get(f"/s/{night['id']}").status_code == 200
    assert viewer.get(f"/c/{club['id']}/nights/not-a-night").status_code == 404
