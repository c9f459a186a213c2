"""Scale-out as the README describes it: gunicorn with two worker processes on PostgreSQL, rate
limits counted in a real Redis. The join-code budget is one budget across both workers, and
hands recorded through both at once are all kept.

Runs when the suite is given PostgreSQL (``LEDGER_TEST_DATABASE_URL``; skipped on SQLite).
Needs Redis (``LEDGER_TEST_REDIS_URL``, flushed first, or a ``redis-server`` on the PATH,
started here on a free port): skipped without it on a developer's machine, a failure in CI
(``CI`` set).
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import PG_URL, session_body
from live_server import REPO, call, free_port

pytestmark = pytest.mark.slow


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{what} is required in CI")
    pytest.skip(f"{what} not available")


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"exited early:\n{log.read_text()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"nothing listens on {port}:\n{log.read_text()}")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    given = os.environ.get("LEDGER_TEST_REDIS_URL")
    if given:
        import redis

        redis.Redis.from_url(given).flushdb()  # no guesses counted by an earlier run
        yield given
        return
    binary = shutil.which("redis-server")
    if binary is None:
        _missing("redis-server")
    port = free_port()
    log = tmp_path / "redis.log"
    with log.open("wb") as out:
        process = subprocess.Popen([binary, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
                                    "--appendonly", "no", "--dir", str(tmp_path)], stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, process, log)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture
def workers(database_url: str, redis_url: str, tmp_path: Path) -> Iterator[str]:
    if not PG_URL:
        pytest.skip("runs in the PostgreSQL pass (LEDGER_TEST_DATABASE_URL)")
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database_url, SECRET_KEY="scale-out-secret",
               RATELIMIT_STORAGE_URI=redis_url)
    log = tmp_path / "gunicorn.log"
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    with log.open("wb") as out:
        process = subprocess.Popen([gunicorn, "--preload", "--workers", "2", "--threads", "4",
                                    "--bind", f"127.0.0.1:{port}", "ledger:create_app()"],
                                   cwd=REPO, env=env, stdout=out, stderr=subprocess.STDOUT)
    try:
        _wait_for_port(port, process, log)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(30)


def test_two_workers_share_the_join_budget_and_keep_every_hand(
    workers: str, night_data: dict[str, Any]
) -> None:
    status, body = call(workers, "POST", "/api/v1/sessions", session_body(night_data))
    assert status == 201, body
    session_id, headers = body["id"], {"Authorization": f"Bearer {body['token']}"}

    # 10 wrong codes a minute per client, counted in Redis: fresh connections land on both
    # workers, and still the 11th guess is refused
    statuses = [call(workers, "POST", "/api/v1/join", {"code": f"ZZZZZ{i}"})[0] for i in range(10)]
    assert statuses == [404] * 10
    for _ in range(4):
        assert call(workers, "POST", "/api/v1/join", {"code": "ZZZZZZ"})[0] == 429

    acknowledged: dict[str, int] = {}
    failures: list[Any] = []
    lock = threading.Lock()

    def phone(t: int) -> None:
        for i in range(10):
            hand = night_data["hands"][(t * 10 + i) % len(night_data["hands"])]
            key = f"w{t}-{i}"
            status, answer = call(workers, "POST", f"/api/v1/sessions/{session_id}/hands",
                                  {"outcome": hand["outcome"], "hands": hand["hands"]}, headers | {"Idempotency-Key": key})
            with lock:
                if status == 201:
                    acknowledged[key] = answer["number"]
                else:
                    failures.append((status, answer))

    threads = [threading.Thread(target=phone, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert failures == []
    assert sorted(acknowledged.values()) == list(range(1, 81))
    status, listing = call(workers, "GET", f"/api/v1/sessions/{session_id}/hands", headers=headers)
    assert [h["number"] for h in listing["hands"]] == list(range(1, 81))
    status, session = call(workers, "GET", f"/api/v1/sessions/{session_id}", headers=headers)
    assert session["hand_count"] == 80 and sum(session["net"].values()) == 0
