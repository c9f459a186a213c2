"""Tong-its nights in the ledger (issue 21, item 3): a night has a game, the pot is an account of
its own kept with each hand, and the shared night (TONGITS.md §8.4) played through the session API
hand by hand (dealer, outcome and hands only: the server keeps the pot) gives every hand's
transfers, the final nets, the pot balance and, after the close, the nets after the pot is split.
Real database (SQLite file, or PostgreSQL with ``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.conftest import TESTS
from tests.kept_figures import checked_figures_at

NIGHT = TESTS / "nights" / "tongits" / "night-01.json"  # a copy of /work/shared/games/tongits/nights/


def tongits_night() -> dict[str, Any]:
    return json.loads(NIGHT.read_text(encoding="utf-8"))


def open_tongits(client: Any, **changes: Any) -> dict[str, Any]:
    night = tongits_night()
    body = {k: night[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}
    body["game"] = "tongits"
    body.update(changes)
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    return {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}, "body": created}


def session(client: Any, night: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"])
    assert response.status_code == 200
    return response.get_json()


def record(client: Any, night: dict[str, Any], hand: dict[str, Any], *, dealer: bool = True) -> dict[str, Any]:
    body = {"outcome": hand["outcome"], "hands": hand["hands"]}
    if dealer:
        body["dealer"] = hand["dealer"]
    response = client.post(f"/api/v1/sessions/{night['id']}/hands", json=body, headers=night["headers"])
    assert response.status_code == 201, (hand["hand"], response.get_json())
    return response.get_json()


def sum_of(*nets: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for net in nets:
        for name, amount in net.items():
            out[name] = out.get(name, 0) + amount
    return out


# -- 1. a night has a game -----------------------------------------------------------------------------
def test_a_tongits_session_says_its_game_and_its_empty_pot(client: Any) -> None:
    night = open_tongits(client)
    body = night["body"]
    assert body["game"] == "tongits"
    assert body["pot"] == {"balance_minor": 0, "holder": None, "streak": 0}
    assert body["ruleset"]["preset"] == "classic" and body["ruleset"]["pot_ante"] == 2  # Tong-its' own toggles
    assert body["next_dealer"] == "Dodong" and body["hand_count"] == 0
    assert session(client, night)["pot"] == body["pot"]


def test_a_session_without_game_is_tonk_with_no_pot(client: Any, night_data: dict[str, Any]) -> None:
    body = {k: night_data[k] for k in ("name", "currency", "stake", "ruleset", "players", "first_dealer")}
    created = client.post("/api/v1/sessions", json=body).get_json()
    assert created["game"] == "tonk" and "pot" not in created
    again = client.post("/api/v1/sessions", json=body | {"game": "tonk"}).get_json()
    assert again["game"] == "tonk" and again["ruleset"] == created["ruleset"]


@pytest.mark.parametrize("value", ["chess", "TONGITS", "", 7, ["tongits"], {"name": "tongits"}])
def test_an_unknown_game_is_a_400_naming_the_field(client: Any, value: Any) -> None:
    night = tongits_night()
    body = {k: night[k] for k in ("name", "currency", "stake", "players")} | {"game": value}
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 400
    error = response.get_json()
    assert error["error"] == "invalid_game" and error["field"] == "game"
    assert "tonk, tongits" in error["message"]


@pytest.mark.parametrize("name", ["pot", "POT", "Pot"])
def test_a_tongits_night_refuses_a_player_named_pot(client: Any, name: str) -> None:
    night = tongits_night()
    body = {k: night[k] for k in ("name", "currency", "stake")} | {
        "game": "tongits", "players": ["Ligaya", name, "Marisol"]}
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 422
    error = response.get_json()
    assert (error["error"], error["field"]) == ("invalid_player_name", "players[1]")


def test_a_tonk_night_may_still_seat_a_player_named_pot(client: Any) -> None:
    body = {"name": "n", "currency": "USD", "stake": 100, "players": ["Ann", "Pot"]}
    assert client.post("/api/v1/sessions", json=body).status_code == 201


@pytest.mark.parametrize(("players", "toggles", "status", "code"), [
    (["A", "B"], {}, 422, "too_few_players"),
    (["A", "B", "C", "D"], {}, 422, "too_many_players"),
    (["A", "B", "C", "D"], {"four_players": True}, 201, None),
    (["A", "B", "C", "D", "E"], {"four_players": True}, 422, "too_many_players"),
])
def test_the_seat_range_is_the_games(client: Any, players: list[str], toggles: dict[str, Any], status: int,
                                     code: str | None) -> None:
    body = {"name": "n", "currency": "PHP", "stake": 500, "game": "tongits", "players": players,
            "ruleset": {"preset": "classic", "toggles": toggles}}
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == status, response.get_json()
    if code is not None:
        assert response.get_json()["error"] == code
    # Tonk seats two: the range really is the game's
    tonk = client.post("/api/v1/sessions", json={"name": "n", "currency": "PHP", "stake": 500,
                                                 "players": ["A", "B"]})
    assert tonk.status_code == 201


def test_a_tongits_ruleset_is_checked_by_tongits(client: Any) -> None:
    body = {"name": "n", "currency": "PHP", "stake": 500, "game": "tongits", "players": ["A", "B", "C"],
            "ruleset": {"preset": "classic", "toggles": {"knock_pays": 2}}}  # a Tonk toggle
    response = client.post("/api/v1/sessions", json=body)
    assert response.status_code == 422 and response.get_json()["error"] == "invalid_ruleset"


# -- 2 and 3. recording asks the game; the shared night hand by hand --------------------------------------
@pytest.mark.parametrize("send_dealer", [True, False], ids=["dealers-sent", "dealers-from-the-ledger"])
def test_the_shared_night_hand_by_hand(client: Any, database_url: str, send_dealer: bool) -> None:
    data = tongits_night()
    night = open_tongits(client)
    players_net: dict[str, int] = dict.fromkeys(data["players"], 0)
    for hand in data["hands"]:
        before = session(client, night)
        assert before["next_dealer"] == hand["dealer"], hand["hand"]  # TONGITS.md §2.3 through the ledger
        assert before["pot"] == {"balance_minor": hand["pot"]["balance"], "holder": hand["pot"]["holder"],
                                 "streak": hand["pot"]["streak"]}, hand["hand"]
        body = record(client, night, hand, dealer=send_dealer)
        expected = hand["expected"]
        assert body["number"] == hand["hand"] and body["dealer"] == hand["dealer"]
        assert body["transfers"] == expected["transfers"], hand["hand"]
        assert body["net"] == expected["net"], hand["hand"]
        assert body["pot"] == expected["pot"], hand["hand"]
        assert body["winner"] == expected["winner"] and body["kind"] == hand["outcome"]["kind"]
        assert body["next_dealer"] == expected["next_dealer"]
        players_net = sum_of(players_net, {p: v for p, v in expected["net"].items() if p != "pot"})
        assert body["session_net"] == players_net, hand["hand"]
        kept = checked_figures_at(database_url, night["id"])  # kept == recomputed, accounts and state too
        assert sum(kept.net.values()) + sum(kept.accounts.values()) == 0
        assert kept.state == {"balance": expected["pot"]["balance_after"], "holder": expected["pot"]["holder"],
                              "streak": expected["pot"]["streak"]}
    after = session(client, night)
    assert after["net"] == data["expected"]["net"]
    assert after["pot"]["balance_minor"] == data["expected"]["pot_balance"]
    assert after["hand_count"] == data["expected"]["hands_recorded"]
    listed = client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]
    assert sum(1 for h in listed if h["redeal"]) == data["expected"]["redeals"]
    assert sum(1 for h in listed if h["pot"]["taken_by"] is not None) == data["expected"]["pot_takes"]

    closed = client.post(f"/api/v1/sessions/{night['id']}/close", headers=night["headers"])
    assert closed.status_code == 200
    body = closed.get_json()
    close = data["expected"]["close"]
    assert body["pot_closed"]["kind"] == "close_pot"
    assert body["pot_closed"]["transfers"] == close["transfers"]
    assert body["pot_closed"]["net"] == close["net"]
    assert body["pot_closed"]["pot"] == close["pot"]
    assert body["net"] == data["expected"]["net_after_close"]
    assert body["pot"] == {"balance_minor": 0, "holder": None, "streak": 0,  # and it says what the close did
                           "closed": "split", "closed_minor": data["expected"]["pot_balance"], "closed_among": 3}
    assert session(client, night)["pot"] == body["pot"]
    assert body["hand_count"] == data["expected"]["hands_recorded"]  # the close is not a hand
    kept = checked_figures_at(database_url, night["id"])
    assert kept.accounts == {"pot": 0} and sum(kept.net.values()) == 0
    # closing again changes nothing and says the same close
    again = client.post(f"/api/v1/sessions/{night['id']}/close", headers=night["headers"]).get_json()
    assert again["net"] == body["net"] and again["pot_closed"]["number"] == body["pot_closed"]["number"]


def test_a_carried_pot_stays_in_the_pot_at_the_close(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client, ruleset={"preset": "classic", "toggles": {"pot_at_end": "carry"}})
    for hand in data["hands"][:3]:
        record(client, night, hand)
    before = session(client, night)
    assert before["pot"]["balance_minor"] > 0
    body = client.post(f"/api/v1/sessions/{night['id']}/close", headers=night["headers"]).get_json()
    assert body["pot_closed"]["transfers"] == [] and body["pot_closed"]["pot"]["split"] == 0
    assert body["net"] == before["net"]
    assert body["pot"] == {"balance_minor": before["pot"]["balance_minor"], "holder": None, "streak": 0,
                           "closed": "carried", "closed_minor": before["pot"]["balance_minor"], "closed_among": 0}
    kept = checked_figures_at(database_url, night["id"])
    assert sum(kept.net.values()) + kept.accounts["pot"] == 0


def test_an_empty_pot_closes_with_no_entry(client: Any) -> None:
    night = open_tongits(client)
    body = client.post(f"/api/v1/sessions/{night['id']}/close", headers=night["headers"]).get_json()
    assert "pot_closed" not in body and body["next_number"] == 1
    assert body["pot"] == {"balance_minor": 0, "holder": None, "streak": 0,
                           "closed": "empty", "closed_minor": 0, "closed_among": 0}


def test_a_refused_tongits_hand_changes_nothing(client: Any, database_url: str) -> None:
    data = tongits_night()
    night = open_tongits(client)
    record(client, night, data["hands"][0])
    bad = copy.deepcopy(data["hands"][1])
    bad["outcome"] = {"kind": "tongits", "winner": "Nobody"}
    response = client.post(f"/api/v1/sessions/{night['id']}/hands",
                           json={"outcome": bad["outcome"], "hands": {}}, headers=night["headers"])
    assert response.status_code == 422 and response.get_json()["error"] == "unknown_player"
    after = session(client, night)
    assert after["hand_count"] == 1 and after["pot"]["balance_minor"] == 3000
    checked_figures_at(database_url, night["id"])


def test_the_preview_scores_from_the_nights_pot(client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client)
    record(client, night, data["hands"][0])
    second = data["hands"][1]
    response = client.post(f"/api/v1/sessions/{night['id']}/preview", headers=night["headers"],
                           json={"outcome": second["outcome"], "hands": second["hands"], "dealer": second["dealer"]})
    assert response.status_code == 200
    assert response.get_json()["pot"] == second["expected"]["pot"]
    assert session(client, night)["hand_count"] == 1  # nothing stored
