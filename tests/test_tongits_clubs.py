"""Club nights of either game (issue 21 item 5): one club plays Tonk and Tong-its (money is money).
A Tong-its club night (the shared night, TONGITS.md §8.4) carries into the club what its players
still owe after its pot is split at the close; the standings and season statements count it
(hands played without the close, Tong-its wins by kind); a club night's rules may not carry a pot
past the close (a club keeps no pot between nights: ``pot_at_end`` ``carry`` is refused), and the
club's export and import keep the night and replay it through the engine. Real database."""
from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from club_nights import bearer, won_club_night
from ledger.money import format_minor
from tests.test_tongits_ledger import tongits_night


def make_php_club(client: Any) -> dict[str, Any]:
    response = client.post("/api/v1/clubs", json={"name": "Barkada", "currency": "PHP", "timezone": "Asia/Manila"})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def tongits_club_night(client: Any, club: dict[str, Any], **changes: Any) -> dict[str, Any]:
    data = tongits_night()
    body = {k: data[k] for k in ("name", "stake", "ruleset", "players", "first_dealer")}
    body |= {"game": "tongits", "club": club["id"]} | changes
    response = client.post("/api/v1/sessions", json=body, headers=bearer(club["token"]))
    assert response.status_code == 201, response.get_json()
    night = response.get_json()
    assert night["game"] == "tongits" and night["club"] == club["id"]
    for hand in data["hands"]:
        recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                               json={"outcome": hand["outcome"], "hands": hand["hands"], "dealer": hand["dealer"]})
        assert recorded.status_code == 201, recorded.get_json()
    return night


def close(client: Any, night: dict[str, Any], carry_over: bool) -> dict[str, Any]:
    response = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": carry_over},
                           headers=bearer(night["token"]))
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_tongits_club_night_carries_into_the_club_after_its_pot_is_split(client: Any) -> None:
    data = tongits_night()
    club = make_php_club(client)
    night = tongits_club_night(client, club)
    closed = close(client, night, True)
    assert closed["pot_closed"]["pot"]["split"] == data["expected"]["pot_balance"]
    assert closed["net"] == data["expected"]["net_after_close"] and closed["carried"] is True
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert body["balances"] == data["expected"]["net_after_close"]
    assert sum(t["amount"] for t in body["settlement"]["transfers"]) > 0


def test_one_club_plays_both_games_and_the_standings_count_both(client: Any) -> None:
    data = tongits_night()
    club = make_php_club(client)
    tonk = won_club_night(client, club, ["Ligaya", "Dodong"], winner="Ligaya")
    assert tonk["game"] == "tonk"
    tonk_net = close(client, tonk, True)["net"]
    night = tongits_club_night(client, club)
    close(client, night, True)
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    for player, amount in data["expected"]["net_after_close"].items():
        assert body["balances"][player] == amount + tonk_net.get(player, 0)
    standings = client.get(f"/api/v1/clubs/{club['id']}/standings", headers=bearer(club["token"])).get_json()
    lines = {line["member"]: line for line in standings["members"]}
    for player in data["players"]:
        line = lines[player]
        assert line["net"] == data["expected"]["net_after_close"][player] + tonk_net.get(player, 0)
        played = sum(1 for h in data["hands"] if h["outcome"]["kind"] != "redeal")  # the close is no hand
        assert line["hands"] == played + (1 if player in tonk_net else 0)
        assert line["nights"] == (2 if player in tonk_net else 1)
        for kind in ("tongits", "draw", "stock_out"):
            won = sum(1 for h in data["hands"] if h["outcome"]["kind"] == kind and h["expected"]["winner"] == player)
            assert line["wins"][kind] == won, (player, kind)
    assert lines["Ligaya"]["wins"]["tonk_out"] == 1


def test_a_season_statement_lists_the_tongits_night(client: Any) -> None:
    data = tongits_night()
    club = make_php_club(client)
    night = tongits_club_night(client, club)
    close(client, night, True)
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    ligaya = next(m for m in body["members"] if m["name"] == "Ligaya")
    response = client.get(f"/api/v1/clubs/{club['id']}/statements/{ligaya['id']}.pdf?lang=en",
                          headers=bearer(club["token"]))
    assert response.status_code == 200
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(response.data)).pages).split())
    amount = data["expected"]["net_after_close"]["Ligaya"]
    assert data["name"] in text
    assert f"Net for the period: +{format_minor(amount, 'PHP')}." in text
    won = sum(1 for h in data["hands"] if h["outcome"]["kind"] == "tongits" and h["expected"]["winner"] == "Ligaya")
    assert f"tong-its {won}" in text


@pytest.mark.parametrize("toggles", [{"pot_at_end": "carry"}])
def test_a_club_night_may_not_carry_its_pot_past_the_close(client: Any, toggles: dict[str, Any]) -> None:
    data = tongits_night()
    club = make_php_club(client)
    body = {k: data[k] for k in ("name", "stake", "players", "first_dealer")} | {
        "game": "tongits", "club": club["id"], "ruleset": {"preset": "classic", "toggles": toggles}}
    response = client.post("/api/v1/sessions", json=body, headers=bearer(club["token"]))
    assert response.status_code == 422, response.get_json()
    error = response.get_json()
    assert (error["error"], error["field"]) == ("invalid_ruleset", "ruleset.toggles.pot_at_end")
    assert "club" in error["message"] and "split" in error["message"]
    nights = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["nights"]
    assert nights == []


def test_the_standings_page_shows_tongits_wins_only_where_played(app: Any, client: Any) -> None:
    data = tongits_night()
    club = make_php_club(client)
    tonk = won_club_night(client, club, ["Ligaya", "Dodong"], winner="Ligaya")
    close(client, tonk, True)
    viewer = app.test_client()
    viewer.get(f"/c/join/{club['id']}/{club['viewer_token']}")
    url = f"/c/{club['id']}/standings?lang=en"
    page = viewer.get(url).get_data(as_text=True)
    assert "standing-wins-tonk_out" in page and "standing-wins-tongits" not in page
    close(client, tongits_club_night(client, club), True)
    page = viewer.get(url).get_data(as_text=True)
    assert "standing-wins-tongits" in page and "Draw (laban) won" in page
    won = sum(1 for h in data["hands"] if h["outcome"]["kind"] == "tongits" and h["expected"]["winner"] == "Ligaya")
    assert f'<td class="standing-wins-tongits">{won}</td>' in page
