"""Helpers for the club tests: a club through the API, and nights shaped like
``nights/night-01.json`` (its 30 hands split in three nights of 10) played inside it."""
from __future__ import annotations

from typing import Any

from conftest import load_json

NIGHT = load_json("nights/night-01.json")
PARTS = ((0, 10), (10, 20), (20, 30))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def make_club(client: Any, **extra: Any) -> dict[str, Any]:
    response = client.post("/api/v1/clubs", json={"name": "Friday club", "currency": "USD",
                                                   "timezone": "America/Chicago"} | extra)
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def part_finals(part: int) -> dict[str, int]:
    """The finals of night ``part`` (0, 1, 2) from the shared night's expected hand nets."""
    start, end = PARTS[part]
    finals = {p: 0 for p in NIGHT["players"]}
    for hand in NIGHT["hands"][start:end]:
        for name, amount in hand["expected"]["net"].items():
            finals[name] += amount
    return finals


def play_part(client: Any, club: dict[str, Any], part: int, token: str | None = None,
              players: list[str] | None = None) -> dict[str, Any]:
    """Start a club night with the club ``token`` (default the owner's), record its ten hands,
    and return the night's creation answer."""
    start, end = PARTS[part]
    hands = NIGHT["hands"][start:end]
    body = {"name": f"{NIGHT['name']} #{part + 1}", "stake": NIGHT["stake"], "ruleset": NIGHT["ruleset"],
            "players": players or NIGHT["players"], "first_dealer": hands[0]["dealer"], "club": club["id"]}
    response = client.post("/api/v1/sessions", json=body, headers=bearer(token or club["token"]))
    assert response.status_code == 201, response.get_json()
    night = response.get_json()
    for hand in hands:
        recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                               json={"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]})
        assert recorded.status_code == 201, recorded.get_json()
    return night


def close(client: Any, night: dict[str, Any], carry_over: bool) -> dict[str, Any]:
    response = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": carry_over},
                           headers=bearer(night["token"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def three_nights(client: Any, club: dict[str, Any]) -> list[dict[str, Any]]:
    """Nights 1 and 2 carried (night 2 hosted with the member link, so carried by the owner's
    carry call: ``carry_needs_owner``), night 3 settled in cash (its seats typed in other case and
    with a decomposed accent: the same members)."""
    first = play_part(client, club, 0)
    close(client, first, True)
    second = play_part(client, club, 1, token=club["member_token"])
    close(client, second, True)
    if club.get("carry_needs_owner", True):
        carried = client.post(f"/api/v1/clubs/{club['id']}/nights/{second['id']}/carry", headers=bearer(club["token"]))
        assert carried.status_code == 200, carried.get_json()
    third = play_part(client, club, 2, players=["dee", "MARCUS", "Rosa", "Toma\u0301s"])
    close(client, third, False)
    return [first, second, third]


def won_club_night(client: Any, club: dict[str, Any], players: list[str], winner: str | None = None) -> dict[str, Any]:
    """A club night of ``players`` at a 25-cent stake (classic rules), started with the owner's
    token, with one tonk out by ``winner`` when given; the night's creation answer."""
    response = client.post("/api/v1/sessions", headers=bearer(club["token"]), json={
        "name": "Club night", "stake": 25, "ruleset": {"preset": "classic"}, "players": players, "club": club["id"]})
    assert response.status_code == 201, response.get_json()
    night = response.get_json()
    if winner is not None:
        recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                               json={"outcome": {"kind": "tonk_out", "winner": winner}})
        assert recorded.status_code == 201, recorded.get_json()
    return night


def plan_by_place(plan: dict[str, Any], nights: list[str], payments: list[int]) -> dict[str, Any]:
    """A settle-up plan (a night's or a club's) with the ids its lines' ``because`` names read as
    places, so that plans on two servers compare: a carried night's ``session_id`` as its place in
    ``nights`` (the club's nights, in order), a payment's id as its place in ``payments``."""
    def reason(part: dict[str, Any]) -> dict[str, Any]:
        if "session_id" in part:
            return part | {"session_id": ("night", nights.index(part["session_id"]))}
        if "payment" in part:
            return part | {"payment": ("payment", payments.index(part["payment"]))}
        return part
    return plan | {"transfers": [t | {"because": [reason(r) for r in t.get("because", [])]}
                                 for t in plan["transfers"]]}


def club_plan_by_place(client: Any, club_id: str, token: str) -> dict[str, Any]:
    """The club's settlement (``GET /api/v1/clubs/{id}``) with its ids read as places."""
    url = f"/api/v1/clubs/{club_id}"
    club = client.get(url, headers=bearer(token)).get_json()
    payments = client.get(f"{url}/payments", headers=bearer(token)).get_json()["payments"]
    return plan_by_place(club["settlement"], [n["id"] for n in club["nights"]], [p["id"] for p in payments])
