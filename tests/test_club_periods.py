"""A club's average per night and its PDFs' period (issue 23 item 6): "Average a night" is the net
over the nights rounded to the nearest minor unit, half-way cases away from zero (+$2.00 over 3
is +$0.67, not +$0.66); a club PDF's heading and file name carry its period ("The last 2 nights",
not "All time")."""
from __future__ import annotations

import subprocess
from fractions import Fraction
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from club_nights import bearer, make_club, three_nights
from ledger.money import divide_rounded, format_minor


def reference_rounded(total: int, count: int) -> int:
    """Round half away from zero, worked out with fractions (an independent reference)."""
    exact = Fraction(abs(total), count)
    whole = int(exact)
    if exact - whole >= Fraction(1, 2):
        whole += 1
    return whole if total >= 0 else -whole


@pytest.mark.parametrize(("total", "count", "expected"), [
    (200, 3, 67), (-200, 3, -67), (100, 3, 33), (-100, 3, -33), (1, 2, 1), (-1, 2, -1), (5, 2, 3), (-5, 2, -3),
    (0, 4, 0), (7, 1, 7), (10**30 + 1, 2, 5 * 10**29 + 1), (-(10**30) - 1, 2, -(5 * 10**29) - 1),
])
def test_divide_rounded_is_the_nearest_minor_unit_half_away_from_zero(total: int, count: int, expected: int) -> None:
    assert divide_rounded(total, count) == expected == reference_rounded(total, count)


def test_divide_rounded_matches_the_reference_everywhere_small() -> None:
    for count in range(1, 13):
        for total in range(-150, 151):
            assert divide_rounded(total, count) == reference_rounded(total, count), (total, count)
    with pytest.raises(ValueError):
        divide_rounded(5, 0)


def pdftotext(data: bytes, tmp_path: Path) -> str:
    path = tmp_path / "out.pdf"
    path.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True,
                          text=True).stdout


def test_the_average_per_night_and_the_period_of_the_club_pdfs(client: Any, tmp_path: Path) -> None:
    club = make_club(client)
    three_nights(client, club)
    url = f"/api/v1/clubs/{club['id']}"
    members = client.get(f"{url}/standings", headers=bearer(club["viewer_token"])).get_json()["members"]
    uneven = [m for m in members if m["nights"] and m["net"] % m["nights"]]
    assert uneven, "the three nights give no net that splits unevenly"
    for m in members:
        if m["nights"]:
            assert m["average_per_night"] == reference_rounded(m["net"], m["nights"])
    # the standings page shows the same rounded figure
    client.get(f"/c/join/{club['id']}/{club['viewer_token']}")
    page = client.get(f"/c/{club['id']}/standings")
    assert page.status_code == 200
    text = page.get_data(as_text=True)
    for m in uneven:
        shown = format_minor(abs(m["average_per_night"]), "USD", "en_US")
        assert shown in text

    summary = client.get(f"{url}/summary.pdf?last=2", headers=bearer(club["token"]))
    assert summary.status_code == 200
    disposition = summary.headers["Content-Disposition"]
    assert 'filename="Friday club-The last 2 nights.pdf"' in disposition
    assert "filename*=UTF-8''" + quote("Friday club-The last 2 nights.pdf", safe="") in disposition
    summary_text = " ".join(pdftotext(summary.data, tmp_path).split())
    assert "Club summary · The last 2 nights" in summary_text
    assert "2 counted nights, the last 2 kept." in summary_text and "All time" not in summary_text
    # the PDF's average column is the rounded one
    for m in uneven:
        if m["nights"] == 3:
            assert format_minor(abs(m["average_per_night"]), "USD", "en_US") in " ".join(
                pdftotext(client.get(f"{url}/summary.pdf", headers=bearer(club["token"])).data, tmp_path).split())

    everything = client.get(f"{url}/summary.pdf", headers=bearer(club["token"]))
    assert 'filename="Friday club-All time.pdf"' in everything.headers["Content-Disposition"]
    assert "Club summary · All time" in " ".join(pdftotext(everything.data, tmp_path).split())

    dee = next(m for m in members if m["member"] == "Dee")
    statement = client.get(f"{url}/statements/{dee['member_id']}.pdf?last=2&from=2000-01-01",
                           headers=bearer(club["token"]))
    assert statement.status_code == 200
    assert 'filename="Friday club-Dee-The last 2 nights from 2000-01-01.pdf"' in statement.headers["Content-Disposition"]
    statement_text = " ".join(pdftotext(statement.data, tmp_path).split())
    assert "Season statement · Friday club · The last 2 nights from 2000-01-01" in statement_text

    web = client.get(f"/c/{club['id']}/summary.pdf?period=last&last=2")
    assert web.status_code == 200, web.status_code
    assert 'filename="Friday club-The last 2 nights.pdf"' in web.headers["Content-Disposition"]


def test_the_period_of_a_club_pdf_is_in_the_readers_language(client: Any) -> None:
    club = make_club(client)
    three_nights(client, club)
    summary = client.get(f"/api/v1/clubs/{club['id']}/summary.pdf?last=2&lang=es", headers=bearer(club["token"]))
    assert summary.status_code == 200
    name = summary.headers["Content-Disposition"].split("filename*=UTF-8''")[1]
    assert "The%20last" not in name and name.startswith(quote("Friday club-", safe=""))
