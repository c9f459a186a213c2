"""The Tong-its pot through seat changes (issue 21, item 3; TONGITS.md §4.9 ``pot_on_seat_change``):
a player sitting in or leaving first closes an open pot (``close_pot``, reason ``seat_change``) in
the same transaction, split among the players seated before the change or kept, the streak
cleared; the leaver's balance and cash-out include their share; a seat swap (the same players)
closes nothing; the session and the seat change's answer say so. Through the session API on a real
database; every step keeps players + pot at zero and equal to a full re-score."""
from __future__ import annotations

from typing import Any

from sqlmodel import Session

from ledger.night import seating
from ledger.storage.db import make_engine
from ledger.storage.models import GameSession
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


# -- corrections across a seat change ------------------------------------------------------------------
def left_after(client: Any, count: int, toggles: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
    """Night-01's first ``count`` hands with a fourth player, Bong, who then leaves (the pot closed
    at the leave), and the next three hands of night-01 played by the three."""
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic", "toggles": {"four_players": True} | (toggles or {})},
                         players=["Ligaya", "Dodong", "Marisol", "Bong"])
    for hand in data["hands"][:count]:
        body = {"outcome": hand["outcome"], "hands": hand["hands"] | {"Bong": {"total": 40}}}
        if hand["outcome"]["kind"] == "draw":
            body["outcome"] = hand["outcome"] | {"responses": hand["outcome"]["responses"] | {"Bong": "fold"}}
        record_body(client, night, body)
    post(client, night, "players/leave", {"name": "Bong", "settle": "at_end"})
    for hand in data["hands"][count:count + 3]:
        record_body(client, night, {"outcome": hand["outcome"], "hands": hand["hands"]})
    return data, night


def the_close(client: Any, night: dict[str, Any]) -> dict[str, Any]:
    closes = [h for h in hands_listed(client, night) if h["kind"] == "close_pot"]
    assert len(closes) == 1
    return closes[0]


def test_voiding_a_hand_before_a_leave_rescores_the_split_and_the_hands_after(client: Any, database_url: str) -> None:
    _data, night = left_after(client, 3)
    close = the_close(client, night)
    assert close["number"] == 4 and close["pot"]["split"] == close["pot"]["balance_before"] > 0
    before = session(client, night)
    post(client, night, "hands/3/void")
    again = the_close(client, night)
    assert again["version"] == 2 and again["pot"]["balance_before"] != close["pot"]["balance_before"]
    assert again["players"] == ["Ligaya", "Dodong", "Marisol", "Bong"]  # split among the seating of then
    assert sum(t["amount"] for t in again["transfers"]) == again["pot"]["balance_before"]
    later = {h["number"]: h for h in hands_listed(client, night)}
    assert later[5]["pot"]["balance_before"] == 0  # after the close the pot and the streak start clear
    kept = rescored_at(database_url, night["id"], dealt_by_the_rule=True)
    shown = session(client, night)
    assert shown["net"] == kept["net"] and shown["net"] != before["net"]
    assert shown["pot"]["balance_minor"] == kept["pot"]
    post(client, night, "hands/3/restore")  # and back as it was
    assert the_close(client, night)["transfers"] == close["transfers"]
    assert session(client, night)["net"] == before["net"]
    rescored_at(database_url, night["id"], dealt_by_the_rule=True)


def test_amending_a_hand_before_a_sit_in_rescores_its_split(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset=FOUR)
    record(client, night, data["hands"][0])  # pot 3000
    post(client, night, "players", {"name": "Bong"}, 201)
    first = data["hands"][0]
    amended = {"outcome": {"kind": "redeal"}, "hands": {}}  # it was a misdeal after all: no antes, no pot
    response = client.post(f"/api/v1/sessions/{night['id']}/hands/1/amend", headers=night["headers"],
                           json=amended | {"version": 1})
    assert response.status_code == 201, response.get_json()
    close = the_close(client, night)
    assert close["version"] == 2 and close["transfers"] == [] and close["pot"]["balance_before"] == 0
    assert session(client, night)["net"] == {p: 0 for p in ("Ligaya", "Dodong", "Marisol", "Bong")}
    rescored_at(database_url, night["id"])
    assert first["expected"]["pot"]["balance_after"] == 3000


def test_undo_after_a_leave_undoes_the_hand_not_the_close(client: Any, database_url: str) -> None:
    _data, night = left_after(client, 3)
    for _ in range(3):  # the three hands after the leave
        post(client, night, "undo")
    close = the_close(client, night)
    assert close["status"] == "counted" and close["version"] == 1
    post(client, night, "undo")  # now hand 3, before the close: the close is re-scored
    close = the_close(client, night)
    assert close["status"] == "counted" and close["version"] == 2
    kept = rescored_at(database_url, night["id"])
    assert sum(kept["net"].values()) + kept["pot"] == 0


def test_a_pot_close_is_never_voided_or_amended_on_its_own(client: Any, database_url: str) -> None:
    _data, night = left_after(client, 3)
    before = session(client, night)
    response = client.post(f"/api/v1/sessions/{night['id']}/hands/4/void", headers=night["headers"])
    assert response.status_code == 409 and response.get_json()["error"] == "not_a_hand"
    assert response.get_json()["field"] == "number"
    response = client.post(f"/api/v1/sessions/{night['id']}/hands/4/amend", headers=night["headers"],
                           json={"version": 1, "outcome": {"kind": "close_pot", "reason": "end_of_night"}, "hands": {}})
    assert response.status_code == 409 and response.get_json()["error"] == "not_a_hand"
    assert session(client, night) == before
    rescored_at(database_url, night["id"])


def test_the_settle_up_of_a_night_with_money_in_the_pot_has_the_pot_as_a_party(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic", "toggles": {"pot_at_end": "carry"}})
    record(client, night, data["hands"][0])  # Ligaya -1500, Dodong 0, Marisol -1500, pot 3000
    plan = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=night["headers"])
    assert plan.status_code == 200, plan.get_json()
    lines = [(t["from"], t["to"], t["amount"]) for t in plan.get_json()["transfers"]]
    assert lines == [("Ligaya", "pot", 1500), ("Marisol", "pot", 1500)]
    post(client, night, "close")  # carried: the pot keeps its balance, and the plan still pays into it
    after = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=night["headers"]).get_json()
    assert [(t["from"], t["to"], t["amount"]) for t in after["transfers"]] == lines


def test_a_redo_that_would_leave_the_streak_with_a_player_who_left_is_refused(client: Any, database_url: str) -> None:
    """Found by the property test: hand 1 undone, its winner leaves (the pot was empty then, so
    nothing closed), then redo. Counting hand 1 again would leave the streak with someone no
    longer seated, and the table could neither record another hand nor close. Both ways of
    counting it again are refused with the reason, and nothing changes."""
    players = ["Ligaya", "Dodong", "Marisol", "Bong"]
    night = open_tongits(client, ruleset=FOUR, players=players, first_dealer="Bong")
    won = {"outcome": {"kind": "tongits", "winner": "Ligaya"},
           "hands": {p: {"opened": False} for p in players[1:]}}
    record_body(client, night, won)
    held = session(client, night)["pot"]
    assert (held["holder"], held["streak"]) == ("Ligaya", 1)
    post(client, night, "undo")
    gone = post(client, night, "players/leave", {"name": "Ligaya", "settle": "now"})
    assert gone.get("pot_closed") is None  # nobody on a streak, nothing in the pot: nothing to close
    before = session(client, night)
    for path in ("redo", "hands/1/restore"):
        response = client.post(f"/api/v1/sessions/{night['id']}/{path}", headers=night["headers"])
        assert response.status_code == 422, (path, response.get_json())
        body = response.get_json()
        assert (body["error"], body["field"]) == ("unknown_player", "pot.holder")
        assert body["message"] == ("This change would leave the pot's streak with Ligaya, who has left the "
                                   "table, so it was not made.")
        assert session(client, night) == before
    rescored_at(database_url, night["id"])
    # the table goes on: the next hand records and the night closes, its pot closed at the end
    record_body(client, night, {"outcome": {"kind": "tongits", "winner": "Dodong"},
                                "hands": {p: {"opened": True} for p in ("Marisol", "Bong")}})
    closed = post(client, night, "close")
    assert closed["status"] == "closed"
    assert session(client, night)["pot"]["holder"] is None


def test_a_redo_whose_winner_is_still_seated_counts_again(client: Any, database_url: str) -> None:
    players = ["Ligaya", "Dodong", "Marisol", "Bong"]
    night = open_tongits(client, ruleset=FOUR, players=players, first_dealer="Bong")
    record_body(client, night, {"outcome": {"kind": "tongits", "winner": "Ligaya"},
                                "hands": {p: {"opened": False} for p in players[1:]}})
    counted = session(client, night)
    post(client, night, "undo")
    post(client, night, "players/leave", {"name": "Marisol", "settle": "at_end"})
    post(client, night, "redo")
    after = session(client, night)
    assert after["pot"] == counted["pot"] and after["net"] == counted["net"]
    rescored_at(database_url, night["id"])


def test_a_three_player_table_cannot_leave_to_two(client: Any, database_url: str) -> None:
    """Found by a session trying to break the night: two leaves from four left two players who
    could neither play a hand nor close the night (the pot still holding money). The leave that
    would drop below the rules' three is refused with the reason; the night closes as it was."""
    players = ["Ligaya", "Dodong", "Marisol", "Bong"]
    night = open_tongits(client, ruleset={"preset": "classic", "toggles": {"four_players": True,
                                                                          "pot_on_seat_change": "keep"}},
                         players=players, first_dealer="Bong")
    record_body(client, night, stock_out(players, [5, 20, 30, 40]))
    post(client, night, "players/leave", {"name": "Bong", "settle": "at_end"})
    before = session(client, night)
    refused = client.post(f"/api/v1/sessions/{night['id']}/players/leave", headers=night["headers"],
                          json={"name": "Marisol", "settle": "at_end"})
    assert refused.status_code == 422
    assert (refused.get_json()["error"], refused.get_json()["field"]) == ("too_few_players", "name")
    assert refused.get_json()["message"] == ("Marisol cannot leave: these rules need at least 3 players at the "
                                             "table. Seat someone first, or close the night.")
    assert session(client, night) == before
    assert post(client, night, "close")["status"] == "closed"
    rescored_at(database_url, night["id"])


def test_nobody_is_named_like_the_pot_by_a_rename_or_a_sit_in(client: Any) -> None:
    """Found by a session trying to break the night: renaming a player "pot" mixed their money
    with the pot's account, and the settle-up answered 500."""
    night = open_tongits(client, ruleset=FOUR, players=["Ligaya", "Dodong", "Marisol"], first_dealer="Marisol")
    record_body(client, night, stock_out(["Ligaya", "Dodong", "Marisol"], [5, 20, 30]))
    before = session(client, night)
    for path, body, field in (("players/rename", {"from": "Ligaya", "to": "Pot"}, "to"),
                              ("players", {"name": "POT"}, "name")):
        refused = client.post(f"/api/v1/sessions/{night['id']}/{path}", headers=night["headers"], json=body)
        assert refused.status_code == 422, refused.get_json()
        assert (refused.get_json()["error"], refused.get_json()["field"]) == ("invalid_player_name", field)
        assert session(client, night) == before
    settlement = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=night["headers"])
    assert settlement.status_code == 200


def test_a_house_rule_beyond_any_table_is_refused_before_a_hand_cannot_be_stored(client: Any) -> None:
    """Found by a session trying to break the night: a toggle of 10**15 chips at the largest stake
    made a hand whose amounts the books' 64-bit integers cannot hold (a 500)."""
    for toggles, field in (({"pot_opening_ante": 10**12}, "pot_opening_ante"), ({"streak_bonus": 10_001}, "streak_bonus")):
        refused = client.post("/api/v1/sessions", json={
            "name": "Biyernes", "currency": "PHP", "stake": 10**9, "game": "tongits",
            "players": ["Ligaya", "Dodong", "Marisol"], "ruleset": {"preset": "classic", "toggles": toggles}})
        assert refused.status_code == 422
        assert refused.get_json()["field"] == f"ruleset.toggles.{field}"
        assert refused.get_json()["message"] == \
            f"House rule {field} must be at most 10000; got {toggles[field]}."
    kept = open_tongits(client, ruleset={"preset": "classic", "toggles": {"streak_bonus": 10_000}}, stake=10**9)
    assert record_body(client, kept, {"outcome": {"kind": "tongits", "winner": "Ligaya"}, "hands": {}})["net"]


def test_voiding_an_open_night_closes_its_pot_so_a_restore_finds_it_closed(client: Any, database_url: str) -> None:
    """Found by a session trying to break the night: an open Tong-its night voided and restored
    was closed with money still in its pot, which said it had closed "empty". The void closes the
    pot as closing the night does; the restored night is what closing it would have made."""
    players = ["Ligaya", "Dodong", "Marisol"]
    night = open_tongits(client, players=players, first_dealer="Marisol")
    record_body(client, night, stock_out(players, [5, 20, 30]))
    held = session(client, night)["pot"]["balance_minor"]
    assert held > 0
    assert post(client, night, "void")["status"] == "voided"
    restored = post(client, night, "restore")
    assert restored["status"] == "closed"
    after = session(client, night)
    assert (after["pot"]["balance_minor"], after["pot"]["closed"], after["pot"]["closed_minor"]) == (0, "split", held)
    assert sum(after["net"].values()) == 0
    plan = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=night["headers"]).get_json()
    assert all("pot" not in (t["from"], t["to"]) for t in plan["transfers"])
    rescored_at(database_url, night["id"])
