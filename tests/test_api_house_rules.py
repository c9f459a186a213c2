"""Nights under other presets and house rules, recorded through the session API, pay what
RULES.md says (§10 worked examples and §4.11's table of multipliers)."""
from __future__ import annotations

from typing import Any

from money_checks import assert_no_floats


def open_session(client: Any, ruleset: dict[str, Any], players: list[str], stake: int) -> tuple[str, dict[str, str]]:
    body = client.post("/api/v1/sessions", json={
        "name": "House rules", "currency": "USD", "stake": stake, "ruleset": ruleset,
        "players": players, "first_dealer": players[0],
    }).get_json()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}


def record(client: Any, session_id: str, headers: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/v1/sessions/{session_id}/hands", json=body, headers=headers)
    assert response.status_code == 201, response.get_json()
    payload = response.get_json()
    assert_no_floats(payload)
    return payload


CAUGHT_17_5_15 = {"outcome": {"kind": "knock", "knocker": "A"}, "hands": {
    "A": {"cards": ["9S", "8H"]}, "B": {"cards": ["2C", "3H"]}, "C": {"cards": ["KD", "5S"]}}}


def test_a_texas_night(client: Any) -> None:
    session_id, headers = open_session(client, {"preset": "texas tonk"}, ["A", "B", "C"], 25)
    snapshot = client.get(f"/api/v1/sessions/{session_id}", headers=headers).get_json()["ruleset"]
    assert (snapshot["preset"], snapshot["caught_model"], snapshot["deal_tonk_mult_49"]) == ("texas", "lowest_only", 1)
    caught = record(client, session_id, headers, CAUGHT_17_5_15)  # §10 example 2, texas row
    assert caught["transfers"] == [{"from": "A", "to": "B", "amount": 50}]
    dealt_49 = record(client, session_id, headers, {"outcome": {"kind": "deal_tonk", "claimants": ["C"]}, "hands": {
        "C": {"cards": ["KC", "KH", "QD", "JS", "9D"]}}})  # §4.1 Texas: a dealt 49 pays single
    assert dealt_49["net"] == {"A": -25, "B": -25, "C": 50}
    dealt_50 = record(client, session_id, headers, {"outcome": {"kind": "deal_tonk", "claimants": ["B"]}, "hands": {
        "B": {"cards": ["KC", "KH", "QD", "JS", "10D"]}}})
    assert dealt_50["net"] == {"A": -50, "B": 100, "C": -50}
    state = client.get(f"/api/v1/sessions/{session_id}", headers=headers).get_json()
    assert state["net"] == {"A": -125, "B": 125, "C": 0}


def test_a_wikipedia_night_with_the_spade_side_pot(client: Any) -> None:
    session_id, headers = open_session(
        client, {"preset": "wiki", "toggles": {"spade_side_pot": True}}, ["A", "B", "C"], 100)
    # §10 example 7: A wins the knock (B and C owe 100 each); B's Q♠ beats A's 9♠, C has no spade (P = 50)
    knock = record(client, session_id, headers, {
        "outcome": {"kind": "knock", "knocker": "A", "knocker_lock_turns": 0},
        "hands": {"A": {"cards": ["2C", "3H"]}, "B": {"cards": ["KD", "7S"]}, "C": {"cards": ["QC", "JD"]}},
        "side_bets": {"spade": {"side_stake": 50, "highest_spade": {"A": "9S", "B": "QS", "C": None}}},
    })
    assert knock["transfers"] == [
        {"from": "B", "to": "A", "amount": 50}, {"from": "C", "to": "A", "amount": 100},
        {"from": "C", "to": "B", "amount": 50},
    ]
    assert knock["net"] == {"A": 150, "B": 0, "C": -150}
    # §10 example 2, wikipedia row, at S = 100: A→B 200, A→C 100, C→B 100
    caught = record(client, session_id, headers, CAUGHT_17_5_15)
    assert caught["net"] == {"A": -300, "B": 300, "C": 0}
    # a joker held in hand counts 0 under the wikipedia preset; the hit lock refuses a locked knocker
    locked = client.post(f"/api/v1/sessions/{session_id}/hands", headers=headers, json={
        "outcome": {"kind": "knock", "knocker": "B", "knocker_lock_turns": 1},
        "hands": {"A": {"cards": ["9C"]}, "B": {"cards": ["JK", "AS"]}, "C": {"cards": ["4D"]}}})
    assert locked.status_code == 422 and locked.get_json()["error"] == "knock_while_locked"
    joker = record(client, session_id, headers, {
        "outcome": {"kind": "knock", "knocker": "B"},
        "hands": {"A": {"cards": ["9C"]}, "B": {"cards": ["JK", "AS"]}, "C": {"cards": ["4D"]}}})
    assert joker["net"] == {"A": -100, "B": 200, "C": -100}  # B counts 1
    state = client.get(f"/api/v1/sessions/{session_id}", headers=headers).get_json()
    assert state["net"] == {"A": -250, "B": 500, "C": -250}
    assert state["hand_count"] == 3


def test_a_session_refuses_a_side_bet_its_rules_do_not_play(client: Any) -> None:
    session_id, headers = open_session(client, {"preset": "classic"}, ["A", "B", "C"], 100)
    response = client.post(f"/api/v1/sessions/{session_id}/hands", headers=headers, json={
        "outcome": {"kind": "discard_out", "winner": "A"},
        "side_bets": {"spade": {"side_stake": 50, "highest_spade": {"A": "9S", "B": "QS"}}}})
    assert response.status_code == 422
    assert (response.get_json()["error"], response.get_json()["field"]) == ("feature_disabled", "side_bets.spade")
