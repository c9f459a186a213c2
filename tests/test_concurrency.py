"""Many phones at once, and a server killed mid-burst, through a real server process on
127.0.0.1 (SQLite by default; PostgreSQL when the suite is given one)."""
from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

from conftest import session_body
from live_server import ServerProcess, call, free_port

THREADS = 20
HANDS_PER_THREAD = 25


@pytest.fixture
def server(database_url: str, tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(database_url, free_port())
    process.start(tmp_path / "server.log")
    yield process
    process.stop()


def open_table(base: str, night_data: dict[str, Any]) -> tuple[str, dict[str, str]]:
    status, body = call(base, "POST", "/api/v1/sessions", session_body(night_data))
    assert status == 201, body
    return body["id"], {"Authorization": f"Bearer {body['token']}"}


def hand_of(night_data: dict[str, Any], index: int) -> dict[str, Any]:
    hand = night_data["hands"][index % len(night_data["hands"])]
    return {"outcome": hand["outcome"], "hands": hand["hands"]}


def expected_net(night_data: dict[str, Any], index: int) -> dict[str, int]:
    return night_data["hands"][index % len(night_data["hands"])]["expected"]["net"]


def check_ledger(base: str, session_id: str, headers: dict[str, str], night_data: dict[str, Any],
                 index_of_number: dict[int, int] | None = None) -> list[dict[str, Any]]:
    """Numbers unique and contiguous; each hand paid as its entry says; balances = sum of hands."""
    status, listing = call(base, "GET", f"/api/v1/sessions/{session_id}/hands", headers=headers)
    assert status == 200
    hands = listing["hands"]
    assert [h["number"] for h in hands] == list(range(1, len(hands) + 1))
    total = {p: 0 for p in night_data["players"]}
    for hand in hands:
        for player, amount in hand["net"].items():
            total[player] += amount
    status, session = call(base, "GET", f"/api/v1/sessions/{session_id}", headers=headers)
    assert session["net"] == total
    assert session["hand_count"] == len(hands)
    assert sum(total.values()) == 0
    return hands


def test_twenty_phones_post_at_once(server: ServerProcess, night_data: dict[str, Any]) -> None:
    session_id, headers = open_table(server.base, night_data)
    acknowledged: dict[str, int] = {}
    failures: list[tuple[int, Any]] = []
    lock = threading.Lock()
    start = threading.Barrier(THREADS)

    def phone(t: int) -> None:
        start.wait()
        for i in range(HANDS_PER_THREAD):
            key = f"phone{t}-hand{i}"
            status, body = call(server.base, "POST", f"/api/v1/sessions/{session_id}/hands",
                                hand_of(night_data, t * HANDS_PER_THREAD + i), headers | {"Idempotency-Key": key})
            with lock:
                if status == 201:
                    acknowledged[key] = body["number"]
                else:
                    failures.append((status, body))

    threads = [threading.Thread(target=phone, args=(t,)) for t in range(THREADS)]
    began = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    elapsed = time.monotonic() - began
    assert failures == []
    assert len(acknowledged) == THREADS * HANDS_PER_THREAD
    assert sorted(acknowledged.values()) == list(range(1, THREADS * HANDS_PER_THREAD + 1))
    hands = check_ledger(server.base, session_id, headers, night_data)
    assert len(hands) == THREADS * HANDS_PER_THREAD
    # every hand is paid exactly as its entry says
    by_number = {h["number"]: h for h in hands}
    for key, number in acknowledged.items():
        t, i = (int(part[len(prefix):]) for part, prefix in zip(key.split("-"), ("phone", "hand")))
        assert by_number[number]["net"] == expected_net(night_data, t * HANDS_PER_THREAD + i)
    print(f"{len(hands)} hands from {THREADS} threads in {elapsed:.1f} s")


def test_repeated_key_from_many_phones_records_once(server: ServerProcess, night_data: dict[str, Any]) -> None:
    session_id, headers = open_table(server.base, night_data)
    statuses: list[int] = []
    start = threading.Barrier(10)

    def tap() -> None:
        start.wait()
        status, _ = call(server.base, "POST", f"/api/v1/sessions/{session_id}/hands", hand_of(night_data, 0),
                         headers | {"Idempotency-Key": "double-tap"})
        statuses.append(status)

    threads = [threading.Thread(target=tap) for _ in range(10)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(statuses) == [200] * 9 + [201]
    assert len(check_ledger(server.base, session_id, headers, night_data)) == 1


@pytest.mark.slow
def test_sigkill_mid_burst_loses_no_acknowledged_hand(
    server: ServerProcess, night_data: dict[str, Any], tmp_path: Path
) -> None:
    session_id, headers = open_table(server.base, night_data)
    acknowledged: dict[int, dict[str, int]] = {}
    lock = threading.Lock()
    stop = threading.Event()

    def phone(t: int) -> None:
        i = 0
        while not stop.is_set():
            index = t * 1000 + i
            try:
                status, body = call(server.base, "POST", f"/api/v1/sessions/{session_id}/hands",
                                    hand_of(night_data, index), headers | {"Idempotency-Key": f"k{index}"}, timeout=10)
            except OSError:
                return  # the server is gone
            if status == 201:
                with lock:
                    acknowledged[body["number"]] = expected_net(night_data, index)
            i += 1

    threads = [threading.Thread(target=phone, args=(t,)) for t in range(8)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 60
    while len(acknowledged) < 60 and time.monotonic() < deadline:
        time.sleep(0.01)
    server.kill()
    stop.set()
    for thread in threads:
        thread.join(30)
    assert len(acknowledged) >= 60

    server.start(tmp_path / "server-restarted.log")
    hands = check_ledger(server.base, session_id, headers, night_data)
    by_number = {h["number"]: h for h in hands}
    missing = sorted(set(acknowledged) - set(by_number))
    assert missing == []
    for number, net in acknowledged.items():
        assert by_number[number]["net"] == net
    # the restarted server carries on numbering where the ledger stands
    status, body = call(server.base, "POST", f"/api/v1/sessions/{session_id}/hands", hand_of(night_data, 0), headers)
    assert status == 201 and body["number"] == len(hands) + 1


def test_twin_submissions_stating_the_number_record_once(server: ServerProcess, night_data: dict[str, Any]) -> None:
    """A double tap sends the same key and the same stated number at the same instant: one
    hand, and both taps are told it was saved (never 'number taken')."""
    session_id, headers = open_table(server.base, night_data)
    def tap(number: int, start: threading.Barrier, statuses: list[int]) -> None:
        start.wait()
        status, _ = call(server.base, "POST", f"/api/v1/sessions/{session_id}/hands",
                         hand_of(night_data, number) | {"number": number},
                         headers | {"Idempotency-Key": f"twin-{number}"})
        statuses.append(status)

    for number in (1, 2, 3):
        statuses: list[int] = []
        start = threading.Barrier(6)
        threads = [threading.Thread(target=tap, args=(number, start, statuses)) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        assert sorted(statuses) == [200] * 5 + [201], statuses
    assert len(check_ledger(server.base, session_id, headers, night_data)) == 3
