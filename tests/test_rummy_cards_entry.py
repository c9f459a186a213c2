"""Issue 25, "At the table": a 13-card rummy loser's cards entered on the record page (the card
grid's field, or typed) instead of their points: the engine finds the best arrangement and counts
them (RUMMY13.md §3.5, §4.2), two decks allow a card twice and two printed jokers; a correction
starts from the stored cards; and the offline queue's save (``Accept: application/json``) is
answered in JSON. Real database."""
from __future__ import annotations

from typing import Any

from tests.kept_figures import checked_figures_at
from tests.test_rummy13_ledger import open_rummy, rummy_night
from tests.test_rummy13_night_reads import form_of

# seats: Anoop 0, Bindu 1, Chacko 2, Devi 3 (nights/rummy13/night-01.json)
TWO_JOKERS = "3C 4C 5C 8H 9H JK JK KH KH QD JD 6S AC"  # 3♣4♣5♣, 8♥9♥+JK, J♦Q♦+JK; K♥ K♥ 6♠ A♣ = 36


def host_form(client: Any, night: dict[str, Any]) -> dict[str, str]:
    client.get(night["body"]["links"]["host"].replace("http://localhost", ""))
    return form_of(client.get(f"/s/{night['id']}/record?kind=show").get_data(as_text=True))


def cards_form(client: Any, night: dict[str, Any], bindu: str) -> dict[str, str]:
    """A show by Anoop (wild rank 2): Bindu's ``bindu`` cards, Chacko's first drop, Devi's 23."""
    return host_form(client, night) | {
        "kind": "show", "winner": "Anoop", "wild_rank": "2", "result-1": "lost", "cards-1": bindu,
        "result-2": "first_drop", "result-3": "lost", "points-3": "23"}


def hands_of(client: Any, night: dict[str, Any]) -> list[dict[str, Any]]:
    return client.get(f"/api/v1/sessions/{night['id']}/hands", headers=night["headers"]).get_json()["hands"]


def test_a_losers_cards_are_counted_by_the_engine(client: Any, database_url: str) -> None:
    data = rummy_night()
    night = open_rummy(client)
    fields = host_form(client, night)
    bindu = " ".join(data["hands"][0]["hands"]["Bindu"]["cards"]).lower()  # typed in lower case, spaced
    fields |= {"kind": "show", "winner": "Anoop", "wild_rank": "7", "result-1": "lost", "cards-1": bindu,
               "result-2": "first_drop", "result-3": "lost", "points-3": "23"}
    saved = client.post(f"/s/{night['id']}/record", data=fields)
    assert saved.status_code == 302, saved.get_data(as_text=True)[:400]
    hand = hands_of(client, night)[0]
    assert hand["points"] == data["hands"][0]["expected"]["points"]  # Bindu's 50, from her cards
    assert hand["hands"]["Bindu"]["cards"] == data["hands"][0]["hands"]["Bindu"]["cards"]
    assert hand["net"] == data["hands"][0]["expected"]["net"]
    assert checked_figures_at(database_url, night["id"]).net == data["hands"][0]["expected"]["net"]


def test_two_jokers_and_a_card_twice_from_two_decks(client: Any) -> None:
    night = open_rummy(client)
    fields = cards_form(client, night, TWO_JOKERS)
    assert client.post(f"/s/{night['id']}/record", data=fields).status_code == 302
    hand = hands_of(client, night)[0]
    assert hand["points"] == {"Anoop": 0, "Bindu": 36, "Chacko": 20, "Devi": 23}
    assert hand["net"] == {"Anoop": 50 * 79, "Bindu": -50 * 36, "Chacko": -50 * 20, "Devi": -50 * 23}
    page = client.get(f"/s/{night['id']}/record").get_data(as_text=True)
    assert page.count('data-card="JK"') == 4 and 'data-copies="2" data-jokers="2"' in page  # a grid per player


def test_a_third_copy_is_refused_with_the_engines_reason_and_nothing_saved(client: Any) -> None:
    night = open_rummy(client)
    fields = cards_form(client, night, "KH KH KH 3C 4C 5C 8H 9H 10H QD JD 6S AC")
    refused = client.post(f"/s/{night['id']}/record", data=fields)
    assert refused.status_code == 422
    body = refused.get_data(as_text=True)
    assert 'role="alert"' in body and 'value="KH KH KH 3C' in body  # kept to fix
    assert hands_of(client, night) == []


def test_a_correction_starts_from_the_stored_cards(client: Any) -> None:
    night = open_rummy(client)
    fields = cards_form(client, night, TWO_JOKERS)
    assert client.post(f"/s/{night['id']}/record", data=fields).status_code == 302
    page = client.get(f"/s/{night['id']}/hands/1/v1/correct").get_data(as_text=True)
    assert 'name="cards-1" class="rummy-card-field" autocomplete="off"' in page
    assert f'value="{TWO_JOKERS}"' in page


def test_the_offline_queues_save_is_answered_in_json(client: Any) -> None:
    night = open_rummy(client)
    fields = cards_form(client, night, TWO_JOKERS) | {"step": "preview", "go": "save"}  # as the queue sends
    json_accept = {"Accept": "application/json"}
    saved = client.post(f"/s/{night['id']}/record", data=fields, headers=json_accept)
    assert saved.status_code == 201, saved.get_data(as_text=True)[:300]
    assert saved.get_json()["number"] == 1 and saved.get_json()["created"] is True
    assert saved.get_json()["message"].startswith("Hand 1 recorded")
    again = client.post(f"/s/{night['id']}/record", data=fields, headers=json_accept)  # sent twice: once
    assert again.status_code == 200 and again.get_json()["created"] is False
    refused = client.post(f"/s/{night['id']}/record", headers=json_accept, data=fields | {
        "key": "another-key", "number": "2", "points-3": "", "cards-1": ""})
    assert refused.status_code == 422 and refused.get_json()["error"]
    assert len(hands_of(client, night)) == 1
