"""A hand names the table it was entered against (issue 20, items 1 and 2): the seating and the
stake the phone showed travel with the entry, and a hand whose table changed before it was
stored (a sit-in, a leave, a stake change while the phone was filling it or kept it offline) is
refused with 409 ``table_changed`` naming both, never paid to other players or at another stake."""
from __future__ import annotations

import re
from typing import Any

from small_nights import ann_bob_cat
from test_web_pages import api_session, csrf_of
from test_web_rules import ABC, Phone, start, stored_hand, text_of


def _hands(client: Any, night: dict[str, Any]) -> list[dict[str, Any]]:
    return client.get(f"{night['url']}/hands", headers=night["headers"]).get_json()["hands"]


def _bob_tonks(client: Any, night: dict[str, Any], seen: dict[str, Any]) -> Any:
    return client.post(f"{night['url']}/hands", headers=night["headers"],
                       json={"outcome": {"kind": "tonk_out", "winner": "Bob"}, "seen": seen})


def test_a_hand_entered_before_the_winner_left_is_refused_naming_both_seatings(client: Any) -> None:
    night = ann_bob_cat(client)
    left = client.post(f"{night['url']}/players/leave", headers=night["headers"],
                       json={"name": "Bob", "settle": "at_end"})
    assert left.status_code == 200, left.get_json()
    refused = _bob_tonks(client, night, {"players": ["Ann", "Bob", "Cat"], "stake": 25})
    assert refused.status_code == 409
    body = refused.get_json()
    assert body["error"] == "table_changed" and body["field"] is None
    assert body["changed"] == {"players": {"seen": ["Ann", "Bob", "Cat"], "now": ["Ann", "Cat"]}}
    assert body["message"] == ("The seating changed since this hand was entered: it was entered for Ann, Bob and "
                               "Cat, and the table is now Ann and Cat. Check the hand against the table as it "
                               "is now and enter it again.")
    assert _hands(client, night) == []


def test_a_hand_entered_before_someone_sat_in_is_refused_not_charged_to_the_newcomer(client: Any) -> None:
    night = ann_bob_cat(client)
    seated = client.post(f"{night['url']}/players", headers=night["headers"], json={"name": "Quinn"})
    assert seated.status_code == 201, seated.get_json()
    refused = _bob_tonks(client, night, {"players": ["Ann", "Bob", "Cat"], "stake": 25})
    assert refused.status_code == 409 and refused.get_json()["error"] == "table_changed"
    assert refused.get_json()["changed"]["players"]["now"] == seated.get_json()["players"]
    assert _hands(client, night) == []
    net = client.get(night["url"], headers=night["headers"]).get_json()["net"]
    assert net.get("Quinn", 0) == 0 and net["Bob"] == 0


def test_a_hand_kept_at_the_old_stake_is_never_repriced(client: Any) -> None:
    night = ann_bob_cat(client)
    changed = client.post(f"{night['url']}/stake", headers=night["headers"], json={"stake": 100})
    assert changed.status_code == 200, changed.get_json()
    refused = _bob_tonks(client, night, {"players": ["Ann", "Bob", "Cat"], "stake": 25})
    assert refused.status_code == 409
    body = refused.get_json()
    assert body["changed"] == {"stake": {"seen": 25, "now": 100}}
    assert "entered at 0.25 USD, and the stake is now 1.00 USD" in body["message"]
    assert _hands(client, night) == []
    # entered against the table as it is now, it is recorded, at the stake the phone showed
    recorded = _bob_tonks(client, night, {"players": ["Ann", "Bob", "Cat"], "stake": 100})
    assert recorded.status_code == 201, recorded.get_json()
    assert recorded.get_json()["net"] == {"Ann": -200, "Bob": 400, "Cat": -200}


def test_a_client_that_does_not_say_what_it_saw_is_recorded_as_before(client: Any) -> None:
    night = ann_bob_cat(client)
    assert client.post(f"{night['url']}/stake", headers=night["headers"], json={"stake": 100}).status_code == 200
    recorded = client.post(f"{night['url']}/hands", headers=night["headers"],
                           json={"outcome": {"kind": "tonk_out", "winner": "Bob"}})
    assert recorded.status_code == 201 and recorded.get_json()["net"]["Bob"] == 400


def test_a_seen_table_that_is_no_table_is_refused_naming_the_field(client: Any) -> None:
    night = ann_bob_cat(client)
    for seen, field in (({"players": [], "stake": 25}, "seen.players"), ({"players": ["Ann"], "stake": -1}, "seen.stake"),
                        ({"players": ["Ann"], "stake": 25, "extra": 1}, "seen.extra")):
        refused = _bob_tonks(client, night, seen)
        assert refused.status_code == 422, seen
        assert refused.get_json()["error"] == "invalid_entry" and refused.get_json()["field"] == field


# -- the phone's record form, without JavaScript ------------------------------------------------------
def _host_post(client: Any, session_id: str, path: str, **fields: str) -> None:
    token = csrf_of(client.get(f"/s/{session_id}/seats").get_data(as_text=True))
    done = client.post(f"/s/{session_id}/seats/{path}", data={"csrf_token": token, **fields})
    assert done.status_code == 302, text_of(done.get_data(as_text=True))[:400]


def _filled_tonk_out(client: Any, session_id: str, winner_seat: str) -> Phone:
    phone = Phone(client, session_id).open()
    phone.outcome("tonk_out").next(who=winner_seat)  # B (seat 1 at the table the phone shows)
    assert phone.status == 200 and "Save hand" in phone.page, text_of(phone.page)[:600]
    return phone


def test_the_form_names_the_winner_it_showed_after_the_winner_left(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    phone = _filled_tonk_out(client, session_id, "1")  # B tonked out
    token = csrf_of(client.get(f"/s/{session_id}/seats").get_data(as_text=True))
    shown = client.post(f"/s/{session_id}/seats/leave", data={"csrf_token": token, "name": "B"})
    quote = re.search(r'name="quote" value="([^"]+)"', shown.get_data(as_text=True))
    assert quote
    _host_post(client, session_id, "leave", name="B", settle="at_end", confirmed="yes", quote=quote.group(1))
    phone.press(("go", "save"))
    assert phone.status == 409, text_of(phone.page)[:900]  # not "C tonked out", the seat B had
    words = text_of(phone.page)
    assert ("The seating changed since this hand was entered: it was entered for A, B and C, "
            "and the table is now A and C.") in words
    assert api_session(client, session_id)["hand_count"] == 0
    # shown again at the table as it is now: B's choice is gone with B, so it asks who went out
    assert "Who tonked out?" in words and "Please check who went out" in words
    assert re.findall(r'name="who" value="(\d+)"', phone.page) == ["0", "1"]  # A and C


def test_the_form_kept_at_the_old_stake_is_refused_then_saved_at_the_stake_it_shows(client: Any) -> None:
    session_id = start(client, ABC, "0.25")
    phone = _filled_tonk_out(client, session_id, "1")
    _host_post(client, session_id, "stake", stake="1.00")
    phone.press(("go", "save"))
    assert phone.status == 409
    words = text_of(phone.page)
    assert "it was entered at 0.25 USD, and the stake is now 1.00 USD" in words
    assert re.search(r"\$4\.00", words)  # the payouts shown again are at the stake now, to check
    phone.press(("go", "save"))  # the player checked them: saved at the stake the page showed
    assert phone.status == 302
    hand = stored_hand(client, session_id, 1)
    assert hand["stake"] == 100 and hand["net"] == {"A": -200, "B": 400, "C": -200}


def test_a_step_filled_against_a_seating_that_changed_is_shown_at_the_table_now(client: Any) -> None:
    """The offline queue's "Fix and save" (and any step of a form left open while the host seats
    someone) opens a step with the seating it was filled against: it is shown at the table now
    with what changed, never rendered against the old seats (a 500 once) or saved for another."""
    session_id = start(client, ABC, "0.25")
    token = csrf_of(client.get(f"/s/{session_id}/seats").get_data(as_text=True))
    shown = client.post(f"/s/{session_id}/seats/leave", data={"csrf_token": token, "name": "B"})
    quote = re.search(r'name="quote" value="([^"]+)"', shown.get_data(as_text=True))
    assert quote
    _host_post(client, session_id, "leave", name="B", settle="at_end", confirmed="yes", quote=quote.group(1))
    step = client.get(f"/s/{session_id}/record", query_string={
        "seats": '["A", "B", "C"]', "seen_stake": "25", "kind": "tonk_out", "who": "1", "dealer": "2",
        "number": "1", "key": "kept-on-the-phone-1", "step": "preview", "go": "next"})
    assert step.status_code == 409, text_of(step.get_data(as_text=True))[:600]
    page = step.get_data(as_text=True)
    assert ("The seating changed since this hand was entered: it was entered for A, B and C, "
            "and the table is now A and C.") in text_of(page)
    assert re.findall(r'name="who" value="(\d+)"', page) == ["0", "1"]  # A and C; B's choice went with B
    assert api_session(client, session_id)["hand_count"] == 0
