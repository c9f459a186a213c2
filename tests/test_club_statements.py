"""Season statements and the club summary PDF (issue 9): the text a member reads."""
from __future__ import annotations

import io
from typing import Any

from pypdf import PdfReader

from club_nights import NIGHT, bearer, make_club, part_finals, three_nights
from ledger.money import format_minor


def pdf_text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def signed(amount: int) -> str:
    shown = format_minor(amount, "USD", "en_US")
    return f"+{shown}" if amount > 0 else shown


def test_a_members_season_statement_shows_each_night_and_the_balance(client: Any) -> None:
    club = make_club(client)
    three_nights(client, club)
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    dee = next(m for m in body["members"] if m["name"] == "Dee")
    response = client.get(f"/api/v1/clubs/{club['id']}/statements/{dee['id']}.pdf", headers=bearer(club["viewer_token"]))
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    text = pdf_text(response.data)
    assert "Season statement" in text and "Friday club" in text and "All time: 3 counted nights." in text
    finals = [part_finals(i)["Dee"] for i in range(3)]
    assert f"Net for the period: {signed(sum(finals))}." in text
    assert f"Running club balance now: {signed(body['balances']['Dee'])}." in text
    for part in range(3):
        assert f"{NIGHT['name']} #{part + 1}" in text
    assert "settled in cash" in text and f"carried {signed(finals[0])}" in text
    last = pdf_text(client.get(f"/api/v1/clubs/{club['id']}/statements/{dee['id']}.pdf?last=1",
                               headers=bearer(club["token"])).data)
    assert "the last 1 kept." in last and f"Net for the period: {signed(finals[2])}." in last
    missing = client.get(f"/api/v1/clubs/{club['id']}/statements/9999.pdf", headers=bearer(club["token"]))
    assert missing.status_code == 404 and missing.get_json()["error"] == "member_not_found"


def test_the_club_summary_has_the_standings_balances_and_plan(client: Any) -> None:
    club = make_club(client)
    three_nights(client, club)
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    text = pdf_text(client.get(f"/api/v1/clubs/{club['id']}/summary.pdf", headers=bearer(club["token"])).data)
    assert "Club summary" in text and "Standings" in text and "Cumulative net by night" in text
    for name, amount in body["balances"].items():
        assert f"{name}: {signed(amount)}." in text
    for transfer in body["settlement"]["transfers"]:
        assert f"{transfer['from']} pays {transfer['to']} {format_minor(transfer['amount'], 'USD', 'en_US')}." in text
