"""Issue 25: a club's backup keeps what its pool rummy nights and its points nights are. A club
night of pool rummy (a rejoin, the pot paid, carried into the club) and a club kept in points each
round-trip into a fresh database: the import replays every hand and the end of the pool and gets
the same balances, scores and standings."""
from __future__ import annotations

from typing import Any

from test_club_export import fresh_client  # noqa: F401  (the fixture: a second app on an empty database)
from tests.test_pool_nights import FEE, PLAYERS, show


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def club_pool_night(client: Any, currency: str = "INR") -> tuple[dict[str, Any], dict[str, Any]]:
    club = client.post("/api/v1/clubs", json={"name": "Onam club", "currency": currency, "timezone": "Asia/Kolkata",
                                              "members": PLAYERS}).get_json()
    night = client.post("/api/v1/sessions", headers=bearer(club["token"]), json={
        "name": "Pool 1", "stake": FEE, "game": "rummy13", "ruleset": {"preset": "pool_101"}, "players": PLAYERS,
        "first_dealer": "Anoop", "club": club["id"]}).get_json()
    auth = bearer(night["token"])
    url = f"/api/v1/sessions/{night['id']}"
    for entry in (show("Anoop", {"Bindu": 80, "Chacko": "first", "Devi": 30}),
                  show("Chacko", {"Anoop": 10, "Bindu": "middle", "Devi": 40}),
                  show("Anoop", {"Bindu": 5, "Chacko": 2, "Devi": "first"}, ["Bindu"]),
                  show("Anoop", {"Bindu": 30, "Chacko": 80, "Devi": "middle"})):
        assert client.post(f"{url}/hands", headers=auth, json=entry).status_code == 201
    closed = client.post(f"{url}/close", headers=auth, json={"carry_over": True})  # pays the pot first
    assert closed.status_code == 200, closed.get_json()
    return club, night


def test_a_club_pool_night_round_trips(client: Any, fresh_client: Any) -> None:  # noqa: F811
    club, night = club_pool_night(client)
    original = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert original["balances"] == {"Anoop": 4 * FEE, "Bindu": -2 * FEE, "Chacko": -FEE, "Devi": -FEE}
    document = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"])).get_json()
    imported = fresh_client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = fresh_client.get(f"/api/v1/clubs/{copy['id']}", headers=bearer(copy["token"])).get_json()
    assert again["balances"] == original["balances"]
    night_id, token = next(iter(copy["night_tokens"].items()))
    copied = fresh_client.get(f"/api/v1/sessions/{night_id}", headers=bearer(token)).get_json()
    first = client.get(f"/api/v1/sessions/{night['id']}", headers=bearer(night["token"])).get_json()
    assert copied["pool"] == first["pool"] and copied["pool"]["ended"] is True
    assert copied["hand_count"] == 4 and copied["net"] == first["net"]


def test_a_club_kept_in_points_round_trips(client: Any, fresh_client: Any) -> None:  # noqa: F811
    club, _night = club_pool_night(client, "PTS")
    original = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert original["points"] is True and original["balances"]["Anoop"] == 4 * FEE  # points: the same figures
    document = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"])).get_json()
    imported = fresh_client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = fresh_client.get(f"/api/v1/clubs/{copy['id']}", headers=bearer(copy["token"])).get_json()
    assert again["points"] is True and again["balances"] == original["balances"]
    assert again["settlement"]["transfers"] == []
