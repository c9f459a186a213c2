"""Table-ready API: roles and joining, hand numbers claimed by several phones, amendments with
versions, undo, payments at settle-up, the audit history and exports."""
from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from conftest import session_body
from money_checks import assert_no_floats

DISCARD = {"outcome": {"kind": "discard_out", "winner": "Rosa"}}
TONK = {"outcome": {"kind": "tonk_out", "winner": "Dee"}}


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture
def table(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    return {
        "id": body["id"], "body": body,
        "host": bearer(body["token"]), "player": bearer(body["player_token"]), "viewer": bearer(body["viewer_token"]),
    }


def url(table: dict[str, Any], path: str = "") -> str:
    return f"/api/v1/sessions/{table['id']}{path}"


def test_roles_separate_what_each_link_may_do(client: Any, table: dict[str, Any]) -> None:
    body = table["body"]
    assert body["links"]["player"].endswith(f"/join/{table['id']}/{body['player_token']}")
    assert len(body["table_code"]) == 6 and body["table_code"].isalnum()
    assert client.post(url(table, "/hands"), json=DISCARD, headers=table["player"]).status_code == 201
    refused = client.post(url(table, "/hands"), json=TONK, headers=table["viewer"])
    assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden"
    for path in ("/hands/1/void", "/undo", "/close"):
        response = client.post(url(table, path), headers=table["player"])
        assert response.status_code == 403, path
        assert response.get_json()["error"] == "role_forbidden"
    amend = client.post(url(table, "/hands/1/amend"), json=TONK | {"version": 1}, headers=table["player"])
    assert amend.status_code == 403
    assert client.get(url(table, "/share"), headers=table["player"]).status_code == 403
    for role in ("player", "viewer"):
        assert client.get(url(table, ""), headers=table[role]).get_json()["net"]["Rosa"] == 75
    assert client.get(url(table, "/share"), headers=table["host"]).get_json()["table_code"] == body["table_code"]
    assert client.post(url(table, "/hands/1/void"), headers=table["host"]).status_code == 200


def test_table_code_gives_a_phone_its_own_player_token(client: Any, table: dict[str, Any]) -> None:
    code = table["body"]["table_code"]
    joined = client.post("/api/v1/join", json={"code": f" {code.lower()[:3]}-{code.lower()[3:]} "},
                         headers={"X-Device": "Rosa's phone"})
    assert joined.status_code == 201
    body = joined.get_json()
    assert body["id"] == table["id"] and body["role"] == "player"
    assert body["token"] not in (table["body"]["token"], table["body"]["player_token"])
    assert client.post(url(table, "/hands"), json=DISCARD, headers=bearer(body["token"])).status_code == 201
    events = client.get(url(table, "/history"), headers=table["viewer"]).get_json()["events"]
    recorded = [e for e in events if e["action"] == "hand_recorded"]
    assert recorded[0]["device"] == "Rosa's phone" and recorded[0]["actor_role"] == "player"


def test_guessing_codes_is_rate_limited(client: Any, table: dict[str, Any]) -> None:
    statuses = [client.post("/api/v1/join", json={"code": f"ZZZZZ{i}"}).status_code for i in range(12)]
    assert statuses[:10] == [404] * 10
    assert statuses[10:] == [429, 429]
    # even the right code is refused while the limit holds
    blocked = client.post("/api/v1/join", json={"code": table["body"]["table_code"]})
    assert blocked.status_code == 429 and blocked.get_json()["error"] == "too_many_attempts"


def test_a_taken_hand_number_is_a_conflict_showing_the_existing_hand(client: Any, table: dict[str, Any]) -> None:
    first = client.post(url(table, "/hands"), json=DISCARD | {"number": 1}, headers=table["player"])
    assert first.status_code == 201
    clash = client.post(url(table, "/hands"), json=TONK | {"number": 1}, headers=table["host"])
    assert clash.status_code == 409
    body = clash.get_json()
    assert body["error"] == "hand_number_taken"
    assert body["existing"]["number"] == 1 and body["existing"]["outcome"]["winner"] == "Rosa"
    assert body["next_number"] == 2
    gap = client.post(url(table, "/hands"), json=TONK | {"number": 5}, headers=table["host"])
    assert gap.status_code == 409 and gap.get_json()["error"] == "hand_number_gap"
    ok = client.post(url(table, "/hands"), json=TONK | {"number": 2}, headers=table["host"])
    assert ok.status_code == 201 and ok.get_json()["number"] == 2
    state = client.get(url(table), headers=table["host"]).get_json()
    assert state["hand_count"] == 2 and state["next_number"] == 3


def test_amend_keeps_both_versions_and_refuses_a_stale_one(client: Any, table: dict[str, Any]) -> None:
    client.post(url(table, "/hands"), json=DISCARD, headers=table["host"])
    amended = client.post(url(table, "/hands/1/amend"), json=TONK | {"version": 1}, headers=table["host"])
    assert amended.status_code == 201
    body = amended.get_json()
    assert (body["number"], body["version"], body["status"]) == (1, 2, "counted")
    assert body["session_net"] == {"Dee": 150, "Marcus": -50, "Rosa": -50, "Tomás": -50}
    stale = client.post(url(table, "/hands/1/amend"), json=DISCARD | {"version": 1}, headers=table["host"])
    assert stale.status_code == 409
    conflict = stale.get_json()
    assert conflict["error"] == "stale_version" and conflict["current"]["version"] == 2
    assert conflict["current"]["outcome"]["winner"] == "Dee" and conflict["your_version"] == 1
    versions = client.get(url(table, "/hands/1/versions"), headers=table["viewer"]).get_json()["versions"]
    assert [(v["version"], v["status"]) for v in versions] == [(1, "superseded"), (2, "counted")]
    listing = client.get(url(table, "/hands"), headers=table["viewer"]).get_json()["hands"]
    assert [(h["number"], h["version"]) for h in listing] == [(1, 2)]
    events = client.get(url(table, "/history"), headers=table["host"]).get_json()["events"]
    change = [e for e in events if e["action"] == "hand_amended"][0]
    assert change["detail"]["before"]["net"]["Rosa"] == 75
    assert change["detail"]["after"]["net"]["Dee"] == 150
    assert change["actor_role"] == "host"


def test_amending_a_version_the_hand_never_had_is_refused_as_such(client: Any, table: dict[str, Any]) -> None:
    """A version ahead of the hand's latest was not made on another phone: 422, not 409."""
    client.post(url(table, "/hands"), json=DISCARD, headers=table["host"])
    ahead = client.post(url(table, "/hands/1/amend"), json=TONK | {"version": 7}, headers=table["host"])
    assert ahead.status_code == 422
    assert ahead.get_json() == {"error": "invalid_entry", "field": "version",
                                "message": "Hand 1 has no version 7; its latest version is 1."}
    versions = client.get(url(table, "/hands/1/versions"), headers=table["viewer"]).get_json()["versions"]
    assert [(v["version"], v["status"], v["outcome"]["kind"]) for v in versions] == [(1, "counted", "discard_out")]


def test_undo_voids_the_last_counted_hand(client: Any, table: dict[str, Any]) -> None:
    client.post(url(table, "/hands"), json=DISCARD, headers=table["host"])
    client.post(url(table, "/hands"), json=TONK, headers=table["host"])
    undone = client.post(url(table, "/undo"), headers=table["host"]).get_json()
    assert undone["number"] == 2 and undone["status"] == "voided"
    assert undone["session_net"] == {"Dee": -25, "Marcus": -25, "Rosa": 75, "Tomás": -25}
    assert client.post(url(table, "/undo"), headers=table["host"]).get_json()["number"] == 1
    nothing = client.post(url(table, "/undo"), headers=table["host"])
    assert nothing.status_code == 404 and nothing.get_json()["error"] == "nothing_to_undo"


def test_payments_shrink_the_plan(client: Any, table: dict[str, Any]) -> None:
    client.post(url(table, "/hands"), json=TONK, headers=table["host"])  # Dee +150, others -50
    plan = client.get(url(table, "/settlement"), headers=table["viewer"]).get_json()
    assert plan["transfer_count"] == 3
    paid = client.post(url(table, "/payments"), json={"from": "Marcus", "to": "Dee", "amount": 50}, headers=table["player"])
    assert paid.status_code == 201
    assert paid.get_json()["outstanding"] == {"Dee": 100, "Marcus": 0, "Rosa": -50, "Tomás": -50}
    partial = client.post(url(table, "/payments"), json={"from": "Rosa", "to": "Dee", "amount": 20}, headers=table["player"])
    assert partial.get_json()["outstanding"]["Rosa"] == -30
    plan = client.get(url(table, "/settlement"), headers=table["viewer"]).get_json()
    assert [{k: t[k] for k in ("from", "to", "amount")} for t in plan["transfers"]] == [
        {"from": "Rosa", "to": "Dee", "amount": 30}, {"from": "Tomás", "to": "Dee", "amount": 50}]
    assert [sum(r["amount"] for r in t["because"]) for t in plan["transfers"]] == [30, 50]  # issue 20 item 9
    assert plan["balances"]["Dee"] == 150  # the running net of the hands is unchanged
    assert client.post(url(table, "/payments/1/void"), headers=table["player"]).status_code == 403
    voided = client.post(url(table, "/payments/1/void"), headers=table["host"]).get_json()
    assert voided["status"] == "voided" and voided["outstanding"]["Marcus"] == -50
    for bad, field in [({"from": "Zed", "to": "Dee", "amount": 5}, "from"), ({"from": "Dee", "to": "Dee", "amount": 5}, "to"),
                       ({"from": "Rosa", "to": "Dee", "amount": 0}, "amount")]:
        refused = client.post(url(table, "/payments"), json=bad, headers=table["host"])
        assert refused.status_code == 422 and refused.get_json()["field"] == field
    assert client.post(url(table, "/payments"), json={"from": "Rosa", "to": "Dee", "amount": 5},
                       headers=table["viewer"]).status_code == 403
    assert_no_floats(client.get(url(table, "/payments"), headers=table["viewer"]).get_json())


def test_history_and_exports(client: Any, night_data: dict[str, Any]) -> None:
    hostile = session_body(night_data) | {"name": "=HYPERLINK(\"x\")", "players": ["=SUM(A1)", "A<B & \"C\"", "@me", "Dee"],
                                          "first_dealer": "Dee"}
    body = client.post("/api/v1/sessions", json=hostile).get_json()
    t = {"id": body["id"], "host": bearer(body["token"])}
    client.post(url(t, "/hands"), json={"outcome": {"kind": "discard_out", "winner": "=SUM(A1)"}}, headers=t["host"])
    client.post(url(t, "/hands/1/void"), headers=t["host"])
    client.post(url(t, "/payments"), json={"from": "@me", "to": "Dee", "amount": 7, "confirm": True},  # nothing is owed
                headers=t["host"])
    events = client.get(url(t, "/history"), headers=t["host"]).get_json()["events"]
    assert [e["action"] for e in events] == ["session_created", "hand_recorded", "hand_voided", "payment_recorded"]
    voided = events[2]
    assert voided["detail"]["before"]["status"] == "counted" and voided["detail"]["after"]["status"] == "voided"

    hands_csv = client.get(url(t, "/export.csv"), headers=t["host"]).get_data(as_text=True)
    rows = list(csv.reader(io.StringIO(hands_csv)))
    assert rows[0][7:] == ["'=SUM(A1) (minor units)", "A<B & \"C\" (minor units)", "'@me (minor units)", "Dee (minor units)"]
    assert rows[1][:4] == ["1", "1", "voided", "Dee"]
    assert rows[1][7:] == ["75", "-25", "-25", "-25"]
    transfers = list(csv.reader(io.StringIO(
        client.get(url(t, "/export.csv?table=transfers"), headers=t["host"]).get_data(as_text=True))))
    assert transfers[1] == ["1", "1", "voided", "A<B & \"C\"", "'=SUM(A1)", "25", "0.25"]
    payments = list(csv.reader(io.StringIO(
        client.get(url(t, "/export.csv?table=payments"), headers=t["host"]).get_data(as_text=True))))
    assert payments[1][2:6] == ["'@me", "Dee", "7", "0.07"]
    for line in client.get(url(t, "/export.csv?table=history"), headers=t["host"]).get_data(as_text=True).splitlines():
        for cell in next(csv.reader([line])):
            assert not cell.startswith(("=", "+", "-", "@"))
    assert client.get(url(t, "/export.csv?table=secrets"), headers=t["host"]).status_code == 422
    document = client.get(url(t, "/export.json"), headers=t["host"]).get_json()
    assert document["session"]["name"] == "=HYPERLINK(\"x\")"  # JSON keeps the text exactly
    assert [h["status"] for h in document["hands"]] == ["voided"]
    assert document["settlement"]["transfers"] == [{"from": "Dee", "to": "@me", "amount": 7}]
    assert_no_floats(document)


def test_pages_never_leak_join_secrets_as_referer(client: Any, table: dict[str, Any]) -> None:
    response = client.get(f"/join/{table['id']}/{table['body']['player_token']}")
    assert response.headers["Referrer-Policy"] == "no-referrer"
    assert response.headers["X-Frame-Options"] == "DENY"
    assert client.get("/api/v1/sessions/x").headers["X-Content-Type-Options"] == "nosniff"


def test_summary_pdf_after_payments_lists_them_and_what_is_left(client: Any, table: dict[str, Any]) -> None:
    from pypdf import PdfReader

    client.post(url(table, "/hands"), json=TONK, headers=table["host"])  # Dee +$1.50, others -$0.50
    client.post(url(table, "/payments"), json={"from": "Rosa", "to": "Dee", "amount": 50}, headers=table["host"])
    client.post(url(table, "/payments"), json={"from": "Marcus", "to": "Dee", "amount": 20}, headers=table["host"])
    response = client.get(url(table, "/summary.pdf"), headers=table["viewer"])
    assert response.status_code == 200
    text = "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages)
    assert "Rosa paid Dee $0.50" in text and "Marcus paid Dee $0.20" in text
    assert "Marcus pays Dee $0.30" in text and "Tomás pays Dee $0.50" in text
    assert "Rosa pays" not in text
