"""Exports of a Tong-its night (issue 21 item 5): the JSON document holds the game, its rules, the
pot account and the close; the CSV tables describe hands in Tong-its sentences and give the pot's
net of each hand in a column of its own (a Tonk night's header is unchanged). The shared night
(TONGITS.md §8.4). Real database (SQLite file, or PostgreSQL with ``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import csv
import io
from typing import Any

from conftest import session_body
from tests.test_tongits_ledger import open_tongits, record, tongits_night


def played(client: Any) -> dict[str, Any]:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"]:
        record(client, night, hand)
    assert client.post(f"/api/v1/sessions/{night['id']}/close", headers=night["headers"]).status_code == 200
    return night


def rows(client: Any, night: dict[str, Any], table: str) -> list[dict[str, str]]:
    response = client.get(f"/api/v1/sessions/{night['id']}/export.csv?table={table}&lang=en",
                          headers=night["headers"])
    assert response.status_code == 200
    return list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))


def test_the_json_export_holds_the_game_rules_pot_and_close(client: Any) -> None:
    data = tongits_night()
    night = played(client)
    doc = client.get(f"/api/v1/sessions/{night['id']}/export.json", headers=night["headers"]).get_json()
    session = doc["session"]
    assert session["game"] == "tongits"
    assert session["ruleset"]["preset"] == "classic" and session["ruleset"]["pot_take_streak"] == 2
    assert session["pot"] == {"balance_minor": 0, "holder": None, "streak": 0, "closed": "split",
                              "closed_minor": data["expected"]["pot_balance"], "closed_among": 3}
    assert session["net"] == data["expected"]["net_after_close"]
    hands = doc["hands"]
    assert len(hands) == len(data["hands"]) + 1
    for hand, expected in zip(hands, data["hands"]):
        assert hand["kind"] == expected["outcome"]["kind"]
        assert hand["pot"] == expected["expected"]["pot"]
        assert hand["transfers"] == expected["expected"]["transfers"]
    close = hands[-1]
    assert close["kind"] == "close_pot" and close["outcome"] == {"kind": "close_pot", "reason": "end_of_night"}
    assert close["transfers"] == data["expected"]["close"]["transfers"]
    assert close["pot"] == data["expected"]["close"]["pot"]
    assert close["description"] == "The pot was split among the players"
    assert doc["settlement"]["transfers"] and all(t["to"] != "pot" for t in doc["settlement"]["transfers"])


def test_the_csv_hands_describe_tongits_and_give_the_pot_column(client: Any) -> None:
    data = tongits_night()
    night = played(client)
    hands = rows(client, night, "hands")
    assert list(hands[0])[-1] == "pot (minor units)"
    for row, expected in zip(hands, data["hands"]):
        assert int(row["pot (minor units)"]) == expected["expected"]["net"]["pot"]
        for player in data["players"]:
            assert int(row[f"{player} (minor units)"]) == expected["expected"]["net"][player]
    assert hands[2]["description"] == "Ligaya went out: tong-its"
    assert hands[1]["description"] == "Dodong called a draw (laban) and nobody fought"
    assert hands[-1]["outcome"] == "close_pot" and int(hands[-1]["pot (minor units)"]) == -3000
    transfers = rows(client, night, "transfers")
    into_pot = sum(int(t["amount_minor"]) for t in transfers if t["to"] == "pot")
    out_of_pot = sum(int(t["amount_minor"]) for t in transfers if t["from"] == "pot")
    assert into_pot - out_of_pot == 0  # split at the close: the pot ends empty


def test_a_tonk_nights_csv_header_is_unchanged(client: Any, night_data: dict[str, Any]) -> None:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    night = {"id": body["id"], "headers": {"Authorization": f"Bearer {body['token']}"}}
    response = client.get(f"/api/v1/sessions/{night['id']}/export.csv?table=hands", headers=night["headers"])
    first = response.get_data(as_text=True).splitlines()[0]
    assert first == ("hand,version,status,dealer,outcome,description,recorded_at,"
                     + ",".join(f"{p} (minor units)" for p in night_data["players"]))
    assert "pot" not in first


def test_the_nights_history_page_describes_tongits_hands(app: Any, client: Any) -> None:
    data = tongits_night()
    night = open_tongits(client)
    for hand in data["hands"][:4]:
        record(client, night, hand)
    phone = app.test_client()
    phone.get(f"/join/{night['id']}/{night['body']['token']}")
    page = phone.get(f"/s/{night['id']}/log?lang=en").get_data(as_text=True)
    assert "Ligaya went out: tong-its" in page
    assert "Dodong called a draw (laban) and nobody fought" in page
