"""Several phones at one table through the pages: the host shares a player link, a watch-only
link and a table code; each phone acts with its role; two phones entering the same hand see a
conflict instead of double-counting; payments marked at settle-up shrink the plan."""
from __future__ import annotations

import html
import re
from typing import Any

import pytest

from test_web_pages import Table, csrf_of, error_for, flashes, hand_form, plan_lines, start_night


def share_panel(page: str) -> dict[str, str]:
    def grab(pattern: str) -> str:
        match = re.search(pattern, page)
        assert match, pattern
        return html.unescape(match.group(1))

    return {
        "player": grab(r'id="table-link"[^>]*value="([^"]+)"'),
        "viewer": grab(r'id="viewer-link"[^>]*value="([^"]+)"'),
        "code": grab(r'id="table-code" data-code="([^"]+)"'),
        "shown_code": grab(r'id="table-code" data-code="[^"]+">([^<]+)<'),
    }


@pytest.fixture
def host(client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    session_id = start_night(client, night_data)
    page = client.get(f"/s/{session_id}?share=1").get_data(as_text=True)
    return {"client": client, "id": session_id, "share": share_panel(page)}


def phone_joined(client: Any, link: str) -> Any:
    phone = client.application.test_client()
    path = re.sub(r"^https?://[^/]+", "", link)
    assert phone.get(path).status_code == 302
    return phone


def test_the_host_shares_a_player_link_not_its_own_key(host: dict[str, Any]) -> None:
    share = host["share"]
    assert re.fullmatch(rf"http://localhost/join/{host['id']}/[\w-]+", share["player"])
    assert re.fullmatch(r"[A-Z2-9]{6}", share["code"])
    assert share["shown_code"] == f"{share['code'][:3]} {share['code'][3:]}"  # grouped to read aloud
    body = host["client"].get(f"/api/v1/sessions/{host['id']}/share",
                              headers={"Authorization": f"Bearer {share['player'].rsplit('/', 1)[1]}"})
    assert body.status_code == 403  # the shared link is a player's, which cannot see the host's secrets


def test_a_player_records_but_only_the_host_voids_and_closes(host: dict[str, Any], night_data: dict[str, Any]) -> None:
    player = phone_joined(host["client"], host["share"]["player"])
    table = player.get(f"/s/{host['id']}").get_data(as_text=True)
    assert 'id="record-hand"' in table and "This phone joined as a player." in table
    assert 'id="table-link"' not in table  # only the host shares
    saved = Table(player, host["id"]).save(hand_form(night_data["hands"][0], night_data["players"]))
    assert saved.status_code == 302

    history = player.get(f"/s/{host['id']}/hands").get_data(as_text=True)
    assert "Void hand" not in history
    token = csrf_of(player.get("/").get_data(as_text=True))
    refused = player.post(f"/s/{host['id']}/hands/1/void", data={"csrf_token": token, "confirmed": "yes"})
    page = refused.get_data(as_text=True)
    assert refused.status_code == 403
    assert "Ask the host" in page and "a player cannot void hands" in page
    assert player.post(f"/s/{host['id']}/close", data={"csrf_token": token, "confirmed": "yes"}).status_code == 403
    assert "Close the night" not in player.get(f"/s/{host['id']}/settle").get_data(as_text=True)

    host_history = host["client"].get(f"/s/{host['id']}/hands").get_data(as_text=True)
    assert "Void hand 1" in host_history
    audit = host["client"].get(f"/api/v1/sessions/{host['id']}/history", headers={
        "Authorization": "Bearer " + host["share"]["player"].rsplit("/", 1)[1]}).get_json()
    recorded = [e for e in audit["events"] if e["action"] == "hand_recorded"]
    assert [e["actor_role"] for e in recorded] == ["player"]  # the page acted as the player's phone


def test_a_viewer_only_watches(host: dict[str, Any]) -> None:
    viewer = phone_joined(host["client"], host["share"]["viewer"])
    table = viewer.get(f"/s/{host['id']}").get_data(as_text=True)
    assert 'id="record-hand"' not in table and "it cannot record hands" in table
    response = viewer.get(f"/s/{host['id']}/record")
    assert response.status_code == 403 and "a viewer cannot record hands" in response.get_data(as_text=True)
    assert viewer.get(f"/s/{host['id']}/settle").status_code == 200
    assert "Mark paid" not in viewer.get(f"/s/{host['id']}/settle").get_data(as_text=True)


def test_join_with_the_table_code(host: dict[str, Any]) -> None:
    phone = host["client"].application.test_client()
    form = phone.get("/join").get_data(as_text=True)
    token = csrf_of(form)
    wrong = phone.post("/join", data={"csrf_token": token, "code": "ZZZZZZ"})
    assert wrong.status_code == 422
    assert error_for(wrong.get_data(as_text=True), "code") == "No open table has that code. Check it with the host."
    code = host["share"]["code"]
    typed = f" {code[:3].lower()} {code[3:]} "
    joined = phone.post("/join", data={"csrf_token": token, "code": typed})
    assert joined.status_code == 302 and joined.headers["Location"] == f"/s/{host['id']}"
    page = phone.get(f"/s/{host['id']}").get_data(as_text=True)
    assert "You joined Friday at Dee's." in flashes(page)
    assert 'id="record-hand"' in page and "joined as a player" in page


def test_two_phones_entering_the_same_hand_see_a_conflict(host: dict[str, Any], night_data: dict[str, Any]) -> None:
    players = night_data["players"]
    host_table = Table(host["client"], host["id"])
    started = host_table.start()
    assert started["number"] == "1"

    player = phone_joined(host["client"], host["share"]["player"])
    assert Table(player, host["id"]).save(hand_form(night_data["hands"][0], players)).status_code == 302

    mine = hand_form(night_data["hands"][1], players) | {"dealer": "3"}
    conflict = host_table.post(started | mine | {"step": "preview", "go": "save"})
    page = conflict.get_data(as_text=True)
    assert conflict.status_code == 409
    assert "Hand 1 is already recorded" in page and "Tomás tonked out (2×)" in page
    assert "Save as hand 2" in page
    assert re.search(r'<input type="hidden" name="number" value="2">', page)
    assert host["client"].get(f"/api/v1/sessions/{host['id']}",
                              headers={"Authorization": "Bearer " + host["share"]["player"].rsplit("/", 1)[1]}
                              ).get_json()["hand_count"] == 1

    saved = host_table.post(started | mine | {"number": "2", "step": "preview", "go": "save"})
    assert saved.status_code == 302
    assert "Hand 2 recorded: Tomás won $0.75" in flashes(host["client"].get(f"/s/{host['id']}").get_data(as_text=True))


def test_mark_paid_shrinks_the_plan(host: dict[str, Any], night_data: dict[str, Any]) -> None:
    client = host["client"]
    Table(client, host["id"]).save(hand_form(night_data["hands"][0], night_data["players"]))
    settle = client.get(f"/s/{host['id']}/settle").get_data(as_text=True)
    assert plan_lines(settle) == ["Dee pays Tomás $0.50", "Marcus pays Tomás $0.50", "Rosa pays Tomás $0.50"]
    token = csrf_of(settle)
    paid = client.post(f"/s/{host['id']}/payments",
                       data={"csrf_token": token, "from": "Marcus", "to": "Tomás", "amount": "0.50"})
    assert paid.status_code == 302
    settle = client.get(f"/s/{host['id']}/settle").get_data(as_text=True)
    assert "Marcus paid Tomás $0.50." in flashes(settle)
    assert plan_lines(settle) == ["Dee pays Tomás $0.50", "Rosa pays Tomás $0.50"]
    assert re.search(r"<strong>Marcus</strong> paid <strong>Tomás</strong>\s*\$0.50", settle)
    payment_void = re.search(r'action="(/s/[^"]+/payments/\d+/void)"', settle)
    assert payment_void
    assert client.post(payment_void.group(1), data={"csrf_token": token}).status_code == 302
    settle = client.get(f"/s/{host['id']}/settle").get_data(as_text=True)
    assert len(plan_lines(settle)) == 3 and 'badge-void">void' in settle

    bad = client.post(f"/s/{host['id']}/payments", data={"csrf_token": token, "from": "Nobody", "to": "Tomás",
                                                          "amount": "0.50"})
    assert bad.status_code == 422
    assert "That payment is not complete" in bad.get_data(as_text=True)
