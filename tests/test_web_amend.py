"""The host corrects a recorded hand from the phone: the record flow opens filled from the
stored entry, the correction becomes version 2 (version 1 kept), a correction that lost a race
with another phone shows both versions, and only the host may correct."""
from __future__ import annotations

import html
import re
from typing import Any

import ledger.web.amend  # noqa: F401  (registers the route before the app is built)
from test_web_pages import api_session, balances_shown, csrf_of, errors_in, flashes, table_token
from test_web_rules import ABC, Phone, payments_shown, start, stored_hand


def api(client: Any, session_id: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {host_token(client, session_id)}"}


def host_token(client: Any, session_id: str) -> str:
    with client.session_transaction() as cookie:
        return cookie["tokens"][session_id]


def correct_url(session_id: str, number: int, version: int) -> str:
    return f"/s/{session_id}/hands/{number}/v{version}/correct"


def record_caught_knock(client: Any, session_id: str) -> None:
    """RULES.md §10 example 2 under classic, S = 25: A −100, B +75, C +25."""
    phone = Phone(client, session_id).open().outcome("knock").next(who="0")
    phone.next(**{"cards-0": ["9S", "8H"], "cards-1": ["2C", "3H"], "total-2": "15"})
    assert balances_shown(phone.page) == {"A": "-$1.00", "B": "+$0.75", "C": "+$0.25"}, errors_in(phone.page)
    phone.press(("go", "save"))
    assert phone.status == 302


def test_correct_a_hand_through_the_record_flow(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    record_caught_knock(client, session_id)

    phone = Phone(client, session_id).open(correct_url(session_id, 1, 1))
    assert "Correcting hand 1 (version 1)" in phone.page
    assert re.search(r'class="btn choice is-current" type="submit" name="kind" value="knock"', phone.page)
    phone.outcome("knock")
    assert re.search(r'<input type="radio" name="who" value="0" checked>', phone.page)  # the knocker, pre-filled
    assert '<option value="0" selected>A</option>' in phone.page  # the dealer
    assert phone.heading() == "Knock (drop)"  # who knocked, the dealer and the hands: one page
    for card in ("9S", "8H"):
        assert re.search(rf'name="cards-0" value="{card}"[^>]*checked', phone.page)
    assert re.search(r'name="total-2" type="number"[^>]*value="15"', phone.page, flags=re.S)

    # The fix: C actually held 4, so C (not B) is the low player.
    phone.next(**{"total-2": "4"})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    # classic, S = 25: A pays 2S to B and to C (both at or below 17); B pays S to C (the low)
    assert payments_shown(phone.page) == [("A", "B", "$0.50"), ("A", "C", "$0.50"), ("B", "C", "$0.25")]
    assert "Save correction to hand 1" in phone.page
    phone.press(("go", "save"))
    assert phone.status == 302 and phone.location.endswith(f"/s/{session_id}/hands#hand-1")
    page = client.get(f"/s/{session_id}/hands").get_data(as_text=True)
    assert "Hand 1 corrected (version 2): C won $0.75" in flashes(page)

    versions = client.get(f"/api/v1/sessions/{session_id}/hands/1/versions", headers=api(client, session_id)).get_json()
    assert [(v["version"], v["status"]) for v in versions["versions"]] == [(1, "superseded"), (2, "counted")]
    assert versions["versions"][0]["net"] == {"A": -100, "B": 75, "C": 25}
    assert versions["versions"][1]["net"] == {"A": -100, "B": 25, "C": 75}
    assert versions["versions"][1]["hands"]["C"] == {"total": 4}
    assert api_session(client, session_id)["net"] == {"A": -100, "B": 25, "C": 75}


def test_a_correction_keeps_the_side_pot(client: Any) -> None:
    session_id = start(client, ABC, "1.00", preset="wikipedia", **{"rule-spade_side_pot": ["false", "true"]})
    phone = Phone(client, session_id).open().outcome("knock").next(who="0")
    phone.next(**{"total-0": "3", "total-1": "9", "total-2": "20"})
    phone.next(side_stake="0.50", **{"spade-0": "9S", "spade-1": "QS", "spade-2": ""}).press(("go", "save"))
    assert phone.status == 302

    phone = Phone(client, session_id).open(correct_url(session_id, 1, 1)).outcome("knock").next()
    assert phone.heading() == "Spade side pot"
    assert re.search(r'id="sp-1-QS" name="spade-1" value="QS"\s+aria-label="Queen of spades" checked', phone.page)
    assert re.search(r'id="side_stake" name="side_stake"[^>]*value="0.50"', phone.page)
    # the fix: C had the K♠ (§10 example 7 with C taking the side pot): A and B each pay C 50
    phone.next(**{"spade-2": "KS"})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    assert balances_shown(phone.page) == {"A": "+$1.50", "B": "-$1.50", "C": "$0.00"}
    phone.press(("go", "save"))
    stored = stored_hand(client, session_id, 1)
    assert stored["version"] == 2
    assert stored["side_bets"] == {"spade": {"side_stake": 50, "highest_spade": {"A": "9S", "B": "QS", "C": "KS"}}}
    assert stored["net"] == {"A": 150, "B": -150, "C": 0}


def test_a_stale_correction_shows_both_versions(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    record_caught_knock(client, session_id)
    phone = Phone(client, session_id).open(correct_url(session_id, 1, 1)).outcome("knock").next()
    phone.next(**{"total-2": "4"})
    assert phone.heading() == "Check payouts"

    # Meanwhile another phone corrects hand 1 first (B held 12, not 5): now version 2.
    other = client.post(f"/api/v1/sessions/{session_id}/hands/1/amend", headers=api(client, session_id), json={
        "version": 1, "outcome": {"kind": "knock", "knocker": "A"},
        "hands": {"A": {"total": 17}, "B": {"total": 12}, "C": {"total": 15}}})
    assert other.status_code == 201, other.get_json()

    phone.press(("go", "save"))
    assert phone.status == 409
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", phone.page)))
    assert "Not saved: the hand changed on another phone" in text
    assert "Hand 1 was changed on another phone (now version 2)" in text
    assert "#1 v2 A knocked with 17 and was caught by B" in text  # theirs
    assert "Your correction" in text and "A knocked with 17 and was caught by C" in text  # mine, not saved
    assert f'href="{correct_url(session_id, 1, 2)}"' in phone.page and "Start again from version 2" in text
    assert 'value="save"' not in phone.page
    versions = client.get(f"/api/v1/sessions/{session_id}/hands/1/versions", headers=api(client, session_id)).get_json()
    assert len(versions["versions"]) == 2

    # An old link opens with the notice too; starting again from version 2 works.
    old = Phone(client, session_id).open(correct_url(session_id, 1, 1))
    assert "This is not the current version" in old.page
    again = Phone(client, session_id).open(correct_url(session_id, 1, 2)).outcome("knock").next()
    again.next(**{"total-1": "5", "total-2": "4"}).press(("go", "save"))
    assert again.status == 302
    assert stored_hand(client, session_id, 1)["version"] == 3


def test_only_the_host_corrects(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    record_caught_knock(client, session_id)
    player = client.application.test_client()
    assert player.get(f"/join/{session_id}/{table_token(client, session_id)}").status_code == 302
    assert player.get(f"/s/{session_id}").status_code == 200
    assert player.get(correct_url(session_id, 1, 1)).status_code == 403
    token = csrf_of(player.get(f"/s/{session_id}/record").get_data(as_text=True))
    assert player.post(correct_url(session_id, 1, 1), data={"csrf_token": token, "kind": "knock"}).status_code == 403
    assert client.get(correct_url(session_id, 9, 1)).status_code == 404
    assert client.get(correct_url(session_id, 1, 7)).status_code == 404  # no such version


def test_a_void_hand_cannot_be_corrected(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    record_caught_knock(client, session_id)
    headers = api(client, session_id)
    assert client.post(f"/api/v1/sessions/{session_id}/hands/1/void", headers=headers).status_code == 200
    response = client.get(correct_url(session_id, 1, 1))
    assert response.status_code == 302 and response.headers["Location"] == f"/s/{session_id}/hands#hand-1"  # back at its row
    page = client.get(f"/s/{session_id}/hands").get_data(as_text=True)
    assert "Hand 1 is void; record a new hand instead." in flashes(page)


def test_finding_3_a_correction_form_posted_again_with_other_content_offers_a_new_correction(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    record_caught_knock(client, session_id)
    phone = Phone(client, session_id).open(correct_url(session_id, 1, 1)).outcome("knock").next()
    phone.next(**{"total-2": "4"})
    assert phone.heading() == "Check payouts", errors_in(phone.page)
    saved_page = phone.page
    phone.press(("go", "save"))
    assert phone.status == 302

    # Back to the saved form, C's total changed again, saved again: a different correction.
    again = Phone(client, session_id)
    again.page = saved_page
    again.press(("go", "save"), **{"total-2": "2"})
    assert again.status == 409
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", again.page)))
    assert "already corrected" not in text
    assert "That correction form already saved version 2 of hand 1" in text
    assert "Save as a new correction" in text
    assert again.action()[1] == correct_url(session_id, 1, 2)  # corrects the current version
    assert re.search(r'name="total-2" value="2"', again.page)  # what was typed is kept
    old_key = re.search(r'name="key" value="([^"]+)"', saved_page)
    new_key = re.search(r'name="key" value="([^"]+)"', again.page)
    assert old_key and new_key and old_key.group(1) != new_key.group(1)
    assert stored_hand(client, session_id, 1)["version"] == 2  # nothing saved yet

    again.press(("go", "save"))
    assert again.status == 302
    stored = stored_hand(client, session_id, 1)
    assert stored["version"] == 3 and stored["hands"]["C"] == {"total": 2}

    # The very same correction sent again is saved once, not twice.
    repeat = Phone(client, session_id)
    repeat.page = saved_page
    repeat.press(("go", "save"))
    assert repeat.status == 302
    page = client.get(f"/s/{session_id}/hands").get_data(as_text=True)
    assert "Hand 1 was already corrected (saved once, not twice)." in flashes(page)
    assert stored_hand(client, session_id, 1)["version"] == 3
