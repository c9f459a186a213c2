"""The hand history's live region row by row (issue 11, small live updates): when only hands
changed since the phone's version, ``/state?view=hands`` sends just those rows, the same HTML the
whole region shows for them; a payment sends no row (it changes none); anything else (a first
hand, a new page, many changes) sends the whole region."""
from __future__ import annotations

import re
from typing import Any

import pytest


CSRF = re.compile(r'name="csrf_token" value="[^"]*"')


def record(client: Any, watched_table: dict[str, Any], night_data: dict[str, Any], first: int, count: int) -> None:
    for i in range(first, first + count):
        hand = night_data["hands"][i % len(night_data["hands"])]
        response = client.post(f"/api/v1/sessions/{watched_table['id']}/hands", headers=watched_table["headers"],
                               json={"outcome": hand["outcome"], "hands": hand["hands"]})
        assert response.status_code == 201, response.get_json()


def state(watched_table: dict[str, Any], since: int | None = None) -> dict[str, Any]:
    url = f"/s/{watched_table['id']}/state?view=hands" + (f"&rows=1&since={since}" if since is not None else "")
    response = watched_table["phone"].get(url)
    assert response.status_code == 200
    return response.get_json()


def row_in_region(region: str, number: int) -> str:
    """The ``<li id="hand-N">`` of the whole region, up to the next row or the list's end."""
    rows = re.split(r'(?=<li class="hand[^"]*" id="hand-\d+">)', region)
    found = [r for r in rows if f'id="hand-{number}">' in r]
    assert len(found) == 1
    return found[0][:found[0].rindex("</li>") + len("</li>")]  # its own closing tag is its last


def same_html(row: str, region: str, number: int) -> None:
    assert CSRF.sub("csrf", row).strip() == CSRF.sub("csrf", row_in_region(region, number)).strip()


def test_a_hand_recorded_sends_only_its_row(client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]) -> None:
    record(client, watched_table, night_data, 0, 3)
    version = state(watched_table)["version"]
    record(client, watched_table, night_data, 3, 1)
    body = state(watched_table, version)
    assert "regions" not in body and body["changed"] is True
    assert [row["number"] for row in body["rows"]] == [4]
    assert 'id="hand-4"' in body["rows"][0]["html"] and 'id="hand-3"' not in body["rows"][0]["html"]
    same_html(body["rows"][0]["html"], state(watched_table)["regions"]["main"], 4)


def test_a_void_and_a_correction_send_those_rows(client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]) -> None:
    record(client, watched_table, night_data, 0, 5)
    version = state(watched_table)["version"]
    assert client.post(f"/api/v1/sessions/{watched_table['id']}/hands/2/void", headers=watched_table["headers"]).status_code == 200
    hand = night_data["hands"][4]
    amended = client.post(f"/api/v1/sessions/{watched_table['id']}/hands/4/amend", headers=watched_table["headers"],
                          json={"version": 1, "outcome": hand["outcome"], "hands": hand["hands"], "dealer": "Dee"})
    assert amended.status_code == 201, amended.get_json()
    body = state(watched_table, version)
    assert [row["number"] for row in body["rows"]] == [2, 4]
    void_row, corrected_row = (row["html"] for row in body["rows"])
    assert "is-void" in void_row and "Dealt by Dee" in corrected_row and "1 earlier version" in corrected_row
    region = state(watched_table)["regions"]["main"]
    same_html(void_row, region, 2)
    same_html(corrected_row, region, 4)


def pay(client: Any, watched_table: dict[str, Any], amount: int) -> int:
    paid = client.post(f"/api/v1/sessions/{watched_table['id']}/payments",
                       headers=watched_table["headers"] | {"X-Device": "score keeper's laptop"},
                       json={"from": "Dee", "to": "Tomás", "amount": amount, "confirm": True})
    assert paid.status_code == 201, paid.get_json()
    return int(paid.get_json()["id"])


def test_a_payment_sends_no_row_and_its_news(client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]) -> None:
    """A payment changes no hand: the page is told so (no rows, no region), with the news."""
    record(client, watched_table, night_data, 0, 3)
    version = state(watched_table)["version"]
    pay(client, watched_table, 25)
    body = state(watched_table, version)
    assert body["changed"] is True and body["rows"] == [] and "regions" not in body
    assert body["version"] > version and len(body["news"]) == 1 and "Dee" in body["news"][0]
    # beside a hand recorded, only that hand's row comes
    version = body["version"]
    record(client, watched_table, night_data, 3, 1)
    pay(client, watched_table, 50)
    assert [row["number"] for row in state(watched_table, version)["rows"]] == [4]


@pytest.mark.parametrize("change", ["first hand", "new page", "many hands"])
def test_other_changes_send_the_whole_region(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any], change: str
) -> None:
    before = {"first hand": 0, "new page": 50, "many hands": 20}[change]
    record(client, watched_table, night_data, 0, before)
    version = state(watched_table)["version"]
    record(client, watched_table, night_data, before, 11 if change == "many hands" else 1)
    body = state(watched_table, version)
    assert "rows" not in body and "data-live-rows" in body["regions"]["main"]
    if change == "new page":
        assert "Page 1 of 2" in body["regions"]["main"]


def test_rows_of_hands_past_page_one_are_not_sent(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    record(client, watched_table, night_data, 0, 60)
    version = state(watched_table)["version"]
    assert client.post(f"/api/v1/sessions/{watched_table['id']}/hands/3/void", headers=watched_table["headers"]).status_code == 200
    assert client.post(f"/api/v1/sessions/{watched_table['id']}/hands/59/void", headers=watched_table["headers"]).status_code == 200
    body = state(watched_table, version)
    assert [row["number"] for row in body["rows"]] == [59]  # hand 3 is on page 2, which does not follow


def test_a_page_that_does_not_ask_for_rows_gets_the_whole_region(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    """A tab opened before rows came (its script does not send ``rows=1``) keeps following."""
    record(client, watched_table, night_data, 0, 3)
    version = state(watched_table)["version"]
    record(client, watched_table, night_data, 3, 1)
    old_tab = watched_table["phone"].get(f"/s/{watched_table['id']}/state?view=hands&since={version}").get_json()
    assert "rows" not in old_tab and 'id="hand-4"' in old_tab["regions"]["main"]


def test_rows_come_with_the_same_news_as_the_whole_region(
    client: Any, watched_table: dict[str, Any], night_data: dict[str, Any]
) -> None:
    """The news beside rows are told from the changes the rows were read from: the newest three
    that another phone made, newest last, the same words a poll for the whole region gets."""
    record(client, watched_table, night_data, 0, 2)
    version = state(watched_table)["version"]
    for i in range(2, 7):
        hand = night_data["hands"][i]
        response = client.post(f"/api/v1/sessions/{watched_table['id']}/hands", json={"outcome": hand["outcome"], "hands": hand["hands"]},
                               headers=watched_table["headers"] | {"X-Device": "score keeper's laptop"})
        assert response.status_code == 201
    by_rows = state(watched_table, version)
    assert [row["number"] for row in by_rows["rows"]] == [3, 4, 5, 6, 7]
    assert [line.split(":")[0] for line in by_rows["news"]] == ["Hand 5 recorded", "Hand 6 recorded", "Hand 7 recorded"]
    whole = watched_table["phone"].get(f"/s/{watched_table['id']}/state?view=hands&since={version}").get_json()
    assert "rows" not in whole and whole["news"] == by_rows["news"]
    # this phone's own change is among the newest three: it is left out, not replaced by an older one
    before_own = state(watched_table)["version"]
    record(client, watched_table, night_data, 7, 1)  # the phone's own key, no other device named
    hand = night_data["hands"][8]
    response = client.post(f"/api/v1/sessions/{watched_table['id']}/hands", json={"outcome": hand["outcome"], "hands": hand["hands"]},
                           headers=watched_table["headers"] | {"X-Device": "score keeper's laptop"})
    assert response.status_code == 201
    mixed = state(watched_table, version)  # hands 3 to 9 since: seven changes, the newest three are 7, 8 (own), 9
    assert [line.split(":")[0] for line in mixed["news"]] == ["Hand 7 recorded", "Hand 9 recorded"]
    assert [line.split(":")[0] for line in state(watched_table, before_own)["news"]] == ["Hand 9 recorded"]
