"""Clubs through the API (issue 9): creation and roles, the roster's names, club nights
(currency, seating from the roster), carry-over, running balances and payments, standings."""
from __future__ import annotations

from typing import Any

from club_nights import NIGHT, bearer, close, make_club, part_finals, play_part, three_nights
from conftest import session_body


def test_a_club_is_created_with_owner_member_and_viewer_tokens(client: Any) -> None:
    club = make_club(client, members=["Dee", "Rosa"])
    assert club["currency"] == "USD" and club["name"] == "Friday club"
    assert [m["name"] for m in club["members"]] == ["Dee", "Rosa"]
    assert club["balances"] == {"Dee": 0, "Rosa": 0}
    assert club["settlement"] == {"transfers": [], "transfer_count": 0, "minimal": True}
    assert len(club["table_code"]) == 6 and set(club["links"]) == {"owner", "member", "viewer"}
    for token in (club["token"], club["member_token"], club["viewer_token"]):
        assert client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(token)).status_code == 200
    assert client.get(f"/api/v1/clubs/{club['id']}").get_json()["error"] == "unauthorized"
    other = make_club(client)
    refused = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(other["token"]))
    assert (refused.status_code, refused.get_json()["error"]) == (403, "forbidden")
    assert client.get("/api/v1/clubs/nope", headers=bearer(club["token"])).get_json()["error"] == "club_not_found"
    viewer_pays = client.post(f"/api/v1/clubs/{club['id']}/payments", headers=bearer(club["viewer_token"]),
                              json={"from": "Dee", "to": "Rosa", "amount": 5})
    assert (viewer_pays.status_code, viewer_pays.get_json()["error"]) == (403, "role_forbidden")
    member_renames = client.post(f"/api/v1/clubs/{club['id']}/members/1/rename",
                                 headers=bearer(club["member_token"]), json={"name": "Deedee"})
    assert member_renames.status_code == 403
    share = client.get(f"/api/v1/clubs/{club['id']}/share", headers=bearer(club["token"])).get_json()
    assert share["member_token"] == club["member_token"] and share["table_code"] == club["table_code"]


def test_the_club_code_gives_a_member_token(client: Any) -> None:
    club = make_club(client)
    joined = client.post("/api/v1/clubs/join", json={"code": club["table_code"].lower()})
    assert joined.status_code == 201 and joined.get_json()["role"] == "member"
    token = joined.get_json()["token"]
    assert client.post(f"/api/v1/clubs/{club['id']}/members", headers=bearer(token), json={"name": "Ed"}).status_code == 201
    assert client.post("/api/v1/clubs/join", json={"code": "ZZZZZZ"}).get_json()["error"] == "unknown_code"


def test_member_names_are_unique_by_nfc_and_case_and_a_rename_keeps_the_member(client: Any) -> None:
    club = make_club(client, members=["Tomás", "Rosa"])
    url = f"/api/v1/clubs/{club['id']}"
    same = client.post(f"{url}/members", headers=bearer(club["member_token"]), json={"name": "TOMA\u0301S"})
    assert same.status_code == 200 and same.get_json()["name"] == "Tomás"
    tomas = same.get_json()["id"]
    clash = client.post(f"{url}/members/{tomas}/rename", headers=bearer(club["token"]), json={"name": " rosa "})
    assert (clash.status_code, clash.get_json()["error"], clash.get_json()["field"]) == (422, "duplicate_player", "name")
    duplicate = client.post("/api/v1/clubs", json={"name": "X", "currency": "USD", "members": ["Ann", "ANN"]})
    assert (duplicate.status_code, duplicate.get_json()["field"]) == (422, "members[1]")
    renamed = client.post(f"{url}/members/{tomas}/rename", headers=bearer(club["token"]), json={"name": "Tom"})
    assert renamed.get_json() == {"id": tomas, "name": "Tom"}
    assert client.get(url, headers=bearer(club["token"])).get_json()["members"][0] == {"id": tomas, "name": "Tom"}
    missing = client.post(f"{url}/members/999/rename", headers=bearer(club["token"]), json={"name": "Al"})
    assert (missing.status_code, missing.get_json()["error"]) == (404, "member_not_found")


def test_a_club_night_takes_the_clubs_currency_and_seats_the_roster(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Rosa", "Tomás"])
    body = session_body(NIGHT) | {"club": club["id"], "players": ["dee", "Marcus", "Rosa", "Zed"],
                                  "first_dealer": "DEE"}
    other = client.post("/api/v1/sessions", json=body | {"currency": "EUR"}, headers=bearer(club["token"]))
    assert (other.status_code, other.get_json()["error"], other.get_json()["field"]) == (422, "invalid_entry", "currency")
    viewer = client.post("/api/v1/sessions", json=body, headers=bearer(club["viewer_token"]))
    assert (viewer.status_code, viewer.get_json()["error"]) == (403, "role_forbidden")
    no_token = client.post("/api/v1/sessions", json=body)
    assert no_token.status_code == 401
    body.pop("currency")
    started = client.post("/api/v1/sessions", json=body, headers=bearer(club["member_token"]))
    assert started.status_code == 201, started.get_json()
    night = started.get_json()
    assert night["currency"] == "USD" and night["club"] == club["id"]
    assert night["players"] == ["Dee", "Marcus", "Rosa", "Zed"] and night["first_dealer"] == "Dee"
    assert night["timezone"] == "America/Chicago"
    after = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert [m["name"] for m in after["members"]] == ["Dee", "Marcus", "Rosa", "Tomás", "Zed"]
    assert after["nights"] == [{"id": night["id"], "name": night["name"], "started_at": night["created_at"],
                                "closed_at": None, "carried": False, "status": "open", "hosted_by": "member",
                                "carried_by": None, "carry_state": None}]


def test_nights_outside_clubs_keep_working_and_cannot_carry(client: Any, open_night: dict[str, Any]) -> None:
    no_currency = client.post("/api/v1/sessions", json={k: v for k, v in session_body(NIGHT).items() if k != "currency"})
    assert (no_currency.status_code, no_currency.get_json()["field"]) == (422, "currency")
    carry = client.post(f"/api/v1/sessions/{open_night['id']}/close", json={"carry_over": True},
                        headers=open_night["headers"])
    assert (carry.status_code, carry.get_json()["error"], carry.get_json()["field"]) == (422, "invalid_entry", "carry_over")
    closed = client.post(f"/api/v1/sessions/{open_night['id']}/close", headers=open_night["headers"])
    assert closed.status_code == 200 and closed.get_json()["status"] == "closed"


def test_a_night_renamed_player_and_a_sit_in_carry_to_their_members(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Rosa", "Tomás"])
    night = play_part(client, club, 0)
    host = bearer(night["token"])
    assert client.post(f"/api/v1/sessions/{night['id']}/players/rename", headers=host,
                       json={"from": "Rosa", "to": "Rosie"}).status_code == 200
    assert client.post(f"/api/v1/sessions/{night['id']}/players/leave", headers=host,
                       json={"name": "Marcus", "settle": "at_end"}).status_code == 200
    sat = client.post(f"/api/v1/sessions/{night['id']}/players", headers=host, json={"name": "Zed"})
    assert sat.status_code == 201, sat.get_json()
    close(client, night, True)
    finals = part_finals(0)
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert body["balances"] == finals | {"Zed": 0}  # Rosie is still the member Rosa
    assert [m["name"] for m in body["members"]] == ["Dee", "Marcus", "Rosa", "Tomás", "Zed"]


def test_done_when_three_nights_two_carried_one_in_cash(client: Any) -> None:
    """Issue 9: three nights of night-01's shape in one club, two carried and one settled in
    cash: running balances are the carried finals less payments, standings the sums of every
    night's finals, and the club plan is minimal."""
    club = make_club(client)
    nights = three_nights(client, club)
    finals = [part_finals(i) for i in range(3)]
    carried = {p: finals[0][p] + finals[1][p] for p in NIGHT["players"]}
    url = f"/api/v1/clubs/{club['id']}"
    body = client.get(url, headers=bearer(club["viewer_token"])).get_json()
    assert body["balances"] == carried
    assert [(n["id"], n["carried"]) for n in body["nights"]] == [(nights[0]["id"], True), (nights[1]["id"], True),
                                                                  (nights[2]["id"], False)]
    debtor = min(carried, key=lambda p: carried[p])
    creditor = max(carried, key=lambda p: carried[p])
    paid = client.post(f"{url}/payments", headers=bearer(club["member_token"]),
                       json={"from": debtor, "to": creditor, "amount": 25})
    assert paid.status_code == 201, paid.get_json()
    expected = dict(carried)
    expected[debtor] += 25
    expected[creditor] -= 25
    assert paid.get_json()["balances"] == expected
    too_much = client.post(f"{url}/payments", headers=bearer(club["token"]),
                           json={"from": debtor, "to": creditor, "amount": 10**6})
    assert (too_much.status_code, too_much.get_json()["error"]) == (422, "overpayment")
    body = client.get(url, headers=bearer(club["token"])).get_json()
    assert body["balances"] == expected
    plan = body["settlement"]
    assert plan["minimal"] is True
    after = dict(expected)
    for transfer in plan["transfers"]:
        after[transfer["from"]] += transfer["amount"]
        after[transfer["to"]] -= transfer["amount"]
    assert set(after.values()) == {0}
    fresh = client.post("/api/v1/settle", json={"balances": expected}).get_json()
    assert plan["transfer_count"] == fresh["transfer_count"]
    assert client.get(f"{url}/payments", headers=bearer(club["viewer_token"])).get_json()["payments"][0]["amount"] == 25

    standings = client.get(f"{url}/standings", headers=bearer(club["viewer_token"])).get_json()
    lines = {line["member"]: line for line in standings["members"]}
    for player in NIGHT["players"]:
        assert lines[player]["net"] == sum(f[player] for f in finals) == NIGHT["expected"]["net"][player]
        assert lines[player]["nights"] == 3 and lines[player]["hands"] == 30
        assert lines[player]["best_night"] == max(f[player] for f in finals)
        assert lines[player]["worst_night"] == min(f[player] for f in finals)
        assert lines[player]["cumulative"][-1] == lines[player]["net"]
    wins = {kind: sum(line["wins"][kind] for line in lines.values()) for kind in lines["Dee"]["wins"]}
    kinds = [h["outcome"]["kind"] for h in NIGHT["hands"]]
    for kind in ("deal_tonk", "tonk_out", "discard_out", "dry_stock"):
        assert wins[kind] >= kinds.count(kind)  # every such hand has a winner (ties give several)
    knocks = kinds.count("knock")
    assert wins["knock"] + sum(line["caught"] for line in lines.values()) == knocks
    assert [line["net"] for line in standings["members"]] == sorted((line["net"] for line in lines.values()), reverse=True)

    last = client.get(f"{url}/standings?last=1", headers=bearer(club["token"])).get_json()
    assert {line["member"]: line["net"] for line in last["members"]} == finals[2]
    future = client.get(f"{url}/standings?from=2999-01-01", headers=bearer(club["token"])).get_json()
    assert {line["nights"] for line in future["members"]} == {0}
    bad = client.get(f"{url}/standings?from=2026-02-01&to=2026-01-01", headers=bearer(club["token"]))
    assert (bad.status_code, bad.get_json()["error"]) == (422, "invalid_entry")
