"""A member cannot put any sum into the club's balances (issue 20 item 5): a night hosted
through a member's token and closed with ``carry_over`` waits (``carried: "pending"``) until the
owner's carry call; the owner may undo a carry with reversing entries (nothing deleted,
audited), after which the night takes payments again. ``carry_needs_owner`` false keeps the
old behaviour. Runs on SQLite and PostgreSQL (``LEDGER_TEST_DATABASE_URL``)."""
from __future__ import annotations

import html
import re
from typing import Any

from club_nights import bearer, make_club, part_finals, play_part

BIG_STAKE = 1_000_000_000  # a made-up huge stake: 12,000,000,000 would move


def club_state(client: Any, club: dict[str, Any], token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(token or club["token"]))
    assert response.status_code == 200
    return response.get_json()


def member_night(client: Any, club: dict[str, Any]) -> dict[str, Any]:
    """A night started with the member link, ten hands (the shared night's first part), closed
    with carry_over by the member's night token."""
    night = play_part(client, club, 0, token=club["member_token"])
    response = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": True},
                           headers=bearer(night["token"]))
    assert response.status_code == 200, response.get_json()
    assert response.get_json()["carried"] == "pending"
    return night


def big_member_night(client: Any, club: dict[str, Any]) -> dict[str, Any]:
    """The issue's attack: a member hosts, records made-up tonk outs at a huge stake, closes with carry_over."""
    response = client.post("/api/v1/sessions", headers=bearer(club["member_token"]), json={
        "name": "Made up", "stake": BIG_STAKE, "ruleset": {"preset": "classic"}, "players": ["Ann", "Bob", "Cy"],
        "club": club["id"]})
    assert response.status_code == 201, response.get_json()
    night = response.get_json()
    for _ in range(3):
        recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                               json={"outcome": {"kind": "tonk_out", "winner": "Ann"}})
        assert recorded.status_code == 201, recorded.get_json()
    closed = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": True},
                         headers=bearer(night["token"]))
    assert closed.status_code == 200, closed.get_json()
    assert closed.get_json()["carried"] == "pending"
    return night


def carry(client: Any, club: dict[str, Any], night: dict[str, Any], token: str | None = None) -> Any:
    return client.post(f"/api/v1/clubs/{club['id']}/nights/{night['id']}/carry",
                       headers=bearer(token or club["token"]))


def uncarry(client: Any, club: dict[str, Any], night: dict[str, Any], token: str | None = None) -> Any:
    return client.post(f"/api/v1/clubs/{club['id']}/nights/{night['id']}/uncarry",
                       headers=bearer(token or club["token"]))


def history(client: Any, club: dict[str, Any]) -> list[dict[str, Any]]:
    response = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"]))
    assert response.status_code == 200
    return response.get_json()["history"]


def test_a_member_hosted_big_night_moves_nothing_until_the_owner_carries_it(client: Any) -> None:
    club = make_club(client, members=["Ann", "Bob", "Cy"])
    assert club["carry_needs_owner"] is True
    night = big_member_night(client, club)
    state = club_state(client, club)
    assert state["balances"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert state["settlement"]["transfers"] == []
    listed = next(n for n in state["nights"] if n["id"] == night["id"])
    assert (listed["carried"], listed["hosted_by"], listed["carried_by"]) == ("pending", "member", None)
    assert client.get(f"/api/v1/sessions/{night['id']}", headers=bearer(night["token"])).get_json()["carried"] \
        == "pending"
    left = client.get(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"])).get_json()
    assert left["outstanding"]["Ann"] == 3 * 2 * 2 * BIG_STAKE  # three tonk outs, double from each of two

    moved = carry(client, club, night)
    assert moved.status_code == 200, moved.get_json()
    assert moved.get_json()["balances"] == left["outstanding"]
    listed = next(n for n in moved.get_json()["nights"] if n["id"] == night["id"])
    assert (listed["carried"], listed["carried_by"], listed["carry_state"]) == (True, "owner", "carried")
    again = carry(client, club, night)
    assert (again.status_code, again.get_json()["error"]) == (409, "night_not_pending")


def test_members_and_viewers_cannot_carry_uncarry_or_change_the_option(client: Any) -> None:
    club = make_club(client, members=["Ann", "Bob", "Cy"])
    night = big_member_night(client, club)
    for token in (club["member_token"], club["viewer_token"]):
        for call in (carry, uncarry):
            refused = call(client, club, night, token)
            assert (refused.status_code, refused.get_json()["error"]) == (403, "role_forbidden")
        patched = client.patch(f"/api/v1/clubs/{club['id']}", json={"carry_needs_owner": False},
                               headers=bearer(token))
        assert (patched.status_code, patched.get_json()["error"]) == (403, "role_forbidden")
    assert club_state(client, club)["balances"] == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert club_state(client, club)["carry_needs_owner"] is True


def test_the_owner_undoes_a_carry_with_reversing_entries_and_the_night_takes_payments_again(client: Any) -> None:
    club = make_club(client)
    night = member_night(client, club)
    finals = part_finals(0)
    assert carry(client, club, night).status_code == 200
    state = club_state(client, club)
    assert state["balances"] == finals
    refused = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"]),
                          json={"from": "Dee", "to": "Marcus", "amount": 1, "confirm": True})
    assert (refused.status_code, refused.get_json()["error"]) == (409, "night_carried")
    standings = client.get(f"/api/v1/clubs/{club['id']}/standings", headers=bearer(club["token"])).get_json()

    undone = uncarry(client, club, night)
    assert undone.status_code == 200, undone.get_json()
    body = undone.get_json()
    assert set(body["balances"].values()) == {0}
    assert body["settlement"]["transfers"] == []
    listed = next(n for n in body["nights"] if n["id"] == night["id"])
    assert (listed["carried"], listed["carried_by"], listed["carry_state"]) == (False, None, "uncarried")
    carries = client.get(f"/api/v1/clubs/{club['id']}/export.csv?table=carries", headers=bearer(club["token"]))
    rows = carries.get_data(as_text=True).strip().splitlines()[1:]
    carried_rows = sum(1 for amount in finals.values() if amount)
    assert len(rows) == 2 * carried_rows  # nothing deleted: each carry and its reversal
    events = [e for e in history(client, club) if e["action"] == "night_uncarried"]
    assert len(events) == 1 and events[0]["actor_role"] == "owner" and events[0]["at"]
    assert events[0]["detail"]["after"]["reversed"] == {n: -a for n, a in finals.items() if a}
    again = uncarry(client, club, night)
    assert (again.status_code, again.get_json()["error"]) == (409, "night_not_carried")

    debtor = min(finals, key=finals.__getitem__)
    creditor = max(finals, key=finals.__getitem__)
    paid = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"]),
                       json={"from": debtor, "to": creditor, "amount": 1})
    assert paid.status_code == 201, paid.get_json()
    after = client.get(f"/api/v1/clubs/{club['id']}/standings", headers=bearer(club["token"])).get_json()
    assert [n["id"] for n in standings["nights"]] == [night["id"]]
    assert after["nights"] == []  # counted only while carried

    recarried = carry(client, club, night)
    assert recarried.status_code == 200, recarried.get_json()
    expected = dict(finals)
    expected[debtor] += 1
    expected[creditor] -= 1
    assert recarried.get_json()["balances"] == expected
    counted = client.get(f"/api/v1/clubs/{club['id']}/standings", headers=bearer(club["token"])).get_json()
    assert [n["id"] for n in counted["nights"]] == [night["id"]]


def test_with_the_option_off_a_member_night_carries_at_once_as_before(client: Any) -> None:
    club = make_club(client, carry_needs_owner=False)
    assert club["carry_needs_owner"] is False
    night = play_part(client, club, 0, token=club["member_token"])
    closed = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": True},
                         headers=bearer(night["token"]))
    assert closed.get_json()["carried"] is True
    state = club_state(client, club)
    assert state["balances"] == part_finals(0)
    listed = state["nights"][0]
    assert (listed["carried"], listed["hosted_by"], listed["carried_by"]) == (True, "member", "member")


def test_the_owner_turns_the_option_on_and_off(client: Any) -> None:
    club = make_club(client)
    patched = client.patch(f"/api/v1/clubs/{club['id']}", json={"carry_needs_owner": False},
                           headers=bearer(club["token"]))
    assert patched.status_code == 200, patched.get_json()
    assert patched.get_json()["carry_needs_owner"] is False
    assert club_state(client, club)["carry_needs_owner"] is False
    bad = client.patch(f"/api/v1/clubs/{club['id']}", json={"carry_needs_owner": "yes"},
                       headers=bearer(club["token"]))
    assert bad.status_code == 422 and bad.get_json()["field"] == "carry_needs_owner"
    changes = [e for e in history(client, club) if e["action"] == "club_settings_changed"]
    assert changes[-1]["detail"] == {"before": {"carry_needs_owner": True}, "after": {"carry_needs_owner": False}}


def test_an_owner_hosted_night_carries_at_once(client: Any) -> None:
    club = make_club(client)
    night = play_part(client, club, 0)
    closed = client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": True},
                         headers=bearer(night["token"]))
    assert closed.get_json()["carried"] is True
    assert club_state(client, club)["balances"] == part_finals(0)


def test_carrying_an_open_or_cash_night_is_refused(client: Any) -> None:
    club = make_club(client)
    night = play_part(client, club, 0, token=club["member_token"])
    refused = carry(client, club, night)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "night_not_pending")
    client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": False}, headers=bearer(night["token"]))
    refused = carry(client, club, night)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "night_not_pending")
    refused = uncarry(client, club, night)
    assert (refused.status_code, refused.get_json()["error"]) == (409, "night_not_carried")


def test_pending_carried_and_uncarried_nights_survive_export_import_export(client: Any) -> None:
    club = make_club(client)
    pending = member_night(client, club)
    undone = member_night(client, club)
    carried = member_night(client, club)
    assert carry(client, club, undone).status_code == 200
    assert uncarry(client, club, undone).status_code == 200
    assert carry(client, club, carried).status_code == 200
    exported = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"])).get_json()
    states = [(n["carried"], n["carry_state"], n["host_role"]) for n in exported["nights"]]
    assert states == [(None, "pending", "member"), (False, "uncarried", "member"), (True, "carried", "member")]
    assert [c["kind"] for c in exported["nights"][1]["carries"]].count("reversal") > 0
    imported = client.post("/api/v1/clubs/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    again = client.get(f"/api/v1/clubs/{copy['id']}/export.json", headers=bearer(copy["token"])).get_json()
    assert [(n["carried"], n["carry_state"], n["host_role"], n["carried_by"],
             [(c["amount"], c["kind"]) for c in n["carries"]]) for n in again["nights"]] == \
        [(n["carried"], n["carry_state"], n["host_role"], n["carried_by"],
          [(c["amount"], c["kind"]) for c in n["carries"]]) for n in exported["nights"]]
    assert copy["balances"] == club_state(client, club)["balances"]
    owner_carry = client.post(f"/api/v1/clubs/{copy['id']}/nights/{again['nights'][0]['session']['id']}/carry",
                              headers=bearer(copy["token"]))
    assert owner_carry.status_code == 200, owner_carry.get_json()  # the copy's pending night still waits


def test_an_older_export_without_the_new_fields_still_imports(client: Any) -> None:
    club = make_club(client)
    night = play_part(client, club, 0)
    client.post(f"/api/v1/sessions/{night['id']}/close", json={"carry_over": True}, headers=bearer(night["token"]))
    exported = client.get(f"/api/v1/clubs/{club['id']}/export.json", headers=bearer(club["token"])).get_json()
    exported["club"].pop("carry_needs_owner")
    for entry in exported["nights"]:
        for field in ("host_role", "carry_state", "carried_by"):
            entry.pop(field)
        for row in entry["carries"]:
            row.pop("kind")
    imported = client.post("/api/v1/clubs/import", json=exported)
    assert imported.status_code == 201, imported.get_json()
    assert imported.get_json()["balances"] == part_finals(0)
    assert imported.get_json()["carry_needs_owner"] is True


def test_a_member_closing_on_the_phone_is_told_the_night_waits_for_the_owner(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Rosa", "Tomás"])
    night = play_part(client, club, 0, token=club["member_token"])
    settle = client.get(f"/join/{night['id']}/{night['token']}", follow_redirects=True).get_data(as_text=True)
    token = re.search(r'name="csrf_token" value="([^"]+)"', settle).group(1)  # type: ignore[union-attr]
    page = client.post(f"/s/{night['id']}/close", data={"carry_over": "yes", "confirmed": "yes", "csrf_token": token},
                       follow_redirects=True)
    text = page.get_data(as_text=True)
    assert ("The night is closed; what is still owed waits for the owner of Friday club to carry it into the "
            "club&#39;s balances.") in text
    assert "was carried into the balances" not in text
    assert set(club_state(client, club)["balances"].values()) == {0}


def _csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)  # type: ignore[union-attr]


def test_the_club_page_shows_who_hosted_and_carried_and_the_owner_carries_and_undoes(app: Any, client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus", "Rosa", "Tomás"])
    night = member_night(client, club)
    member = app.test_client()
    assert member.get(f"/c/join/{club['id']}/{club['member_token']}").status_code in (200, 302)
    seen = member.get(f"/c/{club['id']}").get_data(as_text=True)
    assert "waiting for the owner" in seen and "Hosted by a member." in seen
    assert f"/c/{club['id']}/nights/{night['id']}/carry" not in seen  # no button for a member
    refused = member.post(f"/c/{club['id']}/nights/{night['id']}/carry", data={"csrf_token": _csrf(seen)})
    assert refused.status_code == 403
    assert set(club_state(client, club)["balances"].values()) == {0}

    owner = app.test_client()
    assert owner.get(f"/c/join/{club['id']}/{club['token']}").status_code in (200, 302)
    page = owner.get(f"/c/{club['id']}").get_data(as_text=True)
    assert f'action="/c/{club["id"]}/nights/{night["id"]}/carry"' in page
    done = owner.post(f"/c/{club['id']}/nights/{night['id']}/carry", data={"csrf_token": _csrf(page)},
                      follow_redirects=True)
    text = html.unescape(done.get_data(as_text=True))
    assert done.status_code == 200 and f"{night['name']} was carried into the balances of Friday club." in text
    assert "Carried by the owner." in text and f'action="/c/{club["id"]}/nights/{night["id"]}/uncarry"' in text
    assert club_state(client, club)["balances"] == part_finals(0)

    undone = owner.post(f"/c/{club['id']}/nights/{night['id']}/uncarry", data={"csrf_token": _csrf(text)},
                        follow_redirects=True)
    text = html.unescape(undone.get_data(as_text=True))
    assert f"The carry of {night['name']} was undone; its debts are paid at the night again." in text
    assert "carry undone" in text
    assert set(club_state(client, club)["balances"].values()) == {0}
    again = owner.post(f"/c/{club['id']}/nights/{night['id']}/uncarry", data={"csrf_token": _csrf(text)},
                       follow_redirects=True)
    assert "so there is no carry to undo" in html.unescape(again.get_data(as_text=True))
