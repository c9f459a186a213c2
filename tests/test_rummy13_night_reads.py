"""A 13-card rummy night read back (issue 25, step 1): each stored hand says its kind, winner, points
and wild rank, and one whole sentence for it; the summary PDF reads the hands as rummy sentences and
the rules as the night plays them; the phone pages of a rummy night answer (the table, its rules,
its history) and the record and correct pages send the phone back to the table with a reason
instead of asking Tonk's questions. Real database (SQLite file, or PostgreSQL with
``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import html
import re
from typing import Any

from tests.kept_figures import checked_figures_at
from tests.test_rummy13_ledger import open_rummy, record, rummy_night
from tests.test_tongits_statements import flat, pdftotext


def played(client: Any, count: int) -> dict[str, Any]:
    data = rummy_night()
    night = open_rummy(client)
    for hand in data["hands"][:count]:
        record(client, night, hand)
    return night


def test_each_hand_reads_as_rummy(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = played(client, 5)
    hands = client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]
    assert [h["kind"] for h in hands] == [h["outcome"]["kind"] for h in data["hands"][:5]]
    assert [h["winner"] for h in hands] == ["Anoop", "Chacko", "Devi", None, "Bindu"]
    assert [h["wild_rank"] for h in hands] == [h["wild_rank"] for h in data["hands"][:5]]
    assert hands[0]["points"] == {"Anoop": 0, "Bindu": 50, "Chacko": 20, "Devi": 23}
    assert hands[0]["description"] == "Anoop made a valid show and collects 93 points"
    assert hands[3]["description"] == "The stock ran out: a void hand, nobody pays"
    assert hands[4]["description"] == "Bindu won as the last player in"
    one = client.get(f"/api/v1/sessions/{night['id']}/hands/1", headers=night["headers"]).get_json()
    assert one["points"] == hands[0]["points"] and one["hands"] == data["hands"][0]["hands"]


def test_the_summary_pdf_reads_rummy_hands_and_rules(client: Any, database_url: str) -> None:
    night = played(client, 5)
    response = client.get(f"/api/v1/sessions/{night['id']}/summary.pdf", headers=night["headers"])
    assert response.status_code == 200, response.get_data(as_text=True)[:300]
    text = flat(pdftotext(response.data))
    assert "13-card rummy" in text and "Points rummy" in text
    assert "Anoop made a valid show and collects 93 points" in text
    assert "Chacko dropped at once (first drop)" in text
    assert "A first drop costs 20 points and a middle drop 40 points." in text
    assert "A loser pays their count times the rate, at most 80 points." in text
    statements = client.get(f"/api/v1/sessions/{night['id']}/statements.pdf", headers=night["headers"])
    assert statements.status_code == 200


def test_the_summary_pdf_in_malayalam(client: Any, database_url: str) -> None:
    night = played(client, 2)
    response = client.get(f"/api/v1/sessions/{night['id']}/summary.pdf?lang=ml", headers=night["headers"])
    assert response.status_code == 200
    text = flat(pdftotext(response.data))
    assert "13 കാർഡ് റമ്മി" in text  # the game, in the table's words
    assert "ഉടൻ ഡ്രോപ്പ് ചെയ്തു (ഫസ്റ്റ് ഡ്രോപ്പ്)" in text  # Chacko's first drop in hand 1


def test_the_phone_pages_of_a_rummy_night(client: Any, database_url: str) -> None:
    night = played(client, 3)
    links = night["body"]["links"]
    assert client.get(links["host"].replace("http://localhost", "")).status_code == 302  # the host's phone joins
    table = client.get(f"/s/{night['id']}")
    assert table.status_code == 200
    page = table.get_data(as_text=True)
    assert 'value="knock"' not in page  # no Tonk outcome buttons on a rummy table
    rules = client.get(f"/s/{night['id']}/rules")
    assert rules.status_code == 200
    words = rules.get_data(as_text=True)
    assert "A wrong show costs 80 points, paid to the winner, and play goes on." in words
    assert "Points rummy" in words
    assert client.get(f"/s/{night['id']}/hands").status_code == 200


def test_the_phone_corrects_a_rummy_hand(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = played(client, 1)
    client.get(night["body"]["links"]["host"].replace("http://localhost", ""))
    page = client.get(f"/s/{night['id']}/hands/1/v1/correct")
    assert page.status_code == 200
    words = page.get_data(as_text=True)
    assert 'name="kind" value="show" checked' in words and '<option value="7" selected>' in words
    assert 'name="points-3"' in words and 'value="23"' in words  # Devi's count, as stored
    fields = form_of(words) | {"kind": "show", "winner": "Anoop", "wild_rank": "7",
                               "result-1": "first_drop", "result-2": "first_drop", "result-3": "lost", "points-3": "23"}
    saved = client.post(f"/s/{night['id']}/hands/1/v1/correct", data=fields)
    assert saved.status_code == 302, saved.get_data(as_text=True)[:500]
    hand = client.get(f"/api/v1/sessions/{night['id']}/hands/1", headers=night["headers"]).get_json()
    assert hand["version"] == 2 and hand["points"] == {"Anoop": 0, "Bindu": 20, "Chacko": 20, "Devi": 23}
    assert hand["net"] == {"Anoop": 3150, "Bindu": -1000, "Chacko": -1000, "Devi": -1150}
    assert checked_figures_at(database_url, night["id"]).net == hand["net"]
    stale = client.post(f"/s/{night['id']}/hands/1/v1/correct", data=fields | {"key": "another-key"})
    assert stale.status_code == 302  # version 1 is no longer the hand: nothing saved
    again = client.get(f"/api/v1/sessions/{night['id']}/hands/1", headers=night["headers"]).get_json()
    assert again["version"] == 2 and data["hands"][0]["expected"]["net"] != again["net"]


def form_of(page: str) -> dict[str, str]:
    """The hidden fields of the rummy record page."""
    return {m.group(1): html.unescape(m.group(2))
            for m in re.finditer(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', page)}


def test_the_phone_records_a_rummy_hand_in_one_page(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    client.get(night["body"]["links"]["host"].replace("http://localhost", ""))
    table = client.get(f"/s/{night['id']}").get_data(as_text=True)
    assert 'name="kind" value="show"' in table and 'name="kind" value="last_player"' in table
    page = client.get(f"/s/{night['id']}/record?kind=show")
    assert page.status_code == 200
    fields = form_of(page.get_data(as_text=True))
    # hand 1 of the shared night with points only: Bindu 50, Chacko a first drop, Devi 23 (seats 1, 2, 3)
    fields |= {"kind": "show", "winner": "Anoop", "wild_rank": "7", "result-1": "lost", "points-1": "50",
               "result-2": "first_drop", "result-3": "lost", "points-3": "23"}
    saved = client.post(f"/s/{night['id']}/record", data=fields)
    assert saved.status_code == 302, saved.get_data(as_text=True)[:500]
    hands = client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]
    assert len(hands) == 1
    assert hands[0]["transfers"] == data["hands"][0]["expected"]["transfers"]
    assert hands[0]["points"] == data["hands"][0]["expected"]["points"] and hands[0]["wild_rank"] == "7"
    again = client.post(f"/s/{night['id']}/record", data=fields)  # a double tap: saved once
    assert again.status_code == 302
    assert len(client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]) == 1
    assert checked_figures_at(database_url, night["id"]).net == data["hands"][0]["expected"]["net"]


def test_a_refused_phone_entry_says_why_and_saves_nothing(client: Any, database_url: str) -> None:
    night = open_rummy(client)
    client.get(night["body"]["links"]["host"].replace("http://localhost", ""))
    fields = form_of(client.get(f"/s/{night['id']}/record").get_data(as_text=True))
    fields |= {"kind": "show", "winner": "Anoop", "result-1": "lost", "points-1": "131",
               "result-2": "first_drop", "result-3": "middle_drop"}
    refused = client.post(f"/s/{night['id']}/record", data=fields)
    assert refused.status_code == 422
    assert 'role="alert"' in refused.get_data(as_text=True)
    assert 'value="131"' in refused.get_data(as_text=True)  # the answer is kept to fix
    assert session_hands(client, night) == 0
    fields |= {"points-1": ""}  # a loser without a count
    assert client.post(f"/s/{night['id']}/record", data=fields).status_code == 422
    assert session_hands(client, night) == 0


def session_hands(client: Any, night: dict[str, Any]) -> int:
    return client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"]).get_json()["hand_count"]


# -- a rummy night in a club ------------------------------------------------------------------------------
def test_a_rummy_club_night_carries_into_the_club(client: Any, database_url: str) -> None:
    data = rummy_night()
    made = client.post("/api/v1/clubs", json={"name": "Onam club", "currency": "INR", "timezone": "Asia/Kolkata"})
    assert made.status_code == 201, made.get_json()
    club = made.get_json()
    club_headers = {"Authorization": f"Bearer {club['token']}"}
    body = {k: data[k] for k in ("name", "stake", "ruleset", "players", "first_dealer")} | {
        "game": "rummy13", "club": club["id"]}
    response = client.post("/api/v1/sessions", json=body, headers=club_headers)
    assert response.status_code == 201, response.get_json()
    created = response.get_json()
    assert created["game"] == "rummy13" and created["club"] == club["id"] and created["currency"] == "INR"
    night = {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}, "body": created}
    for hand in data["hands"]:
        record(client, night, hand)
    closed = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": True}, headers=night["headers"])
    assert closed.status_code == 200, closed.get_json()
    assert closed.get_json()["net"] == data["expected"]["net"]
    books = client.get(f"/api/v1/clubs/{club['id']}", headers=club_headers).get_json()
    assert books["balances"] == data["expected"]["net"]
    standings = client.get(f"/api/v1/clubs/{club['id']}/standings", headers=club_headers)
    assert standings.status_code == 200, standings.get_json()
    lines = {line["member"]: line for line in standings.get_json()["members"]}
    assert {p: lines[p]["net"] for p in data["players"]} == data["expected"]["net"]
    for path in ("summary.pdf", "export.json", "export.csv"):
        answer = client.get(f"/api/v1/clubs/{club['id']}/{path}", headers=club_headers)
        assert answer.status_code == 200, (path, answer.get_data(as_text=True)[:300])
    exported = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=club_headers).get_json()
    imported = client.post("/api/v1/clubs/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    again = imported.get_json()
    again_books = client.get(f"/api/v1/clubs/{again['id']}", headers={"Authorization": f"Bearer {again['token']}"})
    assert again_books.get_json()["balances"] == data["expected"]["net"]


# -- the start form offers 13-card rummy ------------------------------------------------------------------
def start_rummy(client: Any, players: list[str], preset: str = "points_rummy") -> Any:
    from tests.test_web_pages import csrf_of

    token = csrf_of(client.get("/").get_data(as_text=True))
    data = {"csrf_token": token, "name": "Onam", "game": "rummy13", "rummy_preset": preset, "stake": "0.50",
            "currency": "INR", "first_dealer": "0", "preset": "classic"}
    return client.post("/", data=data | {f"player-{i}": name for i, name in enumerate(players)})


def test_the_start_form_offers_rummy_and_opens_a_rummy_night(client: Any, database_url: str) -> None:
    page = client.get("/").get_data(as_text=True)
    assert 'name="game" value="rummy13"' in page and 'name="rummy_preset" value="home_table"' in page
    response = start_rummy(client, ["Anoop", "Bindu", "Chacko", "Devi", "Ezhil"], "home_table")
    assert response.status_code == 302, response.get_data(as_text=True)[:500]
    night_id = re.match(r"/s/([^/?]+)\?share=1$", response.headers["Location"]).group(1)
    table = client.get(f"/s/{night_id}").get_data(as_text=True)
    assert 'name="kind" value="wrong_show"' in table  # the home table's wrong show ends the hand
    rules = client.get(f"/s/{night_id}/rules").get_data(as_text=True)
    assert "A wrong show ends the hand and pays 80 points to each player still in." in rules
    assert "₹0.50" in rules  # the stake read as the rate of a point: 50 paise


def test_the_start_form_refuses_one_rummy_player(client: Any, database_url: str) -> None:
    response = start_rummy(client, ["Anoop"])
    assert response.status_code == 422
    assert "13-card rummy is played by 2 to 6 players" in html.unescape(response.get_data(as_text=True))


def test_a_rummy_statement_shows_the_handles_its_player_ticked(app: Any, client: Any, database_url: str) -> None:
    """A rummy night's statement, like a Tonk night's, says "Pay {name}: {handle}" once the player ticked
    "Show my handles in PDF statements" (issue 22), in that player's own statement only."""
    from test_club_languages import pdf_text
    from test_my_handles_page import post

    night = open_rummy(client)
    phone = app.test_client()
    assert phone.get(f"/join/{night['id']}/{night['body']['player_token']}").status_code == 302
    table = f"/s/{night['id']}"
    players = rummy_night()["players"]
    seat = 1
    assert post(phone, f"{table}/me", table, {"seat": str(seat)}).status_code == 302
    assert post(phone, f"{table}/me/handles", table, {"upi": "anu@okaxis", "in_pdf": "yes"}).status_code == 302
    own = pdf_text(client.get(f"/api/v1/sessions/{night['id']}/statements/{seat}.pdf", headers=night["headers"]).data)
    assert f"Pay {players[0]}: UPI anu@okaxis" in own
    other = pdf_text(client.get(f"/api/v1/sessions/{night['id']}/statements/2.pdf", headers=night["headers"]).data)
    assert "anu@okaxis" not in other
