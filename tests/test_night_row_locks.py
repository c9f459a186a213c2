"""Issue 24, item 2: the write lock holds only the writes. On PostgreSQL there is no
process-wide lock: a change locks its night's row, so hands of different nights never wait for
each other and the hands of one night queue on that row. On either database, reading (a poll,
the table page, a night's JSON) never waits for a writer.

Each test holds the lock itself from a connection of its own (the night's row ``FOR UPDATE`` on
PostgreSQL, SQLite's write lock with ``BEGIN IMMEDIATE``), sends requests from threads, and
waits for conditions (a request answered, a backend waiting on the lock), never for time: a
ceiling only ends a hung test."""
from __future__ import annotations

import sqlite3
import threading
import time
import uuid
from typing import Any, Callable

import pytest
from sqlalchemy import text

from conftest import PG_URL, session_body

CEILING_S = 60  # a request that needs the held lock would hang here; nothing is timed


class Request(threading.Thread):
    """One request sent from a thread of its own, with a test client of its own."""

    def __init__(self, app: Any, send: Callable[[Any], Any]) -> None:
        super().__init__(daemon=True)
        self.app, self.send, self.response = app, send, None

    def run(self) -> None:
        self.response = self.send(self.app.test_client())

    def answered(self) -> Any:
        self.join(CEILING_S)
        assert not self.is_alive(), "the request waited on a lock it does not need"
        return self.response


def _night(client: Any, night_data: dict[str, Any]) -> tuple[str, dict[str, str]]:
    body = client.post("/api/v1/sessions", json=session_body(night_data)).get_json()
    return body["id"], {"Authorization": f"Bearer {body['token']}"}


def _hand(night_id: str, headers: dict[str, str], night_data: dict[str, Any]) -> Callable[[Any], Any]:
    hand = night_data["hands"][0]

    def send(client: Any) -> Any:
        return client.post(f"/api/v1/sessions/{night_id}/hands", json={"outcome": hand["outcome"], "hands": hand["hands"]},
                           headers=headers | {"Idempotency-Key": uuid.uuid4().hex})
    return send


def _waiting_on_a_lock(engine: Any, holder_pid: int) -> bool:
    with engine.connect() as conn:
        return bool(conn.execute(text(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> :holder"
            " AND datname = current_database()"), {"holder": holder_pid}).scalar())


def test_hands_of_other_nights_do_not_wait_and_one_nights_hands_queue_on_its_row(
        app: Any, client: Any, night_data: dict[str, Any]) -> None:
    if not PG_URL:
        pytest.skip("runs in the PostgreSQL pass (LEDGER_TEST_DATABASE_URL): SQLite has one writer per file")
    busy, busy_headers = _night(client, night_data)
    other, other_headers = _night(client, night_data)
    engine = app.extensions["ledger.engine"]
    holder = engine.connect()
    transaction = holder.begin()
    holder.execute(text("SELECT id FROM game_session WHERE id = :id FOR UPDATE"), {"id": busy})
    holder_pid = holder.execute(text("SELECT pg_backend_pid()")).scalar()
    try:
        # a hand of the busy night queues on its row (a process-wide lock it took would hold every other night back)
        queued = Request(app, _hand(busy, busy_headers, night_data))
        queued.start()
        deadline = time.monotonic() + CEILING_S
        while not _waiting_on_a_lock(engine, holder_pid):
            assert queued.is_alive(), f"the hand did not wait for the night's row: {queued.response}"
            assert time.monotonic() < deadline, "the hand never queued on the night's row"
            time.sleep(0.01)
        # meanwhile another night's hands and void go through, and reading the busy night waits for nothing
        for send in (_hand(other, other_headers, night_data), _hand(other, other_headers, night_data)):
            recorded = Request(app, send)
            recorded.start()
            assert recorded.answered().status_code == 201
        voided = Request(app, lambda c: c.post(f"/api/v1/sessions/{other}/hands/2/void", json={},
                                               headers=other_headers))
        voided.start()
        assert voided.answered().status_code == 200
        read = Request(app, lambda c: c.get(f"/api/v1/sessions/{busy}", headers=busy_headers))
        read.start()
        assert read.answered().get_json()["hand_count"] == 0
        assert queued.is_alive()  # still queued behind the holder
    finally:
        transaction.commit()
        holder.close()
    response = queued.answered()
    assert response.status_code == 201, response.get_json()
    assert response.get_json()["number"] == 1
    nights = {night: client.get(f"/api/v1/sessions/{night}", headers=headers).get_json()
              for night, headers in ((busy, busy_headers), (other, other_headers))}
    assert (nights[busy]["hand_count"], nights[other]["hand_count"]) == (1, 1)


def test_reading_never_waits_for_a_writer(app: Any, client: Any, night_data: dict[str, Any]) -> None:
    night, headers = _night(client, night_data)
    assert _hand(night, headers, night_data)(client).status_code == 201
    phone = app.test_client()
    assert phone.get(f"/join/{night}/{headers['Authorization'].split()[1]}").status_code == 302
    engine = app.extensions["ledger.engine"]
    if PG_URL:
        holder = engine.connect()
        transaction = holder.begin()
        holder.execute(text("SELECT id FROM game_session WHERE id = :id FOR UPDATE"), {"id": night})
    else:  # SQLite: the file's write lock, as a writer in another process holds it
        holder = sqlite3.connect(engine.url.database, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")
        transaction = None
    try:
        reads = [
            Request(app, lambda c: c.get(f"/api/v1/sessions/{night}", headers=headers)),
            Request(app, lambda c: c.get(f"/api/v1/sessions/{night}/settlement", headers=headers)),
            Request(app, lambda c: c.get(f"/api/v1/sessions/{night}/hands/1", headers=headers)),
        ]
        for read in reads:
            read.start()
        answers = [read.answered() for read in reads]
        assert [a.status_code for a in answers] == [200, 200, 200]
        assert answers[0].get_json()["hand_count"] == 1
        for path in (f"/s/{night}", f"/s/{night}/state", f"/s/{night}/settle"):
            assert phone.get(path).status_code == 200, path  # the phone's own pages, from this thread
    finally:
        if transaction is not None:
            transaction.commit()
        else:
            holder.execute("COMMIT")
        holder.close()
