"""Club nights of either game (issue 21 item 5): one club plays Tonk and Tong-its (money is money).
A Tong-its club night (the shared night, TONGITS.md §8.4) carries into the club what its players
still owe after its pot is split at the close; the standings and season statements count it
(hands played without the close, Tong-its wins by kind); a club night's rules may carry its pot
past the close (``pot_at_end`` ``carry``: into the club's pot, tests/test_club_pot.py), and the
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
    summary = client.get(f"/api/v1/clubs/{club['id']}/summary.pdf?lang=en", headers=bearer(club["token"]))
    assert summary.status_code == 200 and summary.mimetype == "application/pdf"
    text = " ".join("\n".join(p.extract_text() for p in PdfReader(io.BytesIO(summary.data)).pages).split())
    assert "Standings" in text and "2 counted nights" in text
    for player, amount in body["balances"].items():
        assert f"{player}: {('+' if amount > 0 else '') + format_minor(amount, 'PHP')}." in text


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
def test_a_club_night_may_carry_its_pot_past_the_close(client: Any, toggles: dict[str, Any]) -> None:
    data = tongits_night()
    club = make_php_club(client)
    body = {k: data[k] for k in ("name", "stake", "players", "first_dealer")} | {
        "game": "tongits", "club": club["id"], "ruleset": {"preset": "classic", "toggles": toggles}}
    response = client.post("/api/v1/sessions", json=body, headers=bearer(club["token"]))
    assert response.status_code == 201, response.get_json()
    night = response.get_json()
    assert night["ruleset"]["pot_at_end"] == "carry" and night["club"] == club["id"]
    nights = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["nights"]
    assert [n["id"] for n in nights] == [night["id"]]


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


# -- export and import -----------------------------------------------------------------------------------
def club_with_both_games(client: Any) -> dict[str, Any]:
    """A PHP club: a Tonk night carried, and the shared Tong-its night with a void (which re-scores
    every later hand: superseded versions) and its restore, closed and carried."""
    club = make_php_club(client)
    close(client, won_club_night(client, club, ["Ligaya", "Dodong"], winner="Ligaya"), True)
    night = tongits_club_night(client, club)
    for action in ("void", "restore"):
        response = client.post(f"/api/v1/sessions/{night['id']}/hands/5/{action}", headers=bearer(night["token"]))
        assert response.status_code == 200, response.get_json()
    close(client, night, True)
    return club


def export_of(client: Any, club: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"]))
    assert response.status_code == 200
    return response.get_json()


def test_a_club_with_a_tongits_night_round_trips(client: Any) -> None:
    data = tongits_night()
    club = club_with_both_games(client)
    document = export_of(client, club)
    games = [n["session"]["game"] for n in document["nights"]]
    assert games == ["tonk", "tongits"]
    tongits = document["nights"][1]
    assert any(h["status"] == "superseded" for h in tongits["hands"])  # the void re-scored later hands
    assert tongits["hands"][-1]["kind"] == "close_pot"
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    original = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    again = client.get(f"/api/v1/clubs/{copy['id']}", headers=bearer(copy["token"])).get_json()
    assert again["balances"] == original["balances"]
    first = client.get(f"/api/v1/clubs/{club['id']}/standings", headers=bearer(club["token"])).get_json()
    second = client.get(f"/api/v1/clubs/{copy['id']}/standings", headers=bearer(copy["token"])).get_json()
    assert [{k: v for k, v in m.items() if k != "member_id"} for m in first["members"]] == \
        [{k: v for k, v in m.items() if k != "member_id"} for m in second["members"]]
    night_id, token = list(copy["night_tokens"].items())[1]
    session = client.get(f"/api/v1/sessions/{night_id}", headers=bearer(token)).get_json()
    assert session["game"] == "tongits" and session["net"] == data["expected"]["net_after_close"]
    assert session["pot"] == {"balance_minor": 0, "holder": None, "streak": 0, "closed": "split",
                              "closed_minor": data["expected"]["pot_balance"], "closed_among": 3}
    assert session["hand_count"] == data["expected"]["hands_recorded"]


def refused(client: Any, document: dict[str, Any]) -> dict[str, Any]:
    response = client.post("/api/v1/clubs/import", json=document)
    assert response.status_code == 422, response.get_json()
    return response.get_json()  # type: ignore[no-any-return]


def counted_index(night: dict[str, Any], number: int) -> int:
    return next(i for i, h in enumerate(night["hands"]) if h["number"] == number and h["status"] == "counted")


def test_an_import_trusts_no_figure_of_a_tongits_night(client: Any) -> None:
    club = club_with_both_games(client)
    document = export_of(client, club)
    at = "nights[1]"
    # a pot balance the replay does not give
    bad = export_of(client, club)
    hand = counted_index(bad["nights"][1], 7)
    bad["nights"][1]["hands"][hand]["result"]["pot"]["balance_after"] += 1000
    error = refused(client, bad)
    assert (error["error"], error["field"]) == ("import_mismatch", f"{at}.hands[{hand}].result.pot.balance_after")
    # transfers that still sum to zero but pay the wrong way
    bad = export_of(client, club)
    result = bad["nights"][1]["hands"][counted_index(bad["nights"][1], 3)]["result"]
    result["net"] = {k: -v for k, v in result["net"].items()}
    assert refused(client, bad)["error"] == "import_mismatch"
    # a hand version that claims to have been scored from another pot: the chain decides
    bad = export_of(client, club)
    hands = bad["nights"][1]["hands"]
    first, second = counted_index(bad["nights"][1], 2), counted_index(bad["nights"][1], 3)
    hands[first], hands[second] = hands[first] | {"entry": hands[second]["entry"], "result": hands[second]["result"],
                                                  "kind": hands[second]["kind"]}, hands[second]
    assert refused(client, bad)["error"] in ("import_mismatch", "unknown_player")
    # a night played as Tong-its that says it was Tonk
    bad = export_of(client, club)
    bad["nights"][1]["session"]["game"] = "tonk"
    assert refused(client, bad)["error"] in ("invalid_ruleset", "invalid_entry")
    # an unknown game
    bad = export_of(client, club)
    bad["nights"][1]["session"]["game"] = "chess"
    error = refused(client, bad)
    assert error["field"] == f"{at}.session.game"
    # a night whose pot was split at the close that says its rules carried it: the close replays otherwise
    bad = export_of(client, club)
    bad["nights"][1]["session"]["ruleset"]["pot_at_end"] = "carry"
    error = refused(client, bad)
    assert error["error"] == "import_mismatch" and error["field"].startswith(f"{at}.hands[")
    assert client.post("/api/v1/clubs/import", json=document).status_code == 201  # the untouched one imports


def test_an_older_tonk_export_without_game_still_imports(client: Any) -> None:
    club = make_php_club(client)
    close(client, won_club_night(client, club, ["Ligaya", "Dodong"], winner="Ligaya"), True)
    document = export_of(client, club)
    for night in document["nights"]:
        del night["session"]["game"]
    imported = client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = client.get(f"/api/v1/clubs/{copy['id']}", headers=bearer(copy["token"])).get_json()
    original = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    assert again["balances"] == original["balances"]


def test_the_club_page_starts_a_night_of_either_game(app: Any, client: Any) -> None:
    club = make_php_club(client)
    owner = app.test_client()
    owner.get(f"/c/join/{club['id']}/{club['token']}")
    page = owner.get(f"/c/{club['id']}?lang=en").get_data(as_text=True)
    assert '<option value="tongits:classic">Classic chips</option>' in page and '<optgroup label="Tong-its">' in page
    from test_web_pages import csrf_of

    form = {"name": "Sabado", "stake": "5.00", "preset": "tongits:classic",
            "new_player": ["Ligaya", "Dodong", "Marisol"], "csrf_token": csrf_of(page)}
    started = owner.post(f"/c/{club['id']}/nights", data=form)
    assert started.status_code == 302, started.get_data(as_text=True)[:300]
    nights = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["nights"]
    assert len(nights) == 1
    token = client.post(f"/api/v1/clubs/{club['id']}/nights/{nights[0]['id']}/token",
                        headers=bearer(club["token"])).get_json()["token"]
    session = client.get(f"/api/v1/sessions/{nights[0]['id']}", headers=bearer(token)).get_json()
    assert session["game"] == "tongits" and session["ruleset"]["preset"] == "classic" and session["stake"] == 500
    assert session["players"] == ["Ligaya", "Dodong", "Marisol"]
    tonk = owner.post(f"/c/{club['id']}/nights", data=form | {"preset": "classic", "new_player": ["Ana", "Ben"]})
    assert tonk.status_code == 302
    nights = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["nights"]
    assert len(nights) == 2
    # two players cannot sit at Tong-its: the form says so, nothing is started
    refused = owner.post(f"/c/{club['id']}/nights", data=form | {"new_player": ["Ana", "Ben"]})
    assert refused.status_code == 422
    assert len(client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["nights"]) == 2
