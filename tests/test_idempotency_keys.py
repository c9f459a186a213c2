"""An idempotency key identifies one request (issue 7, findings 3 and 4): the same key with the
same request gives the same answer; the same key with anything else (another hand, another kind
of request, other content) is 409 ``idempotency_key_reused``; a key is stored whole or refused,
never cut short."""
from __future__ import annotations

from typing import Any

import pytest

DEE = {"outcome": {"kind": "discard_out", "winner": "Dee"}}
ROSA = {"outcome": {"kind": "discard_out", "winner": "Rosa"}}
MARCUS = {"outcome": {"kind": "discard_out", "winner": "Marcus"}}


def post(client: Any, night: dict[str, Any], path: str, body: dict[str, Any], key: str | None = None) -> Any:
    headers = night["headers"] | ({"Idempotency-Key": key} if key is not None else {})
    return client.post(f"/api/v1/sessions/{night['id']}{path}", json=body, headers=headers)


def versions(client: Any, night: dict[str, Any], number: int) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/sessions/{night['id']}/hands/{number}/versions", headers=night["headers"])
    assert response.status_code == 200
    return response.get_json()["versions"]


def net(client: Any, night: dict[str, Any]) -> dict[str, int]:
    return client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"]).get_json()["net"]


def test_finding_3_amend_with_a_key_used_by_another_hand_is_a_conflict(client: Any, open_night: dict[str, Any]) -> None:
    assert post(client, open_night, "/hands", DEE, "tap-1").status_code == 201
    assert post(client, open_night, "/hands", ROSA, "tap-2").status_code == 201
    before = net(client, open_night)

    reused = post(client, open_night, "/hands/2/amend", MARCUS | {"version": 1}, "tap-1")
    assert reused.status_code == 409, reused.get_json()
    body = reused.get_json()
    assert (body["error"], body["field"]) == ("idempotency_key_reused", "Idempotency-Key")
    assert [v["version"] for v in versions(client, open_night, 2)] == [1]
    assert versions(client, open_night, 1)[0]["outcome"]["winner"] == "Dee"
    assert net(client, open_night) == before

    # the correction itself is not lost: with its own key it is saved
    fresh = post(client, open_night, "/hands/2/amend", MARCUS | {"version": 1}, "fix-2")
    assert fresh.status_code == 201 and fresh.get_json()["winners"] == ["Marcus"]


def test_finding_3_an_amend_key_reused_for_other_content_or_another_hand_is_a_conflict(
    client: Any, open_night: dict[str, Any]
) -> None:
    post(client, open_night, "/hands", DEE)
    post(client, open_night, "/hands", ROSA)
    first = post(client, open_night, "/hands/1/amend", MARCUS | {"version": 1}, "fix-1")
    assert first.status_code == 201 and first.get_json()["version"] == 2

    # the correction form sent again with a different winner: not "already corrected"
    other_winner = post(client, open_night, "/hands/1/amend", ROSA | {"version": 1}, "fix-1")
    assert other_winner.status_code == 409
    assert other_winner.get_json()["error"] == "idempotency_key_reused"
    assert other_winner.get_json()["existing"]["winners"] == ["Marcus"]
    other_hand = post(client, open_night, "/hands/2/amend", MARCUS | {"version": 1}, "fix-1")
    assert other_hand.status_code == 409 and other_hand.get_json()["error"] == "idempotency_key_reused"
    other_dealer = post(client, open_night, "/hands/1/amend", MARCUS | {"version": 1, "dealer": "Rosa"}, "fix-1")
    assert other_dealer.status_code == 409 and other_dealer.get_json()["error"] == "idempotency_key_reused"
    # a record reusing the amend's key, and an amend reusing a record's key, are other requests
    record = post(client, open_night, "/hands", MARCUS, "fix-1")
    assert record.status_code == 409 and record.get_json()["error"] == "idempotency_key_reused"
    post(client, open_night, "/hands", DEE, "rec-3")
    amend_with_record_key = post(client, open_night, "/hands/3/amend", DEE | {"version": 1}, "rec-3")
    assert amend_with_record_key.status_code == 409
    assert amend_with_record_key.get_json()["error"] == "idempotency_key_reused"

    assert [v["version"] for v in versions(client, open_night, 1)] == [1, 2]
    assert [v["version"] for v in versions(client, open_night, 2)] == [1]
    assert [v["version"] for v in versions(client, open_night, 3)] == [1]


def test_finding_3_an_exact_replay_answers_the_same_even_after_the_night_closed(
    client: Any, open_night: dict[str, Any]
) -> None:
    post(client, open_night, "/hands", DEE, "rec-1")
    first = post(client, open_night, "/hands/1/amend", ROSA | {"version": 1}, "fix-1")
    assert first.status_code == 201
    again = post(client, open_night, "/hands/1/amend", ROSA | {"version": 1}, "fix-1")
    assert again.status_code == 200
    assert (again.get_json()["version"], again.get_json()["winners"]) == (2, ["Rosa"])

    assert client.post(f"/api/v1/sessions/{open_night['id']}/close", headers=open_night["headers"]).status_code == 200
    replay = post(client, open_night, "/hands/1/amend", ROSA | {"version": 1}, "fix-1")
    assert replay.status_code == 200 and replay.get_json()["version"] == 2
    assert post(client, open_night, "/hands", DEE, "rec-1").status_code == 200  # nothing new is written
    for body, key in [(MARCUS | {"version": 2}, "fix-2"), (MARCUS | {"version": 2}, "rec-1"),
                      (MARCUS | {"version": 1}, "fix-1"), (MARCUS | {"version": 2}, None)]:
        refused = post(client, open_night, "/hands/1/amend", body, key)
        assert refused.status_code == 409 and refused.get_json()["error"] == "session_closed", (key, refused.get_json())
    assert [v["version"] for v in versions(client, open_night, 1)] == [1, 2]


def test_finding_4_long_keys_sharing_their_first_80_characters_record_two_hands(
    client: Any, open_night: dict[str, Any]
) -> None:
    stem = "k" * 80
    first = post(client, open_night, "/hands", DEE, stem + "-first")
    second = post(client, open_night, "/hands", ROSA, stem + "-second")
    assert (first.status_code, second.status_code) == (201, 201), second.get_json()
    assert (first.get_json()["number"], second.get_json()["number"]) == (1, 2)
    longest = "x" * 199
    assert post(client, open_night, "/hands", MARCUS, longest + "a").status_code == 201
    assert post(client, open_night, "/hands", DEE, longest + "b").status_code == 201
    assert post(client, open_night, "/hands", MARCUS, longest + "a").status_code == 200  # stored whole
    assert client.get(f"/api/v1/sessions/{open_night['id']}", headers=open_night["headers"]).get_json()["hand_count"] == 4


@pytest.mark.parametrize("key", ["x" * 201, "clé-1", "tap 1\x7f"])
def test_finding_4_a_key_too_long_or_not_printable_ascii_is_refused_naming_the_field(
    client: Any, open_night: dict[str, Any], key: str
) -> None:
    for path, body in [("/hands", DEE), ("/hands/1/amend", ROSA | {"version": 1})]:
        refused = post(client, open_night, path, body, key)
        assert refused.status_code == 422, (path, refused.get_json())
        assert (refused.get_json()["error"], refused.get_json()["field"]) == ("invalid_entry", "Idempotency-Key")
        if path == "/hands":
            assert post(client, open_night, path, body).status_code == 201  # hand 1 for the amend
    assert [v["version"] for v in versions(client, open_night, 1)] == [1]


def test_issue_20_an_empty_key_is_refused_not_taken_as_no_key(client: Any, open_night: dict[str, Any]) -> None:
    """An empty ``Idempotency-Key`` header is a key that is not 1 to 200 characters: 422 naming
    the header, and nothing recorded (taken as no key, a retry recorded a second hand)."""
    for path, body in [("/hands", DEE), ("/hands/1/amend", ROSA | {"version": 1})]:
        for attempt in (1, 2):  # the retry is refused the same way, never stored twice
            refused = post(client, open_night, path, body, "")
            assert refused.status_code == 422, (path, attempt, refused.get_json())
            assert (refused.get_json()["error"], refused.get_json()["field"]) == ("invalid_entry", "Idempotency-Key")
        if path == "/hands":
            assert net(client, open_night) == dict.fromkeys(net(client, open_night), 0)
            assert post(client, open_night, path, body).status_code == 201  # hand 1 for the amend
    assert [v["version"] for v in versions(client, open_night, 1)] == [1]
    assert client.get(f"/api/v1/sessions/{open_night['id']}", headers=open_night["headers"]).get_json()["hand_count"] == 1


def rename(client: Any, night: dict[str, Any], old: str, new: str) -> None:
    renamed = post(client, night, "/players/rename", {"from": old, "to": new})
    assert renamed.status_code == 200, renamed.get_json()


def test_issue_20_a_retry_after_a_rename_is_answered_with_the_stored_hand(client: Any, open_night: dict[str, Any]) -> None:
    """The phone's retry carries the names it was sent with; the stored hand was renamed since.
    Compared under the renames made since it was stored, it is the same request: 200 with the
    hand as it stands (409 ``idempotency_key_reused`` before), and nothing new is recorded."""
    knock = {"outcome": {"kind": "knock", "knocker": "Rosa"}, "dealer": "Dee",
             "hands": {"Dee": {"total": 20}, "Marcus": {"total": 9}, "Rosa": {"total": 3}, "Tomás": {"total": 30}}}
    first = post(client, open_night, "/hands", knock, "knock-1")
    assert first.status_code == 201, first.get_json()
    rename(client, open_night, "Rosa", "Rosalind")
    rename(client, open_night, "Rosalind", "Ros")  # two renames: followed in order
    rename(client, open_night, "Dee", "Deedee")
    before = net(client, open_night)

    again = post(client, open_night, "/hands", knock, "knock-1")
    assert again.status_code == 200, again.get_json()
    body = again.get_json()
    assert (body["number"], body["version"], body["winners"], body["dealer"]) == (1, 1, ["Ros"], "Deedee")
    names = {"Rosa": "Ros", "Dee": "Deedee"}
    assert body["net"] == {names.get(p, p): amount for p, amount in first.get_json()["net"].items()}
    assert net(client, open_night) == before
    assert client.get(f"/api/v1/sessions/{open_night['id']}", headers=open_night["headers"]).get_json()["hand_count"] == 1

    # the same key with another request is still another request, renamed or not
    other = post(client, open_night, "/hands", knock | {"outcome": {"kind": "knock", "knocker": "Marcus"}}, "knock-1")
    assert (other.status_code, other.get_json()["error"]) == (409, "idempotency_key_reused")

    # an amendment retried after a rename is the same amendment
    fix = {"outcome": {"kind": "discard_out", "winner": "Marcus"}, "hands": {}, "version": 1}
    fixed = post(client, open_night, "/hands/1/amend", fix | {"dealer": "Deedee"}, "fix-1")
    assert fixed.status_code == 201, fixed.get_json()
    rename(client, open_night, "Marcus", "Marc")
    retried = post(client, open_night, "/hands/1/amend", fix | {"dealer": "Deedee"}, "fix-1")
    assert retried.status_code == 200, retried.get_json()
    assert (retried.get_json()["version"], retried.get_json()["winners"]) == (2, ["Marc"])
    assert [v["version"] for v in versions(client, open_night, 1)] == [1, 2]


def test_issue_20_a_name_given_after_a_rename_to_someone_new_is_not_the_renamed_player(
    client: Any, open_night: dict[str, Any]
) -> None:
    """Only renames made after the hand was stored are followed: a hand recorded after Rosa became
    Ros, naming a new Rosa who sat in since, is Rosa's; its retry is the same request."""
    rename(client, open_night, "Rosa", "Ros")
    assert post(client, open_night, "/players/leave", {"name": "Marcus", "settle": "at_end"}).status_code == 200
    assert post(client, open_night, "/players", {"name": "Rosa"}).status_code == 201
    first = post(client, open_night, "/hands", ROSA, "rosa-new")
    assert first.status_code == 201 and first.get_json()["winners"] == ["Rosa"]
    again = post(client, open_night, "/hands", ROSA, "rosa-new")
    assert again.status_code == 200 and again.get_json()["winners"] == ["Rosa"]
    other = post(client, open_night, "/hands", {"outcome": {"kind": "discard_out", "winner": "Ros"}}, "rosa-new")
    assert (other.status_code, other.get_json()["error"]) == (409, "idempotency_key_reused")


def test_issue_24_a_retry_after_the_stake_changed_is_answered_with_the_stored_hand(
    client: Any, open_night: dict[str, Any]
) -> None:
    """The key is looked up only once a submission is refused or its key is taken (issue 24): a retry
    of a stored hand whose table changed since (409 ``table_changed`` for a new hand) is still
    answered with the stored hand, and nothing new is recorded."""
    url = f"/api/v1/sessions/{open_night['id']}/hands"
    body = {"outcome": {"kind": "tonk_out", "winner": "Dee"},
            "seen": {"players": ["Dee", "Marcus", "Rosa", "Tomás"], "stake": 25}}
    headers = open_night["headers"] | {"Idempotency-Key": "retry-after-stake"}
    first = client.post(url, json=body, headers=headers)
    assert first.status_code == 201, first.get_json()
    changed = client.post(f"/api/v1/sessions/{open_night['id']}/stake", json={"stake": 50},
                          headers=open_night["headers"])
    assert changed.status_code == 200, changed.get_json()
    again = client.post(url, json=body, headers=headers)
    assert again.status_code == 200, again.get_json()
    assert (again.get_json()["number"], again.get_json()["net"]) == (1, first.get_json()["net"])
    fresh = client.post(url, json=body, headers=open_night["headers"] | {"Idempotency-Key": "a-new-one"})
    assert fresh.status_code == 409 and fresh.get_json()["error"] == "table_changed"
    hands = client.get(url, headers=open_night["headers"]).get_json()["hands"]
    assert [h["number"] for h in hands] == [1]
