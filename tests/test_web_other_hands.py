"""The record form without JavaScript (Flask's test client, real database): the optional
losers' cards of a tonk out or an out by discard, checked by the rules engine (RULES.md §8.1:
other hands are optional but validated when present; §9.1 codes), kept with the hand, never
changing the payout; and the whole entry on one page (``?whole=1``), the copy a phone keeps
to enter a hand offline."""
from __future__ import annotations

import html
import re
from typing import Any

import pytest

from test_web_pages import Table, csrf_of, error_for, flashes, start_night, table_token


def hidden_of(page: str) -> dict[str, str]:
    return {k: html.unescape(v) for k, v in re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)}


def api_hands(client: Any, session_id: str) -> list[dict[str, Any]]:
    token = table_token(client, session_id)
    response = client.get(f"/api/v1/sessions/{session_id}/hands", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    return response.get_json()["hands"]


@pytest.fixture
def night_id(client: Any, night_data: dict[str, Any]) -> str:
    return start_night(client, night_data)


def test_the_who_page_of_a_tonk_out_offers_every_hand_collapsed(client: Any, night_id: str) -> None:
    page = client.get(f"/s/{night_id}/record?kind=tonk_out").get_data(as_text=True)
    assert re.search(r'<details class="panel other-hands" id="other-hands">\s*<summary>Add the other hands’ cards '
                     r'<span class="optional">\(optional\)</span></summary>', page)
    for seat in range(4):  # drawn before a winner is picked; the page hides the winner's
        assert f'id="seat-{seat}" data-seat="{seat}" data-needs="loser"' in page
        assert f'<details class="cards" id="cards-{seat}">' in page  # each grid collapsed too
    assert 'name="total-0"' not in page  # cards only: a total alone proves nothing here


def test_a_discard_outs_losers_cards_are_checked_then_kept(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    base = table.start()
    entry = base | {"kind": "discard_out", "who": "0", "step": "who", "go": "next"}

    # the winner's hand must be empty (the engine's winner_has_cards), shown beside Dee's cards
    refused = table.post(entry | {"cards-0": ["5C"], "cards-1": ["3H", "8S"]})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert error_for(page, "cards-0") == "Dee went out, so Dee's hand must be empty."
    assert '<details class="panel other-hands" id="other-hands" open>' in page
    assert re.search(r'value="3H"[^>]*checked', page) and re.search(r'value="8S"[^>]*checked', page)

    # a card in two hands, typed: beside the typed field, text kept as typed
    refused = table.post(entry | {"cards-1": ["3H", "8S"], "typed-2": "9s 3h"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert error_for(page, "typed-2") == "The 3♥ appears in Marcus's hand and in Rosa's hand; a deck has only one."
    assert 'value="9s 3h"' in page

    # an empty hand is never sent (no cards entered means no hand); too many cards is refused
    refused = table.post(entry | {"typed-3": "2C 3C 4C 5C 6C 7C"})
    assert error_for(refused.get_data(as_text=True), "typed-3") == (
        "Tomás's hand shows 6 cards; at most 5 can be held at the end of a hand.")

    fields = entry | {"cards-1": ["3H", "8S"], "typed-2": "9S 9D"}
    preview = table.post(fields)
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "Save hand" in page
    assert re.findall(r'<span class="shown-name">([^<]*)</span>.*?<span class="shown-count">([^<]*)</span>', page, re.S) == [
        ("Marcus", "11 pts"), ("Rosa", "18 pts")]
    saved = table.post(base | {k: v for k, v in fields.items() if k not in ("step", "go")} | {"step": "preview", "go": "save"})
    assert saved.status_code == 302
    assert flashes(client.get(saved.headers["Location"]).get_data(as_text=True)) == ["Hand 1 recorded: Dee won $0.75"]

    # the same outcome without the other hands pays the same
    assert Table(client, night_id).save({"kind": "discard_out", "who": "0"}).status_code == 302
    first, second = api_hands(client, night_id)
    assert first["hands"] == {"Dee": {"cards": []}, "Marcus": {"cards": ["3H", "8S"]}, "Rosa": {"cards": ["9S", "9D"]}}
    assert second["hands"] == {"Dee": {"cards": []}}
    assert first["net"] == second["net"] == {"Dee": 75, "Marcus": -25, "Rosa": -25, "Tomás": -25}

    # the history shows the cards of the hand that has them
    history = client.get(f"/s/{night_id}/hands").get_data(as_text=True)
    first_row = history[history.index('id="hand-1"'):]  # newest first: hand 2, then hand 1
    second_row = history[history.index('id="hand-2"'):history.index('id="hand-1"')]
    assert re.findall(r'<span class="shown-name">([^<]*)</span>\s*<span class="shown-cards">(.*?)</span></li>',
                      first_row, re.S) == [
        ("Marcus", '<span class="mini red">3♥</span><span class="mini">8♠</span>'),
        ("Rosa", '<span class="mini">9♠</span><span class="mini red">9♦</span>'),
    ]
    assert "Cards entered" in first_row and "Cards entered" not in second_row


def test_a_correction_keeps_the_losers_cards(client: Any, night_id: str) -> None:
    table = Table(client, night_id)
    base = table.start()
    fields = {"kind": "tonk_out", "who": "2", "cards-0": ["KD"], "typed-3": "4S 4D"}
    preview = table.post(base | fields | {"step": "who", "go": "next"})
    assert preview.status_code == 200
    assert table.post(base | fields | {"step": "preview", "go": "save"}).status_code == 302
    page = client.get(f"/s/{night_id}/hands/1/v1/correct").get_data(as_text=True)
    hidden = re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)">', page)
    assert ("cards-0", "KD") in hidden and ("cards-3", "4S") in hidden and ("cards-3", "4D") in hidden


def test_the_whole_entry_on_one_page_goes_straight_to_the_payouts(client: Any, night_id: str) -> None:
    response = client.get(f"/s/{night_id}/record?kind=deal_tonk&whole=1")
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    assert '<form method="get" action="/s/' in page and 'data-step="whole"' in page
    assert "<h1>Tonk on the deal</h1>" in page
    assert 'name="claimant"' in page and 'id="dealer"' in page
    for seat in range(4):  # any seat may claim: the page shows the claimants' hands
        assert f'data-seat="{seat}" data-needs="claimant"' in page
    assert re.search(r'<button class="btn btn-primary" type="submit" name="go" value="next" data-offline-keep>'
                     r"Check payouts</button>", page)
    hidden = hidden_of(page)
    entry = {"key": hidden["key"], "number": hidden["number"], "kind": "deal_tonk", "step": "whole", "go": "next",
             "dealer": "3", "claimant": ["2"]}

    # a refusal comes back on the same one page, beside the hand
    refused = client.get(f"/s/{night_id}/record", query_string=entry | {"cards-2": ["JC", "KC", "10H", "KD"]})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 422 and 'data-step="whole"' in page
    assert error_for(page, "cards-2") == "Rosa's dealt hand shows 4 cards; the deal is 5 cards."

    preview = client.get(f"/s/{night_id}/record", query_string=entry | {"cards-2": ["JC", "KC", "10H", "KD", "KH"]})
    page = preview.get_data(as_text=True)
    assert preview.status_code == 200 and "Save hand" in page
    saved = client.post(f"/s/{night_id}/record", data=entry | {
        "cards-2": ["JC", "KC", "10H", "KD", "KH"], "step": "preview", "go": "save", "csrf_token": csrf_of(page)})
    assert saved.status_code == 302
    (hand,) = api_hands(client, night_id)
    assert hand["outcome"] == {"kind": "deal_tonk", "claimants": ["Rosa"]}
    assert hand["hands"] == {"Rosa": {"cards": ["JC", "KC", "10H", "KD", "KH"]}}
    assert hand["net"] == {"Dee": -50, "Marcus": -50, "Rosa": 150, "Tomás": -50}


def test_the_api_takes_the_losers_cards_as_it_always_has(client: Any, open_night: dict[str, Any]) -> None:
    """The JSON contract is unchanged: ``hands`` may hold the losers of a tonk out (§8.1), the
    engine checks them, refusals are 422 with the §9.1 code and the field, the payout ignores them."""
    url = f"/api/v1/sessions/{open_night['id']}/hands"
    outcome = {"kind": "tonk_out", "winner": "Rosa"}
    refused = client.post(url, headers=open_night["headers"], json={
        "outcome": outcome, "hands": {"Rosa": {"cards": []}, "Dee": {"cards": ["KH", "KH"]}}})
    assert refused.status_code == 422
    assert refused.get_json() == {"error": "duplicate_card", "message": "Dee's hand lists the K♥ twice; a deck has only one.",
                                  "field": "hands.Dee.cards[1]"}
    refused = client.post(url, headers=open_night["headers"], json={
        "outcome": outcome, "hands": {"Dee": {"cards": ["KH", "2C"], "total": 11}}})
    assert refused.status_code == 422 and refused.get_json()["error"] == "total_mismatch"
    recorded = client.post(url, headers=open_night["headers"], json={
        "outcome": outcome, "hands": {"Dee": {"cards": ["KH", "2C"], "total": 12}}})
    assert recorded.status_code == 201
    assert recorded.get_json()["net"] == {"Dee": -50, "Marcus": -50, "Rosa": 150, "Tomás": -50}
    (hand,) = client.get(url, headers=open_night["headers"]).get_json()["hands"]
    assert hand["hands"] == {"Dee": {"cards": ["KH", "2C"], "total": 12}}


def test_a_total_field_takes_the_rules_bounds(client: Any, night_id: str) -> None:
    """The phone refuses what the server would (a knock at five cards: 1 to 50), not 0 to 99."""
    page = client.get(f"/s/{night_id}/record?kind=knock&who=0&step=hands").get_data(as_text=True)
    fields = re.findall(r'<input id="total-(\d)" name="total-\d" type="number" inputmode="numeric" min="(\d+)" max="(\d+)"', page)
    assert fields == [(str(seat), "1", "50") for seat in range(4)], fields
