"""No single point of failure through the API: the phones of a night, co-hosts, the recovery
code (rate-limited with the table code's budget), restoring a voided hand, undoing an undo."""
from __future__ import annotations

import re
from datetime import datetime
from typing import Any

import pytest

from conftest import session_body

DISCARD = {"outcome": {"kind": "discard_out", "winner": "Rosa"}}
TONK = {"outcome": {"kind": "tonk_out", "winner": "Dee"}}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    return {"id": body["id"], "body": body, "host": bearer(body["token"]), "player": bearer(body["player_token"])}


def url(table: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/sessions/{table['id']}{path}"


def join(client: Any, table: dict[str, Any], name: str) -> dict[str, str]:
    joined = client.post("/api/v1/join", json={"code": table["body"]["table_code"]}, headers={"X-Device": name})
    assert joined.status_code == 201
    return bearer(joined.get_json()["token"])


def test_recovery_code_is_answered_once_and_high_entropy(table: dict[str, Any], client: Any) -> None:
    code = table["body"]["recovery_code"]
    assert re.fullmatch(r"[A-HJ-NP-Z2-9]{4}(-[A-HJ-NP-Z2-9]{4}){3}", code)
    share = client.get(url(table, "/share"), headers=table["host"]).get_json()
    assert "recovery_code" not in share
    other = client.post("/api/v1/sessions", json=session_body({
        "name": "Other", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic", "toggles": {}},
        "players": ["A", "B"], "first_dealer": "A"})).get_json()
    assert other["recovery_code"] != code


def test_phones_lists_each_phone_and_the_host_can_make_one_a_co_host(client: Any, table: dict[str, Any]) -> None:
    rosa = join(client, table, "Rosa's phone")
    phones = client.get(url(table, "/phones"), headers=rosa).get_json()
    assert [(p["name"], p["role"]) for p in phones] == [
        ("Host’s phone (the night’s own host link)", "host"), ("Rosa's phone", "player")]
    assert all(datetime.fromisoformat(p["last_seen"]).utcoffset() is not None for p in phones)
    rosa_id = phones[1]["id"]

    assert client.post(url(table, "/hands"), json=DISCARD, headers=rosa).status_code == 201
    refused = client.post(url(table, "/hosts"), json={"phone": rosa_id}, headers=rosa)
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"
    assert client.post(url(table, "/hands/1/void"), headers=rosa).status_code == 403

    made = client.post(url(table, "/hosts"), json={"phone": rosa_id}, headers=table["host"])
    assert made.status_code == 200
    assert made.get_json()["role"] == "host" and made.get_json()["id"] == rosa_id
    # the co-host corrects, voids, restores, undoes and closes
    assert client.post(url(table, "/hands/1/void"), headers=rosa).get_json()["status"] == "voided"
    assert client.post(url(table, "/hands/1/restore"), headers=rosa).get_json()["status"] == "counted"
    assert client.post(url(table, "/undo"), headers=rosa).get_json()["number"] == 1
    # but the links stay with the host's own phone (they derive from its token)
    assert client.get(url(table, "/share"), headers=rosa).status_code == 403
    events = client.get(url(table, "/history"), headers=rosa).get_json()["events"]
    added = [e for e in events if e["action"] == "cohost_added"]
    assert len(added) == 1 and added[0]["detail"]["after"] == {"phone": rosa_id, "name": "Rosa's phone", "role": "host"}
    assert client.post(url(table, "/close"), headers=rosa).get_json()["status"] == "closed"


def test_co_host_refuses_unknown_phones_and_links(client: Any, table: dict[str, Any]) -> None:
    host_link = client.get(url(table, "/phones"), headers=table["host"]).get_json()[0]["id"]
    for phone, status in ((host_link, 404), (99999, 404), ("3", 422)):
        response = client.post(url(table, "/hosts"), json={"phone": phone}, headers=table["host"])
        assert response.status_code == status, phone
    other = client.post("/api/v1/sessions", json=session_body({
        "name": "Other", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic", "toggles": {}},
        "players": ["A", "B"], "first_dealer": "A"})).get_json()
    stranger = client.post("/api/v1/join", json={"code": other["table_code"]}).get_json()
    stranger_id = client.get(f"/api/v1/sessions/{other['id']}/phones",
                             headers=bearer(stranger["token"])).get_json()[1]["id"]
    response = client.post(url(table, "/hosts"), json={"phone": stranger_id}, headers=table["host"])
    assert response.status_code == 404 and response.get_json()["error"] == "phone_not_found"


def test_recovery_code_gives_a_new_phone_the_host_rights(client: Any, table: dict[str, Any]) -> None:
    code = table["body"]["recovery_code"]
    assert client.post(url(table, "/hands"), json=DISCARD, headers=table["player"]).status_code == 201
    wrong = client.post(url(table, "/recover"), json={"code": "AAAA-BBBB-CCCC-DDDD"})
    assert wrong.status_code == 404 and wrong.get_json()["error"] == "unknown_code"
    recovered = client.post(url(table, "/recover"), json={"code": code.lower().replace("-", " ")},
                            headers={"X-Device": "Dee's new phone"})
    assert recovered.status_code == 201
    body = recovered.get_json()
    assert body["role"] == "host" and body["id"] == table["id"]
    new_host = bearer(body["token"])
    # everything the host could do; the host's own link is never handed out: it renews the links
    assert client.get(url(table, "/share"), headers=new_host).status_code == 403
    rotated = client.post(url(table, "/rotate"), headers=new_host)
    assert rotated.status_code == 200 and rotated.get_json()["table_code"] != table["body"]["table_code"]
    assert client.post(url(table, "/hands/1/void"), headers=new_host).status_code == 200
    events = client.get(url(table, "/history"), headers=new_host).get_json()["events"]
    assert [e["device"] for e in events if e["action"] == "host_recovered"] == ["Dee's new phone"]
    # another night's code does not open this one
    other = client.post("/api/v1/sessions", json=session_body({
        "name": "Other", "currency": "USD", "stake": 25, "ruleset": {"preset": "classic", "toggles": {}},
        "players": ["A", "B"], "first_dealer": "A"})).get_json()
    assert client.post(url(table, "/recover"), json={"code": other["recovery_code"]}).status_code == 404
    # nor is the code a bearer token
    assert client.get(url(table), headers=bearer(code)).status_code == 403


def test_recovery_shares_the_join_codes_budget_of_guesses(client: Any, table: dict[str, Any]) -> None:
    statuses = [client.post("/api/v1/join", json={"code": "ZZZZZZ"}).status_code for _ in range(5)]
    statuses += [client.post(url(table, "/recover"), json={"code": f"AAAA-AAAA-AAAA-AAA{i}"}).status_code
                 for i in range(2, 9)]
    assert statuses[:10] == [404] * 10 and statuses[10:] == [429, 429]
    blocked = client.post(url(table, "/recover"), json={"code": table["body"]["recovery_code"]})
    assert blocked.status_code == 429 and blocked.get_json()["error"] == "too_many_attempts"


def test_restore_counts_a_voided_hand_again(client: Any, table: dict[str, Any]) -> None:
    client.post(url(table, "/hands"), json=DISCARD, headers=table["host"])
    before = client.get(url(table), headers=table["host"]).get_json()["net"]
    client.post(url(table, "/hands/1/void"), headers=table["host"])
    assert client.get(url(table), headers=table["host"]).get_json()["net"]["Rosa"] == 0
    refused = client.post(url(table, "/hands/1/restore"), headers=table["player"])
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"
    restored = client.post(url(table, "/hands/1/restore"), headers=table["host"])
    assert restored.status_code == 200
    assert restored.get_json()["status"] == "counted" and restored.get_json()["voided_at"] is None
    assert restored.get_json()["session_net"] == before == client.get(url(table), headers=table["host"]).get_json()["net"]
    assert client.post(url(table, "/hands/1/restore"), headers=table["host"]).status_code == 200  # no change
    assert client.post(url(table, "/hands/9/restore"), headers=table["host"]).status_code == 404
    actions = [e["action"] for e in client.get(url(table, "/history"), headers=table["host"]).get_json()["events"]]
    assert actions.count("hand_restored") == 1
    client.post(url(table, "/close"), headers=table["host"])
    client_void = client.post(url(table, "/hands/1/void"), headers=table["host"])
    assert client_void.status_code == 409
    assert client.post(url(table, "/hands/1/restore"), headers=table["host"]).get_json()["error"] == "session_closed"


def test_an_undo_can_be_undone(client: Any, table: dict[str, Any]) -> None:
    client.post(url(table, "/hands"), json=DISCARD, headers=table["host"])
    client.post(url(table, "/hands"), json=TONK, headers=table["host"])
    assert client.post(url(table, "/redo"), headers=table["host"]).get_json()["error"] == "nothing_to_redo"
    client.post(url(table, "/hands/1/void"), headers=table["host"])  # a plain void is not an undo
    assert client.post(url(table, "/redo"), headers=table["host"]).status_code == 404
    assert client.post(url(table, "/undo"), headers=table["host"]).get_json()["number"] == 2
    redone = client.post(url(table, "/redo"), headers=table["host"])
    assert redone.status_code == 200 and redone.get_json()["number"] == 2
    assert redone.get_json()["status"] == "counted"
    assert client.post(url(table, "/redo"), headers=table["host"]).status_code == 404  # once
    body = client.get(url(table), headers=table["host"]).get_json()
    assert body["hand_count"] == 1 and body["net"]["Dee"] == 150
