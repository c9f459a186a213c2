"""Revoking and rotating a night's secrets through the API (issue 20 item 6): removing a phone,
the one-time recovery code and a new one, new links and codes for the whole table."""
from __future__ import annotations

from typing import Any

import pytest

from conftest import session_body

DISCARD = {"outcome": {"kind": "discard_out", "winner": "Rosa"}}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    return {"id": body["id"], "body": body, "host": bearer(body["token"]), "player": bearer(body["player_token"])}


def url(table: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/sessions/{table['id']}{path}"


def join(client: Any, code: str, name: str) -> dict[str, str]:
    joined = client.post("/api/v1/join", json={"code": code}, headers={"X-Device": name})
    assert joined.status_code == 201, joined.get_json()
    return bearer(joined.get_json()["token"])


def phone_id(client: Any, table: dict[str, Any], name: str) -> int:
    phones = client.get(url(table, "/phones"), headers=table["host"]).get_json()
    return next(p["id"] for p in phones if p["name"] == name)


def test_the_host_removes_a_phone_and_its_token_answers_401(client: Any, table: dict[str, Any]) -> None:
    rosa = join(client, table["body"]["table_code"], "Rosa's phone")
    sam = join(client, table["body"]["table_code"], "Sam's phone")
    rosa_id = phone_id(client, table, "Rosa's phone")
    assert client.post(url(table, "/hands"), json=DISCARD, headers=rosa).status_code == 201

    # a player may not remove anyone, not even another player
    refused = client.delete(url(table, f"/phones/{rosa_id}"), headers=sam)
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"

    removed = client.delete(url(table, f"/phones/{rosa_id}"), headers=table["host"])
    assert removed.status_code == 200
    body = removed.get_json()
    assert (body["id"], body["name"], body["role"]) == (rosa_id, "Rosa's phone", "player")
    assert body["revoked_at"]
    gone = client.get(url(table), headers=rosa)
    assert gone.status_code == 401 and gone.get_json()["error"] == "token_revoked"
    assert client.post(url(table, "/hands"), json=DISCARD, headers=rosa).status_code == 401
    # the list drops it; the other phones go on
    names = [p["name"] for p in client.get(url(table, "/phones"), headers=sam).get_json()]
    assert names == ["Host’s phone (the night’s own host link)", "Sam's phone"]
    assert client.get(url(table), headers=sam).status_code == 200
    # the history says who removed whom
    events = client.get(url(table, "/history"), headers=table["host"]).get_json()["events"]
    revoked = [e for e in events if e["action"] == "phone_revoked"]
    assert len(revoked) == 1 and revoked[0]["actor_role"] == "host"
    assert revoked[0]["access_key_id"] == client.get(url(table, "/phones"), headers=sam).get_json()[0]["id"]
    assert revoked[0]["detail"]["before"] == {"phone": rosa_id, "name": "Rosa's phone", "role": "player",
                                              "kind": "device"}
    # removing it again, or an unknown phone, is 404
    for missing in (rosa_id, 99999):
        again = client.delete(url(table, f"/phones/{missing}"), headers=table["host"])
        assert again.status_code == 404 and again.get_json()["error"] == "phone_not_found"


def test_no_phone_removes_itself_and_a_co_host_removes_no_one(client: Any, table: dict[str, Any]) -> None:
    host_link = client.get(url(table, "/phones"), headers=table["host"]).get_json()[0]["id"]
    own = client.delete(url(table, f"/phones/{host_link}"), headers=table["host"])
    assert own.status_code == 409 and own.get_json()["error"] == "own_phone"
    assert client.get(url(table), headers=table["host"]).status_code == 200

    rosa = join(client, table["body"]["table_code"], "Rosa's phone")
    join(client, table["body"]["table_code"], "Sam's phone")
    rosa_id, sam_id = phone_id(client, table, "Rosa's phone"), phone_id(client, table, "Sam's phone")
    assert client.post(url(table, "/hosts"), json={"phone": rosa_id}, headers=table["host"]).status_code == 200
    for path, method in ((f"/phones/{host_link}", "delete"), (f"/phones/{sam_id}", "delete"),
                         ("/rotate", "post"), ("/recovery", "post")):
        refused = getattr(client, method)(url(table, path), headers=rosa)
        assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden", path
    assert client.get(url(table), headers=table["host"]).status_code == 200
    assert len(client.get(url(table, "/phones"), headers=rosa).get_json()) == 3


def test_the_recovery_code_works_once_and_never_hands_out_the_host_link(
        client: Any, table: dict[str, Any]) -> None:
    code = table["body"]["recovery_code"]
    recovered = client.post(url(table, "/recover"), json={"code": code}, headers={"X-Device": "Dee's new phone"})
    assert recovered.status_code == 201
    body = recovered.get_json()
    assert body["role"] == "host" and body["token"] != table["body"]["token"]
    new_host = bearer(body["token"])
    phones = client.get(url(table, "/phones"), headers=new_host).get_json()
    assert [(p["id"], p["name"], p["role"]) for p in phones][-1] == (body["phone"], "Dee's new phone", "host")
    # a second use, from any phone, is refused
    again = client.post(url(table, "/recover"), json={"code": code}, headers={"X-Device": "thief"})
    assert again.status_code == 410 and again.get_json()["error"] == "code_used"
    assert len(client.get(url(table, "/phones"), headers=new_host).get_json()) == 2
    # the recovered phone is the night's own host: it removes the lost phone, whose link then 401s
    lost = phones[0]["id"]
    assert client.delete(url(table, f"/phones/{lost}"), headers=new_host).status_code == 200
    assert client.get(url(table), headers=table["host"]).status_code == 401
    # and it issues a new recovery code, which works once in turn
    issued = client.post(url(table, "/recovery"), headers=new_host)
    assert issued.status_code == 201
    fresh = issued.get_json()["recovery_code"]
    assert fresh != code
    assert client.post(url(table, "/recover"), json={"code": fresh}).status_code == 201
    assert client.post(url(table, "/recover"), json={"code": fresh}).status_code == 410


def test_a_new_recovery_code_replaces_the_old_one(client: Any, table: dict[str, Any]) -> None:
    old = table["body"]["recovery_code"]
    refused = client.post(url(table, "/recovery"), headers=table["player"])
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"
    issued = client.post(url(table, "/recovery"), headers=table["host"]).get_json()["recovery_code"]
    second = client.post(url(table, "/recovery"), headers=table["host"]).get_json()["recovery_code"]
    assert len({old, issued, second}) == 3
    for stale in (old, issued):
        response = client.post(url(table, "/recover"), json={"code": stale})
        assert response.status_code == 410 and response.get_json()["error"] == "code_used"
    assert client.post(url(table, "/recover"), json={"code": second}).status_code == 201
    events = client.get(url(table, "/history"), headers=table["host"]).get_json()["events"]
    assert [e["action"] for e in events].count("recovery_code_issued") == 2


def test_rotate_replaces_every_link_and_code_and_keeps_joined_phones(
        client: Any, table: dict[str, Any]) -> None:
    old = table["body"]
    rosa = join(client, old["table_code"], "Rosa's phone")
    refused = client.post(url(table, "/rotate"), headers=rosa)
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"

    rotated = client.post(url(table, "/rotate"), headers=table["host"])
    assert rotated.status_code == 200
    new = rotated.get_json()
    share = client.get(url(table, "/share"), headers=bearer(new["token"])).get_json()
    assert {k: new[k] for k in share} == share  # the shape of /share, and its values
    assert set(new) == set(share) | {"token", "recovery_code"}
    for key in ("token", "player_token", "viewer_token", "table_code", "recovery_code"):
        assert new[key] != old[key], key
    # every old link token 401s, the old codes are refused
    for token in (old["token"], old["player_token"], old["viewer_token"]):
        gone = client.get(url(table), headers=bearer(token))
        assert gone.status_code == 401 and gone.get_json()["error"] == "token_revoked"
    stale = client.post("/api/v1/join", json={"code": old["table_code"]})
    assert stale.status_code == 404 and stale.get_json()["error"] == "unknown_code"
    assert client.post(url(table, "/recover"), json={"code": old["recovery_code"]}).status_code == 410
    # the phone that joined keeps its own token; the new links and code work
    assert client.post(url(table, "/hands"), json=DISCARD, headers=rosa).status_code == 201
    assert client.get(url(table), headers=bearer(new["player_token"])).status_code == 200
    join(client, new["table_code"], "Sam's phone")
    assert client.post(url(table, "/recover"), json={"code": new["recovery_code"]}).status_code == 201
    events = client.get(url(table, "/history"), headers=rosa).get_json()["events"]
    assert [e["actor_role"] for e in events if e["action"] == "links_rotated"] == ["host"]


def test_the_host_pdf_prints_the_recovery_code_only_while_it_works(client: Any, table: dict[str, Any]) -> None:
    from ledger.access import roles as access
    from ledger.night import lifecycle as ledger_night
    from ledger.storage.db import get_session

    with client.application.app_context():
        db = get_session()
        night = ledger_night.find_night(db, table["id"])
        assert access.live_recovery_code(db, night, table["body"]["token"]) == table["body"]["recovery_code"]
    issued = client.post(url(table, "/recovery"), headers=table["host"]).get_json()["recovery_code"]
    with client.application.app_context():
        db = get_session()
        night = ledger_night.find_night(db, table["id"])
        assert access.live_recovery_code(db, night, table["body"]["token"]) == issued
    client.post(url(table, "/recover"), json={"code": issued})
    with client.application.app_context():
        db = get_session()
        night = ledger_night.find_night(db, table["id"])
        assert access.live_recovery_code(db, night, table["body"]["token"]) == ""
