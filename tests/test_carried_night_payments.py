"""A club night closed with carry-over takes no payments on its own settle-up (its debts are
the club's now, so money cannot count twice); payments made before closing stay and were
accounted for by the carry; a club night settled in cash still takes payments."""
from __future__ import annotations

import html
import re
from typing import Any

from club_nights import bearer, close, make_club, part_finals, play_part, won_club_night
from test_web_pages import csrf_of, flashes

CARRIED = ("The debts of this night were carried into the balances of Friday club; "
           "pay them there, not on this night.")


def club_state(client: Any, club: dict[str, Any]) -> dict[str, Any]:
    return client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()


def payments(client: Any, night: dict[str, Any]) -> dict[str, Any]:
    response = client.get(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"]))
    assert response.status_code == 200
    return response.get_json()


def night_with_a_payment(client: Any, club: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """A club night of ten hands with one part payment of its first plan line, still open:
    ``(night, the plan line, the payment)``."""
    night = play_part(client, club, 0)
    plan = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=bearer(night["token"])).get_json()
    line = plan["transfers"][0]
    assert line["amount"] > 1
    paid = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"]),
                       json={"from": line["from"], "to": line["to"], "amount": line["amount"] - 1})
    assert paid.status_code == 201, paid.get_json()
    return night, line, paid.get_json()


def test_a_carried_night_refuses_payments_and_voids_and_the_club_keeps_its_balances(client: Any) -> None:
    club = make_club(client)
    night, line, paid = night_with_a_payment(client, club)
    left = payments(client, night)["outstanding"]
    finals = part_finals(0)
    assert left[line["from"]] == finals[line["from"]] + paid["amount"]  # the payment shrank the debt
    close(client, night, True)
    before = club_state(client, club)
    assert before["balances"] == {name: left[name] for name in before["balances"]}  # carried net after payments
    assert sum(before["balances"].values()) == 0

    refused = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"]),
                          json={"from": line["from"], "to": line["to"], "amount": 1})
    assert refused.status_code == 409
    assert refused.get_json() == {"error": "night_carried", "message": CARRIED, "field": None}
    confirmed = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"]),
                            json={"from": line["to"], "to": line["from"], "amount": 500, "confirm": True})
    assert (confirmed.status_code, confirmed.get_json()["error"]) == (409, "night_carried")

    voided = client.post(f"/api/v1/sessions/{night['id']}/payments/{paid['id']}/void", headers=bearer(night["token"]))
    assert (voided.status_code, voided.get_json()["error"]) == (409, "night_carried")
    missing = client.post(f"/api/v1/sessions/{night['id']}/payments/999/void", headers=bearer(night["token"]))
    assert (missing.status_code, missing.get_json()["error"]) == (404, "payment_not_found")

    after = payments(client, night)
    assert [(p["id"], p["amount"], p["status"]) for p in after["payments"]] == [(paid["id"], paid["amount"], "counted")]
    assert after["outstanding"] == left
    assert club_state(client, club)["balances"] == before["balances"]


def test_the_settle_page_of_a_carried_night_sends_payments_to_the_club(app: Any, client: Any) -> None:
    club = make_club(client)
    night, line, paid = night_with_a_payment(client, club)
    close(client, night, True)
    host = app.test_client()
    assert host.get(f"/join/{night['id']}/{night['token']}").status_code == 302
    page = host.get(f"/s/{night['id']}/settle").get_data(as_text=True)
    assert "Mark paid" not in page and 'id="other-payment"' not in page
    assert f'action="/s/{night["id"]}/payments"' not in page
    assert f'action="/s/{night["id"]}/payments/{paid["id"]}/void"' not in page
    notice = re.search(r'<p class="hint" id="carried-notice">(.*?)</p>', page, flags=re.S)
    assert notice, "the page says where to pay"
    assert html.unescape(re.sub(r"<[^>]+>", "", notice.group(1))) == (
        "These debts were carried into the balances of Friday club: pay them on the club’s page, not here.")
    assert f'<a href="/c/{club["id"]}" translate="no">Friday club</a>' in notice.group(1)
    assert f'id="payment-{paid["id"]}"' in page  # the payment made before closing is still shown

    token = csrf_of(host.get("/").get_data(as_text=True))
    posted = host.post(f"/s/{night['id']}/payments", data={"csrf_token": token, "kind": "other", "from": line["from"],
                                                          "to": line["to"], "amount": "0.01"})
    assert posted.status_code == 409
    assert CARRIED in html.unescape(posted.get_data(as_text=True))
    void = host.post(f"/s/{night['id']}/payments/{paid['id']}/void", data={"csrf_token": token})
    assert void.status_code == 302
    assert CARRIED in flashes(host.get(f"/s/{night['id']}/settle").get_data(as_text=True))
    assert [(p["id"], p["status"]) for p in payments(client, night)["payments"]] == [(paid["id"], "counted")]


def test_a_club_night_settled_in_cash_still_takes_payments(app: Any, client: Any) -> None:
    club = make_club(client)
    night, line, paid = night_with_a_payment(client, club)
    close(client, night, False)
    left = payments(client, night)["outstanding"]
    more = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=bearer(night["token"]),
                       json={"from": line["from"], "to": line["to"], "amount": 1})
    assert more.status_code == 201, more.get_json()
    assert more.get_json()["outstanding"][line["from"]] == left[line["from"]] + 1
    assert more.get_json()["outstanding"][line["to"]] == left[line["to"]] - 1
    voided = client.post(f"/api/v1/sessions/{night['id']}/payments/{paid['id']}/void", headers=bearer(night["token"]))
    assert voided.status_code == 200 and voided.get_json()["status"] == "voided"
    assert club_state(client, club)["balances"] == {name: 0 for name in club_state(client, club)["balances"]}
    host = app.test_client()
    assert host.get(f"/join/{night['id']}/{night['token']}").status_code == 302
    page = host.get(f"/s/{night['id']}/settle").get_data(as_text=True)
    assert "Mark paid" in page and 'id="other-payment"' in page and 'id="carried-notice"' not in page


def test_a_carried_night_says_so_in_its_answers_and_pdfs_instead_of_a_plan_between_players(client: Any) -> None:
    club = make_club(client, members=["Dee", "Marcus"])
    night = won_club_night(client, club, ["Dee", "Marcus"], "Dee")
    headers = bearer(night["token"])
    from test_club_statements import pdf_text

    before = client.get(f"/api/v1/sessions/{night['id']}", headers=headers).get_json()
    assert (before["club"], before["carried"]) == (club["id"], None)
    open_summary = pdf_text(client.get(f"/api/v1/sessions/{night['id']}/summary.pdf", headers=headers).data)
    assert "Marcus pays Dee $0.50" in open_summary

    closed = close(client, night, True)
    assert (closed["club"], closed["carried"], closed["outstanding"]) == (club["id"], True, {"Dee": 50, "Marcus": -50})
    plan = client.get(f"/api/v1/sessions/{night['id']}/settlement", headers=headers).get_json()
    assert plan["carried_into"] == club["id"]
    summary = pdf_text(client.get(f"/api/v1/sessions/{night['id']}/summary.pdf", headers=headers).data)
    assert "Marcus pays Dee" not in summary
    assert " ".join(summary.split()).count(
        "What was still owed when the night closed was carried into the balances of Friday club; it is settled there.") == 1
    marcus = " ".join(pdf_text(client.get(f"/api/v1/sessions/{night['id']}/statements/2.pdf", headers=headers).data).split())
    assert "The $0.50 you still owed was carried into your balance in Friday club." in marcus
    assert "You pay Dee" not in marcus and "Still to pay" not in marcus
    dee = " ".join(pdf_text(client.get(f"/api/v1/sessions/{night['id']}/statements/1.pdf", headers=headers).data).split())
    assert "The $0.50 still owed to you was carried into your balance in Friday club." in dee

    outside = client.post("/api/v1/sessions", json={"name": "Home game", "currency": "USD", "stake": 25,
                                                     "ruleset": {"preset": "classic"}, "players": ["Ann", "Bo"]})
    body = outside.get_json()
    assert (body["club"], body["carried"]) == (None, None)
