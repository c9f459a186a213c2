"""Issue 10: CSV exports in another language. The header rows are the files' machine contract
(the same English identifiers in every language, :mod:`ledger.night.export`); the hand descriptions,
sentences a person reads, are the engine's sentences in the reader's language."""
from __future__ import annotations

import csv
import io
from typing import Any, Iterator

import pytest

from ledger import create_app
from ledger.i18n import PSEUDO, use_language
from ledger.games.tonk.describe import describe_hand

PLAYERS = ["Ζωή", "Αλέξης", "ສົມ"]


@pytest.fixture
def pseudo_client(database_url: str) -> Iterator[Any]:
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret",
                      "I18N_PSEUDO": True})
    yield app.test_client()
    app.extensions["ledger.engine"].dispose()


def rows(client: Any, url: str, headers: dict[str, str]) -> list[list[str]]:
    response = client.get(url, headers=headers)
    assert response.status_code == 200, response.get_data(as_text=True)
    return list(csv.reader(io.StringIO(response.get_data(as_text=True))))


def test_csv_headers_stay_the_english_contract_in_every_language(pseudo_client: Any) -> None:
    client = pseudo_client
    created = client.post("/api/v1/sessions", json={
        "name": "Νύχτα", "currency": "EUR", "stake": 25, "ruleset": {"preset": "classic"}, "players": PLAYERS,
        "first_dealer": PLAYERS[0]}).get_json()
    headers = {"Authorization": f"Bearer {created['token']}"}
    hand = client.post(f"/api/v1/sessions/{created['id']}/hands", headers=headers,
                       json={"outcome": {"kind": "discard_out", "winner": "Ζωή"}}).get_json()
    base = f"/api/v1/sessions/{created['id']}/export.csv"
    expected = {
        "hands": ["hand", "version", "status", "dealer", "outcome", "description", "recorded_at"]
        + [f"{p} (minor units)" for p in PLAYERS],
        "transfers": ["hand", "version", "status", "from", "to", "amount_minor", "amount_EUR"],
        "payments": ["id", "status", "from", "to", "amount_minor", "amount_EUR", "recorded_at"],
        "history": ["at", "action", "hand", "role", "access_key", "device", "detail"],
    }
    for table, header in expected.items():
        for asked in ({"lang": "en-XA"}, {"lang": "tr"}, {}):
            query = f"?table={table}" + "".join(f"&{k}={v}" for k, v in asked.items())
            assert rows(client, base + query, headers | {"Accept-Language": "lo"})[0] == header, (table, asked)
    hands = rows(client, base + "?table=hands&lang=en-XA", headers)
    with use_language(PSEUDO):
        described = str(describe_hand({"kind": "discard_out", "winner": "Ζωή"}, hand))
    assert hands[1][5] == described  # the engine's sentence, in the reader's language


def test_club_csv_headers_stay_the_english_contract(pseudo_client: Any) -> None:
    client = pseudo_client
    club = client.post("/api/v1/clubs", json={"name": "Λέσχη", "currency": "EUR", "timezone": "UTC"}).get_json()
    headers = {"Authorization": f"Bearer {club['token']}"}
    base = f"/api/v1/clubs/{club['id']}/export.csv"
    expected = {
        "members": ["id", "name", "balance_minor", "balance_EUR"],
        "nights": ["id", "name", "started_at", "closed_at", "status", "carried"],
        "history": ["at", "action", "role", "detail"],
    }
    for table, header in expected.items():
        assert rows(client, f"{base}?table={table}&lang=en-XA", headers)[0] == header
        assert rows(client, f"{base}?table={table}", headers | {"Accept-Language": "ml"})[0] == header
