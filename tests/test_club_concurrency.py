"""Phones at the same moment on one club, through a real server process: one name added from
four phones is one member (one 201, the rest 200 with that member), and one payment sent twice at
once under one submission key is one payment (201 and 200, the same id). Run on PostgreSQL when
``LEDGER_TEST_DATABASE_URL`` is set, else on SQLite."""
from __future__ import annotations

import threading
from typing import Any, Callable

from live_server import ServerProcess, call
from test_figures_concurrency import server  # noqa: F401  (fixture: the app in a server process of its own)


def at_once(calls: list[Callable[[], tuple[int, Any]]]) -> list[tuple[int, Any]]:
    """Run ``calls`` in threads released together; their answers in the order given."""
    start = threading.Barrier(len(calls))
    answers: list[tuple[int, Any] | None] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert all(answer is not None for answer in answers)
    return answers  # type: ignore[return-value]


def test_one_name_from_four_phones_and_one_payment_sent_twice_are_stored_once(server: ServerProcess) -> None:
    status, club = call(server.base, "POST", "/api/v1/clubs", {"name": "Friday club", "currency": "USD",
                                                               "members": ["Dee", "Marcus"]})
    assert status == 201, club
    owner = {"Authorization": f"Bearer {club['token']}"}
    url = f"/api/v1/clubs/{club['id']}/members"
    spellings = ["Zoë", "zoë", "ZOË", "Zoë "]
    answers = at_once([lambda name=name: call(server.base, "POST", url, {"name": name}, owner) for name in spellings])
    assert sorted(status for status, _ in answers) == [200, 200, 200, 201], answers
    assert {body["id"] for _, body in answers} == {answers[0][1]["id"]}
    status, state = call(server.base, "GET", f"/api/v1/clubs/{club['id']}", headers=owner)
    names = [m["name"] for m in state["members"]]
    assert len(names) == 3 and names[2] in {"Zoë", "zoë", "ZOË"}  # as the first phone to arrive typed it

    pay = {"from": "Marcus", "to": "Dee", "amount": 25, "confirm": True}
    keyed = owner | {"Idempotency-Key": "tap-1"}
    answers = at_once([lambda: call(server.base, "POST", f"/api/v1/clubs/{club['id']}/payments", pay, keyed)] * 2)
    assert sorted(status for status, _ in answers) == [200, 201], answers
    assert answers[0][1]["id"] == answers[1][1]["id"]
    status, listed = call(server.base, "GET", f"/api/v1/clubs/{club['id']}/payments", headers=owner)
    assert [p["amount"] for p in listed["payments"]] == [25]
    assert listed["balances"] == {"Dee": -25, "Marcus": 25, names[2]: 0}
