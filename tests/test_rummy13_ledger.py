"""13-card rummy nights in the ledger (issue 25, step 1): a night of ``"game": "rummy13"`` opens with
its presets and toggles (RUMMY13.md §6, §7), each hand is recorded with the outcome and the hands
only (the engine derives every amount), and the shared night (``nights/night-01.json``, RUMMY13.md
§8.5, §10 #13) played through the session API hand by hand gives each hand's transfers, the final
nets and a 3-transfer settle-up. Voids and corrections re-score; the kept figures always equal a
recomputation. Real database (SQLite file, or PostgreSQL with ``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.conftest import TESTS
from tests.kept_figures import checked_figures_at

NIGHT = TESTS / "nights" / "rummy13" / "night-01.json"  # a copy of /work/shared/games/rummy13/nights/


def rummy_night() -> dict[str, Any]:
    return json.loads(NIGHT.read_text(encoding="utf-8"))


def open_rummy(client: Any, **changes: Any) -> dict[str, Any]:
    night = rummy_night()
    body = {k: night[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}
    body["game"] = "rummy13"
    body.update(changes)
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}, "body": created}


def session(client: Any, night: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"])
    assert response.status_code == 200
    return response.get_json()


def entry_of(hand: dict[str, Any]) -> dict[str, Any]:
    return {"wild_rank": hand["wild_rank"], "outcome": hand["outcome"], "hands": hand["hands"]}


def record(client: Any, night: dict[str, Any], hand: dict[str, Any], *, dealer: bool = True) -> dict[str, Any]:
    body = entry_of(hand)
    if dealer:
        body["dealer"] = hand["dealer"]
    response = client.post(f"/api/v1/sessions/{night['id']}/hands", json=body, headers=night["headers"])
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def sum_of(*nets: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for net in nets:
        for name, amount in net.items():
            out[name] = out.get(name, 0) + amount
    return out


# -- opening a rummy night ------------------------------------------------------------------------------
def test_a_rummy_session_says_its_game_and_rules(client: Any) -> None:
    body = open_rummy(client)["body"]
    assert body["game"] == "rummy13"
    assert body["ruleset"]["preset"] == "points_rummy"
    assert body["ruleset"]["first_drop_points"] == 20 and body["ruleset"]["middle_drop_points"] == 40
    assert body["ruleset"]["count_cap"] == 80 and body["ruleset"]["format"] == "points"
    assert "pot" not in body
    assert body["next_dealer"] == "Devi" and body["hand_count"] == 0
    assert body["stake"] == 50 and body["currency"] == "INR"


def test_the_home_table_preset_and_toggles_are_kept(client: Any) -> None:
    body = open_rummy(client, ruleset={"preset": "home_table", "toggles": {"first_drop_points": 10,
                                                                          "round_to_five": True}})["body"]
    assert body["ruleset"]["preset"] == "home_table"
    assert body["ruleset"]["wrong_show_mode"] == "ends_hand" and body["ruleset"]["loser_melds_rule"] == "pure_first"
    assert body["ruleset"]["first_drop_points"] == 10 and body["ruleset"]["round_to_five"] is True


@pytest.mark.parametrize("toggle", ["first_drop_points", "middle_drop_points", "wrong_show_points",
                                    "full_count_points", "count_cap", "pool_limit", "rejoin_max_score"])
def test_a_points_house_rule_beyond_any_table_is_refused(client: Any, toggle: str) -> None:
    """Found by a session trying to break the night: 10**15 drop points at the largest stake made a
    hand the books' 64-bit integers cannot hold (a 500). Up to 10,000 is kept; above, 422."""
    night = rummy_night()
    body = {k: night[k] for k in ("name", "currency", "players")} | {"game": "rummy13", "stake": 10**9}
    refused = client.post("/api/v1/sessions", json=body | {"ruleset": {"preset": "points_rummy",
                                                                        "toggles": {toggle: 10**15}}})
    assert refused.status_code == 422
    assert (refused.get_json()["error"], refused.get_json()["field"]) == ("invalid_ruleset", f"ruleset.toggles.{toggle}")
    kept = open_rummy(client, stake=10**9, ruleset={"preset": "points_rummy", "toggles": {toggle: 10_000}})
    assert kept["body"]["ruleset"][toggle] == 10_000


@pytest.mark.parametrize(("preset", "limit"), [("pool_101", 101), ("pool_201", 201)])
def test_a_pool_preset_opens_a_pool_night_at_zero(client: Any, preset: str, limit: int) -> None:
    """Pool nights are kept since issue 25 item 2 (they were refused before): the stake is the entry
    fee, everyone starts at 0 with one buy-in (tests/test_pool_nights.py plays them)."""
    night = rummy_night()
    body = {k: night[k] for k in ("name", "currency", "players")} | {
        "game": "rummy13", "stake": 10000, "ruleset": {"preset": preset}}
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    pool = response.get_json()["pool"]
    assert pool == {"limit": limit, "scores": dict.fromkeys(night["players"], 0), "out": [],
                    "buy_ins": dict.fromkeys(night["players"], 1), "pot": 40000, "ended": False, "last_in": None}


def test_a_points_night_has_no_pool(client: Any) -> None:
    assert open_rummy(client)["body"]["pool"] is None


@pytest.mark.parametrize(("ruleset", "field"), [
    ({"preset": "deals"}, "ruleset.preset"),
    ({"preset": "points_rummy", "toggles": {"pot_ante": 2}}, "ruleset.toggles.pot_ante"),  # a Tong-its toggle
    ({"preset": "points_rummy", "toggles": {"count_cap": 0}}, "ruleset.toggles.count_cap"),
])
def test_a_rummy_ruleset_is_checked_by_rummy(client: Any, ruleset: dict[str, Any], field: str) -> None:
    night = rummy_night()
    body = {k: night[k] for k in ("name", "currency", "stake", "players")} | {"game": "rummy13", "ruleset": ruleset}
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 422, response.get_json()
    assert (response.get_json()["error"], response.get_json()["field"]) == ("invalid_ruleset", field)


@pytest.mark.parametrize(("players", "status", "code"), [
    (["A"], 422, "too_few_players"),
    (["A", "B"], 201, None),
    (["A", "B", "C", "D", "E", "F"], 201, None),
    (["A", "B", "C", "D", "E", "F", "G"], 422, "too_many_players"),
])
def test_the_seat_range_is_rummys(client: Any, players: list[str], status: int, code: str | None) -> None:
    body = {"name": "n", "currency": "INR", "stake": 50, "game": "rummy13", "players": players}
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == status, response.get_json()
    if code is not None:
        assert response.get_json()["error"] == code


# -- the shared night hand by hand ---------------------------------------------------------------------------
@pytest.mark.parametrize("send_dealer", [True, False], ids=["dealers-sent", "dealers-from-the-ledger"])
def test_the_shared_night_hand_by_hand(client: Any, database_url: str, send_dealer: bool) -> None:
    data = rummy_night()
    night = open_rummy(client)
    players_net: dict[str, int] = dict.fromkeys(data["players"], 0)
    for number, hand in enumerate(data["hands"], start=1):
        before = session(client, night)
        assert before["next_dealer"] == hand["dealer"], number  # RUMMY13.md §2: the next seat deals
        body = record(client, night, hand, dealer=send_dealer)
        expected = hand["expected"]
        assert body["number"] == number and body["dealer"] == hand["dealer"]
        assert body["transfers"] == expected["transfers"], number
        assert body["net"] == expected["net"], number
        assert body["points"] == expected["points"], number
        assert body["redeal"] is bool(expected.get("redeal")), number
        assert body["kind"] == hand["outcome"]["kind"]
        players_net = sum_of(players_net, expected["net"])
        assert body["session_net"] == players_net, number
        kept = checked_figures_at(database_url, night["id"])  # kept == recomputed
        assert kept.net == players_net and sum(kept.net.values()) == 0
    after = session(client, night)
    assert after["net"] == data["expected"]["net"]
    assert after["hand_count"] == data["expected"]["hands_recorded"]
    listed = client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]
    assert len(listed) == data["expected"]["hands_recorded"]
    assert sum(1 for h in listed if h["redeal"]) == data["expected"]["redeals"]
    assert [h["points"] for h in listed] == [h["expected"]["points"] for h in data["hands"]]

    plan = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=night["headers"]).get_json()
    assert len(plan["transfers"]) == data["expected"]["settlement_transfer_count"] == 3
    paid = dict.fromkeys(data["players"], 0)
    for line in plan["transfers"]:
        paid[line["from"]] -= line["amount"]
        paid[line["to"]] += line["amount"]
    assert paid == data["expected"]["net"]

    closed = client.post(f"/api/v1/sessions/{night['id']}/close", headers=night["headers"])
    assert closed.status_code == 200, closed.get_json()
    assert closed.get_json()["net"] == data["expected"]["net"]
    assert "pot_closed" not in closed.get_json()


def test_a_preview_scores_without_recording(client: Any) -> None:
    data = rummy_night()
    night = open_rummy(client)
    hand = data["hands"][0]
    response = client.post(f"/api/v1/sessions/{night['id']}/preview", json=entry_of(hand), headers=night["headers"])
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["transfers"] == hand["expected"]["transfers"]
    assert session(client, night)["hand_count"] == 0


# -- refusals keep their RUMMY13.md §9.1 codes ---------------------------------------------------------------
@pytest.mark.parametrize(("change", "code"), [
    (lambda h: h["hands"]["Bindu"].update(cards=h["hands"]["Bindu"]["cards"][:12]), "wrong_card_count"),
    (lambda h: h["hands"]["Devi"].update(points=131), "total_out_of_range"),
    (lambda h: h["hands"].pop("Chacko"), "missing_hand"),
    (lambda h: h.update(wild_rank="1"), "invalid_card"),
    (lambda h: h["outcome"].update(winner="Ezhil"), "unknown_player"),
    (lambda h: h.update(outcome={"kind": "wrong_show", "shower": "Bindu"}, hands={}), "feature_disabled"),
])
def test_a_refused_hand_is_a_422_with_its_code_and_stores_nothing(client: Any, database_url: str, change: Any,
                                                                   code: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    hand = copy.deepcopy(data["hands"][0])
    change(hand)
    response = client.post(f"/api/v1/sessions/{night['id']}/hands", json=entry_of(hand), headers=night["headers"])
    assert response.status_code == 422, response.get_json()
    assert response.get_json()["error"] == code
    assert session(client, night)["hand_count"] == 0
    assert checked_figures_at(database_url, night["id"]).net == dict.fromkeys(data["players"], 0)


def test_a_client_cannot_claim_a_figure(client: Any) -> None:
    data = rummy_night()
    night = open_rummy(client)
    body = entry_of(data["hands"][0]) | {"transfers": [{"from": "Devi", "to": "Anoop", "amount": 1}]}
    response = client.post(f"/api/v1/sessions/{night['id']}/hands", json=body, headers=night["headers"])
    assert response.status_code == 422
    assert response.get_json()["error"] == "invalid_entry"


# -- voids and corrections re-score ----------------------------------------------------------------------
def test_void_restore_and_amend_keep_the_figures(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    for hand in data["hands"][:3]:
        record(client, night, hand)
    three = sum_of(*(h["expected"]["net"] for h in data["hands"][:3]))
    assert session(client, night)["net"] == three

    voided = client.post(f"/api/v1/sessions/{night['id']}/hands/2/void", headers=night["headers"])
    assert voided.status_code == 200, voided.get_json()
    without = sum_of(data["hands"][0]["expected"]["net"], data["hands"][2]["expected"]["net"])
    assert session(client, night)["net"] == without
    assert checked_figures_at(database_url, night["id"]).net == without
    restored = client.post(f"/api/v1/sessions/{night['id']}/hands/2/restore", headers=night["headers"])
    assert restored.status_code == 200, restored.get_json()
    assert session(client, night)["net"] == three

    # hand 1 corrected: Bindu dropped at once instead of losing with 50 (20 x 50 = 1000 to Anoop)
    fixed = copy.deepcopy(data["hands"][0])
    fixed["hands"]["Bindu"] = {"result": "first_drop"}
    response = client.post(f"/api/v1/sessions/{night['id']}/hands/1/amend",
                           json=entry_of(fixed) | {"version": 1}, headers=night["headers"])
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["points"] == {"Anoop": 0, "Bindu": 20, "Chacko": 20, "Devi": 23}
    assert body["transfers"] == [{"from": "Bindu", "to": "Anoop", "amount": 1000},
                                 {"from": "Chacko", "to": "Anoop", "amount": 1000},
                                 {"from": "Devi", "to": "Anoop", "amount": 1150}]
    corrected = sum_of(three, {"Anoop": -1500, "Bindu": 1500})
    assert session(client, night)["net"] == corrected
    assert checked_figures_at(database_url, night["id"]).net == corrected
    # the next dealer still follows the seats
    assert session(client, night)["next_dealer"] == data["hands"][3]["dealer"]


def test_a_correction_the_rules_refuse_changes_nothing(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    record(client, night, data["hands"][0])
    wrong = copy.deepcopy(data["hands"][0])
    wrong["hands"]["Devi"]["points"] = -1
    response = client.post(f"/api/v1/sessions/{night['id']}/hands/1/amend",
                           json=entry_of(wrong) | {"version": 1}, headers=night["headers"])
    assert response.status_code == 422 and response.get_json()["error"] == "total_out_of_range"
    assert session(client, night)["net"] == data["hands"][0]["expected"]["net"]
    assert checked_figures_at(database_url, night["id"]).net == data["hands"][0]["expected"]["net"]


# -- the home table: a wrong show ends the hand and pays each player still in (RUMMY13.md §4.4, §10 #6) ------
def test_a_home_table_wrong_show_pays_each_player_still_in(client: Any, database_url: str) -> None:
    night = open_rummy(client, ruleset={"preset": "home_table"})
    body = {"wild_rank": "5", "outcome": {"kind": "wrong_show", "shower": "Bindu"},
            "hands": {"Devi": {"result": "first_drop"}}}
    response = client.post(f"/api/v1/sessions/{night['id']}/hands", json=body, headers=night["headers"])
    assert response.status_code == 201, response.get_json()
    hand = response.get_json()
    assert hand["kind"] == "wrong_show" and hand["winner"] is None
    assert hand["points"] == {"Anoop": 0, "Bindu": 80, "Chacko": 0, "Devi": 0}
    assert hand["transfers"] == [{"from": "Bindu", "to": "Anoop", "amount": 4000},
                                 {"from": "Bindu", "to": "Chacko", "amount": 4000}]
    assert hand["net"] == {"Anoop": 4000, "Bindu": -8000, "Chacko": 4000, "Devi": 0}
    assert hand["description"] == "Bindu showed wrongly and pays each player still in"
    assert checked_figures_at(database_url, night["id"]).net == hand["net"]
    # a wrong_show result is the other mode's: refused here with its code
    other = {"wild_rank": "5", "outcome": {"kind": "show", "winner": "Anoop"},
             "hands": {"Bindu": {"result": "wrong_show"}, "Chacko": {"result": "first_drop"},
                       "Devi": {"result": "lost", "points": 10}}}
    refused = client.post(f"/api/v1/sessions/{night['id']}/hands", json=other, headers=night["headers"])
    assert refused.status_code == 422 and refused.get_json()["error"] == "feature_disabled"


def test_a_repeated_idempotency_key_records_the_rummy_hand_once(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    headers = night["headers"] | {"Idempotency-Key": "hand-1-from-bindus-phone"}
    first = client.post(f"/api/v1/sessions/{night['id']}/hands", json=entry_of(data["hands"][0]), headers=headers)
    again = client.post(f"/api/v1/sessions/{night['id']}/hands", json=entry_of(data["hands"][0]), headers=headers)
    assert (first.status_code, again.status_code) == (201, 200)
    assert again.get_json()["number"] == 1 and again.get_json()["transfers"] == data["hands"][0]["expected"]["transfers"]
    other = entry_of(data["hands"][0]) | {"wild_rank": "8"}  # another wild rank is another request
    reused = client.post(f"/api/v1/sessions/{night['id']}/hands", json=other, headers=headers)
    assert reused.status_code == 409 and reused.get_json()["error"] == "idempotency_key_reused"
    assert checked_figures_at(database_url, night["id"]).net == data["hands"][0]["expected"]["net"]


def test_a_correction_of_the_wild_rank_rescores_the_cards(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    record(client, night, data["hands"][0])
    fixed = entry_of(data["hands"][0]) | {"wild_rank": "2"}  # 2♠ and 2♥ now wild in Bindu's cards
    fixed["hands"] = {p: h for p, h in fixed["hands"].items() if p != "Anoop"}  # his show needed the 7s wild
    alone = client.post("/api/v1/score", json={"game": "rummy13", "ruleset": data["ruleset"], "players": data["players"],
                                               "stake": data["stake"]} | fixed).get_json()
    assert alone["points"]["Bindu"] != data["hands"][0]["expected"]["points"]["Bindu"]
    response = client.post(f"/api/v1/sessions/{night['id']}/hands/1/amend", json=fixed | {"version": 1},
                           headers=night["headers"])
    assert response.status_code == 201, response.get_json()
    body = response.get_json()
    assert body["version"] == 2 and body["wild_rank"] == "2"
    assert (body["points"], body["transfers"], body["net"]) == (alone["points"], alone["transfers"], alone["net"])
    assert session(client, night)["net"] == alone["net"]
    assert checked_figures_at(database_url, night["id"]).net == alone["net"]


def test_a_seat_swap_re_enters_rummy_hands_with_their_wild_rank(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    for hand in data["hands"][:2]:
        record(client, night, hand)
    response = client.post(f"/api/v1/sessions/{night['id']}/seats/swap", json={"a": "Bindu", "b": "Devi", "from_hand": 1},
                           headers=night["headers"])
    assert response.status_code == 200, response.get_json()
    swapped = {"Bindu": "Devi", "Devi": "Bindu"}
    hands = client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]
    for stored, hand in zip(hands, data["hands"][:2]):
        assert stored["version"] == 2 and stored["wild_rank"] == hand["wild_rank"]
        assert stored["points"] == {swapped.get(p, p): v for p, v in hand["expected"]["points"].items()}
    expected = sum_of(*({swapped.get(p, p): v for p, v in h["expected"]["net"].items()} for h in data["hands"][:2]))
    assert session(client, night)["net"] == expected
    assert checked_figures_at(database_url, night["id"]).net == expected


def test_the_demo_loads_the_shared_rummy_night(app: Any, client: Any, database_url: str, tmp_path: Any) -> None:
    from ledger.cli import load_night

    data = rummy_night()
    path = tmp_path / "rummy-night.json"
    path.write_text(json.dumps(data | {"game": "rummy13"}), encoding="utf-8")
    session_id, token, count = load_night(app, path)
    assert count == data["expected"]["hands_recorded"]
    body = client.get(f"/api/v1/sessions/{session_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert body["game"] == "rummy13" and body["net"] == data["expected"]["net"]
    assert checked_figures_at(database_url, session_id).net == data["expected"]["net"]


def test_the_demo_loads_the_shared_rummy_night_file_as_it_is(app: Any, client: Any, database_url: str) -> None:
    """The shared night file has no ``"game"``: its preset (``points_rummy``, only 13-card rummy's) names the game."""
    from ledger.cli import load_night

    data = rummy_night()
    assert "game" not in data
    session_id, token, count = load_night(app, NIGHT)
    assert count == data["expected"]["hands_recorded"]
    body = client.get(f"/api/v1/sessions/{session_id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert body["game"] == "rummy13" and body["net"] == data["expected"]["net"]


def test_a_preset_two_games_share_stays_tonk_without_game() -> None:
    from ledger.games import game_of_preset

    assert game_of_preset("points_rummy").name == "rummy13" and game_of_preset("pool_101").name == "rummy13"
    assert game_of_preset("classic") is None  # Tonk's and Tong-its': a file without "game" is Tonk
    assert game_of_preset("no_such_preset") is None and game_of_preset(None) is None
