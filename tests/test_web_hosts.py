"""No single point of failure on the phone pages: the recovery code shown once and printed in
the host's PDF only, each phone that opens a link gets its own token, the host makes it a
co-host, a new phone recovers the host's rights, a voided hand is restored, an undo redone."""
from __future__ import annotations

import html
import io
import re
from typing import Any

import pytest
from pypdf import PdfReader

from test_web_pages import Table, csrf_of, flashes, hand_form, start_night
from test_web_sharing import phone_joined, share_panel


def recovery_code_on(page: str) -> str | None:
    match = re.search(r'id="recovery-code">([^<]+)<', page)
    return html.unescape(match.group(1)) if match else None


def pdf_text(client: Any, session_id: str) -> str:
    response = client.get(f"/s/{session_id}/summary.pdf")
    assert response.status_code == 200
    return " ".join(page.extract_text() for page in PdfReader(io.BytesIO(response.data)).pages)


@pytest.fixture
def host(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    session_id = start_night(client, night_data)
    page = client.get(f"/s/{session_id}?share=1").get_data(as_text=True)
    return {"client": client, "id": session_id, "page": page, "share": share_panel(page)}


def test_recovery_code_is_shown_once_and_printed_in_the_hosts_pdf_only(
    host: dict[str, Any], night_data: dict[str, Any]
) -> None:
    code = recovery_code_on(host["page"])
    assert code and re.fullmatch(r"[A-Z2-9]{4}(-[A-Z2-9]{4}){3}", code)
    again = host["client"].get(f"/s/{host['id']}?share=1").get_data(as_text=True)
    assert recovery_code_on(again) is None  # shown once
    Table(host["client"], host["id"]).save(hand_form(night_data["hands"][0], night_data["players"]))
    text = pdf_text(host["client"], host["id"])
    assert code in text and "Classic" in text and "+$1.50" in text
    player = phone_joined(host["client"], host["share"]["player"])
    assert code not in pdf_text(player, host["id"])


def test_a_phone_opening_the_player_link_gets_its_own_token_and_can_be_made_co_host(
    host: dict[str, Any], night_data: dict[str, Any]
) -> None:
    player = phone_joined(host["client"], host["share"]["player"])
    again = player.get(re.sub(r"^https?://[^/]+", "", host["share"]["player"]))  # the same phone, twice
    assert again.status_code == 302
    phones = host["client"].get(f"/s/{host['id']}/phones").get_data(as_text=True)
    ids = re.findall(r'id="phone-(\d+)"', phones)
    assert len(ids) == 2  # the host's and this one, not one per visit
    assert "this phone" in phones.split(f'id="phone-{ids[0]}"')[1].split("</li>")[0]
    Table(player, host["id"]).save(hand_form(night_data["hands"][0], night_data["players"]))
    player_table = player.get(f"/s/{host['id']}/record").get_data(as_text=True)
    refused = player.post(f"/s/{host['id']}/hands/1/void", data={"confirmed": "yes", "csrf_token": csrf_of(player_table)})
    assert refused.status_code == 403
    assert '/host"' not in player.get(f"/s/{host['id']}/phones").get_data(as_text=True)  # no button

    promoted = host["client"].post(f"/s/{host['id']}/phones/{ids[1]}/host", data={"csrf_token": csrf_of(phones)})
    assert promoted.status_code == 302
    assert flashes(host["client"].get(promoted.headers["Location"]).get_data(as_text=True))[0].endswith(
        "is now a co-host: it can correct, void, restore, undo and close.")
    history = player.get(f"/s/{host['id']}/hands").get_data(as_text=True)
    assert "Void hand 1" in history
    voided = player.post(f"/s/{host['id']}/hands/1/void", data={"confirmed": "yes", "csrf_token": csrf_of(history)})
    assert voided.status_code == 302
    # the co-host does not see the table's links: they derive from the host's own token
    assert 'id="table-link"' not in player.get(f"/s/{host['id']}").get_data(as_text=True)


def test_the_recovery_code_makes_a_new_phone_the_host(host: dict[str, Any], client: Any) -> None:
    code = recovery_code_on(host["page"])
    assert code
    new_phone = client.application.test_client()
    form = new_phone.get("/recover").get_data(as_text=True)
    wrong = new_phone.post("/recover", data={"code": "AAAA-AAAA-AAAA-AAAA", "csrf_token": csrf_of(form)})
    assert wrong.status_code == 422
    assert "not a recovery code" in wrong.get_data(as_text=True)
    done = new_phone.post("/recover", data={"code": code.lower(), "csrf_token": csrf_of(form)})
    assert done.status_code == 302 and done.headers["Location"] == f"/s/{host['id']}"
    table = new_phone.get(f"/s/{host['id']}").get_data(as_text=True)
    # the host's own link is never handed out: no links here until this phone makes new ones
    assert 'id="table-link"' not in table
    log = new_phone.get(f"/s/{host['id']}/log").get_data(as_text=True)
    assert "Host recovered" in log


def test_a_voided_hand_is_restored_and_an_undo_redone(host: dict[str, Any], night_data: dict[str, Any]) -> None:
    client, session_id = host["client"], host["id"]
    table = Table(client, session_id)
    table.save(hand_form(night_data["hands"][0], night_data["players"]))
    table.save(hand_form(night_data["hands"][1], night_data["players"]))
    history = client.get(f"/s/{session_id}/hands").get_data(as_text=True)
    client.post(f"/s/{session_id}/hands/1/void", data={"confirmed": "yes", "csrf_token": csrf_of(history)})
    history = client.get(f"/s/{session_id}/hands").get_data(as_text=True)
    assert "Restore hand 1" in history and "Restore hand 2" not in history
    restored = client.post(f"/s/{session_id}/hands/1/restore", data={"csrf_token": csrf_of(history)})
    assert restored.status_code == 302
    page = client.get(f"/s/{session_id}/hands").get_data(as_text=True)
    assert flashes(page) == ["Hand 1 restored; it counts again."]
    assert "Restore hand 1" not in page

    tablepage = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert 'id="redo-undo"' not in tablepage
    client.post(f"/s/{session_id}/undo", data={"confirmed": "yes", "number": "2", "csrf_token": csrf_of(tablepage)})
    tablepage = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert "Redo: count hand 2 again" in tablepage
    redone = client.post(f"/s/{session_id}/redo", data={"csrf_token": csrf_of(tablepage)})
    assert redone.status_code == 302
    tablepage = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert flashes(tablepage) == ["Hand 2 counts again."]
    assert 'id="redo-undo"' not in tablepage
    log = client.get(f"/s/{session_id}/log").get_data(as_text=True)
    assert log.count("Hand 2 restored") == 1 and log.count("Hand 1 restored") == 1


def test_a_page_kept_for_offline_use_leaves_messages_and_cookie_alone(host: dict[str, Any]) -> None:
    client, session_id = host["client"], host["id"]
    client.get(f"/s/{session_id}/share")  # nothing flashed now
    with client.session_transaction() as cookie:
        cookie["_flashes"] = [("success", "Hand 9 recorded: a message for the real page")]
    copy = client.get(f"/s/{session_id}/record?kind=knock", headers={"X-Offline-Copy": "1"})
    assert copy.status_code == 200 and "Set-Cookie" not in copy.headers
    assert "a message for the real page" not in copy.get_data(as_text=True)
    page = client.get(f"/s/{session_id}").get_data(as_text=True)
    assert flashes(page) == ["Hand 9 recorded: a message for the real page"]


def test_a_live_poll_never_rewrites_the_cookie(host: dict[str, Any]) -> None:
    """A /state poll still on the wire when Save is tapped must not put back the cookie as it was
    before the save: that dropped the "Hand N recorded" message in a CI run. Only a request that
    changes the session writes the cookie."""
    client, session_id = host["client"], host["id"]
    page = client.get(f"/s/{session_id}")
    assert page.status_code == 200
    with client.session_transaction() as cookie:
        assert cookie.permanent  # the host's token is remembered for a month
    poll = client.get(f"/s/{session_id}/state?since=0", headers={"Accept": "application/json"})
    assert poll.status_code == 200 and "Set-Cookie" not in poll.headers
    with client.session_transaction() as cookie:
        cookie["_flashes"] = [("success", "Hand 3 recorded: shown once")]
    shown = client.get(f"/s/{session_id}")
    assert "Set-Cookie" in shown.headers  # the message was taken out of the cookie
    assert flashes(shown.get_data(as_text=True)) == ["Hand 3 recorded: shown once"]
