"""Issue 25, item 3: any night of any game kept in points instead of money, for tables where
playing for money is not allowed. The same engine scores it, at a stake of one point: every
figure is the money night's divided by its stake. There is no currency anywhere (the API says
``"currency": "PTS"`` and ``"points": true``; pages and PDFs show bare numbers), no settle-up,
no payments and no hand-offs (409 ``points_only``); the settle page shows the standings."""
from __future__ import annotations

import io
import json
import re
from typing import Any

from pypdf import PdfReader

from conftest import TESTS, session_body
from kept_figures import checked_figures_at
from test_web_clubs import club_id_of, start_club

RUMMY_NIGHT = TESTS / "nights" / "rummy13" / "night-01.json"
MONEY_MARKS = re.compile(r"[$€£₹₱₺¤]|USD|INR|PTS|US\$")


def pdf_text(data: bytes) -> str:
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    return " ".join(text.replace("\xa0", " ").split())


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def divided(net: dict[str, int], stake_minor: int) -> dict[str, int]:
    """A money night's nets as points at a stake of one point (every payout is a whole number
    of stakes, so nothing is rounded)."""
    assert all(amount % stake_minor == 0 for amount in net.values()), net
    return {name: amount // stake_minor for name, amount in net.items()}


def open_points(client: Any, body: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/sessions", json={k: v for k, v in body.items() if k != "currency"}
                           | {"points": True, "stake": 1})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def play_tonk(client: Any, night_data: dict[str, Any], night: dict[str, Any]) -> None:
    for hand in night_data["hands"]:
        recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                               json={key: hand[key] for key in ("outcome", "hands", "dealer")})
        assert recorded.status_code == 201, recorded.get_json()


def test_a_points_tonk_night_scores_as_the_money_night_divided_by_its_stake(
        client: Any, database_url: str, night_data: dict[str, Any]) -> None:
    night = open_points(client, session_body(night_data))
    assert (night["currency"], night["points"], night["stake"]) == ("PTS", True, 1)
    play_tonk(client, night_data, night)
    got = client.get(f"/api/v1/sessions/{night['id']}", headers=bearer(night["token"])).get_json()
    expected = divided(night_data["expected"]["net"], night_data["stake"])
    assert got["net"] == expected and sum(expected.values()) == 0
    assert any(expected.values())  # a night where points moved
    assert checked_figures_at(database_url, night["id"]).net == expected  # kept == recomputed
    money = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    assert money["points"] is False


def test_nothing_is_paid_or_settled_in_points(client: Any, night_data: dict[str, Any]) -> None:
    night = open_points(client, session_body(night_data))
    play_tonk(client, night_data, night)
    url, auth = f"/api/v1/sessions/{night['id']}", bearer(night["token"])
    winner, loser = sorted(client.get(url, headers=auth).get_json()["net"].items(), key=lambda kv: kv[1])[::-1][:2]
    for path in ("/settlement", "/settlement.txt", "/settlement/1/qr.svg"):
        response = client.get(url + path, headers=auth)
        assert response.status_code in (409, 404), (path, response.status_code)
        if response.status_code == 409:
            assert response.get_json()["error"] == "points_only" and response.get_json()["field"] == "currency"
    paid = client.post(f"{url}/payments", headers=auth, json={"from": loser[0], "to": winner[0], "amount": 1})
    assert paid.status_code == 409 and paid.get_json()["error"] == "points_only"
    assert client.get(f"{url}/payments", headers=auth).get_json()["payments"] == []


def test_a_points_night_refuses_a_currency_and_takes_only_its_own(client: Any, night_data: dict[str, Any]) -> None:
    refused = client.post("/api/v1/sessions", json=session_body(night_data) | {"points": True})
    assert refused.status_code == 422
    assert refused.get_json()["field"] == "currency"
    same = client.post("/api/v1/sessions", json=session_body(night_data) | {"points": True, "currency": "PTS",
                                                                             "stake": 2})
    assert same.status_code == 201 and same.get_json()["points"] is True


def test_the_settle_page_shows_the_standings_and_the_pdfs_no_currency(
        app: Any, client: Any, night_data: dict[str, Any]) -> None:
    night = open_points(client, session_body(night_data))
    play_tonk(client, night_data, night)
    expected = divided(night_data["expected"]["net"], night_data["stake"])
    phone = app.test_client()
    assert phone.get(f"/join/{night['id']}/{night['token']}").status_code == 302
    table = phone.get(f"/s/{night['id']}").get_data(as_text=True)
    assert ">Standings</a>" in table and "Settle up" not in table
    page = phone.get(f"/s/{night['id']}/settle").get_data(as_text=True)
    standings = re.findall(r'<li value="(\d+)"><span class="standing-name">([^<]+)</span> '
                           r'<span class="standing-score">([^<]+)</span>', page)
    ranked = sorted(expected.items(), key=lambda kv: -kv[1])
    assert [(name, score) for _place, name, score in standings] == [
        (name, f"+{score}" if score > 0 else str(score)) for name, score in ranked]
    assert standings[0][0] == "1"
    assert "Mark paid" not in page and "Who pays whom" not in page and "nobody pays anybody" in page
    assert phone.get(f"/s/{night['id']}/settle.txt").status_code == 404
    summary = pdf_text(phone.get(f"/s/{night['id']}/summary.pdf").data)
    assert "Final score" in summary and "None: the night is kept in points" in summary
    assert "Settle up" not in summary and not MONEY_MARKS.search(summary), summary
    for name, score in expected.items():
        shown = f"+{score}" if score > 0 else str(score)
        assert re.search(rf"{re.escape(name)} {re.escape(shown)}\b", summary), (name, shown)
    statement = pdf_text(phone.get(f"/s/{night['id']}/statements/1.pdf").data)
    assert "Settle up" not in statement and not MONEY_MARKS.search(statement), statement


def test_a_points_rummy_night_gives_each_hand_its_points_and_no_plan(client: Any) -> None:
    data = json.loads(RUMMY_NIGHT.read_text(encoding="utf-8"))
    night = open_points(client, session_body(data) | {"game": "rummy13"})
    for hand in data["hands"]:
        recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]), json={
            "wild_rank": hand["wild_rank"], "outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]})
        assert recorded.status_code == 201, recorded.get_json()
        assert recorded.get_json()["net"] == divided(hand["expected"]["net"], data["stake"])
        assert recorded.get_json()["points"] == hand["expected"]["points"]
    got = client.get(f"/api/v1/sessions/{night['id']}", headers=bearer(night["token"])).get_json()
    assert got["net"] == divided(data["expected"]["net"], data["stake"]) == {
        "Anoop": 72, "Bindu": 27, "Chacko": -64, "Devi": -35}
    assert client.get(f"/api/v1/sessions/{night['id']}/settlement",
                      headers=bearer(night["token"])).get_json()["error"] == "points_only"


def test_a_club_kept_in_points_has_standings_and_statements_without_money(
        app: Any, client: Any, night_data: dict[str, Any]) -> None:
    club = client.post("/api/v1/clubs", json={"name": "Thursday sheet", "currency": "PTS", "timezone": "UTC",
                                              "members": list(night_data["players"])})
    assert club.status_code == 201, club.get_json()
    club = club.get_json()
    night = client.post("/api/v1/sessions", headers=bearer(club["token"]), json={
        "name": "Week 1", "stake": 1, "ruleset": night_data["ruleset"], "players": night_data["players"],
        "first_dealer": night_data["first_dealer"], "club": club["id"], "points": True})
    assert night.status_code == 201, night.get_json()
    night = night.get_json()
    play_tonk(client, night_data, night)
    closed = client.post(f"/api/v1/sessions/{night['id']}/close", headers=bearer(night["token"]),
                         json={"carry_over": True})
    assert closed.status_code == 200, closed.get_json()
    expected = divided(night_data["expected"]["net"], night_data["stake"])
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert body["points"] is True and body["balances"] == expected
    assert body["settlement"]["transfers"] == []
    assert client.get(f"/api/v1/clubs/{club['id']}/settlement",
                      headers=bearer(club["token"])).get_json()["error"] == "points_only"
    loser, winner = min(expected, key=expected.__getitem__), max(expected, key=expected.__getitem__)
    paid = client.post(f"/api/v1/clubs/{club['id']}/payments", headers=bearer(club["token"]),
                       json={"from": loser, "to": winner, "amount": 1})
    assert paid.status_code == 409 and paid.get_json()["error"] == "points_only"
    owner = app.test_client()
    assert owner.get(f"/c/join/{club['id']}/{club['token']}").status_code in (302, 303)
    standings = owner.get(f"/c/{club['id']}/standings").get_data(as_text=True)
    assert not MONEY_MARKS.search(re.sub(r"<[^>]+>", " ", standings))
    for name, score in expected.items():
        assert name in standings
    page = owner.get(f"/c/{club['id']}").get_data(as_text=True)
    assert "nobody pays anybody" in page and "Who pays whom to clear the club" not in page
    season = pdf_text(owner.get(f"/c/{club['id']}/summary.pdf").data)
    assert "Fewest transfers" not in season and not MONEY_MARKS.search(season), season


def test_the_start_forms_offer_points(app: Any, client: Any) -> None:
    page = client.get("/").get_data(as_text=True)
    assert '<option value="PTS">Points: no money</option>' in page
    from test_web_pages import csrf_of

    typed = {"csrf_token": csrf_of(page), "name": "Sheet", "game": "tonk", "currency": "PTS", "player-0": "Dee",
             "player-1": "Rosa", "go": "start"}
    refused = client.post("/", data=typed | {"stake": "0.25"})
    assert refused.status_code == 422
    assert "&#39;0.25&#39; is not a whole number of points." in refused.get_data(as_text=True)
    started = client.post("/", data=typed | {"stake": "2"})
    assert started.status_code == 302
    night_id = started.headers["Location"].split("/s/")[1].split("?")[0]
    assert ">Standings</a>" in client.get(f"/s/{night_id}").get_data(as_text=True)
    created = start_club(client, currency="PTS")
    assert created.status_code == 302
    assert "nobody pays anybody" in client.get(f"/c/{club_id_of(created)}").get_data(as_text=True)


def test_a_player_leaving_a_points_night_pays_nothing(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    night = open_points(client, session_body(night_data))
    play_tonk(client, night_data, night)
    expected = divided(night_data["expected"]["net"], night_data["stake"])
    leaver = max(expected, key=expected.__getitem__)
    gone = client.post(f"/api/v1/sessions/{night['id']}/players/leave", headers=bearer(night["token"]),
                       json={"name": leaver, "settle": "now"})
    assert gone.status_code == 200, gone.get_json()
    assert gone.get_json()["payments"] == [] and gone.get_json()["settle"] == "at_end"
    assert client.get(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"])).get_json()[
        "payments"] == []
    phone = app.test_client()
    assert phone.get(f"/join/{night['id']}/{night['token']}").status_code == 302
    stayer = next(name for name in night_data["players"] if name != leaver)
    from test_web_pages import csrf_of

    token = csrf_of(phone.get(f"/s/{night['id']}/seats").get_data(as_text=True))
    page = phone.post(f"/s/{night['id']}/seats/leave", data={"name": stayer, "csrf_token": token})
    text = page.get_data(as_text=True)
    assert "Leave the table" in text and "Pay now" not in text, page.status_code
    assert f"{stayer} leaves {'+' if expected[stayer] > 0 else ''}{expected[stayer]}" in text
    summary = pdf_text(phone.get(f"/s/{night['id']}/summary.pdf").data)
    assert not MONEY_MARKS.search(summary)
    left = f"{leaver} left after hand {len(night_data['hands'])} with +{expected[leaver]}"
    assert left in summary and "to be settled" not in summary, summary
