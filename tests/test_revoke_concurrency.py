"""A recovery code works once even when several phones type it at the same moment, through a
real server process (SQLite by default; PostgreSQL when the suite is given one)."""
from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import session_body
from live_server import ServerProcess, call, free_port

PHONES = 8  # under the join budget of 10 guesses a minute per client


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(database_url, free_port())
    process.start(tmp_path / "server.log")
    yield process
    process.stop()


def test_eight_phones_typing_one_recovery_code_at_once_make_one_host(
        server: ServerProcess, night_data: dict[str, Any]) -> None:
    status, night = call(server.base, "POST", "/api/v1/sessions", session_body(night_data))
    assert status == 201
    start = threading.Barrier(PHONES)
    answers: list[tuple[int, Any]] = []
    lock = threading.Lock()

    def recover(index: int) -> None:
        start.wait()
        answer = call(server.base, "POST", f"/api/v1/sessions/{night['id']}/recover", {"code": night["recovery_code"]},
                      headers={"X-Device": f"phone {index}"})
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=recover, args=(i,)) for i in range(PHONES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    statuses = sorted(status for status, _body in answers)
    assert statuses == [201] + [410] * (PHONES - 1)
    assert {body["error"] for status, body in answers if status == 410} == {"code_used"}
    status, phones = call(server.base, "GET", f"/api/v1/sessions/{night['id']}/phones",
                          headers={"Authorization": f"Bearer {night['token']}"})
    assert status == 200 and [p["role"] for p in phones] == ["host", "host"]  # the host link and one recovered
