"""The Tong-its pot through seat changes (issue 21, item 3; TONGITS.md §4.9 ``pot_on_seat_change``):
a player sitting in or leaving first closes an open pot (``close_pot``, reason ``seat_change``) in
the same transaction, split among the players seated before the change or kept, the streak
cleared; the leaver's balance and cash-out include their share; a seat swap (the same players)
closes nothing; the session and the seat change's answer say so. Through the session API on a real
database; every step keeps players + pot at zero and equal to a full re-score."""
from __future__ import annotations

from typing import Any

from sqlmodel import Session

from ledger import seating
from ledger.db import make_engine
from ledger.models import GameSession
from tests.test_tongits_ledger import open_tongits, record, session, tongits_night
from tests.tongits_rescore import rescored_at

FOUR = {"preset": "classic", "toggles": {"four_players": True}}


def post(client: Any, night: dict[str, Any], path: str, json: Any = None, status: int = 200) -> dict[str, Any]:
    response = client.post(f"/api/v1/sessions/{night['id']}/{path}", json=json, headers=night["headers"])
    assert response.status_code == status, (path, response.get_json())
    return response.get_json()  # type: ignore[no-any-return]


def hands_listed(client: Any, night: dict[str, Any]) -> list[dict[str, Any]]:
    return client.get(f"/api/v1/sessions/{night['id']}/hands",  # type: ignore[no-any-return]
                      headers=night["headers"]).get_json()["hands"]


def stock_out(players: list[str], totals: list[int]) -> dict[str, Any]:
    """A stock-out entry (the lowest total wins, everyone opened)."""
    return {"outcome": {"kind": "stock_out", "last_drawer": players[-1]},
            "hands": {p: {"total": t} for p, t in zip(players, totals)}}


def record_body(client: Any, night: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
    return post(client, night, "hands", body, 201)


def quoted(database_url: str, night_id: str, name: str) -> seating.Quote:
    engine = make_engine(database_url)
    try:
        with Session(engine) as db:
            night = db.get(GameSession, night_id)
            assert night is not None
            return seating.cash_out_quote(db, night, name)
    finally:
        engine.dispose()


def test_sitting_in_splits_the_open_pot_among_the_players_before_the_change(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset=FOUR)
    record(client, night, data["hands"][0])  # pot 3000, Dodong on a streak of 1
    before = session(client, night)
    assert before["pot"] == {"balance_minor": 3000, "holder": "Dodong", "streak": 1}
    seated = post(client, night, "players", {"name": "Bong"}, 201)
    closed = seated["pot_closed"]
    assert closed["kind"] == "close_pot" and closed["outcome"] == {"kind": "close_pot", "reason": "seat_change"}
    assert closed["number"] == 2 and closed["players"] == ["Ligaya", "Dodong", "Marisol"]  # before the change
    assert closed["transfers"] == [{"from": "pot", "to": p, "amount": 1000} for p in ("Ligaya", "Dodong", "Marisol")]
    assert closed["pot"]["split"] == 3000 and closed["pot"]["balance_after"] == 0
    assert seated["pot"] == {"balance_minor": 0, "holder": None, "streak": 0}  # the streak is cleared
    assert seated["from_hand"] == 3 and "Bong" in seated["players"]
    after = session(client, night)
    assert after["pot"] == seated["pot"]
    assert after["net"] == {p: before["net"].get(p, 0) + (1000 if p != "Bong" else 0) for p in after["net"]}
    assert after["hand_count"] == 1  # the close is not a hand
    kept = rescored_at(database_url, night["id"])
    assert kept["pot"] == 0 and kept["net"] == after["net"]
    # the next hand is played by four and antes from four
    players = after["players"]
    body = record_body(client, night, stock_out(players, [10, 3, 20, 30]))
    assert body["number"] == 3 and body["pot"]["antes"] == 4000 and body["pot"]["balance_before"] == 0
    rescored_at(database_url, night["id"])


def test_leaving_splits_the_pot_first_and_the_cash_out_includes_the_share(client: Any, database_url: str) -> None:
    night = open_tongits(client, ruleset=FOUR, players=["Ligaya", "Dodong", "Marisol", "Bong"])
    players = ["Ligaya", "Dodong", "Marisol", "Bong"]
    first = record_body(client, night, stock_out(players, [12, 7, 15, 30]))  # pot 4000, Dodong on a streak
    assert first["pot"]["balance_after"] == 4000
    before = session(client, night)
    quote = quoted(database_url, night["id"], "Bong")  # what the seats page shows before the host confirms
    gone = post(client, night, "players/leave", {"name": "Bong", "settle": "now"})
    closed = gone["pot_closed"]
    assert closed["transfers"] == [{"from": "pot", "to": p, "amount": 1000} for p in players]
    assert gone["balance"] == before["net"]["Bong"] + 1000  # the leaver's share is in their balance
    assert gone["as_of_hand"] == closed["number"] == 2 and gone["from_hand"] == 3
    paid = sum(t["amount"] for t in gone["cash_out"]["transfers"])
    assert paid == abs(gone["balance"]) and gone["cash_out"]["remaining"] == 0
    assert gone["outstanding"]["Bong"] == 0
    assert gone["pot"] == {"balance_minor": 0, "holder": None, "streak": 0}
    assert (quote.balance_minor, quote.as_of_hand, quote.from_hand) == (gone["balance"], 2, 3)
    assert quote.cash_out.to_json() == gone["cash_out"]
    after = session(client, night)
    assert after["players"] == ["Ligaya", "Dodong", "Marisol"]
    kept = rescored_at(database_url, night["id"])
    assert sum(kept["net"].values()) + kept["pot"] == 0


def test_the_keep_rule_leaves_the_balance_and_clears_the_streak(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic",
                                          "toggles": {"four_players": True, "pot_on_seat_change": "keep"}})
    record(client, night, data["hands"][0])
    before = session(client, night)
    seated = post(client, night, "players", {"name": "Bong"}, 201)
    assert seated["pot_closed"]["transfers"] == [] and seated["pot_closed"]["pot"]["split"] == 0
    assert seated["pot"] == {"balance_minor": 3000, "holder": None, "streak": 0}
    assert session(client, night)["net"] == before["net"] | {"Bong": 0}
    rescored_at(database_url, night["id"])
    # the pot goes on for the new seating: the next hand antes on top of it
    body = record_body(client, night, stock_out(session(client, night)["players"], [10, 3, 20, 30]))
    assert body["pot"]["balance_before"] == 3000 and body["pot"]["streak"] == 1


def test_an_empty_pot_with_nobody_on_a_streak_closes_nothing(client: Any) -> None:
    night = open_tongits(client, ruleset=FOUR)
    seated = post(client, night, "players", {"name": "Bong"}, 201)
    assert "pot_closed" not in seated and seated["pot"] == {"balance_minor": 0, "holder": None, "streak": 0}
    assert seated["from_hand"] == 1


def test_a_pot_just_taken_still_clears_the_streak_at_a_seat_change(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset=FOUR)
    for hand in data["hands"][:2]:  # Dodong wins twice: takes the pot, keeps the streak
        record(client, night, hand)
    assert session(client, night)["pot"] == {"balance_minor": 0, "holder": "Dodong", "streak": 2}
    seated = post(client, night, "players", {"name": "Bong"}, 201)
    assert seated["pot_closed"]["transfers"] == [] and seated["pot"]["streak"] == 0
    rescored_at(database_url, night["id"])


def test_a_seat_swap_keeps_the_same_players_and_closes_nothing(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client)
    record(client, night, data["hands"][0])
    pot = session(client, night)["pot"]
    swapped = post(client, night, "seats/swap", {"a": "Ligaya", "b": "Marisol", "from_hand": 2})
    assert swapped["hands"] == [] and "pot_closed" not in swapped
    assert session(client, night)["pot"] == pot
    assert not any(h["kind"] == "close_pot" for h in hands_listed(client, night))


def test_a_tonk_seat_change_says_nothing_of_a_pot(client: Any, night_data: dict[str, Any]) -> None:
    body = {k: night_data[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}
    created = client.post("/api/v1/sessions", json=body).get_json()
    night = {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}}
    gone = post(client, night, "players/leave", {"name": created["players"][-1], "settle": "now"})
    assert "pot" not in gone and "pot_closed" not in gone
    seated = post(client, night, "players", {"name": "Newcomer"}, 201)
    assert "pot" not in seated and "pot_closed" not in seated


def test_a_seat_swap_rescores_the_later_hands_from_the_chained_pot(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"][:4]:
        record(client, night, hand)
    swapped = post(client, night, "seats/swap", {"a": "Ligaya", "b": "Marisol", "from_hand": 2})
    assert [h["number"] for h in swapped["hands"]] == [2, 3, 4]
    listed = {h["number"]: h for h in hands_listed(client, night)}
    assert listed[3]["winner"] == "Marisol"  # hand 3's tong-its was Ligaya's entry, played in Marisol's seat
    assert listed[2]["pot"]["balance_before"] == data["hands"][0]["expected"]["pot"]["balance_after"]
    kept = rescored_at(database_url, night["id"], dealt_by_the_rule=True)
    assert session(client, night)["pot"] == {"balance_minor": kept["pot"], "holder": kept["state"]["holder"],
                                             "streak": kept["state"]["streak"]}
    assert not any(h["kind"] == "close_pot" for h in listed.values())


def test_a_swap_moves_the_callers_and_the_answers_of_a_draw_too(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"][:4]:  # hand 4: Ligaya called, Dodong folded, Marisol fought
        record(client, night, hand)
    post(client, night, "seats/swap", {"a": "Ligaya", "b": "Marisol", "from_hand": 4})
    fourth = {h["number"]: h for h in hands_listed(client, night)}[4]
    assert fourth["outcome"]["caller"] == "Marisol"
    assert fourth["outcome"]["responses"] == {"Dodong": "fold", "Ligaya": "fight"}
    assert fourth["hands"]["Marisol"] == {"total": 6} and fourth["hands"]["Ligaya"] == {"total": 6}
    assert fourth["dealer"] == "Marisol"  # whoever was entered as Ligaya dealt: that was Marisol
    rescored_at(database_url, night["id"])


def test_renaming_the_pots_holder_renames_the_pot_and_the_night_goes_on(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"][:4]:  # Marisol holds the pot after hand 4
        record(client, night, hand)
    assert session(client, night)["pot"]["holder"] == "Marisol"
    post(client, night, "players/rename", {"from": "Marisol", "to": "Marisol Cruz"})
    shown = session(client, night)
    assert shown["pot"]["holder"] == "Marisol Cruz"
    fourth = {h["number"]: h for h in hands_listed(client, night)}[4]
    assert fourth["pot"]["holder"] == "Marisol Cruz" and fourth["winner"] == "Marisol Cruz"
    assert fourth["outcome"]["responses"] == {"Dodong": "fold", "Marisol Cruz": "fight"}
    fifth = data["hands"][4]
    renamed = {"Marisol": "Marisol Cruz"}
    entry = {"outcome": {k: renamed.get(v, v) if isinstance(v, str) else v for k, v in fifth["outcome"].items()},
             "hands": {renamed.get(p, p): h for p, h in fifth["hands"].items()}}
    if isinstance(entry["outcome"].get("responses"), dict):
        entry["outcome"]["responses"] = {renamed.get(p, p): a for p, a in entry["outcome"]["responses"].items()}
    body = record_body(client, night, entry)
    assert body["net"] == {renamed.get(p, p): v for p, v in fifth["expected"]["net"].items()}
    rescored_at(database_url, night["id"], dealt_by_the_rule=True)
