"""The session API end to end on a real database: night-01 hand by hand, bad entries,
access, voids, closing, settlement and the PDF summary."""
from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from conftest import load_json, session_body
from ledger.money import format_minor
from money_checks import assert_no_floats


def post_hand(client: Any, night: dict[str, Any], body: dict[str, Any], **headers: str) -> Any:
    return client.post(
        f"/api/v1/sessions/{night['id']}/hands", json=body, headers=night["headers"] | headers
    )


def state(client: Any, night: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"])
    assert response.status_code == 200
    return response.get_json()


def hand_body(hand: dict[str, Any]) -> dict[str, Any]:
    return {"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]}


def test_night_01_hand_by_hand(client: Any, open_night: dict[str, Any], night_data: dict[str, Any]) -> None:
    money_seen = assert_no_floats(open_night["body"])
    running = {p: 0 for p in night_data["players"]}
    hands = night_data["hands"]
    for index, hand in enumerate(hands):
        response = post_hand(client, open_night, hand_body(hand))
        body = response.get_json()
        assert response.status_code == 201, body
        assert body["number"] == index + 1
        assert body["transfers"] == hand["expected"]["transfers"]
        assert body["net"] == hand["expected"]["net"]
        assert body["redeal"] is hand["expected"].get("redeal", False)
        for player, amount in hand["expected"]["net"].items():
            running[player] += amount
        assert body["session_net"] == running
        if index + 1 < len(hands):
            assert body["next_dealer"] == hands[index + 1]["dealer"]
        money_seen += assert_no_floats(body)
    final = state(client, open_night)
    expected = night_data["expected"]
    assert final["net"] == expected["net"]
    assert final["hand_count"] == expected["hands_recorded"]
    settlement = client.get(f"/api/v1/sessions/{open_night['id']}/settlement", headers=open_night["headers"])
    plan = settlement.get_json()
    assert plan["transfer_count"] == expected["settlement_transfer_count"]
    assert plan["minimal"] is True
    cleared = dict(final["net"])
    for t in plan["transfers"]:
        cleared[t["from"]] += t["amount"]
        cleared[t["to"]] -= t["amount"]
    assert set(cleared.values()) == {0}
    listing = client.get(f"/api/v1/sessions/{open_night['id']}/hands", headers=open_night["headers"]).get_json()
    assert [h["number"] for h in listing["hands"]] == list(range(1, len(hands) + 1))
    for payload in (final, plan, listing):
        money_seen += assert_no_floats(payload)
    assert money_seen > 200  # the walk met every amount, not an empty shape


def test_dealer_passes_clockwise_including_redeals(client: Any, open_night: dict[str, Any]) -> None:
    assert state(client, open_night)["next_dealer"] == "Tomás"
    redeal = {
        "outcome": {"kind": "deal_tonk", "claimants": ["Dee", "Rosa"]},
        "hands": {
            "Dee": {"cards": ["KC", "QC", "JC", "10C", "10D"]},
            "Rosa": {"cards": ["KH", "QH", "JH", "10H", "KS"]},
        },
    }
    body = post_hand(client, open_night, redeal).get_json()
    assert body["redeal"] is True and body["transfers"] == [] and body["dealer"] == "Tomás"
    assert body["next_dealer"] == "Dee"
    after = state(client, open_night)
    assert after["hand_count"] == 1 and set(after["net"].values()) == {0}


BAD_ENTRIES = [
    ("unknown card", {"outcome": {"kind": "knock", "knocker": "Dee"}, "hands": {
        "Dee": {"cards": ["1H"]}, "Marcus": {"total": 9}, "Rosa": {"total": 9}, "Tomás": {"total": 9}}},
     422, "invalid_card", "hands.Dee.cards[0]"),
    ("duplicate card", {"outcome": {"kind": "knock", "knocker": "Dee"}, "hands": {
        "Dee": {"cards": ["QD", "2C"]}, "Marcus": {"cards": ["qd"]}, "Rosa": {"total": 9}, "Tomás": {"total": 9}}},
     422, "duplicate_card", "hands.Marcus.cards[0]"),
    ("missing hand", {"outcome": {"kind": "knock", "knocker": "Dee"}, "hands": {
        "Dee": {"cards": ["2C"]}, "Marcus": {"total": 9}, "Rosa": {"total": 9}}},
     422, "missing_hand", "hands.Tomás"),
    ("unknown player", {"outcome": {"kind": "discard_out", "winner": "Zed"}, "hands": {}},
     422, "unknown_player", "outcome.winner"),
    ("unknown dealer", {"outcome": {"kind": "discard_out", "winner": "Dee"}, "dealer": "Zed"},
     422, "unknown_player", "dealer"),
    ("unknown outcome", {"outcome": {"kind": "fold"}}, 422, "invalid_entry", "outcome.kind"),
    ("no outcome", {"hands": {}}, 422, "invalid_entry", "outcome"),
    ("extra field", {"outcome": {"kind": "discard_out", "winner": "Dee"}, "stake": 5}, 422, "invalid_entry", "stake"),
    ("float total", {"outcome": {"kind": "knock", "knocker": "Dee"}, "hands": {
        "Dee": {"total": 2.5}, "Marcus": {"total": 9}, "Rosa": {"total": 9}, "Tomás": {"total": 9}}},
     422, "invalid_entry", "hands.Dee.total"),
]


@pytest.mark.parametrize(("label", "body", "status", "code", "field"), BAD_ENTRIES, ids=[b[0] for b in BAD_ENTRIES])
def test_bad_entry_is_refused_and_changes_nothing(
    client: Any, open_night: dict[str, Any], label: str, body: dict[str, Any], status: int, code: str, field: str
) -> None:
    good = {"outcome": {"kind": "discard_out", "winner": "Rosa"}}
    assert post_hand(client, open_night, good).status_code == 201
    before = state(client, open_night)
    response = post_hand(client, open_night, body)
    assert response.status_code == status
    error = response.get_json()
    assert error["error"] == code
    assert error["field"] == field
    assert isinstance(error["message"], str) and len(error["message"]) > 10
    assert state(client, open_night) == before


@pytest.mark.parametrize(
    ("data", "status", "code"),
    [("{not json", 400, "malformed_json"), ("", 400, "malformed_json"), ("[1, 2]", 422, "invalid_entry"),
     ('{"outcome": NaN}', 400, "malformed_json")],
)
def test_malformed_json(client: Any, open_night: dict[str, Any], data: str, status: int, code: str) -> None:
    before = state(client, open_night)
    response = client.post(
        f"/api/v1/sessions/{open_night['id']}/hands", data=data,
        headers=open_night["headers"] | {"Content-Type": "application/json"},
    )
    assert response.status_code == status
    assert response.get_json()["error"] == code
    assert state(client, open_night) == before


def test_access_needs_the_sessions_own_token(client: Any, open_night: dict[str, Any], night_data: dict[str, Any]) -> None:
    url = f"/api/v1/sessions/{open_night['id']}"
    assert client.get(url).status_code == 401
    assert client.get(url).get_json()["error"] == "unauthorized"
    assert client.get(url, headers={"Authorization": "Bearer wrong"}).status_code == 403
    other = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    other_headers = {"Authorization": f"Bearer {other['token']}"}
    for method, path in [("get", ""), ("get", "/hands"), ("post", "/hands/1/void"), ("get", "/settlement"),
                         ("post", "/close"), ("get", "/summary.pdf")]:
        response = getattr(client, method)(url + path, headers=other_headers)
        assert response.status_code == 403, path
        assert response.get_json()["error"] == "forbidden"
    missing = client.get("/api/v1/sessions/no-such-night", headers=open_night["headers"])
    assert missing.status_code == 404 and missing.get_json()["error"] == "session_not_found"
    assert client.get("/api/v1/no/such/route").get_json()["error"] == "not_found"


def test_void_keeps_the_hand_and_stops_counting(client: Any, open_night: dict[str, Any]) -> None:
    post_hand(client, open_night, {"outcome": {"kind": "discard_out", "winner": "Rosa"}})
    post_hand(client, open_night, {"outcome": {"kind": "tonk_out", "winner": "Dee"}})
    assert state(client, open_night)["net"] == {"Dee": 125, "Marcus": -75, "Rosa": 25, "Tomás": -75}
    response = client.post(f"/api/v1/sessions/{open_night['id']}/hands/2/void", headers=open_night["headers"])
    assert response.status_code == 200
    assert response.get_json()["status"] == "voided"
    after = state(client, open_night)
    assert after["net"] == {"Dee": -25, "Marcus": -25, "Rosa": 75, "Tomás": -25}
    assert after["hand_count"] == 1
    assert after["next_dealer"] == "Dee"  # hand 2 no longer counts, so Dee deals again
    hands = client.get(f"/api/v1/sessions/{open_night['id']}/hands", headers=open_night["headers"]).get_json()["hands"]
    assert [(h["number"], h["status"]) for h in hands] == [(1, "counted"), (2, "voided")]
    assert hands[1]["transfers"] == [
        {"from": "Marcus", "to": "Dee", "amount": 50}, {"from": "Rosa", "to": "Dee", "amount": 50},
        {"from": "Tomás", "to": "Dee", "amount": 50},
    ]
    again = client.post(f"/api/v1/sessions/{open_night['id']}/hands/2/void", headers=open_night["headers"])
    assert again.status_code == 200 and state(client, open_night) == after
    missing = client.post(f"/api/v1/sessions/{open_night['id']}/hands/9/void", headers=open_night["headers"])
    assert missing.status_code == 404 and missing.get_json()["error"] == "hand_not_found"


def test_idempotency_key_records_once(client: Any, open_night: dict[str, Any]) -> None:
    body = {"outcome": {"kind": "discard_out", "winner": "Marcus"}}
    first = post_hand(client, open_night, body, **{"Idempotency-Key": "tap-1"})
    second = post_hand(client, open_night, body, **{"Idempotency-Key": "tap-1"})
    assert first.status_code == 201 and second.status_code == 200
    assert first.get_json()["number"] == second.get_json()["number"] == 1
    assert state(client, open_night)["hand_count"] == 1
    assert state(client, open_night)["net"]["Marcus"] == 75


def test_closed_night_refuses_changes(client: Any, open_night: dict[str, Any]) -> None:
    post_hand(client, open_night, {"outcome": {"kind": "discard_out", "winner": "Rosa"}})
    closed = client.post(f"/api/v1/sessions/{open_night['id']}/close", headers=open_night["headers"])
    assert closed.status_code == 200 and closed.get_json()["status"] == "closed"
    refused = post_hand(client, open_night, {"outcome": {"kind": "discard_out", "winner": "Dee"}})
    assert refused.status_code == 409 and refused.get_json()["error"] == "session_closed"
    void = client.post(f"/api/v1/sessions/{open_night['id']}/hands/1/void", headers=open_night["headers"])
    assert void.status_code == 409
    assert state(client, open_night)["net"] == {"Dee": -25, "Marcus": -25, "Rosa": 75, "Tomás": -25}


@pytest.mark.parametrize(
    ("change", "status", "code", "field"),
    [
        ({"players": ["Solo"]}, 422, "too_few_players", "players"),
        ({"players": ["A", "B", "C", "D", "E"]}, 422, "too_many_players", "players"),
        ({"players": ["A", "A"]}, 422, "duplicate_player", "players[1]"),
        ({"stake": 0}, 422, "invalid_stake", "stake"),
        ({"stake": 2.5}, 422, "invalid_stake", "stake"),
        ({"currency": "XYZ"}, 422, "invalid_entry", "currency"),
        ({"ruleset": {"preset": "vegas"}}, 422, "invalid_ruleset", "ruleset.preset"),
        ({"ruleset": {"preset": "classic", "toggles": {"hand_size": 6}}}, 422, "invalid_ruleset", "ruleset.toggles.hand_size"),
        ({"ruleset": {"preset": "classic", "toggles": {"no_such": 1}}}, 422, "invalid_ruleset", "ruleset.toggles.no_such"),
        ({"first_dealer": "Zed"}, 422, "unknown_player", "first_dealer"),
        ({"name": ""}, 422, "invalid_entry", "name"),
    ],
)
def test_session_creation_refusals(
    client: Any, night_data: dict[str, Any], change: dict[str, Any], status: int, code: str, field: str
) -> None:
    response = client.post("/api/v1/sessions", json=session_body(night_data) | change)
    assert response.status_code == status
    body = response.get_json()
    assert (body["error"], body["field"]) == (code, field)


def test_session_keeps_the_full_rule_snapshot(client: Any, night_data: dict[str, Any]) -> None:
    body = session_body(night_data) | {"ruleset": {"preset": "Texas Tonk", "toggles": {"hand_size": 7}}}
    created = client.post("/api/v1/sessions", json=body).get_json()
    assert created["ruleset"]["preset"] == "texas"
    assert created["ruleset"]["caught_model"] == "lowest_only"
    assert created["ruleset"]["deal_tonk_mult_49"] == 1
    assert created["ruleset"]["hand_size"] == 7
    assert len(created["ruleset"]) == 30  # preset + every toggle of RULES.md §6


def test_settle_endpoint_vectors(client: Any) -> None:
    for case in load_json("vectors/settlement.json"):
        response = client.post("/api/v1/settle", json={"balances": case["balances"]})
        assert response.status_code == 200
        body = response.get_json()
        assert body["transfer_count"] == case["expected_transfer_count"] == len(body["transfers"])
        assert body["minimal"] is True
        left = dict(case["balances"])
        for t in body["transfers"]:
            assert isinstance(t["amount"], int) and t["amount"] > 0
            left[t["from"]] += t["amount"]
            left[t["to"]] -= t["amount"]
        assert all(v == 0 for v in left.values()), case["id"]
        assert_no_floats(body)


def test_settle_refuses_unbalanced_and_floats(client: Any) -> None:
    unbalanced = client.post("/api/v1/settle", json={"balances": {"A": 5, "B": -4}})
    assert unbalanced.status_code == 422 and unbalanced.get_json()["error"] == "unbalanced"
    floats = client.post("/api/v1/settle", json={"balances": {"A": 0.5, "B": -0.5}})
    assert floats.status_code == 422 and floats.get_json()["field"].startswith("balances")


def test_summary_pdf_holds_players_hands_and_nets(
    client: Any, open_night: dict[str, Any], night_data: dict[str, Any]
) -> None:
    for hand in night_data["hands"]:
        assert post_hand(client, open_night, hand_body(hand)).status_code == 201
    response = client.get(f"/api/v1/sessions/{open_night['id']}/summary.pdf", headers=open_night["headers"])
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)
    assert night_data["name"] in text
    for player in night_data["players"]:
        assert player in text
    for number, hand in enumerate(night_data["hands"], start=1):
        assert f" {number}\n{hand['dealer']}\n" in text, number
    for amount in night_data["expected"]["net"].values():
        assert format_minor(amount, "USD") in text
    assert "Marcus pays Dee $5.25" in text
    assert "Rosa pays Tomás $4.00" in text


def test_night_copy_matches_shared() -> None:
    from conftest import REPO, SHARED

    shared = SHARED / "nights" / "night-01.json"
    if not shared.exists():
        pytest.skip("../shared is not beside this checkout")
    assert (REPO / "nights" / "night-01.json").read_bytes() == shared.read_bytes()


def test_demo_loads_the_night(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    from ledger.cli import DEFAULT_NIGHT, load_night

    session_id, token, count = load_night(app, DEFAULT_NIGHT)
    assert count == night_data["expected"]["hands_recorded"]
    body = client.get(f"/api/v1/sessions/{session_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert body["net"] == night_data["expected"]["net"]
    assert body["hand_count"] == count


def test_changing_a_preset_later_does_not_reprice_an_old_night(
    client: Any, night_data: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The session stores every toggle's value, so a later edit of a preset's definition in
    code leaves old nights priced as they were started."""
    from ledger.games.tonk import ruleset as ruleset_module
    from ledger.games.tonk.ruleset import Preset

    created = client.post("/api/v1/sessions", json=session_body(night_data) | {"ruleset": {"preset": "texas"}}).get_json()
    night = {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}}
    caught = {"outcome": {"kind": "knock", "knocker": "Dee"}, "hands": {
        "Dee": {"cards": ["9S", "8H"]}, "Marcus": {"cards": ["2C", "3H"]},
        "Rosa": {"cards": ["KD", "5S"]}, "Tomás": {"cards": ["QC", "JS"]}}}
    first = post_hand(client, night, caught).get_json()
    assert first["net"] == {"Dee": -50, "Marcus": 50, "Rosa": 0, "Tomás": 0}  # texas: lowest only

    texas = ruleset_module.PRESETS["texas"]
    monkeypatch.setitem(ruleset_module.PRESETS, "texas", Preset(
        texas.name, texas.title, texas.description, {"caught_model": "pagat"}, texas.aliases))
    assert client.post("/api/v1/score", json={**caught, "ruleset": {"preset": "texas"}, "players": night_data["players"],
                                              "stake": 25}).get_json()["net"]["Rosa"] == 25  # the new definition

    second = post_hand(client, night, caught).get_json()
    assert second["net"] == first["net"]
    after = state(client, night)
    assert after["ruleset"] == created["ruleset"]
    assert after["net"] == {"Dee": -100, "Marcus": 100, "Rosa": 0, "Tomás": 0}


def test_huge_hand_numbers_are_a_404_not_a_crash(client: Any, open_night: dict[str, Any]) -> None:
    for path in ("/hands/99999999999999999999", "/hands/99999999999999999999/versions"):
        response = client.get(f"/api/v1/sessions/{open_night['id']}{path}", headers=open_night["headers"])
        assert response.status_code == 404 and response.get_json()["error"] == "not_found"


@pytest.mark.parametrize("stake", [10**30, 2**63, 2**62, 10**9 + 1])
def test_absurd_stakes_are_refused(client: Any, night_data: dict[str, Any], stake: int) -> None:
    response = client.post("/api/v1/sessions", json=session_body(night_data) | {"stake": stake})
    assert response.status_code == 422
    assert (response.get_json()["error"], response.get_json()["field"]) == ("invalid_stake", "stake")
    scored = client.post("/api/v1/score", json={"players": ["A", "B"], "stake": stake,
                                                "outcome": {"kind": "discard_out", "winner": "A"}})
    assert scored.status_code == 422 and scored.get_json()["error"] == "invalid_stake"
    # what was sent is quoted, unless it is too long to be worth reading
    got = "'too large'" if stake >= 10**18 else str(stake)
    assert response.get_json()["message"] == (
        f"The stake must be a positive whole number of minor units (cents) up to 1,000,000,000; got {got}.")


def test_absurd_numbers_elsewhere_are_refused(client: Any, open_night: dict[str, Any]) -> None:
    base = f"/api/v1/sessions/{open_night['id']}"
    hand = client.post(base + "/hands", headers=open_night["headers"],
                       json={"outcome": {"kind": "discard_out", "winner": "Dee"}, "number": 10**30})
    assert hand.status_code == 422 and hand.get_json()["field"] == "number"
    paid = client.post(base + "/payments", headers=open_night["headers"], json={"from": "Dee", "to": "Rosa", "amount": 10**30})
    assert paid.status_code == 422 and paid.get_json()["field"] == "amount"
    settle = client.post("/api/v1/settle", json={"balances": {"A": 10**30, "B": -(10**30)}})
    assert settle.status_code == 422 and settle.get_json()["field"].startswith("balances")
    side = client.post("/api/v1/score", json={
        "ruleset": {"preset": "classic", "toggles": {"spade_side_pot": True}}, "players": ["A", "B"], "stake": 5,
        "outcome": {"kind": "discard_out", "winner": "A"},
        "side_bets": {"spade": {"side_stake": 10**20, "highest_spade": {"A": "QS", "B": None}}}})
    assert side.status_code == 422 and side.get_json()["error"] == "invalid_side_bet"
    assert state(client, open_night)["hand_count"] == 0


def test_deeply_nested_json_is_malformed_not_a_crash(client: Any) -> None:
    response = client.post("/api/v1/score", data="[" * 100_000 + "]" * 100_000, content_type="application/json")
    assert response.status_code == 400 and response.get_json()["error"] == "malformed_json"


def test_a_reused_idempotency_key_with_another_hand_is_a_conflict(client: Any, open_night: dict[str, Any]) -> None:
    first = post_hand(client, open_night, {"outcome": {"kind": "discard_out", "winner": "Dee"}}, **{"Idempotency-Key": "k1"})
    assert first.status_code == 201
    other = post_hand(client, open_night, {"outcome": {"kind": "tonk_out", "winner": "Rosa"}}, **{"Idempotency-Key": "k1"})
    assert other.status_code == 409
    body = other.get_json()
    assert body["error"] == "idempotency_key_reused" and body["existing"]["outcome"]["winner"] == "Dee"
    assert state(client, open_night)["hand_count"] == 1


@pytest.mark.parametrize(
    ("players", "code", "field"),
    [
        (["Ann", "ann"], "duplicate_player", "players[1]"),
        (["Am\u00e9lie", "Ame\u0301lie"], "duplicate_player", "players[1]"),  # é typed two ways
        (["A\u0000B", "C"], "invalid_entry", "players[0]"),
        (["Ann", "Bo\u200bb"], "invalid_entry", "players[1]"),
    ],
)
def test_names_that_look_alike_or_hide_characters_are_refused(
    client: Any, night_data: dict[str, Any], players: list[str], code: str, field: str
) -> None:
    response = client.post("/api/v1/sessions", json=session_body(night_data) | {"players": players, "first_dealer": None})
    assert response.status_code == 422
    assert (response.get_json()["error"], response.get_json()["field"]) == (code, field)
