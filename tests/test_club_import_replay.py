"""Issue 20 item 3: a club import (no login needed) is a replay. Every hand is re-scored from
its entry under the night's rules, every figure worked out again (hand results, last hand
numbers, carries, the current stake, payments against the history that recorded them), the
live API's checks applied (bounds, names, enums, unique ids and keys, hand numbers 1..n,
aware times, no unknown keys), and a document whose own figures differ from the replay is
refused whole with 422 naming the first path that disagrees; nothing of it is kept."""
from __future__ import annotations

import copy
from typing import Any, Callable

import pytest
from sqlalchemy import func
from sqlmodel import select

from club_nights import bearer, make_club, three_nights, won_club_night
from ledger.storage.club_models import Club, ClubCarry, ClubEvent, ClubKey, ClubMember, ClubNight, ClubPayment, ClubSeat
from ledger.storage.models import AccessKey, AuditEvent, GameSession, Hand, HandTransfer, Payment, PlayerFigures

TABLES = (Club, ClubMember, ClubKey, ClubNight, ClubSeat, ClubCarry, ClubPayment, ClubEvent, GameSession, Hand,
          HandTransfer, Payment, AuditEvent, AccessKey, PlayerFigures)


def open_night(client: Any, club: dict[str, Any]) -> None:
    """A fourth night, left open: hand 1 amended, the stake raised to 0.50, hand 2 (sent with an
    Idempotency-Key) voided, hand 3, and a payment."""
    night = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee")
    url, host = f"/api/v1/sessions/{night['id']}", bearer(night["token"])
    amended = client.post(f"{url}/hands/1/amend", headers=host,
                          json={"outcome": {"kind": "tonk_out", "winner": "Marcus"}, "version": 1})
    assert amended.status_code == 201, amended.get_json()
    assert client.post(f"{url}/stake", headers=host, json={"stake": 50}).status_code == 200
    recorded = client.post(f"{url}/hands", headers=host | {"Idempotency-Key": "phone-1-hand-2"},
                           json={"outcome": {"kind": "tonk_out", "winner": "Rosa"}})
    assert recorded.status_code == 201, recorded.get_json()
    assert client.post(f"{url}/hands/2/void", headers=host).status_code == 200
    assert client.post(f"{url}/hands", headers=host,
                       json={"outcome": {"kind": "discard_out", "winner": "Dee"}}).status_code == 201
    paid = client.post(f"{url}/payments", headers=host, json={"from": "Rosa", "to": "Dee", "amount": 50})
    assert paid.status_code == 201, paid.get_json()


@pytest.fixture
def document(client: Any) -> dict[str, Any]:
    """Nights 1 and 2 carried, night 3 settled in cash, night 4 open; a club payment."""
    club = make_club(client)
    three_nights(client, club)
    url = f"/api/v1/clubs/{club['id']}"
    balances = client.get(url, headers=bearer(club["token"])).get_json()["balances"]
    debtor, creditor = min(balances, key=balances.__getitem__), max(balances, key=balances.__getitem__)
    assert client.post(f"{url}/payments", headers=bearer(club["token"]),
                       json={"from": debtor, "to": creditor, "amount": 50}).status_code == 201
    open_night(client, club)
    doc = client.get(f"{url}/export.json", headers=bearer(club["token"])).get_json()
    assert [n["session"]["status"] for n in doc["nights"]] == ["closed"] * 3 + ["open"]
    assert [n["carried"] for n in doc["nights"]] == [True, True, False, None]
    return doc


def rows(client: Any) -> dict[str, int]:
    with client.application.app_context():
        from ledger.storage.db import get_session
        db = get_session()
        return {table.__tablename__: db.exec(select(func.count()).select_from(table)).one() for table in TABLES}


def _set(path: str, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for part in parents:
            node = node[int(part)] if part.lstrip("-").isdigit() else node[part]
        node[int(last) if last.lstrip("-").isdigit() else last] = value
    return change


def _add(path: str, amount: int) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        node: Any = doc
        for part in parents:
            node = node[int(part)] if part.isdigit() else node[part]
        node[int(last) if last.isdigit() else last] += amount
    return change


def _both(*changes: Callable[[dict[str, Any]], None]) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        for one in changes:
            one(doc)
    return change


def _carries_moved(doc: dict[str, Any]) -> None:
    """The first night's carries still add up to zero, but 1.00 moved from one member to another."""
    carries = doc["nights"][0]["carries"]
    carries[1]["amount"] += 100
    carries[2]["amount"] -= 100


def _second_member_with_an_id(doc: dict[str, Any]) -> None:
    doc["members"].append({"id": doc["members"][0]["id"], "name": "Zed", "created_at": doc["members"][0]["created_at"],
                           "language": None})


def _seats_swapped(doc: dict[str, Any]) -> None:
    seats = doc["nights"][2]["seats"]
    seats[0]["member_id"], seats[1]["member_id"] = seats[1]["member_id"], seats[0]["member_id"]


def _hand_taken_out(doc: dict[str, Any]) -> None:
    del doc["nights"][0]["hands"][4]


def _club_payment_unrecorded(doc: dict[str, Any]) -> None:
    doc["history"] = [e for e in doc["history"] if e["action"] != "payment_recorded"]


def _same_key_twice(doc: dict[str, Any]) -> None:
    hands = doc["nights"][3]["hands"]
    keyed = next(h for h in hands if h["idempotency_key"])
    next(h for h in hands if h is not keyed)["idempotency_key"] = keyed["idempotency_key"]


def _latest_superseded(doc: dict[str, Any]) -> None:
    hands = doc["nights"][3]["hands"]
    assert (hands[1]["number"], hands[1]["version"], hands[1]["status"]) == (1, 2, "counted")
    hands[1]["status"] = "superseded"


def _void_without_time(doc: dict[str, Any]) -> None:
    voided = next(h for h in doc["nights"][3]["hands"] if h["status"] == "voided")
    voided["voided_at"] = None


# (name, change, error code, field)
CASES: list[tuple[str, Callable[[dict[str, Any]], None], str, str]] = [
    ("carries that do not match the night's results", _carries_moved, "import_mismatch",
     "nights[0].carries[1].amount"),
    ("a carry given to another member", _set("nights.0.carries.0.member_id", 2), "import_mismatch",
     "nights[0].carries[0].member_id"),
    ("a carried night without its carries", _set("nights.0.carries", []), "import_mismatch", "nights[0].carries"),
    ("a night settled in cash that carries", _set("nights.2.carried", True), "import_mismatch", "nights[2].carries"),
    ("an open night marked carried", _set("nights.3.carried", True), "invalid_entry", "nights[3].carried"),
    ("an open night with a closing time", _set("nights.3.session.closed_at", "2026-01-01T00:00:00+00:00"),
     "invalid_entry", "nights[3].session.closed_at"),
    ("a closed night that does not say whether it carried", _set("nights.2.carried", None), "invalid_entry",
     "nights[2].carried"),
    ("a negative club payment", _set("payments.0.amount", -50), "invalid_entry", "payments[0].amount"),
    ("a club payment of 9·10^15", _set("payments.0.amount", 9 * 10**15), "invalid_entry", "payments[0].amount"),
    ("a club payment other than the one recorded", _add("payments.0.amount", 10), "import_mismatch",
     "payments[0].amount"),
    ("a club payment the history does not record", _club_payment_unrecorded, "import_mismatch", "payments[0]"),
    ("a club payment to oneself", lambda d: d["payments"][0].update(to_id=d["payments"][0]["from_id"]),
     "invalid_payment", "payments[0].to_id"),
    ("a second member with an existing member's id", _second_member_with_an_id, "invalid_entry", "members[4].id"),
    ("a member name twice in other capitals", _set("members.1.name", "DEE"), "duplicate_player", "members[1].name"),
    ("hand nets that disagree with their transfers", _add("nights.0.hands.0.result.net.Dee", 1), "import_mismatch",
     "nights[0].hands[0].result.net.Dee"),
    ("a hand's transfer changed", _add("nights.0.hands.0.result.transfers.0.amount", 25), "import_mismatch",
     "nights[0].hands[0].result.transfers[0].amount"),
    ("a hand's stake changed", _set("nights.0.hands.0.stake", 50), "import_mismatch",
     "nights[0].hands[0].result.transfers[0].amount"),
    ("a hand's card total changed", _set("nights.0.hands.1.entry.hands.Tomás.total", 40), "import_mismatch",
     "nights[0].hands[1].result.transfers[0].to"),
    ("a hand's kind that is not its outcome's", _set("nights.0.hands.0.kind", "knock"), "import_mismatch",
     "nights[0].hands[0].kind"),
    ("a hand said to be a redeal", _set("nights.0.hands.0.redeal", True), "import_mismatch",
     "nights[0].hands[0].redeal"),
    ("a winner who is not seated", _set("nights.0.hands.0.entry.outcome.winner", "Zed"), "unknown_player",
     "nights[0].hands[0].entry.outcome.winner"),
    ("a dealer who is not seated", _set("nights.0.hands.0.dealer", "Zed"), "unknown_player",
     "nights[0].hands[0].dealer"),
    ("a hand status banana", _set("nights.0.hands.0.status", "banana"), "invalid_entry", "nights[0].hands[0].status"),
    ("a payment status banana", _set("payments.0.status", "banana"), "invalid_entry", "payments[0].status"),
    ("a night payment kind banana", _set("nights.3.payments.0.kind", "banana"), "invalid_entry",
     "nights[3].payments[0].kind"),
    ("a night payment other than the one recorded", _add("nights.3.payments.0.amount", 5), "import_mismatch",
     "nights[3].payments[0].amount"),
    ("a hand taken out", _hand_taken_out, "invalid_entry", "nights[0].hands"),
    ("a hand numbered 0", _set("nights.0.hands.0.number", 0), "invalid_entry", "nights[0].hands[0].number"),
    ("a last hand number past the hands", _add("nights.0.session.last_hand_number", 1), "import_mismatch",
     "nights[0].session.last_hand_number"),
    ("the latest version of a hand superseded", _latest_superseded, "invalid_entry", "nights[3].hands[1].status"),
    ("a voided hand without the time it was voided", _void_without_time, "invalid_entry",
     "nights[3].hands[2].voided_at"),
    ("an idempotency key of 201 characters", _set("nights.3.hands.2.idempotency_key", "k" * 201), "invalid_entry",
     "nights[3].hands[2].idempotency_key"),
    ("an idempotency key ending in a line break", _set("nights.3.hands.2.idempotency_key", "key\n"),
     "invalid_entry", "nights[3].hands[2].idempotency_key"),
    ("one idempotency key on two hands", _same_key_twice, "invalid_entry", "nights[3].hands[2].idempotency_key"),
    ("a current stake the history never set", _set("nights.3.session.stake", 30), "import_mismatch",
     "nights[3].session.stake"),
    ("a night in another currency", _set("nights.0.session.currency", "EUR"), "invalid_entry",
     "nights[0].session.currency"),
    ("a night in no known time zone", _set("nights.0.session.timezone", "Mars/Base"), "invalid_entry",
     "nights[0].session.timezone"),
    ("two members' seats swapped", _seats_swapped, "invalid_entry", "nights[2].seats[0].name"),
    ("a seat of no member", _set("nights.0.seats.0.member_id", 99), "invalid_entry", "nights[0].seats[0].member_id"),
    ("a time without its offset", _set("nights.0.hands.0.created_at", "2026-01-01T10:00:00"), "invalid_entry",
     "nights[0].hands[0].created_at"),
    ("an unknown key in a hand", _set("nights.0.hands.0.bonus", 5), "invalid_entry", "nights[0].hands[0].bonus"),
    ("an unknown key in the document", _set("bonus", 5), "invalid_entry", "bonus"),
    ("an unknown key in a hand's entry", _set("nights.0.hands.0.entry.bonus", 5), "invalid_entry",
     "nights[0].hands[0].entry.bonus"),
    ("rules changed under the hands", _set("nights.0.session.ruleset.deal_tonk_mult_50", 3), "import_mismatch",
     "nights[0].hands[7].result.transfers[0].amount"),
    ("a name not written as the server writes it", _set("nights.0.session.roster.0", " Dee"), "import_mismatch",
     "nights[0].session.roster[0]"),
]


@pytest.mark.parametrize("change, code, field", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_a_document_that_disagrees_with_its_replay_is_refused_whole(
    client: Any, document: dict[str, Any], change: Callable[[dict[str, Any]], None], code: str, field: str
) -> None:
    before = rows(client)
    broken = copy.deepcopy(document)
    change(broken)
    refused = client.post("/api/v1/clubs/import", json=broken)
    body = refused.get_json()
    assert refused.status_code == 422, body
    assert (body["error"], body["field"]) == (code, field), body
    assert body["message"] and "{" not in body["message"]
    assert rows(client) == before  # nothing of it kept
    assert client.post("/api/v1/clubs/import", json=document).status_code == 201  # the document as exported


def test_a_mismatch_names_both_figures(client: Any, document: dict[str, Any]) -> None:
    broken = copy.deepcopy(document)
    _carries_moved(broken)
    amount = document["nights"][0]["carries"][1]["amount"]
    body = client.post("/api/v1/clubs/import", json=broken).get_json()
    assert body["message"] == (f"The document says {amount + 100} here, but replaying it gives {amount}.")
    spanish = client.post("/api/v1/clubs/import?lang=es", json=broken).get_json()
    assert spanish["message"] != body["message"] and str(amount + 100) in spanish["message"]


def test_the_exported_club_imports_with_its_open_night_as_it_was(client: Any, document: dict[str, Any]) -> None:
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy_of = imported.get_json()
    night_id = list(copy_of["night_tokens"])[3]
    host = bearer(copy_of["night_tokens"][night_id])
    night = client.get(f"/api/v1/sessions/{night_id}", headers=host).get_json()
    original = document["nights"][3]
    assert (night["status"], night["stake"], night["hand_count"]) == ("open", 50, 2)  # hand 2 is void
    # the next hand is number 4 at the stake the history last set, and the night goes on
    recorded = client.post(f"/api/v1/sessions/{night_id}/hands", headers=host,
                           json={"outcome": {"kind": "tonk_out", "winner": "Rosa"}})
    assert recorded.status_code == 201, recorded.get_json()
    assert (recorded.get_json()["number"], recorded.get_json()["stake"]) == (4, 50)
    # a retry of the hand sent with a key before the export is still answered with that hand
    again = client.post(f"/api/v1/sessions/{night_id}/hands", headers=host | {"Idempotency-Key": "phone-1-hand-2"},
                        json={"outcome": {"kind": "tonk_out", "winner": "Rosa"}})
    assert (again.status_code, again.get_json()["number"]) == (200, 2)
    assert original["session"]["last_hand_number"] == 3


def test_a_seat_given_to_the_member_who_took_the_name_later_is_refused(client: Any) -> None:
    """Ann plays night 1 (settled in cash), is renamed Annie in the club, and a new "Ann" joins
    at night 2: night 1's seat "Ann" is Annie's, and giving it to the new Ann (whose name it
    also is) would move night 1's results to her standings."""
    club = make_club(client)
    url = f"/api/v1/clubs/{club['id']}"
    first = won_club_night(client, club, ["Ann", "Ben"], winner="Ann")
    assert client.post(f"/api/v1/sessions/{first['id']}/close", headers=bearer(first["token"]),
                       json={"carry_over": False}).status_code == 200
    ann = next(m for m in client.get(url, headers=bearer(club["token"])).get_json()["members"] if m["name"] == "Ann")
    assert client.post(f"{url}/members/{ann['id']}/rename", headers=bearer(club["token"]),
                       json={"name": "Annie"}).status_code == 200
    won_club_night(client, club, ["Ann", "Ben"], winner="Ben")
    document = client.get(f"{url}/export.json", headers=bearer(club["token"])).get_json()
    newcomer = next(m["id"] for m in document["members"] if m["name"] == "Ann")
    seats = document["nights"][0]["seats"]
    assert seats[0] == {"member_id": ann["id"], "name": "Ann"}
    before = rows(client)
    broken = copy.deepcopy(document)
    broken["nights"][0]["seats"][0]["member_id"] = newcomer
    refused = client.post("/api/v1/clubs/import", json=broken)
    assert refused.status_code == 422, refused.get_json()
    body = refused.get_json()
    assert (body["error"], body["field"]) == ("invalid_entry", "nights[0].seats[0].member_id")
    assert rows(client) == before
    # the document as exported imports, and an import's own export imports again the same way
    copied = client.post("/api/v1/clubs/import", json=document).get_json()
    again = client.get(f"/api/v1/clubs/{copied['id']}/export.json", headers=bearer(copied["token"])).get_json()
    broken = copy.deepcopy(again)
    broken["nights"][0]["seats"][0]["member_id"] = next(m["id"] for m in again["members"] if m["name"] == "Ann")
    assert client.post("/api/v1/clubs/import", json=broken).get_json()["field"] == "nights[0].seats[0].member_id"
    assert client.post("/api/v1/clubs/import", json=again).status_code == 201


def _event(doc: dict[str, Any], action: str) -> dict[str, Any]:
    return next(e for e in doc["nights"][3]["history"] if e["action"] == action)


HISTORY_CASES = [
    ("a stake change of no amount", lambda d: _event(d, "stake_changed")["detail"]["after"].update(stake_minor="lots"),
     "stake_changed", "detail.after.stake_minor"),
    ("a recorded hand whose net is a text", lambda d: _event(d, "hand_recorded")["detail"].update(after="Dee won"),
     "hand_recorded", "detail.after"),
    ("a hand's net in halves", lambda d: _event(d, "hand_recorded")["detail"]["after"]["net"].update(Dee=0.5),
     "hand_recorded", "detail.after.net.Dee"),
    ("seats of one text", lambda d: _event(d, "session_created")["detail"]["after"].update(players="Dee"),
     "session_created", "detail.after.players"),
]


@pytest.mark.parametrize("change, action, inside", [c[1:] for c in HISTORY_CASES], ids=[c[0] for c in HISTORY_CASES])
def test_a_history_the_nights_pages_could_not_read_is_refused(
    client: Any, document: dict[str, Any], change: Callable[[dict[str, Any]], None], action: str, inside: str
) -> None:
    broken = copy.deepcopy(document)
    change(broken)
    index = next(i for i, e in enumerate(broken["nights"][3]["history"]) if e["action"] == action)
    before = rows(client)
    refused = client.post("/api/v1/clubs/import", json=broken)
    assert refused.status_code == 422, refused.get_json()
    assert refused.get_json()["field"] == f"nights[3].history[{index}].{inside}"
    assert rows(client) == before


def test_a_rename_the_club_could_not_read_is_refused(client: Any) -> None:
    """A rename event without its old name made every read of the club's standings fail."""
    club = make_club(client)
    night = won_club_night(client, club, ["Ann", "Ben"], winner="Ann")
    url, host = f"/api/v1/sessions/{night['id']}", bearer(night["token"])
    assert client.post(f"{url}/players/rename", headers=host, json={"from": "Ann", "to": "Annie"}).status_code == 200
    document = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"])).get_json()
    index, renamed = next((i, e) for i, e in enumerate(document["nights"][0]["history"])
                          if e["action"] == "player_renamed")
    renamed["detail"]["before"] = None
    refused = client.post("/api/v1/clubs/import", json=document)
    assert (refused.status_code, refused.get_json()["field"]) == (422, f"nights[0].history[{index}].detail.before")
