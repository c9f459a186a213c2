"""How many SQL statements and transactions the hot paths run (issue 24): a recorded hand, a
payment, a void and the table page's live poll (``static/live.js``: ``GET /s/<id>/state``), at
hand 1 and again after 50 hands, on the test database (SQLite file, or PostgreSQL when
``LEDGER_TEST_DATABASE_URL`` names a server). Counted with SQLAlchemy's ``before_cursor_execute``
(an ``executemany`` is one statement) and the engine's ``begin`` events (on SQLite the ``BEGIN`` /
``BEGIN IMMEDIATE`` the ledger sends itself).

What is asserted: no count grows with the night, and the ceilings each path has reached (the
issue's aim for a recorded hand is one transaction of at most 6 statements)."""
from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any, Iterator

import pytest
from sqlalchemy import event

from tests.conftest import session_body

#: statements the ledger sends to run a transaction, not to read or write
_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")
TONK = {"outcome": {"kind": "tonk_out", "winner": "Dee"}, "hands": {}}  # Dee +150, every other seat -50


@dataclass
class Counter:
    """Statements and transactions seen on one engine since :meth:`reset`."""

    sqlite: bool
    statements: list[str] = field(default_factory=list)
    transactions: int = 0
    on: bool = False

    def reset(self) -> None:
        self.statements = []
        self.transactions = 0
        self.on = True

    def stop(self) -> tuple[int, int]:
        self.on = False
        return len(self.statements), self.transactions


@pytest.fixture
def counter(app: Any) -> Iterator[Counter]:
    engine = app.extensions["ledger.engine"]
    seen = Counter(sqlite=engine.dialect.name == "sqlite")

    def before(_conn: Any, _cursor: Any, statement: str, _params: Any, _context: Any, _many: bool) -> None:
        if not seen.on:
            return
        head = statement.lstrip().upper()
        if head.startswith("BEGIN"):
            seen.transactions += 1  # SQLite: the ledger's own BEGIN / BEGIN IMMEDIATE
        elif not head.startswith(_CONTROL):
            seen.statements.append(statement)

    def begin(_conn: Any) -> None:
        if seen.on and not seen.sqlite:
            seen.transactions += 1  # PostgreSQL: psycopg begins without a statement of ours

    event.listen(engine, "before_cursor_execute", before)
    event.listen(engine, "begin", begin)
    yield seen
    event.remove(engine, "before_cursor_execute", before)
    event.remove(engine, "begin", begin)


def _record(client: Any, night: dict[str, Any], hand: dict[str, Any], players: list[str], stake: int) -> Any:
    response = client.post(
        f"/api/v1/sessions/{night['id']}/hands",
        headers=night["headers"] | {"Idempotency-Key": uuid.uuid4().hex},
        json={"outcome": hand["outcome"], "hands": hand["hands"], "seen": {"players": players, "stake": stake}})
    assert response.status_code == 201, response.get_json()
    return response


def _measure(counter: Counter, call: Any) -> tuple[int, int]:
    counter.reset()
    call()
    return counter.stop()


def test_the_hot_paths_do_not_grow_with_the_night(
    app: Any, client: Any, night_data: dict[str, Any], counter: Counter
) -> None:
    created = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    night = {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}}
    phone = app.test_client()
    assert phone.get(f"/join/{created['id']}/{created['token']}").status_code == 302
    players, stake = list(night_data["players"]), night_data["stake"]
    hands = [TONK, TONK]

    def counts() -> dict[str, tuple[int, int]]:
        """One of each hot path now: (statements, transactions)."""
        out = {"hand": _measure(counter, lambda: _record(client, night, hands[0], players, stake))}
        number = client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"]).get_json()["hand_count"]

        def pay() -> None:
            response = client.post(f"/api/v1/sessions/{night['id']}/payments",
                                   headers=night["headers"] | {"Idempotency-Key": uuid.uuid4().hex},
                                   json={"from": "Rosa", "to": "Dee", "amount": 1})
            assert response.status_code == 201, response.get_json()

        out["payment"] = _measure(counter, pay)

        def void() -> None:
            response = client.post(f"/api/v1/sessions/{night['id']}/hands/{number}/void", headers=night["headers"])
            assert response.status_code == 200, response.get_json()

        out["void"] = _measure(counter, void)
        url = f"/s/{night['id']}/state?view=table"
        first = phone.get(url)
        assert first.status_code == 200

        def poll_changed() -> None:
            answer = phone.get(f"{url}&rows=1&since={version}", headers={"If-None-Match": etag})
            assert answer.status_code == 200 and answer.get_json()["changed"] is True

        def poll_unchanged() -> None:
            answer = phone.get(f"{url}&rows=1&since={fresh['version']}", headers={"If-None-Match": fresh_tag})
            assert answer.status_code == 304

        version, etag = first.get_json()["version"], first.headers["ETag"]
        _record(client, night, hands[1], players, stake)  # another phone's hand: the poll has news
        out["poll"] = _measure(counter, poll_changed)
        again = phone.get(url)
        fresh, fresh_tag = again.get_json(), again.headers["ETag"]
        out["poll_304"] = _measure(counter, poll_unchanged)
        return out

    early = counts()
    for i in range(50):
        _record(client, night, hands[i % len(hands)], players, stake)
    late = counts()
    print("\nstatements, transactions at hand 1:", early)
    print("statements, transactions after 50 hands:", late)
    assert late == early  # not one statement or transaction more with the night
    hand_statements, hand_transactions = early["hand"]
    assert hand_statements <= 6 and hand_transactions <= 2  # from 14 in 3: the night and the token's key in one
    # read, who dealt last read by the number's UPDATE … RETURNING, balances as written, no key read (on
    # PostgreSQL one transaction: its reads and writes share one; on SQLite the read ends before the write lock)
    assert early["payment"][0] <= 6 and early["payment"][1] <= 2  # from 10 in 3: outstanding from the lock's read,
    # the club's carry read only for a closed night, the key not looked up first (its unique key stops a twin)
    assert early["void"][0] <= 6 and early["void"][1] <= 2  # from 12 in 3: totals in the void's transaction, the
    # hand voided and read back in one UPDATE … RETURNING, who deals next read with the count's
    assert early["poll"][0] <= 7 and early["poll"][1] == 1  # from 11: the night's counters and state in one read,
    # the night, the phone's key and the version in one
    assert early["poll_304"] == (1, 1)  # unchanged: the night, the phone's key and the version in one read


def test_the_answer_balances_are_the_kept_and_recomputed_ones(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    """The balances a recorded hand answers with come from what its transaction wrote, and what a
    payment answers is left outstanding (and what a void answers, its transaction's) from what it read under the lock: they are the kept ones
    and a full recomputation's (a Tonk night)."""
    from ledger.night import figures
    from ledger.storage.models import GameSession
    from sqlmodel import Session

    created = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    night = {"id": created["id"], "headers": {"Authorization": f"Bearer {created['token']}"}}
    players, stake = list(night_data["players"]), night_data["stake"]
    for hand in night_data["hands"][:6]:
        answer = _record(client, night, hand, players, stake).get_json()
    session = client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"]).get_json()
    assert answer["session_net"] == session["net"]
    with Session(app.extensions["ledger.engine"]) as db:
        stored = db.get(GameSession, night["id"])
        assert answer["session_net"] == figures.recompute(db, stored).net
    voided = client.post(f"/api/v1/sessions/{night['id']}/hands/3/void", headers=night["headers"]).get_json()
    session = client.get(f"/api/v1/sessions/{night['id']}", headers=night["headers"]).get_json()
    assert (voided["session_net"], voided["next_dealer"]) == (session["net"], session["next_dealer"])
    with Session(app.extensions["ledger.engine"]) as db:
        assert voided["session_net"] == figures.recompute(db, db.get(GameSession, night["id"])).net
    paid = client.post(f"/api/v1/sessions/{night['id']}/payments", headers=night["headers"],
                       json={"from": "Tomás", "to": "Dee", "amount": 1, "confirm": True}).get_json()
    listed = client.get(f"/api/v1/sessions/{night['id']}/payments", headers=night["headers"]).get_json()
    assert paid["outstanding"] == listed["outstanding"]
    with Session(app.extensions["ledger.engine"]) as db:
        again = figures.recompute(db, db.get(GameSession, night["id"]))
        assert paid["outstanding"] == {p: again.net[p] + again.paid[p] for p in again.net}
