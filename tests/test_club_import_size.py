"""Issue 20 item 4: a club's backup can be restored whatever its size. Every request body is
capped at 256 KiB (``MAX_CONTENT_LENGTH``) but a club import's, which has its own documented
limit (``IMPORT_MAX_BYTES``, 64 MiB by default): a club of 1,000 hands exports to a document far
past 256 KiB and imports back into an empty server with the same balances, standings and
PDFs; a document past the import's own limit is 413, as any other body past 256 KiB is."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterator

import pytest

from club_nights import NIGHT, bearer, club_plan_by_place, close, make_club
from conftest import PG_URL, _fresh_postgres_database
from kept_figures import checked_figures
from ledger import create_app
from test_club_export import fresh_client  # noqa: F401  (the fixture: an app on its own empty database)
from test_club_statements import pdf_text

NIGHTS, HANDS = 10, 100  # 1,000 hands


def big_club(client: Any) -> dict[str, Any]:
    """Ten nights of a hundred hands each (night-01's thirty hands over and over), nights
    carried and settled in cash in turn, and a club payment."""
    club = make_club(client)
    for number in range(NIGHTS):
        started = client.post("/api/v1/sessions", headers=bearer(club["token"]), json={
            "name": f"Night {number + 1}", "stake": NIGHT["stake"], "ruleset": NIGHT["ruleset"],
            "players": NIGHT["players"], "first_dealer": NIGHT["hands"][0]["dealer"], "club": club["id"]})
        assert started.status_code == 201, started.get_json()
        night = started.get_json()
        for index in range(HANDS):
            hand = NIGHT["hands"][index % len(NIGHT["hands"])]
            recorded = client.post(f"/api/v1/sessions/{night['id']}/hands", headers=bearer(night["token"]),
                                   json={"outcome": hand["outcome"], "hands": hand["hands"]})
            assert recorded.status_code == 201, recorded.get_json()
        close(client, night, carry_over=number % 2 == 0)
    url = f"/api/v1/clubs/{club['id']}"
    balances = client.get(url, headers=bearer(club["token"])).get_json()["balances"]
    debtor, creditor = min(balances, key=balances.__getitem__), max(balances, key=balances.__getitem__)
    assert client.post(f"{url}/payments", headers=bearer(club["token"]),
                       json={"from": debtor, "to": creditor, "amount": 100}).status_code == 201
    return club


@pytest.mark.slow
def test_a_club_of_a_thousand_hands_imports_back_whole(client: Any, fresh_client: Any) -> None:  # noqa: F811
    club = big_club(client)
    url = f"/api/v1/clubs/{club['id']}"
    exported = client.get(f"{url}/export.json", headers=bearer(club["token"]))
    document = exported.get_json()
    assert sum(len(n["hands"]) for n in document["nights"]) == NIGHTS * HANDS
    body = json.dumps(document).encode()
    assert len(body) > 4 * 256 * 1024  # far past what every other call takes

    imported = fresh_client.post("/api/v1/clubs/import", data=body, content_type="application/json")
    assert imported.status_code == 201, imported.get_json()
    copy = imported.get_json()
    copy_url = f"/api/v1/clubs/{copy['id']}"
    original = client.get(url, headers=bearer(club["token"])).get_json()
    again = fresh_client.get(copy_url, headers=bearer(copy["token"])).get_json()
    assert again["balances"] == original["balances"]
    # the plan's lines and why, each carried night named by its own server's id
    assert club_plan_by_place(fresh_client, copy["id"], copy["token"]) == club_plan_by_place(
        client, club["id"], club["token"])
    assert any(original["balances"].values())

    def without_ids(standings: dict[str, Any]) -> list[dict[str, Any]]:
        return [{k: v for k, v in line.items() if k != "member_id"} for line in standings["members"]]

    first = client.get(f"{url}/standings", headers=bearer(club["token"])).get_json()
    second = fresh_client.get(f"{copy_url}/standings", headers=bearer(copy["token"])).get_json()
    assert without_ids(second) == without_ids(first) and first["members"][0]["hands"] == NIGHTS * HANDS
    assert pdf_text(fresh_client.get(f"{copy_url}/summary.pdf", headers=bearer(copy["token"])).data) == \
        pdf_text(client.get(f"{url}/summary.pdf", headers=bearer(club["token"])).data)
    member = original["members"][0]
    copied = next(m for m in again["members"] if m["name"] == member["name"])
    assert pdf_text(fresh_client.get(f"{copy_url}/statements/{copied['id']}.pdf", headers=bearer(copy["token"])).data) \
        == pdf_text(client.get(f"{url}/statements/{member['id']}.pdf", headers=bearer(club["token"])).data)
    with fresh_client.application.app_context():
        from ledger.storage.db import get_session
        for night_id in copy["night_tokens"]:
            checked_figures(get_session(), night_id)


@pytest.fixture
def small_import_client(tmp_path: Path) -> Iterator[Any]:
    """An app whose import takes at most 300 KiB (``IMPORT_MAX_BYTES`` set in its config)."""
    urls = _fresh_postgres_database(PG_URL) if PG_URL else iter([f"sqlite:///{tmp_path / 'small.sqlite3'}"])
    app = create_app({"TESTING": True, "DATABASE_URL": next(urls), "SECRET_KEY": "small-secret",
                      "IMPORT_MAX_BYTES": 300 * 1024})
    try:
        yield app.test_client()
    finally:
        app.extensions["ledger.engine"].dispose()
        for _unused in urls:  # drops the PostgreSQL database
            pass


def padded(size: int) -> bytes:
    """A JSON document of ``size`` bytes that is not a club export."""
    head = b'{"format": "tonk-ledger-club", "padding": "'
    return head + b"x" * (size - len(head) - 2) + b'"}'


def test_the_import_has_its_own_limit_and_every_other_body_keeps_256_kib(
        small_import_client: Any, database_url: str) -> None:
    client = small_import_client
    # past 256 KiB but within the import's limit: read (and refused for what it is, not for its size)
    within = client.post("/api/v1/clubs/import", data=padded(280 * 1024), content_type="application/json")
    assert (within.status_code, within.get_json()["field"]) == (422, "padding")
    # past the import's own limit: 413, a JSON error as the API's
    past = client.post("/api/v1/clubs/import", data=padded(301 * 1024), content_type="application/json")
    assert past.status_code == 413 and past.get_json()["error"] == "request_entity_too_large"
    # every other call keeps the 256 KiB cap
    other = client.post("/api/v1/sessions", data=padded(280 * 1024), content_type="application/json")
    assert other.status_code == 413
    # the shipped limit is 64 MiB
    shipped = create_app({"TESTING": True, "DATABASE_URL": database_url})
    try:
        assert shipped.config["IMPORT_MAX_BYTES"] == 64 * 1024 * 1024
    finally:
        shipped.extensions["ledger.engine"].dispose()
