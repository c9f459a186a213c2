"""Finding 12 of the "nothing lost" issue: ``POST /api/v1/settle`` needs no token, so it is
rate-limited per client and refuses more balances than a table night can have (422)."""
from __future__ import annotations

from typing import Any, Iterator

import pytest

from ledger import create_app
from ledger.access.limits import SETTLE_LIMIT, SETTLE_MAX_BALANCES, SETTLE_MAX_NONZERO


@pytest.fixture
def shipped_client(database_url: str) -> Iterator[Any]:
    """A client of an app with the shipped settle limit (the suite's ``app`` raises it)."""
    app = create_app({"TESTING": True, "DATABASE_URL": database_url, "SECRET_KEY": "test-secret"})
    yield app.test_client()
    app.extensions["ledger.engine"].dispose()


def ring(count: int) -> dict[str, int]:
    """``count`` non-zero balances that sum to zero: P1..P(count-1) owed 1..., the last pays."""
    balances = {f"P{i}": i for i in range(1, count)}
    balances[f"P{count}"] = -sum(balances.values())
    return balances


def test_finding_12_settle_is_rate_limited_per_client(shipped_client: Any) -> None:
    assert SETTLE_LIMIT == "30 per minute"
    body = {"balances": {"A": 5, "B": -5}}
    here = {"REMOTE_ADDR": "192.0.2.10"}
    for _ in range(30):
        assert shipped_client.post("/api/v1/settle", json=body, environ_base=here).status_code == 200
    refused = shipped_client.post("/api/v1/settle", json=body, environ_base=here)
    assert refused.status_code == 429
    assert refused.get_json() == {
        "error": "too_many_attempts",
        "message": "Too many attempts; wait a minute and try again.",
        "field": None,
    }
    other = shipped_client.post("/api/v1/settle", json=body, environ_base={"REMOTE_ADDR": "192.0.2.11"})
    assert other.status_code == 200
    assert other.get_json()["transfers"] == [{"from": "B", "to": "A", "amount": 5}]


def test_finding_12_settle_refuses_more_non_zero_balances_than_the_cap(client: Any) -> None:
    assert SETTLE_MAX_NONZERO == 24
    at_cap = client.post("/api/v1/settle", json={"balances": ring(24)})
    assert at_cap.status_code == 200
    assert at_cap.get_json()["transfer_count"] <= 23
    past = client.post("/api/v1/settle", json={"balances": ring(25)})
    assert past.status_code == 422
    body = past.get_json()
    assert (body["error"], body["field"]) == ("invalid_entry", "balances")
    assert body["message"] == (
        "balances: Settle at most 24 non-zero balances at once; 25 were sent."
    )


def test_finding_12_settle_refuses_more_entries_than_the_cap(client: Any) -> None:
    assert SETTLE_MAX_BALANCES == 64
    balances = {"A": 7, "B": -7} | {f"Z{i}": 0 for i in range(62)}
    assert client.post("/api/v1/settle", json={"balances": balances}).status_code == 200
    balances["Z62"] = 0
    past = client.post("/api/v1/settle", json={"balances": balances})
    assert past.status_code == 422
    body = past.get_json()
    assert (body["error"], body["field"]) == ("invalid_entry", "balances")
    assert body["message"] == "balances: Send at most 64 balances at once; 65 were sent."


@pytest.mark.parametrize("blank", ["", " ", "\u3000\t"])
def test_settle_refuses_a_blank_name_naming_the_field(client: Any, blank: str) -> None:
    """Issue 20: a balance under a blank name was settled (a transfer to nobody); 422 now."""
    refused = client.post("/api/v1/settle", json={"balances": {"Ann": 5, blank: -5}})
    assert refused.status_code == 422, refused.get_json()
    answer = refused.get_json()
    assert (answer["error"], answer["field"]) == ("invalid_entry", "balances")
    assert answer["message"] == "balances: A player must be named by a non-empty text."
    assert client.post("/api/v1/settle", json={"balances": {"Ann": 5, "Bo": -5}}).status_code == 200
