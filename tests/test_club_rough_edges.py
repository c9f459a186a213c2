"""Small refusals of the club pages and API say the right thing: a viewer told what they cannot
do, a payment without a payer, and a period typed into a PDF's address that is not one."""
from __future__ import annotations

from typing import Any

from club_nights import bearer, make_club


def test_a_viewer_changing_a_member_is_told_they_cannot_change_members(client: Any) -> None:
    club = make_club(client, members=["Dee"])
    dee = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"][0]["id"]
    refused = client.patch(f"/api/v1/clubs/{club['id']}/members/{dee}", json={"language": "lo"},
                           headers=bearer(club["viewer_token"]))
    assert refused.status_code == 403
    assert refused.get_json()["message"] == "A club viewer cannot add members or change them; ask the club's owner."


def test_a_club_payment_without_a_payer_asks_for_one(client: Any) -> None:
    club = make_club(client, members=["Dee", "Rosa"])
    refused = client.post(f"/api/v1/clubs/{club['id']}/payments", json={"from": " ", "to": "Dee", "amount": 5},
                          headers=bearer(club["token"]))
    body = refused.get_json()
    assert (refused.status_code, body["error"], body["field"]) == (422, "invalid_payment", "from")
    assert body["message"] == "That payment is not complete: choose who paid and who was paid."


def test_a_pdf_asked_for_a_period_that_is_not_one_goes_to_the_picker_that_says_why(client: Any) -> None:
    club = make_club(client, members=["Dee", "Rosa"])
    client.get(club["links"]["owner"])
    dee = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()["members"][0]["id"]
    for address in (f"/c/{club['id']}/summary.pdf?period=last&last=-1",
                    f"/c/{club['id']}/statements/{dee}.pdf?from=2026-13-01"):
        answer = client.get(address)
        assert answer.status_code == 302 and "/standings?" in answer.headers["Location"], address
        page = client.get(answer.headers["Location"])
        assert page.status_code == 422
        text = page.get_data(as_text=True)
        assert ("Type how many nights to count, a whole number from 1." in text
                or "Type the date as year-month-day, such as 2026-01-31." in text)
    assert client.get(f"/c/{club['id']}/summary.pdf?last=2").mimetype == "application/pdf"
