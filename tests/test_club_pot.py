"""A club's Tong-its pot carried between nights (issue 21 item 3, TONGITS.md §4.8, §4.9 ``pot_at_end:
carry``): the shared Tong-its night (``nights/tongits/night-01.json``) played as a club night whose
rules carry the pot, closed and carried, leaves its pot in the club's pot; the club's next Tong-its
night opens with it (no holder, no streak) and empties the club's pot; its first hand is scored by
the engine from that state; the club's books (members' balances + the club's pot + what an open
night's pot brought in) stay at zero throughout; undoing the carry takes the pot back (refused
once a later night opened with it); the club's export and import carry and check the pot. Real
database (SQLite file, or PostgreSQL with ``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import copy
from typing import Any

from club_nights import bearer
from kept_figures import checked_figures
from ledger.games.tongits import TONGITS
from tests.test_tongits_clubs import close, export_of, make_php_club, refused
from tests.test_tongits_ledger import tongits_night

CARRY = {"preset": "classic", "toggles": {"pot_at_end": "carry"}}
#: the club's second night: antes of 3 chips each when the pot is empty, 1 chip each when it is not
CHIPS = {"preset": "classic", "toggles": {"pot_at_end": "carry", "pot_ante": 1, "pot_opening_ante": 3}}


def club_of(client: Any, club: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def session_of(client: Any, night: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/v1/sessions/{night['id']}", headers=bearer(night["token"])).get_json()  # type: ignore[no-any-return]


def start(client: Any, club: dict[str, Any], name: str = "Biyernes",
          ruleset: dict[str, Any] = CARRY) -> dict[str, Any]:
    data = tongits_night()
    body = {"name": name, "stake": data["stake"], "ruleset": ruleset, "players": data["players"],
            "first_dealer": data["first_dealer"], "game": "tongits", "club": club["id"]}
    response = client.post("/api/v1/sessions", json=body, headers=bearer(club["token"]))
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def record(client: Any, night: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
    response = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                           json={"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]})
    assert response.status_code == 201, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def books(client: Any, club: dict[str, Any], *open_nights: dict[str, Any]) -> int:
    """Members' balances + the club's pot + what each open night's pot brought in (checked against
    the club's ``pot_in_nights_minor``): zero when the club's money is all accounted for."""
    body = club_of(client, club)
    brought = sum(session_of(client, n)["pot"].get("opening_minor", 0) for n in open_nights)
    assert body["pot_in_nights_minor"] == brought
    owed_to_pot = sum(t["amount"] for t in body["settlement"]["transfers"] if t["to"] == "pot")
    assert owed_to_pot == body["pot_minor"] + brought  # the plan fills the pot the books owe
    return sum(body["balances"].values()) + body["pot_minor"] + brought


def figures_check(client: Any, night: dict[str, Any]) -> Any:
    with client.application.app_context():
        from ledger.storage.db import get_session
        return checked_figures(get_session(), night["id"])


def carried_club(client: Any) -> tuple[dict[str, Any], dict[str, Any], int]:
    """A PHP club whose first Tong-its night (the shared night, pot carried) is closed and carried."""
    data = tongits_night()
    club = make_php_club(client)
    night = start(client, club, data["name"])
    assert books(client, club, night) == 0
    for hand in data["hands"]:
        record(client, night, hand)
    assert books(client, club, night) == 0
    closed = close(client, night, True)
    assert closed["carried"] is True and closed["net"] == data["expected"]["net"]  # nothing split
    pot = data["expected"]["pot_balance"]
    assert session_of(client, night)["pot"] | {} == {"balance_minor": pot, "holder": None, "streak": 0,
                                                     "closed": "carried", "closed_minor": pot, "closed_among": 0}
    return club, night, pot


def test_a_carried_pot_goes_into_the_club_and_opens_its_next_tongits_night(client: Any) -> None:
    data = tongits_night()
    club, first, pot = carried_club(client)
    body = club_of(client, club)
    assert body["pot_minor"] == pot == 3000
    assert body["balances"] == data["expected"]["net"]
    assert sum(body["balances"].values()) + body["pot_minor"] == 0
    assert [n.get("pot_carried_minor", 0) for n in body["nights"]] == [pot]
    into_pot = [t for t in body["settlement"]["transfers"] if t["to"] == "pot"]  # who puts the pot's money in
    assert sum(t["amount"] for t in into_pot) == pot

    second = start(client, club, "Sabado", CHIPS)
    assert second["pot"] == {"balance_minor": pot, "holder": None, "streak": 0, "opening_minor": pot}
    assert club_of(client, club)["pot_minor"] == 0
    assert books(client, club, second) == 0
    kept = figures_check(client, second)
    assert kept.accounts == {"pot": pot} and kept.state == {"balance": pot, "holder": None, "streak": 0}

    hand = data["hands"][0]
    rules = TONGITS.rules(CHIPS)
    scored = TONGITS.score(rules, players=tuple(data["players"]), stake_minor=data["stake"], dealer=hand["dealer"],
                           state={"balance": pot, "holder": None, "streak": 0},
                           entry={"outcome": hand["outcome"], "hands": hand["hands"]}).to_json()
    recorded = record(client, second, hand)
    assert recorded["net"] == scored["net"] and recorded["transfers"] == scored["transfers"]
    assert recorded["pot"] == scored["pot"] and recorded["pot"]["balance_before"] == pot
    # a pot that is not empty takes pot_ante (1 chip each), not the opening ante (3 chips each)
    assert recorded["pot"]["antes"] == 3 * 1 * data["stake"]
    kept = figures_check(client, second)
    assert sum(kept.net.values()) + kept.accounts["pot"] - pot == 0  # players + the pot's movement
    plan = client.get(f"/api/v1/sessions/{second['id']}/settlement", headers=bearer(second["token"]))
    assert plan.status_code == 200, plan.get_json()
    moved = kept.accounts["pot"] - pot  # the night's settle-up settles what its pot moved, not the club's pot
    lines = plan.get_json()["transfers"]
    assert sum(t["amount"] for t in lines if t["to"] == "pot") - sum(t["amount"] for t in lines
                                                                     if t["from"] == "pot") == moved
    assert books(client, club, second) == 0

    closed = close(client, second, True)
    after = session_of(client, second)["pot"]
    body = club_of(client, club)
    assert body["pot_minor"] == after["balance_minor"] == after["closed_minor"]
    assert sum(body["balances"].values()) + body["pot_minor"] == 0
    assert [n.get("pot_carried_minor", 0) for n in body["nights"]] == [pot, after["balance_minor"]]
    assert closed["carried"] is True


def test_undoing_the_carry_takes_the_pot_back_unless_a_later_night_opened_with_it(client: Any) -> None:
    club, first, pot = carried_club(client)
    url = f"/api/v1/clubs/{club['id']}/nights/{first['id']}"
    undone = client.post(f"{url}/uncarry", headers=bearer(club["token"]))
    assert undone.status_code == 200, undone.get_json()
    assert undone.get_json()["pot_minor"] == 0 and sum(undone.get_json()["balances"].values()) == 0
    assert "pot_carried_minor" not in undone.get_json()["nights"][0]
    again = client.post(f"{url}/carry", headers=bearer(club["token"]))
    assert again.status_code == 200, again.get_json()
    assert again.get_json()["pot_minor"] == pot
    second = start(client, club, "Sabado")
    refused_undo = client.post(f"{url}/uncarry", headers=bearer(club["token"]))
    assert refused_undo.status_code == 409
    error = refused_undo.get_json()
    assert (error["error"], error["field"], error["pot_minor"]) == ("pot_taken", "session_id", 0)
    assert books(client, club, second) == 0


def test_a_new_tongits_night_of_a_club_without_a_pot_opens_empty(client: Any) -> None:
    club = make_php_club(client)
    night = start(client, club)
    assert night["pot"] == {"balance_minor": 0, "holder": None, "streak": 0}
    assert club_of(client, club)["pot_minor"] == 0


def test_the_club_page_says_what_the_pot_holds(client: Any) -> None:
    club, _first, _pot = carried_club(client)
    client.get(f"/c/join/{club['id']}/{club['token']}")
    page = client.get(f"/c/{club['id']}?lang=en").get_data(as_text=True)
    assert "The club&#39;s pot holds ₱30.00 for the next Tong-its night." in page
    assert "puts this into the pot" in page


def test_the_club_pot_round_trips_through_export_and_import(client: Any) -> None:
    club, _first, pot = carried_club(client)
    second = start(client, club, "Sabado")
    record(client, second, tongits_night()["hands"][0])
    document = export_of(client, club)
    assert document["club"]["pot_minor"] == 0
    assert [n["session"]["pot_opening"] for n in document["nights"]] == [0, pot]
    assert [n["pot_carried"] for n in document["nights"]] == [pot, 0]
    response = client.post("/api/v1/clubs/import", json=document)
    assert response.status_code == 201, response.get_json()
    imported = response.get_json()
    body = club_of(client, imported)
    assert body["pot_minor"] == 0 and body["balances"] == club_of(client, club)["balances"]
    night_id = body["nights"][1]["id"]
    with client.application.app_context():
        from ledger.storage.db import get_session
        kept = checked_figures(get_session(), night_id)
    assert kept.accounts == figures_check(client, second).accounts
    # the club's pot is replayed, never trusted
    bad = copy.deepcopy(document)
    bad["club"]["pot_minor"] = 500
    error = refused(client, bad)
    assert (error["error"], error["field"]) == ("import_mismatch", "club.pot_minor")
    bad = copy.deepcopy(document)
    bad["nights"][0]["pot_carried"] = pot + 1
    error = refused(client, bad)
    assert (error["error"], error["field"]) == ("import_mismatch", "nights[0].pot_carried")
    bad = copy.deepcopy(document)
    bad["nights"][1]["session"]["pot_opening"] = 0  # its hands were scored from the carried pot
    assert refused(client, bad)["error"] == "import_mismatch"


def test_a_carried_club_pot_imports_and_opens_the_next_night(client: Any) -> None:
    club, _first, pot = carried_club(client)
    document = export_of(client, club)
    assert document["club"]["pot_minor"] == pot
    imported = client.post("/api/v1/clubs/import", json=document).get_json()
    assert club_of(client, imported)["pot_minor"] == pot
    night = start(client, imported)
    assert night["pot"]["opening_minor"] == pot and club_of(client, imported)["pot_minor"] == 0


def test_an_older_export_without_the_pot_imports_with_an_empty_pot(client: Any) -> None:
    data = tongits_night()
    club = make_php_club(client)
    night = start(client, club)
    record(client, night, data["hands"][0])
    document = export_of(client, club)
    del document["club"]["pot_minor"]
    for entry in document["nights"]:
        del entry["pot_carried"], entry["session"]["pot_opening"]
    response = client.post("/api/v1/clubs/import", json=document)
    assert response.status_code == 201, response.get_json()
    assert club_of(client, response.get_json())["pot_minor"] == 0


def test_a_night_settled_in_cash_keeps_the_books_at_zero_and_its_pot_out_of_the_club(client: Any) -> None:
    data = tongits_night()
    club, _first, pot = carried_club(client)
    second = start(client, club, "Sabado")
    for hand in data["hands"][:3]:
        record(client, second, hand)
    close(client, second, False)
    body = club_of(client, club)
    assert body["pot_minor"] == 0 and body["pot_in_nights_minor"] == pot  # the pot it opened with is still owed
    assert "pot_carried_minor" not in body["nights"][1]
    assert sum(body["balances"].values()) + body["pot_minor"] + body["pot_in_nights_minor"] == 0
    assert sum(t["amount"] for t in body["settlement"]["transfers"] if t["to"] == "pot") == pot


def test_voiding_the_first_hand_of_a_night_that_opened_with_the_pot_rescores_from_it(client: Any) -> None:
    data = tongits_night()
    club, _first, pot = carried_club(client)
    second = start(client, club, "Sabado")
    for hand in data["hands"][:4]:
        record(client, second, hand)
    voided = client.post(f"/api/v1/sessions/{second['id']}/hands/1/void", headers=bearer(second["token"]))
    assert voided.status_code == 200, voided.get_json()
    kept = figures_check(client, second)  # the later hands re-scored from the carried pot, as a full recount
    assert sum(kept.net.values()) + kept.accounts["pot"] - pot == 0
    hands = client.get(f"/api/v1/sessions/{second['id']}/hands", headers=bearer(second["token"])).get_json()
    counted = [h for h in (hands["hands"] if isinstance(hands, dict) else hands) if h["status"] == "counted"]
    assert counted[0]["pot"]["balance_before"] == pot
    assert books(client, club, second) == 0


def test_a_member_hosted_night_carries_its_pot_with_the_owners_say(client: Any) -> None:
    data = tongits_night()
    club = make_php_club(client)
    member = {"id": club["id"], "token": club["member_token"]}
    night = start(client, member, data["name"])
    for hand in data["hands"]:
        record(client, night, hand)
    assert close(client, night, True)["carried"] == "pending"
    assert club_of(client, club)["pot_minor"] == 0  # nothing moved yet
    carried = client.post(f"/api/v1/clubs/{club['id']}/nights/{night['id']}/carry", headers=bearer(club["token"]))
    assert carried.status_code == 200, carried.get_json()
    body = carried.get_json()
    assert body["pot_minor"] == data["expected"]["pot_balance"]
    assert sum(body["balances"].values()) + body["pot_minor"] == 0
