"""Phone pages of the "nothing lost" issue, through Flask's test client on a real database:
a saved form changed into a refused entry keeps everything typed (finding 2), the start form
seats as many players as the rules allow (finding 8) and the two join doors share one budget
of guesses (finding 10). The layout findings are measured in Chromium (``tests/browser``)."""
from __future__ import annotations

import re
from typing import Any

import pytest

from test_web_pages import Table, api_session, csrf_of, error_for, errors_in, field_value, hand_form, start_night


@pytest.fixture
def night_id(client: Any, night_data: dict[str, Any]) -> str:
    return start_night(client, night_data)


def test_finding_2_changed_saved_form_refused_by_rules_shows_message(
    client: Any, night_id: str, night_data: dict[str, Any]
) -> None:
    """Save a hand, go Back, change the form into an entry the rules refuse, Save again: the
    rule's message is shown on the form with every card and total typed kept (never a 500)."""
    players = night_data["players"]
    table = Table(client, night_id)
    base = table.start()
    first = hand_form(night_data["hands"][0], players) | base | {"step": "preview", "go": "save"}
    assert table.post(first).status_code == 302
    # Back to the saved form (same key), now a dry stock where Marcus holds Dee's ace of hearts
    changed = hand_form(night_data["hands"][1], players) | base | {"step": "preview", "go": "save"}
    changed["cards-1"] = ["AH", "4S"]
    again = table.post(changed)
    page = again.get_data(as_text=True)
    assert again.status_code == 422
    assert error_for(page, "cards-1") == "The A♥ appears in Dee's hand and in Marcus's hand; a deck has only one."
    for i in range(3):
        for card in changed[f"cards-{i}"]:
            assert re.search(rf'name="cards-{i}" value="{card}"[^>]*checked', page, flags=re.S), card
    assert field_value(page, "total-3") == "4"
    dealer = changed["dealer"]
    assert f'<option value="{dealer}" selected>{players[int(dealer)]}</option>' in page  # the dealer kept
    assert api_session(client, night_id)["hand_count"] == 1
    # the form now stands for a new hand: fixed and saved, it is hand 2 and hand 1 is untouched
    assert "it will be a new hand 2" in error_for(page, "form")
    fixed = changed | {"cards-1": ["AD", "4S"], "key": field_value(page, "key"), "number": field_value(page, "number")}
    assert fixed["key"] != base["key"]
    assert table.post(fixed).status_code == 302
    state = api_session(client, night_id)
    expected = {p: night_data["hands"][0]["expected"]["net"][p] + night_data["hands"][1]["expected"]["net"][p]
                for p in players}
    assert state["hand_count"] == 2 and state["net"] == expected


# -- finding 10: one budget of code guesses per client, whichever door --------------------------------
GUESSES_PER_MINUTE = 10  # ledger.access.limits.JOIN_LIMIT's first window


def _guess_on_the_phone(client: Any, code: str, name: str = "") -> Any:
    token = csrf_of(client.get("/join").get_data(as_text=True))
    return client.post("/join", data={"csrf_token": token, "code": code, "name": name})


def test_finding_10_join_guesses_through_the_api_use_up_the_phone_door(client: Any, open_night: dict[str, Any]) -> None:
    statuses = [client.post("/api/v1/join", json={"code": f"ZZZZZ{i}"}).status_code for i in range(GUESSES_PER_MINUTE)]
    assert statuses == [404] * GUESSES_PER_MINUTE
    api = client.post("/api/v1/join", json={"code": open_night["body"]["table_code"]})
    assert api.status_code == 429 and api.get_json()["error"] == "too_many_attempts"
    # the same client at the phone door: refused, with a friendly page keeping what was typed
    code = open_night["body"]["table_code"]
    blocked = _guess_on_the_phone(client, code, "Eve")
    page = blocked.get_data(as_text=True)
    assert blocked.status_code == 429
    assert error_for(page, "code") == "Too many tries. Wait a minute, then type the code again."
    assert field_value(page, "code") == code and field_value(page, "name") == "Eve"


def test_finding_10_join_guesses_on_the_phone_use_up_the_api_door(client: Any, open_night: dict[str, Any]) -> None:
    statuses = [_guess_on_the_phone(client, f"ZZZZZ{i}").status_code for i in range(GUESSES_PER_MINUTE)]
    assert statuses == [422] * GUESSES_PER_MINUTE
    assert _guess_on_the_phone(client, "ZZZZZZ").status_code == 429
    api = client.post("/api/v1/join", json={"code": open_night["body"]["table_code"]})
    assert api.status_code == 429
    assert api.get_json() == {"error": "too_many_attempts", "message": "Too many attempts; wait a minute and try again.",
                              "field": None}


# -- finding 8: the start form seats everyone the rules allow, and drops nobody ----------------------------
SIX = ["Ana", "Ben", "Cleo", "Dev", "Eli", "Fay"]


def seat_fields(page: str) -> list[str]:
    """The names of the start form's seat inputs, in order."""
    return re.findall(r'<input id="player-\d+" name="(player-\d+)"', page)


def start_data(client: Any, names: list[str], **more: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"csrf_token": csrf_of(client.get("/").get_data(as_text=True)), "name": "Big table",
                            "stake": "0.25", "currency": "USD", "preset": "classic", "rules_base": "classic",
                            "first_dealer": "0"}
    data |= {f"player-{i}": name for i, name in enumerate(names)}
    return data | more


def test_finding_8_start_form_offers_as_many_seats_as_the_rules_allow(client: Any) -> None:
    assert seat_fields(client.get("/").get_data(as_text=True)) == [f"player-{i}" for i in range(4)]  # classic: 4
    shown = client.post("/", data=start_data(client, SIX[:2], go="rules", **{"rule-max_players": "8"}))
    page = shown.get_data(as_text=True)
    assert shown.status_code == 200
    assert seat_fields(page) == [f"player-{i}" for i in range(8)]
    assert [field_value(page, f"player-{i}") for i in range(3)] == ["Ana", "Ben", ""]


def test_finding_8_six_names_posted_under_rules_for_eight_seat_all_six(client: Any) -> None:
    response = client.post("/", data=start_data(client, SIX, **{"rule-max_players": "8", "first_dealer": "5"}))
    assert response.status_code == 302, errors_in(response.get_data(as_text=True))
    session_id = re.match(r"/s/([^/?]+)", response.headers["Location"]).group(1)
    body = api_session(client, session_id)
    assert body["players"] == SIX and body["first_dealer"] == "Fay"
    assert body["ruleset"]["max_players"] == 8


def test_finding_8_add_a_seat_without_javascript_keeps_everything_typed(client: Any) -> None:
    data = start_data(client, ["Ana", "Ben", "", "Dev"], go="add_seat", stake="0.50", first_dealer="3")
    response = client.post("/", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and not errors_in(page)
    assert seat_fields(page) == [f"player-{i}" for i in range(5)]
    assert [field_value(page, f"player-{i}") for i in range(5)] == ["Ana", "Ben", "", "Dev", ""]
    assert field_value(page, "name") == "Big table" and field_value(page, "stake") == "0.50"
    assert 'name="first_dealer" value="3" checked' in page
    # the added seat stays on the next round trip, and a second press adds another
    again = client.post("/", data=data | {"seats": field_value(page, "seats"), "player-4": "Eli"})
    again_page = again.get_data(as_text=True)
    assert seat_fields(again_page) == [f"player-{i}" for i in range(6)]
    assert field_value(again_page, "player-4") == "Eli"
    assert client.get("/").get_data(as_text=True).count("Big table") == 0  # nothing was started


def test_finding_8_more_names_than_the_rules_seat_are_refused_beside_the_seats(client: Any) -> None:
    data = start_data(client, SIX)  # classic seats at most 4
    response = client.post("/", data=data)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert error_for(page, "players") == ("These rules seat at most 4 players and 6 names are typed; "
                                          "raise “Most players” under House rules or clear a seat.")
    assert [field_value(page, f"player-{i}") for i in range(6)] == SIX
    assert client.get("/").get_data(as_text=True).count("Big table") == 0


def test_finding_8_seats_posted_beyond_those_shown_are_read(client: Any) -> None:
    """A name in a seat field the page did not show (another phone's form, a script) is seated
    or refused with a message, never dropped: here a ninth seat with a gap before it."""
    data = start_data(client, ["Ana", "Ben"], **{"rule-max_players": "3", "player-8": "Ida"})
    response = client.post("/", data=data)
    assert response.status_code == 302, errors_in(response.get_data(as_text=True))
    session_id = re.match(r"/s/([^/?]+)", response.headers["Location"]).group(1)
    assert api_session(client, session_id)["players"] == ["Ana", "Ben", "Ida"]
