"""A club exported as one JSON document imports into a fresh database (new tokens) and gives
back every balance, standing and statement; CSV tables are formula-safe (issue 9)."""
from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any, Iterator

import pytest

from club_nights import bearer, make_club, three_nights
from conftest import PG_URL, _fresh_postgres_database
from kept_figures import checked_figures
from ledger import create_app


@pytest.fixture
def fresh_client(tmp_path: Path) -> Iterator[Any]:
    """A second app on its own empty database (another SQLite file, or another PostgreSQL database)."""
    urls = _fresh_postgres_database(PG_URL) if PG_URL else iter([f"sqlite:///{tmp_path / 'fresh.sqlite3'}"])
    url = next(urls)
    app = create_app({"TESTING": True, "DATABASE_URL": url, "SECRET_KEY": "other-secret"})
    try:
        yield app.test_client()
    finally:
        app.extensions["ledger.engine"].dispose()
        for _ in urls:  # drops the PostgreSQL database
            pass


def played_club(client: Any) -> dict[str, Any]:
    club = make_club(client)
    three_nights(client, club)
    url = f"/api/v1/clubs/{club['id']}"
    body = client.get(url, headers=bearer(club["token"])).get_json()
    debtor = min(body["balances"], key=lambda p: body["balances"][p])
    creditor = max(body["balances"], key=lambda p: body["balances"][p])
    assert client.post(f"{url}/payments", headers=bearer(club["token"]),
                       json={"from": debtor, "to": creditor, "amount": 50}).status_code == 201
    tomas = next(m["id"] for m in body["members"] if m["name"] == "Tomás")
    assert client.post(f"{url}/members/{tomas}/rename", headers=bearer(club["token"]), json={"name": "=Tom"}).status_code == 200
    return club


def test_a_club_round_trips_into_a_fresh_database(client: Any, fresh_client: Any) -> None:
    club = played_club(client)
    url = f"/api/v1/clubs/{club['id']}"
    document = client.get(f"{url}/export.json", headers=bearer(club["viewer_token"])).get_json()
    assert document["format"] == "tonk-ledger-club" and len(document["nights"]) == 3
    assert sum(len(n["hands"]) for n in document["nights"]) == 30

    imported = fresh_client.post("/api/v1/clubs/import", json=document)
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    assert copy["id"] != club["id"] and copy["token"] != club["token"] and len(copy["night_tokens"]) == 3
    copy_url = f"/api/v1/clubs/{copy['id']}"
    original = client.get(url, headers=bearer(club["token"])).get_json()
    again = fresh_client.get(copy_url, headers=bearer(copy["token"])).get_json()
    assert again["balances"] == original["balances"]
    # the same plan, each line explained by the same nights (the copy's nights have their own ids)
    same_night = {n["id"]: m["id"] for n, m in zip(original["nights"], again["nights"])}
    for line in original["settlement"]["transfers"]:
        line["because"] = [reason | {"session_id": same_night[reason["session_id"]]} if "session_id" in reason
                           else reason for reason in line["because"]]
    assert again["settlement"] == original["settlement"]
    assert [m["name"] for m in again["members"]] == [m["name"] for m in original["members"]]
    assert [(n["name"], n["started_at"], n["closed_at"], n["carried"]) for n in again["nights"]] == \
        [(n["name"], n["started_at"], n["closed_at"], n["carried"]) for n in original["nights"]]

    def without_ids(standings: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: v for k, v in line.items() if k != "member_id"} for line in standings["members"]]

    for query in ("", "?last=2"):
        first = client.get(f"{url}/standings{query}", headers=bearer(club["token"])).get_json()
        second = fresh_client.get(f"{copy_url}/standings{query}", headers=bearer(copy["token"])).get_json()
        assert without_ids(second) == without_ids(first)
    from test_club_statements import pdf_text

    copy_ids = {m["name"]: m["id"] for m in again["members"]}
    for member in original["members"]:
        first = pdf_text(client.get(f"{url}/statements/{member['id']}.pdf", headers=bearer(club["token"])).data)
        second = pdf_text(fresh_client.get(f"{copy_url}/statements/{copy_ids[member['name']]}.pdf",
                                           headers=bearer(copy["token"])).data)
        assert second == first and member["name"].lstrip("=") in first
    assert pdf_text(fresh_client.get(f"{copy_url}/summary.pdf", headers=bearer(copy["token"])).data) == \
        pdf_text(client.get(f"{url}/summary.pdf", headers=bearer(club["token"])).data)
    night_id, night_token = next(iter(copy["night_tokens"].items()))
    night = fresh_client.get(f"/api/v1/sessions/{night_id}", headers=bearer(night_token)).get_json()
    assert night["status"] == "closed" and night["hand_count"] == 10
    # every imported night's kept figures are what its hands and payments add up to
    with fresh_client.application.app_context():
        from ledger.storage.db import get_session
        db = get_session()
        for night_id in copy["night_tokens"]:
            checked_figures(db, night_id)
    assert fresh_client.get(copy_url, headers=bearer(club["token"])).status_code == 403  # old tokens open nothing


def test_a_document_that_is_not_a_club_export_is_refused(client: Any) -> None:
    refused = client.post("/api/v1/clubs/import", json={"format": "something else"})
    assert (refused.status_code, refused.get_json()["error"]) == (422, "invalid_entry")
    broken = client.post("/api/v1/clubs/import", json={"format": "tonk-ledger-club", "version": 1, "club": {},
                                                       "members": [], "nights": []})
    assert (broken.status_code, broken.get_json()["error"]) == (422, "invalid_entry")


def test_club_csv_tables_are_formula_safe(client: Any) -> None:
    club = played_club(client)
    url = f"/api/v1/clubs/{club['id']}/export.csv"
    members = list(csv.reader(io.StringIO(client.get(f"{url}?table=members", headers=bearer(club["token"])).text)))
    assert members[0] == ["id", "name", "balance_minor", "balance_USD"]
    assert "'=Tom" in [row[1] for row in members[1:]]
    results = list(csv.reader(io.StringIO(client.get(url, headers=bearer(club["token"])).text)))
    assert len(results) == 1 + 3 * 4
    body = client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])).get_json()
    totals: dict[str, int] = {}
    for row in results[1:]:
        totals[row[4]] = totals.get(row[4], 0) + int(row[5])
    assert sum(totals.values()) == 0 and set(totals) == {m["name"] if m["name"] != "=Tom" else "'=Tom"
                                                          for m in body["members"]}
    for table in ("nights", "carries", "payments", "history"):
        response = client.get(f"{url}?table={table}", headers=bearer(club["viewer_token"]))
        assert response.status_code == 200 and response.mimetype == "text/csv"
    assert client.get(f"{url}?table=nope", headers=bearer(club["token"])).status_code == 422
