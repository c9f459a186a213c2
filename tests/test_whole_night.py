"""Issue 23, item 6: a night undone as a whole by its host. A night started by mistake (no
hands, no payments) is removed: it leaves the phone's list and the club's, its links answer 410,
and the log keeps the removal; one with hands is refused (409) and can be voided instead: kept,
struck through, out of the club's standings, nothing in it changes, and restored it counts
again. A club night carried into the club's balances is never voided (409)."""
from __future__ import annotations

import re
from typing import Any

from club_nights import bearer, close, make_club, won_club_night
from conftest import session_body
from test_club_export import fresh_client  # noqa: F401  (a second app on its own database)
from test_web_pages import csrf_of


def _night(client: Any, night_data: dict[str, Any]) -> tuple[str, str, dict[str, str]]:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    assert client.get(f"/join/{body['id']}/{body['token']}").status_code == 302  # this phone is the host
    return body["id"], f"/api/v1/sessions/{body['id']}", bearer(body["token"])


def _events(client: Any, url: str, headers: dict[str, str]) -> list[dict[str, Any]]:
    return client.get(f"{url}/history", headers=headers).get_json()["events"]


def test_an_empty_night_is_removed_from_the_phone_and_its_links_stop(client: Any, night_data: dict[str, Any]) -> None:
    sid, url, host = _night(client, night_data)
    assert sid in client.get("/").get_data(as_text=True)
    settle = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert 'action="/s/%s/remove"' % sid in settle and "Remove the night" in settle
    asked = client.post(f"/s/{sid}/remove", data={"csrf_token": csrf_of(settle)})
    assert asked.status_code == 200 and "Remove this night?" in asked.get_data(as_text=True)  # confirm first
    assert client.get(url, headers=host).get_json()["status"] == "open"
    done = client.post(f"/s/{sid}/remove", data={"csrf_token": csrf_of(settle), "confirmed": "yes"})
    assert done.status_code == 302 and done.headers["Location"] == "/"
    home = client.get("/").get_data(as_text=True)
    assert "Friday at Dee&#39;s was removed." in home and f"/s/{sid}" not in home
    gone = client.get(f"/s/{sid}")
    assert gone.status_code == 410 and "This night was removed" in gone.get_data(as_text=True)
    answer = client.get(url, headers=host)
    assert answer.status_code == 410 and answer.get_json()["error"] == "night_removed"
    assert client.post(f"{url}/hands", json={"outcome": {"kind": "tonk_out", "winner": "Dee"}},
                       headers=host).status_code == 410


def test_a_night_with_hands_is_not_removed_but_voided_and_restored(client: Any, night_data: dict[str, Any]) -> None:
    sid, url, host = _night(client, night_data)
    assert client.post(f"{url}/hands", json={"outcome": {"kind": "tonk_out", "winner": "Dee"}}, headers=host).status_code == 201
    refused = client.post(f"{url}/remove", headers=host)
    assert refused.status_code == 409 and refused.get_json()["error"] == "night_has_hands"
    assert "void it as a whole instead" in refused.get_json()["message"]
    settle = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Void the whole night" in settle and "/remove" not in settle

    voided = client.post(f"{url}/void", headers=host)
    assert voided.status_code == 200 and voided.get_json()["status"] == "voided"
    assert client.post(f"{url}/void", headers=host).get_json()["status"] == "voided"  # again: the same
    late = client.post(f"{url}/hands", json={"outcome": {"kind": "tonk_out", "winner": "Rosa"}}, headers=host)
    assert late.status_code == 409 and late.get_json()["error"] == "session_closed"
    paid = client.post(f"{url}/payments", json={"from": "Rosa", "to": "Dee", "amount": 50}, headers=host)
    assert paid.status_code == 409 and "nothing in it is owed" in paid.get_json()["message"]
    assert client.post(f"{url}/close", headers=host).status_code == 409  # a void is not undone by closing
    table = client.get(f"/s/{sid}").get_data(as_text=True)
    assert "This night is void: every hand is kept for the record, and it counts nowhere." in table
    assert re.search(r'<li class="is-void"><a class="night-link" href="/s/%s">' % sid, client.get("/").get_data(as_text=True))
    settle = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Restore the night" in settle and "Mark paid" not in settle and "Save the payment" not in settle

    restored = client.post(f"{url}/restore", headers=host)
    assert restored.status_code == 200 and restored.get_json()["status"] == "closed"
    again = client.post(f"{url}/restore", headers=host)
    assert again.status_code == 409 and again.get_json()["error"] == "night_not_voided"
    assert [e["action"] for e in _events(client, url, host)][-2:] == ["night_voided", "night_restored"]
    log = client.get(f"/s/{sid}/log").get_data(as_text=True)
    assert "The whole night voided: kept for the record, counted nowhere" in log
    assert "The night restored: it counts again, as a closed night" in log
    assert [e["detail"] for e in _events(client, url, host)][-2] == {"before": {"status": "open"}, "after": {"status": "voided"}}


def test_a_player_cannot_void_or_remove_the_night(client: Any, night_data: dict[str, Any]) -> None:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    url = f"/api/v1/sessions/{body['id']}"
    player = bearer(client.get(f"{url}/share", headers=bearer(body["token"])).get_json()["player_token"])
    for call in ("remove", "void", "restore"):
        refused = client.post(f"{url}/{call}", headers=player)
        assert refused.status_code == 403 and refused.get_json()["error"] == "role_forbidden", call
    assert client.get(url, headers=player).get_json()["status"] == "open"


def test_a_voided_club_night_leaves_the_standings_and_a_carried_one_is_refused(client: Any) -> None:
    club = make_club(client)
    counted = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee")
    close(client, counted, False)
    mistaken = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Rosa")
    standings = f"/api/v1/clubs/{club['id']}/standings"

    def nets() -> dict[str, int]:
        rows = client.get(standings, headers=bearer(club["token"])).get_json()["members"]
        return {r["member"]: r["net"] for r in rows if r["nights"]}

    def night_net(night: dict[str, Any]) -> dict[str, int]:
        return client.get(f"/api/v1/sessions/{night['id']}", headers=bearer(night["token"])).get_json()["net"]

    murl = f"/api/v1/sessions/{mistaken['id']}"
    close(client, mistaken, False)
    first, second = night_net(counted), night_net(mistaken)
    assert first != second
    assert nets() == {name: first[name] + second[name] for name in first}
    assert client.post(f"{murl}/void", headers=bearer(mistaken["token"])).status_code == 200
    assert nets() == first  # the voided night counts nowhere
    assert client.get(f"/c/join/{club['id']}/{club['token']}").status_code == 302  # the owner's phone
    assert "void: not counted" in client.get(f"/c/{club['id']}").get_data(as_text=True)
    assert client.post(f"{murl}/restore", headers=bearer(mistaken["token"])).status_code == 200
    assert nets() == {name: first[name] + second[name] for name in first}

    carried = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee")
    close(client, carried, True)
    refused = client.post(f"/api/v1/sessions/{carried['id']}/void", headers=bearer(carried["token"]))
    assert refused.status_code == 409 and refused.get_json()["error"] == "night_carried"


def test_a_club_with_a_voided_night_round_trips_through_its_backup(client: Any, fresh_client: Any) -> None:
    club = make_club(client)
    kept = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Dee")
    close(client, kept, False)
    voided = won_club_night(client, club, ["Dee", "Marcus", "Rosa"], winner="Rosa")  # voided while open
    assert client.post(f"/api/v1/sessions/{voided['id']}/void", headers=bearer(voided["token"])).status_code == 200
    empty = won_club_night(client, club, ["Dee", "Marcus"])
    assert client.post(f"/api/v1/sessions/{empty['id']}/remove", headers=bearer(empty["token"])).status_code == 200
    url = f"/api/v1/clubs/{club['id']}"
    document = client.get(f"{url}/export.json", headers=bearer(club["token"])).get_json()
    assert [n["session"]["status"] for n in document["nights"]] == ["closed", "voided"]  # the removed one is gone
    imported = fresh_client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = fresh_client.get(f"/api/v1/clubs/{copy['id']}", headers=bearer(copy["token"])).get_json()
    assert [n["status"] for n in again["nights"]] == ["closed", "voided"]
    standings = fresh_client.get(f"/api/v1/clubs/{copy['id']}/standings", headers=bearer(copy["token"])).get_json()
    original = client.get(f"{url}/standings", headers=bearer(club["token"])).get_json()
    assert [(m["member"], m["net"], m["nights"]) for m in standings["members"]] == \
        [(m["member"], m["net"], m["nights"]) for m in original["members"]]


def test_a_voided_nights_pdfs_say_so(client: Any, night_data: dict[str, Any]) -> None:
    from test_statements import flat, pdftotext

    _sid, url, host = _night(client, night_data)
    assert client.post(f"{url}/hands", json={"outcome": {"kind": "tonk_out", "winner": "Dee"}}, headers=host).status_code == 201
    assert "counts nowhere" not in flat(pdftotext(client.get(f"{url}/summary.pdf", headers=host).data))
    assert client.post(f"{url}/void", headers=host).status_code == 200
    void = "Void: the whole night is kept for the record and counts nowhere."
    assert void in flat(pdftotext(client.get(f"{url}/summary.pdf", headers=host).data))
    assert void in flat(pdftotext(client.get(f"{url}/statements/1.pdf", headers=host).data))


def test_a_voided_night_owes_nothing_and_hands_back_what_was_paid(client: Any, night_data: dict[str, Any]) -> None:
    sid, url, host = _night(client, night_data)
    assert client.post(f"{url}/hands", json={"outcome": {"kind": "tonk_out", "winner": "Dee"}}, headers=host).status_code == 201
    assert client.post(f"{url}/payments", json={"from": "Rosa", "to": "Dee", "amount": 50}, headers=host).status_code == 201
    assert client.post(f"{url}/void", headers=host).status_code == 200
    plan = client.get(f"{url}/settlement", headers=host).get_json()
    assert [(t["from"], t["to"], t["amount"]) for t in plan["transfers"]] == [("Dee", "Rosa", 50)]
    settle = client.get(f"/s/{sid}/settle").get_data(as_text=True)
    assert "Dee pays Rosa" in re.sub(r"<[^>]+>", "", settle).replace("\n", " ")
    from test_statements import flat, pdftotext

    summary = flat(pdftotext(client.get(f"{url}/summary.pdf", headers=host).data))
    assert "Dee pays Rosa $0.50" in summary and "Marcus pays Dee" not in summary
    assert client.post(f"{url}/restore", headers=host).status_code == 200
    plan = client.get(f"{url}/settlement", headers=host).get_json()
    assert sorted((t["from"], t["to"], t["amount"]) for t in plan["transfers"]) == [
        ("Marcus", "Dee", 50), ("Tomás", "Dee", 50)]  # restored: the night's debts again, Rosa's paid
