"""Corrections of a Tong-its night re-score what they change (issue 21, item 3): a void, restore,
amend, undo or redo of hand n re-derives the pot state (and the rule's dealer) of every later
counted hand in order and stores a new version of exactly those whose result changed, in the
correction's transaction; the kept nets, pot account and pot state equal a full re-score from the
first hand. Through the session API on a real database."""
from __future__ import annotations

from typing import Any

from tests.test_tongits_ledger import open_tongits, record, session, tongits_night
from tests.tongits_rescore import rescored_at


def hands_of(client: Any, night: dict[str, Any]) -> dict[int, dict[str, Any]]:
    listed = client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]
    return {h["number"]: h for h in listed}


def post(client: Any, night: dict[str, Any], path: str, json: Any = None) -> Any:
    response = client.post(f"/api/v1/sessions/{night['id']}/{path}", json=json, headers=night["headers"])
    assert response.status_code in (200, 201), (path, response.get_json())
    return response.get_json()


def played(client: Any, count: int) -> tuple[dict[str, Any], dict[str, Any]]:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"][:count]:
        record(client, night, hand)
    return data, night


def as_recorded(client: Any, night: dict[str, Any], data: dict[str, Any], numbers: range) -> None:
    """Hands ``numbers`` hold exactly night-01's results and dealers again."""
    hands = hands_of(client, night)
    for number in numbers:
        expected = data["hands"][number - 1]
        assert hands[number]["status"] == "counted"
        assert hands[number]["dealer"] == expected["dealer"], number
        assert hands[number]["transfers"] == expected["expected"]["transfers"], number
        assert hands[number]["pot"] == expected["expected"]["pot"], number


def test_voiding_a_hand_rescores_the_later_ones_and_restoring_it_gives_them_back(
        client: Any, database_url: str) -> None:
    data, night = played(client, 8)
    before = hands_of(client, night)
    post(client, night, "hands/3/void")
    after = hands_of(client, night)
    assert after[3]["status"] == "voided" and after[3]["version"] == 1
    assert after[1] == before[1] and after[2] == before[2]  # the hands before are untouched
    # hand 4 was dealt by Ligaya, the winner of hand 3: now Dodong, the winner of hand 2, deals it,
    # and Marisol's win breaks Dodong's streak: the pot goes on from hand 2's
    assert after[4]["dealer"] == "Dodong" and after[4]["version"] == 2
    assert after[4]["pot"]["balance_before"] == data["hands"][1]["expected"]["pot"]["balance_after"]
    assert after[4]["pot"]["holder"] == "Marisol" and after[4]["pot"]["streak"] == 1
    kept = rescored_at(database_url, night["id"], dealt_by_the_rule=True)
    shown = session(client, night)
    assert shown["pot"] == {"balance_minor": kept["pot"], "holder": kept["state"]["holder"],
                            "streak": kept["state"]["streak"]}
    assert shown["net"] == kept["net"]

    post(client, night, "hands/3/restore")
    as_recorded(client, night, data, range(1, 9))
    kept = rescored_at(database_url, night["id"], dealt_by_the_rule=True)
    assert kept["state"] == {"balance": data["hands"][7]["expected"]["pot"]["balance_after"],
                             "holder": data["hands"][7]["expected"]["pot"]["holder"],
                             "streak": data["hands"][7]["expected"]["pot"]["streak"]}


def test_only_the_hands_whose_input_changed_get_a_new_version(client: Any, database_url: str) -> None:
    data, night = played(client, 8)
    post(client, night, "hands/8/void")  # the last hand: nothing after it
    after = hands_of(client, night)
    assert all(after[n]["version"] == 1 for n in range(1, 8))
    kept = rescored_at(database_url, night["id"], dealt_by_the_rule=True)
    assert kept["state"]["balance"] == data["hands"][6]["expected"]["pot"]["balance_after"]
    assert session(client, night)["next_dealer"] == "Marisol"  # the winner of hand 7 deals again


def test_amending_a_hand_rescores_the_later_ones(client: Any, database_url: str) -> None:
    data, night = played(client, 8)
    # hand 1 won by Marisol with tong-its instead: every later pot moves
    post(client, night, "hands/1/amend", {"version": 1, "outcome": {"kind": "tongits", "winner": "Marisol"},
                                          "hands": {}})
    after = hands_of(client, night)
    assert after[1]["version"] == 2 and after[1]["winner"] == "Marisol"
    assert after[2]["pot"]["balance_before"] == after[1]["pot"]["balance_after"]
    assert after[2]["dealer"] == "Marisol"  # Dodong dealt by the rule; now the rule says Marisol
    rescored_at(database_url, night["id"], dealt_by_the_rule=True)
    # amended back, every hand scores as the night was played
    post(client, night, "hands/1/amend", {"version": 2, "outcome": data["hands"][0]["outcome"],
                                          "hands": data["hands"][0]["hands"], "dealer": "Dodong"})
    as_recorded(client, night, data, range(1, 9))
    rescored_at(database_url, night["id"], dealt_by_the_rule=True)


def test_undo_and_redo_keep_the_pot(client: Any, database_url: str) -> None:
    data, night = played(client, 10)
    post(client, night, "undo")
    shown = session(client, night)
    nine = data["hands"][8]["expected"]["pot"]
    assert shown["pot"] == {"balance_minor": nine["balance_after"], "holder": nine["holder"], "streak": nine["streak"]}
    rescored_at(database_url, night["id"])
    post(client, night, "redo")
    as_recorded(client, night, data, range(1, 11))
    rescored_at(database_url, night["id"], dealt_by_the_rule=True)


def test_a_table_that_chose_its_dealer_keeps_it(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"][:3]:
        record(client, night, hand)
    fourth = dict(data["hands"][3], dealer="Marisol")  # not the rule's (Ligaya)
    record(client, night, fourth)
    post(client, night, "hands/3/void")
    assert hands_of(client, night)[4]["dealer"] == "Marisol"
    rescored_at(database_url, night["id"])


def test_the_later_hands_are_read_only_by_corrections(client: Any, database_url: str) -> None:
    """Recording still scores from the kept state alone: after corrections, the next hand is
    scored from the pot the corrected night leaves."""
    data, night = played(client, 6)
    post(client, night, "hands/2/void")
    kept = rescored_at(database_url, night["id"])
    seventh = data["hands"][6]
    body = post(client, night, "hands", {"outcome": seventh["outcome"], "hands": seventh["hands"]})
    assert body["pot"]["balance_before"] == kept["state"]["balance"]
    rescored_at(database_url, night["id"], dealt_by_the_rule=False)
