"""Times (issue 7, findings 5 and 13): every time the API, the exports and the history give is
ISO 8601 with an offset; a night keeps the IANA time zone of the phone that started it, and
the PDF and the server-rendered pages show its times there, naming the zone."""
from __future__ import annotations

import csv
import io
import re
import subprocess
from datetime import datetime, timedelta, timezone
from typing import Any

import pytest
from sqlmodel import Session, select

from conftest import session_body
from ledger.storage.models import AuditEvent, GameSession, Hand
from test_web_pages import csrf_of, start_form

SATURDAY_0730_UTC = datetime(2026, 1, 3, 7, 30, tzinfo=timezone.utc)  # Friday 23:30 in Los Angeles


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def assert_utc_with_offset(text: Any, where: str) -> None:
    assert isinstance(text, str), where
    moment = datetime.fromisoformat(text)
    assert moment.utcoffset() == timedelta(0), f"{where}: {text!r} has no UTC offset"
    assert text.endswith("+00:00"), where


def test_finding_5_every_time_read_back_carries_its_offset(client: Any, open_night: dict[str, Any]) -> None:
    base, headers = f"/api/v1/sessions/{open_night['id']}", open_night["headers"]
    assert client.post(base + "/hands", json={"outcome": {"kind": "tonk_out", "winner": "Dee"}}, headers=headers).status_code == 201
    assert client.post(base + "/hands", json={"outcome": {"kind": "discard_out", "winner": "Dee"}}, headers=headers).status_code == 201
    assert client.post(base + "/hands/2/void", headers=headers).status_code == 200
    assert client.post(base + "/payments", json={"from": "Rosa", "to": "Dee", "amount": 50}, headers=headers).status_code == 201
    assert client.post(base + "/close", headers=headers).status_code == 200

    session = client.get(base, headers=headers).get_json()
    assert_utc_with_offset(session["created_at"], "session.created_at")
    assert_utc_with_offset(session["closed_at"], "session.closed_at")
    hands = client.get(base + "/hands", headers=headers).get_json()["hands"]
    assert_utc_with_offset(hands[0]["created_at"], "hands[0].created_at")
    assert_utc_with_offset(hands[1]["voided_at"], "hands[1].voided_at")
    assert_utc_with_offset(client.get(base + "/hands/1", headers=headers).get_json()["created_at"], "hand 1")
    payments = client.get(base + "/payments", headers=headers).get_json()["payments"]
    assert_utc_with_offset(payments[0]["created_at"], "payments[0].created_at")
    events = client.get(base + "/history", headers=headers).get_json()["events"]
    assert len(events) == 6
    for event in events:
        assert_utc_with_offset(event["at"], f"history {event['action']}")

    document = client.get(base + "/export.json", headers=headers).get_json()
    assert_utc_with_offset(document["session"]["created_at"], "export.json session")
    assert_utc_with_offset(document["hands"][0]["created_at"], "export.json hand")
    assert_utc_with_offset(document["payments"][0]["created_at"], "export.json payment")
    assert_utc_with_offset(document["history"][0]["at"], "export.json history")

    for table, column in [("hands", "recorded_at"), ("payments", "recorded_at"), ("history", "at")]:
        text = client.get(base + f"/export.csv?table={table}", headers=headers).get_data(as_text=True)
        rows = list(csv.DictReader(io.StringIO(text)))
        assert rows, table
        for row in rows:
            assert_utc_with_offset(row[column], f"export.csv {table}")


def test_finding_13_a_night_keeps_the_time_zone_of_the_phone_that_started_it(
    client: Any, night_data: dict[str, Any]
) -> None:
    created = client.post("/api/v1/sessions", json=session_body(night_data) | {"timezone": "America/Los_Angeles"})
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["timezone"] == "America/Los_Angeles"
    read = client.get(f"/api/v1/sessions/{created.get_json()['id']}", headers=bearer(created.get_json()["token"]))
    assert read.get_json()["timezone"] == "America/Los_Angeles"
    default = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    assert default["timezone"] == "UTC"
    for bad in ("Mars/Olympus_Mons", "../../etc/passwd", "", 5, "America/Los_Angeles\u0000"):
        refused = client.post("/api/v1/sessions", json=session_body(night_data) | {"timezone": bad})
        assert refused.status_code == 422, bad
        assert (refused.get_json()["error"], refused.get_json()["field"]) == ("invalid_entry", "timezone")


def _la_night_at_saturday_0730_utc(app: Any, client: Any, night_data: dict[str, Any]) -> dict[str, Any]:
    created = client.post("/api/v1/sessions", json=session_body(night_data) | {"timezone": "America/Los_Angeles"})
    body = created.get_json()
    headers = bearer(body["token"])
    client.post(f"/api/v1/sessions/{body['id']}/hands", json={"outcome": {"kind": "discard_out", "winner": "Dee"}},
                headers=headers)
    with Session(app.extensions["ledger.engine"]) as db:
        night = db.get(GameSession, body["id"])
        assert night is not None
        night.created_at = SATURDAY_0730_UTC
        db.add(night)
        for row in [*db.exec(select(Hand).where(Hand.session_id == body["id"])),
                    *db.exec(select(AuditEvent).where(AuditEvent.session_id == body["id"]))]:
            row.created_at = SATURDAY_0730_UTC
            db.add(row)
        db.commit()
    return body


def test_finding_13_the_pdf_is_dated_in_the_nights_zone(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    body = _la_night_at_saturday_0730_utc(app, client, night_data)
    pdf = client.get(f"/api/v1/sessions/{body['id']}/summary.pdf", headers=bearer(body["token"]))
    assert pdf.status_code == 200
    text = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf.data, capture_output=True, check=True).stdout.decode()
    text = re.sub(r"\s+", " ", text)
    assert "January 2, 2026" in text and "11:30\u202fPM" in text.replace(" PM", "\u202fPM"), text[:600]
    assert "PST" in text or "Los Angeles" in text, text[:600]
    assert "January 3, 2026" not in text and "7:30" not in text


def test_finding_13_pages_without_javascript_show_the_nights_zone(
    app: Any, client: Any, night_data: dict[str, Any]
) -> None:
    body = _la_night_at_saturday_0730_utc(app, client, night_data)
    assert client.get(body["links"]["host"]).status_code == 302
    page = client.get(f"/s/{body['id']}/hands").get_data(as_text=True)
    times = re.findall(r'<time datetime="([^"]+)" data-local>([^<]*)</time>', page)
    assert times, "the history page shows no time"
    assert set(times) == {("2026-01-03T07:30:00Z", "Fri 23:30 PST")}, times


@pytest.mark.parametrize(("sent", "kept"), [("Europe/Berlin", "Europe/Berlin"), (None, "UTC"), ("Nowhere/Land", "UTC")])
def test_finding_13_the_start_form_sends_the_phones_time_zone(
    client: Any, night_data: dict[str, Any], sent: str | None, kept: str
) -> None:
    page = client.get("/").get_data(as_text=True)
    assert re.search(r'<input type="hidden" name="timezone" value="UTC"', page)
    fields = start_form(night_data, csrf_token=csrf_of(page)) | ({"timezone": sent} if sent else {})
    response = client.post("/", data=fields)
    assert response.status_code == 302
    session_id = response.headers["Location"].split("/")[2].split("?")[0]
    from test_web_pages import api_session

    assert api_session(client, session_id)["timezone"] == kept
